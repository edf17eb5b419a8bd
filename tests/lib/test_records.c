/*
 * Host unit test of the record keeper (kernel/lib/records.c, the file the
 * kernel links): lines assembled across writes, only "@@ " lines kept,
 * the summary and the boot record first, and a full buffer: later
 * records counted, not kept, never written past the end, and the summary
 * still first.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/records.h"
#include "tests/lib/tap_check.h"

static char out[RECORDS_BUF + 16384];

static void feed(const char *s)
{
	records_feed(s, strlen(s));
}

static const char *text(void)
{
	size_t n = records_text(out, sizeof(out) - 1);

	out[n] = '\0';
	return out;
}

START_TEST(lines_and_order)
{
	records_reset();
	feed("booting\n@@ {\"type\":\"bench\",\"n\":1}\r\n");
	feed("@@ {\"type\":\"bo");
	feed("ot\",\"x\":1}\nplain text @@ not a record\n");
	feed("@@ {\"type\":\"summary\",\"passed\":1}\n");
	feed("@@ {\"type\":\"summary\",\"passed\":2}\n@@ unfinished");
	ck_assert_str_eq(text(), "@@ {\"type\":\"summary\",\"passed\":1}\n"
				 "@@ {\"type\":\"boot\",\"x\":1}\n"
				 "@@ {\"type\":\"bench\",\"n\":1}\n"
				 "@@ {\"type\":\"summary\",\"passed\":2}\n");
}
END_TEST

START_TEST(full_buffer)
{
	struct records_stats st;
	char line[200];
	unsigned i;

	records_reset();
	feed("@@ {\"type\":\"boot\"}\n");
	for (i = 0; i < 2000; i++) {
		snprintf(line, sizeof(line),
			 "@@ {\"type\":\"bench\",\"i\":%04u,\"pad\":\"%0100d\"}\n", i, 0);
		feed(line);
	}
	feed("@@ {\"type\":\"summary\",\"status\":0}\n");
	records_get_stats(&st);
	/* 138-byte lines: 1899 fit in 256 KiB, the other 101 are counted */
	ck_assert_uint_eq(strlen(line), 138);
	ck_assert_uint_eq(st.kept, 2 + RECORDS_BUF / 138);
	ck_assert_uint_eq(st.dropped, 2000 - RECORDS_BUF / 138);
	ck_assert_uint_eq(st.dropped_bytes, (uint64_t)st.dropped * 138);
	text();
	ck_assert(!strncmp(out, "@@ {\"type\":\"summary\",\"status\":0}\n@@ {\"type\":\"boot\"}\n",
			   52));
	snprintf(line, sizeof(line),
		 "@@ {\"type\":\"records_dropped\",\"records\":%u,\"bytes\":%lu}\n", st.dropped,
		 (unsigned long)st.dropped_bytes);
	ck_assert_str_eq(out + strlen(out) - strlen(line), line);
}
END_TEST

START_TEST(long_line_and_small_cap)
{
	static char big[RECORDS_LINE_MAX + 100];
	struct records_stats st;
	size_t n;

	records_reset();
	memset(big, 'x', sizeof(big) - 1);
	memcpy(big, "@@ ", 3);
	feed(big);
	feed("\n@@ {\"type\":\"bench\",\"a\":1}\n@@ {\"type\":\"bench\",\"b\":2}\n");
	records_get_stats(&st);
	ck_assert_uint_eq(st.dropped, 1);
	ck_assert_uint_eq(st.kept, 2);
	/* a short buffer gets whole lines only */
	n = records_text(out, 40);
	out[n] = '\0';
	ck_assert_str_eq(out, "@@ {\"type\":\"bench\",\"a\":1}\n");
	ck_assert_uint_eq(records_text(NULL, 10), 0);
	records_feed(NULL, 5);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("records");
	TCase *t = tcase_create("records");

	tcase_add_test(t, lines_and_order);
	tcase_add_test(t, full_buffer);
	tcase_add_test(t, long_line_and_small_cap);
	suite_add_tcase(s, t);
	return tap_run_suite(s);
}
