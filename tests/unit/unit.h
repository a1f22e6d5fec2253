/*
 * unit.h - a tiny test harness: each CHECK prints one TAP-like line,
 * "ok - what" or "not ok - what (file:line)", which tests/run.sh counts.
 */
#ifndef TS_TEST_UNIT_H
#define TS_TEST_UNIT_H

#include <stdio.h>

static int unit_failed;

#define CHECK(cond, ...)                                                      \
	do {                                                                  \
		if (cond) {                                                   \
			printf("ok - ");                                      \
		} else {                                                      \
			printf("not ok - ");                                  \
			unit_failed++;                                        \
		}                                                             \
		printf(__VA_ARGS__);                                          \
		if (!(cond))                                                  \
			printf(" (%s:%d)", __FILE__, __LINE__);               \
		printf("\n");                                                 \
	} while (0)

/* Deterministic pseudo-random numbers (xorshift64*). */
static inline unsigned long long unit_rand(unsigned long long *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

#endif
