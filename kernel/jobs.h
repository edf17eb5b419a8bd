#ifndef KERNEL_JOBS_H
#define KERNEL_JOBS_H

/* Runs what mode= asks for and ends the run with its status. */
__attribute__((noreturn)) void run_job(void);

#endif
