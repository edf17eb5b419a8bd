/*
 * The boot record: everything a reader of a log needs to judge its
 * figures (which CPU, which clock, emulated or not, which settings).
 */
#include "bench/cpu.h"
#include "kernel/arch/acpi.h"
#include "bench/jrec.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/boot.h"
#include "kernel/bootrec.h"
#include "kernel/cmdline.h"
#include "kernel/console/printk.h"
#include "kernel/console/serial.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/pmm.h"
#include "kernel/rng_glue.h"

static const char *fb_format(uint32_t f)
{
	static const char *const names[] = {"none", "rgb", "bgr", "bitmask"};

	return f < 4 ? names[f] : "unknown";
}

/* Conditions that make this run's figures less trustworthy, comma-separated. */
static const char *warnings(const struct bench_cpu *c, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!c->invariant_tsc)
		n += (size_t)ksnprintf(buf + n, len - n, "%stsc_not_invariant", n ? "," : "");
	if (c->hypervisor && !kconfig.seed_len && n < len)
		n += (size_t)ksnprintf(buf + n, len - n, "%semulated_cycles", n ? "," : "");
	if (!serial_present() && n < len)
		ksnprintf(buf + n, len - n, "%sno_serial", n ? "," : "");
	return buf;
}

void emit_boot_record(void)
{
	const struct boot_info *bi = &boot_info_copy;
	struct bench_cpu c;
	struct jrec r;
	char line[1800], buf[96];

	bench_cpu_detect(&c);
	jrec_begin(&r, line, sizeof(line), "boot");
	jrec_str(&r, "platform", "aslrbench");
	jrec_str(&r, "cpu_vendor", c.vendor);
	jrec_str(&r, "cpu_model", c.brand);
	jrec_u64(&r, "cpu_family", c.family);
	jrec_u64(&r, "cpu_model_id", c.model);
	jrec_bool(&r, "hypervisor", c.hypervisor);
	jrec_u64(&r, "tsc_hz", tsc_hz());
	jrec_str(&r, "tsc_hz_source", tsc_source());
	jrec_bool(&r, "invariant_tsc", c.invariant_tsc);
	jrec_bool(&r, "rdtscp", c.rdtscp);
	jrec_u64(&r, "hz", timer_hz());
	jrec_fixed(&r, "hz_actual", (int64_t)timer_actual_mhz(), 3);
	jrec_str(&r, "mode", mode_name(kconfig.mode));
	jrec_str(&r, "rng", kconfig.rng);
	jrec_str(&r, "seed_source", rng_seed_source());
	jrec_bool(&r, "deterministic", kconfig.seed_len != 0);
	jrec_u64(&r, "proc_leak_fix", (uint64_t)kconfig.proc_leak_fix);
	jrec_u64(&r, "randomize_va_space", (uint64_t)kconfig.randomize_va_space);
	jrec_str(&r, "aslr_profile", kconfig.aslr_ia32 ? "ia32" : "x86_64");
	jrec_str(&r, "aslr_rules", aslr_rules_name(kconfig.aslr_rules));
	jrec_u64(&r, "mem_free_pages", pmm_free_count());
	jrec_u64(&r, "mmap_entries", bi->mmap_count);
	jrec_u64(&r, "efi_seed_bytes", bi->seed_len);
	jrec_bool(&r, "acpi_rsdp", bi->rsdp != 0);
	jrec_str(&r, "fb_format", fb_format(bi->fb.format));
	jrec_u64(&r, "fb_width", bi->fb.width);
	jrec_u64(&r, "fb_height", bi->fb.height);
	jrec_bool(&r, "serial", serial_present());
	jrec_u64(&r, "cpus_used", 1);
	jrec_u64(&r, "cpus_present", acpi_facts.cpus_present);
	jrec_u64(&r, "serial_port", serial_port());
	jrec_bool(&r, "acpi_spcr", acpi_facts.spcr_found);
	jrec_str(&r, "warnings", warnings(&c, buf, sizeof(buf)));
	jrec_u64(&r, "exit_boot_retries", bi->exit_retries);
	jrec_str(&r, "cmdline", bi->cmdline);
	console_puts(jrec_end(&r));
	if (!c.invariant_tsc)
		kprintf("warning: the TSC is not invariant; cycle counts may drift with "
			"frequency changes\n");
	if (c.hypervisor && !kconfig.seed_len)
		kprintf("note: running under a hypervisor; without --deterministic the cycle "
			"counts measure the emulator, not the guest code\n");
}
