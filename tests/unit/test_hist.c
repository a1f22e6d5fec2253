/* Histogram quantiles within 1% of exact nearest-rank values; stats merge. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "analysis/hist.h"
#include "analysis/stat.h"
#include "unit.h"

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int64_t exact_rank(const int64_t *sorted, size_t n, double q)
{
	size_t r = (size_t)ceil(q * (double)n);
	if (r < 1)
		r = 1;
	return sorted[r - 1];
}

static double rel(int64_t got, int64_t want)
{
	return want == 0 ? (got == 0 ? 0 : 1) : fabs((double)(got - want)) / (double)want;
}

static void single_values(void)
{
	double worst = 0;
	int exact_small = 1;
	for (int64_t v = 0; v < 5000000; v = v < 1000 ? v + 1 : v + v / 997 + 1) {
		ts_hist h = { 0 };
		ts_hist_add(&h, v);
		int64_t q = ts_hist_quantile(&h, 0.5);
		if (v < 128 && q != v)
			exact_small = 0;
		if (rel(q, v) > worst)
			worst = rel(q, v);
		ts_hist_clear(&h);
	}
	CHECK(exact_small, "values below 128 ns are exact");
	CHECK(worst <= 0.0079, "one bucket's representative is within 0.79%% of any value in it (worst %.4f%%)",
	      worst * 100);
	ts_hist h = { 0 };
	ts_hist_add(&h, INT64_MAX);
	CHECK(rel(ts_hist_quantile(&h, 1), INT64_MAX) < 0.01, "the largest int64 value fits");
	ts_hist_clear(&h);
}

static void random_sets(void)
{
	unsigned long long seed = 42;
	double worst = 0;
	for (int t = 0; t < 200; t++) {
		size_t n = 1 + unit_rand(&seed) % 3000;
		int64_t *v = malloc(n * sizeof *v);
		ts_hist h = { 0 };
		double lo = (double)(unit_rand(&seed) % 30);    /* log2 range */
		for (size_t i = 0; i < n; i++) {
			double e = lo + (double)(unit_rand(&seed) % 10000) / 1000.0;
			v[i] = (int64_t)exp2(e);
			ts_hist_add(&h, v[i]);
		}
		qsort(v, n, sizeof *v, cmp64);
		static const double qs[] = { 0.01, 0.25, 0.5, 0.9, 0.99, 1.0 };
		for (size_t k = 0; k < sizeof qs / sizeof *qs; k++) {
			double r = rel(ts_hist_quantile(&h, qs[k]), exact_rank(v, n, qs[k]));
			if (r > worst)
				worst = r;
		}
		ts_hist_clear(&h);
		free(v);
	}
	CHECK(worst <= 0.01, "p1..p100 of 200 random log-uniform sets within 1%% of exact (worst %.4f%%)",
	      worst * 100);
}

static void merge_and_stats(void)
{
	ts_stat a = { 0 }, b = { 0 }, all = { 0 };
	unsigned long long seed = 7;
	for (int i = 0; i < 10000; i++) {
		int64_t x = (int64_t)(unit_rand(&seed) % 1000000);
		ts_stat_add(i % 3 ? &a : &b, x);
		ts_stat_add(&all, x);
	}
	ts_stat_merge(&a, &b);
	CHECK(a.count == all.count && a.total == all.total && a.min == all.min && a.max == all.max,
	      "merged count, total, min and max equal the combined series");
	CHECK(fabs(ts_stat_stddev(&a) - ts_stat_stddev(&all)) < 1e-6 * ts_stat_stddev(&all),
	      "merged standard deviation equals the combined one");
	int same = 1;
	for (double q = 0.05; q <= 1.0; q += 0.05)
		same &= ts_stat_quantile(&a, q) == ts_stat_quantile(&all, q);
	CHECK(same, "merged histogram quantiles equal the combined histogram's");

	ts_stat s = { 0 };
	int64_t xs[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	for (size_t i = 0; i < 8; i++)
		ts_stat_add(&s, xs[i]);
	CHECK(fabs(ts_stat_stddev(&s) - sqrt(32.0 / 7.0)) < 1e-12, "sample standard deviation (n-1)");
	CHECK(ts_stat_quantile(&s, 0.5) == 4 && ts_stat_quantile(&s, 0.9) == 9,
	      "nearest-rank median and p90 of a small exact set");
	ts_stat one = { 0 };
	ts_stat_add(&one, 5);
	CHECK(ts_stat_stddev(&one) == 0, "one value has no deviation");
	ts_stat_clear(&a);
	ts_stat_clear(&b);
	ts_stat_clear(&all);
	ts_stat_clear(&s);
	ts_stat_clear(&one);
}

int main(void)
{
	single_values();
	random_sets();
	merge_and_stats();
	return unit_failed != 0;
}
