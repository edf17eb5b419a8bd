/* Deliberate faults: the kernel must kill only this task, with the right signal. */
#include "userland/lib/aslrbench_user.h"

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	static const unsigned char ret_insn[] = {0xc3};

	if (!strcmp(m, "segv"))
		*(volatile int *)0 = 1;
	else if (!strcmp(m, "kernel"))
		*(volatile int *)0xffffffff80000000ULL = 1;
	else if (!strcmp(m, "ud"))
		__asm__ volatile("ud2");
	else if (!strcmp(m, "de"))
		__asm__ volatile("xor %%edx, %%edx; mov $1, %%eax; xor %%ecx, %%ecx; div %%ecx"
				 :
				 :
				 : "eax", "ecx", "edx");
	else if (!strcmp(m, "gp"))
		__asm__ volatile("hlt");
	else if (!strcmp(m, "nx"))
		((void (*)(void))ret_insn)(); /* rodata is not executable */
	printf("t_fault: no fault for mode '%s'\n", m);
	return 1;
}
