/*
 * numtext.h - exact conversion of JSON number text to scaled integers.
 *
 * Trace timestamps are microseconds written as decimal text (1428625731622.25,
 * 1717559238922998.123, 1.7e15). Going through a double loses nanoseconds
 * above 2^53 ns, so the text itself is scaled: ts_num_scaled(text, 3) gives
 * nanoseconds. The text is borrowed and need not be NUL-terminated.
 */
#ifndef TS_NUMTEXT_H
#define TS_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "input/base/status.h"

/*
 * Parse a JSON number (optional '-', digits, optional fraction, optional
 * exponent) and store value * 10^scale in *out, rounded half away from zero.
 * Returns TS_ERR_JSON when the text is not a number and TS_ERR_RANGE when the
 * result does not fit in int64_t; *out is untouched on error.
 */
ts_status ts_num_scaled(const char *text, size_t len, int scale, int64_t *out);

/* ts_num_scaled with scale 0: integers (ids, byte counts, base time).
 * Plain non-negative integers of up to 18 digits, the common case, take the
 * digit loop alone; anything else goes the general way. */
static inline ts_status ts_num_int64(const char *text, size_t len, int64_t *out)
{
	if (len - 1 < 18) {
		uint64_t acc = 0;
		size_t i = 0;
		for (; i < len; i++) {
			unsigned d = (unsigned)(unsigned char)text[i] - '0';
			if (d > 9)
				break;
			acc = acc * 10 + d;
		}
		if (i == len) {
			*out = (int64_t)acc;
			return TS_OK;
		}
	}
	return ts_num_scaled(text, len, 0, out);
}

#endif
