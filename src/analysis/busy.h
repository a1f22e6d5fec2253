/*
 * busy.h - GPU busy time: the length of the union of kernel intervals.
 *
 * Kernels on different streams overlap, so summing durations double counts.
 * Intervals arrive nearly, not exactly, in start order; the set keeps at most
 * `window` disjoint intervals sorted by start and retires the oldest when
 * full. An interval that starts before the retired frontier is clipped to it
 * (and counted in `late`), so the result is exact whenever no interval
 * arrives more than `window` intervals out of order, and memory is fixed.
 * Totals are plain sums, so they merge across files by adding.
 */
#ifndef TS_BUSY_H
#define TS_BUSY_H

#include <stdint.h>

typedef struct ts_busy ts_busy;

ts_busy *ts_busy_new(uint32_t window);
void ts_busy_free(ts_busy *b);
/* A copy of b as it is now (NULL: out of memory): a union that goes on
 * from b's, for a subset of what b took from here on. */
ts_busy *ts_busy_clone(const ts_busy *b);

/* Add [start, end); empty or reversed intervals are ignored. */
void ts_busy_add(ts_busy *b, int64_t start, int64_t end);

/* Union length so far (retired plus held). */
int64_t ts_busy_total(const ts_busy *b);

/* Intervals that arrived too late to be merged exactly. */
uint64_t ts_busy_late(const ts_busy *b);

/* Add another set's totals (a saved partial, another rank): time that is
 * not on this set's timeline, so it adds without overlap. */
void ts_busy_add_totals(ts_busy *b, int64_t busy_ns, uint64_t late);

#endif
