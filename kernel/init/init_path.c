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
#include "kernel/boot/cmdline.h"
#include "kernel/init/init_path.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"

static __attribute__((noreturn)) void end_run(int status, long error)
{
	struct jrec rec;
	char line[512];

	jrec_begin(&rec, line, sizeof(line), "summary");
	jrec_str(&rec, "init", boot_cmdline.init);
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
		kprintf("aslrbench: init %s killed by signal %d\n", boot_cmdline.init,
			status & 0x7f);
	else
		kprintf("aslrbench: init %s exited with status %d\n", boot_cmdline.init,
			(status >> 8) & 0xff);
	end_run(status, 0);
}

long start_init_path(void)
{
	static char *ptrs[INIT_ARGS_MAX + 3];
	char *arg = boot_cmdline.init_args;
	int argc = 0;
	long pid;

	ptrs[argc++] = boot_cmdline.init;
	for (int i = 0; i < boot_cmdline.init_argc; i++, arg += strlen(arg) + 1)
		ptrs[argc++] = arg;
	ptrs[argc] = "HOME=/";
	ptrs[argc + 1] = "TERM=linux";
	init_exit_hook = init_exited;
	pid = spawn_file(boot_cmdline.init, ptrs, INIT_ARGS_MAX + 3, argc, 2);
	if (pid < 0) {
		kprintf("aslrbench: Requested init %s failed (error %ld); the run ends (Linux "
			"panics here)\n",
			boot_cmdline.init, pid);
		end_run(0, pid);
	}
	return pid;
}
