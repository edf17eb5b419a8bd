/* bench: the suites need the whole machine, so they run at boot (mode=bench). */
#include <stdio.h>

int main(void)
{
	printf("bench: boot with mode=bench (the suites need the whole machine)\n");
	return 0;
}
