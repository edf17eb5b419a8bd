/*
 * /proc/<pid>/wchan and cmdline, /proc/uptime and the two sysctls.
 *
 * wchan follows the rule set's proc_pid_wchan.  2.6.29 after the 2009
 * patch: a known kernel function is shown by name to anyone; a bare address
 * only to a reader that passes ptrace_may_access (or to everyone with
 * proc_leak_fix=0).  6.x (6.6): the name to a reader that passes it, "0" to
 * anyone else and for any address.  The names are those each kernel's
 * get_wchan finds: 6.12 skips __sched functions, so a nanosleep shows
 * hrtimer_nanosleep (do_nanosleep is __sched) and a tty read wait_woken.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/params/param.h"
#include "kernel/lib/errno.h"
#include "kernel/fs/proc/internal.h"
#include "kernel/fs/proc/path.h"
#include "kernel/fs/tty.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/char/random.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/smpboot.h"
#include "kernel/mm/pmm.h"
#include "kernel/task/loadavg.h"
#include "kernel/task/pidmap.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/security/ptrace.h"

int proc_leak_fix = 1;
int hidepid;
param_enum(proc_leak_fix, proc_leak_fix, "0|1", "1",
	   "1: the 2009 /proc/PID/stat patch applied (eip/esp hidden)");
param_enum(hidepid, hidepid, "0|1|2", "0", "Linux 3.3's /proc mount option");

bool proc_abi_612(void)
{
	return aslr_rules == ASLR_RULES_6X;
}

/* The sleeping points of this kernel, named as their Linux counterparts (kallsyms). */
const char *wchan_symbol(const void *wchan)
{
	bool v612 = proc_abi_612();

	if (wchan == (const void *)do_wait)
		return "do_wait";
	if (wchan == (const void *)n_tty_read)
		return v612 ? "wait_woken" : "n_tty_read";
	if (wchan == (const void *)do_nanosleep)
		return v612 ? "hrtimer_nanosleep" : "do_nanosleep";
	if (wchan == (const void *)do_signal_stop)
		return "do_signal_stop";
	return 0;
}

long proc_pid_wchan(struct task_struct *task, char *buf)
{
	const void *w =
		task->state == TASK_INTERRUPTIBLE || task->state == TASK_STOPPED ? task->wchan : 0;
	const char *sym = wchan_symbol(w);

	/*
	 * Linux 6.6's proc_pid_wchan: a reader that fails ptrace_may_access
	 * reads "0", symbol or not; an address is never shown, "0" instead.
	 */
	if (proc_abi_612()) {
		if (!sym || !ptrace_may_access(task, PTRACE_MODE_READ))
			return ksnprintf(buf, PROC_BUF, "0");
		return ksnprintf(buf, PROC_BUF, "%s", sym);
	}
	if (sym)
		return ksnprintf(buf, PROC_BUF, "%s", sym);
	if (proc_leak_fix && !ptrace_may_access(task, PTRACE_MODE_READ))
		return 0;
	return ksnprintf(buf, PROC_BUF, "%lu", (uint64_t)w);
}

long proc_pid_cmdline(struct task_struct *task, char *buf)
{
	uint32_t n = task->cmdline_len < PROC_BUF ? task->cmdline_len : PROC_BUF;

	if (!task->mm)
		return 0; /* zombies have no arguments left, as in Linux */
	memcpy(buf, task->cmdline, n);
	return n;
}

/*
 * environ: the strings between env_start and env_end, read from the
 * target's memory as Linux's environ_read does, to a reader that passes
 * ptrace_may_access (the file is also 0400, owned as task_dump_owner
 * says).  One page at most, as 2.6.29's proc_pid_environ; 6.12 loops over
 * any length, so a longer environment is cut here.
 */
long proc_pid_environ(struct task_struct *task, char *buf)
{
	struct mm_struct *mm = task->mm;
	uint64_t len;

	if (!ptrace_may_access(task, PTRACE_MODE_READ))
		return -EACCES;
	if (!mm || mm->env_end <= mm->env_start)
		return 0;
	len = mm->env_end - mm->env_start;
	if (len > PROC_BUF)
		len = PROC_BUF;
	return (long)mm_copy_from(mm, mm->env_start, buf, len);
}

