/*
 * The SMP stress test: one t_stress (userland/test/t_stress.c) per CPU
 * that runs tasks, all at once, for stress_seconds: fork, exec, mmap,
 * mprotect, munmap and pipes on every CPU, two threads per process
 * sending each other TLB shootdowns.  Every program's own checks pass,
 * every CPU takes pages from its own page list, the processes' own page
 * faults are resolved without the big kernel lock, and the free pages
 * come back to what they were before, to the page.
 */
#include "kernel/arch/smpboot.h"
#include "kernel/arch/tlb.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/mm/pmm.h"
#include "kernel/params/param.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/test/ktest.h"

static uint32_t stress_seconds;
param_uint(stress_seconds, stress_seconds, 1, 3600, "3",
	   "mode=test: how long smp_stress keeps every CPU busy (seconds)");

/* Every CPU's shootdown figures, summed. */
static struct tlb_stat shootdowns(void)
{
	struct tlb_stat s, sum = {0, 0, 0, 0};

	for (unsigned int cpu = 0; cpu < smp_cpus_online; cpu++) {
		tlb_stat_read(cpu, &s);
		sum.ipis_sent += s.ipis_sent;
		sum.flushes_on_lock += s.flushes_on_lock;
		sum.ranged_on_lock += s.ranged_on_lock;
		sum.pages_on_lock += s.pages_on_lock;
	}
	return sum;
}

/* Single pages each CPU took from its own page list (pmm.c's per-CPU lists). */
static void pcp_allocs(uint64_t *out)
{
	struct pmm_pcp_stat st;

	for (unsigned int cpu = 0; cpu < smp_cpus_online && cpu < NR_CPUS; cpu++) {
		pmm_pcp_stat_read(cpu, &st);
		out[cpu] = st.allocs;
	}
}

/* Every CPU that ran a t_stress took pages from its own list. */
static enum ktest_result check_lists(struct ktest_ctx *t, const uint64_t *before)
{
	uint64_t after[NR_CPUS];

	pcp_allocs(after);
	kprintf("smp_stress: pages from each CPU's list:");
	for (unsigned int cpu = 0; cpu < smp_cpus_online && cpu < NR_CPUS; cpu++)
		kprintf(" %lu", (unsigned long)(after[cpu] - before[cpu]));
	kprintf("\n");
	for (unsigned int cpu = 0; cpu < smp_cpus_online && cpu < NR_CPUS; cpu++)
		if ((sched_cpus_active & (1ULL << cpu)) && after[cpu] == before[cpu])
			return ktest_fail(t, "CPU %u took no page from its own list", cpu);
	return KTEST_PASS;
}

static enum ktest_result smp_stress(struct ktest_ctx *t)
{
	unsigned int n = (unsigned int)__builtin_popcountll(sched_cpus_active);
	char secs[12], *argv[] = {"t_stress", secs};
	long pid[NR_CPUS];
	uint64_t before = pmm_free_count(), allocs[NR_CPUS];
	struct tlb_stat tlb0 = shootdowns(), tlb1;
	uint64_t unlocked = user_faults_unlocked(smp_cpus_online);
	int failed = 0;

	if (n < 2)
		return ktest_skip(t, "%u CPU runs tasks: boot with --smp 2 or more", n);
	ksnprintf(secs, sizeof(secs), "%u", stress_seconds);
	pcp_allocs(allocs);
	for (unsigned int i = 0; i < n; i++)
		if ((pid[i] = spawn_prog("t_stress", 2, argv)) <= 0) {
			n = i;
			ktest_fail(t, "spawn t_stress: %ld", pid[i]);
			failed = 1;
			break;
		}
	for (unsigned int i = 0; i < n; i++) {
		int status = -1;

		if (do_wait((int)pid[i], 0, &status, 0, 0) != pid[i] || status != W_EXITCODE(0)) {
			ktest_fail(t, "t_stress %ld: status 0x%x (its FAIL line is above)", pid[i],
				   status);
			failed = 1;
		}
	}
	tlb1 = shootdowns();
	unlocked = user_faults_unlocked(smp_cpus_online) - unlocked;
	kprintf("smp_stress: %u programs on %u CPUs for %u s, %lu shootdown IPIs; "
		"%lu flushes on taking the lock, %lu of them ranged (%lu pages); "
		"%lu page faults without the big kernel lock\n",
		n, n, stress_seconds, (unsigned long)(tlb1.ipis_sent - tlb0.ipis_sent),
		(unsigned long)(tlb1.flushes_on_lock - tlb0.flushes_on_lock),
		(unsigned long)(tlb1.ranged_on_lock - tlb0.ranged_on_lock),
		(unsigned long)(tlb1.pages_on_lock - tlb0.pages_on_lock), (unsigned long)unlocked);
	if (failed || check_lists(t, allocs) != KTEST_PASS)
		return KTEST_FAIL;
	if (!unlocked)
		return ktest_fail(t, "no page fault was resolved without the big kernel lock");
	if (pmm_free_count() != before)
		return ktest_fail(t, "%lu pages free after, %lu before",
				  (unsigned long)pmm_free_count(), (unsigned long)before);
	return KTEST_PASS;
}
KTEST(smp_stress);
