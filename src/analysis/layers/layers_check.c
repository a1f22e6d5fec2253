/*
 * layers_check.c - the self-check of a complete pass's layout: layers far
 * off the typical layer of their type (layers.odd), and what puts the
 * layout in doubt (layers.doubt): layers of one type whose kernel counts
 * differ, attention that ran in no layer, time between layers in none;
 * and a pass's layer count held against the passes' before it.
 */
#include "analysis/layers/layers_int.h"
#include "input/base/satmath.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "analysis/layers/model.h"

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
		const cur_layer *c = &l->online.layers[i];
		if (ts_lay_layer_type(l, c->marks) != t)
			continue;
		l->check.doubt.checked++;
		if ((int64_t)c->kernels <= tkn + 2 && (int64_t)c->kernels + 2 >= tkn)
			continue;
		if (!l->check.doubt.differ++)
			l->check.doubt.first = (ts_odd_layer){
				.pass = pass, .layer = i, .type = t, .ns = c->ns,
				.typical_ns = tns, .kernels = c->kernels,
				.typical_kernels = (uint32_t)tkn, .slow_row = TS_INTERN_NONE,
				.ref_layer = UINT32_MAX, .extra_row = TS_INTERN_NONE,
				.missing_row = TS_INTERN_NONE };
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

/* The listed kernels of layer i (dbg_cur), from *at on: the next one's
 * index, or SIZE_MAX past the last. */
static size_t next_of(const ts_layers *l, uint32_t i, size_t *at)
{
	while (*at < l->listing.ndbg_cur && l->listing.dbg_cur[*at].layer != i)
		(*at)++;
	return *at < l->listing.ndbg_cur ? (*at)++ : SIZE_MAX;
}

/* Compare the odd layer's kernels with layer typ's: the same rows in the
 * same order, and then the one whose time grew most. */
static bool compare_with(const ts_layers *l, uint32_t typ, ts_odd_layer *o)
{
	size_t a = 0, b = 0, x, y;
	int64_t grew = INT64_MIN;
	ts_odd_layer t = *o;
	while ((x = next_of(l, o->layer, &a)) != SIZE_MAX) {
		y = next_of(l, typ, &b);
		if (y == SIZE_MAX || l->listing.dbg_cur[x].row != l->listing.dbg_cur[y].row)
			return false;
		if (l->listing.dbg_cur[x].dur - l->listing.dbg_cur[y].dur > grew) {
			grew = l->listing.dbg_cur[x].dur - l->listing.dbg_cur[y].dur;
			t.slow_row = l->listing.dbg_cur[x].row;
			t.slow_ns = l->listing.dbg_cur[x].dur;
			t.slow_typical_ns = l->listing.dbg_cur[y].dur;
		}
	}
	if (next_of(l, typ, &b) != SIZE_MAX)
		return false;
	t.same_kernels = true;
	if (grew <= 0)
		t.slow_row = TS_INTERN_NONE;
	*o = t;
	return true;
}

/* How often layer i's listed kernels run row r. */
static uint32_t runs_of(const ts_layers *l, uint32_t i, uint32_t r)
{
	uint32_t k = 0;
	for (size_t x = 0; x < l->listing.ndbg_cur; x++)
		k += l->listing.dbg_cur[x].layer == i && l->listing.dbg_cur[x].row == r;
	return k;
}

/* The first kernel (in its order) layer a runs more often than layer b. */
static uint32_t more_in(const ts_layers *l, uint32_t a, uint32_t b)
{
	size_t at = 0, x;
	while ((x = next_of(l, a, &at)) != SIZE_MAX) {
		uint32_t r = l->listing.dbg_cur[x].row;
		if (r != TS_INTERN_NONE && runs_of(l, a, r) > runs_of(l, b, r))
			return r;
	}
	return TS_INTERN_NONE;
}

/* The odd layer runs ref_layer's kernels as often each (in another order,
 * or a reference of another time): the same kernels, and the one whose
 * time grew most, its k-th call against the other's k-th. */
