#ifndef KERNEL_INIT_INIT_PATH_H
#define KERNEL_INIT_INIT_PATH_H

/* init=PATH: starts PATH as pid 1 (its pid); a failure ends the run. */
long start_init_path(void);

#endif
