/*
 * hash.c - a byte string's 64-bit hash (see hash.h): 32 bytes at a time
 * in four lanes while they last, then sixteen in two, each word xored
 * in, multiplied by the golden ratio and rotated (high bits fold down
 * into the next multiply), then the lanes combined and finalized.
 */
#include "input/base/hash.h"

#include <string.h>

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t word(const char *s)
{
	uint64_t w;
	memcpy(&w, s, 8);
	return w;
}

uint64_t ts_hash_bytes(const char *s, size_t len)
{
	const uint64_t m = TS_HASH_GOLDEN;
	uint64_t a = 0x6a09e667f3bcc909ull ^ (len * m), b = 0xbb67ae8584caa73bull;
	if (len >= 32) {
		uint64_t c = 0x3c6ef372fe94f82bull, d = 0xa54ff53a5f1d36f1ull;
		do {
			a = rotl((a ^ word(s)) * m, 31);
			b = rotl((b ^ word(s + 8)) * m, 29);
			c = rotl((c ^ word(s + 16)) * m, 27);
			d = rotl((d ^ word(s + 24)) * m, 25);
			s += 32;
			len -= 32;
		} while (len >= 32);
		a ^= rotl(c, 13);
		b ^= rotl(d, 7);
	}
	while (len >= 16) {
		a = rotl((a ^ word(s)) * m, 31);
		b = rotl((b ^ word(s + 8)) * m, 29);
		s += 16;
		len -= 16;
	}
	if (len >= 8) {
		a = rotl((a ^ word(s)) * m, 31);
		s += 8;
		len -= 8;
	}
	uint64_t tail = 0;
	memcpy(&tail, s, len);
	uint64_t h = (a ^ rotl(b, 17) ^ tail) * m;
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	h ^= h >> 32;
	return h;
}
