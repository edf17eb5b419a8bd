#ifndef KERNEL_FS_PIPE_H
#define KERNEL_FS_PIPE_H

#include "kernel/fs/file.h"

/* A new pipe: its read and write ends; flags may hold O_NONBLOCK.  -ENFILE, -ENOMEM. */
long do_pipe(struct file **rd, struct file **wr, int flags);

#endif
