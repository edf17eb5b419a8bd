/*
 * The record keeper: assembles console bytes into lines and keeps the
 * "@@ " ones.
 *
 * Why two slots besides the buffer: the boot record says which machine
 * and settings a run had and the summary whether it passed, so those two
 * go first on the QR screen (one photo identifies the run) and must
 * survive a full buffer.  When the buffer is full a record is counted,
 * not kept, and the count becomes a last line of the text; nothing is
 * overwritten and nothing here can fail louder than that.
 */
#include <stdbool.h>

#include "kernel/lib/records.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

#define SLOT_MAX 4096

static char line[RECORDS_LINE_MAX];
static size_t line_len;
static bool line_broken; /* too long, or bytes lost: dropped at its newline */

static char buf[RECORDS_BUF];
static size_t buf_len;
static char boot_slot[SLOT_MAX], summary_slot[SLOT_MAX];
static size_t boot_len, summary_len;
static struct records_stats stats;
static int busy; /* another CPU (or a fault report nested in a write) is here */

/* ---- storing a complete line ---- */

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

static bool to_slot(char *slot, size_t *slot_len)
{
	if (*slot_len || line_len + 1 > SLOT_MAX)
		return false;
	memcpy(slot, line, line_len);
	slot[line_len] = '\n';
	*slot_len = line_len + 1;
	return true;
}

static void store_line(void)
{
	if (!starts(line, line_len, "@@ "))
		return;
	if (line_broken) {
		stats.dropped++;
		stats.dropped_bytes += line_len;
		return;
	}
	if ((starts(line, line_len, "@@ {\"type\":\"boot\"") && to_slot(boot_slot, &boot_len)) ||
	    (starts(line, line_len, "@@ {\"type\":\"summary\"") &&
	     to_slot(summary_slot, &summary_len))) {
		stats.kept++;
		return;
	}
	if (buf_len + line_len + 1 > RECORDS_BUF) {
		stats.dropped++;
		stats.dropped_bytes += line_len + 1;
		return;
	}
	memcpy(buf + buf_len, line, line_len);
	buf[buf_len + line_len] = '\n';
	buf_len += line_len + 1;
	stats.kept++;
}

/* ---- the console's bytes ---- */

static bool enter(void)
{
	/* A short spin covers another CPU's write; a nested write gives up. */
	for (int i = 0; i < 1000000; i++)
		if (!__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
			return true;
	return false;
}

void records_feed(const char *s, size_t n)
{
	if (!s || !enter()) {
		line_broken = true; /* unlocked, but only ever set: at worst one line lost */
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n') {
			store_line();
			line_len = 0;
			line_broken = false;
		} else if (c == '\r') {
			continue;
		} else if (line_len < sizeof(line)) {
			line[line_len++] = c;
		} else {
			line_broken = true;
		}
	}
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

/* ---- reading them back ---- */

static size_t append(char *out, size_t cap, size_t pos, const char *s, size_t n)
{
	if (pos + n > cap)
		return pos;
	memcpy(out + pos, s, n);
	return pos + n;
}

/* The buffer's records one line at a time, each whole or not at all. */
static size_t append_lines(char *out, size_t cap, size_t pos)
{
	size_t start = 0;

	while (start < buf_len) {
		size_t end = start;

		while (end < buf_len && buf[end] != '\n')
			end++;
		pos = append(out, cap, pos, buf + start, end + 1 - start);
		start = end + 1;
	}
	return pos;
}

static size_t append_dropped(char *out, size_t cap, size_t pos)
{
	char tail[96];
	int n;

	if (!stats.dropped)
		return pos;
	n = ksnprintf(tail, sizeof(tail),
		      "@@ {\"type\":\"records_dropped\",\"records\":%u,\"bytes\":%lu}\n",
		      stats.dropped, stats.dropped_bytes);
	return n > 0 && (size_t)n < sizeof(tail) ? append(out, cap, pos, tail, (size_t)n) : pos;
}

size_t records_text(char *out, size_t cap)
{
	size_t pos = 0;

	if (!out || !enter())
		return 0;
	pos = append(out, cap, pos, summary_slot, summary_len);
	pos = append(out, cap, pos, boot_slot, boot_len);
	pos = append_lines(out, cap, pos);
	pos = append_dropped(out, cap, pos);
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
	return pos;
}

void records_get_stats(struct records_stats *st)
{
	*st = stats;
}

void records_reset(void)
{
	line_len = buf_len = boot_len = summary_len = 0;
	line_broken = false;
	memset(&stats, 0, sizeof(stats));
}
