/*
 * clear_page and copy_page: every whole page the kernel zeroes or copies
 * (page tables, demand-zero and copy-on-write pages), with the string
 * instructions, as Linux 6.12 (arch/x86/lib/clear_page_64.S,
 * copy_page_64.S; the choice in arch/x86/include/asm/page_64.h):
 *
 *   clear_page  clear_page_erms ("rep stosb", 4096 bytes) on a CPU with
 *               ERMS, else clear_page_rep ("rep stosq", 512 quadwords).
 *               Linux keeps a third, clear_page_orig (a register loop), for
 *               CPUs without X86_FEATURE_REP_GOOD (before AMD's family 10h
 *               and C-stepping K8, Intel's family 15); here they take
 *               clear_page_rep, correct on every x86_64 CPU, only slower there.
 *   copy_page   "rep movsq", 512 quadwords (copy_page with REP_GOOD; its
 *               copy_page_regs fallback has the same place as clear_page_orig).
 *
 * Linux patches the choice into the call site at boot (alternatives); here
 * it is read from CPUID once.  Linux also drops ERMS when the firmware
 * disabled fast strings in IA32_MISC_ENABLE; that MSR is not read here (a
 * hypervisor may not offer it), so such a CPU clears with rep stosb, slowly
 * but correctly.
 *
 * Under QEMU's TCG with -icount every iteration of a REP instruction counts
 * as one instruction: clear_page_erms then counts 4096, clear_page_rep 512.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/page.h"

#define CPUID7_EBX_ERMS (1u << 9)

enum { CLEAR_UNKNOWN, CLEAR_ERMS, CLEAR_REP };
static int clear_page_kind;

static int clear_page_choose(void)
{
	uint32_t r[4];

	cpuid_count(0, 0, r);
	if (r[0] >= 7) {
		cpuid_count(7, 0, r);
		if (r[1] & CPUID7_EBX_ERMS)
			return CLEAR_ERMS;
	}
	return CLEAR_REP;
}

void clear_page(void *page)
{
	uint64_t n;

	if (clear_page_kind == CLEAR_UNKNOWN)
		clear_page_kind = clear_page_choose();
	if (clear_page_kind == CLEAR_ERMS) {
		n = 4096;
		__asm__ volatile("rep stosb" : "+D"(page), "+c"(n) : "a"(0) : "memory");
	} else {
		n = 4096 / 8;
		__asm__ volatile("rep stosq" : "+D"(page), "+c"(n) : "a"(0) : "memory");
	}
}

void copy_page(void *to, const void *from)
{
	uint64_t n = 4096 / 8;

	__asm__ volatile("rep movsq" : "+D"(to), "+S"(from), "+c"(n) : : "memory");
}
