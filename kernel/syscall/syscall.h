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
long sys_stat(const struct syscall_args *a);
long sys_fstat(const struct syscall_args *a);
long sys_lstat(const struct syscall_args *a);
long sys_ioctl(const struct syscall_args *a);
long sys_pread64(const struct syscall_args *a);
long sys_pwrite64(const struct syscall_args *a);
long sys_readv(const struct syscall_args *a);
long sys_writev(const struct syscall_args *a);
long sys_access(const struct syscall_args *a);
long sys_pipe(const struct syscall_args *a);
long sys_dup(const struct syscall_args *a);
long sys_dup2(const struct syscall_args *a);
long sys_fcntl(const struct syscall_args *a);
long sys_getcwd(const struct syscall_args *a);
long sys_chdir(const struct syscall_args *a);
long sys_fchdir(const struct syscall_args *a);
long sys_rename(const struct syscall_args *a);
long sys_mkdir(const struct syscall_args *a);
long sys_rmdir(const struct syscall_args *a);
long sys_creat(const struct syscall_args *a);
long sys_unlink(const struct syscall_args *a);
long sys_symlink(const struct syscall_args *a);
long sys_readlink(const struct syscall_args *a);
long sys_chmod(const struct syscall_args *a);
long sys_fchmod(const struct syscall_args *a);
long sys_umask(const struct syscall_args *a);
long sys_getdents64(const struct syscall_args *a);
long sys_openat(const struct syscall_args *a);
long sys_mkdirat(const struct syscall_args *a);
long sys_newfstatat(const struct syscall_args *a);
long sys_unlinkat(const struct syscall_args *a);
long sys_renameat(const struct syscall_args *a);
long sys_symlinkat(const struct syscall_args *a);
long sys_readlinkat(const struct syscall_args *a);
long sys_fchmodat(const struct syscall_args *a);
long sys_faccessat(const struct syscall_args *a);
long sys_dup3(const struct syscall_args *a);
long sys_pipe2(const struct syscall_args *a);
long sys_renameat2(const struct syscall_args *a);
long sys_faccessat2(const struct syscall_args *a);
long sys_fsync(const struct syscall_args *a);
long sys_truncate(const struct syscall_args *a);
long sys_ftruncate(const struct syscall_args *a);
long sys_link(const struct syscall_args *a);
long sys_chown(const struct syscall_args *a);
long sys_fchown(const struct syscall_args *a);
long sys_lchown(const struct syscall_args *a);
long sys_fchownat(const struct syscall_args *a);
long sys_linkat(const struct syscall_args *a);
long sys_mmap(const struct syscall_args *a);
long sys_munmap(const struct syscall_args *a);
long sys_brk(const struct syscall_args *a);
long sys_sched_yield(const struct syscall_args *a);
long sys_nanosleep(const struct syscall_args *a);
/* sys_misc.c: writes the time left to urem, returns the restart code. */
long nanosleep_interrupted(uint64_t left_ticks, uint64_t urem);
long sys_clock_gettime(const struct syscall_args *a);
long sys_getpid(const struct syscall_args *a);
long sys_getppid(const struct syscall_args *a);
long sys_fork(const struct syscall_args *a);
long sys_exit(const struct syscall_args *a);
long sys_wait4(const struct syscall_args *a);
long sys_getuid(const struct syscall_args *a);
long sys_syslog(const struct syscall_args *a);
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

/* The Linux process ABI: sys_linux.c, sys_signal.c, sys_proc.c, sys_mm.c. */
long sys_mprotect(const struct syscall_args *a);
long sys_mremap(const struct syscall_args *a); /* filemap: sys_mm.c */
long sys_rt_sigaction(const struct syscall_args *a);
long sys_rt_sigprocmask(const struct syscall_args *a);
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
long sys_gettimeofday(const struct syscall_args *a);
long sys_time(const struct syscall_args *a);
/* Signals (sys_signal.c). */
long sys_rt_sigreturn(const struct syscall_args *a);
long sys_sigaltstack(const struct syscall_args *a);
long sys_kill(const struct syscall_args *a);
long sys_tkill(const struct syscall_args *a);
long sys_tgkill(const struct syscall_args *a);
long sys_pause(const struct syscall_args *a);
long sys_rt_sigsuspend(const struct syscall_args *a);
long sys_rt_sigpending(const struct syscall_args *a);
long sys_rt_sigtimedwait(const struct syscall_args *a);
/* paxtest. */
long sys_utimensat(const struct syscall_args *a);
long sys_setgid(const struct syscall_args *a);
long sys_getgroups(const struct syscall_args *a);
/* poll/select and waitid: sys_poll.c, sys_select.c, sys_waitid.c. */
long sys_poll(const struct syscall_args *a);
long sys_ppoll(const struct syscall_args *a);
long sys_select(const struct syscall_args *a);
long sys_pselect6(const struct syscall_args *a);
long sys_waitid(const struct syscall_args *a);
long sys_sendfile(const struct syscall_args *a);
long sys_sync(const struct syscall_args *a);
/* A Linux x86_64 system call's name, "" when not in the table (the warning's). */
const char *syscall_name(uint64_t nr);

#endif
