/*
 * Device mappings: write-combining through the PAT, anywhere below
 * MAXPHYADDR -- the framebuffer of a real PC may sit in the 64-bit PCI
 * window above 4 GiB, which QEMU's std VGA never does, so the mapping is
 * checked on a made-up address there (its pages are never touched).
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/pat.h"
#include "kernel/console/fbcon.h"
#include "kernel/mm/ioremap.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/test/ktest.h"

/* Flags a write-combining kernel mapping must have, and must not have. */
static const char *wc_flags_wrong(uint64_t flags)
{
	if (!(flags & PTE_PWT) || (flags & PTE_PCD) || (flags & PTE_PAT))
		return "PAT/PCD/PWT do not select entry 1 (WC)";
	if (!(flags & PTE_W) || !(flags & PTE_NX) || (flags & PTE_U))
		return "not a writable, no-execute, kernel-only page";
	return 0;
}

static enum ktest_result pat_has_wc(struct ktest_ctx *t)
{
	uint64_t pat;

	if (!pat_enabled())
		return ktest_skip(t, "CPU without PAT: PWT maps write-through");
	pat = rdmsr(MSR_IA32_PAT);
	if ((pat & 0xff) != PAT_WB || ((pat >> 8) & 0xff) != PAT_WC)
		return ktest_fail(t, "IA32_PAT is 0x%016lx: entry 0 must be WB, 1 WC", pat);
	return KTEST_PASS;
}
KTEST(pat_has_wc);

static enum ktest_result ioremap_above_4g(struct ktest_ctx *t)
{
	uint64_t phys = (1ULL << 36) + 0x123000 + 0x40, size = (8ULL << 20) + 100;
	uint8_t *p;

	if (cpu_phys_bits() <= 37)
		return ktest_skip(t, "only %u physical address bits", cpu_phys_bits());
	p = ioremap_wc(phys, size);
	if (!p)
		return ktest_fail(t, "ioremap_wc(0x%lx) failed", phys);
	if (((uint64_t)p & (PAGE_SIZE - 1)) != (phys & (PAGE_SIZE - 1)))
		return ktest_fail(t, "offset in page lost: %p for 0x%lx", p, phys);
	for (uint64_t o = 0; o < size + 0x40; o += PAGE_SIZE) {
		uint64_t pa, flags, va = ((uint64_t)p & ~(PAGE_SIZE - 1)) + o;
		const char *why;

		if (vmm_translate(vmm_kernel_pml4(), va, &pa, &flags))
			return ktest_fail(t, "0x%lx not mapped", va);
		if (pa != (phys & ~(PAGE_SIZE - 1)) + o)
			return ktest_fail(t, "0x%lx maps 0x%lx, want 0x%lx", va, pa,
					  (phys & ~(PAGE_SIZE - 1)) + o);
		if ((why = wc_flags_wrong(flags)))
			return ktest_fail(t, "0x%lx: %s (flags 0x%lx)", va, why, flags);
	}
	iounmap(p, size);
	if (!vmm_translate(vmm_kernel_pml4(), (uint64_t)p, 0, 0))
		return ktest_fail(t, "still mapped after iounmap");
	return KTEST_PASS;
}
KTEST(ioremap_above_4g);

static enum ktest_result ioremap_rejects(struct ktest_ctx *t)
{
	unsigned bits = cpu_phys_bits();

	if (ioremap_wc(0xe0000000ULL, 0))
		return ktest_fail(t, "an empty range was mapped");
	if (ioremap_wc(~0ULL - 10, 100))
		return ktest_fail(t, "a range wrapping past 2^64 was mapped");
	if (bits < 64 && ioremap_wc((1ULL << bits) - PAGE_SIZE, 2 * PAGE_SIZE))
		return ktest_fail(t, "a range crossing MAXPHYADDR (%u bits) was mapped", bits);
	if (ioremap_wc(0xe0000000ULL, IOREMAP_SIZE + PAGE_SIZE))
		return ktest_fail(t, "a range larger than the ioremap window was mapped");
	return KTEST_PASS;
}
KTEST(ioremap_rejects);

/* The screen console draws through a WC mapping of the GOP framebuffer. */
static enum ktest_result fbcon_write_combining(struct ktest_ctx *t)
{
	uint64_t pa, flags, phys;
	const void *va = fbcon_mapping(&phys);
	const char *why;

	if (!va)
		return ktest_skip(t, "no screen console");
	if (vmm_translate(vmm_kernel_pml4(), (uint64_t)va, &pa, &flags))
		return ktest_fail(t, "framebuffer mapping %p not present", va);
	if (pa != phys)
		return ktest_fail(t, "framebuffer mapping points at 0x%lx, GOP says 0x%lx", pa,
				  phys);
	if ((why = wc_flags_wrong(flags)))
		return ktest_fail(t, "%s (flags 0x%lx)", why, flags);
	return KTEST_PASS;
}
KTEST(fbcon_write_combining);
