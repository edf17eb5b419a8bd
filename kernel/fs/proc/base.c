/*
 * /proc/<pid>/wchan and cmdline, /proc/uptime and the two sysctls.
 *
 * wchan follows the rule set's proc_pid_wchan.  2.6.29 after the 2009
 * patch: a known kernel function is shown by name to anyone; a bare address
 * only to a reader that passes ptrace_may_access (or to everyone with
 * proc_leak_fix=0).  6.x (6.6): the name to a reader that passes it, "0" to
 * anyone else and for any address.
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
#include "kernel/char/random.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/security/ptrace.h"

int proc_leak_fix = 1;
int hidepid;
param_enum(proc_leak_fix, proc_leak_fix, "0|1", "1",
	   "1: the 2009 /proc/PID/stat patch applied (eip/esp hidden)");
param_enum(hidepid, hidepid, "0|1|2", "0", "Linux 3.3's /proc mount option");
uint64_t idle_ticks; /* ticks the idle task ran: /proc/uptime's second field */

/* The sleeping points of this kernel, named as their Linux counterparts (kallsyms). */
const char *wchan_symbol(const void *wchan)
{
	if (wchan == (const void *)do_wait)
		return "do_wait";
	if (wchan == (const void *)n_tty_read)
		return "n_tty_read";
	if (wchan == (const void *)do_nanosleep)
		return "do_nanosleep";
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
	if (aslr_rules == ASLR_RULES_6X) {
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

long proc_uptime(char *buf)
{
	uint64_t up = (jiffies - initial_jiffies) * 100 / timer_hz();
	uint64_t idle = idle_ticks * 100 / timer_hz();

	return ksnprintf(buf, PROC_BUF, "%lu.%02lu %lu.%02lu\n", up / 100, up % 100, idle / 100,
			 idle % 100);
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
	return ksnprintf(buf, PROC_BUF, "%s\n", rng_current()->name);
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
	return rng_select(val) ? -EINVAL : (long)n;
}
