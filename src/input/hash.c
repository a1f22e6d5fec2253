/*
 * hash.c - a byte string's 64-bit hash (see hash.h): eight bytes at a
 * time, multiplied by the golden ratio and folded, then finalized.
 */
#include "input/hash.h"

#include <string.h>

uint64_t ts_hash_bytes(const char *s, size_t len)
{
	const uint64_t m = TS_HASH_GOLDEN;
	uint64_t h = 0x6a09e667f3bcc909ull ^ (len * m);
	while (len >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * m;
		h ^= h >> 29;
		s += 8;
		len -= 8;
	}
	uint64_t tail = 0;
	memcpy(&tail, s, len);
	h = (h ^ tail) * m;
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	h ^= h >> 32;
	return h;
}
