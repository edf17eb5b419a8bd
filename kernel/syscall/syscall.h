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

/* The Linux process ABI (issue 14): sys_linux.c, sys_signal.c, sys_iov.c, sys_proc.c, sys_mm.c. */
long sys_mprotect(const struct syscall_args *a);
long sys_rt_sigaction(const struct syscall_args *a);
long sys_rt_sigprocmask(const struct syscall_args *a);
long sys_writev(const struct syscall_args *a);
long sys_clone(const struct syscall_args *a);
long sys_vfork(const struct syscall_args *a);
long sys_uname(const struct syscall_args *a);
long sys_getrlimit(const struct syscall_args *a);
long sys_setrlimit(const struct syscall_args *a);
long sys_prlimit64(const struct syscall_args *a);
long sys_sysinfo(const struct syscall_args *a);
long sys_setpgid(const struct syscall_args *a);
long sys_getpgrp(const struct syscall_args *a);
long sys_setsid(const struct syscall_args *a);
long sys_getpgid(const struct syscall_args *a);
long sys_getsid(const struct syscall_args *a);
long sys_arch_prctl(const struct syscall_args *a);
long sys_gettid(const struct syscall_args *a);
long sys_sched_getaffinity(const struct syscall_args *a);
long sys_set_tid_address(const struct syscall_args *a);
long sys_clock_nanosleep(const struct syscall_args *a);
long sys_set_robust_list(const struct syscall_args *a);
long sys_getcpu(const struct syscall_args *a);
long sys_setgid(const struct syscall_args *a);
long sys_getgroups(const struct syscall_args *a);
/* Runs rw (sys_write, sys_read) over a user iovec array, as Linux's do_readv_writev. */
long iov_loop(uint64_t fd, uint64_t uiov, uint64_t cnt, syscall_fn rw);
/* A Linux x86_64 system call's name, "" when not in the table (the warning's). */
const char *syscall_name(uint64_t nr);

#endif
