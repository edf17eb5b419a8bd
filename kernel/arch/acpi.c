/*
 * A few ACPI tables, read-only and defensively: every length is checked
 * against its container and every table's checksum verified, because a PC's
 * firmware is the one input this kernel cannot choose.
 */
#include "kernel/arch/acpi.h"
#include "kernel/lib/string.h"
#include "kernel/arch/page.h"

#define MAX_TABLE_LEN (1u << 20)

struct acpi_facts acpi_facts;

struct sdt_header {
	char signature[4];
	uint32_t length;
	uint8_t revision, checksum;
	char oem[6], oem_table[8];
	uint32_t oem_rev, creator, creator_rev;
} __attribute__((packed));

static int checksum_ok(const void *p, uint32_t len)
{
	const uint8_t *b = p;
	uint8_t sum = 0;

	for (uint32_t i = 0; i < len; i++)
		sum += b[i];
	return sum == 0;
}

/* A mapped, checked table at phys, or NULL. */
static const struct sdt_header *table_at(uint64_t phys)
{
	const struct sdt_header *h;

	if (!phys || phys >= vmm_physmap_top())
		return 0;
	h = phys_to_virt(phys);
	if (h->length < sizeof(*h) || h->length > MAX_TABLE_LEN ||
	    phys + h->length > vmm_physmap_top() || !checksum_ok(h, h->length))
		return 0;
	return h;
}

/*
 * A CPU the firmware enabled, by APIC id, for smpboot.c.  ids the xAPIC
 * cannot address (0xff: "not present" in Linux's acpi_parse_lapic) and
 * duplicates (a CPU listed both as a local APIC and as a local x2APIC) are
 * skipped; past ACPI_MAX_CPUS the CPUs are counted, not listed.
 */
static void add_cpu(uint32_t apic_id, uint32_t flags, uint32_t invalid_id)
{
	if (!(flags & 3))
		return;
	acpi_facts.cpus_present++;
	/*
	 * Online-capable but not enabled (ACPI 6.3): a CPU that may be
	 * hot-added later, never started at boot (as Linux 6.6).
	 */
	if (!(flags & 1) || apic_id == invalid_id)
		return;
	for (uint32_t i = 0; i < acpi_facts.nr_apic_ids; i++)
		if (acpi_facts.apic_ids[i] == apic_id)
			return;
	if (acpi_facts.nr_apic_ids < ACPI_MAX_CPUS)
		acpi_facts.apic_ids[acpi_facts.nr_apic_ids++] = apic_id;
}

static void parse_madt(const struct sdt_header *h)
{
	const uint8_t *p = (const uint8_t *)h + sizeof(*h) + 8,
		      *end = (const uint8_t *)h + h->length;

	while (p + 2 <= end && p[1] >= 2 && p + p[1] <= end) {
		uint32_t flags, id;

		if (p[0] == 0 && p[1] >= 8) { /* processor local APIC */
			memcpy(&flags, p + 4, 4);
			add_cpu(p[3], flags, 0xff);
		} else if (p[0] == 9 && p[1] >= 16) { /* processor local x2APIC */
			memcpy(&id, p + 4, 4);
			memcpy(&flags, p + 8, 4);
			add_cpu(id, flags, 0xffffffff);
		}
		p += p[1];
	}
}

static void parse_spcr(const struct sdt_header *h)
{
	const uint8_t *t = (const uint8_t *)h;
	uint64_t addr;

	if (h->length < 52)
		return;
	acpi_facts.spcr_found = 1;
	memcpy(&addr, t + 44, 8);
	/* Interface 0 = full 16550, 1 = 16450 subset; address space 1 = I/O ports. */
	if ((t[36] == 0 || t[36] == 1) && t[40] == 1 && addr && addr < 0x10000)
		acpi_facts.spcr_port = (uint16_t)addr;
}

void acpi_init(uint64_t rsdp_phys)
{
	const uint8_t *rsdp;
	const struct sdt_header *root;
	uint64_t root_phys;
	unsigned entry_size;

	if (!rsdp_phys || rsdp_phys >= vmm_physmap_top())
		return;
	rsdp = phys_to_virt(rsdp_phys);
	if (memcmp(rsdp, "RSD PTR ", 8) || !checksum_ok(rsdp, 20))
		return;
	if (rsdp[15] >= 2 && checksum_ok(rsdp, 36)) {
		memcpy(&root_phys, rsdp + 24, 8); /* XSDT */
		entry_size = 8;
	} else {
		uint32_t r;

		memcpy(&r, rsdp + 16, 4); /* RSDT */
		root_phys = r;
		entry_size = 4;
	}
	root = table_at(root_phys);
	if (!root)
		return;
	for (uint32_t off = sizeof(*root); off + entry_size <= root->length; off += entry_size) {
		uint64_t phys = 0;
		const struct sdt_header *t;

		memcpy(&phys, (const uint8_t *)root + off, entry_size);
		t = table_at(phys);
		if (!t)
			continue;
		if (!memcmp(t->signature, "APIC", 4))
			parse_madt(t);
		else if (!memcmp(t->signature, "SPCR", 4))
			parse_spcr(t);
	}
}
