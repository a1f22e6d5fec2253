/*
 * layers_check.c - the self-check of a complete pass's layout: layers far
 * off the typical layer of their type (layers.odd), and what puts the
 * layout in doubt (layers.doubt): layers of one type whose kernel counts
 * differ, attention that ran in no layer, time between layers in none.
 */
#include "analysis/layers_int.h"
#include "analysis/satmath.h"

/* The median of the n values v (sorted in place). */
static int64_t median(int64_t *v, size_t n)
{
	ts_sort_i64(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool far_off(int64_t x, int64_t typical)
{
	return typical > 0 && (2 * x < typical || x > 2 * typical);
}

/* The doubt's count check of one type's layers in a complete pass (kn:
 * their kernel counts, sorted): layers of one type run the same kernels, so
 * one more than two off the median was cut elsewhere. Counts spread wide (a
 * quartile more than two apart) vary by data, as an eager expert loop does:
 * no count is typical then, and none is checked. */
static void doubt_counts(ts_layers *l, uint32_t pass, ts_ltype t, uint32_t n,
			 const int64_t *kn, size_t k, int64_t tns)
{
	int64_t tkn = k % 2 ? kn[k / 2] : (kn[k / 2 - 1] + kn[k / 2]) / 2;
	if (kn[3 * k / 4] - kn[k / 4] > 2)
		return;
	for (uint32_t i = 0; i < n; i++) {
		const cur_layer *c = &l->layers[i];
		if (ts_lay_layer_type(c->marks) != t)
			continue;
		l->doubt.checked++;
		if ((int64_t)c->kernels <= tkn + 2 && (int64_t)c->kernels + 2 >= tkn)
			continue;
		if (!l->doubt.differ++)
			l->doubt.first = (ts_odd_layer){
				.pass = pass, .layer = i, .type = t, .ns = c->ns,
				.typical_ns = tns, .kernels = c->kernels,
				.typical_kernels = (uint32_t)tkn };
	}
}

/* The doubt's pass checks: attention in no layer, and how much of the time
 * from the first layer to the end of the last its layers hold. */
static void doubt_pass(ts_layer_doubt *d, const ts_pass *p, const cur_layer *ly, uint32_t n)
{
	d->attn_outside += p->attn_outside;
	d->attn_passes += p->attn_outside > 0;
	int64_t in = 0;
	for (uint32_t i = 0; i < n; i++)
		in = ts_sat_add(in, ly[i].ns > 0 ? ly[i].ns : 0);
	int64_t all = ts_sat_add(in, p->between_ns);
	if (p->between_ns <= 0 || all <= 0)
		return;
	double share = (double)in / (double)all;
	if (share >= TS_LAYERS_HOLD)
		return;
	if (!d->thin++ || share < d->thin_share) {
		d->thin_share = share;
		d->thin_pass = p->index;
	}
}

/* The self-check of a complete pass: each layer against the typical layer
 * of its type in the pass. */
static void check_layers(ts_layers *l, uint32_t pass, uint32_t n)
{
	int64_t *ns = l->chk, *kn = l->chk + TS_MAX_LAYERS;
	for (int t = 0; t < TS_LT_COUNT; t++) {
		size_t k = 0;
		for (uint32_t i = 0; i < n; i++)
			if (ts_lay_layer_type(l->layers[i].marks) == (ts_ltype)t) {
				ns[k] = l->layers[i].ns > 0 ? l->layers[i].ns : 0;
				kn[k++] = l->layers[i].kernels;
			}
		if (k < 3)
			continue;
		int64_t tns = median(ns, k), tkn = median(kn, k);
		doubt_counts(l, pass, (ts_ltype)t, n, kn, k, tns);
		for (uint32_t i = 0; i < n; i++) {
			const cur_layer *c = &l->layers[i];
			if (ts_lay_layer_type(c->marks) != (ts_ltype)t ||
			    !(far_off(c->ns > 0 ? c->ns : 0, tns) || far_off(c->kernels, tkn)))
				continue;
			if (l->nodd < TS_MAX_ODD)
				l->odd[l->nodd++] = (ts_odd_layer){
					.pass = pass, .layer = i, .type = (ts_ltype)t, .ns = c->ns,
					.typical_ns = tns, .kernels = c->kernels,
					.typical_kernels = (uint32_t)tkn };
			l->odd_total++;
		}
	}
}

void ts_lay_check_pass(ts_layers *l, const ts_pass *p, uint32_t n)
{
	check_layers(l, p->index, n);
	doubt_pass(&l->doubt, p, l->layers, n);
}
