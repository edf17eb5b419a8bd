/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_HOST_REPLAY_CRNG_H
#define RNG_HOST_REPLAY_CRNG_H

/* `replay chacha20-batched` options after the variant name; NULL on
 * success (values printed), else the error message for the usage exit */
const char *replay_crng(int argc, char **argv);

#endif
