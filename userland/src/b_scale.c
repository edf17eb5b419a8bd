/*
 * The ring-3 half of mode=bench suite=scale: draws from the variant the
 * suite measures, 64 values a call (the rng_draw call), until killed.  The
 * suite runs one per CPU, pinned, and counts the draws per CPU itself.
 */
#include "userland/lib/aslrbench_user.h"

int main(void)
{
	uint32_t v[64];

	for (;;)
		if (sys(__NR_rng_draw, 64, v) != 64)
			return 1;
}
