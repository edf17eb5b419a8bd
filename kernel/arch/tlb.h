/*
 * TLB shootdowns: a page-table change that takes a translation away (unmap,
 * write-protect, a copy-on-write copy) must reach every CPU that may hold
 * that translation before anything relies on it being gone.
 *
 * Why it is this simple: every kernel path that touches page tables or
 * user memory holds the big kernel lock (kernel_lock.h).  So a CPU that
 * runs an address space is either in ring 3 (where stale entries could be
 * used) or in the kernel on its way to the lock.  flush_tlb_others sends
 * the CPUs running that address space an IPI, which brings the ones in
 * ring 3 into the kernel, and waits until each spins for the lock the
 * initiator holds; each flushes as it takes the lock, before it can touch
 * user memory again.  The initiator may change and free pages as soon as
 * flush_tlb_others returns.  The kernel half needs no IPI at all: only the
 * lock holder reads it (the file windows, ioremap), so the other CPUs
 * flush before they next take the lock.
 *
 * The paths that change page tables without the lock send no shootdown
 * while they run without it.  A page fault from ring 3 (traps.c, mm.c's
 * handle_mm_fault_unlocked) makes pages present or writable, which no
 * other CPU's entries contradict, and replaces one (a copy) only in an mm
 * with one user, which no other CPU has loaded (schedule() loads CR3 on
 * every switch).  Fork copies the tables of such an mm, and the last
 * mm_put frees tables nothing reaches; the flushes they need are asked
 * once the lock is back.  Each reads no user memory and counts as parked
 * meanwhile, and takes the lock before ring 3 if a flush was asked of it.
 *
 * Linux 2.6.29 (arch/x86/kernel/tlb_64.c) sent INVALIDATE_TLB_VECTOR_START
 * + n and waited for each CPU to flush in the handler; the handler here
 * flushes nothing itself, since the lock-taking entry from ring 3 does.
 */
#ifndef KERNEL_ARCH_TLB_H
#define KERNEL_ARCH_TLB_H

#include <stdbool.h>
#include <stdint.h>

/* Linux 2.6.29's INVALIDATE_TLB_VECTOR_START (arch/x86/include/asm/irq_vectors.h) */
#define INVALIDATE_TLB_VECTOR 0xf0

void tlb_init(void); /* the IPI's handler, before the APs run tasks */

/* CR3 := pml4 on this CPU (Linux's load_new_mm_cr3), recorded for flush_tlb_others. */
void load_mm_cr3(uint64_t pml4);

/*
 * The user half of address space pml4: every other CPU that runs it is out
 * of ring 3 when this returns and flushes before it gets back there.  The
 * caller holds the kernel lock and flushes its own CPU.
 */
void flush_tlb_others(uint64_t pml4);

/*
 * The same for [start, end) only: each of those CPUs invalidates those
 * pages (invlpg) as it takes the lock, or its whole user half when they
 * are more than TLB_SINGLE_PAGE_FLUSH_CEILING.  Linux 6.6's
 * flush_tlb_mm_range, remote half.
 */
void flush_tlb_others_range(uint64_t pml4, uint64_t start, uint64_t end);

/* This CPU's part: [start, end) of pml4's user half if CR3 holds it, by the same rule. */
void flush_tlb_local_range(uint64_t pml4, uint64_t start, uint64_t end);

/* Linux 6.6's tlb_single_page_flush_ceiling (arch/x86/mm/tlb.c) */
#define TLB_SINGLE_PAGE_FLUSH_CEILING 33
#define TLB_FLUSH_ALL		      (~0ULL) /* an end: the whole user half */

/* The kernel half: every other CPU flushes it (global entries too) before it next takes the lock.
 */
void flush_tlb_kernel_others(void);

/* This CPU: every entry, global ones too (CR4.PGE off and on, or CR3 before PGE is on); Linux's
 * __flush_tlb_global. */
void __flush_tlb_global(void);

/* kernel_lock.c, as this CPU takes the lock: the flushes other CPUs asked of it. */
void flush_tlb_pending(void);
/*
 * Whether another CPU has asked this one for a flush it has not done: a
 * way back to ring 3 that would not take the lock must take it then, so
 * this CPU flushes and the shootdown waiting for it ends.
 */
bool tlb_flush_asked(void);

/*
 * What the shootdowns cost: IPIs sent by this CPU, flushes it did when
 * taking the lock, and of those the ranged ones and the pages they
 * invalidated one by one.
 */
struct tlb_stat {
	uint64_t ipis_sent;
	uint64_t flushes_on_lock;
	uint64_t ranged_on_lock;
	uint64_t pages_on_lock;
};
void tlb_stat_read(unsigned int cpu, struct tlb_stat *out);

#endif
