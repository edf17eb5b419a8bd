/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_HALFMD4_H
#define RNG_HALFMD4_H

#include <stdint.h>

/*
 * half_md4_transform - Linux lib/halfmd4.c: the three MD4 rounds over an
 * 8-word block, feed-forward added into @buf; returns buf[1] after the add.
 */
uint32_t half_md4_transform(uint32_t buf[4], const uint32_t in[8]);

#endif
