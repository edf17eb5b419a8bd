/*
 * fpu.h - SIMD inside the kernel, as Linux's kernel_fpu_begin()/_end().
 *
 * Why: the kernel is built -mgeneral-regs-only, so only the context switch
 * saves a task's FPU/SSE registers.  Code that does use them (chacha20-wide's
 * SSSE3 refill) must save the interrupted task's state first and put it back
 * after, or a system call silently changes a program's xmm registers, which
 * the syscall ABI preserves.  Such code lives in the .text.simd section
 * (KERNEL_SIMD below); scripts/check-simd.py fails the build when a SIMD
 * register is used anywhere else.  The save is os_xsave's (kernel/arch/
 * xstate.c): every state component XCR0 enables, so rng/'s platform
 * (kernel/char/random.c) declares fpu_user_cfg.max_features and its AVX2 and
 * AVX-512F bodies, built into .text.simd, run where the CPU has them.
 */
#ifndef KERNEL_ARCH_FPU_H
#define KERNEL_ARCH_FPU_H

#include <stdbool.h>

/*
 * Saves the FPU/SSE state and returns true: the caller may use SIMD until
 * kernel_fpu_end().  Returns false (use the scalar path) when a region is
 * already open.  Interrupts stay off inside the region, so no interrupt
 * handler or context switch can see or replace the kernel's registers.
 */
bool kernel_fpu_begin(void);
void kernel_fpu_end(void);

#endif
