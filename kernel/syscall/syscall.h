/* System calls: Linux x86_64 numbers and errno values where the call exists there. */
#ifndef KERNEL_SYSCALL_SYSCALL_H
#define KERNEL_SYSCALL_SYSCALL_H

#include <stdint.h>

#define __NR_read	   0
#define __NR_write	   1
#define __NR_open	   2
#define __NR_close	   3
#define __NR_lseek	   8
#define __NR_mmap	   9
#define __NR_munmap	   11
#define __NR_brk	   12
#define __NR_sched_yield   24
#define __NR_nanosleep	   35
#define __NR_getpid	   39
#define __NR_fork	   57
#define __NR_execve	   59
#define __NR_exit	   60
#define __NR_wait4	   61
#define __NR_getuid	   102
#define __NR_getgid	   104
#define __NR_setuid	   105
#define __NR_geteuid	   107
#define __NR_getegid	   108
#define __NR_getppid	   110
#define __NR_setresuid	   117
#define __NR_getresuid	   118
#define __NR_setresgid	   119
#define __NR_getresgid	   120
#define __NR_prctl	   157
#define __NR_reboot	   169
#define __NR_clock_gettime 228
#define __NR_exit_group	   231
#define __NR_getrandom	   318
/* aslrbench's own calls, above Linux's range. */
#define __NR_spawn	    500 /* spawn(name, argv): start a built-in program */
#define __NR_aslrbench_job  501 /* init: run the job the command line asks for */
#define __NR_aslrbench_test 502 /* mode=test only: hooks for the in-kernel tests */
#define __NR_getdents_pids  503 /* the pids in /proc, for ps */
#define __NR_bench_submit   504 /* a benchmark program hands its samples to the kernel */
#define __NR_aslrbench_lab  505 /* attack lab: park, ready, submit a prediction */
#define __NR_fuzz_note	    506 /* mode=fuzz: the fuzzer's seed and call index */

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
