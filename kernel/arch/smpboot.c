/*
 * SMP bring-up: every AP the MADT lists is started, checked and parked.
 *
 * As Linux 6.6 (arch/x86/kernel/smpboot.c): do_boot_cpu starts one AP at
 * a time by wakeup_secondary_cpu_via_init (INIT assert, INIT deassert,
 * then STARTUP twice, the ESR read after each), through a real-mode
 * trampoline below 1 MiB (trampoline.asm, after realmode/rm/trampoline_64.S)
 * that reaches long mode on a page table of its own: the low 2 MiB
 * identity-mapped (the trampoline runs there) plus the kernel's upper-half
 * PML4 entries, and below 4 GiB because 32-bit code loads it into CR3.
 * The AP then switches to the kernel's CR3 and gets its own stack, GDT and
 * TSS (IST1 for double faults, as the boot CPU), the shared IDT, its own
 * struct percpu behind GS (the stack protector reads %gs:40), the boot
 * CPU's CR0/CR4/EFER and PAT, and its LAPIC software-enabled with every
 * local interrupt masked.  Then the TSC warp test against the boot CPU
 * (tsc_sync.c), and the AP parks in smp_ap_idle() (smp.c), halted, until
 * the scheduler takes it (kernel/task/sched.c: sched_ap_init); cross-CPU
 * calls reach it meanwhile.
 *
 * Every wait is bounded: an AP that does not answer within 10 s (Linux's
 * wait for the AP's alive signal) or does not finish the check is sent
 * INIT again, which stops it, reported and skipped, and the boot goes on.
 */
#include <stdbool.h>
#include <stddef.h>

#include "kernel/arch/acpi.h"
#include "kernel/arch/boot_info.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/arch/idt.h"
#include "kernel/arch/lapic.h"
#include "kernel/arch/page.h"
#include "kernel/arch/pat.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/tsc.h"
#include "kernel/arch/tsc_sync.h"
#include "kernel/arch/xstate.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/params/param.h"

/* Linux's maxcpus= and nr_cpus=: both bound the CPUs started here. */
uint32_t setup_max_cpus, setup_nr_cpus;
param_uint(cpus, setup_max_cpus, 1, 4096, "",
	   "start at most N CPUs, the boot CPU included (none: all the MADT lists)");
param_uint(nr_cpus, setup_nr_cpus, 1, 4096, "",
	   "as cpus= (Linux's name); the smaller of the two wins");

#define PG	       4096UL
#define LOW_LIMIT      0xa0000UL /* OVMF leaves 0x1000-0x9ffff as memory */
#define TRAMP_PAGES    4	 /* the code, then PML4, PDPT, PD */
#define AP_STACK_PAGES 4
#define AP_DF_PAGES    2 /* as the boot CPU's double-fault stack */
#define AP_PAGES       (1 + AP_DF_PAGES + AP_STACK_PAGES)
#define PTE_ADDR_MASK  0x000ffffffffff000ULL
#define CR4_PCIDE      (1ULL << 17)
#define CR4_CET	       (1ULL << 23) /* needs CR0.WP, which the trampoline sets after CR4 */
#define EFER_LMA       (1ULL << 10)
#define CALLIN_WAIT_S  10
#define CHECK_WAIT_MS  1000

/* trampoline.asm's header: keep the two in step. */
struct trampoline_header {
	uint64_t gdt[4];
	uint16_t gdt_limit;
	uint32_t gdt_base;
	uint16_t pad0;
	uint32_t pm_entry; /* far pointer to tr_protected */
	uint16_t pm_sel, pad1;
	uint32_t lm_entry; /* far pointer to tr_long */
	uint16_t lm_sel, pad2;
	uint32_t cr3, cr4;
	uint64_t efer, cr0, kernel_cr3, entry, stack, percpu;
} __attribute__((packed));

_Static_assert(offsetof(struct trampoline_header, cr3) == 56, "trampoline.asm's tr_cr3");
_Static_assert(offsetof(struct trampoline_header, percpu) == 104, "trampoline.asm's tr_percpu");

extern const char trampoline_start[], trampoline_end[], trampoline_header[], tr_protected[],
	tr_long[];
extern const char ap_start64[];

/* An AP's own page: its per-CPU block and descriptor tables. */
struct ap_area {
	struct percpu pc; /* first: GS points here */
	struct cpu_gdt gdt;
	uint64_t df_top;
};

_Static_assert(sizeof(struct ap_area) <= PG, "one page");

enum { AP_NONE, AP_ALIVE, AP_CHECK_FAILED, AP_PARKED };

unsigned smp_cpus_online = 1, smp_cpus_failed;
bool smp_tsc_checked;
uint64_t smp_tsc_max_warp;

