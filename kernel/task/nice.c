/*
 * Nice levels, as Linux 6.6 keeps them (linux/kernel/sched/core.c): a task's nice
 * (-20 .. 19), inherited at fork, and the weight CFS gives it.
 *
 * Why weights and not Linux 2.6's timeslices: the shares they give are what
 * a program sees on any Linux since 2.6.23, each level about 10 % more or
 * less CPU than the next (the ratio 1.25 between neighbours).  rq.c spends
 * them: a task's turns and load are its weight (NICE_0_LOAD at nice 0), so
 * two CPU-bound tasks on one CPU get CPU time in the ratio of their weights.
 */
#include "kernel/task/nice.h"
#include "kernel/task/sched_signal.h"
#include "kernel/task/task.h"
#include "kernel/uapi/aslrbench.h"

/* sched_prio_to_weight (6.6 linux/kernel/sched/core.c): nice -20 .. 19. */
static const unsigned int sched_prio_to_weight[NICE_WIDTH] = {
	88761, 71755, 56483, 46273, 36291, /* -20 .. -16 */
	29154, 23254, 18705, 14949, 11916, /* -15 .. -11 */
	9548,  7620,  6100,  4904,  3906,  /* -10 ..  -6 */
	3121,  2501,  1991,  1586,  1277,  /*  -5 ..  -1 */
	1024,  820,   655,   526,   423,   /*   0 ..   4 */
	335,   272,   215,   172,   137,   /*   5 ..   9 */
	110,   87,    70,    56,    45,	   /*  10 ..  14 */
	36,    29,    23,    18,    15,	   /*  15 ..  19 */
};

unsigned int nice_to_weight(int nice)
{
	return sched_prio_to_weight[nice_clamp(nice) - MIN_NICE];
}

int task_nice(const struct task_struct *p)
{
	return p->nice;
}

/*
 * can_nice (6.6): a nice below the task's present one needs its
 * RLIMIT_NICE (rlimit style: 20 - nice, 1 .. 40) or CAP_SYS_NICE.
 */
bool can_nice(const struct task_struct *p, int nice)
{
	uint64_t nice_rlim = (uint64_t)(20 - nice);

	return nice_rlim <= p->signal->rlim_nice.cur ||
	       (current->cred.cap_effective & (1ULL << CAP_SYS_NICE));
}

/* The new weight counts from the task's next turn and its next enqueue (rq.c). */
void set_user_nice(struct task_struct *p, int nice)
{
	nice = nice_clamp(nice);
	if (p->nice != nice)
		p->sched_credit = 0; /* credit earned at the old weight */
	p->nice = nice;
}
