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

/* The ranges the rules draw from, for the ASLR suite and tests. */
#define ASLR_BRK_RANGE	 0x02000000ULL /* randomize_range(brk, brk + 32 MiB) */
#define ASLR_STACK_ALIGN 8192ULL       /* arch_align_stack: sp -= rnd % 8192 */
/* The mmap base with no randomisation: TASK_SIZE - gap (mmap_rnd subtracts from it). */
uint64_t aslr_mmap_top(const struct aslr_profile *p);

extern int randomize_va_space; /* 0, 1, 2: as /proc/sys/kernel/randomize_va_space */
extern int aslr_ia32;	       /* aslr_profile=ia32 */

#endif
