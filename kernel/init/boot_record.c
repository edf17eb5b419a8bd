/*
 * The boot record: everything a reader of a log needs to judge its
 * figures (which CPU, which clock, emulated or not, which settings).
 */
#include "common/cpu.h"
#include "kernel/arch/acpi.h"
#include "common/jrec.h"
#include "kernel/arch/fw_cfg.h"
#include "kernel/arch/rtc.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/arch/xstate.h"
#include "kernel/arch/boot_info.h"
#include "kernel/init/boot_record.h"
#include "kernel/fs/proc/internal.h"
#include "kernel/run/run.h"
#include "kernel/lib/printk.h"
#include "kernel/console/serial.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/pmm.h"
#include "kernel/char/random.h"
#include "rng/chacha20.h"

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
	if (c->hypervisor && !random_boot_seed.len && n < len)
		n += (size_t)ksnprintf(buf + n, len - n, "%semulated_cycles", n ? "," : "");
	if (!serial_present() && n < len)
		n += (size_t)ksnprintf(buf + n, len - n, "%sno_serial", n ? "," : "");
	/* The loader booted files other than the ones it was sealed with (Secure Boot off). */
	if ((boot_info_copy.image_check & BOOT_CHECK_KERNEL_MISMATCH) && n < len)
		n += (size_t)ksnprintf(buf + n, len - n, "%skernel_hash_mismatch", n ? "," : "");
	if ((boot_info_copy.image_check & BOOT_CHECK_INITRD_MISMATCH) && n < len)
		n += (size_t)ksnprintf(buf + n, len - n, "%sinitrd_hash_mismatch", n ? "," : "");
	/* The TSCs of two CPUs disagree: cross-CPU cycle counts are suspect. */
	if (smp_tsc_max_warp && n < len)
		n += (size_t)ksnprintf(buf + n, len - n, "%stsc_warp", n ? "," : "");
	/* The MADT lists a CPU that was to start (cpus=) and did not. */
	if (smp_cpus_failed && n < len)
		ksnprintf(buf + n, len - n, "%scpu_start_failed", n ? "," : "");
	return buf;
}

/* The firmware's own identity: vendor and revision, UEFI spec revision. */
static void firmware_fields(struct jrec *r, const struct boot_info *bi)
{
	char buf[24];
	size_t n;

	jrec_str(r, "fw_vendor", bi->fw_vendor);
	jrec_u64(r, "fw_revision", bi->fw_revision);
	n = fmt_u64(buf, bi->uefi_revision >> 16);
	buf[n++] = '.';
	/* The minor half is 10 * minor + patch, e.g. 2.70 for UEFI 2.7 (spec 4.2.1). */
	n += fmt_u64(buf + n, (bi->uefi_revision & 0xffff) / 10);
	if ((bi->uefi_revision & 0xffff) % 10) {
		buf[n++] = '.';
		n += fmt_u64(buf + n, (bi->uefi_revision & 0xffff) % 10);
	}
	buf[n] = '\0';
	jrec_str(r, "uefi_revision", buf);
}

/*
 * Secure Boot as the loader saw it: the firmware's SecureBoot and SetupMode
 * variables, who started the loader, and its check of kernel and initramfs.
 */
static void secure_boot_fields(struct jrec *r, const struct boot_info *bi)
{
	const char *check = "ok";

	if (bi->image_check & BOOT_CHECK_UNSEALED)
		check = "unsealed";
	else if ((bi->image_check & BOOT_CHECK_KERNEL_MISMATCH) &&
		 (bi->image_check & BOOT_CHECK_INITRD_MISMATCH))
		check = "kernel_and_initrd_mismatch";
	else if (bi->image_check & BOOT_CHECK_KERNEL_MISMATCH)
		check = "kernel_mismatch";
	else if (bi->image_check & BOOT_CHECK_INITRD_MISMATCH)
		check = "initrd_mismatch";
	jrec_bool(r, "secure_boot", bi->secure_boot != 0);
	jrec_bool(r, "setup_mode", bi->setup_mode != 0);
	jrec_str(r, "boot_path", bi->boot_path == BOOT_PATH_SHIM ? "shim" : "loader");
	jrec_str(r, "image_check", check);
}

