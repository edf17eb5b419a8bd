/*
 * mode=fuzz: the kernel side of the syscall fuzzer (userland/test/fuzz.c).
 *
 * A program is three fuzz processes at once (one root, two uid 1000), each
 * PROG_CALLS calls drawn from its own seed, which derives from the
 * program's seed; program k of a run has seed base + k, so
 * `mode=fuzz seed=S calls=1500` replays program S alone.  After every
 * program, with all of its processes reaped, the kernel checks: free pages,
 * task slots and address spaces back to what they were, /proc still reads,
 * the two sysctls (which only uid 1000 can reach: the root fuzzer never
 * opens them for writing) unchanged, init's credentials and fail-nth
 * unchanged, and no return to user mode faulted (a task killed by its own
 * iretq means kernel state, RFLAGS.NT say, reached it).  A watchdog on the timer tick ends the run
 * when no fuzz call has started for watchdog= seconds (a kernel hang); a panic prints the call
 * every fuzz process was making.  A failed check is minimised: the process that fails alone is cut
 * to the shortest prefix, then the latest start, then single calls are dropped, and the result is
 * printed as a C-like listing.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/panic.h"
#include "kernel/run/run.h"
#include "kernel/params/param.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/arch/machine_exit.h"
#include "kernel/fs/file.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/char/random.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/futex.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/test/fuzz_job.h"

#define NPROCS	     3
#define PROG_CALLS   500
#define PROG_LIMIT_S 180
#define DEFAULT_S    300
/*
 * The longest a root fuzz process may wait runnable for the CPU.  Three
 * processes share one CPU in 4 ms slices, and a wait is wall time: under
 * TCG on a loaded host, freeing a 64 MiB file at exit or a large fork
 * stretched past 1 s (3.4 s once, with four emulators on two cores) with no
 * kernel fault.  The bound catches the multi-second stalls of a system call
 * with no preemption point (a 64 KiB write took up to 5.6 s when files were
 * copied whole) without failing for the host's load.
 */
#define LATENCY_MAX_MS 5000
/*
 * The longest a task may keep the CPU in the kernel after the scheduler asked
 * for it back while another task waited (sched_max_resched_delay): what a
 * system call without a preemption point costs the others, measured where it
 * happens.  Clean 300 s runs under TCG peaked at 340-640 ms (the host's load
 * stretches it, as it does the root wait); the calls that looped without a
 * preemption point held the CPU for 1-4 s.
 */
#define PREEMPT_MAX_MS 1000

enum fail {
	F_NONE,
	F_PAGES,
	F_TASKS,
	F_MMS,
	F_PROC,
	F_SYSCTL,
	F_INIT,
	F_PRIV,
	F_HANG,
	F_IRET,
	F_INODES,
	F_POOLS,
	F_FPU,
	F_LATENCY,
	F_PREEMPT,
	F_FUTEX
};
static const char *const fail_names[] = {
	"none",
	"page leak",
	"task-slot leak",
	"address-space leak",
	"/proc unreadable",
	"a uid-1000 call changed a root-only sysctl",
	"init's credentials changed",
	"a uid-1000 process became root",
	"a program did not finish",
	"a return to user mode faulted (kernel state reached iretq)",
	"inode leak (an unlinked file still held: a leaked fd or mapping reference)",
	"inode or name pool not back to its baseline once the fuzzer's files were removed",
	"fpu (a system call changed a process's SSE or AVX registers)",
	"latency (a root task waited longer than the bound for the CPU)",
	"preempt (a task kept the CPU in the kernel longer than the bound after it was asked to "
	"give it up)"};

struct note {
	int pid;
	uint64_t seed, idx;
};
static struct note notes[NR_TASKS];
static uint64_t total_calls;
static volatile uint64_t last_progress;
static bool watching;

static const uint32_t uids[NPROCS] = {0, 1000, 1000};

static uint64_t proc_seed(uint64_t pseed, int p)
{
	return pseed * 4 + (uint64_t)p;
}

static void print_notes(void)
{
	for (int i = 0; i < NR_TASKS; i++)
		if (notes[i].pid && tasks[i].state != TASK_UNUSED && tasks[i].pid == notes[i].pid)
			kprintf("fuzz: in flight: pid %d (%s, uid %u, state %d, wchan %p) seed %lx "
				"call %lu, sleeps %ld more ticks\n",
				notes[i].pid, tasks[i].comm, tasks[i].cred.uid, tasks[i].state,
				tasks[i].wchan, notes[i].seed, notes[i].idx,
				tasks[i].sleep_until ? (long)(tasks[i].sleep_until - jiffies) : 0L);
}

