/*
 * pack.h - small byte blocks kept deflated, for the two joins that must hold
 * what a one-pass parser has seen (the op index and the Python-frame
 * index).
 *
 * Their contents repeat: a decode step runs the same ops and frames every
 * layer, so a few KB of codes deflate to a fraction. A ts_pack holds one
 * deflate and one inflate stream sized for blocks of at most
 * TS_PACK_MAX bytes (a 4 KB window: a few tens of KB for both), reused for
 * every block; it allocates nothing per call but the packed block itself.
 *
 * Packed blocks belong to the caller (free() them). Not thread-safe: one
 * ts_pack per index.
 */
#ifndef TS_PACK_H
#define TS_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TS_PACK_MAX (64u * 1024)     /* largest block packed */

typedef struct ts_pack ts_pack;

ts_pack *ts_pack_new(void);
void ts_pack_free(ts_pack *k);

/* src[0..n) deflated into a new malloc'd block of *zlen bytes, its first
 * `stored` bytes kept as they are (a column that would not shrink: noise
 * costs deflate as much as a pattern and saves little); NULL when
 * n > TS_PACK_MAX or memory ran out. */
uint8_t *ts_pack_deflate(ts_pack *k, const void *src, size_t n, size_t stored, size_t *zlen);

/* z[0..zlen), packed from exactly n bytes, inflated into dst[0..n); false
 * when it is not that (or memory ran out). */
bool ts_pack_inflate(ts_pack *k, const uint8_t *z, size_t zlen, void *dst, size_t n);

#endif
