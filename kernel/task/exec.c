/*
 * spawn: start a built-in program as a new child process (the exec of this
 * system: fork and exec in one step, as posix_spawn).
 *
 * Programs are position-independent ELF executables linked into the kernel
 * image (kernel/user/).  The loader checks every header field it uses,
 * maps each PT_LOAD segment at the chosen base, applies the
 * R_X86_64_RELATIVE relocations a static PIE carries, and builds the
 * initial stack (argc, argv, envp, auxv) as the System V ABI describes:
 * the ELF side lives in binfmt_elf.c, as Linux's fs/binfmt_elf.c.
 * Where the layout's pieces go is decided by kernel/mm/layout.c (ASLR).
 */
#include "boot/elf64.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/random/random.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/task/programs.h"
#include "kernel/task/binfmt_elf.h"

const struct user_program *find_program(const char *name)
{
	for (const struct user_program *p = user_programs; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
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
static int build_mm(struct mm_struct *mm, const struct linux_binprm *bprm, uint64_t *entry,
		    uint64_t *sp)
{
	struct elf_info ei;
	uint64_t bias;
	int rc;

	if ((rc = elf_check(bprm->image, bprm->size, bprm->filename, &ei)))
		return rc;
	/* ET_EXEC runs at its link address: no exe-base draw, brk after its end. */
	mm->elf_exec = ei.type == ET_EXEC;
	arch_pick_mmap_layout(mm, ei.end);
	bias = mm->elf_exec ? 0 : mm->exe_base;
	if ((rc = elf_map(mm, bprm, &ei, bias)))
		return rc;
	rc = mm_add_vma(mm, mm->stack_arg_top - STACK_VMA_SIZE, mm->stack_arg_top,
			VM_READ | VM_WRITE | VM_GROWSDOWN | (ei.exec_stack ? VM_EXEC : 0),
			VMA_STACK, 0);
	if (rc)
		return rc;
	*entry = bias + ei.entry;
	return create_elf_tables(mm, bprm, &ei, bias, sp);
}

/* -ENOENT for an unknown program, -E2BIG for a bad argument count or size, else 0. */
static int check_program(const char *name, int argc, char *const argv[], int envc,
			 char *const envp[])
{
	const struct user_program *prog = find_program(name);
	struct linux_binprm b = {
		0, 0, name, argc, envc, argv, envp, false, current->rlim_stack_cur};

	if (!prog)
		return -ENOENT;
	if (argc < 1 || argc + envc > EXEC_PTRS_MAX)
		return -E2BIG;
	return check_arg_size(&b);
}

/*
 * The new program's address space and first user registers, its layout
 * drawn as if `pid` were current (exec semantics).  *mmp is NULL on failure.
 */
static int load_program(const char *name, int argc, char *const argv[], int envc,
			char *const envp[], int pid, struct mm_struct **mmp,
			struct trap_frame *regs)
{
	const struct user_program *prog = find_program(name);
	uint64_t entry, sp;
	int rc = check_program(name, argc, argv, envc, envp);
	struct linux_binprm b;

	*mmp = 0;
	if (rc)
		return rc;
	b = (struct linux_binprm){prog->image, prog->size,   name,
				  argc,	       envc,	     argv,
				  envp,	       prog->native, current->rlim_stack_cur};
	*mmp = mm_create();
	if (!*mmp)
		return -ENOMEM;
	strlcpy((*mmp)->exe_name, prog->name, sizeof((*mmp)->exe_name));
	rng_spawn_pid = pid;
	rc = build_mm(*mmp, &b, &entry, &sp);
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

/* Linux's do_close_on_exec: once the new image is committed. */
static void close_on_exec(struct task_struct *t)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		if (!(t->close_on_exec & (1ULL << fd)) || !t->files[fd])
			continue;
		task_file_put(t->files[fd]);
		t->files[fd] = 0;
	}
	t->close_on_exec = 0;
}

long do_spawn(const char *name, int argc, char *const argv[])
{
	struct task_struct *p;
	struct trap_frame regs;
	int rc = check_program(name, argc, argv, 0, 0);

	if (rc || (rc = alloc_task(&p)))
		return rc;
	/* Linux stamps start_time at fork, before exec draws the layout. */
	p->start_time = jiffies;
	rc = load_program(name, argc, argv, 0, 0, p->pid, &p->mm, &regs);
	if (rc) {
		free_task(p);
		return rc;
	}
	copy_creds(p, current);
	dup_files(p, current);
	p->pgid = current->pgid;
	p->sid = current->sid;
	if (current->rlim_stack_max) { /* a user caller's limits; the kernel's: the defaults */
		p->rlim_stack_cur = current->rlim_stack_cur;
		p->rlim_stack_max = current->rlim_stack_max;
	}
	close_on_exec(p);
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
long do_execve(const char *name, int argc, char *const argv[], int envc, char *const envp[])
{
	struct task_struct *t = current;
	struct mm_struct *mm, *old = t->mm;
	struct trap_frame regs;
	int rc = load_program(name, argc, argv, envc, envp, t->pid, &mm, &regs);

	if (rc)
		return rc;
	t->mm = mm;
	write_cr3(mm->pml4);
	mm_put(old);
	vfork_release(t);
	close_on_exec(t);
	task_set_comm(t, find_program(name)->name);
	set_cmdline(t, argc, argv);
	t->dumpable = t->cred.euid == t->cred.uid && t->cred.egid == t->cred.gid;
	/* As Linux's exec: no TLS, no tid word, caught signals back to their default. */
	t->fs_base = t->gs_base = 0;
	wrmsr(MSR_FS_BASE, 0);
	wrmsr(MSR_KGS_BASE, 0);
	t->clear_child_tid = t->robust_list = t->robust_len = 0;
	flush_signal_handlers(t);
	*t->regs = regs;
	fpu_init_task(t);
	__asm__ volatile("fxrstor64 %0" : : "m"(t->fpu));
	return 0;
}
