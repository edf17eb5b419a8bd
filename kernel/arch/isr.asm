; Interrupt and exception entry stubs.
;
; Every vector lands in isr_common with the same frame (struct trap_frame in
; traps.h): error code (0 when the CPU pushes none), vector, then all general
; registers.  No SIMD state is saved: the whole kernel, rng/ included, is
; built -mgeneral-regs-only, and user SIMD state is saved on context switch.

bits 64
default rel

%include "kernel/arch/regs.inc"

extern trap_dispatch
extern syscall_iretq
extern compat_syscall_dispatch
global isr_table
global entry_INT80_compat
global entry_SYSCALL_compat
global entry_SYSENTER_compat
global ret_to_user_iretq

%macro ISR_NOERR 1
isr_%1:
	push 0
	push %1
	jmp isr_common
%endmacro

%macro ISR_ERR 1
isr_%1:
	push %1
	jmp isr_common
%endmacro

section .text
isr_common:
	test qword [rsp + 24], 3        ; from user mode?
	jnz .swap
	; From ring 0, GS is the kernel's, except for a fault on the iretq that
	; returns to user mode (a non-canonical RIP, say): it comes after swapgs.
	; Swap back as Linux's error_entry does for a bad IRET, or the C code's
	; %gs:40 (the stack protector) would fault again and again.
	push rax
	push rcx
	mov rax, [rsp + 32]             ; the faulting RIP
	lea rcx, [rel ret_to_user_iretq]
	cmp rax, rcx
	je .bad_iret
	lea rcx, [rel syscall_iretq]
	cmp rax, rcx
	je .bad_iret
	pop rcx
	pop rax
	jmp .k1
.bad_iret:
	pop rcx
	pop rax
.swap:
	swapgs
.k1:
	PUSH_REGS
	mov rdi, rsp
	cld
	call trap_dispatch
global ret_to_user
ret_to_user:                            ; also the first return of a new task
	POP_REGS
	add rsp, 16
	test qword [rsp + 8], 3
	jz .k2
	swapgs
.k2:
ret_to_user_iretq:
	iretq