/*
 * syscall (2.6.27's proc_pid_syscall, the same in 6.12): the call a
 * sleeping task is in, its six arguments, stack and instruction pointer;
 * "running" for a task on a CPU (the reader itself excepted).  Needs
 * ptrace_may_access(PTRACE_MODE_ATTACH) (lock_trace's -EPERM).
 */
long proc_pid_syscall(struct task_struct *task, char *buf)
{
	const struct trap_frame *r = task->regs;

	if (!ptrace_may_access(task, PTRACE_MODE_ATTACH))
		return -EPERM;
	if (!r || task->state == TASK_ZOMBIE || (task != current && task->state == TASK_RUNNING))
		return ksnprintf(buf, PROC_BUF, "running\n");
	return ksnprintf(buf, PROC_BUF, "%u 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx\n",
			 task->syscall_nr, r->rdi, r->rsi, r->rdx, r->r10, r->r8, r->r9, r->rsp,
			 r->rip);
}

/*
 * A CPU's idle ticks: the ticks since it started running tasks that were
 * neither user nor system.  Counted by what is left, not by ticks in the
 * idle task, because an idle AP stops its tick (NO_HZ idle, as Linux,
 * which accounts idle time the same way: by time, not by ticks).
 */
static uint64_t cpu_idle_ticks(const struct percpu *pc)
{
	uint64_t up = jiffies - pc->start_jiffies, busy = pc->user_ticks + pc->system_ticks;

	return up > busy ? up - busy : 0;
}

long proc_uptime(char *buf)
{
	uint64_t up = (jiffies - initial_jiffies) * 100 / timer_hz(), idle = 0;

	for (unsigned int cpu = 0; cpu < smp_cpus_online; cpu++)
		if (sched_cpus_active & (1ULL << cpu))
			idle += cpu_idle_ticks(smp_percpu(cpu)); /* summed over CPUs, as Linux */
	idle = idle * 100 / timer_hz();

	return ksnprintf(buf, PROC_BUF, "%lu.%02lu %lu.%02lu\n", up / 100, up % 100, idle / 100,
			 idle % 100);
}

/*
 * /proc/stat as Linux 6.6's show_stat prints it: the sum, then one line
 * per CPU (user nice system idle iowait irq softirq steal guest
 * guest_nice, in USER_HZ), then the counters this kernel has.  busybox
 * top and every load meter read it.
 */
static int stat_cpu_line(char *buf, int len, const char *name, uint64_t user, uint64_t sys,
			 uint64_t idle)
{
	return ksnprintf(buf + len, PROC_BUF - (size_t)len, "%s %lu 0 %lu %lu 0 0 0 0 0 0\n", name,
			 jiffies_to_clock_t(user), jiffies_to_clock_t(sys),
			 jiffies_to_clock_t(idle));
}

long proc_stat(char *buf)
{
	uint64_t user = 0, sys = 0, idle = 0, running = 0;
	int len = 0;
	char name[16];

	for (unsigned int cpu = 0; cpu < smp_cpus_online; cpu++) {
		const struct percpu *pc = smp_percpu(cpu);

		if (!(sched_cpus_active & (1ULL << cpu)))
			continue;
		user += pc->user_ticks;
		sys += pc->system_ticks;
		idle += cpu_idle_ticks(pc);
	}
	len += stat_cpu_line(buf, len, "cpu ", user, sys, idle);
	for (unsigned int cpu = 0; cpu < smp_cpus_online && len < PROC_BUF - 128; cpu++) {
		const struct percpu *pc = smp_percpu(cpu);

		if (!(sched_cpus_active & (1ULL << cpu)))
			continue;
		ksnprintf(name, sizeof(name), "cpu%u", cpu);
		len += stat_cpu_line(buf, len, name, pc->user_ticks, pc->system_ticks,
				     cpu_idle_ticks(pc));
	}
	running = nr_running();
	len += ksnprintf(buf + len, PROC_BUF - (size_t)len,
			 "intr 0\nctxt 0\nbtime 0\nprocesses %lu\nprocs_running %lu\n"
			 "procs_blocked 0\n",
			 total_forks, running);
	return len;
}

