#ifndef KERNEL_TASK_PROGRAMS_H
#define KERNEL_TASK_PROGRAMS_H

#include <stdint.h>

/* The built-in programs, linked into the kernel image (build/user/progtab.asm). */
struct user_program {
	const char *name;
	const uint8_t *image; /* a static ELF: ET_DYN (static PIE) or ET_EXEC */
	uint64_t size;
	uint64_t native; /* 1: an aslrbench program (the kernel relocates it); 0: a Linux one */
};

extern const struct user_program user_programs[]; /* ends with a NULL name */
const struct user_program *find_program(const char *name);

#endif
