/*
 * IA-32 programs in compatibility mode (docs/linux-abi.md, "IA-32
 * programs"): the compat dispatcher's argument handling seen from a 64-bit
 * caller (userland/test/t_int80.c), the state exec gives an IA-32 program
 * before it runs, and the ELF32 header checks.
 */
#include "boot/elf64.h"
#include "kernel/arch/gdt.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vdso.h"
#include "kernel/mm/vmm.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/binfmt_elf.h"
#include "kernel/task/elf32.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/test/ktest.h"

syscall_fn ia32_syscall_fn(unsigned nr);

/*
 * int $0x80 from a 64-bit program: eax and the low halves of the argument
 * registers only, the result sign-extended, every other register kept,
 * ENOSYS, EFAULT, EINVAL and EBADF from the compat entries; nothing leaks.
 */
static enum ktest_result ia32_int80(struct ktest_ctx *t)
{
	char *argv[] = {"t_int80"};
	uint64_t pages = pmm_free_count();
	int tasks = nr_tasks_in_use();
	long st = ktest_run(1, argv);

	if (st != W_EXITCODE(0))
		return ktest_fail(t, "t_int80: status 0x%lx (see its FAIL lines above)", st);
	if (pmm_free_count() != pages || nr_tasks_in_use() != tasks)
		return ktest_fail(t, "%lu pages free after, %lu before; %d tasks, %d",
				  pmm_free_count(), pages, nr_tasks_in_use(), tasks);
	/* the table: holes and the calls left out are ENOSYS (no handler) */
	if (!ia32_syscall_fn(4) || !ia32_syscall_fn(119) || !ia32_syscall_fn(173) ||
	    ia32_syscall_fn(386) || ia32_syscall_fn(0) || ia32_syscall_fn(NR_ia32_syscalls) ||
	    ia32_syscall_fn(0xffffffffu) || ia32_syscall_fn(9) /* link: not in the table */)
		return ktest_fail(t,
				  "the i386 table's handlers for 4, 119, 173, 386, 0, 440, ~0, 9");
	return KTEST_PASS;
}
KTEST(ia32_int80);

/*
 * What compat_start_thread and the ia32 layout give a spawned IA-32
 * program before its first instruction: CS 0x23, SS and DS/ES 0x2b, no TLS
 * entries, TASK_SIZE IA32_PAGE_OFFSET, everything below it, the IA-32
 * vDSO's text (not the 64-bit one's) and [vvar] at the top of the mmap
 * area, where get_unmapped_area puts them.
 */
static bool ia32_vdso_ok(struct mm_struct *mm)
{
	uint64_t size, pa = 0, flags = 0;
	const uint8_t *img = vdso32_image(&size);
	struct vm_area *v = find_vma(mm, mm->vdso), *vv = find_vma(mm, mm->vdso + PAGE_SIZE);

	if (!mm->vdso || mm->vdso != mm->mmap_base - VDSO_MAP_LEN || !v || v->kind != VMA_VDSO ||
	    !vv || vv->kind != VMA_VVAR || vmm_translate(mm->pml4, mm->vdso, &pa, &flags))
		return false;
	/* the image, but for the entry slot vdso_init may have patched */
	return !memcmp(phys_to_virt(pa), img, vdso32_sym_vdso32_entry_alt) &&
	       !memcmp((const uint8_t *)phys_to_virt(pa) + vdso32_sym_vdso32_entry_alt + 4,
		       img + vdso32_sym_vdso32_entry_alt + 4,
		       size - vdso32_sym_vdso32_entry_alt - 4);
}

static enum ktest_result ia32_spawn_state(struct ktest_ctx *t)
{
	char *argv[] = {"lx_ia32", "back"};
	long pid = spawn_prog("lx_ia32", 2, argv);
	struct task_struct *p = pid > 0 ? find_task_by_pid((int)pid) : 0;
	enum ktest_result r = KTEST_PASS;
	int status = 0;

