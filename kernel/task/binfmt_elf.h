/*
 * The ELF loader (as Linux's fs/binfmt_elf.c and, for IA-32 programs,
 * fs/compat_binfmt_elf.c): checks an ELF64 or ELF32 image, maps
 * its PT_LOAD segments into an address space and builds the initial stack
 * (create_elf_tables).  exec.c decides where things go (ASLR) and calls in.
 */
#ifndef KERNEL_TASK_BINFMT_ELF_H
#define KERNEL_TASK_BINFMT_ELF_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/mm/mm.h"

/*
 * Argument and environment strings: 2.6.29's get_arg_page allows
 * max(ARG_MAX, RLIMIT_STACK / 4) bytes of strings; this kernel also stops
 * at its copy buffer (EXEC_STRINGS_MAX): beyond either, E2BIG.
 */
#define ARG_MAX		 (32 * 4096) /* MAX_ARG_PAGES pages, as 2.6.29's ARG_MAX */
#define MAX_ARG_STRLEN	 (32 * 4096) /* one string at most, NUL included (2.6.23+) */
#define EXEC_STRINGS_MAX (256 * 1024)
#define EXEC_PTRS_MAX	 4096

/* What exec passes down, as Linux's struct linux_binprm (the part used here). */
struct linux_binprm {
	const uint8_t *image;
	uint64_t size;
	const char *filename; /* as given to execve: AT_EXECFN */
	int argc, envc;
	char *const *argv, *const *envp;
	uint64_t stack_limit; /* RLIMIT_STACK's soft limit, for E2BIG */
	/*
	 * The image's open file (NULL: a test image, copied): segments become
	 * private file-backed regions, as 2.6.29's elf_map, the bss anonymous.
	 */
	const struct vm_operations_struct *vm_ops;
	void *vm_file;
};

/* What elf_check learnt about an image. */
struct elf_info {
	uint16_t type;	   /* ET_EXEC or ET_DYN */
	bool ia32;	   /* ELFCLASS32 EM_386: an IA-32 program (compatibility mode) */
	uint64_t end;	   /* highest p_vaddr + p_memsz: the span of ET_DYN, brk base of ET_EXEC */
	uint64_t entry;	   /* e_entry, unbiased */
	uint64_t load_off; /* first PT_LOAD's p_vaddr - p_offset: where the headers sit */
	uint64_t phoff;
	uint16_t phnum;
	bool exec_stack;    /* PT_GNU_STACK with PF_X */
	uint64_t start;	    /* the lowest PT_LOAD's page: total_mapping_size = end - start */
	uint64_t first_len; /* the first PT_LOAD's p_filesz + page offset, page aligned */
	uint64_t align;	    /* the largest power-of-two PT_LOAD p_align (0: none) */
	/* PT_INTERP: the interpreter's NUL-terminated path at image + interp_off (len 0: none) */
	uint64_t interp_off, interp_len;
	bool is_interp;	      /* set by exec: map as the interpreter (no code/data/brk fields) */
	uint64_t interp_base; /* set by exec: AT_BASE, where the interpreter went (0: none) */
};

/*
 * 0, or -ENOEXEC (-EIO: a PT_INTERP outside the file, as 2.6.29's short
 * kernel_read) with a line on the console saying why (name: for the message;
 * NULL: no line, the caller only peeks).
 */
int elf_check(const uint8_t *img, uint64_t size, const char *name, struct elf_info *ei);
/* Maps every PT_LOAD at bias (0 for ET_EXEC). */
int elf_map(struct mm_struct *mm, const struct linux_binprm *bprm, const struct elf_info *ei,
	    uint64_t bias);
/* 0 or -E2BIG: the strings fit max(ARG_MAX, stack_limit / 4), as 2.6.29. */
int check_arg_size(const struct linux_binprm *bprm);
/*
 * What copy_strings puts at the top of the new stack: bprm_mm_init's
 * 8-byte slot plus the filename, envp and argv strings (arch_pick_mmap_layout's
 * arg_bytes).
 */
uint64_t exec_arg_bytes(const struct linux_binprm *bprm);
/*
 * Writes the strings from mm->stack_arg_top - 8 down to mm->arg_start, the
 * platform string and AT_RANDOM's bytes below mm->stack_align_sp, then
 * argc/argv/envp/auxv, and returns the new sp (16-byte aligned).
 */
int create_elf_tables(struct mm_struct *mm, const struct linux_binprm *bprm,
		      const struct elf_info *ei, uint64_t bias, uint64_t *sp_out);

#endif
