/* do_task_stat's output line: see stat_format.h. */
#include "kernel/fs/proc/stat_format.h"
#include "kernel/lib/vsprintf.h"

#define SIG_OBSOLETE_MASK 0x7fffffffUL /* "The signal information here is obsolete" */

int format_task_stat(char *buf, size_t size, const struct task_stat_fields *f)
{
	char comm[17], state = f->state >= 'A' && f->state <= 'Z' ? f->state : '?';
	int n = 0, len;

	/* get_task_comm: at most 15 bytes, the kernel's copy always terminated. */
	for (; n < 15 && f->comm[n]; n++)
		comm[n] = f->comm[n];
	comm[n] = '\0';
	len = ksnprintf(buf, size,
			"%d (%s) %c %d %d %d %d %d %u %lu %lu %lu %lu %lu %lu %ld %ld %ld %ld "
			"%ld 0 %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu "
			"%d %d %u %u %lu %lu %ld",
			f->pid, comm, state, f->ppid, f->pgid, f->sid, f->tty_nr, f->tty_pgrp,
			f->flags, f->min_flt, f->cmin_flt, f->maj_flt, f->cmaj_flt, f->utime,
			f->stime, f->cutime, f->cstime, f->priority, f->nice, f->num_threads,
			f->start_time, f->vsize, f->rss, f->rsslim, f->start_code, f->end_code,
			f->start_stack, f->kstkesp, f->kstkeip, f->sig_pending & SIG_OBSOLETE_MASK,
			f->sig_blocked & SIG_OBSOLETE_MASK, f->sig_ignored & SIG_OBSOLETE_MASK,
			f->sig_caught & SIG_OBSOLETE_MASK, f->wchan, 0UL, 0UL, f->exit_signal,
			f->processor, f->rt_priority, f->policy, 0UL, 0UL, 0L);
	if (len < 0 || (size_t)len >= size)
		return len < 0 ? len : len + 1;
	if (f->fields52)
		len += ksnprintf(buf + len, size - (size_t)len, " %lu %lu %lu %lu %lu %lu %lu %d",
				 f->start_data, f->end_data, f->start_brk, f->arg_start, f->arg_end,
				 f->env_start, f->env_end, f->exit_code);
	if ((size_t)len + 1 < size) {
		buf[len] = '\n';
		buf[len + 1] = '\0';
	} else if (size) {
		buf[size - 1] = '\0';
	}
	return len + 1;
}
