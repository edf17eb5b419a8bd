/*
 * What the shell's project commands share: the project's system calls
 * (kernel/uapi/aslrbench.h, numbers above Linux's range) through musl's
 * syscall(2).  The uapi header also defines Linux's __NR_* and O_*
 * values, which musl's headers define too (the same numbers): the build
 * finds it through -isystem, so the second definition is not an error, and
 * <sys/syscall.h> is not included next to it.
 */
#ifndef USERLAND_CMD_H
#define USERLAND_CMD_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/uapi/aslrbench.h"

/* The kernel's calls return -errno; musl's syscall() turns that into -1 and errno. */
static inline long cmd_err(long rc)
{
	return rc < 0 ? -errno : rc;
}

#endif
