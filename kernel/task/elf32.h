/*
 * The ELF32 header and program header, as include/uapi/linux/elf.h's
 * Elf32_Ehdr and Elf32_Phdr (boot/elf64.h has the ELF64 pair): what
 * binfmt_elf.c reads of an IA-32 program, widened to the ELF64 forms as
 * Linux 6.6's fs/compat_binfmt_elf.c compiles binfmt_elf.c over elf32 types.
 */
#ifndef KERNEL_TASK_ELF32_H
#define KERNEL_TASK_ELF32_H

#include <stdint.h>

#define ELFCLASS32 1
#define EM_386	   3

typedef struct {
	unsigned char e_ident[16];
	uint16_t e_type;
	uint16_t e_machine;
	uint32_t e_version;
	uint32_t e_entry;
	uint32_t e_phoff;
	uint32_t e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize;
	uint16_t e_phentsize;
	uint16_t e_phnum;
	uint16_t e_shentsize;
	uint16_t e_shnum;
	uint16_t e_shstrndx;
} Elf32_Ehdr;

typedef struct {
	uint32_t p_type;
	uint32_t p_offset;
	uint32_t p_vaddr;
	uint32_t p_paddr;
	uint32_t p_filesz;
	uint32_t p_memsz;
	uint32_t p_flags;
	uint32_t p_align;
} Elf32_Phdr;

#endif
