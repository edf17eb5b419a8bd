/*
 * The user/kernel interface, the one copy both sides include: the kernel
 * (kernel/syscall/, the jobs) and the ring-3 programs (userland/).
 * Linux's x86_64 numbers and values wherever the call exists there; the
 * project's own calls sit above Linux's range.  Nothing here may include
 * another header of the kernel: user programs are built without it.
 */
#ifndef KERNEL_UAPI_ASLRBENCH_H
#define KERNEL_UAPI_ASLRBENCH_H

/* System call numbers (Linux's arch/x86/entry/syscalls/syscall_64.tbl). */
#define __NR_read	   0
#define __NR_write	   1
#define __NR_open	   2
#define __NR_close	   3
#define __NR_stat	   4
#define __NR_fstat	   5
#define __NR_lstat	   6
#define __NR_lseek	   8
#define __NR_mmap	   9
#define __NR_munmap	   11
#define __NR_brk	   12
#define __NR_ioctl	   16
#define __NR_pread64	   17
#define __NR_pwrite64	   18
#define __NR_readv	   19
#define __NR_writev	   20
#define __NR_access	   21
#define __NR_pipe	   22
#define __NR_sched_yield   24
#define __NR_dup	   32
#define __NR_dup2	   33
#define __NR_nanosleep	   35
#define __NR_getpid	   39
#define __NR_fork	   57
#define __NR_execve	   59
#define __NR_exit	   60
#define __NR_wait4	   61
#define __NR_fcntl	   72
#define __NR_fsync	   74
#define __NR_sendfile	   40
#define __NR_sync	   162
#define __NR_fdatasync	   75
#define __NR_truncate	   76
#define __NR_ftruncate	   77
#define __NR_getcwd	   79
#define __NR_chdir	   80
#define __NR_fchdir	   81
#define __NR_rename	   82
#define __NR_mkdir	   83
#define __NR_rmdir	   84
#define __NR_creat	   85
#define __NR_link	   86
#define __NR_unlink	   87
#define __NR_symlink	   88
#define __NR_readlink	   89
#define __NR_chmod	   90
#define __NR_fchmod	   91
#define __NR_chown	   92
#define __NR_fchown	   93
#define __NR_lchown	   94
#define __NR_umask	   95
#define __NR_getuid	   102
#define __NR_syslog	   103
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
#define __NR_getdents64	   217
#define __NR_clock_gettime 228
#define __NR_exit_group	   231
#define __NR_openat	   257
#define __NR_mkdirat	   258
#define __NR_fchownat	   260
#define __NR_newfstatat	   262
#define __NR_unlinkat	   263
#define __NR_renameat	   264
#define __NR_linkat	   265
#define __NR_symlinkat	   266
#define __NR_readlinkat	   267
#define __NR_fchmodat	   268
#define __NR_faccessat	   269
#define __NR_dup3	   292
#define __NR_pipe2	   293
#define __NR_renameat2	   316
#define __NR_getrandom	   318
#define __NR_faccessat2	   439
/* The Linux process ABI: what static musl and glibc need to start. */
#define __NR_mprotect	       10
#define __NR_rt_sigaction      13
#define __NR_rt_sigprocmask    14
#define __NR_clone	       56
#define __NR_vfork	       58
#define __NR_uname	       63
#define __NR_getrlimit	       97
#define __NR_sysinfo	       99
#define __NR_setgid	       106
#define __NR_setpgid	       109
#define __NR_getpgrp	       111
#define __NR_setsid	       112
#define __NR_getgroups	       115
#define __NR_getpgid	       121
#define __NR_getsid	       124
#define __NR_arch_prctl	       158
#define __NR_setrlimit	       160
#define __NR_gettid	       186
#define __NR_sched_getaffinity 204
#define __NR_set_tid_address   218
#define __NR_clock_nanosleep   230
#define __NR_set_robust_list   273
#define __NR_prlimit64	       302
#define __NR_getcpu	       309
#define __NR_rseq	       334
/* filemap */
#define __NR_mremap 25
/* The vDSO's fallbacks and the calls it answers in user mode. */
#define __NR_gettimeofday 96
#define __NR_time	  201
/* poll/select and waitid. */
#define __NR_poll     7
#define __NR_select   23
#define __NR_waitid   247
#define __NR_pselect6 270
#define __NR_ppoll    271
/* Signals. */
#define __NR_rt_sigreturn    15
#define __NR_pause	     34
#define __NR_kill	     62
#define __NR_rt_sigpending   127
#define __NR_rt_sigtimedwait 128
#define __NR_rt_sigsuspend   130
#define __NR_sigaltstack     131
#define __NR_tkill	     200
#define __NR_tgkill	     234
/* paxtest. */
#define __NR_utimensat 280
/* aslrbench's own calls, above Linux's range. */
#define __NR_spawn	    500 /* spawn(name, argv): start a built-in program */
#define __NR_aslrbench_job  501 /* init: run the job the command line asks for */
#define __NR_aslrbench_test 502 /* mode=test only: hooks for the in-kernel tests */
#define __NR_getdents_pids  503 /* the pids in /proc, for ps */
#define __NR_bench_submit   504 /* a benchmark program hands its samples to the kernel */
#define __NR_aslrbench_lab  505 /* attack lab: park, ready, submit a prediction */
#define __NR_fuzz_note	    506 /* mode=fuzz: the fuzzer's seed and call index */

