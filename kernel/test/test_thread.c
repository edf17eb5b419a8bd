/*
 * Thread groups from the kernel's side: what clone shares and what it
 * copies (files_struct, fs_struct, sighand_struct, signal_struct), the
 * references they hold, and fail-nth on each allocation of that copy: a
 * failure leaves no reference behind.  The ring-3 behaviour is
 * tests/linux/lx_thread.c's.
 */
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/task/process.h"
#include "kernel/task/signal.h"
#include "kernel/test/ktest.h"

static struct task_struct scratch; /* never scheduled: only its pointers are used */

static void put_scratch(void)
{
	put_files_struct(scratch.files);
	free_fs_struct(scratch.fs);
	put_sighand(scratch.sighand);
	put_signal_struct(scratch.signal);
	memset(&scratch, 0, sizeof(scratch));
}

#define ALL_SHARED (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD)

static enum ktest_result thread_shares_structs(struct ktest_ctx *t)
{
	struct task_struct *me = current;
	int files = me->files->count, fs = me->fs->users, sh = me->sighand->count,
	    sig = me->signal->sigcnt;

	memset(&scratch, 0, sizeof(scratch));
	if (copy_shared_structs(&scratch, me, ALL_SHARED))
		return ktest_fail(t, "sharing every structure failed");
	if (scratch.files != me->files || scratch.fs != me->fs || scratch.sighand != me->sighand ||
	    scratch.signal != me->signal)
		return ktest_fail(t, "a thread got a copy instead of the shared structure");
	if (me->files->count != files + 1 || me->fs->users != fs + 1 ||
	    me->sighand->count != sh + 1 || me->signal->sigcnt != sig + 1)
		return ktest_fail(t, "sharing did not take one reference on each");
	put_scratch();
	if (me->files->count != files || me->fs->users != fs || me->sighand->count != sh ||
	    me->signal->sigcnt != sig)
		return ktest_fail(t, "the references did not go back");
	return KTEST_PASS;
}
KTEST(thread_shares_structs);

static enum ktest_result fork_copies_structs(struct ktest_ctx *t)
{
	struct task_struct *me = current;
	int files = me->files->count;

	memset(&scratch, 0, sizeof(scratch));
	if (copy_shared_structs(&scratch, me, 0))
		return ktest_fail(t, "copying every structure failed");
	if (scratch.files == me->files || scratch.fs == me->fs || scratch.sighand == me->sighand ||
	    scratch.signal == me->signal)
		return ktest_fail(t, "fork shares a structure it must copy");
	if (me->files->count != files || scratch.files->count != 1 || scratch.signal->sigcnt != 1 ||
	    scratch.signal->live != 1)
		return ktest_fail(t, "a copy's counts are wrong");
	if (memcmp(scratch.sighand->action, me->sighand->action, sizeof(me->sighand->action)) ||
	    scratch.signal->pgid != me->signal->pgid || scratch.fs->umask != me->fs->umask)
		return ktest_fail(t, "a copy differs from the original");
	for (int i = 0; i < NR_OPEN; i++)
		if (scratch.files->fd[i] != me->files->fd[i])
			return ktest_fail(t, "fd %d not copied", i);
	put_scratch();
	return KTEST_PASS;
}
KTEST(fork_copies_structs);

/* Each of the four allocations fails in turn: -ENOMEM, and every reference goes back. */
static enum ktest_result clone_fail_nth(struct ktest_ctx *t)
{
	struct task_struct *me = current;
	int files = me->files->count, fs = me->fs->users;

	for (unsigned nth = 1; nth <= 4; nth++) {
		long rc;

		memset(&scratch, 0, sizeof(scratch));
		me->fail_nth = nth;
		rc = copy_shared_structs(&scratch, me, 0);
		me->fail_nth = 0;
		if (rc != -ENOMEM)
			return ktest_fail(t, "allocation %u failing: %ld, want -ENOMEM", nth, rc);
		put_scratch();
		if (me->files->count != files || me->fs->users != fs)
			return ktest_fail(t, "allocation %u failing left a reference", nth);
	}
	return KTEST_PASS;
}
KTEST(clone_fail_nth);

/* copy_process's flag rules come before any allocation. */
static enum ktest_result clone_bad_flags(struct ktest_ctx *t)
{
	static const uint64_t bad[] = {CLONE_THREAD | CLONE_VM, CLONE_SIGHAND,
				       CLONE_THREAD | CLONE_SIGHAND};
	int before = nr_tasks_in_use();

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct clone_req c = {.regs = current->regs, .flags = bad[i]};
		long rc = do_clone(&c);

		if (rc != -EINVAL)
			return ktest_fail(t, "flags 0x%lx: %ld, want -EINVAL",
					  (unsigned long)bad[i], rc);
	}
	if (nr_tasks_in_use() != before)
		return ktest_fail(t, "a refused clone took a task slot");
	return KTEST_PASS;
}
KTEST(clone_bad_flags);
