/* The one growable-array helper: doubling from first, zeroed room on
 * request, the max cap, overflow refused with the array unchanged; arrays
 * grown together; the bounded list of warnings. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/grow.h"
#include "input/base/warn.h"
#include "unit.h"

static void growth(void)
{
	int *v = NULL;
	size_t cap = 0;
	CHECK(ts_grow((void **)&v, &cap, 1, sizeof *v, 16, SIZE_MAX, true) && cap == 16 && v,
	      "the first room is `first` elements");
	bool zero = true;
	for (size_t i = 0; i < cap; i++)
		zero &= v[i] == 0;
	CHECK(zero, "new room is zeroed on request");
	for (size_t i = 0; i < cap; i++)
		v[i] = (int)i + 1;
	CHECK(ts_grow((void **)&v, &cap, 17, sizeof *v, 16, SIZE_MAX, true) && cap == 32,
	      "past the room it doubles");
	bool kept = true;
	for (size_t i = 0; i < 16; i++)
		kept &= v[i] == (int)i + 1;
	zero = true;
	for (size_t i = 16; i < cap; i++)
		zero &= v[i] == 0;
	CHECK(kept && zero, "the old elements are kept and only the new room is zeroed");
	CHECK(ts_grow((void **)&v, &cap, 100, sizeof *v, 16, SIZE_MAX, false) && cap == 128,
	      "it doubles until the need fits");
	CHECK(ts_grow((void **)&v, &cap, 5, sizeof *v, 16, SIZE_MAX, false) && cap == 128,
	      "a need within the room changes nothing");
	free(v);
}

static void limits(void)
{
	char *v = NULL;
	size_t cap = 0;
	CHECK(ts_grow((void **)&v, &cap, 300, 1, 256, 400, false) && cap == 400,
	      "the room never passes max");
	CHECK(!ts_grow((void **)&v, &cap, 401, 1, 256, 400, false) && cap == 400 && v,
	      "a need past max is refused, the array unchanged");
	char *before = v;
	CHECK(!ts_grow((void **)&v, &cap, SIZE_MAX / 2, 16, 256, SIZE_MAX, false) && cap == 400 &&
	      v == before, "a size that overflows is refused, the array unchanged");
	free(v);
}

/* Arrays that share a capacity grow together, each its own size. */
static void together(void)
{
	int64_t *a = NULL;
	uint8_t *b = NULL;
	size_t cap = 0;
	ts_grow_part parts[] = { { (void **)&a, sizeof *a }, { (void **)&b, sizeof *b } };
	CHECK(ts_grow_each(parts, 2, &cap, 10, 8, SIZE_MAX, true) && cap == 16 && a && b,
	      "two arrays get one room, doubling from first");
	bool zero = true;
	for (size_t i = 0; i < cap; i++)
		zero &= a[i] == 0 && b[i] == 0;
	a[15] = 7;
	b[15] = 9;
	CHECK(zero && ts_grow_each(parts, 2, &cap, 17, 8, SIZE_MAX, true) && cap == 32 &&
	      a[15] == 7 && b[15] == 9 && a[31] == 0 && b[31] == 0,
	      "each keeps its elements and gets its new room zeroed");
	CHECK(!ts_grow_each(parts, 2, &cap, 40, 8, 32, true) && cap == 32,
	      "a need past max is refused for all, the room unchanged");
	free(a);
	free(b);
}

/* Sixteen warnings print as they are; past them the last line counts the
 * rest. */
static void warnings(void)
{
	ts_warns w = { .n = 0 };
	for (int i = 0; i < TS_WARN_MAX; i++)
		ts_warn(&w, "warning %d", i);
	ts_warns_close(&w);
	CHECK(w.n == TS_WARN_MAX && strcmp(w.line[TS_WARN_MAX - 1], "warning 15") == 0,
	      "%d warnings are all kept", TS_WARN_MAX);
	for (int i = 0; i < 4; i++)
		ts_warn(&w, "warning %d", TS_WARN_MAX + i);
	ts_warns_close(&w);
	CHECK(w.n == TS_WARN_MAX && w.more == 4 &&
	      strcmp(w.line[TS_WARN_MAX - 1], "5 more warnings past the first 15 were not kept") == 0,
	      "past %d, the last line counts the rest (%s)", TS_WARN_MAX, w.line[TS_WARN_MAX - 1]);
}

int main(void)
{
	growth();
	limits();
	together();
	warnings();
	return unit_failed != 0;
}