/* __NR_aslrbench_test(op, arg): mode=test only (kernel/init/jobs.c). */
enum aslrbench_test_op {
	ASLRBENCH_TEST_SMASH_STACK = 1, /* overrun a kernel buffer: the canary must catch it */
	ASLRBENCH_TEST_PMM_RESERVE = 2, /* leave only arg free pages to the allocator */
	ASLRBENCH_TEST_PMM_RELEASE = 3, /* undo ASLRBENCH_TEST_PMM_RESERVE */
	ASLRBENCH_TEST_PMM_FREE = 4,	/* returns the number of free pages */
	ASLRBENCH_TEST_PARK = 5,	/* sleep until the test releases the caller */
	ASLRBENCH_TEST_INODES_FREE = 6, /* returns the number of free inodes */
	ASLRBENCH_TEST_NAMES_FREE = 7,	/* returns the number of free names (dentries) */
};

/* __NR_aslrbench_lab(op, a, b): the attack lab (kernel/attack/lab.c). */
enum lab_op {
	LAB_OP_PARK = 1,       /* the victim: sleep until the trial ends */
	LAB_OP_READY = 2,      /* the attacker: set up, send the victim */
	LAB_OP_SUBMIT = 3,     /* a guess: a = enum lab_region, b = the address */
	LAB_OP_RUN_CELL = 4,   /* root, the shell's `attack`: a, b = strategy, variant names */
	LAB_OP_ASLR_SUITE = 5, /* root, the shell's `aslr`: a = spawns per cell (0: default) */
};
enum lab_region { LAB_STACK, LAB_MMAP, LAB_EXE, LAB_NR_REGIONS };

/* Capability bits (Linux's include/uapi/linux/capability.h). */
#define CAP_SETGID     6
#define CAP_SETUID     7
#define CAP_SYS_PTRACE 19
#define CAP_SYSLOG     34
#define CAP_SYS_ADMIN  21
#define CAP_SYS_BOOT   22

/* reboot(2): the magic Linux checks, and the one command served (power off). */
#define LINUX_REBOOT_MAGIC1	   0xfee1dead
#define LINUX_REBOOT_MAGIC2	   672274793
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedc

/* prctl(2) options served. */
#define PR_GET_DUMPABLE	       3
#define PR_SET_DUMPABLE	       4
#define PR_SET_NAME	       15
#define PR_GET_NAME	       16
#define PR_SET_CHILD_SUBREAPER 36
#define PR_GET_CHILD_SUBREAPER 37

/* open(2) flags, x86_64 values (Linux's include/uapi/asm-generic/fcntl.h). */
#define O_ACCMODE	    00000003
#define O_RDONLY	    00000000
#define O_WRONLY	    00000001
#define O_RDWR		    00000002
#define O_CREAT		    00000100
#define O_EXCL		    00000200
#define O_NOCTTY	    00000400
#define O_TRUNC		    00001000
#define O_APPEND	    00002000
#define O_NONBLOCK	    00004000
#define O_LARGEFILE	    00100000
#define O_DIRECTORY	    00200000
#define O_NOFOLLOW	    00400000
#define O_CLOEXEC	    02000000
#define AT_FDCWD	    (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_SYMLINK_FOLLOW   0x400
#define AT_REMOVEDIR	    0x200
#define AT_EACCESS	    0x200
#define AT_EMPTY_PATH	    0x1000
#define SEEK_SET	    0
#define SEEK_CUR	    1
#define SEEK_END	    2
/* fcntl(2) */
#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_DUPFD_CLOEXEC 1030
#define FD_CLOEXEC	1
/* access(2) */
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4
/* ioctl(2) on the console (Linux's include/uapi/asm-generic/ioctls.h) */
#define TCGETS	   0x5401
#define TCSETS	   0x5402
#define TCSETSW	   0x5403
#define TCSETSF	   0x5404
#define TIOCGPGRP  0x540F
#define TIOCSPGRP  0x5410
#define TIOCGWINSZ 0x5413

/* wait4(2) options. */
#define WNOHANG	    1
#define WUNTRACED   2
#define WCONTINUED  8
#define __WNOTHREAD 0x20000000
#define __WALL	    0x40000000
#define __WCLONE    0x80000000

#endif
