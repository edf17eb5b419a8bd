#ifndef KERNEL_TASK_PROGRAMS_H
#define KERNEL_TASK_PROGRAMS_H

#include <stdint.h>

/* The built-in programs, linked into the kernel image (build/user/progtab.asm). */
struct user_program {
	const char *name;
	const uint8_t *image; /* a static PIE ELF */
	uint64_t size;
};

extern const struct user_program user_programs[]; /* ends with a NULL name */
const struct user_program *find_program(const char *name);

#endif