; IA-32 system calls, after Linux 6.6's arch/x86/entry/entry_64_compat.S.
;
; int $0x80 (entry_INT80_compat): a DPL 3 interrupt gate, so the CPU has
; switched to the task's kernel stack (TSS rsp0), pushed ss, rsp, rflags, cs,
; rip and cleared IF.  The frame is the same struct trap_frame as every other
; entry, at the same place (rsp0 is the syscall entry's stack top too), so
; fork, signals and /proc read one layout.  Every register is saved whole
; and restored whole: the upper halves a 64-bit program had in them come
; back as they were, as 6.6's entry pushes all of pt_regs.  eax is the i386
; number, ebx, ecx, edx, esi, edi, ebp the arguments, the result goes back
; in eax (compat_syscall_dispatch, kernel/syscall/syscall_32.c).  The gate
; is DPL 3 for user mode only; the kernel never executes int $0x80, and one
; from ring 0 is treated as a stray vector.
entry_INT80_compat:
	push 0                          ; error
	push 0x80                       ; vector
	test qword [rsp + 24], 3
	jz isr_common                   ; from ring 0: not a system call
	swapgs
	PUSH_REGS
	mov rdi, rsp
	cld
	sti
	call compat_syscall_dispatch
	cli
	jmp ret_to_user

; syscall from compatibility mode (MSR_CSTAR), 6.6's entry_SYSCALL_compat:
; what AMD CPUs allow (Intel's raise #UD before reaching it) and the IA-32
; vDSO's __kernel_vsyscall uses there ("movl %ecx, %ebp; syscall").  The CPU
; left the return eip in rcx, the flags in r11, cleared IF, TF, NT... (SFMASK)
; and kept the user's esp.  The frame is int $0x80's, the error slot 1 to
; say which entry it was: compat_syscall_dispatch takes ecx from ebp and the
; sixth argument from the user stack, as do_fast_syscall_32, and puts the
; vDSO's int80_landing_pad in rip.  It returns with iretq, as every entry
; here (Linux's opportunistic sysretl is only faster).
entry_SYSCALL_compat:
	swapgs
	mov [gs:16], rsp                ; percpu.user_rsp
	mov rsp, [gs:8]                 ; percpu.kernel_rsp
	push 0x2b                       ; ss: USER_DS
	push qword [gs:16]              ; rsp
	push r11                        ; rflags
	push 0x23                       ; cs: USER32_CS
	push rcx                        ; rip
	push 1                          ; error: entered by syscall
	push 0x80                       ; vector
	PUSH_REGS
	mov rdi, rsp
	cld
	sti
	call compat_syscall_dispatch
	cli
	jmp ret_to_user

; sysenter from compatibility mode (MSR_IA32_SYSENTER_*, syscall.c), 6.6's
; entry_SYSENTER_compat: what Intel CPUs allow (AMD's raise #UD) and the IA-32
; vDSO's __kernel_vsyscall uses there ("movl %esp, %ebp; sysenter").  The CPU
; cleared IF, kept every other flag, and saved nothing: no eip, no esp (the
; vDSO put it in ebp).  The frame is int $0x80's, the error slot 2;
; compat_syscall_dispatch takes esp from ebp, ebp from the user stack, sets
; IF in the saved flags and puts the vDSO's int80_landing_pad in rip.  TF is
; not cleared by sysenter either: until the popfq below, every instruction
; here is single-stepped and asm_exc_debug ignores those steps, as 6.6's
; is_sysenter_singlestep; the user's TF stays in the frame, so its program
; is single-stepped again once back.  NT and AC are cleared the same way
; (.Lsysenter_fix_flags): NT left set would make the next iretq fault.
entry_SYSENTER_compat:
	swapgs
	mov rsp, [gs:8]                 ; percpu.kernel_rsp
	push 0x2b                       ; ss: USER_DS
	push 0                          ; rsp: from ebp
	pushfq                          ; rflags: the user's, but IF
	push 0x23                       ; cs: USER32_CS
	push 0                          ; rip: the landing pad
	push 2                          ; error: entered by sysenter
	push 0x80                       ; vector
	PUSH_REGS
	test dword [rsp + 152], 0x44100 ; the saved rflags: AC, NT, TF
	jz .flags_fixed
	push 2                          ; X86_EFLAGS_FIXED
	popfq
.flags_fixed:
global __end_entry_SYSENTER_compat
__end_entry_SYSENTER_compat:
	mov rdi, rsp
	cld
	sti
	call compat_syscall_dispatch
	cli
	jmp ret_to_user

; #DB (vector 1).  A single step of entry_SYSENTER_compat (up to and
; including the step of its popfq) is ignored: iretq, TF left set so the
; next instruction is stepped too, until the popfq clears it.  Every other
; #DB takes the common path.
asm_exc_debug:
	test qword [rsp + 8], 3         ; cs: from user mode?
	jnz isr_1
	push rax
	push rcx
	mov rax, [rsp + 16]             ; rip
	lea rcx, [rel entry_SYSENTER_compat]
	cmp rax, rcx
	jb .not_sysenter
	lea rcx, [rel __end_entry_SYSENTER_compat]
	cmp rax, rcx
	ja .not_sysenter
	pop rcx
	pop rax
	iretq
.not_sysenter:
	pop rcx
	pop rax
	jmp isr_1

; Vectors with a CPU-pushed error code: 8, 10-14, 17, 21, 29, 30.
%assign i 0
%rep 256
%if i = 8 || (i >= 10 && i <= 14) || i = 17 || i = 21 || i = 29 || i = 30
ISR_ERR i
%else
ISR_NOERR i
%endif
%assign i i+1
%endrep

section .rodata
align 8
isr_table:
%assign i 0
%rep 256
%if i = 1
	dq asm_exc_debug
%else
	dq isr_ %+ i
%endif
%assign i i+1
%endrep
