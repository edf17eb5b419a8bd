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
