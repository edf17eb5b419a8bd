/*
 * The page allocator on every CPU at once, outside the big kernel lock:
 * its bitmap and per-CPU lists have locks of their own (kernel/mm/pmm.c).
 * Each AP, in a cross-CPU call (interrupts off, no big lock), and the
 * boot CPU at the same time take single pages and runs, write a tag into
 * each, check that no other CPU wrote it while they held it, and free
 * them.  A round takes more single pages than a list holds (high), so the
 * lists refill from the bitmap and give batches back all the while.
 * Afterwards every list is drained and the free count is what it was, to
 * the page.  With the locks left out, two CPUs were handed one page.
 */
#include "kernel/arch/percpu.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/tsc.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/test/ktest.h"

#define ROUNDS	100
#define SINGLES 200 /* above a list's high (186 with 512 MiB) */
#define RUN	4   /* pages in one contiguous allocation per round */

static struct worker {
	uint32_t failed_allocs;
	uint32_t overwritten; /* pages another CPU wrote while this one held them */
	uint64_t pages;
	uint64_t held[SINGLES];
} __attribute__((aligned(64))) workers[NR_CPUS];

static uint64_t tag(unsigned int cpu, unsigned int round, unsigned int i)
{
	return ((uint64_t)cpu << 48) | ((uint64_t)round << 16) | i;
}

static void take(struct worker *w, uint64_t *pa, uint64_t t)
{
	if (!*pa) {
		w->failed_allocs++;
		return;
	}
	*(volatile uint64_t *)phys_to_virt(*pa) = t;
	w->pages++;
}

static void check(struct worker *w, uint64_t pa, uint64_t t)
{
	if (pa && *(volatile uint64_t *)phys_to_virt(pa) != t)
		w->overwritten++;
}

static void churn(void *info)
{
	struct worker *w = info;
	unsigned int cpu = smp_processor_id();

	for (unsigned int r = 0; r < ROUNDS; r++) {
		uint64_t run = pmm_alloc_pages(RUN);

		for (unsigned int i = 0; i < SINGLES; i++) {
			w->held[i] = pmm_alloc_page();
			take(w, &w->held[i], tag(cpu, r, i));
		}
		for (unsigned int i = 0; run && i < RUN; i++) {
			uint64_t pa = run + i * PAGE_SIZE;

			take(w, &pa, tag(cpu, r, SINGLES + i));
		}
		if (!run)
			w->failed_allocs++;
		for (unsigned int i = 0; i < SINGLES; i++) {
			check(w, w->held[i], tag(cpu, r, i));
			if (w->held[i])
				pmm_free_page(w->held[i]);
		}
		for (unsigned int i = 0; run && i < RUN; i++)
			check(w, run + i * PAGE_SIZE, tag(cpu, r, SINGLES + i));
		if (run)
			pmm_free_pages(run, RUN);
	}
}

static enum ktest_result smp_page_alloc(struct ktest_ctx *t)
{
	unsigned int n = smp_cpus_online < NR_CPUS ? smp_cpus_online : NR_CPUS;
	uint64_t before = pmm_free_count(), pages = 0;
	enum ktest_result r = KTEST_PASS;

	if (n < 2)
		return ktest_skip(t, "one CPU online: boot with --smp 2 or more");
	memset(workers, 0, sizeof(workers));
	for (unsigned int cpu = 1; cpu < n; cpu++)
		if (smp_call_function_single(cpu, churn, &workers[cpu]))
			return ktest_fail(t, "CPU %u refused the call", cpu);
	churn(&workers[0]);
	for (unsigned int cpu = 1; cpu < n; cpu++)
		if (!smp_call_wait(cpu, tsc_hz() * 30))
			return ktest_fail(t, "CPU %u did not finish in 30 s", cpu);
	for (unsigned int cpu = 0; cpu < n && r == KTEST_PASS; cpu++) {
		struct worker *w = &workers[cpu];

		pages += w->pages;
		if (w->failed_allocs || w->overwritten)
			r = ktest_fail(t,
				       "CPU %u: %u allocations failed, %u pages written by another "
				       "CPU while it held them",
				       cpu, w->failed_allocs, w->overwritten);
	}
	pmm_drain_all();
	if (r == KTEST_PASS && pmm_free_count() != before)
		r = ktest_fail(t, "%lu pages free after, %lu before", pmm_free_count(), before);
	kprintf("smp_page_alloc: %lu pages taken and freed on %u CPUs at once\n", pages, n);
	return r;
}
KTEST(smp_page_alloc);
