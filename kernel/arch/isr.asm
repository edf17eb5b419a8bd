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
global isr_table
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
	dq isr_ %+ i
%assign i i+1
%endrep
