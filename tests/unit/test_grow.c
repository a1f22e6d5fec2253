/* The one growable-array helper: doubling from first, zeroed room on
 * request, the max cap, overflow refused with the array unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/grow.h"
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

int main(void)
{
	growth();
	limits();
	return unit_failed != 0;
}
