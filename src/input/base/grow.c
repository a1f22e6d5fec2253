/*
 * grow.c - the one growable-array helper every stage uses: doubling, a
 * maximum, zeroed room, overflow refused (see grow.h).
 */
#include "input/base/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The room to grow to for need elements of elem bytes (0: none to be
 * had). */
static size_t room(size_t cap, size_t need, size_t elem, size_t first, size_t max)
{
	if (need > max || elem == 0 || need > SIZE_MAX / elem)
		return 0;
	size_t n = cap ? cap : (first ? first : 1);
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (n > max)
		n = max;
	if (n > SIZE_MAX / elem)
		n = need;
	return n;
}

bool ts_grow_room(void **arr, size_t *cap, size_t need, size_t elem, size_t first,
		  size_t max, bool zero)
{
	ts_grow_part one = { arr, elem };
	return ts_grow_each_room(&one, 1, cap, need, first, max, zero);
}

bool ts_grow_each_room(const ts_grow_part *parts, size_t nparts, size_t *cap, size_t need,
		       size_t first, size_t max, bool zero)
{
	if (need <= *cap)
		return true;
	size_t n = 0;
	for (size_t i = 0; i < nparts; i++) {
		size_t r = room(*cap, need, parts[i].elem, first, max);
		if (r == 0)
			return false;
		n = i == 0 || r < n ? r : n;
	}
	for (size_t i = 0; i < nparts; i++) {
		void *p = realloc(*parts[i].arr, n * parts[i].elem);
		if (!p)
			return false;
		*parts[i].arr = p;
	}
	for (size_t i = 0; zero && i < nparts; i++)
		memset((char *)*parts[i].arr + *cap * parts[i].elem, 0, (n - *cap) * parts[i].elem);
	*cap = n;
	return true;
}
