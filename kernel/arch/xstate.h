/*
 * xstate.h - a task's FPU, SSE and AVX registers: which the kernel enables
 * (XCR0), how big their save area is, and the save and restore every other
 * file uses (the context switch, fork, exec, kernel_fpu_begin(), signal
 * frames).  kernel/arch/xstate.c says why.
 */
#ifndef KERNEL_ARCH_XSTATE_H
#define KERNEL_ARCH_XSTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/xfeatures.h"

/*
 * The largest save area the kernel allows: XSAVE's standard format with
 * x87, SSE, AVX and the three AVX-512 components (2,688 bytes, CPUID leaf
 * 0xD on Intel and AMD).  A CPU that reports more drops AVX-512, then AVX.
 */
#define FPU_STATE_MAX 2688

/* The save area's legacy region (FXSAVE's image) and header, in bytes. */
#define FXSAVE_SIZE	   512
#define XSAVE_HDR_OFFSET   512
#define XSAVE_HDR_SIZE	   64
#define FX_SW_BYTES_OFFSET 464 /* the 48 bytes software may use: Linux's sw_reserved */

/* Linux 6.6's fpu_user_cfg: what user tasks get, the same on every CPU. */
struct fpu_state_config {
	bool use_xsave;	       /* false: FXSAVE, x87 and SSE only */
	uint64_t max_features; /* XCR0 */
	unsigned int max_size; /* the save area for max_features */
};
extern struct fpu_state_config fpu_user_cfg;

/* The MXCSR bits this CPU accepts (a restore of any other bit is a #GP); read once at boot. */
extern uint32_t mxcsr_feature_mask;

/* The boot CPU: chooses XCR0 and builds init_fpstate.  Before any task exists. */
void fpu__init_system_xstate(void);
/* Every other CPU: the boot CPU's CR4.OSXSAVE and XCR0, before its first save. */
void fpu__init_cpu_xstate(void);

/*
 * Linux's os_xsave/os_xrstor: the live registers to and from @buf
 * (64-byte aligned, fpu_user_cfg.max_size bytes).  XRSTOR takes XSTATE_BV
 * from the buffer's header: a component whose bit is clear comes back in
 * its initial state.
 */
void os_xsave(void *buf);
void os_xrstor(const void *buf);
/* The state every task starts with (fpu__clear_user_states: a signal handler's too). */
extern const uint8_t *const init_fpstate;

#endif
