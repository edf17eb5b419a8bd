/*
 * TLB shootdowns (tlb.h says why they take this shape).
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/lapic.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/tlb.h"
#include "kernel/arch/traps.h"
#include "kernel/arch/tsc.h"
#include "kernel/lib/printk.h"

#define FLUSH_USER   1u /* the user half of what CR3 holds */
#define FLUSH_GLOBAL 2u /* everything, the kernel half's global entries too */
#define FLUSH_RANGE  4u /* the pages of [start, end) of what CR3 holds */

#define TLB_PAGE 4096ULL
#define CR3_PML4 0x000ffffffffff000ULL /* CR3's address bits: the PML4 */

/* A shootdown slower than this is reported (and waited for all the same). */
#define SLOW_SHOOTDOWN_MS 2000

static struct tlb_cpu {
	uint64_t loaded_pml4; /* what this CPU's CR3 holds; written by it, under the lock */
	uint32_t pending;     /* FLUSH_*, asked by the lock holder, done on taking the lock */
	uint64_t start, end;  /* FLUSH_RANGE's pages */
	struct tlb_stat stat;
} __attribute__((aligned(64))) tlb_cpus[NR_CPUS];

/*
 * The IPI's only job is the entry itself: from ring 3, trap_dispatch takes
 * the kernel lock first, and taking it flushes.  An IPI that finds its CPU
 * already in the kernel has nothing to do: that CPU takes the lock before
 * it touches user memory.
 */
static void invalidate_tlb_interrupt(struct trap_frame *f)
{
	(void)f;
	lapic_eoi();
}

bool tlb_flush_asked(void)
{
	return __atomic_load_n(&tlb_cpus[smp_processor_id()].pending, __ATOMIC_SEQ_CST) != 0;
}

void tlb_init(void)
{
	irq_register_percpu(INVALIDATE_TLB_VECTOR, invalidate_tlb_interrupt);
}

void load_mm_cr3(uint64_t pml4)
{
	tlb_cpus[smp_processor_id()].loaded_pml4 = pml4;
	write_cr3(pml4);
}

void __flush_tlb_global(void)
{
	uint64_t cr4 = read_cr4();

	if (cr4 & (1ULL << 7)) {
		write_cr4(cr4 & ~(1ULL << 7));
		write_cr4(cr4);
	} else {
		write_cr3(read_cr3()); /* before PGE is on (pat_init): no global entries */
	}
}

static bool range_too_long(uint64_t start, uint64_t end)
{
	return end <= start || (end - start) / TLB_PAGE > TLB_SINGLE_PAGE_FLUSH_CEILING;
}

static void invlpg_range(uint64_t start, uint64_t end)
{
	for (uint64_t va = start & ~(TLB_PAGE - 1); va < end; va += TLB_PAGE)
		invlpg(va);
}

/*
 * Only the lock holder asks (flush_tlb_others_range) and a CPU does what it
 * was asked only once it holds the lock, so asking and doing never overlap.
 */
void flush_tlb_pending(void)
{
	struct tlb_cpu *c = &tlb_cpus[smp_processor_id()];
	uint32_t p = __atomic_exchange_n(&c->pending, 0, __ATOMIC_ACQ_REL);

	if (!p)
		return;
	if (p & FLUSH_GLOBAL) {
		__flush_tlb_global();
	} else if (p & FLUSH_USER) {
		write_cr3(read_cr3()); /* user pages are not global */
	} else {
		invlpg_range(c->start, c->end);
		c->stat.ranged_on_lock++;
		c->stat.pages_on_lock += (c->end - c->start) / TLB_PAGE;
	}
	c->stat.flushes_on_lock++;
}

/* cpu will flush [start, end) too: one range covering both, or all of the user half. */
static void ask_flush(struct tlb_cpu *c, uint64_t start, uint64_t end)
{
	uint32_t p = __atomic_load_n(&c->pending, __ATOMIC_RELAXED);

	if (p & (FLUSH_USER | FLUSH_GLOBAL))
		return;
	if (p & FLUSH_RANGE) {
		start = c->start < start ? c->start : start;
		end = c->end > end ? c->end : end;
	}
	if (range_too_long(start, end)) {
		__atomic_store_n(&c->pending, FLUSH_USER, __ATOMIC_SEQ_CST);
		return;
	}
	c->start = start;
	c->end = end;
	__atomic_store_n(&c->pending, FLUSH_RANGE, __ATOMIC_SEQ_CST);
}

void flush_tlb_local_range(uint64_t pml4, uint64_t start, uint64_t end)
{
	if ((read_cr3() & CR3_PML4) != pml4)
		return;
	if (range_too_long(start, end))
		write_cr3(read_cr3());
	else
		invlpg_range(start, end);
}

/* Waits until cpu spins for the kernel lock (or gave it up for a while, as parked). */
static void wait_out_of_user(unsigned int cpu, uint64_t pml4)
{
	uint64_t start = rdtsc(), slow = tsc_hz() / 1000 * SLOW_SHOOTDOWN_MS;
	bool told = false;

	while (!kernel_lock_parked(cpu)) {
		if (!told && slow && rdtsc() - start > slow) {
			kprintf("tlb: CPU %u has run address space %lx for %u ms since its "
				"shootdown IPI; still waiting\n",
				cpu, (unsigned long)pml4, SLOW_SHOOTDOWN_MS);
			told = true;
		}
		cpu_relax();
	}
}

void flush_tlb_others_range(uint64_t pml4, uint64_t start, uint64_t end)
{
	unsigned int self = smp_processor_id();
	uint64_t sent = 0;

	/* A CPU's CR3 changes only under the lock, which this CPU holds: the set is fixed. */
	for (unsigned int cpu = 0; cpu < smp_cpus_online && cpu < NR_CPUS; cpu++) {
		if (cpu == self ||
		    __atomic_load_n(&tlb_cpus[cpu].loaded_pml4, __ATOMIC_RELAXED) != pml4)
			continue;
		ask_flush(&tlb_cpus[cpu], start, end);
		if (!kernel_lock_parked(cpu)) {
			lapic_icr_write(INVALIDATE_TLB_VECTOR, smp_cpu_apicid(cpu));
			tlb_cpus[self].stat.ipis_sent++;
			sent |= 1ULL << cpu;
		}
	}
	for (unsigned int cpu = 0; sent; cpu++)
		if (sent & (1ULL << cpu)) {
			wait_out_of_user(cpu, pml4);
			sent &= ~(1ULL << cpu);
		}
}

void flush_tlb_others(uint64_t pml4)
{
	flush_tlb_others_range(pml4, 0, TLB_FLUSH_ALL);
}

void flush_tlb_kernel_others(void)
{
	unsigned int self = smp_processor_id();

	for (unsigned int cpu = 0; cpu < smp_cpus_online && cpu < NR_CPUS; cpu++)
		if (cpu != self)
			__atomic_store_n(&tlb_cpus[cpu].pending, FLUSH_GLOBAL, __ATOMIC_SEQ_CST);
}

void tlb_stat_read(unsigned int cpu, struct tlb_stat *out)
{
	*out = cpu < NR_CPUS ? tlb_cpus[cpu].stat : (struct tlb_stat){0, 0, 0, 0};
}
