#ifndef KERNEL_MM_VDSO_H
#define KERNEL_MM_VDSO_H

#include "kernel/mm/mm.h"

/* [vdso] text + [vvar] data: what vdso_addr() sizes its draw for (the rule sets' VDSO_LEN,
 * kernel/aslr/) */
#define VDSO_MAP_LEN (2 * 4096ULL)

/* Boot, after tsc_init: copies the image into its page and fills [vvar]; 0 or -errno. */
int vdso_init(void);
/*
 * The [vvar] page's vdso_rng_data: the crng's generation hook (every base
 * key change: user-space getrandom states refill) and its readiness.
 */
void vdso_rng_generation_advance(unsigned long base_generation);
void vdso_rng_set_ready(void);
/*
 * exec (arch_setup_additional_pages): maps the vDSO at mm->vdso_base (the
 * drawn address) or, when that range is taken, where get_unmapped_area
 * finds room; sets mm->vdso.  0, or -ENOMEM.  Without vdso_init: maps
 * nothing, mm->vdso stays 0 (no AT_SYSINFO_EHDR), as vdso_enabled=0.
 * ia32: an IA-32 program's (compat_arch_setup_additional_pages): the IA-32
 * vDSO where get_unmapped_area puts it, never at a drawn address.
 */
int map_vdso(struct mm_struct *mm, bool ia32);
/* The images' bytes, for the tests: the 64-bit one with [vvar] after or below the text. */
const void *vdso_image(bool vvar_below, uint64_t *size);
const void *vdso32_image(uint64_t *size);
/*
 * Offsets in the IA-32 vDSO (vdso.mk reads them from its symbol table, as
 * Linux's vdso_image_32.sym_*): AT_SYSINFO's entry, the return address of a
 * signal frame without SA_RESTORER, where a sysenter or syscall from
 * __kernel_vsyscall returns (int80_landing_pad), and the slot vdso_init
 * patches with the entry instruction (vdso32_entry_alt).
 */
extern const uint64_t vdso32_sym___kernel_vsyscall, vdso32_sym___kernel_sigreturn,
	vdso32_sym___kernel_rt_sigreturn, vdso32_sym_int80_landing_pad, vdso32_sym_vdso32_entry_alt;

#endif
