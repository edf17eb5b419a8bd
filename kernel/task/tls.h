/*
 * A task's user segments: the IA-32 TLS descriptors of set_thread_area and
 * the selectors in DS, ES, FS, GS (Linux 6.6's arch/x86/kernel/tls.c and the
 * segment half of process_64.c's __switch_to).
 */
#ifndef KERNEL_TASK_TLS_H
#define KERNEL_TASK_TLS_H

#include <stdint.h>

#include "kernel/task/task.h"

/* include/uapi/asm/ldt.h's struct user_desc (x86_64: with lm). */
struct user_desc {
	uint32_t entry_number;
	uint32_t base_addr;
	uint32_t limit;
	uint32_t seg_32bit : 1;
	uint32_t contents : 2;
	uint32_t read_exec_only : 1;
	uint32_t limit_in_pages : 1;
	uint32_t seg_not_present : 1;
	uint32_t useable : 1;
	uint32_t lm : 1;
};

/* do_set_thread_area(p, idx, u_info, can_allocate): 0 or -EFAULT, -EINVAL, -ESRCH. */
int do_set_thread_area(struct task_struct *p, int idx, uint64_t u_info, int can_allocate);
/*
 * set_new_tls for an IA-32 clone (do_set_thread_area(p, -1, tls, 0)): the
 * entry u_info names, checked, and its descriptor; 0 or -EFAULT, -EINVAL.
 */
int tls_from_user(uint64_t u_info, int *idx, uint64_t *desc);
int do_get_thread_area(struct task_struct *p, int idx, uint64_t u_info);
/* The context switch's segment part: prev's selectors saved, next's TLS and selectors loaded. */
void switch_user_segments(struct task_struct *prev, struct task_struct *next);
/* fork: the live selectors and TLS descriptors of current, copied into p. */
void copy_user_segments(struct task_struct *p, struct task_struct *parent);
/*
 * exec (start_thread_common): no TLS descriptors, FS and GS null, DS and ES
 * USER_DS for an IA-32 program, null for a 64-bit one; loaded now when t is
 * current (execve), at its first switch otherwise (spawn).
 */
void exec_user_segments(struct task_struct *t, bool ia32);
/*
 * An IA-32 sigreturn's reload_segments (Linux 6.6 signal_32.c): each live
 * selector that differs is loaded, as 0 when its descriptor is not loadable.
 */
void reload_user_segments(uint16_t gs, uint16_t fs, uint16_t ds, uint16_t es);

#endif
