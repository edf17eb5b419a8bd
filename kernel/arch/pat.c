/*
 * The page attribute table: how PTE bits PAT/PCD/PWT select a memory type.
 *
 * Why program it: the framebuffer is written a pixel row at a time and never
 * read back, the textbook case for write-combining; write-back or uncached
 * mappings of it make every scroll and summary screen several times slower
 * on real PCs.  The power-on table has no WC entry, so entry 1 (PWT alone)
 * becomes WC, as Linux does; entries 0, 2 and 3 keep their power-on
 * meaning (WB, UC-, UC), so every mapping that does not ask for WC -- the
 * physmap, user pages -- is unchanged.  A WC PAT entry also wins over an
 * MTRR that marks the framebuffer UC (SDM vol. 3, "Selecting memory types
 * for Pentium III and more recent processor families").
 *
 * Without PAT (CPUID.1:EDX.PAT = 0, no CPU since the Pentium III) PWT
 * means write-through, which is still a correct, cacheable-for-reads
 * mapping of a framebuffer.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/pat.h"
#include "kernel/arch/tlb.h"

#define PAT_ENTRY(i, type) ((uint64_t)(type) << ((i)*8))

static bool have_pat;

static void pat_write(void)
{
	uint64_t flags, pat;

	pat = PAT_ENTRY(0, PAT_WB) | PAT_ENTRY(1, PAT_WC) | PAT_ENTRY(2, PAT_UC_MINUS) |
	      PAT_ENTRY(3, PAT_UC) | PAT_ENTRY(4, PAT_WB) | PAT_ENTRY(5, PAT_WC) |
	      PAT_ENTRY(6, PAT_UC_MINUS) | PAT_ENTRY(7, PAT_UC);
	/* SDM 11.12.4: no stale lines or TLB entries may carry the old types. */
	flags = irq_save();
	wbinvd();
	__flush_tlb_global();
	wrmsr(MSR_IA32_PAT, pat);
	wbinvd();
	__flush_tlb_global();
	irq_restore(flags);
}

void pat_init(void)
{
	uint32_t r[4];

	cpuid_count(1, 0, r);
	have_pat = r[3] & (1U << 16);
	if (have_pat)
		pat_write();
}

/*
 * An AP: the same table as the boot CPU, which the SDM requires of every
 * processor sharing memory (11.12.4), by the same steps.
 */
void pat_init_secondary(void)
{
	if (have_pat)
		pat_write();
}

bool pat_enabled(void)
{
	return have_pat;
}

uint64_t pat_wc_flags(void)
{
	return 1ULL << 3; /* PWT: entry 1, WC (write-through without PAT) */
}