static uint64_t bsp_cr0, bsp_cr4, bsp_efer, wait_cycles;
static uint32_t ap_state; /* the AP being started reports its progress here */
static uint64_t tramp_phys;
static struct trampoline_header *tramp_header;
static unsigned init_udelay;
static uint32_t online_ids[ACPI_MAX_CPUS]; /* [0]: the boot CPU */
static struct percpu *online_pc[ACPI_MAX_CPUS] = {&percpu0};
static uint8_t *spare; /* pages of an AP that failed, for the next */

static void udelay(uint64_t us)
{
	uint64_t start = rdtsc(), n = tsc_hz() / 1000000 * us;

	while (rdtsc() - start < n)
		cpu_relax();
}

/* Linux 6.6's smp_quirk_init_udelay: no INIT delay on CPUs that need none. */
static unsigned smp_quirk_init_udelay(void)
{
	uint32_t r[4], family;
	char v[12];

	cpuid_count(0, 0, r);
	memcpy(v, &r[1], 4);
	memcpy(v + 4, &r[3], 4);
	memcpy(v + 8, &r[2], 4);
	cpuid_count(1, 0, r);
	family = (r[0] >> 8) & 0xf;
	if (family == 0xf)
		family += (r[0] >> 20) & 0xff;
	if ((!memcmp(v, "GenuineIntel", 12) && family == 6) ||
	    (!memcmp(v, "HygonGenuine", 12) && family >= 0x18) ||
	    (!memcmp(v, "AuthenticAMD", 12) && family >= 0xf))
		return 0;
	return 10000; /* UDELAY_10MS_DEFAULT, the MP specification's */
}

/*
 * Usable for the trampoline: inside a conventional-memory entry and
 * overlapping no entry of another type (corrupt entries, as pmm.c's, are
 * ignored).
 */
static bool low_page_free(uint64_t page)
{
	const struct boot_info *bi = &boot_info_copy;
	const uint8_t *map = phys_to_virt(bi->mmap);
	bool inside = false;

	for (uint32_t i = 0; i < bi->mmap_count; i++) {
		const struct boot_mmap_entry *e =
			(const void *)(map + (size_t)i * bi->mmap_entry_size);
		uint64_t end;

		if (!e->pages || e->pages > (1ULL << 40) || e->phys >= (1ULL << 52))
			continue;
		end = e->phys + e->pages * PG;
		if (end <= page || e->phys >= page + PG)
			continue;
		if (e->type != BOOT_MEM_CONVENTIONAL)
			return false;
		if (e->phys <= page && page + PG <= end)
			inside = true;
	}
	return inside;
}

/*
 * TRAMP_PAGES free pages below 640 KiB, the highest that fit (Linux's
 * memblock allocates its real-mode area top-down too).  The page
 * allocator never hands out the first 1 MiB, so they stay ours.
 */
static bool find_trampoline(void)
{
	if (!boot_info_copy.mmap || boot_info_copy.mmap_entry_size < sizeof(struct boot_mmap_entry))
		return false;
	for (uint64_t base = LOW_LIMIT - TRAMP_PAGES * PG; base >= 0x1000; base -= PG) {
		unsigned n = 0;

		while (n < TRAMP_PAGES && low_page_free(base + n * PG))
			n++;
		if (n == TRAMP_PAGES) {
			tramp_phys = base;
			return true;
		}
	}
	return false;
}

static void setup_trampoline(void)
{
	uint8_t *t = phys_to_virt(tramp_phys);
	uint64_t *pml4 = (uint64_t *)(t + PG), *pdpt = (uint64_t *)(t + 2 * PG),
		 *pd = (uint64_t *)(t + 3 * PG);
	const uint64_t *kernel_pml4 = phys_to_virt(read_cr3() & PTE_ADDR_MASK);
	uint64_t hdr = (uint64_t)(trampoline_header - trampoline_start);

	memset(t, 0, TRAMP_PAGES * PG);
	memcpy(t, trampoline_start, (size_t)(trampoline_end - trampoline_start));
	pml4[0] = (tramp_phys + 2 * PG) | 3; /* present, writable */
	pdpt[0] = (tramp_phys + 3 * PG) | 3;
	pd[0] = 0x83; /* [0, 2 MiB) identity, one large page */
	for (int i = 256; i < 512; i++)
		pml4[i] = kernel_pml4[i];

	tramp_header = (struct trampoline_header *)(t + hdr);
	tramp_header->gdt_base = (uint32_t)(tramp_phys + hdr);
	tramp_header->pm_entry =
		(uint32_t)(tramp_phys + (uint64_t)(tr_protected - trampoline_start));
	tramp_header->lm_entry = (uint32_t)(tramp_phys + (uint64_t)(tr_long - trampoline_start));
	tramp_header->cr3 = (uint32_t)(tramp_phys + PG);
	/* As Linux's setup_real_mode: CR4 without PCIDE (long mode only), EFER without LMA. */
	tramp_header->cr4 = (uint32_t)(bsp_cr4 & ~(CR4_PCIDE | CR4_CET));
	tramp_header->efer = bsp_efer & ~EFER_LMA;
	tramp_header->cr0 = bsp_cr0;
	tramp_header->kernel_cr3 = read_cr3();
	tramp_header->entry = (uint64_t)ap_start64;
}