	if (!p)
		return ktest_fail(t, "spawn lx_ia32: %ld", pid);
	if (p->regs->cs != USER32_CS || p->regs->ss != USER_DS || !p->ia32 || p->ds != USER_DS ||
	    p->es != USER_DS || p->fsindex || p->gsindex)
		r = ktest_fail(t, "cs 0x%lx ss 0x%lx ia32 %d ds 0x%x es 0x%x fs 0x%x gs 0x%x",
			       p->regs->cs, p->regs->ss, p->ia32, p->ds, p->es, p->fsindex,
			       p->gsindex);
	else if (p->tls_array[0] || p->tls_array[1] || p->tls_array[2])
		r = ktest_fail(t, "TLS entries set before the program ran");
	else if (p->mm->task_size != IA32_PAGE_OFFSET || p->mm->mmap_base >= IA32_PAGE_OFFSET ||
		 p->mm->stack_top > IA32_PAGE_OFFSET || p->regs->rsp >= IA32_PAGE_OFFSET ||
		 p->regs->rip >= IA32_PAGE_OFFSET || p->mm->brk >= IA32_PAGE_OFFSET)
		r = ktest_fail(t, "task_size 0x%lx mmap_base 0x%lx stack_top 0x%lx sp 0x%lx",
			       p->mm->task_size, p->mm->mmap_base, p->mm->stack_top, p->regs->rsp);
	else if (!ia32_vdso_ok(p->mm))
		r = ktest_fail(t,
			       "the vDSO at 0x%lx (mmap_base 0x%lx): not the IA-32 one's pages, "
			       "or not at the top of the mmap area",
			       p->mm->vdso, p->mm->mmap_base);
	do_wait((int)pid, 0, &status, 0, 0);
	if (r == KTEST_PASS && status != W_EXITCODE(42))
		r = ktest_fail(t, "lx_ia32 back: status 0x%x, want exit 42", status);
	return r;
}
KTEST(ia32_spawn_state);

static uint8_t bad32[4096] __attribute__((aligned(8)));

static Elf32_Phdr *load32(Elf32_Ehdr *eh, int n)
{
	Elf32_Phdr *ph = (Elf32_Phdr *)((uint8_t *)eh + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && n-- == 0)
			return &ph[i];
	return 0;
}

/* ELF32 headers: EM_386 only, Elf32_Phdr-sized entries, at most 128, below IA32_PAGE_OFFSET. */
static enum ktest_result ia32_elf32_checks(struct ktest_ctx *t)
{
	struct inode *ino;
	struct elf_info ei;
	const uint8_t *image;
	uint64_t size;
	enum ktest_result r = KTEST_PASS;
	Elf32_Ehdr *eh = (Elf32_Ehdr *)bad32;

	if (path_lookup(0, "/bin/lx_ia32", LOOKUP_FOLLOW, &ino))
		return ktest_fail(t, "no /bin/lx_ia32 in the initramfs");
	image = (const uint8_t *)ino->ram.data;
	size = ino->size;
	if (!ino->ramfs || size < sizeof(bad32))
		r = ktest_fail(t, "/bin/lx_ia32 is not a ramfs file of 4096 bytes or more");
	else if (elf_check(image, size, "lx_ia32", &ei) || !ei.ia32 || ei.type != ET_EXEC)
		r = ktest_fail(t, "the intact image: not an IA-32 ET_EXEC");
	for (int c = 0; r == KTEST_PASS && c < 4; c++) {
		static const char *const what[] = {"EM_X86_64 in an ELF32", "e_phentsize 56",
						   "e_phnum 129",
						   "a segment reaching IA32_PAGE_OFFSET"};
		int rc;

		memcpy(bad32, image, sizeof(bad32));
		if (c == 0)
			eh->e_machine = EM_X86_64;
		else if (c == 1)
			eh->e_phentsize = sizeof(Elf64_Phdr);
		else if (c == 2)
			eh->e_phnum = 129;
		else {
			Elf32_Phdr *ph = load32(eh, 1);

			ph->p_vaddr = (uint32_t)IA32_PAGE_OFFSET - PAGE_SIZE;
			ph->p_offset = 0;
			ph->p_filesz = 0;
			ph->p_memsz = 2 * PAGE_SIZE;
		}
		rc = elf_check(bad32, size, "corrupt-ia32", &ei);
		if (rc != -ENOEXEC)
			r = ktest_fail(t, "%s: %d, want -ENOEXEC", what[c], rc);
	}
	iput(ino);
	return r;
}
KTEST(ia32_elf32_checks);
