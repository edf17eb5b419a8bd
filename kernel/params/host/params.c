/*
 * build/host/params: the kernel's command-line parser on the host, over
 * the kernel's own parameter table (the ".kparams" section of kernel.elf,
 * dumped into build/params.bin by the build), so that run-qemu.sh refuses
 * a bad line before QEMU starts, with the message the kernel would print.
 *
 *   params TABLE check LINE   exit 0 if the kernel accepts LINE, else 2
 *                             (run-qemu.sh's status for a bad command line)
 *                             with "aslrbench: bad command line: ..." on stderr
 *   params TABLE help         every key: accepted values, default, help line
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/params/param.h"

static void print_line(const char *line)
{
	puts(line);
}

static struct kernel_param *load(const char *path, size_t *count)
{
	FILE *f = fopen(path, "rb");
	struct kernel_param *t;
	long size = -1;

	if (!f) {
		perror(path);
		exit(66);
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    size % (long)sizeof(*t) || size == 0) {
		fprintf(stderr, "params: %s is not a parameter table (%ld bytes)\n", path, size);
		exit(65);
	}
	t = malloc((size_t)size);
	if (!t || fread(t, 1, (size_t)size, f) != (size_t)size) {
		fprintf(stderr, "params: cannot read %s\n", path);
		exit(65);
	}
	fclose(f);
	*count = (size_t)size / sizeof(*t);
	for (size_t i = 0; i < *count; i++) {
		if (!memchr(t[i].name, 0, sizeof(t[i].name)) || !t[i].name[0]) {
			fprintf(stderr, "params: %s: entry %zu is not a parameter\n", path, i);
			exit(65);
		}
		t[i].arg = NULL; /* the kernel's address: never written in check mode */
	}
	return t;
}

int main(int argc, char **argv)
{
	struct kernel_param *t;
	size_t n;
	char err[1024];

	if (argc == 3 && !strcmp(argv[2], "help")) {
		t = load(argv[1], &n);
		printf("Kernel command line: key=value words, then ' -- ' and init's "
		       "arguments.\n\n");
		params_help(t, t + n, print_line);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[2], "check")) {
		t = load(argv[1], &n);
		if (parse_args(argv[3], t, t + n, 1, err, sizeof(err)))
			return 0;
		fprintf(stderr, "aslrbench: bad command line: %s\n", err);
		return 2;
	}
	fprintf(stderr, "usage: params TABLE check LINE | params TABLE help\n");
	return 64;
}
