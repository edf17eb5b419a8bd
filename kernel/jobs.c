/* The jobs mode= selects.  Each ends the run through qemu_exit with its status. */
#include "kernel/cmdline.h"
#include "kernel/console/printk.h"
#include "kernel/exit.h"
#include "kernel/jobs.h"
#include "kernel/test/ktest.h"

static __attribute__((noreturn)) void job_test(void)
{
	int failed = ktest_run_all(kconfig.suite);

	if (failed < 0) {
		kprintf("aslrbench: bad command line: no test matches suite=%s\n", kconfig.suite);
		qemu_exit(EXIT_CMDLINE);
	}
	qemu_exit(failed ? EXIT_FAILED : EXIT_OK);
}

void run_job(void)
{
	switch (kconfig.mode) {
	case MODE_TEST:
		job_test();
	default:
		/* Named, not faked: these jobs arrive with their issues. */
		kprintf("aslrbench: mode=%s is not implemented in this build\n",
			mode_name(kconfig.mode));
		qemu_exit(EXIT_FAILED);
	}
}
