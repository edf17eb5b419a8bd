; User program entry: rsp points at argc (System V initial stack).
bits 64
default rel
global _start
extern __libc_start
section .text
_start:
	xor ebp, ebp
	mov rdi, rsp
	and rsp, -16
	call __libc_start
	ud2
