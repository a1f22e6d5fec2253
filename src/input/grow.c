/*
 * grow.c - the one growable-array helper every stage uses: doubling, a
 * maximum, zeroed room, overflow refused (see grow.h).
 */
#include "input/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool ts_grow(void **arr, size_t *cap, size_t need, size_t elem, size_t first, size_t max,
	     bool zero)
{
	if (need <= *cap)
		return true;
	if (need > max || elem == 0 || need > SIZE_MAX / elem)
		return false;
	size_t n = *cap ? *cap : (first ? first : 1);
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (n > max)
		n = max;
	if (n > SIZE_MAX / elem)
		n = need;
	void *p = realloc(*arr, n * elem);
	if (!p)
		return false;
	if (zero)
		memset((char *)p + *cap * elem, 0, (n - *cap) * elem);
	*arr = p;
	*cap = n;
	return true;
}
