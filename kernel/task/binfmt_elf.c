/*
 * The ELF loader, after Linux 2.6.29's fs/binfmt_elf.c (load_elf_binary,
 * create_elf_tables).  It takes ET_EXEC (mapped at its link address) and
 * ET_DYN (a PIE, mapped at the randomised exe base); a PT_INTERP (a dynamic
 * program) is recorded here and loaded by exec.c as load_elf_interp does.
 * ELF64 x86_64 programs, and ELF32 IA-32 ones as Linux 6.6's
 * fs/compat_binfmt_elf.c loads them: the same steps over Elf32 headers
 * (widened here), 4-byte words on the initial stack, "i686" as the
 * platform, IA32_PAGE_OFFSET as TASK_SIZE.
 *
 * Checks, each a line on the console and -ENOEXEC, the kernel running on:
 *   header     magic, ELFCLASS64 with EM_X86_64 or ELFCLASS32 with EM_386,
 *              little-endian, EV_CURRENT, ET_EXEC/ET_DYN, e_phentsize the
 *              class's Phdr size, 1 <= e_phnum <= 65536 (ELF32: 4096) /
 *              that size, the headers inside the file:
 *              as 2.6.29 (which also gives -ENOEXEC for these)
 *   segments   p_filesz > p_memsz, an address past TASK_SIZE: 2.6.29 gives
 *              -EINVAL (and kills the task: it is past the point of no
 *              return); here they are found before anything is mapped
 *              unaligned (p_vaddr - p_offset not a page multiple): mmap's
 *              -EINVAL in 2.6.29; out-of-file (p_offset + p_filesz past the
 *              end): 2.6.29 maps it and the task gets SIGBUS on the access;
 *              overlapping or out-of-order segments (page-rounded): 2.6.29
 *              maps them over each other (MAP_FIXED); segments spanning more
 *              than 256 MiB, and ET_EXEC below 64 KiB (mmap_min_addr):
 *              refused here (the loader was a copier first)
 *   PT_INTERP  as 2.6.29: p_filesz outside [2, PATH_MAX] or no NUL at its
 *              end: -ENOEXEC; the bytes outside the file: -EIO (kernel_read
 *              came back short); only the first PT_INTERP counts
 */
#include "boot/elf64.h"
#include "kernel/task/elf32.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/pmm.h"
#include "kernel/task/signal_frame.h"
#include "kernel/mm/vdso.h"
#include "kernel/char/random.h"
#include "kernel/task/binfmt_elf.h"
#include "kernel/task/task.h"

#define ET_DYN	      3
#define EV_CURRENT    1
#define PT_INTERP     3
#define PT_GNU_STACK  0x6474e551
#define MAX_SEG_SPAN  (256ULL << 20)
#define MMAP_MIN_ADDR 0x10000ULL

/* The auxiliary vector's types (include/linux/auxvec.h). */
#define AT_NULL		     0
#define AT_PHDR		     3
#define AT_PHENT	     4
#define AT_PHNUM	     5
#define AT_PAGESZ	     6
#define AT_BASE		     7
#define AT_FLAGS	     8
#define AT_ENTRY	     9
#define AT_UID		     11
#define AT_EUID		     12
#define AT_GID		     13
#define AT_EGID		     14
#define AT_PLATFORM	     15
#define AT_HWCAP	     16
#define AT_CLKTCK	     17
#define AT_SECURE	     23
#define AT_RANDOM	     25
#define AT_EXECFN	     31
#define AT_HWCAP2	     26 /* 4.11 */
#define AT_RSEQ_FEATURE_SIZE 27 /* 6.3 */
#define AT_RSEQ_ALIGN	     28
#define AT_MINSIGSTKSZ	     51 /* 5.14, in x86's ARCH_DLINFO */
#define AUXV_PAIRS	     24

#define AT_SYSINFO	32 /* ARCH_DLINFO_IA32: the IA-32 vDSO's __kernel_vsyscall */
#define AT_SYSINFO_EHDR 33 /* ARCH_DLINFO on x86_64: the vDSO */

static bool is_elf32(const uint8_t *img)
{
	return img[4] == ELFCLASS32;
}

/*
 * The i-th program header; an ELF32 one widened to Elf64_Phdr (the fields
 * are the same, in another order and width).  Only called once check_header
 * found the headers inside the file.
 */
