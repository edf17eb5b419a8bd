/*
 * What the two signal-frame builders share (kernel/task/signal_deliver.c,
 * the x86_64 frames, and kernel/task/signal_32.c, the IA-32 ones): the
 * alternate stack, the FPU state's part of a frame
 * (kernel/task/signal_fpu.c), and the IA-32 entry points the native
 * setup_rt_frame picks for an IA-32 task.
 */
#ifndef KERNEL_TASK_SIGNAL_FRAME_H
#define KERNEL_TASK_SIGNAL_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/arch/traps.h"
#include "kernel/task/sched_signal.h"
#include "kernel/task/task.h"
#include "kernel/uapi/signal.h"

#define UC_FP_XSTATE 0x1 /* uc_flags: the frame's FPU state is XSAVE's area (signal_fpu.c) */

struct stack_k { /* stack_t, 64-bit */
	uint64_t ss_sp;
	int32_t ss_flags, pad;
	uint64_t ss_size;
};

bool on_sig_stack(const struct task_struct *t, uint64_t sp);
/* SS_DISABLE, SS_ONSTACK or 0, as sigaltstack reports it for sp. */
int sas_ss_flags(const struct task_struct *t, uint64_t sp);
/* do_sigaltstack's setting half: 0 or -EPERM, -EINVAL, -ENOMEM. */
long set_altstack(const struct stack_k *ss, uint64_t sp);

/* The FPU state's room in a frame: XSAVE's area and MAGIC2 (Linux's xstate_sigframe_size). */
unsigned int xstate_sigframe_size(void);
/* The live registers to a frame's area at @buf_fx; @legacy: the 512-byte image, or NULL. */
int copy_fpstate_to_sigframe(uint64_t buf_fx, bool ia32_frame, uint8_t *legacy);
/* A frame's area into @x (64-byte aligned, FPU_STATE_MAX bytes) for os_xrstor: 0 or -EFAULT. */
int fpu_sigframe_read(uint64_t buf_fx, uint8_t *x);

/* Linux 6.6's ia32_setup_frame and ia32_setup_rt_frame: 0, or -EFAULT (force_sigsegv). */
int ia32_setup_frame(int sig, const struct kernel_sigaction *ka, uint64_t set,
		     struct trap_frame *f);
int ia32_setup_rt_frame(int sig, const struct ksiginfo *info, const struct kernel_sigaction *ka,
			uint64_t set, struct trap_frame *f);

#endif
