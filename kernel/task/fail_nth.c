/* Allocation-failure injection: see fail_nth.h. */
#include "kernel/task/fail_nth.h"
#include "kernel/task/task.h"

bool should_fail_alloc(void)
{
	struct task_struct *t = current;

	/* Before the scheduler there is no task, and the idle task never arms it. */
	if (!t || !t->fail_nth)
		return false;
	return --t->fail_nth == 0;
}
