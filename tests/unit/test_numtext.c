/* Number text -> scaled integers, against hand values and a reference. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/numtext.h"
#include "unit.h"

static void expect(const char *text, int scale, int64_t want)
{
	int64_t got = 0;
	ts_status st = ts_num_scaled(text, strlen(text), scale, &got);
	CHECK(st == TS_OK && got == want, "num '%s' x10^%d = %" PRId64 " (got %" PRId64 ")",
	      text, scale, want, got);
}

static void expect_fail(const char *text, int scale, ts_status want)
{
	int64_t got = 12345;
	ts_status st = ts_num_scaled(text, strlen(text), scale, &got);
	CHECK(st == want && got == 12345, "num '%s' rejected with %s", text,
	      ts_strerror(want));
}

/* Reference for "I.F" microseconds -> ns: integer arithmetic on digits. */
static void random_against_reference(void)
{
	unsigned long long seed = 0x1234567;
	int bad = 0;
	for (int i = 0; i < 200000; i++) {
		unsigned long long ip = unit_rand(&seed) % 9000000000000000ull; /* 16 digits, < INT64_MAX ns */
		int fdig = (int)(unit_rand(&seed) % 8);
		unsigned long long fp = unit_rand(&seed);
		char frac[16] = "";
		for (int k = 0; k < fdig; k++) {
			frac[k] = (char)('0' + fp % 10);
			fp /= 10;
		}
		frac[fdig] = '\0';
		char text[64];
		snprintf(text, sizeof text, fdig ? "%llu.%s" : "%llu%s", ip, frac);
		/* ns = ip * 1000 + first three fraction digits, rounded on the 4th. */
		__int128 want = (__int128)ip * 1000;
		int scale = 100;
		for (int k = 0; k < 3; k++, scale /= 10)
			if (k < fdig)
				want += (frac[k] - '0') * scale;
		if (fdig > 3 && frac[3] >= '5')
			want += 1;
		int64_t got;
		if (ts_num_scaled(text, strlen(text), 3, &got) != TS_OK || got != (int64_t)want) {
			if (bad++ < 5)
				printf("# mismatch for %s\n", text);
		}
	}
	CHECK(bad == 0, "200000 random 16.7-digit microsecond texts convert exactly to ns");
}


/* Integers of every length 1..19 (the eight-at-a-time path and the digit
 * loop) against strtoull, and the same texts with one byte replaced by a
 * neighbour of the digit range ('/', ':', or a high byte) rejected. */
static void integers_and_near_digits(void)
{
	unsigned long long seed = 0x9e3779b9;
	static const char near[] = { '/', ':', ' ', 'a', (char)0xb0, (char)0xf9, (char)0xff };
	int bad = 0;
	for (int i = 0; i < 100000; i++) {
		int ndig = 1 + (int)(unit_rand(&seed) % 19);
		char text[32];
		text[0] = (char)('1' + unit_rand(&seed) % 9);
		for (int k = 1; k < ndig; k++)
			text[k] = (char)('0' + unit_rand(&seed) % 10);
		text[ndig] = '\0';
		unsigned long long want = strtoull(text, NULL, 10);
		int64_t got;
		ts_status st = ts_num_scaled(text, (size_t)ndig, 0, &got);
		bool ok = want <= (unsigned long long)INT64_MAX ? st == TS_OK && (unsigned long long)got == want
							   : st == TS_ERR_RANGE;
		/* one byte that is not a digit, anywhere but an allowed place */
		int pos = (int)(unit_rand(&seed) % (unsigned)ndig);
		char c = near[unit_rand(&seed) % sizeof near];
		text[pos] = c;
		int64_t keep = 777;
		if (ts_num_scaled(text, (size_t)ndig, 0, &keep) != TS_ERR_JSON || keep != 777)
			ok = false;
		if (!ok && bad++ < 5)
			printf("# mismatch for %s (%d digits)\n", text, ndig);
	}
	CHECK(bad == 0, "100000 integers of 1..19 digits convert exactly; a non-digit byte in any position is rejected");
}

int main(void)
{
	expect("1428625731622.25", 3, 1428625731622250);
	expect("1717559238922998.123", 3, 1717559238922998123);
	expect("1717559238922998", 3, 1717559238922998000);
	/* 19 digits: the fast path's edge */
	expect("9223372036854775.807", 3, INT64_MAX);
	expect("-9223372036854775.807", 3, -INT64_MAX);
	expect("-9223372036854775.808", 3, INT64_MIN);
	expect_fail("9223372036854775.808", 3, TS_ERR_RANGE);
	expect_fail("9999999999999999.999", 3, TS_ERR_RANGE);
	expect("1.7e15", 3, 1700000000000000000);
	expect("1.7E+15", 3, 1700000000000000000);
	expect("18.112", 3, 18112);
	expect("0.0005", 3, 1);
	expect("0.0004999", 3, 0);
	expect("-0.0005", 3, -1);
	expect("-1.5", 0, -2);
	expect("1e-3", 3, 1);
	expect("2.0E+3", 3, 2000000);
	expect("000123.4", 3, 123400);
	expect("0", 3, 0);
	expect("-0", 0, 0);
	expect("0.1234567", 3, 123);
	/* digits past the scale round on the first of them, both signs */
	expect("-1.23456", 3, -1235);
	expect("2.0005", 3, 2001);
	expect("1.99951", 3, 2000);
	expect("0.9999", 0, 1);
	expect("1428625835054.1692", 3, 1428625835054169);
	expect("1428625835054.1695", 3, 1428625835054170);
	expect("1775078550123456789", 0, 1775078550123456789);
	expect("9223372036854775807", 0, INT64_MAX);
	expect("-9223372036854775808", 0, INT64_MIN);
	expect("123456789012345678901234567890e-20", 0, 1234567890);
	expect("0.000000000000000000000000000000000000000000000000001", 3, 0);
	expect("1.00000000000000000000000000000000000000000000000000009", 0, 1);
	expect_fail("9223372036854775808", 0, TS_ERR_RANGE);
	expect_fail("1e19", 0, TS_ERR_RANGE);
	expect_fail("9223372036854775.808", 3, TS_ERR_RANGE);
	expect_fail("1e99999999", 0, TS_ERR_RANGE);
	expect_fail("12abc", 0, TS_ERR_JSON);
	expect_fail("", 0, TS_ERR_JSON);
	expect_fail(".", 0, TS_ERR_JSON);
	expect_fail("-", 0, TS_ERR_JSON);
	expect_fail("1e", 0, TS_ERR_JSON);
	expect_fail("1.5x", 3, TS_ERR_JSON);
	expect_fail("Spans", 0, TS_ERR_JSON);
	random_against_reference();
	integers_and_near_digits();
	return unit_failed != 0;
}
