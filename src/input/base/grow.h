/*
 * grow.h - the one growable-array helper every stage uses: room for need
 * elements of elem bytes in *arr, doubling from first, never past max
 * elements (nor past what size_t can count), the new room zeroed on
 * request. Returns false, with *arr and *cap unchanged, when the room
 * cannot be had: over max, an overflow, or out of memory.
 */
#ifndef TS_GROW_H
#define TS_GROW_H

#include <stdbool.h>
#include <stddef.h>

bool ts_grow_room(void **arr, size_t *cap, size_t need, size_t elem, size_t first,
		  size_t max, bool zero);

/* Inline where the room is there (most calls: a hot path checks every
 * event), a call where it must grow. */
static inline bool ts_grow(void **arr, size_t *cap, size_t need, size_t elem, size_t first,
			   size_t max, bool zero)
{
	return need <= *cap || ts_grow_room(arr, cap, need, elem, first, max, zero);
}

/* Arrays that share one capacity (a row's fields side by side): each
 * parts[i].arr of parts[i].elem bytes an element grown as ts_grow grows
 * one. false, *cap unchanged, when any cannot be had (those grown before
 * it keep their elements, in a larger block). */
typedef struct {
	void **arr;
	size_t elem;
} ts_grow_part;

bool ts_grow_each_room(const ts_grow_part *parts, size_t nparts, size_t *cap, size_t need,
		       size_t first, size_t max, bool zero);

static inline bool ts_grow_each(const ts_grow_part *parts, size_t nparts, size_t *cap,
				size_t need, size_t first, size_t max, bool zero)
{
	return need <= *cap || ts_grow_each_room(parts, nparts, cap, need, first, max, zero);
}

#endif
