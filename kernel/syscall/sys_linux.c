/*
 * The Linux process ABI that static musl and glibc need at start-up and for
 * fork: arch_prctl, set_tid_address, set_robust_list, gettid, uname,
 * sysinfo, the rlimits, process groups and sessions, the CPU mask, getcpu
 * and clock_nanosleep.  Values and errors as Linux's x86_64 ones.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/segment.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/arch/smpboot.h"
#include "kernel/task/loadavg.h"
#include "kernel/task/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uapi/time_types.h"

#define ARCH_SET_GS   0x1001
#define ARCH_SET_FS   0x1002
#define ARCH_GET_FS   0x1003
#define ARCH_GET_GS   0x1004
#define RLIMIT_STACK  3
#define RLIMIT_NOFILE 7
#define RLIMIT_NICE   13
#define RLIM_NLIMITS  16
#define TIMER_ABSTIME 1

/*
 * The uname this kernel reports: Linux's ABI, and as the release the
 * kernel whose rules aslr_rules= follows, so that programs that check the
 * version (LTP's tst_kvercmp) test what that kernel has.
 */
#define UTS_SYSNAME "Linux"
#define UTS_NODE    "aslrbench"
#define UTS_VERSION "#1 aslrbench"
#define UTS_MACHINE "x86_64"

static bool canonical_user(uint64_t a)
{
	return a < TASK_SIZE;
}

long sys_arch_prctl(const struct syscall_args *a)
{
	struct task_struct *t = current;
	uint64_t v;

	switch (a->a0) {
	case ARCH_SET_FS:
		if (!canonical_user(a->a1))
			return -EPERM; /* as Linux: a base outside the user half */
		/* do_arch_prctl_64: the selector goes to 0, the base is the MSR's */
		loadsegment(fs, 0);
		t->fsindex = 0;
		t->fs_base = a->a1;
		wrmsr(MSR_FS_BASE, a->a1);
		return 0;
	case ARCH_SET_GS:
		if (!canonical_user(a->a1))
			return -EPERM;
		load_gs_index(0);
		t->gsindex = 0;
		t->gs_base = a->a1;
		wrmsr(MSR_KGS_BASE, a->a1); /* the user's GS base while in the kernel */
		return 0;
	case ARCH_GET_FS:
	case ARCH_GET_GS:
		v = a->a0 == ARCH_GET_FS ? t->fs_base : t->gs_base;
		return copy_to_user(a->a1, &v, sizeof(v)) ? -EFAULT : 0;
	default:
		return -EINVAL;
	}
}

long sys_set_tid_address(const struct syscall_args *a)
{
	current->clear_child_tid = a->a0;
	return current->pid;
}

/* Stored, as Linux does; walked at exit only for futexes, which need threads. */
long sys_set_robust_list(const struct syscall_args *a)
{
	if (a->a1 != 24) /* sizeof(struct robust_list_head) */
		return -EINVAL;
	current->robust_list = a->a0;
	current->robust_len = a->a1;
	return 0;
}

long sys_gettid(const struct syscall_args *a)
{
	(void)a;
	return current->pid; /* the thread's id; getpid gives the group's */
}

struct new_utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

long sys_uname(const struct syscall_args *a)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, UTS_SYSNAME, sizeof(u.sysname));
	strlcpy(u.nodename, UTS_NODE, sizeof(u.nodename));
	strlcpy(u.release, aslr_rules_current()->uts_release, sizeof(u.release));
	strlcpy(u.version, UTS_VERSION, sizeof(u.version));
	strlcpy(u.machine, UTS_MACHINE, sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(a->a0, &u, sizeof(u)) ? -EFAULT : 0;
}

struct sysinfo_k {
	int64_t uptime;
	uint64_t loads[3], totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	uint64_t totalhigh, freehigh;
	uint32_t mem_unit;
	char f[0];
};

/* do_sysinfo: the memory in bytes (mem_unit 1, as a 64-bit kernel's always fits). */
static void do_sysinfo(struct sysinfo_k *si)
{
	memset(si, 0, sizeof(*si));
	si->uptime = (int64_t)((jiffies - initial_jiffies) / timer_hz());
	si->totalram = pmm_total_count() * PAGE_SIZE;
	si->freeram = pmm_free_count() * PAGE_SIZE;
	for (int i = 0; i < 3; i++) /* SI_LOAD_SHIFT 16: the averages with 16 fraction bits */
		si->loads[i] = avenrun[i] << (16 - FSHIFT);
	si->procs = (uint16_t)nr_tasks_in_use();
	si->mem_unit = 1;
}