/*
 * suite=plant-leak plants a bug for the fuzzer to find, so that a test can
 * check the whole pipeline (detection, minimiser, listing): fuzz_note with
 * a third argument of 1000 leaks a page.  The fuzzer's own notes pass 0.
 * suite=plant-sleep plants a legitimate long sleep instead: the first uid
 * 1000 process to note its call 5 sleeps 1,000 s there, as a call with a
 * timeout of days would; the run must kill it and go on, not fail.
 */
static bool planted_leak, planted_sleep;
static uint64_t max_wait_ms;  /* the run's longest root wait for the CPU, for its record */
static uint64_t max_delay_ms; /* the run's longest preemption delay, for its record */
static unsigned max_delay_nr; /* the system call the task that kept the CPU was in */

/*
 * watchdog=: 60 s by default, far beyond any call's time on an emulator; a
 * test that plants a long sleep lowers it, as the kill comes at half of it.
 */
static uint32_t watchdog_s = 60;
param_uint(watchdog, watchdog_s, 10, 3600, "60",
	   "mode=fuzz: seconds without a fuzz call that end the run as a hang");

static uint32_t fuzz_calls, fuzz_seconds;
param_uint(calls, fuzz_calls, 1, 1000000000, "", "mode=fuzz: stop after this many calls");
param_uint(seconds, fuzz_seconds, 1, 604800, "",
	   "mode=fuzz: stop after this many seconds (a week at most)");

/* fuzz_note(seed, index): the fuzzer is about to make call `index`. */
long sys_fuzz_note(const struct syscall_args *a)
{
	int slot = (int)(current - tasks);

	if (run_mode != MODE_FUZZ)
		return -ENOSYS;
	if (planted_leak && a->a2 == 1000)
		pmm_alloc_page();
	if (planted_sleep && a->a1 == 5 && current->cred.uid == 1000) {
		uint64_t until = jiffies + 1000ULL * timer_hz();

		planted_sleep = false;
		while (!signal_pending(current) && jiffies < until)
			sleep_on_interruptible(&planted_sleep, until, (const void *)sys_fuzz_note);
		return -EINTR;
	}
	if (slot >= 0 && slot < NR_TASKS)
		notes[slot] = (struct note){current->pid, a->a0, a->a1};
	total_calls++;
	last_progress = jiffies;
	return 0;
}

static void watchdog(const struct trap_frame *f)
{
	if (watching && jiffies - last_progress > (uint64_t)watchdog_s * timer_hz()) {
		watching = false;
		kprintf("fuzz: FAIL watchdog: no fuzz call started for %u s (a hang: in the "
			"kernel, "
			"or every fuzz process asleep for good)\n",
			watchdog_s);
		/* The tick interrupted whatever hangs: name it. */
		/* Ring and rip tell a kernel loop from a user one; the counts a fault loop. */
		kprintf("fuzz: on the CPU: pid %d (%s), in %s mode at rip %lx; utime %lu stime %lu "
			"ticks, %lu minor faults, last trap %lu at %lx\n",
			current->pid, current->comm, (f->cs & 3) == 3 ? "user" : "kernel", f->rip,
			current->utime, current->stime, current->min_flt, current->trap_nr,
			current->cr2);
		print_notes();
		machine_exit(EXIT_FAILED);
	}
}

/*
 * A fuzz call may sleep for long on purpose: a timeout read from memory the
 * fuzzer does not control (a "bad" pointer that is readable) can ask
 * rt_sigtimedwait or a futex for days, and its parent then waits for it in
 * wait4.  With no fuzz task runnable and one of them in such a timed sleep
 * the kernel is not hung, so halfway to the watchdog the program is killed
 * and the run goes on; the line names the sleepers.  A stopped fuzz
 * process (a stop signal to its own child) counts as such a sleeper: only
 * a SIGCONT from a fuzz process that is asleep itself could end its stop, and
 * its parent may wait for it without WUNTRACED, as on Linux.  SIGKILL ends
 * a stopped task.  With every task asleep and none of them timed or
 * stopped, nothing can wake them: the watchdog still fails.
 */
