/*
 * What the two signal-frame builders share (kernel/task/signal_deliver.c,
 * the x86_64 frames, and kernel/task/signal_32.c, the IA-32 ones): the
 * alternate stack, the MXCSR mask, and the IA-32 entry points the native
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

#define FPSTATE_SIZE 512 /* the fxsave image */

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
/* The MXCSR bits this CPU accepts (fxrstor of any other bit is a #GP). */
uint32_t mxcsr_feature_mask(void);

/* Linux 6.6's ia32_setup_frame and ia32_setup_rt_frame: 0, or -EFAULT (force_sigsegv). */
int ia32_setup_frame(int sig, const struct kernel_sigaction *ka, uint64_t set,
		     struct trap_frame *f);
int ia32_setup_rt_frame(int sig, const struct ksiginfo *info, const struct kernel_sigaction *ka,
			uint64_t set, struct trap_frame *f);

#endif
