/* System calls: the table and the handlers; numbers and values in kernel/uapi/aslrbench.h. */
#ifndef KERNEL_SYSCALL_SYSCALL_H
#define KERNEL_SYSCALL_SYSCALL_H

#include <stdint.h>

#include "kernel/uapi/aslrbench.h" /* the numbers, shared with user programs */

struct syscall_args {
	uint64_t a0, a1, a2, a3, a4, a5;
};
typedef long (*syscall_fn)(const struct syscall_args *a);

void syscall_init(void);

/* Handlers, one file per area. */
long sys_read(const struct syscall_args *a);
long sys_write(const struct syscall_args *a);
long sys_open(const struct syscall_args *a);
long sys_close(const struct syscall_args *a);
long sys_lseek(const struct syscall_args *a);
long sys_mmap(const struct syscall_args *a);
long sys_munmap(const struct syscall_args *a);
long sys_brk(const struct syscall_args *a);
long sys_sched_yield(const struct syscall_args *a);
long sys_nanosleep(const struct syscall_args *a);
long sys_clock_gettime(const struct syscall_args *a);
long sys_getpid(const struct syscall_args *a);
long sys_getppid(const struct syscall_args *a);
long sys_fork(const struct syscall_args *a);
long sys_exit(const struct syscall_args *a);
long sys_wait4(const struct syscall_args *a);
long sys_getuid(const struct syscall_args *a);
long sys_geteuid(const struct syscall_args *a);
long sys_getgid(const struct syscall_args *a);
long sys_getegid(const struct syscall_args *a);
long sys_setuid(const struct syscall_args *a);
long sys_setresuid(const struct syscall_args *a);
long sys_getresuid(const struct syscall_args *a);
long sys_setresgid(const struct syscall_args *a);
long sys_getresgid(const struct syscall_args *a);
long sys_prctl(const struct syscall_args *a);
long sys_reboot(const struct syscall_args *a);
long sys_getrandom(const struct syscall_args *a);
long sys_spawn(const struct syscall_args *a);
long sys_execve(const struct syscall_args *a);
long sys_aslrbench_job(const struct syscall_args *a);
long sys_aslrbench_test(const struct syscall_args *a);
long sys_getdents_pids(const struct syscall_args *a);
long sys_bench_submit(const struct syscall_args *a);
long sys_aslrbench_lab(const struct syscall_args *a);
long sys_fuzz_note(const struct syscall_args *a);

#endif
