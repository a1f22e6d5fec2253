/*
 * satmath.h - sums that stop at the end of int64 instead of wrapping.
 *
 * Durations are capped when parsed (see parser.c), but a hostile trace can
 * still hold millions of events at the cap: every running sum of
 * nanoseconds saturates at INT64_MAX (292 years) rather than overflow.
 */
#ifndef TS_SATMATH_H
#define TS_SATMATH_H

#include <stdint.h>

static inline int64_t ts_sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* Counts added from saved partials stop at UINT64_MAX too. */
static inline uint64_t ts_sat_addu(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static inline uint32_t ts_sat_addu32(uint32_t a, uint32_t b)
{
	return a + b < a ? UINT32_MAX : a + b;
}

#endif
