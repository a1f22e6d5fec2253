/*
 * numtext.c - JSON number text to exact scaled integers (microseconds with
 * fractions to integer nanoseconds), with no detour through double (see
 * numtext.h).
 */
#include "input/numtext.h"

#include <stdbool.h>
#include <string.h>

/* More significant digits than this cannot matter for an int64 result. */
#define MAX_DIGITS 40

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const int64_t pow10_table[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000,
};

/* INT64_MAX / 10^k: the largest value that scales by 10^k without overflow. */
static const uint64_t scale_limit[] = {
	INT64_MAX, INT64_MAX / 10, INT64_MAX / 100, INT64_MAX / 1000,
	INT64_MAX / 10000, INT64_MAX / 100000, INT64_MAX / 1000000,
	INT64_MAX / 10000000, INT64_MAX / 100000000, INT64_MAX / 1000000000,
};

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HAVE_EIGHT_DIGITS 1
/*
 * Eight ASCII digits read as one little-endian word and converted with three
 * multiplies (each step combines neighbouring groups: digits into pairs, pairs
 * into fours, fours into eight). Returns -1 when any byte is not '0'..'9'.
 */
static int64_t eight_digits(const char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	/* a digit byte has high nibble 3, and adding 6 leaves it 3 */
	uint64_t hi = w & 0xF0F0F0F0F0F0F0F0u;
	uint64_t hi6 = ((w + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4;
	if ((hi | hi6) != 0x3333333333333333u)
		return -1;
	w &= 0x0F0F0F0F0F0F0F0Fu;
	w = (w * (10 * 256 + 1)) >> 8;                 /* pairs in 16 bits */
	w = ((w & 0x00FF00FF00FF00FFu) * (100 * 65536 + 1)) >> 16;   /* fours */
	w = ((w & 0x0000FFFF0000FFFFu) * (10000 * 4294967296ull + 1)) >> 32;
	return (int64_t)w;
}

/* Four ASCII digits the same way, or -1. */
static int32_t four_digits_word(uint32_t w)
{
	uint32_t hi = w & 0xF0F0F0F0u;
	uint32_t hi6 = ((w + 0x06060606u) & 0xF0F0F0F0u) >> 4;
	if ((hi | hi6) != 0x33333333u)
		return -1;
	w &= 0x0F0F0F0Fu;
	w = (w * 10 + (w >> 8)) & 0x00FF00FFu;   /* pairs in bytes 0 and 2 */
	w = (w * 100 + (w >> 16)) & 0xFFFFu;
	return (int32_t)w;
}

static int32_t four_digits(const char *p)
{
	uint32_t w;
	memcpy(&w, p, 4);
	return four_digits_word(w);
}

/* ".ddd" at p: ddd, or -1 (the point read as a '0' digit). */
static int32_t point_three(const char *p)
{
	uint32_t w;
	memcpy(&w, p, 4);
	return four_digits_word((w & ~0xFFu) | '0');
}
#endif

/*
 * The common case, on every event: at most 19 digits (an epoch-microsecond
 * ts with 3 decimals has 19) up to the scale, an optional fraction (digits
 * past the scale only round, on the first of them), no exponent. Integer
 * digits go eight and four at a time while they last, then one at a time.
 * Returns false to defer to the general path.
 */
#ifdef HAVE_EIGHT_DIGITS
/*
 * Kineto's own form of a time, the most common number of all: up to 15
 * integer digits, a point and three decimals ("7781111985318.603"), its
 * integer digits taken eight, four and one at a time as their count
 * says, the decimals as one word. False: not that form (or not digits).
 */
static bool kineto_time(const char *s, size_t n, int64_t *out)
{
	if (n < 5 || s[n - 4] != '.')
		return false;
	bool neg = *s == '-';
	const char *p = s + neg, *point = s + n - 4;
	size_t m = (size_t)(point - p);
	if (m < 1 || m > 15)
		return false;
	uint64_t acc = 0;
	if (m >= 8) {
		int64_t e = eight_digits(p);
		if (e < 0)
			return false;
		acc = (uint64_t)e;
		p += 8;
	}
	if (point - p >= 4) {
		int32_t e = four_digits(p);
		if (e < 0)
			return false;
		acc = acc * 10000u + (uint64_t)e;
		p += 4;
	}
	for (; p < point; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (d > 9)
			return false;
		acc = acc * 10 + d;
	}
	int32_t f = point_three(point);
	if (f < 0)
		return false;
	int64_t v = (int64_t)(acc * 1000 + (uint64_t)f);
	*out = neg ? -v : v;
	return true;
}
#endif

static bool fast_path(const char *s, size_t n, int scale, int64_t *out)
{
#ifdef HAVE_EIGHT_DIGITS
	if (scale == 3 && kineto_time(s, n, out))
		return true;
#endif
	const char *p = s, *end = s + n;
	bool neg = p < end && *p == '-';
	p += neg;
	const char *int_start = p;
	uint64_t acc = 0;
#ifdef HAVE_EIGHT_DIGITS
	while (end - p >= 8) {
		int64_t e = eight_digits(p);
		if (e < 0)
			break;
		acc = acc * 100000000u + (uint64_t)e;   /* wraps past 19 digits: refused below */
		p += 8;
	}
	if (end - p >= 4) {
		int32_t e = four_digits(p);
		if (e >= 0) {
			acc = acc * 10000u + (uint64_t)e;
			p += 4;
		}
	}
#endif
	while (p < end && (unsigned)(*p - '0') < 10)
		acc = acc * 10 + (uint64_t)(*p++ - '0');
	size_t int_digits = (size_t)(p - int_start);
	int frac = 0;
	bool round_up = false;
	if (scale == 3 && (size_t)(end - p) - 2 < 3 && *p == '.' && int_digits - 1 < 15) {
		/* the usual fraction: one to three digits (Kineto writes ns in
		 * us, some writers drop trailing zeros); 15 integer digits and
		 * 3 more stay below 2^63 */
		uint64_t v = acc;
		unsigned k = (unsigned)(end - p) - 1;   /* three: kineto_time's, unless not digits */
		bool digits = true;
		for (unsigned i = 1; i <= 3; i++) {
			unsigned d = i <= k ? (unsigned)(p[i] - '0') : 0;
			digits &= d < 10;
			v = v * 10 + d;
		}
		if (digits) {
			*out = neg ? -(int64_t)v : (int64_t)v;
			return true;
		}
	}
	if (p < end && *p == '.') {
		const char *f = ++p;
		const char *fend = end - p > scale ? p + scale : end;
		while (p < fend && (unsigned)(*p - '0') < 10)
			acc = acc * 10 + (uint64_t)(*p++ - '0');
		frac = (int)(p - f);
		if (frac == scale && p < end && (unsigned)(*p - '0') < 10) {
			/* past the scale: round half away from zero on the
			 * first dropped digit, as the general path does */
			round_up = *p >= '5';
			while (p < end && (unsigned)(*p - '0') < 10)
				p++;
		} else if (frac == 0) {
			return false;
		}
	}
	int shift = scale - frac;
	if (p != end || int_digits == 0 || int_digits + (size_t)frac > 19 ||
	    shift < 0 || shift > 9)
		return false;
	/* acc < 10^19 fits in 64 bits; scaling by up to 10^9 may not. */
	if (acc > scale_limit[shift])
		return false;
	int64_t v = (int64_t)acc * pow10_table[shift];
	if (round_up) {
		if (v == INT64_MAX)
			return false;
		v++;
	}
	*out = neg ? -v : v;
	return true;
}

/* Exponents, long mantissas, rounding: digit by digit. Kept out of line so
 * the fast path does not pay for its frame. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static ts_status general_path(const char *s, size_t n, int scale, int64_t *out)
{
	char digits[MAX_DIGITS];
	int ndigits = 0;     /* significant digits kept */
	long exp10 = scale;  /* value = digits * 10^exp10 */
	bool neg = false, any = false;
	size_t i = 0;

	if (i < n && s[i] == '-') {
		neg = true;
		i++;
	}
	for (; i < n && is_digit(s[i]); i++) {
		any = true;
		if (ndigits == 0 && s[i] == '0')
			continue;            /* leading zero */
		if (ndigits < MAX_DIGITS)
			digits[ndigits++] = (char)(s[i] - '0');
		else
			exp10++;             /* dropped integer digit */
	}
	if (i < n && s[i] == '.') {
		i++;
		for (; i < n && is_digit(s[i]); i++) {
			any = true;
			if (ndigits == 0 && s[i] == '0') {
				exp10--;
				continue;
			}
			if (ndigits < MAX_DIGITS) {
				digits[ndigits++] = (char)(s[i] - '0');
				exp10--;
			}
		}
	}
	if (!any)
		return TS_ERR_JSON;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		bool eneg = false;
		long e = 0;
		bool edig = false;
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		for (; i < n && is_digit(s[i]); i++) {
			edig = true;
			if (e < 100000)
				e = e * 10 + (s[i] - '0');
		}
		if (!edig)
			return TS_ERR_JSON;
		exp10 += eneg ? -e : e;
	}
	if (i != n)
		return TS_ERR_JSON;

	/* Integer part: the first ndigits + exp10 digits (all when exp10 >= 0). */
	long keep = exp10 >= 0 ? ndigits : ndigits + exp10;
	uint64_t acc = 0;
	const uint64_t limit = (uint64_t)INT64_MAX + (neg ? 1u : 0u);
	for (long k = 0; k < keep && k < ndigits; k++) {
		if (acc > (limit - (uint64_t)digits[k]) / 10)
			return TS_ERR_RANGE;
		acc = acc * 10 + (uint64_t)digits[k];
	}
	if (exp10 > 0 && acc != 0) {
		for (long k = 0; k < exp10; k++) {
			if (acc > limit / 10)
				return TS_ERR_RANGE;
			acc *= 10;
		}
	}
	/* Round half away from zero on the first dropped digit. */
	if (keep >= 0 && keep < ndigits && digits[keep] >= 5) {
		if (acc == limit)
			return TS_ERR_RANGE;
		acc++;
	}
	if (neg)
		*out = acc == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)acc;
	else
		*out = (int64_t)acc;
	return TS_OK;
}

ts_status ts_num_scaled(const char *s, size_t n, int scale, int64_t *out)
{
	if (fast_path(s, n, scale, out))
		return TS_OK;
	return general_path(s, n, scale, out);
}
