/*
 * rng [NAME]: shows the get_random_int() variant, or (root) selects NAME,
 * through /proc/sys/kernel/rng_variant, which checks the name and the
 * caller (EINVAL for an unknown variant, EACCES for a non-root writer).
 */
#include <fcntl.h>

#include "userland/lib/cmd.h"

#define RNG_FILE "/proc/sys/kernel/rng_variant"

int main(int argc, char **argv)
{
	char buf[64];
	ssize_t n;
	int fd;

	if (argc > 2) {
		fprintf(stderr, "rng: usage: rng [NAME]\n");
		return 2;
	}
	fd = open(RNG_FILE, argc == 2 ? O_WRONLY : O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "rng: %s\n", strerror(errno));
		return 1;
	}
	if (argc == 2) {
		n = write(fd, argv[1], strlen(argv[1]));
		if (n < 0) {
			fprintf(stderr, "rng: %s: %s\n", argv[1], strerror(errno));
			close(fd);
			return 1;
		}
	} else {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, stdout);
	}
	close(fd);
	return n < 0;
}
