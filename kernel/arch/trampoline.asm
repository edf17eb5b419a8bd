; The application processors' way from a STARTUP IPI to the kernel, as
; Linux 6.6's arch/x86/realmode/rm/trampoline_64.S: real mode -> 32-bit
; protected mode -> long mode on a page table of its own, then a jump to the
; kernel's text, which switches to the kernel's page table.
;
; trampoline_start..trampoline_end is a blob that smpboot.c copies to a page
; below 1 MiB (a STARTUP IPI names a page number of real-mode memory); it is
; never run where it is linked.  It is position independent: real-mode code
; addresses through CS, 32-bit code through ebx (the page's linear base,
; computed in real mode), 64-bit code RIP-relative.  Every address it needs
; is in the header, which smpboot.c fills (struct trampoline_header) before
; each CPU's STARTUP.
;
; ap_start64 is ordinary kernel text: the first kernel instruction an AP
; runs, on the trampoline's page table (identity map of the low 2 MiB plus
; the kernel's upper half), where it switches to the kernel's CR3, points
; GS at the CPU's struct percpu (the stack protector reads %gs:40) and calls
; smp_ap_main.

bits 16
default abs

MSR_EFER    equ 0xc0000080
MSR_GS_BASE equ 0xc0000101
SEL_CODE32  equ 0x08
SEL_DATA32  equ 0x10
SEL_CODE64  equ 0x18

global trampoline_start
global trampoline_end
global trampoline_header
global tr_protected
global tr_long
global ap_start64
extern smp_ap_main

section .rodata
align 16
trampoline_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	xor ebx, ebx
	mov bx, ax
	shl ebx, 4                      ; the page's linear address, for 32-bit code
	o32 lgdt [tr_gdt_desc - trampoline_start]
	mov eax, cr0
	or eax, 1                       ; PE
	mov cr0, eax
	o32 jmp far [tr_pm_jump - trampoline_start]

bits 32
tr_protected:
	mov ax, SEL_DATA32
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, [ebx + tr_cr4 - trampoline_start]
	or eax, 1 << 5                  ; PAE (the BSP's CR4 has it; be explicit)
	mov cr4, eax
	mov eax, [ebx + tr_cr3 - trampoline_start]
	mov cr3, eax
	mov ecx, MSR_EFER
	mov eax, [ebx + tr_efer - trampoline_start]
	mov edx, [ebx + tr_efer - trampoline_start + 4]
	wrmsr                           ; LME (and NXE: the physmap's entries are NX)
	mov eax, [ebx + tr_cr0 - trampoline_start]
	mov cr0, eax                    ; PG: long mode is active from here
	jmp far [ebx + tr_lm_jump - trampoline_start]

bits 64
tr_long:
	mov rsp, [rel tr_stack]
	mov rdi, [rel tr_percpu]
	mov rbx, [rel tr_kernel_cr3]
	mov rax, [rel tr_entry]
	jmp rax

; struct trampoline_header in smpboot.c: keep the two in step.
align 16
trampoline_header:
tr_gdt:         dq 0
	        dq 0x00cf9a000000ffff   ; 0x08: 32-bit code, flat
	        dq 0x00cf92000000ffff   ; 0x10: data, flat
	        dq 0x00af9a000000ffff   ; 0x18: 64-bit code
tr_gdt_desc:    dw 4 * 8 - 1            ; +32
tr_gdt_base:    dd 0                    ; +34: linear address of tr_gdt
	        dw 0
tr_pm_jump:     dd 0                    ; +40: linear address of tr_protected
	        dw SEL_CODE32
	        dw 0
tr_lm_jump:     dd 0                    ; +48: linear address of tr_long
	        dw SEL_CODE64
	        dw 0
tr_cr3:         dd 0                    ; +56: the trampoline's PML4, below 4 GiB
tr_cr4:         dd 0                    ; +60: the BSP's CR4 without PCIDE
tr_efer:        dq 0                    ; +64: the BSP's EFER without LMA
tr_cr0:         dq 0                    ; +72: the BSP's CR0
tr_kernel_cr3:  dq 0                    ; +80
tr_entry:       dq 0                    ; +88: ap_start64
tr_stack:       dq 0                    ; +96: this CPU's stack top
tr_percpu:      dq 0                    ; +104: this CPU's struct percpu
trampoline_end:

section .text
; rdi = struct percpu *, rbx = the kernel's CR3, rsp = the CPU's stack.
ap_start64:
	mov cr3, rbx
	mov rax, rdi
	mov rdx, rdi
	shr rdx, 32
	mov ecx, MSR_GS_BASE
	wrmsr
	xor ebp, ebp
	call smp_ap_main
.hang:
	cli
	hlt
	jmp .hang
