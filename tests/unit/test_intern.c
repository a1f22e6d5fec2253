/* Interning: dense ids, stable strings, caps, binary-safe keys. */
#include <stdio.h>
#include <string.h>

#include "input/base/intern.h"
#include "unit.h"

static void basics(void)
{
	ts_intern *in = ts_intern_new(100, 1 << 16);
	uint32_t a, b, c;
	CHECK(ts_intern_put(in, "alpha", 5, &a) == TS_OK && a == 0, "first string gets id 0");
	CHECK(ts_intern_put(in, "beta", 4, &b) == TS_OK && b == 1, "second string gets id 1");
	CHECK(ts_intern_put(in, "alphabet", 5, &c) == TS_OK && c == 0,
	      "the same bytes (borrowed, not NUL-terminated) get the same id");
	size_t len;
	const char *s = ts_intern_str(in, 1, &len);
	CHECK(len == 4 && strcmp(s, "beta") == 0, "strings come back NUL-terminated with length");
	CHECK(ts_intern_find(in, "beta", 4) == 1 && ts_intern_find(in, "gamma", 5) == TS_INTERN_NONE,
	      "find does not insert");
	CHECK(ts_intern_put(in, "a\0b", 3, &a) == TS_OK && ts_intern_put(in, "a\0c", 3, &b) == TS_OK &&
	      a != b, "embedded NUL bytes are part of the key");
	CHECK(ts_intern_put(in, "", 0, &a) == TS_OK && ts_intern_find(in, "", 0) == a,
	      "the empty string is a key");
	ts_intern_free(in);
	ts_intern_free(NULL);
}

static void caps(void)
{
	ts_intern *in = ts_intern_new(3, 1 << 16);
	uint32_t id;
	ts_intern_put(in, "a", 1, &id);
	ts_intern_put(in, "b", 1, &id);
	ts_intern_put(in, "c", 1, &id);
	CHECK(ts_intern_put(in, "d", 1, &id) == TS_ERR_FULL && id == TS_INTERN_NONE,
	      "a new string past the count cap is refused with TS_ERR_FULL");
	CHECK(ts_intern_put(in, "b", 1, &id) == TS_OK && id == 1,
	      "known strings still resolve when the table is full");
	ts_intern_free(in);

	in = ts_intern_new(1000, 10);
	CHECK(ts_intern_put(in, "12345", 5, &id) == TS_OK, "a string within the byte cap fits");
	CHECK(ts_intern_put(in, "67890", 5, &id) == TS_ERR_FULL,
	      "a string past the byte cap (with its NUL) is refused");
	ts_intern_free(in);
}

static void many(void)
{
	enum { N = 50000 };
	ts_intern *in = ts_intern_new(N, 64u << 20);
	char buf[64];
	int bad = 0;
	for (int i = 0; i < N; i++) {
		int n = snprintf(buf, sizeof buf, "kernel_%d_%x", i, i * 2654435761u);
		uint32_t id;
		if (ts_intern_put(in, buf, (size_t)n, &id) != TS_OK || id != (uint32_t)i)
			bad++;
	}
	for (int i = 0; i < N; i++) {
		int n = snprintf(buf, sizeof buf, "kernel_%d_%x", i, i * 2654435761u);
		size_t len;
		const char *s = ts_intern_str(in, (uint32_t)i, &len);
		if (ts_intern_find(in, buf, (size_t)n) != (uint32_t)i || len != (size_t)n ||
		    memcmp(s, buf, len) != 0)
			bad++;
	}
	CHECK(bad == 0 && ts_intern_count(in) == N, "%d strings round-trip through the table", N);
	ts_intern_free(in);
}

int main(void)
{
	basics();
	caps();
	many();
	return unit_failed != 0;
}
