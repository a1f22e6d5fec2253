/* Number text -> scaled integers, against hand values and a reference. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "numtext.h"
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
	return unit_failed != 0;
}
