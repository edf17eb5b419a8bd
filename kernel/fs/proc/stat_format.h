/*
 * /proc/<pid>/stat in do_task_stat's format, from a plain struct so the
 * formatter is fuzzed on the host too: Linux 2.6.29's 44 fields, or with
 * fields52 Linux 6.12's 52 (the data and argument bounds and exit_code added
 * in 3.3 and 3.5).
 */
#ifndef KERNEL_FS_PROC_STAT_FORMAT_H
#define KERNEL_FS_PROC_STAT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct task_stat_fields {
	int pid;
	char comm[16]; /* need not be NUL-terminated */
	char state;
	int ppid, pgid, sid, tty_nr, tty_pgrp;
	unsigned flags;
	uint64_t min_flt, cmin_flt, maj_flt, cmaj_flt;
	uint64_t utime, stime; /* clock ticks (USER_HZ) */
	int64_t cutime, cstime, priority, nice, num_threads;
	uint64_t start_time, vsize, rss, rsslim;
	uint64_t start_code, end_code, start_stack, kstkesp, kstkeip;
	uint64_t sig_pending, sig_blocked, sig_ignored, sig_caught; /* the first 31 signals */
	uint64_t wchan;
	int exit_signal, processor;
	unsigned rt_priority, policy;
	/* fields52 only: */
	bool fields52;
	uint64_t start_data, end_data, start_brk, arg_start, arg_end, env_start, env_end;
	int exit_code;
};

/* Returns the length written (as snprintf: may exceed size - 1 if it did not fit). */
int format_task_stat(char *buf, size_t size, const struct task_stat_fields *f);

#endif
