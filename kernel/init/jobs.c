/*
 * The jobs mode= selects.  init (pid 1) asks for its job with a system call,
 * so every job runs in a real process context: tests and benchmarks can
 * spawn, fork and wait like any process.  Each job ends the run through
 * machine_exit with its status.
 */
#include "kernel/attack/lab.h"
#include "kernel/measure/job.h"
#include "kernel/run/run.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/arch/machine_exit.h"
#include "kernel/lib/string.h"
#include "kernel/mm/pmm.h"
#include "kernel/security/ptrace.h"
#include "kernel/task/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/test/fuzz_job.h"
#include "kernel/test/ktest.h"

static __attribute__((noreturn)) void job_test(void)
{
	int failed = ktest_run_all(run_suite);

	if (failed < 0) {
		kprintf("aslrbench: bad command line: no test matches suite=%s\n", run_suite);
		machine_exit(EXIT_CMDLINE);
	}
	machine_exit(failed ? EXIT_FAILED : EXIT_OK);
}

long sys_aslrbench_job(const struct syscall_args *a)
{
	(void)a;
	if (current->pid != 1)
		return -EPERM;
	/*
	 * The jobs' own work runs on the boot CPU: the measurements with
	 * interrupts off, the cross-CPU calls they send to the APs, the
	 * deterministic clock's counts.  What they spawn may run anywhere
	 * (spawn_prog), unless a suite pins it.
	 */
	if (run_mode != MODE_SHELL)
		set_cpus_allowed(current, 1);
	switch (run_mode) {
	case MODE_TEST:
		job_test();
	case MODE_BENCH:
		job_bench();
	case MODE_SHELL:
		return 1; /* init starts the shell */
	case MODE_ATTACK:
		job_attack();
	case MODE_FUZZ:
		job_fuzz();
	default:
		/* Named, not faked: a mode this build does not hold says so. */
		kprintf("aslrbench: mode=%s is not implemented in this build\n",
			mode_name(run_mode));
		machine_exit(EXIT_FAILED);
	}
}

/* Overflows a 16-byte array with 64 bytes; the canary check must catch it. */
static __attribute__((noinline)) void smash_stack(const char *src, size_t n)
{
	char buf[16];

	memcpy(buf, src, n);
	__asm__ volatile("" : : "r"(buf) : "memory");
}

static int parked;

void ktest_release_parked(void)
{
	wake_up(&parked);
}

/* Test hooks, mode=test only, so no other run can reach them. */
long sys_aslrbench_test(const struct syscall_args *a)
{
	static const char junk[64] = "0123456789abcdef0123456789abcdef0123456789abcdef012345678";

	if (run_mode != MODE_TEST)
		return -ENOSYS;
	switch (a->a0) {
	case ASLRBENCH_TEST_SMASH_STACK:
		smash_stack(junk, sizeof(junk));
		return 0;
	case ASLRBENCH_TEST_PMM_RESERVE:
		pmm_set_floor(pmm_free_count() > a->a1 ? pmm_free_count() - a->a1 : 0);
		return 0;
	case ASLRBENCH_TEST_PMM_RELEASE:
		pmm_set_floor(0);
		return 0;
	case ASLRBENCH_TEST_PMM_FREE:
		return (long)pmm_free_count();
	case ASLRBENCH_TEST_PARK: /* t_park: sleep until ktest_release_parked() */
		sleep_on(&parked, (const void *)sys_aslrbench_test);
		return 0;
	case ASLRBENCH_TEST_INODES_FREE:
		return NR_INODES - vfs_inodes_in_use();
	case ASLRBENCH_TEST_NAMES_FREE:
		return NR_DENTRIES - vfs_dentries_in_use();
	default:
		return -EINVAL;
	}
}

/* reboot(2), power-off only: root ends the run with a success status. */
long sys_reboot(const struct syscall_args *a)
{
	if (!capable(CAP_SYS_BOOT))
		return -EPERM;
	if (a->a0 != LINUX_REBOOT_MAGIC1 || a->a1 != LINUX_REBOOT_MAGIC2 ||
	    a->a2 != LINUX_REBOOT_CMD_POWER_OFF)
		return -EINVAL;
	kprintf("aslrbench: power off\n");
	machine_exit(EXIT_OK);
}
