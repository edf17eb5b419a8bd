/* Exits at once: what the spawn benchmark starts. */
#include "userland/lib/aslrbench_user.h"

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}
