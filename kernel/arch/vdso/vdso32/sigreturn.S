/*
 * The IA-32 vDSO's signal return stubs (Linux 6.6's
 * arch/x86/entry/vdso/vdso32/sigreturn.S): a handler installed without
 * SA_RESTORER returns here (kernel/task/signal_32.c puts the address in the
 * frame's pretcode).  __kernel_sigreturn pops the signal number the old
 * frame left on the stack and calls sigreturn (119), __kernel_rt_sigreturn
 * calls rt_sigreturn (173); neither returns.  The nop before each is the
 * one unwinders expect ahead of a signal trampoline.
 */
#define __NR_sigreturn	  119
#define __NR_rt_sigreturn 173

	.text
	.globl	__kernel_sigreturn
	.type	__kernel_sigreturn, @function
	nop
	.p2align 5
__kernel_sigreturn:
	popl	%eax
	movl	$__NR_sigreturn, %eax
	int	$0x80
	nop
	.size	__kernel_sigreturn, . - __kernel_sigreturn

	.globl	__kernel_rt_sigreturn
	.type	__kernel_rt_sigreturn, @function
	.p2align 5
__kernel_rt_sigreturn:
	movl	$__NR_rt_sigreturn, %eax
	int	$0x80
	nop
	.size	__kernel_rt_sigreturn, . - __kernel_rt_sigreturn

	.section .note.GNU-stack, "", @progbits
