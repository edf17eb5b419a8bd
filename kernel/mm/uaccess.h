/*
 * Every pointer a user passes is checked here: it must lie in the user half
 * (so no user can make the kernel read or write kernel memory), and any
 * fault while copying (unmapped, read-only) becomes -EFAULT, never a panic.
 */
#ifndef KERNEL_MM_UACCESS_H
#define KERNEL_MM_UACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mm_struct;

bool access_ok(uint64_t addr, uint64_t size);
/* The address space copies check against (the task layer installs it: current->mm). */
extern struct mm_struct *(*uaccess_current_mm)(void);
int copy_from_user(void *dst, uint64_t src, size_t n);
int copy_to_user(uint64_t dst, const void *src, size_t n);
/*
 * Linux's own copy_to_user contract: copies up to the first byte that
 * cannot be written and returns how many were not (0: all).
 */
size_t copy_to_user_partial(uint64_t dst, const void *src, size_t n);
/*
 * For a system call that runs without the big kernel lock (syscall.c):
 * copies only to pages already present, user and writable, and does not
 * handle a fault (that needs the lock).  -EFAULT when it cannot: the
 * caller then takes the lock and uses copy_to_user, which populates pages,
 * breaks copy-on-write and says EFAULT for the user's mistakes.  0: copied.
 * Linux 6.6's copy_to_user_nofault (mm/maccess.c).  It walks and copies
 * with interrupts off (uaccess.c says why).
 */
int copy_to_user_nofault(uint64_t dst, const void *src, size_t n);
/*
 * Linux's futex_atomic_cmpxchg_inatomic: if the user word at uaddr equals
 * oldval it becomes newval, in one locked instruction, so no other CPU's
 * atomic operation on the word is lost; *curval is the value found.  0 or
 * -EFAULT (outside the user half, not a writable mapping, a fault).
 */
int futex_atomic_cmpxchg_inatomic(uint32_t *curval, uint64_t uaddr, uint32_t oldval,
				  uint32_t newval);
/* Length of the string copied (without the NUL), -EFAULT, or -ENAMETOOLONG if >= max. */
long strncpy_from_user(char *dst, uint64_t src, size_t max);

#endif
