/*
 * stat.h - running statistics of one series of durations (ns): count, exact
 * total, min, max, mean and variance (Welford), and a log histogram for
 * percentiles. Mergeable (Chan et al.) so partial results combine exactly
 * for count/total/min/max and to rounding for the variance.
 */
#ifndef TS_STAT_H
#define TS_STAT_H

#include <stdint.h>

#include "analysis/hist.h"
#include "input/base/status.h"
#include "input/base/wire.h"

typedef struct {
	uint64_t count;
	int64_t total, min, max;
	double mean, m2;
	ts_hist hist;
} ts_stat;

/* A zeroed ts_stat is empty. */
ts_status ts_stat_add(ts_stat *s, int64_t v);
ts_status ts_stat_merge(ts_stat *dst, const ts_stat *src);
void ts_stat_clear(ts_stat *s);

/* A saved partial's bytes for s; ts_stat_load reads them and merges them
 * into dst: TS_ERR_PARTIAL (r->err says what) or TS_ERR_NOMEM. */
void ts_stat_save(const ts_stat *s, ts_wbuf *w);
ts_status ts_stat_load(ts_stat *dst, ts_rbuf *r);

/* Sample standard deviation (n - 1); 0 below two values. */
double ts_stat_stddev(const ts_stat *s);

/* Nearest-rank quantile from the histogram, clamped to [min, max]. */
int64_t ts_stat_quantile(const ts_stat *s, double q);

/* Sort n values ascending, in place (for medians of a few values). */
/* A noisy kernel: called often enough to tell (8 calls or more) and its
 * mean more than twice its median and over 1 us above it, so that a few
 * slow calls, not the typical one, make most of its time. */
bool ts_stat_noisy(const ts_stat *s);

void ts_sort_i64(int64_t *v, size_t n);

#endif
