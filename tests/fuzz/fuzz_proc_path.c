/* libFuzzer target: the /proc path parser must never misbehave on any bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/errno.h"
#include "kernel/fs/proc/path.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[PROC_PATH_MAX + 64];
	struct proc_path pp;
	size_t n = size < sizeof(path) - 1 ? size : sizeof(path) - 1;
	int rc;

	memcpy(path, data, n);
	path[n] = '\0';
	rc = proc_parse_path(path, &pp);
	if (rc != 0 && rc != -ENOENT && rc != -ENAMETOOLONG)
		abort();
	if (rc == 0 && (strncmp(path, "/proc", 5) || strstr(path, "..") || strstr(path, "//")))
		abort(); /* accepted something outside the grammar */
	if (rc == 0 && pp.node >= PROC_NODE_COUNT)
		abort();
	return 0;
}