/* Which code, which image, which firmware and emulator produced this log. */
static void provenance_fields(struct jrec *r, const struct boot_info *bi)
{
	static const char hexd[] = "0123456789abcdef";
	char sha[2 * sizeof(bi->kernel_sha256) + 1], host[160];
	long n;

	for (size_t i = 0; i < sizeof(bi->kernel_sha256); i++) {
		sha[2 * i] = hexd[bi->kernel_sha256[i] >> 4];
		sha[2 * i + 1] = hexd[bi->kernel_sha256[i] & 15];
	}
	sha[sizeof(sha) - 1] = '\0';
	jrec_str(r, "version", aslrbench_version);
	jrec_str(r, "build_date", aslrbench_build_date);
	jrec_str(r, "kernel_sha256", sha);
	firmware_fields(r, bi);
	secure_boot_fields(r, bi);
	/* The host tells the emulator's version, when it does: run-qemu.sh's fw_cfg. */
	n = fw_cfg_read_file("opt/aslrbench/host", host, sizeof(host) - 1);
	if (n >= 0) {
		host[n] = '\0';
		for (char *p = host; *p; p++)
			if (*p < 0x20 || *p > 0x7e)
				*p = '?';
		jrec_str(r, "host", host);
	}
}

void emit_boot_record(void)
{
	const struct boot_info *bi = &boot_info_copy;
	struct bench_cpu c;
	struct jrec r;
	char line[2400], buf[160];

	bench_cpu_detect(&c);
	jrec_begin(&r, line, sizeof(line), "boot");
	jrec_str(&r, "platform", "aslrbench");
	provenance_fields(&r, bi);
	/*
	 * When the run started, by the RTC: what tells two runs of one build on
	 * one machine apart.  Not in a seeded (deterministic) run, whose records
	 * must be the same, byte for byte, every time.
	 */
	if (!random_boot_seed.len && !rtc_iso8601(buf, sizeof(buf)))
		jrec_str(&r, "time", buf);
	jrec_str(&r, "cpu_vendor", c.vendor);
	jrec_str(&r, "cpu_model", c.brand);
	jrec_u64(&r, "cpu_family", c.family);
	jrec_u64(&r, "cpu_model_id", c.model);
	jrec_bool(&r, "hypervisor", c.hypervisor);
	jrec_u64(&r, "tsc_hz", tsc_hz());
	jrec_str(&r, "tsc_hz_source", tsc_source());
	jrec_bool(&r, "invariant_tsc", c.invariant_tsc);
	jrec_bool(&r, "rdtscp", c.rdtscp);
	/* XCR0 (kernel/arch/xstate.c) and the ChaCha20 body it lets chacha20-wide run */
	jrec_u64(&r, "xfeatures", fpu_user_cfg.max_features);
	jrec_str(&r, "chacha_impl", chacha_impl_name(chacha_impl_active()));
	jrec_u64(&r, "hz", timer_hz());
	jrec_fixed(&r, "hz_actual", (int64_t)timer_actual_mhz(), 3);
	jrec_str(&r, "mode", mode_name(run_mode));
	jrec_str(&r, "rng", rng_variants[random_boot_variant]->name);
	jrec_str(&r, "seed_source", rng_seed_source());
	jrec_bool(&r, "deterministic", random_boot_seed.len != 0);
	jrec_u64(&r, "proc_leak_fix", (uint64_t)proc_leak_fix);
	jrec_u64(&r, "randomize_va_space", (uint64_t)randomize_va_space);
	jrec_str(&r, "aslr_profile", aslr_ia32 ? "ia32" : "x86_64");
	jrec_str(&r, "aslr_rules", aslr_rules_name(aslr_rules));
	jrec_u64(&r, "mem_free_pages", pmm_free_count());
	jrec_u64(&r, "mmap_entries", bi->mmap_count);
	jrec_u64(&r, "efi_seed_bytes", bi->seed_len);
	jrec_bool(&r, "acpi_rsdp", bi->rsdp != 0);
	jrec_str(&r, "fb_format", fb_format(bi->fb.format));
	jrec_u64(&r, "fb_width", bi->fb.width);
	jrec_u64(&r, "fb_height", bi->fb.height);
	jrec_bool(&r, "serial", serial_present());
	jrec_u64(&r, "cpus_present", acpi_facts.cpus_present);
	jrec_u64(&r, "cpus_online", smp_cpus_online);
	if (smp_tsc_checked) /* measured only when some AP ran the warp test */
		jrec_u64(&r, "tsc_max_warp", smp_tsc_max_warp);
	jrec_u64(&r, "serial_port", serial_port());
	jrec_bool(&r, "acpi_spcr", acpi_facts.spcr_found);
	jrec_str(&r, "warnings", warnings(&c, buf, sizeof(buf)));
	jrec_u64(&r, "exit_boot_retries", bi->exit_retries);
	jrec_str(&r, "cmdline", bi->cmdline);
	console_puts(jrec_end(&r));
	if (!c.invariant_tsc)
		kprintf("warning: the TSC is not invariant; cycle counts may drift with "
			"frequency changes\n");
	if (c.hypervisor && !random_boot_seed.len)
		kprintf("note: running under a hypervisor; without --deterministic the cycle "
			"counts measure the emulator, not the guest code\n");
}
