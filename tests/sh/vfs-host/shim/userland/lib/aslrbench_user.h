/*
 * The host stand-in for userland/lib/aslrbench_user.h: the real header (its
 * sys() is glibc's syscall() here, returning -errno as on the kernel), plus
 * what the host needs, so userland/test/t_vfs.c builds unchanged against glibc
 * (tests/sh/vfs-host.sh) and its expectations are checked on the host Linux.
 */
#ifndef HOST_ASLRBENCH_USER_SHIM_H
#define HOST_ASLRBENCH_USER_SHIM_H

#define _GNU_SOURCE
#include "../../../../../../userland/lib/aslrbench_user.h"

#include <signal.h>
#include <sys/resource.h>

#define HOST_SHIM 1
/* t_vfs re-executes itself: /bin/t_vfs in the kernel's initramfs, this binary here */
#define T_VFS_SELF "/proc/self/exe"

/*
 * A write to a pipe with no reader must come back as EPIPE, not kill the
 * test; 64 fds as the kernel's NR_OPEN (RLIMIT_NOFILE is Linux's limit);
 * unbuffered output, so a forked child does not print its parent's lines.
 */
__attribute__((constructor)) static void host_setup(void)
{
	struct rlimit rl = {64, 64};

	signal(SIGPIPE, SIG_IGN);
	setrlimit(RLIMIT_NOFILE, &rl);
	setvbuf(stdout, 0, _IONBF, 0);
}

#endif