/*
 * /proc/meminfo, the lines of Linux 6.6's meminfo_proc_show that this
 * kernel has (no page cache, no swap: those read 0), in its format.
 */
long proc_meminfo(char *buf)
{
	static const char *const names[] = {
		"MemTotal:", "MemFree:",    "MemAvailable:", "Buffers:",
		"Cached:",   "SwapCached:", "SwapTotal:",    "SwapFree:"};
	uint64_t kb[8] = {pmm_total_count() * 4, pmm_free_count() * 4, pmm_free_count() * 4};
	int len = 0;

	for (unsigned int i = 0; i < 8; i++)
		len += ksnprintf(buf + len, PROC_BUF - (size_t)len, "%-16s%8lu kB\n", names[i],
				 kb[i]);
	return len;
}

/* loadavg_proc_show: the averages rounded to hundredths, running/tasks, the last pid */
long proc_loadavg(char *buf)
{
	unsigned long a[3];
	unsigned int threads = 0;

	for (int i = 0; i < 3; i++)
		a[i] = avenrun[i] + FIXED_1 / 200;
	for (int i = 0; i < NR_TASKS; i++)
		threads += tasks[i].state != TASK_UNUSED;
	return ksnprintf(buf, PROC_BUF, "%lu.%02lu %lu.%02lu %lu.%02lu %u/%u %d\n", LOAD_INT(a[0]),
			 LOAD_FRAC(a[0]), LOAD_INT(a[1]), LOAD_FRAC(a[1]), LOAD_INT(a[2]),
			 LOAD_FRAC(a[2]), nr_running(), threads, last_pid_allocated());
}

/*
 * The lines of 2.6.29's /proc/timer_list that matter here.  That file was
 * world-readable and printed each CPU's jiffies, which hands a local
 * attacker the exact clock the 2.6.29 generator mixes with the pid.
 */
long proc_timer_list(char *buf)
{
	return ksnprintf(buf, PROC_BUF,
			 "Timer List Version: v0.4\nnow at %lu nsecs\n\ncpu: 0\n  jiffies: %lu\n",
			 tsc_to_ns(rdtsc()), jiffies);
}

long proc_sysctl_read(int node, char *buf)
{
	if (node == PROC_NODE_RANDOMIZE_VA_SPACE)
		return ksnprintf(buf, PROC_BUF, "%d\n", randomize_va_space);
	if (node == PROC_NODE_PID_MAX)
		return ksnprintf(buf, PROC_BUF, "%d\n", pid_max);
	return ksnprintf(buf, PROC_BUF, "%s\n", rng_current()->name);
}

/*
 * pid_max, as proc_dointvec_minmax between pid_max_min (RESERVED_PIDS + 1)
 * and, here, PID_MAX: the pid bitmap is PID_MAX_DEFAULT's 32768 bits
 * (Linux's bound is PID_MAX_LIMIT, 4194304).
 */
static int pid_max_write(const char *val)
{
	long v = 0;

	for (const char *p = val; *p; p++) {
		if (*p < '0' || *p > '9' || v > PID_MAX)
			return -EINVAL;
		v = v * 10 + (*p - '0');
	}
	if (v <= RESERVED_PIDS || v > PID_MAX)
		return -EINVAL;
	pid_max = (int)v;
	return 0;
}

/* Root only (EPERM otherwise, the sysctl's mode being 0644); EINVAL on bad values. */
long proc_sysctl_write(int node, const char *kbuf, size_t n)
{
	char val[40];
	size_t len = n;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len && kbuf[len - 1] == '\n')
		len--;
	if (len == 0 || len >= sizeof(val))
		return -EINVAL;
	memcpy(val, kbuf, len);
	val[len] = '\0';
	if (node == PROC_NODE_RANDOMIZE_VA_SPACE) {
		if (len != 1 || val[0] < '0' || val[0] > '2')
			return -EINVAL;
		randomize_va_space = val[0] - '0';
		return (long)n;
	}
	if (node == PROC_NODE_PID_MAX)
		return pid_max_write(val) ? -EINVAL : (long)n;
	return rng_select(val) ? -EINVAL : (long)n;
}
