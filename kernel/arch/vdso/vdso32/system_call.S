/*
 * __kernel_vsyscall, the IA-32 vDSO's system-call entry (Linux 6.6's
 * arch/x86/entry/vdso/vdso32/system_call.S): AT_SYSINFO names it, and an
 * i386 libc calls it with the number in eax and the arguments in ebx, ecx,
 * edx, esi, edi, ebp, as for int $0x80.  ecx, edx and ebp are saved around
 * the entry, as 6.6's are, so that the faster entries, which clobber them,
 * fit the same frame.  The four bytes at vdso32_entry_alt are 6.6's
 * ALTERNATIVE_2: a nop, which the kernel replaces in its copy of the page
 * at boot (kernel/mm/vdso.c) with "movl %esp, %ebp; sysenter" on a CPU with
 * X86_FEATURE_SYSENTER32 (Intel) or "movl %ecx, %ebp; syscall" with
 * X86_FEATURE_SYSCALL32 (AMD).  Either returns to int80_landing_pad (the
 * kernel puts it in the frame: sysenter keeps no return address), and a
 * system call restarted after a signal goes back two bytes, onto the
 * int $0x80.
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
	.globl	vdso32_entry_alt
	.hidden	vdso32_entry_alt
vdso32_entry_alt:
	.byte	0x0f, 0x1f, 0x40, 0x00		/* nopl 0(%eax): 4 bytes (gas makes it 3) */
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