long sys_sysinfo(const struct syscall_args *a)
{
	struct sysinfo_k si;

	do_sysinfo(&si);
	return copy_to_user(a->a0, &si, sizeof(si)) ? -EFAULT : 0;
}

/* include/linux/compat.h's struct compat_sysinfo: 64 bytes. */
struct compat_sysinfo {
	int32_t uptime;
	uint32_t loads[3], totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	uint32_t totalhigh, freehigh, mem_unit;
	char f[8];
};
_Static_assert(sizeof(struct compat_sysinfo) == 64, "i386's struct sysinfo is 64 bytes");

/*
 * compat_sys_sysinfo (6.6 linux/kernel/sys.c): when a memory total does not fit
 * in 32 bits, mem_unit grows to PAGE_SIZE and every figure is shifted
 * down by as many bits; the rest is truncated to 32 bits as Linux does.
 */
long compat_sys_sysinfo(const struct syscall_args *a)
{
	struct sysinfo_k s;
	struct compat_sysinfo s32;

	do_sysinfo(&s);
	if ((s.totalram >> 32) || (s.totalswap >> 32)) {
		int bitcount = 0;

		while (s.mem_unit < PAGE_SIZE) {
			s.mem_unit <<= 1;
			bitcount++;
		}
		s.totalram >>= bitcount;
		s.freeram >>= bitcount;
		s.sharedram >>= bitcount;
		s.bufferram >>= bitcount;
		s.totalswap >>= bitcount;
		s.freeswap >>= bitcount;
		s.totalhigh >>= bitcount;
		s.freehigh >>= bitcount;
	}
	memset(&s32, 0, sizeof(s32));
	s32.uptime = (int32_t)s.uptime;
	for (int i = 0; i < 3; i++)
		s32.loads[i] = (uint32_t)s.loads[i];
	s32.totalram = (uint32_t)s.totalram;
	s32.freeram = (uint32_t)s.freeram;
	s32.sharedram = (uint32_t)s.sharedram;
	s32.bufferram = (uint32_t)s.bufferram;
	s32.totalswap = (uint32_t)s.totalswap;
	s32.freeswap = (uint32_t)s.freeswap;
	s32.procs = s.procs;
	s32.totalhigh = (uint32_t)s.totalhigh;
	s32.freehigh = (uint32_t)s.freehigh;
	s32.mem_unit = s.mem_unit;
	return copy_to_user(a->a0, &s32, sizeof(s32)) ? -EFAULT : 0;
}

/*
 * The limits kept per process: RLIMIT_STACK (exec's E2BIG limit) and
 * RLIMIT_NICE (can_nice; 0, 0 at boot as Linux's INIT_RLIMITS).  NULL for
 * the others: RLIMIT_NOFILE is the fd table's fixed size (NR_OPEN: EMFILE
 * past it, poll's EINVAL past it) and can only be set to itself; every
 * other limit reads as unlimited.
 */
static struct rlimit_k *kept_limit(struct task_struct *t, unsigned res)
{
	if (res == RLIMIT_STACK)
		return &t->signal->rlim_stack;
	return res == RLIMIT_NICE ? &t->signal->rlim_nice : 0;
}

static long do_prlimit(struct task_struct *t, unsigned res, const struct rlimit_k *new,
		       struct rlimit_k *old)
{
	uint64_t fixed = res == RLIMIT_NOFILE ? NR_OPEN : RLIM_INFINITY_K;
	struct rlimit_k *kept;

	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	kept = kept_limit(t, res);
	if (old)
		*old = kept ? *kept : (struct rlimit_k){fixed, fixed};
	if (!new)
		return 0;
	if (new->cur > new->max)
		return -EINVAL;
	if (!kept)
		return new->max == fixed &&new->cur == fixed ? 0 : -EPERM;
	if (new->max > kept->max && !(current->cred.cap_effective & (1ULL << 24)))
		return -EPERM; /* raising the hard limit needs CAP_SYS_RESOURCE */
	*kept = *new;
	return 0;
}

long sys_getrlimit(const struct syscall_args *a)
{
	struct rlimit_k r;
	long rc = do_prlimit(current, (unsigned)a->a0, 0, &r);

	if (rc)
		return rc;
	return copy_to_user(a->a1, &r, sizeof(r)) ? -EFAULT : 0;
}

/*
 * compat_sys_getrlimit (6.6 linux/kernel/sys.c), i386's ugetrlimit: 32-bit values,
 * anything above COMPAT_RLIM_INFINITY (0xffffffff) reported as it.
 */
