/*
 * Linux programs, unchanged (tests/linux/lx_test.c built with musl and
 * glibc, static and static-pie; Debian's busybox): each runs as a child of
 * init and must exit 0 (or with the code asked for).  The ELF checks are
 * tested on corrupted copies of a real image: every one gives -ENOEXEC and
 * a line saying why, and the kernel runs on.
 */
#include "boot/elf64.h"
#include "kernel/arch/traps.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/binfmt_elf.h"
#include "kernel/task/process.h"
#include "kernel/test/ktest.h"

static enum ktest_result expect_status(struct ktest_ctx *t, int argc, char **argv, long want)
{
	long st = ktest_run(argc, argv);

	if (st != want)
		return ktest_fail(t, "%s: status 0x%lx, want 0x%lx (see its FAIL lines above)",
				  argv[0], st, want);
	return KTEST_PASS;
}

/* NAME runs PROG (no arguments) and wants exit status 0; PROG's FAIL lines say what failed. */
#define LINUX_PROG_TEST(name_, prog_)                                                              \
	static enum ktest_result name_(struct ktest_ctx *t)                                        \
	{                                                                                          \
		char *argv[] = {prog_};                                                            \
                                                                                                   \
		return expect_status(t, 1, argv, W_EXITCODE(0));                                   \
	}                                                                                          \
	KTEST(name_)

LINUX_PROG_TEST(linux_musl_static, "/bin/lx_musl");
LINUX_PROG_TEST(linux_musl_static_pie, "/bin/lx_musl_pie");
LINUX_PROG_TEST(linux_glibc_static, "/bin/lx_glibc");
LINUX_PROG_TEST(linux_glibc_static_pie, "/bin/lx_glibc_pie");

static enum ktest_result linux_exit_code(struct ktest_ctx *t)
{
	char *argv[] = {"lx_glibc", "exit", "7"};
	char *argv2[] = {"lx_musl", "exit", "300"};

	if (expect_status(t, 3, argv, W_EXITCODE(7)) != KTEST_PASS)
		return KTEST_FAIL;
	return expect_status(t, 3, argv2, W_EXITCODE(300 & 0xff));
}
KTEST(linux_exit_code);

/* Signals within a process from ring 3 (tests/linux/lx_signal.c): handlers, frames, faults. */
LINUX_PROG_TEST(linux_signal_musl, "lx_signal_musl");
LINUX_PROG_TEST(linux_signal_glibc, "lx_signal_glibc");

/* Signals between processes (tests/linux/lx_sigproc.c): default actions, kill, SIGCHLD, EINTR. */
LINUX_PROG_TEST(linux_sigproc_musl, "lx_sigproc_musl");
LINUX_PROG_TEST(linux_sigproc_glibc, "lx_sigproc_glibc");

/*
 * Job control and CPU times (tests/linux/lx_jobctl.c): group stop and
 * continue, their wait statuses and SIGCHLD codes, a stopped two-thread
 * process, getrusage and /proc's group times.
 */
LINUX_PROG_TEST(linux_jobctl_musl, "lx_jobctl_musl");
LINUX_PROG_TEST(linux_jobctl_glibc, "lx_jobctl_glibc");

/*
 * Nice levels (tests/linux/lx_nice.c): getpriority/setpriority for a
 * thread, a group and a user, /proc's fields, the permission rules, and
 * the shares of two spinners at nice 0 and 5 on one CPU (rq.c's turns).
 */
LINUX_PROG_TEST(linux_nice_musl, "lx_nice_musl");
LINUX_PROG_TEST(linux_nice_glibc, "lx_nice_glibc");

/*
 * rt_sigreturn of forged frames (lx_signal forge: bad rip, kernel cs/ss,
 * IOPL/NT flags, an fpstate pointer into the kernel, reserved MXCSR bits, a
 * non-canonical rsp): each child dies by SIGSEGV or runs on in ring 3, and
 * no forged value reaches the kernel's iretq (bad_irets unchanged).
 */
static enum ktest_result linux_sigreturn_forged(struct ktest_ctx *t)
{
	char *argv_musl[] = {"lx_signal_musl", "forge"};
	char *argv_glibc[] = {"lx_signal_glibc", "forge"};
	uint64_t irets = bad_irets;

	if (expect_status(t, 2, argv_musl, W_EXITCODE(0)) != KTEST_PASS ||
	    expect_status(t, 2, argv_glibc, W_EXITCODE(0)) != KTEST_PASS)
		return KTEST_FAIL;
	if (bad_irets != irets)
		return ktest_fail(
			t, "%lu iretq faults: a forged value reached the return to user mode",
			(unsigned long)(bad_irets - irets));
	return KTEST_PASS;
}
KTEST(linux_sigreturn_forged);

