#include "stat.h"
#include "satmath.h"

#include <math.h>

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
	dst->count += src->count;
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
