/*
 * init=PATH, as Linux's kernel_init (init/main.c): PATH runs as pid 1
 * instead of the built-in init, with argv {PATH, the words after " -- "},
 * the environment Linux gives init (HOME=/ TERM=linux) and the console on
 * fds 0, 1 and 2.  When it exits the run ends: status 0 if it exited 0,
 * else 1, with a summary record carrying its exit code and signal.  A PATH
 * that cannot be executed: Linux panics ("Requested init %s failed"); here
 * a line saying why, a summary record and status 1.
 */
#include "common/jrec.h"
#include "kernel/arch/machine_exit.h"
#include "kernel/init/init_path.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/params/param.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"

#define INIT_ARGS_MAX 32 /* Linux's MAX_INIT_ARGS */

char init_path[256];
param_path(init, init_path, "program to run as pid 1 instead of the built-in init");

/* NUL-separated, init_argc of them */
static char init_args[512];
static int init_argc;

int init_path_set_args(const char *line, char *err, size_t errlen)
{
	size_t used = 0;

	init_argc = 0;
	while (*line) {
		size_t n = 0;

		while (*line == ' ')
			line++;
		if (!*line)
			break;
		while (line[n] && line[n] != ' ')
			n++;
		if (init_argc == INIT_ARGS_MAX - 1 || used + n + 1 > sizeof(init_args)) {
			ksnprintf(err, errlen,
				  "too many arguments for init after ' -- ' (at most %d words, "
				  "%zu bytes)",
				  INIT_ARGS_MAX - 1, sizeof(init_args));
			return -1;
		}
		memcpy(init_args + used, line, n);
		init_args[used + n] = '\0';
		used += n + 1;
		init_argc++;
		line += n;
	}
	if (init_argc && !init_path[0]) {
		ksnprintf(err, errlen, "arguments after ' -- ' but no init=PATH to take them");
		return -1;
	}
	return 0;
}

static __attribute__((noreturn)) void end_run(int status, long error)
{
	struct jrec rec;
	char line[512];

	jrec_begin(&rec, line, sizeof(line), "summary");
	jrec_str(&rec, "init", init_path);
	if (error) {
		jrec_i64(&rec, "error", error);
	} else {
		jrec_u64(&rec, "exit_code", (uint64_t)((status >> 8) & 0xff));
		jrec_u64(&rec, "signal", (uint64_t)(status & 0x7f));
	}
	jrec_u64(&rec, "status", status || error ? 1 : 0);
	console_puts(jrec_end(&rec));
	machine_exit(status || error ? EXIT_FAILED : EXIT_OK);
}

static void init_exited(int status)
{
	if (status & 0x7f)
		kprintf("aslrbench: init %s killed by signal %d\n", init_path, status & 0x7f);
	else
		kprintf("aslrbench: init %s exited with status %d\n", init_path,
			(status >> 8) & 0xff);
	end_run(status, 0);
}

long start_init_path(void)
{
	static char *ptrs[INIT_ARGS_MAX + 3];
	char *arg = init_args;
	int argc = 0;
	long pid;

	ptrs[argc++] = init_path;
	for (int i = 0; i < init_argc; i++, arg += strlen(arg) + 1)
		ptrs[argc++] = arg;
	ptrs[argc] = "HOME=/";
	ptrs[argc + 1] = "TERM=linux";
	init_exit_hook = init_exited;
	pid = spawn_file(init_path, ptrs, INIT_ARGS_MAX + 3, argc, 2);
	if (pid < 0) {
		kprintf("aslrbench: Requested init %s failed (error %ld); the run ends (Linux "
			"panics here)\n",
			init_path, pid);
		end_run(0, pid);
	}
	return pid;
}
