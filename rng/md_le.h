/* md_le.h - RFC 1320/1321 message framing shared by the MD4 and MD5 digests */
#ifndef RNG_MD_LE_H
#define RNG_MD_LE_H

#include <stddef.h>
#include <stdint.h>

/* One compression over 16 little-endian words. */
typedef void (*md_le_transform_fn)(uint32_t hash[4], const uint32_t in[16]);

/* The full hash of msg: padding, little-endian length, four output words. */
void md_le_digest(md_le_transform_fn transform, const void *msg, size_t len, uint8_t out[16]);

#endif /* RNG_MD_LE_H */
