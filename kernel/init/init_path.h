#ifndef KERNEL_INIT_INIT_PATH_H
#define KERNEL_INIT_INIT_PATH_H

#include <stddef.h>

/* init=PATH: starts PATH as pid 1 (its pid); a failure ends the run. */
long start_init_path(void);

/* init=PATH; "" runs the built-in init. */
extern char init_path[256];

/*
 * The words after " -- ": init's arguments, as Linux's (init/main.c: "--"
 * ends the kernel's parameters; everything after goes to init).  Returns 0,
 * or -1 with a message in err.
 */
int init_path_set_args(const char *words, char *err, size_t errlen);

#endif