static bool all_in_timed_sleep(void)
{
	int timed = 0;

	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *t = &tasks[i];

		if (t->state == TASK_UNUSED || t->state == TASK_ZOMBIE || t == current ||
		    t->kthread)
			continue;
		if (t->state == TASK_STOPPED) {
			timed++;
			continue;
		}
		if (t->state != TASK_INTERRUPTIBLE)
			return false;
		timed += t->sleep_until > jiffies;
	}
	return timed > 0;
}

static void kill_timed_sleepers(uint64_t pseed)
{
	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *t = &tasks[i];

		if ((t->state != TASK_INTERRUPTIBLE && t->state != TASK_STOPPED) || t == current ||
		    t->kthread)
			continue;
		if (t->state == TASK_STOPPED)
			kprintf("fuzz: program %lx: pid %d (uid %u) stopped, no fuzz task "
				"runnable: killed, not a hang\n",
				pseed, t->pid, t->cred.uid);
		else
			kprintf("fuzz: program %lx: pid %d (uid %u) sleeps %lu more ticks in %p, "
				"no fuzz task runnable and one in a timed sleep: killed, not a "
				"hang\n",
				pseed, t->pid, t->cred.uid,
				t->sleep_until > jiffies ? t->sleep_until - jiffies : 0, t->wchan);
		send_sig(SIGKILL, t);
	}
	last_progress = jiffies;
}

static void sleep_ms(unsigned ms)
{
	sleep_until(jiffies + (uint64_t)ms * timer_hz() / 1000 + 1, (const void *)sleep_ms);
}

static bool proc_reads(void)
{
	struct file *f;
	char buf[64];
	long n;

	if (do_filp_open(0, "/proc/1/stat", O_RDONLY, 0, &f))
		return false;
	n = f->ops->read(f, buf, sizeof(buf), &f->pos);
	file_put(f);
	return n > 0;
}

struct snapshot {
	uint64_t pages;
	int tasks, mms, va, inodes, live_inodes, names;
	uint8_t inode_map[NR_INODES];
	const char *rng;
	uint32_t ids[8];
	int dumpable;
	unsigned int fail_nth;
	uint64_t bad_irets;
	int futex_queued; /* waiters on every futex: none once the program's processes are gone */
	char comm[TASK_COMM_LEN];
};

static void snap(struct snapshot *s)
{
	struct task_struct *me = current;
	uint32_t ids[8] = {me->cred.uid, me->cred.euid, me->cred.suid, me->cred.fsuid,
			   me->cred.gid, me->cred.egid, me->cred.sgid, me->cred.fsgid};

	/*
	 * Free pages plus those ramfs file data holds: a file a fuzz process
	 * created in / or /tmp outlives it (that is no leak), a page nobody
	 * holds is one.
	 */
	s->pages = pmm_free_count() + vfs_ramfs_pages();
	s->tasks = nr_tasks_in_use();
	s->mms = mm_nr_free();
	/* No process of the program is left: an unlinked file still held is a leaked reference. */
	s->inodes = vfs_orphans_in_use();
	/* The fuzzer's files are removed (fs_reset) before each snapshot: both pools as before. */
	s->live_inodes = vfs_inodes_in_use();
	s->names = vfs_dentries_in_use();
	vfs_inode_map(s->inode_map);
	s->va = randomize_va_space;
	s->rng = rng_current()->name;
	memcpy(s->ids, ids, sizeof(ids));
	s->dumpable = me->dumpable;
	s->fail_nth = me->fail_nth;
	s->bad_irets = bad_irets;
	s->futex_queued = futex_nr_queued();
	memcpy(s->comm, me->comm, sizeof(s->comm));
}

static enum fail compare(const struct snapshot *a, const struct snapshot *b)
{
	if (b->bad_irets != a->bad_irets)
		return F_IRET;
	if (b->va != a->va || strcmp(b->rng, a->rng))
		return F_SYSCTL;
	if (memcmp(b->ids, a->ids, sizeof(a->ids)) || b->dumpable != a->dumpable ||
	    b->fail_nth != a->fail_nth || memcmp(b->comm, a->comm, sizeof(a->comm)))
		return F_INIT;
	if (b->tasks != a->tasks)
		return F_TASKS;
	if (b->futex_queued != a->futex_queued)
		return F_FUTEX;
	if (b->mms != a->mms)
		return F_MMS;
	if (b->inodes != a->inodes)
		return F_INODES;
	if (b->live_inodes != a->live_inodes || b->names != a->names)
		return F_POOLS;
	if (b->pages != a->pages)
		return F_PAGES;
	return proc_reads() ? F_NONE : F_PROC;
}

