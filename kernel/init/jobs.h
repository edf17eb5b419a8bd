#ifndef KERNEL_INIT_JOBS_H
#define KERNEL_INIT_JOBS_H

/* The job runs when init calls __NR_aslrbench_job (kernel/init/jobs.c). */

#endif
