/*
 * hist.c - a fixed-precision log-scale histogram of non-negative
 * durations, mergeable, for percentiles (see hist.h).
 */
#include "analysis/hist.h"
#include "input/base/satmath.h"

#include <math.h>
#include <stdlib.h>

/* The value that stands for bucket (page, idx): exact or the bucket midpoint. */
static int64_t representative(int page, int idx)
{
	if (page < 2)
		return page * TS_HIST_SUB + idx;
	int shift = page - 1;                    /* e - 6 */
	uint64_t lo = (uint64_t)(TS_HIST_SUB + idx) << shift;
	uint64_t width = (uint64_t)1 << shift;
	return (int64_t)(lo + (width - 1) / 2);
}

uint64_t *ts_hist_page(ts_hist *h, int page)
{
	if (!h->page[page]) {
		h->page[page] = calloc(TS_HIST_SUB, sizeof(uint64_t));
		if (h->page[page])
			h->used |= 1ull << page;
	}
	return h->page[page];
}

ts_status ts_hist_merge(ts_hist *dst, const ts_hist *src)
{
	for (int p = 0; p < TS_HIST_PAGES; p++) {
		if (!src->page[p])
			continue;
		uint64_t *d = ts_hist_page(dst, p);
		if (!d)
			return TS_ERR_NOMEM;
		for (int i = 0; i < TS_HIST_SUB; i++)
			d[i] = ts_sat_addu(d[i], src->page[p][i]);
	}
	dst->count = ts_sat_addu(dst->count, src->count);
	return TS_OK;
}

/* Only the pages in use are touched: tables of mostly empty histograms
 * (per layer index, per workload) free in time to what they hold. */
void ts_hist_clear(ts_hist *h)
{
	for (uint64_t u = h->used; u; u &= u - 1) {
		int p = __builtin_ctzll(u);
		free(h->page[p]);
		h->page[p] = NULL;
	}
	h->used = 0;
	h->count = 0;
}

int64_t ts_hist_quantile(const ts_hist *h, double q)
{
	if (h->count == 0)
		return 0;
	uint64_t rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	uint64_t seen = 0;
	for (int p = 0; p < TS_HIST_PAGES; p++) {
		if (!h->page[p])
			continue;
		for (int i = 0; i < TS_HIST_SUB; i++) {
			seen += h->page[p][i];
			if (seen >= rank)
				return representative(p, i);
		}
	}
	return 0; /* unreachable while count matches the pages */
}

int64_t ts_hist_excess(const ts_hist *h, int64_t from, int64_t base, uint64_t *n)
{
	int64_t sum = 0;
	*n = 0;
	for (int p = 0; p < TS_HIST_PAGES; p++) {
		if (!h->page[p])
			continue;
		for (int i = 0; i < TS_HIST_SUB; i++) {
			int64_t v = representative(p, i);
			if (!h->page[p][i] || v < from)
				continue;
			*n += h->page[p][i];
			sum += (int64_t)h->page[p][i] * (v > base ? v - base : 0);
		}
	}
	return sum;
}

size_t ts_hist_bytes(const ts_hist *h)
{
	size_t n = 0;
	for (int p = 0; p < TS_HIST_PAGES; p++)
		if (h->page[p])
			n += TS_HIST_SUB * sizeof(uint64_t);
	return n;
}

/* The histogram: its count, the mask of pages in use, each page. */
void ts_hist_save(const ts_hist *h, ts_wbuf *w)
{
	ts_w_u64(w, h->count);
	ts_w_u64(w, h->used);
	for (uint64_t u = h->used; u; u &= u - 1)
		for (int i = 0; i < TS_HIST_SUB; i++)
			ts_w_u64(w, h->page[__builtin_ctzll(u)][i]);
}

ts_status ts_hist_load(ts_hist *h, ts_rbuf *r)
{
	uint64_t count = ts_r_u64(r), used = ts_r_u64(r), sum = 0;
	if (!r->err && (used >> TS_HIST_PAGES))
		ts_r_fail(r, "a histogram page past the last");
	for (uint64_t u = used; u && !r->err; u &= u - 1) {
		int p = __builtin_ctzll(u);
		uint64_t v[TS_HIST_SUB];
		for (int i = 0; i < TS_HIST_SUB; i++)
			sum += v[i] = ts_r_u64(r);
		if (r->err)
			break;
		if (!h->page[p]) {
			if (!(h->page[p] = calloc(TS_HIST_SUB, sizeof(uint64_t))))
				return TS_ERR_NOMEM;
			h->used |= 1ull << p;
		}
		for (int i = 0; i < TS_HIST_SUB; i++)
			h->page[p][i] = ts_sat_addu(h->page[p][i], v[i]);
	}
	if (!r->err && sum != count)
		ts_r_fail(r, "a histogram whose buckets do not add up to its count");
	h->count = ts_sat_addu(h->count, count);
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

