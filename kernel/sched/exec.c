/*
 * spawn: start a built-in program as a new child process (the exec of this
 * system: fork and exec in one step, as posix_spawn).
 *
 * Programs are position-independent ELF executables linked into the kernel
 * image (kernel/user/).  The loader checks every header field it uses,
 * maps each PT_LOAD segment at the chosen base, applies the
 * R_X86_64_RELATIVE relocations a static PIE carries, and builds the
 * initial stack (argc, argv, envp, auxv) as the System V ABI describes.
 * Where the layout's pieces go is decided by arch/mmap_layout.c (ASLR).
 */
#include "boot/elf64.h"
#include "kernel/console/printk.h"
#include "kernel/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/rng_glue.h"
#include "kernel/sched/proc.h"
#include "kernel/sched/sched.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/user/programs.h"

#define ET_DYN		  3
#define PT_DYNAMIC	  2
#define DT_NULL		  0
#define DT_RELA		  7
#define DT_RELASZ	  8
#define DT_RELAENT	  9
#define R_X86_64_NONE	  0
#define R_X86_64_RELATIVE 8
#define MAX_SEG_SPAN	  (256ULL << 20)
#define STACK_VMA_SIZE	  (8ULL << 20) /* RLIMIT_STACK's default */
#define AT_NULL		  0
#define AT_PAGESZ	  6
#define AT_ENTRY	  9

struct elf_rela {
	uint64_t r_offset;
	uint64_t r_info;
	int64_t r_addend;
};

const struct user_program *find_program(const char *name)
{
	for (const struct user_program *p = user_programs; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return 0;
}

static int check_elf(const uint8_t *img, uint64_t size, uint64_t *span)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	uint64_t end = 0;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, "\177ELF", 4) ||
	    eh->e_ident[4] != ELFCLASS64 || eh->e_ident[5] != ELFDATA2LSB || eh->e_type != ET_DYN ||
	    eh->e_machine != EM_X86_64 || eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    eh->e_phnum == 0 || eh->e_phnum > 32 || eh->e_phoff > size ||
	    size - eh->e_phoff < eh->e_phnum * sizeof(Elf64_Phdr))
		return -ENOEXEC;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff) + i;

		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_memsz > MAX_SEG_SPAN || ph->p_vaddr > MAX_SEG_SPAN - ph->p_memsz ||
		    ph->p_filesz > ph->p_memsz || ph->p_offset > size ||
		    size - ph->p_offset < ph->p_filesz || (ph->p_vaddr - ph->p_offset) % PAGE_SIZE)
			return -ENOEXEC;
		if (ph->p_vaddr + ph->p_memsz > end)
			end = ph->p_vaddr + ph->p_memsz;
	}
	if (!end || eh->e_entry >= end)
		return -ENOEXEC;
	*span = end;
	return 0;
}

/* File offset of a virtual address inside a PT_LOAD segment's file bytes. */
static const uint8_t *vaddr_in_file(const uint8_t *img, uint64_t va, uint64_t len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;

	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff) + i;

		if (ph->p_type == PT_LOAD && va >= ph->p_vaddr && len <= ph->p_filesz &&
		    va - ph->p_vaddr <= ph->p_filesz - len)
			return img + ph->p_offset + (va - ph->p_vaddr);
	}
	return 0;
}

