#ifndef KERNEL_ATTACK_LAB_H
#define KERNEL_ATTACK_LAB_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/uapi/aslrbench.h" /* enum lab_region */

enum lab_strategy { LAB_PROC_LEAK, LAB_COLLISION, LAB_STATE_REPLAY, LAB_BRUTE_FORCE, LAB_NR };

struct lab_cell_result {
	uint32_t trials;
	uint32_t successes[LAB_NR_REGIONS];
	uint64_t guess_sum[LAB_NR_REGIONS];	/* guesses spent, over all trials */
	uint64_t guess_sum_hit[LAB_NR_REGIONS]; /* guesses spent in successful trials */
	uint32_t attempted[LAB_NR_REGIONS];	/* trials where the strategy made a guess */
};

extern const char *const lab_strategy_names[LAB_NR];
extern const char *const lab_region_names[LAB_NR_REGIONS];

/* Runs `trials` trials of one cell; 0, or -errno when the machinery failed. */
int lab_run_cell(enum lab_strategy s, const char *rng, int leak_fix, int ia32, uint32_t trials,
		 struct lab_cell_result *out);
/* Prints the cell's attack records and a table row. */
void lab_report_cell(enum lab_strategy s, const char *rng, int leak_fix, int ia32,
		     const struct lab_cell_result *r);
/* mode=attack: the full matrix, then the run ends. */
__attribute__((noreturn)) void job_attack(void);

#endif
