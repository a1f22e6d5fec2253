/*
 * hist.h - fixed-precision log-scale histogram of non-negative durations (ns).
 *
 * Values below 128 are counted exactly; above, each power-of-two octave is
 * split into 64 equal buckets, so a bucket is at most 1/64 of its lower bound
 * wide and its midpoint is within 1/128 (0.79%) of any value in it. Quantiles
 * are therefore within 1% of the exact nearest-rank value. Memory is 64
 * counters per octave actually used, allocated on first use, so a kernel whose
 * durations span three octaves costs about 1.5 KB however many times it runs.
 * Histograms merge by adding counters (ranks, files, machines).
 */
#ifndef TS_HIST_H
#define TS_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "input/base/status.h"
#include "input/base/wire.h"

#define TS_HIST_SUB 64      /* buckets per page */
#define TS_HIST_PAGES 58    /* pages 0-1: exact 0..127; page p>=2: octave p+5 */
_Static_assert(TS_HIST_PAGES <= 64, "ts_hist.used is a 64-bit mask");

typedef struct {
	uint64_t count;
	uint64_t used;                 /* bit p: page[p] is allocated */
	uint64_t *page[TS_HIST_PAGES];
} ts_hist;

/* A zeroed ts_hist is an empty histogram. */
/* The page for bucket page of h, made when first needed (NULL: no memory). */
uint64_t *ts_hist_page(ts_hist *h, int page);

/* Count value (negative counts as 0); inline: one per kernel and more. */
static inline ts_status ts_hist_add(ts_hist *h, int64_t value)
{
	uint64_t v = value < 0 ? 0 : (uint64_t)value;
	int page, idx;
	if (v < 2 * TS_HIST_SUB) {
		page = (int)(v / TS_HIST_SUB);
		idx = (int)(v % TS_HIST_SUB);
	} else {
		int e = 63 - __builtin_clzll(v);     /* 2^e <= v < 2^(e+1), e >= 7 */
		page = e - 5;
		idx = (int)((v >> (e - 6)) - TS_HIST_SUB);
		if (page >= TS_HIST_PAGES)
			page = TS_HIST_PAGES - 1, idx = TS_HIST_SUB - 1;
	}
	uint64_t *p = h->page[page] ? h->page[page] : ts_hist_page(h, page);
	if (!p)
		return TS_ERR_NOMEM;
	p[idx]++;
	h->count++;
	return TS_OK;
}
ts_status ts_hist_merge(ts_hist *dst, const ts_hist *src);
void ts_hist_clear(ts_hist *h); /* frees pages; the histogram is empty again */

/*
 * The nearest-rank q-quantile (0 < q <= 1): the representative of the bucket
 * holding the smallest value with at least ceil(q * count) values at or below
 * it. 0 for an empty histogram. Callers clamp to the exact min and max.
 */
int64_t ts_hist_quantile(const ts_hist *h, double q);

/* Of the values at or above from (by their buckets' representatives), how
 * many (*n) and their sum beyond base: within 1% of the exact figure. */
int64_t ts_hist_excess(const ts_hist *h, int64_t from, int64_t base, uint64_t *n);

/* Saved partials: the count, the mask of pages in use, each page.
 * ts_hist_load adds the saved counters to h (TS_ERR_PARTIAL with r->err
 * set when they do not add up, or TS_ERR_NOMEM). */
void ts_hist_save(const ts_hist *h, ts_wbuf *w);
ts_status ts_hist_load(ts_hist *h, ts_rbuf *r);

/* Bytes of counter pages held. */
size_t ts_hist_bytes(const ts_hist *h);

#endif
