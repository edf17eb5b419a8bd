/*
 * __kernel_vsyscall, the IA-32 vDSO's system-call entry (Linux 6.6's
 * arch/x86/entry/vdso/vdso32/system_call.S): AT_SYSINFO names it, and an
 * i386 libc calls it with the number in eax and the arguments in ebx, ecx,
 * edx, esi, edi, ebp, as for int $0x80.  ecx, edx and ebp are saved around
 * the entry, as 6.6's are, so that a faster entry (sysenter, syscall) that
 * clobbers them can be patched in without changing this frame.
 */
	.text
	.globl	__kernel_vsyscall
	.type	__kernel_vsyscall, @function
	.p2align 4
__kernel_vsyscall:
	.cfi_startproc
	pushl	%ecx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset ecx, 0
	pushl	%edx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset edx, 0
	pushl	%ebp
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset ebp, 0
	int	$0x80
	.globl	int80_landing_pad
	.hidden	int80_landing_pad
int80_landing_pad:
	popl	%ebp
	.cfi_adjust_cfa_offset -4
	.cfi_restore ebp
	popl	%edx
	.cfi_adjust_cfa_offset -4
	.cfi_restore edx
	popl	%ecx
	.cfi_adjust_cfa_offset -4
	.cfi_restore ecx
	ret
	.cfi_endproc
	.size	__kernel_vsyscall, . - __kernel_vsyscall

	.section .note.GNU-stack, "", @progbits
