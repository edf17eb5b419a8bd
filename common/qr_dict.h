/*
 * The preset dictionary of the QR screen's zlib stream (RFC 1950 FDICT):
 * the keys of the summary, the boot record, a bench record and a test
 * record, with their values left out.  Why: the boot record is the longest
 * line and the only one with nothing earlier to match, and with its keys
 * known beforehand the summary and the whole boot record fit in the first
 * QR code, so that one code already identifies the run.
 *
 * scripts/qr-decode.py reads the strings below from this file, and the
 * stream's header carries their Adler-32: changing a byte here makes the
 * codes of older builds fail loudly with "another dictionary", never
 * decode wrongly.  Part of the format "AB1" (docs/hardware.md).
 */
#ifndef COMMON_QR_DICT_H
#define COMMON_QR_DICT_H

static const char qr_dict[] =
	"@@ {\"type\":\"summary\",\"passed\":0,\"failed\":0,\"skipped\":0,\"status\":0}\n"
	"@@ {\"type\":\"boot\",\"platform\":\"aslrbench\",\"version\":\"\",\"build_date\":\"\","
	"\"kernel_sha256\":\"\",\"fw_vendor\":\"\",\"fw_revision\":0,\"uefi_revision\":\"\","
	"\"secure_boot\":false,\"setup_mode\":false,\"boot_path\":\"\",\"image_check\":\"\","
	"\"host\":\"\",\"cpu_vendor\":\"\",\"cpu_model\":\"\",\"cpu_family\":0,"
	"\"cpu_model_id\":0,\"hypervisor\":true,\"tsc_hz\":0,\"tsc_hz_source\":\"\","
	"\"invariant_tsc\":false,\"rdtscp\":true,\"xfeatures\":0,\"chacha_impl\":\"\","
	"\"hz\":0,\"hz_actual\":0,\"mode\":\"\",\"rng\":\"\",\"seed_source\":\"\","
	"\"deterministic\":true,\"proc_leak_fix\":0,\"randomize_va_space\":0,"
	"\"aslr_profile\":\"\",\"aslr_rules\":\"\",\"mem_free_pages\":0,\"mmap_entries\":0,"
	"\"efi_seed_bytes\":0,\"acpi_rsdp\":true,\"fb_format\":\"\",\"fb_width\":0,"
	"\"fb_height\":0,\"serial\":true,\"cpus_present\":0,\"cpus_online\":0,"
	"\"serial_port\":0,\"acpi_spcr\":false,\"warnings\":\"\",\"exit_boot_retries\":0,"
	"\"cmdline\":\"\"}\n"
	"@@ {\"type\":\"bench\",\"suite\":\"\",\"rng\":\"\",\"metric\":\"\",\"unit\":\"\","
	"\"min\":0,\"median\":0,\"mean\":0,\"p99\":0,\"max\":0,\"var\":0,\"ensembles\":0,"
	"\"samples\":0,\"n\":0,\"overhead\":0,\"overhead_method\":\"\",\"var_of_min\":0,"
	"\"var_of_var\":0,\"per_sample\":0,\"serialise\":\"\",\"irqs_off\":true,"
	"\"clamped\":0,\"ens_medians\":[],\"available\":true,\"secure\":false,\"batch\":0}\n"
	"@@ {\"type\":\"test\",\"name\":\"\",\"result\":\"pass\"}\n";

#endif
