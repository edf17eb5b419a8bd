/*
 * The QR screen: draws qr_pages' codes one at a time and pages through
 * them.
 *
 * Why these sizes: a code is drawn with whole-pixel modules, as large as
 * the screen allows under one title row, with the standard's four-module
 * light quiet zone; version 20 (97 modules) on a 1280x800 screen gets
 * 7-pixel modules, on 640x480 4 pixels, each still several millimetres
 * on a monitor, which a phone reads from a metre.  Level M (15 % of the
 * code may be lost) is for glare and moire in a photo of a screen.
 *
 * run-qemu.sh --qr-dumps asks for a handshake through fw_cfg
 * ("opt/aslrbench/qr-dump"): each code drawn is announced on QEMU's debug
 * console (port 0xe9) as "aslrbench: qr ready K/N", the host dumps the
 * screen and presses a key.
 */
#include <stdint.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/fw_cfg.h"
#include "kernel/arch/machine_exit.h"
#include "kernel/arch/tsc.h"
#include "kernel/console/fbcon.h"
#include "kernel/console/keyboard.h"
#include "kernel/console/qr_pages.h"
#include "kernel/console/qr_screen.h"
#include "kernel/console/serial.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/records.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/params/param.h"

enum { QR_AUTO, QR_ON, QR_OFF };

static int qr_when = QR_AUTO;
static uint32_t qr_seconds = 30;
static uint32_t qr_version = QR_MAX_VERSION;

param_enum(qr, qr_when, "auto|on|off", "auto",
	   "the records as QR codes on the screen at the end (auto: on a PC without serial port)");
param_uint(qr_seconds, qr_seconds, 1, 3600, "30", "seconds each QR code stays without a key press");
param_uint(qr_version, qr_version, 5, 20, "20",
	   "largest QR version (5-20): lower gives more codes with larger modules");

#define DEBUGCON_PORT 0xe9
#define QUIET	      4 /* modules of light margin, the standard's minimum */

static struct qr_pages pages;
static bool dumps; /* run-qemu.sh --qr-dumps asked for the handshake */
static struct qr_code code;
static char page_text[QR_PAGE_TEXT_MAX];

/* ---- drawing one code ---- */

static void title(unsigned k, const struct qr_pages *p)
{
	char line[200];

	ksnprintf(line, sizeof(line),
		  "aslrbench records: QR code %u of %u, run %08X   any key: next, Backspace: back;"
		  " next in %u s",
		  k, p->count, p->run, qr_seconds);
	fbcon_set_color(FBCON_WHITE, FBCON_BLACK);
	fbcon_puts_at(1, 0, line);
}

static bool draw_code(unsigned k)
{
	uint32_t w, h, ch, px, side, x0, y0;

	if (k < 1 || k > pages.count || !qr_page_text(&pages, k, page_text, sizeof(page_text)) ||
	    !qr_encode(page_text, strnlen(page_text, sizeof(page_text)), QR_PAGES_ECC,
		       pages.max_version, &code) ||
	    !fbcon_geometry(&w, &h, &ch))
		return false;
	side = (uint32_t)code.size + 2 * QUIET;
	px = (h > ch * 2 ? h - ch * 2 : h) / side;
	if (w / side < px)
		px = w / side;
	if (!px)
		return false;
	fbcon_set_color(FBCON_WHITE, FBCON_BLACK);
	fbcon_clear();
	title(k, &pages);
	x0 = (w - side * px) / 2;
	y0 = ch * 2 + ((h > ch * 2 ? h - ch * 2 : 0) - side * px) / 2;
	fbcon_fill(x0, y0, side * px, side * px, FBCON_WHITE);
	for (int y = 0; y < code.size; y++)
		for (int x = 0; x < code.size; x++)
			if (qr_module(&code, x, y))
				fbcon_fill(x0 + (uint32_t)(x + QUIET) * px,
					   y0 + (uint32_t)(y + QUIET) * px, px, px, FBCON_BLACK);
	return true;
}

/* ---- paging ---- */

static bool host_dumps(void)
{
	char v[4];

	return fw_cfg_read_file("opt/aslrbench/qr-dump", v, sizeof(v)) > 0;
}