static void same_runs(const ts_layers *l, ts_odd_layer *o)
{
	int64_t grew = 0;
	size_t at = 0, x;
	while ((x = next_of(l, o->layer, &at)) != SIZE_MAX) {
		uint32_t r = l->listing.dbg_cur[x].row, k = 0;
		for (size_t i = 0; i < x; i++)
			k += l->listing.dbg_cur[i].layer == o->layer && l->listing.dbg_cur[i].row == r;
		for (size_t i = 0; i < l->listing.ndbg_cur; i++) {
			if (l->listing.dbg_cur[i].layer != o->ref_layer || l->listing.dbg_cur[i].row != r ||
			    k--)
				continue;
			int64_t g = l->listing.dbg_cur[x].dur - l->listing.dbg_cur[i].dur;
			if (g > grew) {
				grew = g;
				o->slow_row = r;
				o->slow_ns = l->listing.dbg_cur[x].dur;
				o->slow_typical_ns = l->listing.dbg_cur[i].dur;
			}
			break;
		}
	}
	o->same_kernels = true;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Layer i's listed kernel rows into v, sorted; how many. */
static size_t rows_of(const ts_layers *l, uint32_t i, uint32_t *v)
{
	size_t k = 0;
	for (size_t x = 0; x < l->listing.ndbg_cur; x++)
		if (l->listing.dbg_cur[x].layer == i)
			v[k++] = l->listing.dbg_cur[x].row;
	qsort(v, k, sizeof *v, u32_cmp);
	return k;
}

/* Kernels one of two sorted row lists runs that the other does not. */
static size_t apart(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i = 0, j = 0, d = 0;
	while (i < na || j < nb) {
		if (j == nb || (i < na && a[i] < b[j]))
			i++, d++;
		else if (i == na || b[j] < a[i])
			j++, d++;
		else
			i++, j++;
	}
	return d;
}

/* Where the odd layer's kernels differ from every layer like it: what
 * differs, against the layer of its type whose kernels differ least (the
 * pass's first layer, with a norm of its own, is not the measure of the
 * rest), nearest the typical time of those: the first kernel it runs more
 * often, and the first that one runs more often. */
static void differs_from(const ts_layers *l, uint32_t n, ts_odd_layer *o)
{
	uint32_t *a = malloc(2 * l->listing.ndbg_cur * sizeof *a);
	if (!a)
		return;
	uint32_t *b = a + l->listing.ndbg_cur;
	size_t na = rows_of(l, o->layer, a), least = SIZE_MAX;
	int64_t best = INT64_MAX;
	for (uint32_t j = 0; j < n; j++) {
		const cur_layer *c = &l->online.layers[j];
		if (j == o->layer || ts_lay_layer_type(l, c->marks) != o->type)
			continue;
		size_t d = apart(a, na, b, rows_of(l, j, b));
		int64_t t = c->ns > o->typical_ns ? c->ns - o->typical_ns : o->typical_ns - c->ns;
		if (d < least || (d == least && t < best)) {
			least = d;
			best = t;
			o->ref_layer = j;
		}
	}
	free(a);
	if (o->ref_layer == UINT32_MAX)
		return;
	o->extra_row = more_in(l, o->layer, o->ref_layer);
	o->missing_row = more_in(l, o->ref_layer, o->layer);
	if (o->extra_row == TS_INTERN_NONE && o->missing_row == TS_INTERN_NONE)
		same_runs(l, o);
}

/* An odd layer against the layers of its type that took about the typical
 * time (within 10%): where it runs one's kernels, the kernel whose time
 * grew most is the cause; else what differs (differs_from). */
static void slow_kernel(const ts_layers *l, uint32_t n, ts_odd_layer *o)
{
	if (!l->listing.track || l->listing.dbg_lost || l->listing.ndbg_cur == 0)
		return;
	for (uint32_t j = 0; j < n; j++) {
		const cur_layer *c = &l->online.layers[j];
		int64_t d = c->ns > o->typical_ns ? c->ns - o->typical_ns : o->typical_ns - c->ns;
		if (j == o->layer || ts_lay_layer_type(l, c->marks) != o->type ||
		    c->kernels != o->kernels || 10 * d > o->typical_ns)
			continue;
		if (compare_with(l, j, o))
			return;
	}
	differs_from(l, n, o);
}

/* The self-check of a complete pass: each layer against the typical layer
 * of its type in the pass. */
static void check_layers(ts_layers *l, uint32_t pass, uint32_t n)
{
	int64_t *ns = l->check.chk, *kn = l->check.chk + TS_MAX_LAYERS;
	for (int t = 0; t < TS_LT_COUNT; t++) {
		size_t k = 0;
		for (uint32_t i = 0; i < n; i++)
			if (ts_lay_layer_type(l, l->online.layers[i].marks) == (ts_ltype)t) {
				ns[k] = l->online.layers[i].ns > 0 ? l->online.layers[i].ns : 0;
				kn[k++] = l->online.layers[i].kernels;
			}
		if (k < 3)
			continue;
		int64_t tns = median(ns, k), tkn = median(kn, k);
		doubt_counts(l, pass, (ts_ltype)t, n, kn, k, tns);
		for (uint32_t i = 0; i < n; i++) {
			const cur_layer *c = &l->online.layers[i];
			if (ts_lay_layer_type(l, c->marks) != (ts_ltype)t ||
			    !(far_off(c->ns > 0 ? c->ns : 0, tns) || far_off(c->kernels, tkn)))
				continue;
			if (l->check.nodd < TS_MAX_ODD) {
				ts_odd_layer *o = &l->check.odd[l->check.nodd++];
				*o = (ts_odd_layer){
					.pass = pass, .layer = i, .type = (ts_ltype)t, .ns = c->ns,
					.typical_ns = tns, .kernels = c->kernels,
					.typical_kernels = (uint32_t)tkn, .slow_row = TS_INTERN_NONE,
					.ref_layer = UINT32_MAX, .extra_row = TS_INTERN_NONE,
					.missing_row = TS_INTERN_NONE };
				slow_kernel(l, n, o);
			}
			l->check.odd_total++;
		}
	}
}

void ts_lay_check_pass(ts_layers *l, const ts_pass *p, uint32_t n)
{
	check_layers(l, p->index, n);
	doubt_pass(&l->check.doubt, p, l->online.layers, n);
}

/* Complete passes whose layer count is not the family's. */
static void count_warnings(const ts_layers *l, const ts_model *m, ts_warns *w)
{
	char why[200];
	long want = ts_model_expected_layers(l, m, why, sizeof why);
	uint32_t bad = 0, got = 0, complete = 0, per = ts_layers_per_pass(l);
	bool agree = true;
	for (size_t i = 0; i < ts_layers_npasses(l); i++) {
		const ts_pass *p = ts_layers_pass(l, i);
		if (!p->complete)
			continue;
		if (complete++ && p->layers != per)
			agree = false;
		if (want > 0 && p->layers != (uint32_t)want) {
			bad++;
			got = p->layers;
		}
	}
	bool halves = ts_layers_options(l)->split_half_layers;
	/* The family's count is a hint: passes that agree with each other are
	 * more likely a size the table does not list. */
	if (bad && agree && complete > 1 && ts_layers_options(l)->expect_layers <= 0)
		ts_warn(w, "every complete pass has %" PRIu32 " layers, where %s gives %ld%s: a size "
			"the table does not list (add it to num_hidden_layers) or a boundary misplaced "
			"alike in every pass", got, why, want, halves ? " (two half-layers each)" : "");
	else if (bad)
		ts_warn(w, "%" PRIu32 " complete passes have a layer count other than %ld (e.g. %" PRIu32
			"), the number expected from %s%s", bad, want, got, why,
			halves ? ", counted as two half-layers each" : "");
}

/* ", its kernels differ from layer 3's: it runs X more often (and that
 * one Y): a sign of a misplaced layer boundary", naming what differs
 * where the listing told it. */
static void differ_text(const ts_odd_layer *o, const ts_agg *a, char *out, size_t cap)
{
	if (o->ref_layer == UINT32_MAX || (o->extra_row == TS_INTERN_NONE &&
					   o->missing_row == TS_INTERN_NONE)) {
		snprintf(out, cap, ", its kernels differ: a sign of a misplaced layer boundary");
		return;
	}
	const char *x = o->extra_row != TS_INTERN_NONE ? ts_agg_row_class(a, o->extra_row)->short_name : NULL;
	const char *y = o->missing_row != TS_INTERN_NONE ? ts_agg_row_class(a, o->missing_row)->short_name : NULL;
	snprintf(out, cap, ", its kernels differ from layer %" PRIu32 "'s: %s%s%s%s%s: a sign of a "
		 "misplaced layer boundary", o->ref_layer, x ? "it runs " : "", x ? x : "",
		 x ? " more often" : "", x && y ? ", that one " : y ? "that one runs " : "",
		 y ? y : "");
}

/* The first layer far off the typical one, and how many there are. */
static void odd_warning(const ts_layers *l, const ts_agg *a, ts_warns *w)
{
	const ts_odd_layer *odd;
	uint64_t n;
	bool slow = ts_layers_odd(l, &odd, &n) && odd->slow_row != TS_INTERN_NONE;
	if (!n)
		return;
	const char *s = n > 1 ? "s are" : " is", *its = n > 1 ? "their" : "its";
	const char *more = n > 1 ? " (the first; layers.odd in JSON lists them)" : "";
	if (slow) {
		const ts_kclass *c = ts_agg_row_class(a, odd->slow_row);
		ts_warn(w, "%" PRIu64 " layer%s far off the typical layer of %s type in %s pass (under "
			"0.5x or over 2x its time or kernels): layer %" PRIu32 " of pass %" PRIu32 " (%s) "
			"has %.1f us against %.1f us with the same %" PRIu32 " kernels, and one %s call "
			"took %.1f us against %.1f us (%.1fx)%s%s", n, s, its, its, odd->layer, odd->pass,
			ts_ltype_name(l->patterns, odd->type), (double)odd->ns / 1e3, (double)odd->typical_ns / 1e3,
			odd->kernels, c->short_name, (double)odd->slow_ns / 1e3,
			(double)odd->slow_typical_ns / 1e3,
			odd->slow_typical_ns > 0 ? (double)odd->slow_ns / (double)odd->slow_typical_ns : 0,
			c->type == TS_TYPE_COMMUNICATION ? ": a collective, waiting on the other ranks" : "",
			more);
	} else {
		char diff[TS_SHORT_MAX * 2 + 120] = "";
		if (!odd->same_kernels)
			differ_text(odd, a, diff, sizeof diff);
		ts_warn(w, "%" PRIu64 " layer%s far off the typical layer of %s type in %s pass (under "
			"0.5x or over 2x its time or kernels): layer %" PRIu32 " of pass %" PRIu32 " (%s) "
			"has %.1f us and %" PRIu32 " kernels against %.1f us and %" PRIu32 "%s%s", n, s,
			its, its, odd->layer, odd->pass, ts_ltype_name(l->patterns, odd->type),
			(double)odd->ns / 1e3, odd->kernels, (double)odd->typical_ns / 1e3,
			odd->typical_kernels, diff, more);
	}
}

void ts_layers_warnings(const ts_layers *l, const ts_model *m, const ts_agg *a, ts_warns *w)
{
	count_warnings(l, m, w);
	odd_warning(l, a, w);
	if (ts_layers_annotations_dropped(l))
		ts_warn(w, "%" PRIu64 " step annotations past the first %d held were not used for "
			"passes and stages", ts_layers_annotations_dropped(l), TS_STEPS_MAX);
	if (ts_layers_passes_dropped(l))
		ts_warn(w, "%" PRIu64 " passes past the first %d are in the stage totals but not in "
			"passes[]", ts_layers_passes_dropped(l), TS_MAX_PASSES);
}

/* The layer count the passes so far most often had (ties: the larger),
 * 0 before any: the complete passes', where one closed (a capture's cut
 * first pass, or one that took in the cut pass before it, is no
 * measure of the model), a draft model's count aside once a step told it
 * from its target's (three draft forwards a step outnumber the target's). */
uint32_t ts_lay_mode_layers(const ts_layers *l)
{
	const uint32_t *h = l->stats.whole_hist;
	uint32_t mode = 0, draft = l->stats.draft_layers != l->stats.target_layers ? l->stats.draft_layers : 0;
	for (uint32_t pass = 0; pass < 2 && !mode; pass++, h = l->stats.all_hist)
		for (uint32_t i = 1; i <= TS_MAX_LAYERS; i++)
			if (h[i] && h[i] >= h[mode] && i != draft)
				mode = i;
	return mode;
}

bool ts_lay_short_pass(const ts_layers *l, uint32_t layers)
{
	return layers > 0 && layers < ts_lay_mode_layers(l);
}

/* More layers than the passes most often had, where that count recurred
 * and no pass had this one. */
bool ts_lay_long_pass(const ts_layers *l, uint32_t layers)
{
	uint32_t mode = ts_lay_mode_layers(l);
	return mode && layers > mode && layers <= TS_MAX_LAYERS && l->stats.all_hist[mode] >= 2 &&
	       !l->stats.all_hist[layers];
}

/* At the trace's or a step's end: fewer layers than the passes most often
 * had, or a count no pass had before under one that recurred (a draft
 * model's passes outnumber the target's; a cut target pass matches
 * neither). */
bool ts_lay_short_at_edge(const ts_layers *l, uint32_t layers)
{
	if (ts_lay_short_pass(l, layers))
		return true;
	if (!layers || layers >= TS_MAX_LAYERS || l->stats.all_hist[layers])
		return false;
	for (uint32_t i = layers + 1; i <= TS_MAX_LAYERS; i++)
		if (l->stats.all_hist[i] >= 2)
			return true;
	return false;
}
