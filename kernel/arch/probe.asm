; Memory probes with exception-table fixups, as Linux's get_user/put_user:
; a fault on the marked instruction resumes at the fixup, which returns
; -EFAULT (-14).  The page-fault handler finds the pair in .ex_table.

bits 64
default rel

global probe_read_u64
global probe_write_u64

section .text
; int probe_read_u64(const void *addr, uint64_t *out)
probe_read_u64:
.insn:
	mov rax, [rdi]
	mov [rsi], rax
	xor eax, eax
	ret
.fix:
	mov eax, -14
	ret

; int probe_write_u64(void *addr, uint64_t val)
probe_write_u64:
.insn:
	mov [rdi], rsi
	xor eax, eax
	ret
.fix:
	mov eax, -14
	ret

section .ex_table
align 8
	dq probe_read_u64.insn, probe_read_u64.fix
	dq probe_write_u64.insn, probe_write_u64.fix

; uint64_t __copy_user(void *dst, const void *src, uint64_t n)
; Returns the number of bytes NOT copied (0 on success).  A fault on a user
; page first goes to the page-fault handler, which may populate the page
; (demand-zero, copy-on-write) and restart the rep movsb where it stopped.
global __copy_user
section .text
__copy_user:
	mov rcx, rdx
.insn:
	rep movsb
	xor eax, eax
	ret
.fix:
	mov rax, rcx
	ret

; int __get_user_u8(uint8_t *dst, const uint8_t *src): 0 or -EFAULT
global __get_user_u8
__get_user_u8:
.insn:
	movzx eax, byte [rsi]
	mov [rdi], al
	xor eax, eax
	ret
.fix:
	mov eax, -14
	ret

section .ex_table
align 8
	dq __copy_user.insn, __copy_user.fix
	dq __get_user_u8.insn, __get_user_u8.fix

; int __futex_cmpxchg_u32(uint32_t *uaddr, uint32_t old, uint32_t new, uint32_t *cur):
; one locked compare-and-exchange on a user word (Linux's
; futex_atomic_cmpxchg_inatomic): 0 and *cur the value found (old when it
; swapped), or -EFAULT.  A fault first goes to the page-fault handler, which
; may populate or unshare the page and restart the instruction.
global __futex_cmpxchg_u32
section .text
__futex_cmpxchg_u32:
	mov eax, esi
.insn:
	lock cmpxchg [rdi], edx
	mov [rcx], eax
	xor eax, eax
	ret
.fix:
	mov eax, -14
	ret

section .ex_table
align 8
	dq __futex_cmpxchg_u32.insn, __futex_cmpxchg_u32.fix