/*
 * What the fuzz processes make in the ramfs goes between programs, so that
 * each program starts from the same file system and a replay of one
 * program alone meets what it met in the run: every entry of / and /tmp
 * that was not there when the run began (the shared tree /tmp/fz, the "fz"
 * names relative paths made, /nonexistent, and what a symlink in the tree
 * let a path reach, /tmp/f0 through /tmp/fz/d0 -> "." say).  Then the inode
 * and name pools must be back where they were (snap()): what cannot be
 * reached any more, under a removed directory say, is a leak.
 */
#define BASE_MAX 128
static const struct dentry *base_entries[BASE_MAX];
static int nbase;

static void note_base(struct inode *dir)
{
	for (struct dentry *d = dir->ram.children; d && nbase < BASE_MAX; d = d->next)
		base_entries[nbase++] = d;
}

static bool in_base(const struct dentry *d)
{
	for (int i = 0; i < nbase; i++)
		if (base_entries[i] == d)
			return true;
	return false;
}

/* dir/name and everything under it, deepest first, without recursion (trees may be deep). */
static void remove_tree(struct inode *dir, const char *name)
{
	struct inode *top, *cur;

	if (ramfs_lookup(dir, name, &top))
		return;
	cur = top;
	for (;;) {
		struct dentry *d = S_ISDIR(cur->mode) && cur->ramfs ? cur->ram.children : 0;

		if (d) {
			struct inode *child = d->inode;

			if (S_ISDIR(child->mode) && child->ramfs && !child->mounted &&
			    child->ram.children)
				cur = child;
			else
				ramfs_unlink(cur, d->name);
			continue;
		}
		if (cur == top)
			break;
		cur = cur->parent; /* where the now empty directory goes next */
	}
	ramfs_unlink(dir, name);
	iput(top);
}

/* Every entry of dir the run did not begin with. */
static void remove_new(struct inode *dir)
{
	int rounds = 0;

	for (struct dentry *d = dir->ram.children; d && rounds < NR_DENTRIES; rounds++) {
		struct dentry *next = d->next;

		if (!in_base(d)) {
			char name[NAME_MAX + 1];

			strlcpy(name, d->name, sizeof(name));
			remove_tree(dir, name);
			next = dir->ram.children; /* the list changed: start over */
		}
		d = next;
	}
}

static struct inode *tmp_dir(void)
{
	struct inode *tmp;

	return ramfs_lookup(root_inode, "tmp", &tmp) ? 0 : tmp;
}

static void fs_reset(void)
{
	struct inode *tmp = tmp_dir(), *fz;

	remove_new(root_inode);
	if (!tmp)
		return;
	remove_new(tmp);
	fz = ramfs_new(S_IFDIR | 01777, 0, 0, 0);
	if (fz) {
		ramfs_link(tmp, "fz", fz);
		iput(fz);
	}
	iput(tmp);
}

/* The entries of / and /tmp before the first program: what fs_reset keeps. */
static void fs_note_base(void)
{
	struct inode *tmp = tmp_dir();

	nbase = 0;
	note_base(root_inode);
	if (tmp) {
		note_base(tmp);
		iput(tmp);
	}
}

/*
 * The system RNG of a program: each program runs under one variant, in
 * turn by its seed, so a default run reaches every variant's code (the
 * SIMD refill of chacha20-wide, the 2.6.29 pool's locks...) and a replay of
 * a program meets the variant it met.  `variants=` narrows the turn, so a
 * long run can stay on one variant's code paths; a replay must then be given
 * the same `variants=`.
 */
static const char *program_rng(uint64_t pseed)
{
	const struct rng_variant *avail[RNG_NR_VARIANTS];
	int n = 0;

	for (int i = 0; rng_variants[i]; i++)
		if ((!rng_variants[i]->available || rng_variants[i]->available()) &&
		    run_variant_chosen(i))
			avail[n++] = rng_variants[i];
	if (!n) /* every chosen variant is missing here (rdrand): the system's */
		return rng_current()->name;
	return avail[pseed % (uint64_t)n]->name;
}

/* The fuzz call pid was making when it last noted one, as text ("" when none). */
static const char *behind_note(int pid)
{
	static char buf[64];

	buf[0] = '\0';
	for (int i = 0; i < NR_TASKS; i++)
		if (notes[i].pid == pid)
			ksnprintf(buf, sizeof(buf), " (its last fuzz call: seed %lx call %lu)",
				  notes[i].seed, notes[i].idx);
	return buf;
}

