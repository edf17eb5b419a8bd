/*
 * exec from the file system (kernel/syscall/exec_file.c): programs the
 * build installs into the initramfs (iso/iso.mk) run from their files:
 * lx_exec checks execve, #! scripts and the exec errors from ring 3; the
 * dynamic musl and glibc PIEs run through their PT_INTERP (musl's ld.so,
 * glibc's ld-linux-x86-64.so.2, which maps libc.so.6), placed where
 * 2.6.29 and 6.6 put it (top-down below mmap_base and what is mapped
 * there, no draw of its own); a program whose interpreter is missing gives
 * ENOENT and the kernel runs on.
 */
#include "kernel/measure/policy.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/binfmt_elf.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/test/ktest.h"

static char *ptrs[EXEC_PTRS_MAX];

/* Spawns path with the NULL-terminated argv; the pid or -errno. */
static long spawn(const char *path, char *const *argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memcpy(ptrs, argv, (size_t)argc * sizeof(*ptrs));
	return spawn_file(path, ptrs, EXEC_PTRS_MAX, argc, 0);
}

static long run(const char *path, char *const *argv)
{
	int status = 0;
	long pid = spawn(path, argv), rc;

	if (pid < 0)
		return pid;
	rc = do_wait((int)pid, 0, &status, 0, 0);
	return rc < 0 ? rc : status;
}

static enum ktest_result expect(struct ktest_ctx *t, const char *path, char *const *argv, long want)
{
	long st = run(path, argv);

	if (st != want)
		return ktest_fail(t, "%s: status 0x%lx, want 0x%lx (see its FAIL lines above)",
				  path, st, want);
	return KTEST_PASS;
}

static enum ktest_result linux_exec_files(struct ktest_ctx *t)
{
	char *argv[] = {"/bin/lx_exec", 0};

	return expect(t, "/bin/lx_exec", argv, W_EXITCODE(0));
}
KTEST(linux_exec_files);

/* lx_test as a dynamic musl PIE: every check of the static builds, through ld.so. */
static enum ktest_result linux_exec_dynamic(struct ktest_ctx *t)
{
	char *argv[] = {"/bin/lx_musl_dyn", 0};
	char *exit7[] = {"/bin/lx_musl_dyn", "exit", "7", 0};

	if (expect(t, "/bin/lx_musl_dyn", argv, W_EXITCODE(0)) != KTEST_PASS)
		return KTEST_FAIL;
	return expect(t, "/bin/lx_musl_dyn", exit7, W_EXITCODE(7));
}
KTEST(linux_exec_dynamic);

/* The same as a dynamic glibc PIE: ld-linux-x86-64.so.2 maps libc.so.6 from its file. */
static enum ktest_result linux_exec_glibc_dynamic(struct ktest_ctx *t)
{
	char *argv[] = {"/bin/lx_glibc_dyn", 0};

	return expect(t, "/bin/lx_glibc_dyn", argv, W_EXITCODE(0));
}
KTEST(linux_exec_glibc_dynamic);

/* The interpreter's text: the executable region of a mapped file, in the child's mm. */
static const struct vm_area *interp_text(struct mm_struct *mm)
{
	for (int i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].kind == VMA_FILE && mm->vmas[i].vm_file &&
		    (mm->vmas[i].flags & VM_EXEC))
			return &mm->vmas[i];
	return 0;
}

/* The highest end of the interpreter's regions (its data and bss follow its text). */
static uint64_t interp_end(struct mm_struct *mm, const struct vm_area *text)
{
	uint64_t end = text->end;

	for (int i = 0; i < mm->nvmas; i++)
		if ((mm->vmas[i].kind == VMA_FILE || mm->vmas[i].kind == VMA_ANON) &&
		    mm->vmas[i].start == end)
			end = mm->vmas[i].end;
	return end;
}

/*
 * Where ld.so lands: 2.6.29 maps the PIE right below mmap_base and the
 * interpreter right below it; 6.x puts the PIE at ELF_ET_DYN_BASE + rnd and
 * the interpreter right below mmap_base.
 */
static enum ktest_result linux_exec_interp_placement(struct ktest_ctx *t)
{
	char *argv[] = {"/bin/lx_musl_dyn", "exit", "0", 0};
	struct policy pol, saved;

	policy_current(&pol);
	for (int rules = 0; rules < ASLR_NR_RULES; rules++) {
		struct task_struct *p;
		const struct vm_area *v;
		uint64_t top, want;
		int status;
		long pid;

		pol.aslr_rules = rules;
		policy_select(&pol, &saved);
		pid = spawn("/bin/lx_musl_dyn", argv);
		policy_restore(&saved);
		if (pid < 0)
			return ktest_fail(t, "spawn /bin/lx_musl_dyn: %ld", pid);
		p = find_task_by_pid((int)pid);
		v = p && p->mm ? interp_text(p->mm) : 0;
		top = v ? interp_end(p->mm, v) : 0;
		want = rules == ASLR_RULES_2629 ? p->mm->exe_base : p->mm->mmap_base;
		do_wait((int)pid, 0, &status, 0, 0);
		if (!v)
			return ktest_fail(t, "%s: no interpreter region", aslr_rules_name(rules));
		if (top != want)
			return ktest_fail(t, "%s: ld.so ends at 0x%lx, want 0x%lx",
					  aslr_rules_name(rules), top, want);
		if (status != W_EXITCODE(0))
			return ktest_fail(t, "%s: status 0x%x", aslr_rules_name(rules), status);
	}
	return KTEST_PASS;
}
KTEST(linux_exec_interp_placement);

/* PT_INTERP naming a file that does not exist: ENOENT, as Linux's open_exec. */
static enum ktest_result linux_exec_interp_missing(struct ktest_ctx *t)
{
	char *argv[] = {"/bin/lx_badinterp", 0};
	long rc = spawn("/bin/lx_badinterp", argv);

	if (rc != -ENOENT)
		return ktest_fail(t, "spawn /bin/lx_badinterp: %ld, want -ENOENT", rc);
	return expect(t, "/bin/lx_exec", (char *[]){"/bin/lx_exec", "exit3", 0}, W_EXITCODE(3));
}
KTEST(linux_exec_interp_missing);
