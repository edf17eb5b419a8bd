; Context switch and the system-call entry.

bits 64
default rel

%include "kernel/arch/regs.inc"

extern syscall_dispatch
extern schedule_tail
extern ret_to_user
global __switch_to_asm
global ret_from_fork
global syscall_entry
global syscall_iretq

USER_CS equ 0x33                        ; gdt.h: Linux 6.6's __USER_CS, __USER_DS
USER_DS equ 0x2b

section .text
; void __switch_to_asm(uint64_t *prev_rsp, uint64_t next_rsp)
; Saves the callee-saved registers on the old kernel stack, switches stacks,
; and returns on the new one: into schedule(), or into ret_to_user for a
; task that never ran.
__switch_to_asm:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov rsp, rsi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret

; A new task's first return from __switch_to_asm: schedule_tail gives up
; the kernel lock its CPU took to switch, then the iretq to user mode.
ret_from_fork:
	call schedule_tail
	jmp ret_to_user

; syscall: RCX = user RIP, R11 = user RFLAGS; SFMASK clears IF, NT, AC, TF, DF...
; (syscall.c), so no user flag reaches the kernel or another task.
; Builds the same struct trap_frame an interrupt would, so fork copies one
; layout and /proc's KSTK_EIP/KSTK_ESP read one layout.
syscall_entry:
	swapgs
	mov [gs:16], rsp                ; percpu.user_rsp
	mov rsp, [gs:8]                 ; percpu.kernel_rsp
	push USER_DS                    ; ss
	push qword [gs:16]              ; rsp
	push r11                        ; rflags
	push USER_CS                    ; cs
	push rcx                        ; rip
	push 0                          ; error
	push 0x80                       ; vector: marks a syscall frame
	PUSH_REGS
	mov rdi, rsp
	cld
	sti
	call syscall_dispatch
	cli
	POP_REGS
	add rsp, 16
	; sysret loads RIP from RCX and RFLAGS from R11: it is exact only when
	; they already hold the frame's RIP and RFLAGS, as after a plain system
	; call.  rt_sigreturn, a signal handler's entry and a restarted call
	; change them: those take iretq, as Linux's syscall_return_slowpath
	; (6.x) decides; so does a return with TF or RF set.
	; An exec of an IA-32 program returns to a 32-bit CS: only iretq loads one.
	cmp qword [rsp + 8], USER_CS
	jne .iret
	cmp rcx, [rsp]
	jne .iret
	cmp r11, [rsp + 16]
	jne .iret
	test r11, 0x10100               ; RF | TF
	jnz .iret
	; sysret to a non-canonical RIP would fault in ring 0 on the user's
	; stack (the Intel SYSRET pitfall): take the iret path for any RIP
	; outside the user half.
	mov rcx, [rsp]
	mov r11, 0x00007ffffffff000
	cmp rcx, r11
	jae .iret
	mov r11, [rsp + 16]
	mov rsp, [rsp + 24]
	swapgs
	o64 sysret
.iret:
	swapgs
syscall_iretq:                          ; isr.asm knows a fault here comes after swapgs
	iretq