static Elf64_Phdr phdr(const uint8_t *img, int i)
{
	const Elf32_Phdr *p;

	if (!is_elf32(img))
		return *((const Elf64_Phdr *)(img + ((const Elf64_Ehdr *)img)->e_phoff) + i);
	p = (const Elf32_Phdr *)(img + ((const Elf32_Ehdr *)img)->e_phoff) + i;
	return (Elf64_Phdr){p->p_type,	p->p_flags,  p->p_offset, p->p_vaddr,
			    p->p_paddr, p->p_filesz, p->p_memsz,  p->p_align};
}

/* The header, an ELF32 one widened (size was checked to hold it). */
static Elf64_Ehdr ehdr(const uint8_t *img)
{
	const Elf32_Ehdr *e = (const Elf32_Ehdr *)img;
	Elf64_Ehdr h;

	if (!is_elf32(img))
		return *(const Elf64_Ehdr *)img;
	memcpy(h.e_ident, e->e_ident, sizeof(h.e_ident));
	h.e_type = e->e_type;
	h.e_machine = e->e_machine;
	h.e_version = e->e_version;
	h.e_entry = e->e_entry;
	h.e_phoff = e->e_phoff;
	h.e_shoff = e->e_shoff;
	h.e_flags = e->e_flags;
	h.e_ehsize = e->e_ehsize;
	h.e_phentsize = e->e_phentsize;
	h.e_phnum = e->e_phnum;
	h.e_shentsize = e->e_shentsize;
	h.e_shnum = e->e_shnum;
	h.e_shstrndx = e->e_shstrndx;
	return h;
}

static int noexec(const char *name, const char *why, int seg)
{
	if (!name) /* a quiet check: the loader will say it */
		return -ENOEXEC;
	if (seg >= 0)
		kprintf("exec %s: ENOEXEC: segment %d: %s\n", name, seg, why);
	else
		kprintf("exec %s: ENOEXEC: %s\n", name, why);
	return -ENOEXEC;
}

/*
 * An ELFCLASS32 EM_386 file is an IA-32 program (compat_binfmt_elf.c's
 * elf_check_arch = elf_check_arch_ia32); its program headers are
 * Elf32_Phdr, at most ELF_MIN_ALIGN (4096) bytes of them as load_elf_phdrs
 * allows, 128.
 */
static int check_header(const uint8_t *img, uint64_t size, const char *name)
{
	Elf64_Ehdr h;
	const Elf64_Ehdr *eh = &h;
	uint64_t phent;

	if (size < sizeof(Elf32_Ehdr) || memcmp(img, "\177ELF", 4))
		return noexec(name, "not an ELF file", -1);
	if (img[4] == ELFCLASS64 && size < sizeof(Elf64_Ehdr))
		return noexec(name, "not an ELF file", -1);
	h = ehdr(img);
	if (!((eh->e_ident[4] == ELFCLASS64 && eh->e_machine == EM_X86_64) ||
	      (eh->e_ident[4] == ELFCLASS32 && eh->e_machine == EM_386)) ||
	    eh->e_ident[5] != ELFDATA2LSB || eh->e_ident[6] != EV_CURRENT)
		return noexec(name, "not an x86_64 ELF64 or IA-32 ELF32 little-endian file", -1);
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return noexec(name, "neither ET_EXEC nor ET_DYN", -1);
	phent = is_elf32(img) ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr);
	if (eh->e_phentsize != phent || eh->e_phnum < 1 ||
	    eh->e_phnum > (is_elf32(img) ? 4096 : 65536) / phent)
		return noexec(name, "bad program header size or count", -1);
	if (eh->e_phoff > size || size - eh->e_phoff < eh->e_phnum * phent)
		return noexec(name, "program headers outside the file", -1);
	return 0;
}

