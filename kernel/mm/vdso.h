#ifndef KERNEL_MM_VDSO_H
#define KERNEL_MM_VDSO_H

#include "kernel/mm/mm.h"

/* [vdso] text + [vvar] data: what vdso_addr() sizes its draw for (the rule sets' VDSO_LEN,
 * kernel/aslr/) */
#define VDSO_MAP_LEN (2 * 4096ULL)

/* Boot, after tsc_init: copies the image into its page and fills [vvar]; 0 or -errno. */
int vdso_init(void);
/*
 * exec (arch_setup_additional_pages): maps the vDSO at mm->vdso_base (the
 * drawn address) or, when that range is taken, where get_unmapped_area
 * finds room; sets mm->vdso.  0, or -ENOMEM.  Without vdso_init: maps
 * nothing, mm->vdso stays 0 (no AT_SYSINFO_EHDR), as vdso_enabled=0.
 */
int map_vdso(struct mm_struct *mm);
/* The image's bytes, for the tests. */
const void *vdso_image(uint64_t *size);

#endif