/* Spawns fuzz processes (nproc of them, or process `only`), reaps everything, checks. */
static enum fail run_program(uint64_t pseed, int only, uint64_t ncalls, uint64_t from,
			     const char *skips, bool list)
{
	char seeds[NPROCS][20], uidstr[NPROCS][8], n[16], f[16];
	long pids[NPROCS] = {0};
	struct snapshot before, after;
	uint64_t start = jiffies, delay_ms;
	enum fail r = F_NONE;
	int status;
	long rc;

	rng_select(program_rng(pseed));
	fs_reset();
	snap(&before);
	sched_max_wait_root = 0;
	sched_max_resched_delay = 0;
	ksnprintf(n, sizeof(n), "%lu", ncalls);
	ksnprintf(f, sizeof(f), "%lu", from);
	for (int p = 0; p < NPROCS; p++) {
		char *argv[] = {"fuzz", seeds[p], n, uidstr[p], f, (char *)skips, "list"};

		if (only >= 0 && p != only)
			continue;
		ksnprintf(seeds[p], sizeof(seeds[p]), "%lx", proc_seed(pseed, p));
		ksnprintf(uidstr[p], sizeof(uidstr[p]), "%u", uids[p]);
		pids[p] = spawn_prog("fuzz", list ? 7 : 6, argv);
		if (pids[p] < 0)
			kprintf("fuzz: cannot spawn the fuzzer (%ld)\n", pids[p]);
	}
	/* Reap the fuzzers and every orphan they leave to init. */
	while ((rc = do_wait(-1, WNOHANG, &status, 0, 0)) != -ECHILD) {
		if (rc == 0) {
			if (jiffies - last_progress > (uint64_t)watchdog_s * timer_hz() / 2 &&
			    all_in_timed_sleep())
				kill_timed_sleepers(pseed);
			if (jiffies - start > (uint64_t)PROG_LIMIT_S * timer_hz()) {
				kprintf("fuzz: program %lx still running after %d s\n", pseed,
					PROG_LIMIT_S);
				print_notes();
				return F_HANG;
			}
			sleep_ms(10);
			continue;
		}
		for (int p = 0; p < NPROCS; p++) {
			if (rc == pids[p] && status == W_EXITCODE(99))
				r = F_PRIV;
			if (rc == pids[p] && status == W_EXITCODE(98))
				r = F_FPU;
		}
	}
	fs_reset();
	snap(&after);
	delay_ms = sched_max_resched_delay * 1000 / timer_hz();
	if (r == F_NONE)
		r = compare(&before, &after);
	if (sched_max_wait_root * 1000 / timer_hz() > max_wait_ms)
		max_wait_ms = sched_max_wait_root * 1000 / timer_hz();
	if (r == F_NONE && sched_max_wait_root * 1000 / timer_hz() > LATENCY_MAX_MS) {
		kprintf("fuzz: a root task waited %lu ms for the CPU (bound %d ms), until pid %d "
			"gave it up%s; longest preemption delay %lu ms (pid %d, %s)\n",
			sched_max_wait_root * 1000 / timer_hz(), LATENCY_MAX_MS,
			sched_max_wait_behind, behind_note(sched_max_wait_behind), delay_ms,
			sched_max_resched_pid, syscall_name(sched_max_resched_nr));
		r = F_LATENCY;
	}
	if (delay_ms > max_delay_ms) {
		max_delay_ms = delay_ms;
		max_delay_nr = sched_max_resched_nr;
	}
	if (r == F_NONE && delay_ms > PREEMPT_MAX_MS) {
		kprintf("fuzz: pid %d kept the CPU %lu ms in the kernel after it was asked to give "
			"it up (bound %d ms), its last system call %s%s\n",
			sched_max_resched_pid, delay_ms, PREEMPT_MAX_MS,
			syscall_name(sched_max_resched_nr), behind_note(sched_max_resched_pid));
		r = F_PREEMPT;
	}
	if (r == F_INODES)
		vfs_print_orphans();
	if (r == F_POOLS)
		vfs_print_new_inodes(before.inode_map);
	if (r == F_POOLS)
		kprintf("fuzz: inodes %d, names %d in use after; %d, %d before\n",
			after.live_inodes, after.names, before.live_inodes, before.names);
	if (r == F_PAGES)
		kprintf("fuzz: %lu pages free after, %lu before\n", after.pages, before.pages);
	return r;
}