long compat_sys_getrlimit(const struct syscall_args *a)
{
	struct rlimit_k r;
	uint32_t r32[2];
	long rc = do_prlimit(current, (unsigned)a->a0, 0, &r);

	if (rc)
		return rc;
	r32[0] = r.cur > 0xffffffffULL ? 0xffffffffU : (uint32_t)r.cur;
	r32[1] = r.max > 0xffffffffULL ? 0xffffffffU : (uint32_t)r.max;
	return copy_to_user(a->a1, r32, sizeof(r32)) ? -EFAULT : 0;
}

long sys_setrlimit(const struct syscall_args *a)
{
	struct rlimit_k r;

	if (copy_from_user(&r, a->a1, sizeof(r)))
		return -EFAULT;
	return do_prlimit(current, (unsigned)a->a0, &r, 0);
}

/* prlimit64(pid, resource, new, old): pid 0 or the caller's own (others: EPERM here). */
long sys_prlimit64(const struct syscall_args *a)
{
	struct rlimit_k n, o;
	int pid = (int)a->a0;
	long rc;

	if (pid && pid != current->pid)
		return find_task_by_pid(pid) ? -EPERM : -ESRCH;
	if (a->a2 && copy_from_user(&n, a->a2, sizeof(n)))
		return -EFAULT;
	rc = do_prlimit(current, (unsigned)a->a1, a->a2 ? &n : 0, &o);
	if (rc)
		return rc;
	return a->a3 && copy_to_user(a->a3, &o, sizeof(o)) ? -EFAULT : 0;
}

static struct task_struct *task_or_self(int pid)
{
	return pid ? find_task_by_pid(pid) : current;
}

long sys_getpgid(const struct syscall_args *a)
{
	struct task_struct *t = task_or_self((int)a->a0);

	return t && t->state != TASK_ZOMBIE ? t->signal->pgid : -ESRCH;
}

long sys_getpgrp(const struct syscall_args *a)
{
	(void)a;
	return current->signal->pgid;
}

long sys_getsid(const struct syscall_args *a)
{
	struct task_struct *t = task_or_self((int)a->a0);

	return t && t->state != TASK_ZOMBIE ? t->signal->sid : -ESRCH;
}

long sys_setsid(const struct syscall_args *a)
{
	struct task_struct *t = current;

	(void)a;
	/* EPERM when a process group with our pid exists already (we lead one). */
	for (int i = 0; i < NR_TASKS; i++)
		if (tasks[i].state != TASK_UNUSED && tasks[i].signal->pgid == t->tgid)
			return -EPERM;
	t->signal->sid = t->signal->pgid = t->tgid;
	return t->signal->sid;
}

/* setpgid(pid, pgid) as Linux: self or a child, same session, no session leader. */
long sys_setpgid(const struct syscall_args *a)
{
	struct task_struct *t, *me = current;
	int pid = (int)a->a0 ? (int)a->a0 : me->tgid, pgid = (int)a->a1 ? (int)a->a1 : pid;
	bool found = false;

	/* 6.12's order: pid 0 is the caller, pgid 0 the pid, then a negative pgid is EINVAL */
	if (pgid < 0)
		return -EINVAL;
	t = task_or_self(pid);
	/* 6.6: the caller's group or a child of any of its threads; a thread id is EINVAL */
	if (!t || (!same_thread_group(t, me) && (!t->parent || !same_thread_group(t->parent, me))))
		return -ESRCH;
	if (!thread_group_leader(t))
		return -EINVAL;
	if (t->signal->sid == t->tgid || t->signal->sid != me->signal->sid)
		return -EPERM;
	for (int i = 0; i < NR_TASKS && pgid != t->tgid; i++)
		if (tasks[i].state != TASK_UNUSED && tasks[i].signal->pgid == pgid &&
		    tasks[i].signal->sid == me->signal->sid)
			found = true;
	if (pgid != t->tgid && !found)
		return -EPERM;
	t->signal->pgid = pgid;
	return 0;
}

/*
 * The CPU masks (Linux 6.6 linux/kernel/sched/core.c).  The kernel's cpumask is
 * NR_CPUS = 64 bits, one long: cpumask_size() is 8.
 */
#define CPUMASK_SIZE sizeof(uint64_t)

/* Linux's nr_cpu_ids: the CPUs there can be, here the ones started (cpus= bounds both). */
static uint64_t nr_cpu_ids(void)
{
	return smp_cpus_online;
}

/* The task pid names (0: the caller), or NULL. */
static struct task_struct *affinity_task(uint64_t pid)
{
	return pid ? find_task_by_pid((int)pid) : current;
}

