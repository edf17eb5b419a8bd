/* pid allocation on a bitmap (pidmap.h says why and whose rules). */
#include "kernel/task/pidmap.h"

/* The first free pid in [from, to), or -1. */
static int find_free_pid(const uint64_t *map, int from, int to)
{
	for (int pid = from; pid < to;) {
		uint64_t free = ~map[pid / 64] >> (pid % 64);

		if (free) {
			pid += __builtin_ctzll(free);
			return pid < to ? pid : -1;
		}
		pid = (pid / 64 + 1) * 64;
	}
	return -1;
}

int pidmap_alloc(uint64_t map[PID_MAX / 64], int last, int max)
{
	int start, pid;

	if (max <= RESERVED_PIDS || max > PID_MAX)
		max = PID_MAX;
	start = last >= 0 && last + 1 < max ? last + 1 : RESERVED_PIDS;
	pid = find_free_pid(map, start, max);

	if (pid < 0)
		pid = find_free_pid(map, RESERVED_PIDS, start);
	if (pid < 0)
		return -1;
	map[pid / 64] |= 1ULL << (pid % 64);
	return pid;
}

void pidmap_free(uint64_t map[PID_MAX / 64], int pid)
{
	if (pid > 0 && pid < PID_MAX)
		map[pid / 64] &= ~(1ULL << (pid % 64));
}
