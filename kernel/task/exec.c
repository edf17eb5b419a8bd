/*
 * spawn (a new child process running a program: fork and exec in one step,
 * as posix_spawn) and execve.
 *
 * Programs come from the file system (resolved above this layer, in
 * kernel/syscall/exec_file.c, into an exec_request).  The loader checks
 * every header field it uses, maps each PT_LOAD segment at the chosen base
 * (a static PIE relocates itself, as on Linux), and builds the initial stack (argc, argv, envp,
 * auxv) as the System V ABI describes: the ELF side lives in binfmt_elf.c, as Linux's
 * fs/binfmt_elf.c. Where the layout's pieces go is decided by kernel/mm/layout.c and the rule set
 * of kernel/aslr/.
 */
#include "boot/elf64.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vdso.h"
#include "kernel/char/random.h"
#include "kernel/task/futex.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/tlb.h"
#include "kernel/arch/xstate.h"
#include "kernel/arch/gdt.h"
#include "kernel/task/binfmt_elf.h"
#include "kernel/task/tls.h"

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

/*
 * load_elf_interp: the interpreter (ET_DYN) is mapped with no address hint,
 * so get_unmapped_area puts its total_mapping_size top-down below mmap_base
 * and every region already there (the exe, the [stack]): 2.6.29's and 6.6's
 * elf_map with total_size alike.  No random draw of its own: it is
 * randomised by mmap_base.  An ET_EXEC interpreter sits at its link address.
 */
static int map_interp(struct mm_struct *mm, const struct exec_request *r, const char *name,
		      struct elf_info *ei, uint64_t *entry)
{
	struct elf_info ii;
	struct linux_binprm ib = {r->interp.image,  r->interp.size,   name, 0, 0, 0, 0, 0,
				  r->interp.vm_ops, r->interp.vm_file};
	uint64_t bias = 0, at;
	int rc;

	if (!r->interp.image) {
		kprintf("exec %s: ENOEXEC: PT_INTERP %s was not loaded (an image without a "
			"file cannot name an interpreter)\n",
			r->filename, name);
		return -ENOEXEC;
	}
	/* 2.6.29: "Not an ELF interpreter" or a bad one is -ELIBBAD. */
	if (elf_check(r->interp.image, r->interp.size, name, &ii))
		return -ELIBBAD;
	/* load_elf_interp's elf_check_arch: the program's class (a compat one for an IA-32 program)
	 */
	if (ii.ia32 != ei->ia32) {
		kprintf("exec %s: ELIBBAD: interpreter %s is not an %s program\n", r->filename,
			name, ei->ia32 ? "IA-32" : "x86_64");
		return -ELIBBAD;
	}
	if (ii.type != ET_EXEC) {
		at = mm_get_unmapped_area(mm, ii.end - ii.start);
		if (!at)
			return -ENOMEM;
		bias = at - ii.start;
	}
	ii.is_interp = true;
	if ((rc = elf_map(mm, &ib, &ii, bias)))
		return rc == -ENOEXEC ? -ELIBBAD : rc;
	ei->interp_base = bias + ii.start;
	*entry = bias + ii.entry;
	return 0;
}

/*
 * 2.6.29's flush_old_exec: the comm is bprm->filename's last component,
 * cut to TASK_COMM_LEN - 1 characters.
 */
static void comm_of(const char *filename, char *out, size_t n)
{
	size_t i = 0;

	for (const char *p = filename; *p; p++) {
		if (*p == '/')
			i = 0;
		else if (i < n - 1 && i < TASK_COMM_LEN - 1)
			out[i++] = *p;
	}
	out[i] = '\0';
}

#define EXTRA_STACK_VM_PAGES 20 /* 2.6.29's include/linux/mm.h: "random" */

/*
 * setup_arg_pages' [stack] VMA.  Linux 2.6.29 (fs/exec.c) maps the arg
 * pages plus EXTRA_STACK_VM_PAGES at exec and lets the VMA grow down on
 * faults (expand_stack) up to RLIMIT_STACK or the region below it.  Here the
 * growth is mapped at once: the VMA reaches STACK_VMA_SIZE down, or to the
 * highest region under stack_arg_top when that is nearer.  One can be: a
 * PIE's first PT_LOAD goes top-down below mmap_base (or below the [stack])
 * and 2.6.29's load_elf_binary maps the later ones MAP_FIXED above it, so
 * with mmap_base drawn just under the stack they end inside those 8 MiB.
 * Only 2.6.29's initial extent must be free; when a segment covers it, that
 * kernel's MAP_FIXED would have mapped the file over the arg strings (a task
 * killed or run on a clobbered stack), which is refused here.
 */
