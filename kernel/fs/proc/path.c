/* /proc path parsing: see path.h for why it stands alone. */
#include "kernel/lib/errno.h"
#include "kernel/fs/proc/path.h"
#include "kernel/lib/string.h"

#define MAX_PARTS 5

const struct proc_file proc_pid_files[] = {
	{"stat", PROC_NODE_STAT, true},	      {"status", PROC_NODE_STATUS, true},
	{"maps", PROC_NODE_MAPS, true},	      {"wchan", PROC_NODE_WCHAN, true},
	{"cmdline", PROC_NODE_CMDLINE, true}, {"fail-nth", PROC_NODE_FAIL_NTH, false},
	{"environ", PROC_NODE_ENVIRON, true}, {"statm", PROC_NODE_STATM, true},
	{"syscall", PROC_NODE_SYSCALL, true},
};
const unsigned int proc_nr_pid_files = sizeof(proc_pid_files) / sizeof(proc_pid_files[0]);

const struct proc_file proc_root_files[] = {
	{"uptime", PROC_NODE_UPTIME, true},	    {"stat", PROC_NODE_KSTAT, true},
	{"meminfo", PROC_NODE_MEMINFO, true},	    {"loadavg", PROC_NODE_LOADAVG, true},
	{"timer_list", PROC_NODE_TIMER_LIST, true},
};
const unsigned int proc_nr_root_files = sizeof(proc_root_files) / sizeof(proc_root_files[0]);

int proc_node_is_dir(enum proc_node n)
{
	return n == PROC_NODE_ROOT || n == PROC_NODE_PID_DIR || n == PROC_NODE_SYS_DIR;
}

/* A pid as /proc spells it: decimal, no sign, no leading zero, below 2^22. */
static int parse_pid(const char *s, size_t n)
{
	int v = 0;

	if (n == 0 || n > 7 || (s[0] == '0'))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v < (1 << 22) ? v : -1;
}

static int is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && !strncmp(s, word, n);
}

/* Splits into components; an empty one ("//", trailing "/") is an error. */
static int split(const char *path, const char **part, size_t *len, int *count)
{
	int n = 0;

	if (path[0] != '/')
		return -ENOENT;
	for (const char *p = path + 1;;) {
		const char *start = p;

		while (*p && *p != '/')
			p++;
		if (p == start || n == MAX_PARTS)
			return -ENOENT;
		part[n] = start;
		len[n] = (size_t)(p - start);
		if (is(start, len[n], ".") || is(start, len[n], ".."))
			return -ENOENT;
		n++;
		if (!*p)
			break;
		p++;
	}
	*count = n;
	return 0;
}

static int parse_pid_part(const char **part, size_t *len, int n, struct proc_path *out)
{
	if (n == 2) {
		out->node = PROC_NODE_PID_DIR;
		return 0;
	}
	if (n != 3)
		return -ENOENT;
	for (unsigned i = 0; i < proc_nr_pid_files; i++) {
		if (is(part[2], len[2], proc_pid_files[i].name)) {
			out->node = proc_pid_files[i].node;
			return 0;
		}
	}
	return -ENOENT;
}

int proc_parse_path(const char *path, struct proc_path *out)
{
	const char *part[MAX_PARTS];
	size_t len[MAX_PARTS];
	int n, rc;

	if (strnlen(path, PROC_PATH_MAX) >= PROC_PATH_MAX)
		return -ENAMETOOLONG;
	if ((rc = split(path, part, len, &n)))
		return rc;
	if (!is(part[0], len[0], "proc"))
		return -ENOENT;
	out->pid = 0;
	if (n == 1) {
		out->node = PROC_NODE_ROOT;
		return 0;
	}
	if (is(part[1], len[1], "self")) {
		out->pid = -1;
		return parse_pid_part(part, len, n, out);
	}
	if ((out->pid = parse_pid(part[1], len[1])) > 0)
		return parse_pid_part(part, len, n, out);
	for (unsigned i = 0; n == 2 && i < proc_nr_root_files; i++) {
		if (is(part[1], len[1], proc_root_files[i].name)) {
			out->node = proc_root_files[i].node;
			return 0;
		}
	}
	if (!is(part[1], len[1], "sys") || (n >= 3 && !is(part[2], len[2], "kernel")))
		return -ENOENT;
	if (n <= 3) {
		out->node = PROC_NODE_SYS_DIR;
		return 0;
	}
	if (n == 4 && is(part[3], len[3], "randomize_va_space")) {
		out->node = PROC_NODE_RANDOMIZE_VA_SPACE;
		return 0;
	}
	if (n == 4 && is(part[3], len[3], "rng_variant")) {
		out->node = PROC_NODE_RNG_VARIANT;
		return 0;
	}
	if (n == 4 && is(part[3], len[3], "pid_max")) {
		out->node = PROC_NODE_PID_MAX;
		return 0;
	}
	return -ENOENT;
}