static int relocate(struct mm_struct *mm, const uint8_t *img, uint64_t base)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	uint64_t rela = 0, relasz = 0, relaent = sizeof(struct elf_rela);

	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff) + i;
		const uint64_t *dyn;

		if (ph->p_type != PT_DYNAMIC)
			continue;
		dyn = (const uint64_t *)vaddr_in_file(img, ph->p_vaddr, ph->p_filesz);
		if (!dyn)
			return -ENOEXEC;
		for (uint64_t k = 0; k + 1 < ph->p_filesz / 8 && dyn[k] != DT_NULL; k += 2) {
			if (dyn[k] == DT_RELA)
				rela = dyn[k + 1];
			else if (dyn[k] == DT_RELASZ)
				relasz = dyn[k + 1];
			else if (dyn[k] == DT_RELAENT)
				relaent = dyn[k + 1];
		}
	}
	if (!relasz)
		return 0;
	if (relaent != sizeof(struct elf_rela) || relasz % relaent)
		return -ENOEXEC;
	const struct elf_rela *r = (const struct elf_rela *)vaddr_in_file(img, rela, relasz);

	if (!r)
		return -ENOEXEC;
	for (uint64_t i = 0; i < relasz / relaent; i++) {
		uint64_t val = base + (uint64_t)r[i].r_addend;
		uint32_t type = (uint32_t)r[i].r_info;

		if (type == R_X86_64_NONE)
			continue;
		if (type != R_X86_64_RELATIVE || mm_copy_to(mm, base + r[i].r_offset, &val, 8))
			return -ENOEXEC;
	}
	return 0;
}

static int load_segments(struct mm_struct *mm, const uint8_t *img, uint64_t base)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	bool first = true;

	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff) + i;
		uint64_t start, end;
		uint32_t fl = 0;
		int rc;

		if (ph->p_type != PT_LOAD || !ph->p_memsz)
			continue;
		start = base + (ph->p_vaddr & ~(PAGE_SIZE - 1));
		end = (base + ph->p_vaddr + ph->p_memsz + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		fl |= (ph->p_flags & PF_R) ? VM_READ : 0;
		fl |= (ph->p_flags & PF_W) ? VM_WRITE : 0;
		fl |= (ph->p_flags & PF_X) ? VM_EXEC : 0;
		rc = mm_add_vma(mm, start, end, fl, VMA_EXE, ph->p_offset & ~(PAGE_SIZE - 1));
		if (rc)
			return rc == -EINVAL ? -ENOEXEC : rc;
		rc = mm_copy_to(mm, base + ph->p_vaddr, img + ph->p_offset, ph->p_filesz);
		if (rc)
			return rc;
		if (first || (ph->p_flags & PF_X)) {
			if (ph->p_flags & PF_X) {
				mm->start_code = base + ph->p_vaddr;
				mm->end_code = base + ph->p_vaddr + ph->p_filesz;
			}
			first = false;
		}
		if (ph->p_flags & PF_W) {
			mm->start_data = base + ph->p_vaddr;
			mm->end_data = base + ph->p_vaddr + ph->p_filesz;
		}
	}
	return 0;
}

/*
 * argc, argv[], NULL, envp NULL, auxv: the System V initial stack, written
 * below mm->start_stack (the randomised top, already arch_align_stack'ed).
 */
static int setup_stack(struct mm_struct *mm, int argc, char *const argv[], uint64_t entry,
		       uint64_t *sp_out)
{
	uint64_t sp = mm->start_stack, ptrs[SPAWN_MAX_ARGS], words[SPAWN_MAX_ARGS + 12];
	int n = 0, rc;

	for (int i = argc - 1; i >= 0; i--) {
		size_t len = strlen(argv[i]) + 1;

		sp -= len;
		if ((rc = mm_copy_to(mm, sp, argv[i], len)))
			return rc;
		ptrs[i] = sp;
	}
	words[n++] = (uint64_t)argc;
	for (int i = 0; i < argc; i++)
		words[n++] = ptrs[i];
	words[n++] = 0; /* argv end */
	words[n++] = 0; /* envp end */
	words[n++] = AT_PAGESZ;
	words[n++] = PAGE_SIZE;
	words[n++] = AT_ENTRY;
	words[n++] = entry;
	words[n++] = AT_NULL;
	words[n++] = 0;
	sp = (sp - n * 8) & ~15ULL;
	if ((rc = mm_copy_to(mm, sp, words, n * 8)))
		return rc;
	mm->start_stack = sp; /* what /proc/<pid>/stat reports as startstack */
	*sp_out = sp;
	return 0;
}

static void set_cmdline(struct task_struct *p, int argc, char *const argv[])
{
	uint32_t n = 0;

	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]) + 1;

		if (n + len > sizeof(p->cmdline))
			break;
		memcpy(p->cmdline + n, argv[i], len);
		n += (uint32_t)len;
	}
	p->cmdline_len = n;
}