/* The AP's first C code (from ap_start64), on its own stack and GS. */
__attribute__((noreturn)) void smp_ap_main(struct percpu *pc);
__attribute__((noreturn)) void smp_ap_main(struct percpu *pc)
{
	struct ap_area *a = (struct ap_area *)pc;
	int rc;

	write_cr0(bsp_cr0);
	write_cr4(bsp_cr4);
	fpu__init_cpu_xstate(); /* XCR0 is per CPU: before this CPU saves a task's registers */
	gdt_init_cpu(&a->gdt, a->df_top, pc->cpu);
	idt_load();
	pat_init_secondary();
	lapic_init_secondary();
	__atomic_store_n(&ap_state, AP_ALIVE, __ATOMIC_RELEASE);
	rc = tsc_sync_target(wait_cycles);
	__atomic_store_n(&ap_state, rc ? AP_CHECK_FAILED : AP_PARKED, __ATOMIC_RELEASE);
	if (!rc)
		smp_ap_idle();
	for (;;) /* failed: the boot CPU sends INIT */
		__asm__ volatile("cli\n\thlt" ::: "memory");
}

/* Linux's send_init_sequence: INIT asserted, then deasserted. */
static void send_init_sequence(uint32_t apicid)
{
	lapic_esr();
	lapic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT, apicid);
	lapic_wait_icr_idle();
	udelay(init_udelay);
	lapic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apicid);
	lapic_wait_icr_idle();
}

/* Linux 6.6's wakeup_secondary_cpu_via_init: 0, or the failing status. */
static uint32_t wakeup_secondary_cpu_via_init(uint32_t apicid, uint64_t start_eip)
{
	uint32_t send_status = 0, accept_status = 0;

	send_init_sequence(apicid);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (int j = 1; j <= 2; j++) {
		lapic_esr();
		lapic_icr_write(APIC_DM_STARTUP | (uint32_t)(start_eip >> 12), apicid);
		udelay(init_udelay ? 300 : 10);
		send_status = lapic_wait_icr_idle();
		udelay(init_udelay ? 200 : 10);
		accept_status = lapic_esr() & 0xef;
		if (send_status || accept_status)
			break;
	}
	return send_status | accept_status;
}

static bool wait_state(uint32_t want, uint64_t cycles)
{
	uint64_t start = rdtsc();

	while (__atomic_load_n(&ap_state, __ATOMIC_ACQUIRE) < want) {
		if (rdtsc() - start > cycles)
			return false;
		cpu_relax();
	}
	return true;
}

/* One AP, `mem` its AP_PAGES pages.  true when it checked in and parked. */
static bool do_boot_cpu(unsigned cpu, uint32_t apicid, uint8_t *mem)
{
	struct ap_area *a = (struct ap_area *)mem;
	uint32_t status;
	int64_t warp;

	memset(a, 0, sizeof(*a));
	a->pc.self = &a->pc;
	a->pc.cpu = cpu;
	a->pc.gdt = &a->gdt;
	/* Runs no task, so no task's canary: the boot CPU's, whose value is secret too. */
	a->pc.stack_canary = percpu0.stack_canary;
	a->df_top = (uint64_t)(mem + (1 + AP_DF_PAGES) * PG);
	tramp_header->stack = (uint64_t)(mem + AP_PAGES * PG);
	tramp_header->percpu = (uint64_t)&a->pc;
	__atomic_store_n(&ap_state, AP_NONE, __ATOMIC_RELEASE);
	tsc_sync_prepare();

	status = wakeup_secondary_cpu_via_init(apicid, tramp_phys);
	if (status) {
		kprintf("smpboot: CPU %u (APIC id %u) did not accept the STARTUP IPI (status "
			"0x%x); "
			"skipped\n",
			cpu, apicid, status);
		send_init_sequence(apicid);
		return false;
	}
	if (!wait_state(AP_ALIVE, tsc_hz() * CALLIN_WAIT_S)) {
		kprintf("smpboot: CPU %u (APIC id %u) did not answer in %u s; skipped\n", cpu,
			apicid, CALLIN_WAIT_S);
		send_init_sequence(apicid);
		return false;
	}
	warp = tsc_sync_source(wait_cycles);
	if (warp < 0 || !wait_state(AP_CHECK_FAILED, wait_cycles) ||
	    __atomic_load_n(&ap_state, __ATOMIC_ACQUIRE) != AP_PARKED) {
		kprintf("smpboot: CPU %u (APIC id %u) started but did not finish the TSC check; "
			"skipped\n",
			cpu, apicid);
		send_init_sequence(apicid);
		return false;
	}
	smp_tsc_checked = true;
	if ((uint64_t)warp > smp_tsc_max_warp)
		smp_tsc_max_warp = (uint64_t)warp;
	if (warp)
		kprintf("TSC synchronization [CPU#0 -> CPU#%u]: measured %ld cycles TSC warp "
			"between CPUs\n",
			cpu, warp);
	return true;
}