static int map_stack(struct mm_struct *mm, const char *filename, bool exec_stack)
{
	uint64_t top = mm->stack_arg_top, lo = top - STACK_VMA_SIZE;
	uint64_t need = (mm->arg_start & ~(PAGE_SIZE - 1)) - EXTRA_STACK_VM_PAGES * PAGE_SIZE;

	for (int i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start < top && mm->vmas[i].end > lo)
			lo = mm->vmas[i].end;
	if (lo > need) {
		kprintf("exec %s: ENOMEM: a segment at 0x%lx lies where the stack's first pages go "
			"(0x%lx-0x%lx)\n",
			filename, lo, need, top);
		return -ENOMEM;
	}
	return mm_add_vma(mm, lo, top,
			  VM_READ | VM_WRITE | VM_GROWSDOWN | (exec_stack ? VM_EXEC : 0), VMA_STACK,
			  0);
}

/*
 * Maps the program into mm, whose layout arch_pick_mmap_layout has drawn:
 * the exe, the [stack], the interpreter, the vDSO, then the initial stack's
 * contents.  The caller owns mm on failure.
 */
int exec_map_program(struct mm_struct *mm, const struct exec_request *r,
		     const struct linux_binprm *bprm, struct elf_info *ei, uint64_t *entry,
		     uint64_t *sp)
{
	uint64_t bias = mm->elf_exec ? 0 : mm->exe_base;
	int rc;

	if ((rc = elf_map(mm, bprm, ei, bias)))
		return rc;
	if ((rc = map_stack(mm, bprm->filename, ei->exec_stack)))
		return rc;
	*entry = bias + ei->entry;
	if (ei->interp_len &&
	    (rc = map_interp(mm, r, (const char *)bprm->image + ei->interp_off, ei, entry)))
		return rc;
	/*
	 * arch_setup_additional_pages, after load_elf_interp as in 2.6.29: the vDSO at layout.c's
	 * draw; an IA-32 program's (compat_arch_setup_additional_pages) the IA-32 vDSO
	 */
	if ((rc = map_vdso(mm, ei->ia32)))
		return rc;
	return create_elf_tables(mm, bprm, ei, bias, sp);
}

/* Builds the new program's address space; the caller owns mm on failure. */
static int build_mm(struct mm_struct *mm, const struct exec_request *r,
		    const struct linux_binprm *bprm, uint32_t pid, uint64_t *entry, uint64_t *sp)
{
	struct elf_info ei;
	struct aslr_image img;
	int rc;

	if ((rc = elf_check(bprm->image, bprm->size, bprm->filename, &ei)))
		return rc;
	/* ET_EXEC runs at its link address: no exe-base draw, brk after its end. */
	mm->elf_exec = ei.type == ET_EXEC;
	img.start = ei.start;
	img.end = ei.end;
	img.first_len = ei.first_len;
	img.align = ei.align;
	img.exec = mm->elf_exec;
	img.interp = ei.interp_len != 0;
	img.ia32 = ei.ia32;
	arch_pick_mmap_layout(mm, &img, exec_arg_bytes(bprm), pid);
	return exec_map_program(mm, r, bprm, &ei, entry, sp);
}

/* -E2BIG for a bad argument count or size, else 0. */
static int check_request(const struct exec_request *r)
{
	struct linux_binprm b = {0,	  0,	   r->filename, r->argc,
				 r->envc, r->argv, r->envp,	current->signal->rlim_stack.cur,
				 0,	  0};

	if (r->argc < 1 || r->argc + r->envc > EXEC_PTRS_MAX)
		return -E2BIG;
	return check_arg_size(&b);
}

/*
 * The new program's address space and first user registers, its layout
 * drawn as if `pid` were current (exec semantics).  *mmp is NULL on failure.
 */
