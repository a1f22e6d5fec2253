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

bool ts_grow(void **arr, size_t *cap, size_t need, size_t elem, size_t first, size_t max,
	     bool zero);

#endif
