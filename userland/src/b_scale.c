/*
 * The ring-3 half of mode=bench suite=scale: draws from the variant the
 * suite measures, 64 values a call (the rng_draw call), until killed.  The
 * suite runs one per CPU, pinned, and counts the draws per CPU itself;
 * until every one has started, the call says EAGAIN and they wait.
 */
#include "userland/lib/aslrbench_user.h"

int main(void)
{
	uint32_t v[64];
	long n;

	for (;;) {
		n = sys(__NR_rng_draw, 64, v);
		if (n == -EAGAIN) /* the suite is still starting the others */
			sleep_ms(1);
		else if (n != 64)
			return 1;
	}
}
