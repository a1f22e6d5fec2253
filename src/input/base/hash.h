/*
 * hash.h - the project's hashes, in one place: a byte string's (the
 * interned names, call sites, graph nodes), a 64-bit key's finalizer (the
 * layer finder's dense keys and sequences), a running combination of
 * several keys (a graph's node sequence), and the Fibonacci multiplier
 * whose high bits index the correlation tables. None is cryptographic:
 * a trace can collide them, and every table that uses one compares the
 * full key.
 */
#ifndef TS_HASH_H
#define TS_HASH_H

#include <stddef.h>
#include <stdint.h>

#define TS_HASH_GOLDEN 0x9e3779b97f4a7c15ull   /* 2^64 / the golden ratio */

/* A fast 64-bit hash of a byte string. */
uint64_t ts_hash_bytes(const char *s, size_t len);

/* A 64-bit key, its bits mixed (MurmurHash3's finalizer). */
static inline uint64_t ts_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

/* h with v folded in: a hash of a sequence, one value at a time. */
static inline uint64_t ts_hash_combine(uint64_t h, uint64_t v)
{
	h ^= v + TS_HASH_GOLDEN + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

/* Fibonacci hashing: the slot of key k in a table of 2^bits slots is
 * the top bits of the product (k * golden) >> shift, masked. */
static inline uint64_t ts_hash_fib(uint64_t k)
{
	return k * TS_HASH_GOLDEN;
}

#endif
