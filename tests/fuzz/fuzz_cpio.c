/* libFuzzer target: kernel/fs/cpio.c must never read past the archive or crash. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/fs/cpio.h"

static int touch(void *ctx, const struct cpio_entry *e)
{
	volatile uint8_t x = 0;

	(void)ctx;
	x ^= (uint8_t)strlen(e->name);
	for (uint32_t i = 0; i < e->size; i++)
		x ^= e->data[i];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[200];

	cpio_parse(data, size, touch, 0, err, sizeof(err));
	return 0;
}
