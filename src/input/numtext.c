#include "numtext.h"

#include <stdbool.h>

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

/*
 * The common case, on every event: at most 19 digits (an epoch-microsecond
 * ts with 3 decimals has 19), an optional fraction
 * of at most `scale` digits, no exponent: exact, no rounding. Two tight
 * loops (integer part, then fraction) keep it to a few cycles a digit.
 * Returns false to defer to the general path.
 */
static bool fast_path(const char *s, size_t n, int scale, int64_t *out)
{
	const char *p = s, *end = s + n;
	bool neg = p < end && *p == '-';
	p += neg;
	const char *int_start = p;
	uint64_t acc = 0;
	while (p < end && (unsigned)(*p - '0') < 10)
		acc = acc * 10 + (uint64_t)(*p++ - '0');
	size_t int_digits = (size_t)(p - int_start);
	int frac = 0;
	if (p < end && *p == '.') {
		const char *f = ++p;
		while (p < end && (unsigned)(*p - '0') < 10)
			acc = acc * 10 + (uint64_t)(*p++ - '0');
		frac = (int)(p - f);
		if (frac == 0)
			return false;
	}
	int shift = scale - frac;
	if (p != end || int_digits == 0 || int_digits + (size_t)frac > 19 ||
	    shift < 0 || shift > 9)
		return false;
	/* acc < 10^19 fits in 64 bits; scaling by up to 10^9 may not. */
	if (acc > (uint64_t)INT64_MAX / (uint64_t)pow10_table[shift])
		return false;
	int64_t v = (int64_t)acc * pow10_table[shift];
	*out = neg ? -v : v;
	return true;
}

ts_status ts_num_scaled(const char *s, size_t n, int scale, int64_t *out)
{
	if (fast_path(s, n, scale, out))
		return TS_OK;

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