static int load_program(const struct exec_request *r, int pid, struct mm_struct **mmp,
			struct trap_frame *regs)
{
	uint64_t entry, sp;
	int rc = check_request(r);
	struct linux_binprm b = {
		r->prog.image,	r->prog.size,	r->filename, r->argc,
		r->envc,	r->argv,	r->envp,     current->signal->rlim_stack.cur,
		r->prog.vm_ops, r->prog.vm_file};

	*mmp = 0;
	if (rc)
		return rc;
	*mmp = mm_create();
	if (!*mmp)
		return -ENOMEM;
	comm_of(r->filename, (*mmp)->exe_name, sizeof((*mmp)->exe_name));
	if (r->prog.file && exe_file_get) {
		exe_file_get(r->prog.file);
		(*mmp)->exe_file = r->prog.file;
	}
	rc = build_mm(*mmp, r, &b, (uint32_t)pid, &entry, &sp);
	if (rc) {
		mm_put(*mmp);
		*mmp = 0;
		return rc;
	}
	memset(regs, 0, sizeof(*regs));
	regs->rip = entry;
	regs->rsp = sp;
	/* start_thread, or compat_start_thread for an IA-32 program: compatibility mode */
	regs->cs = (*mmp)->task_size == IA32_PAGE_OFFSET ? USER32_CS : USER_CS;
	regs->ss = USER_DS;
	regs->rflags = 0x202;
	return 0;
}

/* Linux's do_close_on_exec: once the new image is committed. */
/* Linux's begin_new_exec: an exec'd task has exec'd, and randomises as randomize_va_space says. */
static void exec_task_flags(struct task_struct *t)
{
	t->flags &= ~(PF_RANDOMIZE | PF_FORKNOEXEC);
	if (randomize_va_space)
		t->flags |= PF_RANDOMIZE;
}

static void close_on_exec(struct task_struct *t)
{
	struct files_struct *files = t->files;

	for (int fd = 0; fd < NR_OPEN; fd++) {
		if (!(files->close_on_exec & (1ULL << fd)) || !files->fd[fd])
			continue;
		task_file_put(files->fd[fd]);
		files->fd[fd] = 0;
	}
	files->close_on_exec = 0;
}

long do_spawn_req(const struct exec_request *r)
{
	struct task_struct *p;
	struct trap_frame regs;
	char comm[TASK_COMM_LEN];
	int rc = check_request(r);

	if (rc || (rc = alloc_task(&p)))
		return rc;
	/*
	 * Linux stamps start_time and draws the stack canary at fork
	 * (dup_task_struct), in the parent, before the child's exec draws the
	 * layout: kept-state generators see the canary's call first.
	 */
	p->start_time = jiffies;
	p->stack_canary = get_random_canary();
	rc = load_program(r, p->pid, &p->mm, &regs);
	if (rc) {
		free_task(p);
		return rc;
	}
	/* a new process: its own copies of the caller's files, cwd, actions, limits, group */
	if (copy_shared_structs(p, current, 0)) {
		mm_put(p->mm);
		p->mm = 0;
		free_task(p);
		return -ENOMEM;
	}
	copy_creds(p, current);
	exec_task_flags(p);
	/* spawn's child starts with every action at SIG_DFL, as before they were shared */
	memset(p->sighand->action, 0, sizeof(p->sighand->action));
	close_on_exec(p);
	exec_user_segments(p, regs.cs == USER32_CS);
	comm_of(r->filename, comm, sizeof(comm));
	task_set_comm(p, comm);
	set_cmdline(p, r->argc, r->argv);
	task_set_parent(p, current);
	fpu_init_task(p);
	prepare_kernel_stack(p, &regs);
	start_task(p);
	return p->pid;
}

/*
 * de_thread (Linux 6.6's fs/exec.c): exec by one thread of a group ends the
 * others (SIGKILL, as exit_group) and waits until they are gone; a thread
 * that is not the leader then takes the leader's pid, parent and place, and
 * the leader's zombie is released without a report.  -EAGAIN when another
 * thread ended the group first (it is being killed).
 */