static int check_load(const Elf64_Phdr *ph, uint64_t size, const char *name, int i, uint16_t type,
		      uint64_t prev_end, uint64_t task_size)
{
	if (ph->p_filesz > ph->p_memsz)
		return noexec(name, "p_filesz > p_memsz", i);
	if (ph->p_offset > size || size - ph->p_offset < ph->p_filesz)
		return noexec(name, "file bytes past the end of the file", i);
	if ((ph->p_vaddr - ph->p_offset) % PAGE_SIZE)
		return noexec(name, "p_vaddr and p_offset not congruent modulo the page size", i);
	if (ph->p_memsz > MAX_SEG_SPAN || ph->p_vaddr >= task_size ||
	    ph->p_vaddr > task_size - ph->p_memsz)
		return noexec(name, "huge segment, or past TASK_SIZE", i);
	if (type == ET_EXEC && ph->p_vaddr < MMAP_MIN_ADDR)
		return noexec(name, "ET_EXEC segment below mmap_min_addr (64 KiB)", i);
	if ((ph->p_vaddr & ~(PAGE_SIZE - 1)) < prev_end)
		return noexec(name, "overlaps (or precedes) the previous PT_LOAD", i);
	return 0;
}

int elf_check(const uint8_t *img, uint64_t size, const char *name, struct elf_info *ei)
{
	Elf64_Ehdr h;
	const Elf64_Ehdr *eh = &h;
	uint64_t prev_end = 0, lo = ~0ULL, task_size;
	bool any = false;
	int rc = check_header(img, size, name);

	if (rc)
		return rc;
	h = ehdr(img);
	memset(ei, 0, sizeof(*ei));
	ei->ia32 = is_elf32(img);
	task_size = ei->ia32 ? IA32_PAGE_OFFSET : TASK_SIZE;
	ei->type = eh->e_type;
	ei->entry = eh->e_entry;
	ei->phoff = eh->e_phoff;
	ei->phnum = eh->e_phnum;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr phv = phdr(img, i), *ph = &phv;

		if (ph->p_type == PT_INTERP && !ei->interp_len) {
			if (ph->p_filesz > 4096 || ph->p_filesz < 2)
				return noexec(name, "PT_INTERP size outside [2, PATH_MAX]", i);
			if (ph->p_offset > size || size - ph->p_offset < ph->p_filesz) {
				if (name)
					kprintf("exec %s: EIO: PT_INTERP outside the file\n", name);
				return -EIO;
			}
			if (img[ph->p_offset + ph->p_filesz - 1])
				return noexec(name, "PT_INTERP path not NUL-terminated", i);
			ei->interp_off = ph->p_offset;
			ei->interp_len = ph->p_filesz;
		}
		if (ph->p_type == PT_GNU_STACK)
			ei->exec_stack = (ph->p_flags & PF_X) != 0;
		if (ph->p_type != PT_LOAD || !ph->p_memsz)
			continue;
		if ((rc = check_load(ph, size, name, i, ei->type, prev_end, task_size)))
			return rc;
		if (!any) {
			ei->load_off = ph->p_vaddr - ph->p_offset;
			/* elf_map(..., total_size 0)'s size: p_filesz + ELF_PAGEOFFSET(p_vaddr) */
			ei->first_len =
				(ph->p_filesz + (ph->p_vaddr & (PAGE_SIZE - 1)) + PAGE_SIZE - 1) &
				~(PAGE_SIZE - 1);
		}
		any = true;
		/* 6.12 maximum_alignment(): power-of-two p_align only */
		if (ph->p_align && !(ph->p_align & (ph->p_align - 1)) && ph->p_align > ei->align)
			ei->align = ph->p_align;
		if (ph->p_vaddr < lo)
			lo = ph->p_vaddr;
		prev_end = (ph->p_vaddr + ph->p_memsz + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		ei->end = ph->p_vaddr + ph->p_memsz;
	}
	if (!any)
		return noexec(name, "no PT_LOAD segment", -1);
	ei->start = lo & ~(PAGE_SIZE - 1);
	if (ei->end - ei->start > MAX_SEG_SPAN)
		return noexec(name, "segments span more than 256 MiB", -1);
	if (ei->entry < lo || ei->entry >= ei->end)
		return noexec(name, "entry point outside the segments", -1);
	return 0;
}

/*
 * A program from a file, as 2.6.29's elf_map + set_brk + padzero: the
 * segment's file pages are a private file-backed region (filled at fault
 * time), the rest of the last file page after p_filesz is zeroed when a bss
 * follows (padzero), and the bss pages past it are anonymous.
 */