/* One process alone, calls [from, n) minus skips: does it still fail with `want`? */
static bool fails(uint64_t pseed, int p, uint64_t n, uint64_t from, const char *skips,
		  enum fail want)
{
	return run_program(pseed, p, n, from, skips, false) == want;
}

static uint8_t dropped[PROG_CALLS]; /* the minimiser's: 1 dropped, 2 being tried */

/* dropped[] as "a-b,c-d" (or "-" for none); false when it does not fit. */
static bool skip_list(char *out, size_t cap, uint64_t from, uint64_t hi)
{
	size_t n = 0;

	out[0] = '\0';
	for (uint64_t i = from; i < hi; i++) {
		uint64_t e = i;

		if (!dropped[i])
			continue;
		while (e + 1 < hi && dropped[e + 1])
			e++;
		n += (size_t)ksnprintf(out + n, cap - n, "%s%lu-%lu", n ? "," : "", i, e);
		if (n >= cap - 1)
			return false;
		i = e;
	}
	if (!n)
		strlcpy(out, "-", cap);
	return true;
}

static void minimise(uint64_t pseed, enum fail want)
{
	char skips[128] = "-", tmp[128];
	uint64_t lo, hi, from = 0;
	int p;

	for (p = 0; p < NPROCS; p++)
		if (fails(pseed, p, PROG_CALLS, 0, "-", want))
			break;
	if (p == NPROCS) {
		kprintf("fuzz: no single process reproduces it alone; replay the whole program: "
			"mode=fuzz seed=%016lx calls=%d\n",
			pseed, NPROCS * PROG_CALLS);
		return;
	}
	for (lo = 1, hi = PROG_CALLS; lo < hi;) { /* the shortest failing prefix */
		uint64_t mid = (lo + hi) / 2;

		if (fails(pseed, p, mid, 0, "-", want))
			hi = mid;
		else
			lo = mid + 1;
	}
	for (uint64_t a = 0, b = hi - 1; a < b;) { /* the latest start that still fails */
		uint64_t mid = (a + b + 1) / 2;

		if (fails(pseed, p, hi, mid, "-", want))
			a = mid;
		else
			b = mid - 1;
		from = a;
	}
	/*
	 * Drop chunks of calls, halving the chunk down to single calls (ddmin's
	 * idea); the skip list is rebuilt from what is dropped, as merged ranges.
	 */
	memset(dropped, 0, sizeof(dropped));
	for (uint64_t chunk = (hi - from) / 2; chunk >= 1; chunk /= 2) {
		for (uint64_t s = from; s + 1 < hi; s += chunk) {
			uint64_t e = s + chunk - 1 < hi - 2 ? s + chunk - 1 : hi - 2;
			bool all = true;

			if (e < s)
				break;
			for (uint64_t i = s; i <= e; i++)
				all = all && dropped[i];
			if (all)
				continue;
			for (uint64_t i = s; i <= e; i++)
				dropped[i] |= 2; /* tentatively */
			if (skip_list(tmp, sizeof(tmp), from, hi) &&
			    fails(pseed, p, hi, from, tmp, want)) {
				for (uint64_t i = s; i <= e; i++)
					dropped[i] = 1;
			} else {
				for (uint64_t i = s; i <= e; i++)
					dropped[i] &= 1;
			}
		}
		if (chunk == 1)
			break;
	}
	if (!skip_list(skips, sizeof(skips), from, hi))
		strlcpy(skips, "-", sizeof(skips));
	kprintf("fuzz: minimised: process %d (uid %u, seed %lx), calls %lu..%lu, skipping %s:\n", p,
		uids[p], proc_seed(pseed, p), from, hi - 1, skips);
	run_program(pseed, p, hi, from, skips, true);
}

static uint64_t base_seed(void)
{
	uint64_t s = 0;

	if (!random_boot_seed.len)
		return rdtsc() ^ ((uint64_t)get_random_int() << 32);
	for (size_t i = 0; i < random_boot_seed.len && i < 8; i++)
		s = s << 8 | random_boot_seed.bytes[i];
	return s;
}

/*
 * What a replay needs besides the seed: the variants= narrowing and the rule
 * set, when not the defaults (" variants=a,b aslr_rules=6.x"; "" otherwise).
 */