static int de_thread(struct task_struct *t)
{
	struct signal_struct *sig = t->signal;
	struct task_struct *leader = t->group_leader;
	int tid;

	if (thread_group_empty(t) && thread_group_leader(t))
		return 0;
	if ((sig->flags & SIGNAL_GROUP_EXIT) || sig->group_exit_task)
		return -EAGAIN;
	sig->group_exit_task = t;
	zap_other_threads(t);
	while (!thread_group_empty(t)) {
		if (fatal_signal_pending(t)) {
			sig->group_exit_task = 0;
			return -EAGAIN;
		}
		sleep_on(&sig->group_exit_task, (const void *)de_thread);
	}
	sig->group_exit_task = 0;
	if (!thread_group_leader(t)) {
		/* exchange_tids: this thread is the process now, under the process's pid */
		tid = t->pid;
		t->pid = leader->pid;
		leader->pid = tid;
		t->start_time = leader->start_time;
		t->parent = leader->parent;
		list_replace_init(&leader->sibling, &t->sibling); /* its place among the children */
		t->exit_signal = leader->exit_signal;
		for (int i = 0; i < NR_TASKS; i++)
			if (tasks[i].state != TASK_UNUSED && tasks[i].signal == sig)
				tasks[i].group_leader = t;
		if (leader != t)
			free_task(leader); /* a zombie never reported (its group was not empty) */
	}
	sig->nr_threads = sig->live = 1;
	return 0;
}

/*
 * begin_new_exec's unshare_files and unshare_sighand: after de_thread the
 * table and the actions may still be shared with a CLONE_FILES or
 * CLONE_SIGHAND child outside the group, which the exec must not change.
 */
static int unshare_for_exec(struct task_struct *t)
{
	if (t->files->count > 1) {
		struct files_struct *f = dup_fd(t->files);

		if (!f)
			return -ENOMEM;
		put_files_struct(t->files);
		t->files = f;
	}
	if (t->sighand->count > 1) {
		struct sighand_struct *sh = copy_sighand(t->sighand);

		if (!sh)
			return -ENOMEM;
		put_sighand(t->sighand);
		t->sighand = sh;
	}
	return 0;
}

/*
 * execve: the calling task becomes a new program, keeping its pid, parent,
 * credentials and open files, with a freshly randomised layout (drawn, as
 * in Linux, while the task's own pid is current).  The old address space is
 * released only once the new one is complete, so a failure leaves the
 * caller running.
 */
long do_execve_req(const struct exec_request *r)
{
	struct task_struct *t = current;
	struct mm_struct *mm, *old = t->mm;
	struct trap_frame regs;
	char comm[TASK_COMM_LEN];
	/* drawn under the pid it will have: a thread takes its group's (de_thread) */
	int rc = load_program(r, t->tgid, &mm, &regs);

	if (rc)
		return rc;
	if ((rc = de_thread(t))) {
		mm_put(mm);
		return rc;
	}
	/* the point of no return: a failure from here kills, as Linux's exec */
	if (unshare_for_exec(t)) {
		mm_put(mm);
		send_sig_info(SIGKILL, 0, t);
		return -ENOMEM;
	}
	mm_release(t); /* exec_mm_release: the old mm's robust list and tid word */
	t->mm = mm;
	load_mm_cr3(mm->pml4);
	vfork_release(t);
	close_on_exec(t);
	comm_of(r->filename, comm, sizeof(comm));
	task_set_comm(t, comm);
	set_cmdline(t, r->argc, r->argv);
	t->dumpable = t->cred.euid == t->cred.uid && t->cred.egid == t->cred.gid;
	exec_task_flags(t);
	/*
	 * As Linux's exec: no TLS (no bases, no set_thread_area entries, null
	 * FS and GS: start_thread_common), no tid word, caught signals back to
	 * their default.
	 */
	exec_user_segments(t, regs.cs == USER32_CS);
	t->clear_child_tid = t->robust_list = t->robust_len = t->compat_robust_list = 0;
	flush_signal_handlers(t);
	*t->regs = regs;
	fpu_init_task(t);
	os_xrstor(t->fpu);
	/*
	 * Last: it gives the big lock up, and r's arguments are the system
	 * call's static copy (sys_proc.c), which another CPU's exec may refill
	 * meanwhile.
	 */
	mm_put_unlocked(old);
	return 0;
}
