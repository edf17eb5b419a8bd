/*
 * The jobs mode= selects.  init (pid 1) asks for its job with a system call,
 * so every job runs in a real process context: tests and benchmarks can
 * spawn, fork and wait like any process.  Each job ends the run through
 * qemu_exit with its status.
 */
#include "kernel/attack/lab.h"
#include "kernel/bench_job.h"
#include "kernel/cmdline.h"
#include "kernel/console/printk.h"
#include "kernel/errno.h"
#include "kernel/exit.h"
#include "kernel/jobs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/pmm.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/test/fuzz.h"
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

long sys_aslrbench_job(const struct syscall_args *a)
{
	(void)a;
	if (current->pid != 1)
		return -EPERM;
	switch (kconfig.mode) {
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
		/* Named, not faked: these jobs arrive with their issues. */
		kprintf("aslrbench: mode=%s is not implemented in this build\n",
			mode_name(kconfig.mode));
		qemu_exit(EXIT_FAILED);
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

	if (kconfig.mode != MODE_TEST)
		return -ENOSYS;
	switch (a->a0) {
	case 1:
		smash_stack(junk, sizeof(junk));
		return 0;
	case 2:
		pmm_set_floor(pmm_free_count() > a->a1 ? pmm_free_count() - a->a1 : 0);
		return 0;
	case 3:
		pmm_set_floor(0);
		return 0;
	case 4:
		return (long)pmm_free_count();
	case 5: /* t_park: sleep until ktest_release_parked() */
		sleep_on(&parked, (const void *)sys_aslrbench_test);
		return 0;
	default:
		return -EINVAL;
	}
}

/* reboot(2), power-off only: root ends the run with a success status. */
long sys_reboot(const struct syscall_args *a)
{
	if (!(current->cap_effective & (1ULL << 22))) /* CAP_SYS_BOOT */
		return -EPERM;
	if (a->a0 != 0xfee1dead || a->a1 != 672274793 || a->a2 != 0x4321fedc)
		return -EINVAL;
	kprintf("aslrbench: power off\n");
	qemu_exit(EXIT_OK);
}
