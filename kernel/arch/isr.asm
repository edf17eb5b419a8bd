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
global isr_table

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
	jz .k1
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