static int map_file_segment(struct mm_struct *mm, const struct linux_binprm *bprm,
			    const Elf64_Phdr *ph, uint64_t bias, uint32_t fl, enum vma_kind kind)
{
	static const uint8_t zero[PAGE_SIZE];
	uint64_t start = bias + (ph->p_vaddr & ~(PAGE_SIZE - 1)), fend = start;
	uint64_t bss = bias + ph->p_vaddr + ph->p_filesz;
	uint64_t end = (bias + ph->p_vaddr + ph->p_memsz + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	int rc;

	if (ph->p_filesz) {
		fend = (bss + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		rc = mm_map_file(mm, start, fend, fl, kind, bprm->vm_ops, bprm->vm_file,
				 ph->p_offset & ~(PAGE_SIZE - 1));
		if (rc)
			return rc == -EINVAL ? -ENOEXEC : rc;
		if (ph->p_memsz > ph->p_filesz && bss < fend &&
		    (rc = mm_copy_to(mm, bss, zero, fend - bss)))
			return rc;
	}
	if (end > fend && (rc = mm_add_vma(mm, fend, end, fl, VMA_ANON, 0)))
		return rc == -EINVAL ? -ENOEXEC : rc;
	return 0;
}

/*
 * An image without a file (the kernel's tests load copies) has each PT_LOAD
 * become one region of fresh zero pages into which its bytes are copied, so the bss (p_memsz past
 * p_filesz), including the rest of the partial page after the file bytes, is zero without Linux's
 * padzero.  A program from a file: map_file_segment.
 */
int elf_map(struct mm_struct *mm, const struct linux_binprm *bprm, const struct elf_info *ei,
	    uint64_t bias)
{
	const uint8_t *img = bprm->image;
	bool first = true;

	for (int i = 0; i < ei->phnum; i++) {
		const Elf64_Phdr phv = phdr(img, i), *ph = &phv;
		uint64_t start, end;
		uint32_t fl = 0;
		int rc;

		if (ph->p_type != PT_LOAD || !ph->p_memsz)
			continue;
		start = bias + (ph->p_vaddr & ~(PAGE_SIZE - 1));
		end = (bias + ph->p_vaddr + ph->p_memsz + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		fl |= (ph->p_flags & PF_R) ? VM_READ : 0;
		fl |= (ph->p_flags & PF_W) ? VM_WRITE : 0;
		fl |= (ph->p_flags & PF_X) ? VM_EXEC : 0;
		if (bprm->vm_file) {
			/* The interpreter's regions: a mapped file, named by its path in maps. */
			rc = map_file_segment(mm, bprm, ph, bias, fl,
					      ei->is_interp ? VMA_FILE : VMA_EXE);
		} else {
			rc = mm_add_vma(mm, start, end, fl, ei->is_interp ? VMA_ANON : VMA_EXE,
					ph->p_offset & ~(PAGE_SIZE - 1));
			if (rc)
				return rc == -EINVAL ? -ENOEXEC : rc;
			rc = mm_copy_to(mm, bias + ph->p_vaddr, img + ph->p_offset, ph->p_filesz);
		}
		if (rc)
			return rc;
		if (ei->is_interp)
			continue;
		if (first || (ph->p_flags & PF_X)) {
			if (ph->p_flags & PF_X) {
				mm->start_code = bias + ph->p_vaddr;
				mm->end_code = bias + ph->p_vaddr + ph->p_filesz;
			}
			first = false;
		}
		if (ph->p_flags & PF_W) {
			mm->start_data = bias + ph->p_vaddr;
			mm->end_data = bias + ph->p_vaddr + ph->p_filesz;
		}
	}
	return 0;
}

static uint64_t strings_size(const struct linux_binprm *bprm)
{
	uint64_t n = strlen(bprm->filename) + 1;

	for (int i = 0; i < bprm->argc; i++)
		n += strlen(bprm->argv[i]) + 1;
	for (int i = 0; i < bprm->envc; i++)
		n += strlen(bprm->envp[i]) + 1;
	return n;
}

/* One string longer than MAX_ARG_STRLEN (NUL included): copy_strings' E2BIG, Linux 2.6.23+. */
static bool string_too_long(char *const *v, int n)
{
	for (int i = 0; i < n; i++)
		if (strlen(v[i]) + 1 > MAX_ARG_STRLEN)
			return true;
	return false;
}

int check_arg_size(const struct linux_binprm *bprm)
{
	uint64_t limit = bprm->stack_limit / 4;

	if (string_too_long(bprm->argv, bprm->argc) || string_too_long(bprm->envp, bprm->envc))
		return -E2BIG;
	if (limit < ARG_MAX)
		limit = ARG_MAX;
	return strings_size(bprm) > limit ? -E2BIG : 0;
}

/*
 * Copies one string below *p into *at: 0, or mm_copy_to's error (-ENOMEM
 * when a page could not be had, which exec must report as such).
 */
static int push_string(struct mm_struct *mm, uint64_t *p, const char *s, uint64_t *at)
{
	size_t len = strlen(s) + 1;

	*p -= len;
	*at = *p;
	return mm_copy_to(mm, *p, s, len);
}

static uint64_t elf_hwcap(void)
{
	uint32_t r[4];

	cpuid_count(1, 0, r);
	return r[3]; /* ELF_HWCAP: boot_cpu_data.x86_capability[0], CPUID.1:EDX */
}

uint64_t exec_arg_bytes(const struct linux_binprm *bprm)
{
	return sizeof(uint64_t) + strings_size(bprm);
}

/*
 * get_sigframe_size (6.12 arch/x86/kernel/signal.c): the worst case of a
 * signal frame, rt_sigframe (440) and its alignment padding, the FPU state
 * with FP_XSTATE_MAGIC2 and an i387 fsave header (112, for IA-32 frames),
 * XSAVE's alignment padding, rounded up to 16.
 */
static uint64_t minsigstksz(void)
{
	return (440 + 15 + xstate_sigframe_size() + 112 + 63 + 15) & ~15ULL;
}

int create_elf_tables(struct mm_struct *mm, const struct linux_binprm *bprm,
		      const struct elf_info *ei, uint64_t bias, uint64_t *sp_out)
{
	/* the entries kernels after 2.6.29 added: AT_MINSIGSTKSZ, AT_HWCAP2, AT_RSEQ_* */
	bool v612 = aslr_rules_current()->auxv_612;
	static uint64_t ptrs[EXEC_PTRS_MAX + 1];
	const struct cred *c = &current->cred;
	uint64_t p, execfn, platform, rnd, sp, auxv[2 * AUXV_PAIRS], word;
	int n = 0, items, rc;

	if (bprm->argc + bprm->envc > EXEC_PTRS_MAX || check_arg_size(bprm))
		return -E2BIG;
	/*
	 * do_execve's copy_strings, in Linux's places (2.6.29 and 6.6 alike):
	 * bprm_mm_init leaves bprm->p = vm_end - sizeof(void *), then the
	 * filename, envp and argv go below it, highest first; setup_arg_pages
	 * moved them to the [stack] end.  No randomness of their own: their
	 * offset from the page-aligned stack_arg_top is fixed by the strings.
	 */
	p = mm->stack_arg_top - sizeof(uint64_t);
	if ((rc = push_string(mm, &p, bprm->filename, &execfn)))
		return rc;
	for (int i = bprm->envc - 1; i >= 0; i--)
		if ((rc = push_string(mm, &p, bprm->envp[i], &ptrs[bprm->argc + i])))
			return rc;
	for (int i = bprm->argc - 1; i >= 0; i--)
		if ((rc = push_string(mm, &p, bprm->argv[i], &ptrs[i])))
			return rc;
	if (p != mm->arg_start) { /* layout.c placed the strings with another size */
		kprintf("exec %s: the strings end at 0x%lx, the layout has arg_start 0x%lx\n",
			bprm->filename, p, mm->arg_start);
		return -EFAULT;
	}
	/* the strings lie argv's, envp's, then the file name, from arg_start up */
	mm->arg_end = mm->env_start = bprm->envc ? ptrs[bprm->argc] : execfn;
	mm->env_end = execfn;
	/*
	 * create_elf_tables: p = arch_align_stack(bprm->p), below the strings;
	 * layout.c drew it in its place in the exec's order (stack_align_sp).
	 * Then the platform string (ELF_PLATFORM, "x86_64"; x86 has no
	 * ELF_BASE_PLATFORM) and AT_RANDOM's 16 bytes, each STACK_ALLOCed.
	 */
	p = mm->stack_align_sp;
	/* an IA-32 program's is COMPAT_ELF_PLATFORM, "i686" (asm/elf.h) */
	if ((rc = push_string(mm, &p, ei->ia32 ? "i686" : "x86_64", &platform)))
		return rc;
	/*
	 * AT_RANDOM: 2.6.29's create_elf_tables calls get_random_bytes(16) here;
	 * arch_pick_mmap_layout (kernel/mm/layout.c) made that draw in its place
	 * in the exec's draw order and kept the bytes in mm->at_random.
	 */
	rnd = p -= sizeof(mm->at_random);
	if ((rc = mm_copy_to(mm, rnd, mm->at_random, sizeof(mm->at_random))))
		return rc;

		/* The auxv in 2.6.29's order: ARCH_DLINFO (the vDSO, when mapped) first. */
#define AUX(type, val)                                                                             \
	do {                                                                                       \
		auxv[n++] = (type);                                                                \
		auxv[n++] = (val);                                                                 \
	} while (0)
	/*
	 * An IA-32 program's is ARCH_DLINFO_IA32 (2.6.29 and 6.6 asm/elf.h):
	 * with a vDSO, AT_SYSINFO (__kernel_vsyscall, which its libc calls
	 * for system calls instead of int $0x80) then AT_SYSINFO_EHDR.
	 */
	if (mm->vdso && ei->ia32)
		AUX(AT_SYSINFO, mm->vdso + vdso32_sym___kernel_vsyscall);
	if (mm->vdso)
		AUX(AT_SYSINFO_EHDR, mm->vdso);
	if (v612)
		AUX(AT_MINSIGSTKSZ, minsigstksz());
	AUX(AT_HWCAP, elf_hwcap());
	AUX(AT_PAGESZ, PAGE_SIZE);
	AUX(AT_CLKTCK, USER_HZ);
	AUX(AT_PHDR, bias + ei->load_off + ei->phoff);
	AUX(AT_PHENT, ei->ia32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr));
	AUX(AT_PHNUM, ei->phnum);
	AUX(AT_BASE, ei->interp_base); /* 0 without an interpreter */
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, bias + ei->entry);
	AUX(AT_UID, c->uid);
	AUX(AT_EUID, c->euid);
	AUX(AT_GID, c->gid);
	AUX(AT_EGID, c->egid);
	AUX(AT_SECURE, c->euid != c->uid || c->egid != c->gid);
	AUX(AT_RANDOM, rnd);
	if (v612)
		AUX(AT_HWCAP2, 0); /* elf_hwcap2: no FSGSBASE (CR4 keeps it off), no RING3MWAIT */
	AUX(AT_EXECFN, execfn);
	AUX(AT_PLATFORM, platform);
	if (v612) {
		AUX(AT_RSEQ_FEATURE_SIZE, 28); /* offsetof(struct rseq, end) */
		AUX(AT_RSEQ_ALIGN, 32);	       /* __alignof__(struct rseq) */
	}
	AUX(AT_NULL, 0);
#undef AUX

	/*
	 * STACK_ROUND: argc, argv[], NULL, envp[], NULL, then the auxv, 16-byte
	 * aligned; each an elf_addr_t, 4 bytes for an IA-32 program
	 * (compat_binfmt_elf.c), which the values fit (its addresses are below
	 * IA32_PAGE_OFFSET).
	 */
	items = (bprm->argc + 1) + (bprm->envc + 1) + 1;
	word = ei->ia32 ? 4 : 8;
	sp = (p - (uint64_t)n * word - (uint64_t)items * word) & ~15ULL;
	{
		uint64_t at = sp, argc = (uint64_t)bprm->argc, zero = 0;

		if ((rc = mm_copy_to(mm, at, &argc, word)))
			return rc;
		at += word;
		for (int i = 0; i < bprm->argc + bprm->envc + 1; i++, at += word) {
			uint64_t v = i < bprm->argc ? ptrs[i] : i == bprm->argc ? 0 : ptrs[i - 1];

			if ((rc = mm_copy_to(mm, at, &v, word)))
				return rc;
		}
		if ((rc = mm_copy_to(mm, at, &zero, word)))
			return rc;
		at += word;
		for (int i = 0; i < n; i++, at += word)
			if ((rc = mm_copy_to(mm, at, &auxv[i], word)))
				return rc;
	}
	mm->start_stack = sp; /* what /proc/<pid>/stat reports as startstack */
	*sp_out = sp;
	return 0;
}
