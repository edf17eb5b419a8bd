/*
 * lx_nop: a static program that does nothing: its entry point calls
 * exit(0).  lx_costprobe's exec and spawn rows run it, so that they time
 * the kernel's execve and not a C library's start-up (a static glibc
 * program's start touches some 30 pages of its file, whose number moves
 * with the program's layout).  Built with -nostdlib -static.
 */
void _start(void)
{
	__asm__ volatile("mov $60, %eax\n\t" /* __NR_exit */
			 "xor %edi, %edi\n\t"
			 "syscall");
	__builtin_unreachable();
}
