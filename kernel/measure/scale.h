#ifndef KERNEL_MEASURE_SCALE_H
#define KERNEL_MEASURE_SCALE_H

/*
 * mode=bench suite=scale (kernel/measure/scale.c): every chosen variant
 * from 1 .. N CPUs at once, its rate and its per-call contention figures.
 * Counts what it measured and what failed.
 */
void scale_suite(unsigned int *measured, unsigned int *failed);

#endif
