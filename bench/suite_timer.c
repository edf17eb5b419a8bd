/* The "timer" suite: what an empty measurement costs. */
#include "bench/platform.h"
#include "bench/suites.h"

int bench_suite_timer(struct bench_config *cfg, struct bench_run *run)
{
	struct bench_result res;
	struct bench_row *row;
	unsigned first = run->nrows;

	if (bench_calibrate(cfg, &res)) {
		bench_emit("bench: timer: not measured (sizes beyond the limits or no scratch "
			   "memory)");
		run->failed++;
		return -1;
	}
	res.overhead = 0; /* this is the floor itself: nothing subtracted */
	bench_emit_record(&res, "timer", "none", "cycles_per_call", "cycles");
	run->measured++;
	row = bench_run_row(run, "empty call (floor)");
	if (row) {
		row->available = true;
		row->median_m = res.st.median_m;
		row->mean_m = res.st.mean_m;
		row->min = res.st.min;
		row->p99 = res.st.p99;
	}
	bench_run_table(run, first, "timer");
	return 0;
}