static void announce(unsigned k, unsigned n)
{
	char line[48];
	int len = ksnprintf(line, sizeof(line), "aslrbench: qr ready %u/%u\n", k, n);

	for (int i = 0; i < len && i < (int)sizeof(line); i++)
		outb(DEBUGCON_PORT, (uint8_t)line[i]);
}

/* +1: next, -1: previous; after qr_seconds without a key, next. */
static int wait_key(void)
{
	uint64_t hz = tsc_hz() ? tsc_hz() : 3000000000ULL, t0 = rdtsc();

	while (rdtsc() - t0 < hz * qr_seconds) {
		int c = kbd_getc();

		if (c == '\b' || c == 0x7f || c == 'p')
			return -1;
		if (c >= 0)
			return 1;
		cpu_relax();
	}
	return 1;
}

/* Shows every code once, from the first; false when none could be drawn. */
static bool one_pass(void)
{
	unsigned k = 1, shown = 0;

	while (k >= 1 && k <= pages.count) {
		if (!qr_screen_draw(k))
			return false;
		shown++;
		if (wait_key() < 0 && k > 1)
			k--;
		else
			k++;
	}
	return shown > 0;
}

int qr_screen_build(void)
{
	struct records_stats st;
	uint64_t ms;

	if (!fbcon_active()) {
		kprintf("qr: no screen console; the records are on serial only\n");
		return -ENODEV;
	}
	if (!qr_pages_build((int)qr_version, &pages)) {
		kprintf("qr: nothing to show: %u records, %lu bytes%s\n", pages.records,
			pages.text_len,
			pages.text_len
				? ", more than the QR screen's stream buffer or 999 codes hold"
				: "");
		return -ENODATA;
	}
	dumps = host_dumps();
	records_get_stats(&st);
	/* The TSC too: under run-qemu.sh --deterministic it counts the instructions so far. */
	ms = tsc_hz() >= 1000 ? rdtsc() / (tsc_hz() / 1000) : 0;
	kprintf("qr: %u records, %lu bytes, %lu deflated, in %u QR codes of version <= %d-M, "
		"run %08X, TSC at %lu.%03lu s\n",
		pages.records, pages.text_len, pages.zlen, pages.count, pages.max_version,
		pages.run, ms / 1000, ms % 1000);
	if (st.dropped)
		kprintf("qr: %u records (%lu bytes) did not fit in the %u-byte buffer; the last "
			"code's last line counts them\n",
			st.dropped, st.dropped_bytes, RECORDS_BUF);
	return (int)pages.count;
}

bool qr_screen_draw(unsigned k)
{
	if (!draw_code(k))
		return false;
	if (dumps)
		announce(k, pages.count);
	return true;
}

void qr_screen_done(void)
{
	fbcon_set_color(FBCON_LIGHT_GREY, FBCON_BLACK);
	fbcon_clear();
}

/* The screen the run ended on (mode=bench's summary) stays a while before the codes. */
static void lead_in(unsigned count)
{
	char line[120];

	if (dumps || !fbcon_rows())
		return;
	ksnprintf(line, sizeof(line),
		  "Next: this run's records as %u QR code%s, in %u s (any key: now)", count,
		  count == 1 ? "" : "s", qr_seconds);
	fbcon_set_color(FBCON_YELLOW, FBCON_BLACK);
	fbcon_puts_at(1, fbcon_rows() - 1, line);
	wait_key();
}

static bool hypervisor(void)
{
	uint32_t r[4];

	cpuid_count(1, 0, r);
	return r[2] & (1u << 31);
}

void qr_screen_at_exit(int status_code)
{
	bool auto_on = !serial_present() && !hypervisor();
	int n;

	if (status_code == EXIT_PANIC || qr_when == QR_OFF || (qr_when == QR_AUTO && !auto_on))
		return;
	n = qr_screen_build();
	if (n <= 0)
		return;
	lead_in((unsigned)n);
	/* Under QEMU one pass; a PC halts after this anyway: the codes go round for the camera. */
	while (one_pass() && !hypervisor())
		;
	qr_screen_done();
}
