/* do_task_stat's output line: see stat_format.h. */
#include "kernel/fs/proc/stat_format.h"

#define SIG_OBSOLETE_MASK 0x7fffffffUL /* "The signal information here is obsolete" */

/*
 * The line is written field by field, as Linux's do_task_stat does with
 * seq_put_decimal_ull and seq_put_decimal_ll, not through one printf
 * format of 52 conversions: parsing that format cost about half of a read
 * of /proc/self/stat.  The rule for a short buffer is snprintf's: what
 * fits is written, the last byte kept for the NUL, and the length counts
 * everything.
 */
struct line {
	char *buf;
	size_t size, len;
};

static void put_bytes(struct line *l, const char *s, size_t n)
{
	size_t room = l->len + 1 < l->size ? l->size - l->len - 1 : 0;
	char *d = l->buf + l->len;

	for (size_t i = 0; i < n && i < room; i++)
		d[i] = s[i];
	l->len += n;
}

/* v in decimal, after a space unless first: seq_put_decimal_ll(m, " ", v) */
static void put_ll_delim(struct line *l, int64_t v, bool first)
{
	char d[22], *p = d + sizeof(d);
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	if (!first)
		*--p = ' ';
	put_bytes(l, p, (size_t)(d + sizeof(d) - p));
}

static void put_ll(struct line *l, int64_t v)
{
	put_ll_delim(l, v, false);
}

/* seq_put_decimal_ull(m, " ", v) */
static void put_ull(struct line *l, uint64_t v)
{
	char d[21], *p = d + sizeof(d);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	*--p = ' ';
	put_bytes(l, p, (size_t)(d + sizeof(d) - p));
}

int format_task_stat(char *buf, size_t size, const struct task_stat_fields *f)
{
	char state = f->state >= 'A' && f->state <= 'Z' ? f->state : '?';
	struct line l = {buf, size, 0};
	size_t n = 0;

	put_ll_delim(&l, f->pid, true);
	put_bytes(&l, " (", 2);
	/* get_task_comm: at most 15 bytes, the kernel's copy always terminated. */
	while (n < 15 && f->comm[n])
		n++;
	put_bytes(&l, f->comm, n);
	put_bytes(&l, ") ", 2);
	put_bytes(&l, &state, 1);
	put_ll(&l, f->ppid);
	put_ll(&l, f->pgid);
	put_ll(&l, f->sid);
	put_ll(&l, f->tty_nr);
	put_ll(&l, f->tty_pgrp);
	put_ull(&l, f->flags);
	put_ull(&l, f->min_flt);
	put_ull(&l, f->cmin_flt);
	put_ull(&l, f->maj_flt);
	put_ull(&l, f->cmaj_flt);
	put_ull(&l, f->utime);
	put_ull(&l, f->stime);
	put_ll(&l, f->cutime);
	put_ll(&l, f->cstime);
	put_ll(&l, f->priority);
	put_ll(&l, f->nice);
	put_ll(&l, f->num_threads);
	put_bytes(&l, " 0", 2);
	put_ull(&l, f->start_time);
	put_ull(&l, f->vsize);
	put_ull(&l, f->rss);
	put_ull(&l, f->rsslim);
	put_ull(&l, f->start_code);
	put_ull(&l, f->end_code);
	put_ull(&l, f->start_stack);
	put_ull(&l, f->kstkesp);
	put_ull(&l, f->kstkeip);
	put_ull(&l, f->sig_pending & SIG_OBSOLETE_MASK);
	put_ull(&l, f->sig_blocked & SIG_OBSOLETE_MASK);
	put_ull(&l, f->sig_ignored & SIG_OBSOLETE_MASK);
	put_ull(&l, f->sig_caught & SIG_OBSOLETE_MASK);
	put_ull(&l, f->wchan);
	put_bytes(&l, " 0 0", 4);
	put_ll(&l, f->exit_signal);
	put_ll(&l, f->processor);
	put_ull(&l, f->rt_priority);
	put_ull(&l, f->policy);
	put_bytes(&l, " 0 0 0", 6);
	if (l.len >= size) { /* cut: no more fields, no newline */
		if (size)
			buf[size - 1] = '\0';
		return (int)l.len + 1;
	}
	if (f->fields52) {
		put_ull(&l, f->start_data);
		put_ull(&l, f->end_data);
		put_ull(&l, f->start_brk);
		put_ull(&l, f->arg_start);
		put_ull(&l, f->arg_end);
		put_ull(&l, f->env_start);
		put_ull(&l, f->env_end);
		put_ll(&l, f->exit_code);
	}
	if (l.len + 1 < size) {
		buf[l.len] = '\n';
		buf[l.len + 1] = '\0';
	} else if (size) {
		buf[size - 1] = '\0';
	}
	return (int)l.len + 1;
}