/* check_same_owner, or CAP_SYS_NICE */
static bool may_set_affinity(const struct task_struct *p)
{
	const struct cred *c = &current->cred;

	return c->euid == p->cred.euid || c->euid == p->cred.uid ||
	       (c->cap_effective & (1ULL << CAP_SYS_NICE));
}

/*
 * sched_setaffinity(pid, len, mask): a shorter mask is zero-filled and a
 * longer one read only as far as the kernel's (get_user_cpu_mask).
 */
long sys_sched_setaffinity(const struct syscall_args *a)
{
	struct task_struct *p = affinity_task(a->a0);
	uint64_t mask = 0;
	size_t len = a->a1 < CPUMASK_SIZE ? (size_t)a->a1 : CPUMASK_SIZE;

	if (copy_from_user(&mask, a->a2, len))
		return -EFAULT;
	if (!p)
		return -ESRCH;
	if (!may_set_affinity(p))
		return -EPERM;
	return set_cpus_allowed(p, mask);
}

/*
 * sched_getaffinity(pid, len, mask): the task's mask and the active CPUs,
 * len a multiple of the caller's word (8 bytes; 4 for an IA-32 program,
 * whose mask is 32-bit words), and min(len, cpumask_size()) bytes copied
 * and returned, as 6.6's sys_ and compat_sys_sched_getaffinity.
 */
static long do_sched_getaffinity(const struct syscall_args *a, uint64_t word)
{
	struct task_struct *p = affinity_task(a->a0);
	uint64_t mask;
	size_t len = a->a1 < CPUMASK_SIZE ? (size_t)a->a1 : CPUMASK_SIZE;

	if (a->a1 * 8 < nr_cpu_ids() || (a->a1 & (word - 1)))
		return -EINVAL;
	if (!p)
		return -ESRCH;
	mask = p->cpus_allowed & sched_cpus_active;
	if (copy_to_user(a->a2, &mask, len))
		return -EFAULT;
	return (long)len;
}

long sys_sched_getaffinity(const struct syscall_args *a)
{
	return do_sched_getaffinity(a, sizeof(long));
}

/* sched_setaffinity needs no compat entry: a mask's 32-bit words are its bytes in order. */
long compat_sys_sched_getaffinity(const struct syscall_args *a)
{
	return do_sched_getaffinity(a, sizeof(uint32_t));
}

/* getcpu(cpu, node, cache): where the caller runs now (node 0: one node). */
long sys_getcpu(const struct syscall_args *a)
{
	unsigned cpu = smp_processor_id(), zero = 0;

	if ((a->a0 && copy_to_user(a->a0, &cpu, sizeof(cpu))) ||
	    (a->a1 && copy_to_user(a->a1, &zero, sizeof(zero))))
		return -EFAULT;
	return 0;
}

/* clock_nanosleep(clock, flags, req, rem): CLOCK_REALTIME/MONOTONIC, relative or absolute. */
static long do_clock_nanosleep(const struct syscall_args *a, bool ia32)
{
	struct __kernel_timespec ts;
	int32_t ts32[2];
	struct syscall_args rel = *a;
	uint64_t now_ns, want_ns;

	if (a->a0 > 1)
		return -EINVAL; /* the CPU-time clocks are not kept */
	if (ia32) {
		if (copy_from_user(ts32, a->a2, sizeof(ts32)))
			return -EFAULT;
		ts.tv_sec = ts32[0];
		ts.tv_nsec = ts32[1];
	} else if (copy_from_user(&ts, a->a2, sizeof(ts))) {
		return -EFAULT;
	}
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (int64_t)NSEC_PER_SEC)
		return -EINVAL;
	if (a->a1 & TIMER_ABSTIME) {
		/* Both clocks count from boot here (sys_clock_gettime). */
		now_ns = ktime_get_ns();
		want_ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
		if (want_ns <= now_ns)
			return 0;
		/* An absolute sleep leaves rem alone (Linux's hrtimer_nanosleep). */
		if (do_nanosleep(want_ns))
			return nanosleep_interrupted(0, 0);
		return 0;
	}
	rel.a0 = a->a2;
	rel.a1 = a->a3;
	return ia32 ? sys_nanosleep_time32(&rel) : sys_nanosleep(&rel);
}

long sys_clock_nanosleep(const struct syscall_args *a)
{
	return do_clock_nanosleep(a, false);
}

/* clock_nanosleep_time32 (6.6 linux/kernel/time/posix-timers.c): old_timespec32 in and out. */
long sys_clock_nanosleep_time32(const struct syscall_args *a)
{
	return do_clock_nanosleep(a, true);
}
