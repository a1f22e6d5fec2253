/*
 * stat.c - running statistics of one series of durations: count, exact
 * total, min, max, mean and variance (Welford), a log histogram for
 * percentiles; mergeable (see stat.h).
 */
#include "analysis/stat.h"
#include "input/base/satmath.h"

#include <math.h>
#include <stdlib.h>

ts_status ts_stat_add(ts_stat *s, int64_t v)
{
	ts_status st = ts_hist_add(&s->hist, v);
	if (st != TS_OK)
		return st;
	if (s->count == 0 || v < s->min)
		s->min = v;
	if (s->count == 0 || v > s->max)
		s->max = v;
	s->count++;
	s->total = ts_sat_add(s->total, v);
	double d = (double)v - s->mean;
	s->mean += d / (double)s->count;
	s->m2 += d * ((double)v - s->mean);
	return TS_OK;
}

ts_status ts_stat_merge(ts_stat *dst, const ts_stat *src)
{
	if (src->count == 0)
		return TS_OK;
	ts_status st = ts_hist_merge(&dst->hist, &src->hist);
	if (st != TS_OK)
		return st;
	if (dst->count == 0) {
		dst->min = src->min;
		dst->max = src->max;
	} else {
		if (src->min < dst->min)
			dst->min = src->min;
		if (src->max > dst->max)
			dst->max = src->max;
	}
	double na = (double)dst->count, nb = (double)src->count;
	double d = src->mean - dst->mean;
	dst->mean += d * nb / (na + nb);
	dst->m2 += src->m2 + d * d * na * nb / (na + nb);
	dst->count = ts_sat_addu(dst->count, src->count);
	dst->total = ts_sat_add(dst->total, src->total);
	return TS_OK;
}

void ts_stat_clear(ts_stat *s)
{
	ts_hist_clear(&s->hist);
	*s = (ts_stat){ 0 };
}

double ts_stat_stddev(const ts_stat *s)
{
	if (s->count < 2 || s->m2 <= 0)
		return 0;
	return sqrt(s->m2 / (double)(s->count - 1));
}

int64_t ts_stat_quantile(const ts_stat *s, double q)
{
	if (s->count == 0)
		return 0;
	int64_t v = ts_hist_quantile(&s->hist, q);
	return v < s->min ? s->min : v > s->max ? s->max : v;
}

void ts_stat_save(const ts_stat *s, ts_wbuf *w)
{
	ts_w_u64(w, s->count);
	ts_w_i64(w, s->total);
	ts_w_i64(w, s->min);
	ts_w_i64(w, s->max);
	ts_w_f64(w, s->mean);
	ts_w_f64(w, s->m2);
	ts_hist_save(&s->hist, w);
}

ts_status ts_stat_load(ts_stat *dst, ts_rbuf *r)
{
	ts_stat t = { 0 };
	t.count = ts_r_u64(r);
	t.total = ts_r_i64(r);
	t.min = ts_r_i64(r);
	t.max = ts_r_i64(r);
	t.mean = ts_r_f64(r);
	t.m2 = ts_r_f64(r);
	ts_status st = ts_hist_load(&t.hist, r);
	if (st == TS_OK && (t.hist.count != t.count || t.min > t.max || !(t.m2 >= 0) ||
			    t.mean != t.mean)) {
		ts_r_fail(r, "a statistic that does not hold together");
		st = TS_ERR_PARTIAL;
	}
	if (st == TS_OK)
		st = ts_stat_merge(dst, &t);
	ts_hist_clear(&t.hist);
	return st;
}

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return (a > b) - (a < b);
}

void ts_sort_i64(int64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_i64);
}

bool ts_stat_noisy(const ts_stat *s)
{
	if (s->count < 8)
		return false;
	double mean = (double)s->total / (double)s->count;
	double p50 = (double)ts_stat_quantile(s, 0.5);
	return mean > 2.0 * p50 && mean - p50 > 1000.0;
}