/* Builds the new program's address space; the caller owns mm on failure. */
static int build_mm(struct mm_struct *mm, const struct user_program *prog, int argc,
		    char *const argv[], uint64_t *entry, uint64_t *sp)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)prog->image;
	uint64_t span;
	int rc;

	if ((rc = check_elf(prog->image, prog->size, &span)))
		return rc;
	arch_pick_mmap_layout(mm, span);
	if ((rc = load_segments(mm, prog->image, mm->exe_base)) ||
	    (rc = relocate(mm, prog->image, mm->exe_base)))
		return rc;
	rc = mm_add_vma(mm, mm->stack_arg_top - STACK_VMA_SIZE, mm->stack_arg_top,
			VM_READ | VM_WRITE | VM_GROWSDOWN, VMA_STACK, 0);
	if (rc)
		return rc;
	strlcpy(mm->exe_name, prog->name, sizeof(mm->exe_name));
	*entry = mm->exe_base + eh->e_entry;
	return setup_stack(mm, argc, argv, *entry, sp);
}

/* -ENOENT for an unknown program, -E2BIG for a bad argument count, else 0. */
static int check_program(const char *name, int argc)
{
	if (!find_program(name))
		return -ENOENT;
	return argc < 1 || argc > SPAWN_MAX_ARGS ? -E2BIG : 0;
}

/*
 * The new program's address space and first user registers, its layout
 * drawn as if `pid` were current (exec semantics).  *mmp is NULL on failure.
 */
static int load_program(const char *name, int argc, char *const argv[], int pid,
			struct mm_struct **mmp, struct trap_frame *regs)
{
	const struct user_program *prog = find_program(name);
	uint64_t entry, sp;
	int rc = check_program(name, argc);

	*mmp = 0;
	if (rc)
		return rc;
	*mmp = mm_create();
	if (!*mmp)
		return -ENOMEM;
	rng_spawn_pid = pid;
	rc = build_mm(*mmp, prog, argc, argv, &entry, &sp);
	rng_spawn_pid = 0;
	if (rc) {
		mm_put(*mmp);
		*mmp = 0;
		return rc;
	}
	memset(regs, 0, sizeof(*regs));
	regs->rip = entry;
	regs->rsp = sp;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rflags = 0x202;
	return 0;
}

long do_spawn(const char *name, int argc, char *const argv[])
{
	struct task_struct *p;
	struct trap_frame regs;
	int rc = check_program(name, argc);

	if (rc || (rc = alloc_task(&p)))
		return rc;
	/* Linux stamps start_time at fork, before exec draws the layout. */
	p->start_time = jiffies;
	rc = load_program(name, argc, argv, p->pid, &p->mm, &regs);
	if (rc) {
		free_task(p);
		return rc;
	}
	copy_creds(p, current);
	dup_files(p, current);
	task_set_comm(p, find_program(name)->name);
	set_cmdline(p, argc, argv);
	p->parent = current;
	p->stack_canary = get_random_int();
	fpu_init_task(p);
	prepare_kernel_stack(p, &regs);
	start_task(p);
	return p->pid;
}

/*
 * execve: the calling task becomes a new program, keeping its pid, parent,
 * credentials and open files, with a freshly randomised layout (drawn, as
 * in Linux, while the task's own pid is current).  The old address space is
 * released only once the new one is complete, so a failure leaves the
 * caller running.
 */
long do_execve(const char *name, int argc, char *const argv[])
{
	struct task_struct *t = current;
	struct mm_struct *mm, *old = t->mm;
	struct trap_frame regs;
	int rc = load_program(name, argc, argv, t->pid, &mm, &regs);

	if (rc)
		return rc;
	t->mm = mm;
	write_cr3(mm->pml4);
	mm_put(old);
	task_set_comm(t, find_program(name)->name);
	set_cmdline(t, argc, argv);
	t->dumpable = t->euid == t->uid && t->egid == t->gid;
	*t->regs = regs;
	fpu_init_task(t);
	__asm__ volatile("fxrstor64 %0" : : "m"(t->fpu));
	return 0;
}
