/*
 * System calls: the handlers and the dispatch; the table is kernel/uapi/syscall_64.h,
 * the numbers and values kernel/uapi/aslrbench.h.
 */
#ifndef KERNEL_SYSCALL_SYSCALL_H
#define KERNEL_SYSCALL_SYSCALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/uapi/aslrbench.h" /* the numbers, shared with user programs */

struct syscall_args {
	uint64_t a0, a1, a2, a3, a4, a5;
};
typedef long (*syscall_fn)(const struct syscall_args *a);

void syscall_init(void);

/* The handlers, one file per area (kernel/uapi/syscall_64.h names them). */
#define __SYSCALL(nr, name, entry, fuzz, lock) long entry(const struct syscall_args *a);
#include "kernel/uapi/syscall_64.h"
#undef __SYSCALL
/* The IA-32 table's handlers (kernel/uapi/syscall_32.h), the native ones declared again. */
#define __SYSCALL_I386(nr, name, entry) long entry(const struct syscall_args *a);
#include "kernel/uapi/syscall_32.h"
#undef __SYSCALL_I386
#define NR_ia32_syscalls 440 /* faccessat2 (439) is the last number the table holds */
/*
 * An unknown call's debug line, once per (program, number, ABI); name: the
 * table's name for it ("" when none).
 */
void syscall_warn_unknown(uint64_t nr, const char *name, bool ia32);
/* sys_misc.c: writes the time left to urem, returns the restart code. */
long nanosleep_interrupted(uint64_t left_ns, uint64_t urem);
/* sys_proc.c: wait4's and waitid's rusage, the times in clock ticks. */
struct linux_rusage;
void rusage_from_ticks(struct linux_rusage *ru, uint64_t utime, uint64_t stime);
/* sys_proc.c: the rusage at uaddr, native or i386's compat_rusage: -EFAULT or 0. */
long put_rusage(uint64_t uaddr, uint64_t utime, uint64_t stime, bool compat);
/*
 * For the calls that run without the big kernel lock (syscall.c says which
 * and why): takes it at the point such a call needs it (a page to populate,
 * a sleep), with interrupts back on as every locked call has them; nothing
 * when this CPU holds it already (the call came through the IA-32 entry,
 * which always takes it).
 */
void syscall_lock_kernel(void);
/*
 * copy_to_user for such a call: copy_to_user_nofault while it runs
 * without the lock, else (a page to populate, a bad pointer to report)
 * syscall_lock_kernel and copy_to_user.  0 or -EFAULT.
 */
int syscall_copy_to_user(uint64_t dst, const void *src, size_t n);
/* A system call's name, "" when not in the table (the warning's). */
const char *syscall_name(uint64_t nr);

#endif
