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
 * Linux 2.6.29 (arch/x86/kernel/tlb_64.c) sent INVALIDATE_TLB_VECTOR_START
 * + n and waited for each CPU to flush in the handler; the handler here
 * flushes nothing itself, since the lock-taking entry from ring 3 does.
 */
#ifndef KERNEL_ARCH_TLB_H
#define KERNEL_ARCH_TLB_H

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

/* The kernel half: every other CPU flushes it (global entries too) before it next takes the lock.
 */
void flush_tlb_kernel_others(void);

/* This CPU: every entry, global ones too (CR4.PGE off and on, or CR3 before PGE is on); Linux's
 * __flush_tlb_global. */
void __flush_tlb_global(void);

/* kernel_lock.c, as this CPU takes the lock: the flushes other CPUs asked of it. */
void flush_tlb_pending(void);

/* What the shootdowns cost: IPIs sent by this CPU, and flushes done when taking the lock. */
struct tlb_stat {
	uint64_t ipis_sent;
	uint64_t flushes_on_lock;
};
void tlb_stat_read(unsigned int cpu, struct tlb_stat *out);

#endif