static const char *replay_context(void)
{
	static char buf[192];
	size_t len = 0;

	buf[0] = '\0';
	if (run_variant_count() != RNG_NR_VARIANTS) {
		len = strlcpy(buf, " variants=", sizeof(buf));
		for (int i = 0, first = 1; rng_variants[i] && len < sizeof(buf); i++)
			if (run_variant_chosen(i)) {
				len += ksnprintf(buf + len, sizeof(buf) - len, "%s%s",
						 first ? "" : ",", rng_variants[i]->name);
				first = 0;
			}
	}
	if (aslr_rules_current()->id != ASLR_RULES_2629 && len < sizeof(buf))
		ksnprintf(buf + len, sizeof(buf) - len, " aslr_rules=%s",
			  aslr_rules_current()->name);
	return buf;
}

__attribute__((noreturn)) void job_fuzz(void)
{
	uint64_t seed = base_seed(), t0 = jiffies, hz = timer_hz(), k;
	uint64_t secs = fuzz_seconds ? fuzz_seconds : fuzz_calls ? 0 : DEFAULT_S;
	const char *system_rng = rng_current()->name;
	enum fail r = F_NONE;
	const char *ctx = replay_context();
	char line[512];

	planted_leak = !strcmp(run_suite, "plant-leak");
	planted_sleep = !strcmp(run_suite, "plant-sleep");
	if (run_suite[0] && !planted_leak && !planted_sleep) {
		kprintf("aslrbench: bad command line: mode=fuzz knows suite=plant-leak and "
			"suite=plant-sleep only\n");
		machine_exit(EXIT_CMDLINE);
	}
	if (planted_sleep)
		kprintf("fuzz: a long sleep is planted (suite=plant-sleep): a uid 1000 process "
			"sleeps "
			"1000 s at its call 5\n");
	if (planted_leak)
		kprintf("fuzz: a bug is planted (suite=plant-leak): fuzz_note(_, _, 1000) leaks a "
			"page\n");
	kprintf("fuzz: base seed %016lx; %d processes per program (uid 0, 1000, 1000), %d calls "
		"each; stop after %u calls / %lu s\n",
		seed, NPROCS, PROG_CALLS, fuzz_calls, secs);
	fs_note_base();
	last_progress = jiffies;
	timer_watchdog_hook = watchdog;
	panic_hook = print_notes;
	watching = true;
	for (k = 0;;) { /* k: programs run so far */
		uint64_t pseed = seed + k++;

		r = run_program(pseed, -1, PROG_CALLS, 0, "-", false);
		if (r != F_NONE) {
			kprintf("fuzz: FAIL %s: program seed %016lx (program %lu, rng %s, after "
				"%lu calls); replay: mode=fuzz seed=%016lx calls=%d%s\n",
				fail_names[r], pseed, k - 1, program_rng(pseed), total_calls, pseed,
				NPROCS * PROG_CALLS, replay_context());
			if (r != F_HANG)
				minimise(pseed, r);
			break;
		}
		if ((fuzz_calls && total_calls >= fuzz_calls) ||
		    (secs && jiffies - t0 >= secs * hz))
			break;
	}
	watching = false;
	rng_select(system_rng);
	ksnprintf(line, sizeof(line),
		  "@@ {\"type\":\"fuzz\",\"seed\":\"%016lx\",\"programs\":%lu,\"calls\":%lu,"
		  "\"seconds\":%lu,\"uids\":\"0,1000,1000\",\"rng\":\"each variant in turn\","
		  "\"context\":\"%s\",\"max_root_wait_ms\":%lu,\"max_preempt_delay_ms\":%lu,"
		  "\"max_preempt_syscall\":\"%s\","
		  "\"failures\":%d,\"status\":%d}\n",
		  seed, k, total_calls, (jiffies - t0) / hz, ctx[0] ? ctx + 1 : ctx, max_wait_ms,
		  max_delay_ms, syscall_name(max_delay_nr), r != F_NONE, r != F_NONE);
	console_puts(line);
	kprintf("fuzz: %lu programs, %lu calls, %lu s, longest root wait %lu ms, longest "
		"preemption delay %lu ms, %s\n",
		k, total_calls, (jiffies - t0) / hz, max_wait_ms, max_delay_ms,
		r == F_NONE ? "no failure" : fail_names[r]);
	machine_exit(r == F_NONE ? EXIT_OK : EXIT_FAILED);
}
