/*
 * Sizes of the task table, as Linux's include/linux/threads.h: here because
 * both the task layer and mm (whose mm_struct pool matches it) need them.
 */
#ifndef KERNEL_LIB_THREADS_H
#define KERNEL_LIB_THREADS_H

#define NR_TASKS 64 /* a full table makes fork return -EAGAIN */

#endif
