/*
 * The user/kernel interface, the one copy both sides include: the kernel
 * (kernel/syscall/, the jobs) and the ring-3 programs (userland/).
 * Linux's x86_64 numbers and values wherever the call exists there; the
 * project's own calls sit above Linux's range.  Nothing here may include
 * a header of the kernel outside kernel/uapi/: user programs are built
 * without it.
 */
#ifndef KERNEL_UAPI_ASLRBENCH_H
#define KERNEL_UAPI_ASLRBENCH_H

/*
 * System call numbers, from the table (kernel/uapi/syscall_64.h).  An enum,
 * as a table cannot define macros: a libc's <sys/syscall.h> must therefore
 * come after this header (its macros then shadow the enum's Linux names
 * with the same values); before it, its __NR_read would turn the enum's
 * `__NR_read = 0` into `0 = 0`.
 */
enum {
#define __SYSCALL(nr, name, entry, fuzz, lock) __NR_##name = nr,
#include "kernel/uapi/syscall_64.h"
#undef __SYSCALL
};
/* One past the highest number of the table: each member is as long as its number + 1. */
union __syscall_nr_sizes {
#define __SYSCALL(nr, name, entry, fuzz, lock) char name[nr + 1];
#include "kernel/uapi/syscall_64.h"
#undef __SYSCALL
};
#define NR_syscalls sizeof(union __syscall_nr_sizes)

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

/* __NR_aslrbench_qr(op, k): the shell's `qr` (kernel/console/qr_screen.c). */
enum qr_op {
	QR_OP_BUILD = 1, /* the records held now as codes: their count (ENODEV, ENODATA) */
	QR_OP_SHOW = 2,	 /* draw code k (1..count); EINVAL for another k */
	QR_OP_DONE = 3,	 /* the screen back to the console, cleared */
};

/* Capability bits (Linux's include/uapi/linux/capability.h). */
#define CAP_SETGID     6
#define CAP_SETUID     7
#define CAP_SYS_PTRACE 19
#define CAP_SYSLOG     34
#define CAP_SYS_ADMIN  21
#define CAP_SYS_BOOT   22
#define CAP_SYS_NICE   23

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
