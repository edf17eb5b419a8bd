#ifndef KERNEL_JOBS_H
#define KERNEL_JOBS_H

/* The job runs when init calls __NR_aslrbench_job (kernel/jobs.c). */

#endif