/* /proc/PID/maps of 150 regions, whole past a page, read by size and by busybox cat (lx_maps.c). */
LINUX_PROG_TEST(linux_maps, "lx_maps");

static enum ktest_result linux_busybox(struct ktest_ctx *t)
{
	char *echo[] = {"busybox", "echo", "hello from busybox"};
	char *uname[] = {"busybox", "uname", "-a"};

	if (expect_status(t, 3, echo, W_EXITCODE(0)) != KTEST_PASS)
		return KTEST_FAIL;
	return expect_status(t, 3, uname, W_EXITCODE(0));
}
KTEST(linux_busybox);

/* A corrupted copy of lx_musl's headers; the segments stay in the original. */
static uint8_t bad[4096] __attribute__((aligned(8)));

static int check_copy(const uint8_t *image, uint64_t size, void (*corrupt)(Elf64_Ehdr *eh))
{
	struct elf_info ei;

	memcpy(bad, image, sizeof(bad));
	corrupt((Elf64_Ehdr *)bad);
	return elf_check(bad, size, "corrupt-test", &ei);
}

static Elf64_Phdr *load_n(Elf64_Ehdr *eh, int n)
{
	Elf64_Phdr *ph = (Elf64_Phdr *)((uint8_t *)eh + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && n-- == 0)
			return &ph[i];
	return 0;
}

static void c_magic(Elf64_Ehdr *eh)
{
	eh->e_ident[1] = 'X';
}
static void c_type(Elf64_Ehdr *eh)
{
	eh->e_type = 1; /* ET_REL */
}
static void c_phnum(Elf64_Ehdr *eh)
{
	eh->e_phnum = 0;
}
static void c_phoff(Elf64_Ehdr *eh)
{
	eh->e_phoff = 1ULL << 40;
}
static void c_huge(Elf64_Ehdr *eh)
{
	load_n(eh, 1)->p_memsz = 1ULL << 40;
}
static void c_filesz(Elf64_Ehdr *eh)
{
	load_n(eh, 1)->p_filesz = load_n(eh, 1)->p_memsz + 1;
}
static void c_outside(Elf64_Ehdr *eh)
{
	load_n(eh, 1)->p_offset = 1ULL << 32;
}
static void c_unaligned(Elf64_Ehdr *eh)
{
	load_n(eh, 1)->p_vaddr += 8;
}
static void c_overlap(Elf64_Ehdr *eh)
{
	load_n(eh, 1)->p_vaddr = load_n(eh, 0)->p_vaddr;
}
static void c_interp(Elf64_Ehdr *eh)
{
	Elf64_Phdr *ph = (Elf64_Phdr *)((uint8_t *)eh + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == 0x6474e551) /* PT_GNU_STACK: a PT_INTERP of size 0 */
			ph[i].p_type = 3;
}

static enum ktest_result linux_elf_checks(struct ktest_ctx *t)
{
	static const struct {
		const char *what;
		void (*corrupt)(Elf64_Ehdr *eh);
	} cases[] = {
		{"bad magic", c_magic},
		{"ET_REL", c_type},
		{"no program headers", c_phnum},
		{"headers outside", c_phoff},
		{"huge segment", c_huge},
		{"filesz > memsz", c_filesz},
		{"out-of-file segment", c_outside},
		{"unaligned segment", c_unaligned},
		{"overlapping segments", c_overlap},
		{"PT_INTERP", c_interp},
	};
	struct inode *ino;
	struct elf_info ei;
	const uint8_t *image;
	uint64_t size;
	enum ktest_result r = KTEST_PASS;

	if (path_lookup(0, "/bin/lx_musl", LOOKUP_FOLLOW, &ino))
		return ktest_fail(t, "no /bin/lx_musl in the initramfs");
	image = (const uint8_t *)ino->ram.data;
	size = ino->size;
	if (!ino->ramfs || size < sizeof(bad))
		r = ktest_fail(t, "/bin/lx_musl is not a ramfs file of %u bytes or more",
			       (unsigned)sizeof(bad));
	else if (elf_check(image, size, "lx_musl", &ei))
		r = ktest_fail(t, "the intact image fails the checks");
	for (unsigned i = 0; r == KTEST_PASS && i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = check_copy(image, size, cases[i].corrupt);

		if (rc != -ENOEXEC)
			r = ktest_fail(t, "%s: %d, want -ENOEXEC", cases[i].what, rc);
	}
	iput(ino);
	return r;
}
KTEST(linux_elf_checks);
