/* libFuzzer target: do_task_stat's formatter, any field values, any buffer size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fs/proc/stat_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct task_stat_fields f;
	char buf[4096 + 16];
	size_t cap;
	int n, spaces = 0;

	if (size < sizeof(f) + 2)
		return 0;
	memcpy(&f, data, sizeof(f));
	f.fields52 = data[0] & 1; /* a bool holds 0 or 1 only */
	cap = ((size_t)data[sizeof(f)] << 8 | data[sizeof(f) + 1]) % 4096 + 1;
	memset(buf, 0x5a, sizeof(buf));
	n = format_task_stat(buf, cap, &f);
	if (n < 0 || memchr(buf, '\0', cap) == NULL)
		abort(); /* must always terminate inside the buffer */
	for (size_t i = cap; i < sizeof(buf); i++)
		if (buf[i] != 0x5a)
			abort(); /* wrote past the end */
	if ((size_t)n < cap) {
		/* A complete line: 44 (52) fields, 42 (50) separators after the comm. */
		const char *r = strrchr(buf, ')');

		for (const char *p = r; p && *p; p++)
			spaces += *p == ' ';
		if (!r || spaces != (f.fields52 ? 50 : 42) || buf[n - 1] != '\n')
			abort();
	}
	return 0;
}
