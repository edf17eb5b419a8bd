; Kernel entry from the UEFI loader.
;
; We arrive running at a *physical* address on the firmware's identity-mapped
; page tables, with rdi = boot_info (physical) and rsi = the physical base the
; image was copied to.  Everything here is RIP-relative until we are on our
; own tables: identity map for the first 4 GiB (so this code and boot_info
; stay reachable) plus the kernel window at KERNEL_VBASE in 2 MiB pages.
; kmain then builds the real page tables and drops the identity map.

bits 64
default rel

KERNEL_VBASE    equ 0xffffffff80000000
PTE_P           equ 1
PTE_W           equ 2
PTE_PS          equ 0x80
MSR_GS_BASE     equ 0xc0000101
BOOT_STACK_SIZE equ 32768

global _start
global boot_stack_top
global boot_stack_bottom
extern kmain
extern percpu0

section .text.entry
_start:
	cli
	cld
	mov r12, rdi                    ; boot_info (phys)
	mov r13, rsi                    ; kernel phys base

	; Early tables live in .boot.bss, zeroed by the loader.
	lea rbx, [early_pml4]
	lea rcx, [early_pdpt_low]
	or rcx, PTE_P | PTE_W
	mov [rbx], rcx                  ; PML4[0] -> identity PDPT
	lea rcx, [early_pdpt_high]
	or rcx, PTE_P | PTE_W
	mov [rbx + 511*8], rcx          ; PML4[511] -> kernel PDPT

	; Identity: 4 page directories of 2 MiB pages = 4 GiB.
	lea rdi, [early_pdpt_low]
	lea rsi, [early_pd_low]
	xor ecx, ecx
.pdpt_low:
	mov rax, rcx
	shl rax, 12
	add rax, rsi
	or rax, PTE_P | PTE_W
	mov [rdi + rcx*8], rax
	inc ecx
	cmp ecx, 4
	jb .pdpt_low

	xor ecx, ecx                    ; 2048 identity 2 MiB entries
.pd_low:
	mov rax, rcx
	shl rax, 21
	or rax, PTE_P | PTE_W | PTE_PS
	mov [rsi + rcx*8], rax
	inc ecx
	cmp ecx, 2048
	jb .pd_low

	; Kernel window: PDPT_high[510] -> PD_high, 512 x 2 MiB from phys base.
	lea rdi, [early_pdpt_high]
	lea rsi, [early_pd_high]
	mov rax, rsi
	or rax, PTE_P | PTE_W
	mov [rdi + 510*8], rax
	xor ecx, ecx
.pd_high:
	mov rax, rcx
	shl rax, 21
	add rax, r13
	or rax, PTE_P | PTE_W | PTE_PS
	mov [rsi + rcx*8], rax
	inc ecx
	cmp ecx, 512
	jb .pd_high

	mov cr3, rbx
	mov rax, .high
	jmp rax

.high:
	mov rsp, boot_stack_top
	xor ebp, ebp
	; The stack protector reads %gs:40: point GS at CPU 0's per-CPU block
	; before the first C function runs.
	mov rax, percpu0
	mov rdx, rax
	shr rdx, 32
	mov ecx, MSR_GS_BASE
	wrmsr
	mov rdi, r12
	mov rsi, r13
	call kmain
.hang:
	cli
	hlt
	jmp .hang

section .boot.bss nobits alloc write align=4096
early_pml4:      resb 4096
early_pdpt_low:  resb 4096
early_pdpt_high: resb 4096
early_pd_low:    resb 4096*4
early_pd_high:   resb 4096
boot_stack_bottom:
	resb BOOT_STACK_SIZE
boot_stack_top:
