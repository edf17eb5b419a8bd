#ifndef KERNEL_TASK_LOADAVG_H
#define KERNEL_TASK_LOADAVG_H

/* Linux's fixed point for the load averages: 11 fraction bits. */
#define FSHIFT	     11
#define FIXED_1	     (1UL << FSHIFT)
#define LOAD_INT(x)  ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

extern unsigned long avenrun[3]; /* 1, 5 and 15 minutes, fixed point */
void calc_global_load(void);	 /* every tick of the boot CPU */
unsigned int nr_running(void);	 /* tasks runnable or running */

#endif
