/* mode=fuzz: the syscall fuzzer's kernel side (fuzz_job.c). */
#ifndef KERNEL_TEST_FUZZ_H
#define KERNEL_TEST_FUZZ_H

__attribute__((noreturn)) void job_fuzz(void);

#endif
