/*
 * /proc path parsing, a pure function (no kernel state), so it is fuzzed on
 * the host exactly as it runs in the kernel.
 */
#ifndef KERNEL_FS_PROC_PATH_H
#define KERNEL_FS_PROC_PATH_H

#include <stdbool.h>
#include <stddef.h>

#define PROC_PATH_MAX 256

enum proc_node {
	PROC_NODE_ROOT,	   /* /proc */
	PROC_NODE_PID_DIR, /* /proc/<pid> */
	PROC_NODE_STAT,
	PROC_NODE_STATUS,
	PROC_NODE_MAPS,
	PROC_NODE_WCHAN,
	PROC_NODE_CMDLINE,
	PROC_NODE_UPTIME,
	PROC_NODE_TIMER_LIST, /* 2.6.29's world-readable /proc/timer_list, jiffies only */
	PROC_NODE_KSTAT,      /* /proc/stat: the CPUs' time (fs/proc/stat.c's show_stat) */
	PROC_NODE_MEMINFO,    /* /proc/meminfo: the page allocator's counts */
	PROC_NODE_LOADAVG,    /* /proc/loadavg: linux/kernel/sched/loadavg.c's averages */
	PROC_NODE_SYS_DIR,    /* /proc/sys, /proc/sys/kernel */
	PROC_NODE_RANDOMIZE_VA_SPACE,
	PROC_NODE_RNG_VARIANT,
	PROC_NODE_FAIL_NTH, /* /proc/<pid>/fail-nth: Linux 4.13's fault injection */
	PROC_NODE_ENVIRON,  /* /proc/<pid>/environ: the strings exec placed (0400) */
	PROC_NODE_STATM,    /* /proc/<pid>/statm: the address space in pages */
	PROC_NODE_SYSCALL,  /* /proc/<pid>/syscall: the call it sleeps in (0400) */
	PROC_NODE_PID_MAX,  /* /proc/sys/kernel/pid_max */
	PROC_NODE_COUNT,    /* not a node: how many there are */
};

struct proc_path {
	enum proc_node node;
	int pid; /* for per-pid nodes; -1 for /proc/self (resolved by the caller) */
};

/*
 * Parses an absolute path under /proc.  Returns 0, or -ENOENT (no such
 * entry: unknown names, bad pids like "12abc" or "007", empty components,
 * "." and ".." components, a trailing slash on a file), -ENAMETOOLONG.
 */
int proc_parse_path(const char *path, struct proc_path *out);

/*
 * The files of /proc/<pid> and of /proc itself, each named once: the
 * lookup above, readdir and the inodes' names read these tables.  listed:
 * readdir shows it (fail-nth resolves but is not listed).
 */
struct proc_file {
	const char *name;
	enum proc_node node;
	bool listed;
};
extern const struct proc_file proc_pid_files[], proc_root_files[];
extern const unsigned int proc_nr_pid_files, proc_nr_root_files;
int proc_node_is_dir(enum proc_node n);

#endif