static uint32_t cpu_limit(void)
{
	uint32_t n = ACPI_MAX_CPUS;

	if (setup_max_cpus && setup_max_cpus < n)
		n = setup_max_cpus;
	if (setup_nr_cpus && setup_nr_cpus < n)
		n = setup_nr_cpus;
	return n;
}

/* Reads the boot CPU's state and lays out the trampoline, once. */
static bool smp_prepare(void)
{
	static int state; /* 0: not yet, 1: ready, -1: no SMP */

	if (state)
		return state > 0;
	state = -1;
	if (!lapic_present())
		return false;
	if ((uint64_t)(trampoline_end - trampoline_start) > PG || !find_trampoline()) {
		kprintf("smpboot: no room below 640 KiB for the AP trampoline; one CPU\n");
		return false;
	}
	bsp_cr0 = read_cr0();
	bsp_cr4 = read_cr4();
	bsp_efer = rdmsr(MSR_EFER);
	wait_cycles = tsc_hz() / 1000 * CHECK_WAIT_MS;
	init_udelay = smp_quirk_init_udelay();
	setup_trampoline();
	online_ids[0] = lapic_id();
	state = 1;
	return true;
}

struct percpu *smp_percpu(unsigned int cpu)
{
	return cpu < smp_cpus_online ? online_pc[cpu] : 0;
}

uint32_t smp_cpu_apicid(unsigned int cpu)
{
	return cpu < smp_cpus_online ? online_ids[cpu] : 0;
}

bool smp_apic_online(uint32_t apicid)
{
	for (unsigned i = 0; i < smp_cpus_online; i++)
		if (online_ids[i] == apicid)
			return true;
	return false;
}

/* One AP: 1 when it checked in, 0 when it failed (reported), -1 when out of memory. */
static int boot_one(uint32_t apicid, smp_alloc_fn alloc)
{
	if (!lapic_x2apic() && apicid > 0xfe) {
		kprintf("smpboot: APIC id %u needs x2APIC mode; skipped\n", apicid);
		smp_cpus_failed++;
		return 0;
	}
	if (!spare)
		spare = alloc(AP_PAGES);
	if (!spare) {
		kprintf("smpboot: no memory for CPU %u\n", smp_cpus_online);
		return -1;
	}
	if (!do_boot_cpu(smp_cpus_online, apicid, spare)) {
		smp_cpus_failed++;
		return 0; /* the AP was sent INIT: its pages serve the next one */
	}
	online_pc[smp_cpus_online] = (struct percpu *)spare;
	online_ids[smp_cpus_online++] = apicid;
	spare = 0; /* that AP's now */
	return 1;
}

bool smp_boot_apic(uint32_t apicid, smp_alloc_fn alloc)
{
	if (smp_cpus_online >= ACPI_MAX_CPUS || !smp_prepare() || smp_apic_online(apicid))
		return false;
	return boot_one(apicid, alloc) > 0;
}

unsigned smp_boot_cpus(smp_alloc_fn alloc)
{
	uint32_t limit = cpu_limit(), n = acpi_facts.nr_apic_ids;

	if (!lapic_present() || n < 2 || limit < 2 || !smp_prepare())
		return smp_cpus_online;
	kprintf("smpboot: starting up to %u CPUs of %u (trampoline at 0x%lx, %s)\n",
		limit < n ? limit : n, n, tramp_phys, lapic_x2apic() ? "x2APIC" : "xAPIC");
	for (uint32_t i = 0; i < n && smp_cpus_online < limit; i++) {
		uint32_t id = acpi_facts.apic_ids[i];

		if (!smp_apic_online(id) && boot_one(id, alloc) < 0)
			break;
	}
	/* Their APIC IDs too: how a run shows which CPUs came up (x2APIC IDs above 254). */
	kprintf("smp: brought up %u CPUs%s, APIC IDs", smp_cpus_online,
		smp_cpus_failed ? ", some CPUs failed to start" : "");
	for (unsigned cpu = 0; cpu < smp_cpus_online; cpu++)
		kprintf(" %u", online_ids[cpu]);
	kprintf("\n");
	return smp_cpus_online;
}
