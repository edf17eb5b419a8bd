#ifndef KERNEL_MM_LAYOUT_H
#define KERNEL_MM_LAYOUT_H

#include <stdint.h>

#include "kernel/mm/mm.h"

/* The layout of a freshly spawned program: stack, mmap base, exe base, brk. */
void arch_pick_mmap_layout(struct mm_struct *mm, uint64_t exe_span);

/* The profile's constants, for the ASLR suite's expected ranges. */
struct aslr_profile {
	const char *name;
	uint64_t task_size, stack_top, dyn_base;
	uint32_t stack_rnd_bits, mmap_rnd_bits;
};
const struct aslr_profile *aslr_current_profile(void);
const struct aslr_profile *aslr_profile_by_index(int ia32);

extern int randomize_va_space; /* 0, 1, 2: as /proc/sys/kernel/randomize_va_space */
extern int aslr_ia32;          /* aslr_profile=ia32 */

#endif
