/*
 * lx_layout: where a static PIE (gcc -static-pie: ET_DYN, no PT_INTERP)
 * finds itself and its brk, checked against one rule set's placement.  The
 * same binary runs on the host's Linux (6.x) and in the kernel under
 * aslr_rules=2.6.29 or 6.x (tests/qemu/boots.conf, tests/sh/linux-abi.sh).
 *
 * usage: lx_layout 6.x|2.6.29
 *
 *   6.x (Linux 6.12 fs/binfmt_elf.c:1136-1162, 1308-1325): a loader has
 *     load_bias 0 and is mapped by mmap, top-down in the mmap area, below
 *     TASK_SIZE - (RLIMIT_STACK + 16 GiB + 1 MiB) and at most 2^28 pages
 *     further down; its brk moves to ELF_PAGEALIGN(ELF_ET_DYN_BASE) =
 *     0x555555555000 and randomize_page() adds less than 1 GiB.
 *   2.6.29 (fs/binfmt_elf.c:839-847): load_bias 0, the first PT_LOAD
 *     top-down below mmap_base (TASK_SIZE - 128 MiB - at most 2^28 pages);
 *     the brk follows the bss, randomize_range() adds at most 32 MiB.
 *
 * The brk's start is the [heap] line of /proc/self/maps (glibc's static
 * start-up takes its TLS from the brk), else sbrk(0).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lx_check.h"

#define PAGE	  4096ULL
#define TASK_SIZE 0x7ffffffff000ULL /* DEFAULT_MAP_WINDOW */

extern char __ehdr_start[], _end[];

static uint64_t heap_start(void)
{
	char line[512];
	uint64_t start = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[heap]"))
			start = strtoull(line, 0, 16);
	if (f)
		fclose(f);
	return start ? start : (uint64_t)(uintptr_t)sbrk(0);
}

int main(int argc, char **argv)
{
	uint64_t exe = (uint64_t)(uintptr_t)__ehdr_start, end = (uint64_t)(uintptr_t)_end;
	uint64_t brk = heap_start(), rlim = 8ULL << 20, hi, lo;
	struct rlimit rl;
	int six = argc > 1 && !strcmp(argv[1], "6.x");

	if (argc != 2 || (!six && strcmp(argv[1], "2.6.29"))) {
		fprintf(stderr, "usage: lx_layout 6.x|2.6.29\n");
		return 2;
	}
	if (!getrlimit(RLIMIT_STACK, &rl) && rl.rlim_cur != RLIM_INFINITY)
		rlim = rl.rlim_cur;
	printf("exe 0x%llx end 0x%llx brk 0x%llx\n", (unsigned long long)exe,
	       (unsigned long long)end, (unsigned long long)brk);
	check(exe % PAGE == 0 && brk % PAGE == 0, "exe and brk start on pages");
	if (six) {
		uint64_t gap = rlim + (0x3fffffULL << 12) + (256 * PAGE);

		if (gap < (128ULL << 20))
			gap = 128ULL << 20;
		hi = TASK_SIZE - gap;
		lo = hi - ((1ULL << 28) * PAGE) - (end - exe) - (64ULL << 20);
		check(exe < hi && exe > lo, "exe in the mmap area (load_bias 0, mapped by mmap)");
		check(end <= hi, "exe below the highest mmap_base");
		check(brk >= 0x555555555000ULL && brk < 0x555555555000ULL + (1ULL << 30),
		      "brk at ELF_PAGEALIGN(ELF_ET_DYN_BASE) + less than 1 GiB");
	} else {
		hi = TASK_SIZE - (128ULL << 20);
		lo = hi - ((1ULL << 28) * PAGE) - (64ULL << 20);
		check(exe < hi && exe > lo, "exe right below mmap_base (load_bias 0)");
		lo = (end + PAGE - 1) & ~(PAGE - 1);
		check(brk >= lo && brk <= lo + (32ULL << 20),
		      "brk after the bss, at most 32 MiB on");
	}
	return summary("lx_layout");
}
