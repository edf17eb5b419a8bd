/*
 * The end-of-run summary screen of mode=bench: the headline table in large
 * rows, readable from a phone photo of a PC without a serial port.  It shows
 * only what this run measured; the serial log carries every record.
 */
#include "bench/run.h"
#include "kernel/measure/job.h"
#include "kernel/console/fbcon.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/arch/tsc.h"
#include "kernel/arch/boot_info.h"

static const struct bench_row *find_row(const struct bench_run *run, const char *name)
{
	for (unsigned i = 0; i < run->nrows; i++)
		if (run->rows[i].name && !strcmp(run->rows[i].name, name))
			return &run->rows[i];
	return 0;
}

static void fixed3(char *buf, size_t len, int64_t milli)
{
	if (milli < 0)
		ksnprintf(buf, len, "-");
	else
		ksnprintf(buf, len, "%ld.%01ld", milli / 1000, (milli % 1000) / 100);
}

void bench_summary_screen(const struct bench_run *run, const char *const *names,
			  const int64_t *fork_share_m, unsigned n, bool emulated)
{
	unsigned row = 1;
	char line[160];

	if (!fbcon_active())
		return;
	fbcon_set_color(FBCON_WHITE, FBCON_BLACK);
	fbcon_clear();
	fbcon_puts_at(2, row++, "aslrbench - results of this run");
	ksnprintf(line, sizeof(line), "TSC %lu MHz%s", tsc_hz() / 1000000,
		  emulated ? "   (emulated: cycles time the emulator, not the CPU)" : "");
	fbcon_puts_at(2, row++, line);
	ksnprintf(line, sizeof(line), "Secure Boot %s%s, started by %s%s",
		  boot_info_copy.secure_boot ? "on" : "off",
		  boot_info_copy.setup_mode ? " (setup mode)" : "",
		  boot_info_copy.boot_path == BOOT_PATH_SHIM ? "shim" : "the loader",
		  boot_info_copy.image_check &
				  (BOOT_CHECK_KERNEL_MISMATCH | BOOT_CHECK_INITRD_MISMATCH)
			  ? "   (kernel or initramfs differs from the sealed one)"
			  : "");
	fbcon_puts_at(2, row++, line);
	row++;
	fbcon_set_color(FBCON_YELLOW, FBCON_BLACK);
	fbcon_puts_at(2, row++, "variant             cycles/u32  batched  secure  fork share");
	fbcon_set_color(FBCON_WHITE, FBCON_BLACK);
	for (unsigned i = 0; i < n; i++) {
		const struct bench_row *r = find_row(run, names[i]);
		char med[24] = "-", bat[24] = "-", share[24] = "-";

		if (r && !r->available) {
			ksnprintf(line, sizeof(line), "%-19s (not available on this CPU)",
				  names[i]);
			fbcon_puts_at(2, row++, line);
			continue;
		}
		if (r) { /* absent when the rng suite did not run */
			fixed3(med, sizeof(med), r->median_m);
			fixed3(bat, sizeof(bat), r->batch_median_m);
		}
		if (fork_share_m[i] > 0)
			ksnprintf(share, sizeof(share), "%ld.%02ld %%", fork_share_m[i] / 1000,
				  (fork_share_m[i] % 1000) / 10);
		ksnprintf(line, sizeof(line), "%-19s %10s %8s  %-6s  %10s", names[i], med, bat,
			  r ? (r->secure ? "yes" : "no") : "-", share);
		fbcon_puts_at(2, row++, line);
	}
	row++;
	fbcon_puts_at(2, row++,
		      "Every record (@@ lines, ASLR entropy included) goes to the serial");
	fbcon_puts_at(2, row++,
		      "port; scripts/report.py turns a log into tables. Attack lab: mode=attack.");
	fbcon_goto(0, row + 1);
}
