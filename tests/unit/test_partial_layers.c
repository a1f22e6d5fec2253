/*
 * Saved partials, the analysis sections: a trace analysed once, its
 * aggregates, attribution and layers saved, and loaded twice into empty
 * ones (two ranks of the same trace): passes, stage totals, layer
 * statistics, the per-stage kernel rows, the anatomy, op rows, workloads
 * and call sites are exactly twice the single analysis's, and the means
 * and percentiles are the same. Traces: the bundled sample, and
 * tests/attrib/calls.json (ops with shapes, call sites, workloads).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "unit.h"
#include "unit_tables.h"

static void ops_twice(const ts_attrib *one, const ts_attrib *two)
{
	int bad = 0;
	const ts_attrib_totals *t1 = ts_attrib_get_totals(one), *t2 = ts_attrib_get_totals(two);
	for (int b = 0; b < TS_ATTR_COUNT; b++)
		bad += t2->kernels[b] != 2 * t1->kernels[b] || t2->ns[b] != 2 * t1->ns[b];
	bad += t2->workload_calls != 2 * t1->workload_calls;
	bad += ts_attrib_callsite_totals(two)->found != 2 * ts_attrib_callsite_totals(one)->found;
	size_t checked = 0;
	for (int v = 0; v <= TS_ATTRIB_ALL; v++) {
		size_t n1, n2;
		size_t *o1 = ts_attrib_op_order(one, v, &n1), *o2 = ts_attrib_op_order(two, v, &n2);
		bad += n1 != n2;
		for (size_t i = 0; i < n1 && i < n2; i++) {
			size_t l1, l2, c1 = 0, c2 = 0;
			const char *a = ts_attrib_op_name(one, o1[i], &l1), *b = ts_attrib_op_name(two, o2[i], &l2);
			const ts_op_row *x = ts_attrib_op(one, v, o1[i]), *y = ts_attrib_op(two, v, o2[i]);
			const char *ca = ts_attrib_op_callsite(one, o1[i], &c1), *cb = ts_attrib_op_callsite(two, o2[i], &c2);
			bad += l1 != l2 || memcmp(a, b, l1) != 0 || y->calls != 2 * x->calls ||
			       y->ns != 2 * x->ns || y->cats[0].ns != 2 * x->cats[0].ns ||
			       ts_attrib_op_via(one, o1[i]) != ts_attrib_op_via(two, o2[i]) ||
			       (ca == NULL) != (cb == NULL) || c1 != c2 || (ca && memcmp(ca, cb, c1) != 0);
			checked++;
		}
		free(o1);
		free(o2);
		o1 = ts_attrib_workload_order(one, v, &n1);
		o2 = ts_attrib_workload_order(two, v, &n2);
		bad += n1 != n2;
		for (size_t i = 0; i < n1 && i < n2; i++) {
			size_t l1, l2;
			const char *d1, *d2;
			const char *a = ts_attrib_workload_name(one, o1[i], &l1, &d1);
			const char *b = ts_attrib_workload_name(two, o2[i], &l2, &d2);
			const ts_wl_row *x = ts_attrib_workload(one, v, o1[i]), *y = ts_attrib_workload(two, v, o2[i]);
			bad += l1 != l2 || memcmp(a, b, l1) != 0 || strcmp(d1, d2) != 0 ||
			       y->calls != 2 * x->calls || y->ns != 2 * x->ns || y->flops != 2 * x->flops ||
			       ts_wl_tokens_quantile(y, 0.5) != ts_wl_tokens_quantile(x, 0.5) ||
			       ts_attrib_workload_rule(one, o1[i]) != ts_attrib_workload_rule(two, o2[i]);
			checked++;
		}
		free(o1);
		free(o2);
	}
	CHECK(bad == 0 && checked > 0, "buckets, op rows (calls, time, categories, call sites) and workloads (calls, FLOPs, tokens, rule) of every view twice over, in the same order (%zu rows)", checked);
}

/* Save what one analysis of path found, load it twice into empty ones. */
static int round_trip(const char *path, const ts_patterns *pats, ts_result *res, ts_agg **agg,
		      ts_attrib **att, ts_layers **lay)
{
	ts_pipeline_opts po = { .limits = ts_limits_default(), .patterns = pats };
	ts_status st = ts_pipeline_run(path, &po, res);
	CHECK(st == TS_OK, "%s analyses", path);
	if (st != TS_OK)
		return 1;
	ts_wbuf wa = { 0 }, wt = { 0 }, wl = { 0 };
	ts_agg_save(res->agg, &wa);
	ts_attrib_save(res->attrib, &wt);
	ts_layers_save(res->layers, &wl);
	CHECK(!wa.nomem && !wt.nomem && !wl.nomem, "its aggregates, attribution and layers save (%zu, %zu and %zu bytes)",
	      wa.n, wt.n, wl.n);
	*agg = ts_agg_new(&po.limits, pats);
	*att = ts_attrib_new(pats, 0);
	*lay = ts_layers_new(pats, &po.layers);
	int bad = 0;
	for (int k = 0; k < 2; k++) {
		uint32_t *map, nmap, *opm, nop, *wlm, nwl;
		uint8_t *slots;
		ts_rbuf ra = { .p = wa.p, .n = wa.n }, rt = { .p = wt.p, .n = wt.n }, rl = { .p = wl.p, .n = wl.n };
		bad += ts_agg_load(*agg, &ra, &map, &slots, &nmap) != TS_OK;
		bad += ts_attrib_load(*att, &rt, map, nmap, &opm, &nop, &wlm, &nwl) != TS_OK || rt.at != rt.n;
		bad += ts_layers_load(*lay, &rl, map, slots, nmap, opm, nop, wlm, nwl) != TS_OK || rl.at != rl.n;
		free(map);
		free(slots);
		free(opm);
		free(wlm);
	}
	CHECK(bad == 0, "and load twice into empty ones");
	ts_wbuf_free(&wa);
	ts_wbuf_free(&wt);
	ts_wbuf_free(&wl);
	return 0;
}

/* Counts from saved partials add saturating: an aggregate whose events
 * and kernels say 2^63, loaded twice, holds UINT64_MAX of each, never 0
 * (robustness finding F4: merged partials printed "0 kernels"). The saved
 * aggregate begins with its category counts, then events and kernels. */
static void counts_saturate(const ts_result *res, const ts_patterns *pats)
{
	ts_wbuf w = { 0 };
	ts_agg_save(res->agg, &w);
	size_t at = (size_t)TS_CAT_COUNT * 8;
	int bad = w.nomem || w.n < at + 16;
	for (int i = 0; i < 16 && !bad; i++)    /* events, kernels: 2^63 little-endian */
		w.p[at + (size_t)i] = (uint8_t)(i % 8 == 7 ? 0x80 : 0);
	ts_limits lim = ts_limits_default();
	ts_agg *a = ts_agg_new(&lim, pats);
	for (int k = 0; k < 2 && a && !bad; k++) {
		uint32_t *map, nmap;
		uint8_t *slots;
		ts_rbuf r = { .p = w.p, .n = w.n };
		bad += ts_agg_load(a, &r, &map, &slots, &nmap) != TS_OK;
		free(map);
		free(slots);
	}
	CHECK(!bad && a && a->events == UINT64_MAX && a->kernels == UINT64_MAX,
	      "events and kernels of 2^63 in two partials add to UINT64_MAX, not 0 (%" PRIu64 ")",
	      a ? a->kernels : 0);
	ts_agg_free(a);
	ts_wbuf_free(&w);
}

int main(void)
{
	ts_patterns *pats = unit_tables();
	if (!pats)
		return 1;
	ts_result calls;
	ts_agg *cagg;
	ts_attrib *catt;
	ts_layers *clay;
	if (round_trip("tests/attrib/calls.json", pats, &calls, &cagg, &catt, &clay))
		return 1;
	ops_twice(calls.attrib, catt);
	ts_agg_free(cagg);
	ts_attrib_free(catt);
	ts_layers_free(clay);
	ts_result_free(&calls);

	ts_result res;
	ts_agg *agg;
	ts_attrib *att;
	ts_layers *lay;
	if (round_trip("tests/data/sample_trace.json.gz", pats, &res, &agg, &att, &lay))
		return 1;
	ops_twice(res.attrib, att);
	counts_saturate(&res, pats);
	int bad = 0;

	const ts_layers *one = res.layers;
	CHECK(ts_layers_npasses(lay) == 2 * ts_layers_npasses(one) &&
	      ts_layers_per_pass(lay) == ts_layers_per_pass(one),
	      "twice the passes, the same layers per pass (%zu, %u)", ts_layers_npasses(lay),
	      ts_layers_per_pass(lay));
	size_t n1 = ts_layers_npasses(one);
	bad = 0;
	for (size_t i = 0; i < n1; i++) {
		const ts_pass *a = ts_layers_pass(one, i), *b = ts_layers_pass(lay, n1 + i);
		bad += b->index != a->index + n1 || b->stage != a->stage || b->gpu_ns != a->gpu_ns ||
		       b->layers != a->layers || b->kernels != a->kernels ||
		       b->idle.busy_ns != a->idle.busy_ns;
		const char *an = ts_layers_annotation_name(one, a->annotation),
			   *bn = ts_layers_annotation_name(lay, b->annotation);
		bad += (an == NULL) != (bn == NULL) || (an && strcmp(an, bn) != 0);
	}
	CHECK(bad == 0, "the second copy's passes follow the first's, numbered on, each as it was");
	bad = 0;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_stage_total *a = ts_layers_stage(one, (ts_pstage)s), *b = ts_layers_stage(lay, (ts_pstage)s);
		bad += b->passes != 2 * a->passes || b->layers != 2 * a->layers ||
		       b->gpu_ns != 2 * a->gpu_ns || b->idle.idle_ns != 2 * a->idle.idle_ns;
		bad += ts_layers_max_index(lay, (ts_pstage)s) != ts_layers_max_index(one, (ts_pstage)s);
		for (uint32_t i = 0; i < ts_layers_max_index(one, (ts_pstage)s); i++) {
			const ts_stat *x = &ts_layers_stat(one, (ts_pstage)s, i)->time,
				      *y = &ts_layers_stat(lay, (ts_pstage)s, i)->time;
			bad += y->count != 2 * x->count || y->total != 2 * x->total ||
			       ts_stat_quantile(y, 0.5) != ts_stat_quantile(x, 0.5);
		}
		const ts_stat *ao, *aa, *bo, *ba;
		const ts_stat *ar = ts_layers_stage_rows(one, (ts_pstage)s, &ao, &aa);
		const ts_stat *br = ts_layers_stage_rows(lay, (ts_pstage)s, &bo, &ba);
		bad += ba->count != 2 * aa->count || ba->total != 2 * aa->total;
		for (uint32_t row = 0; ar && row < ts_intern_count(res.agg->names); row++) {
			size_t len;
			const char *name = ts_intern_str(res.agg->names, row, &len);
			uint32_t to = ts_intern_find(agg->names, name, len);
			uint64_t want = ar[row].count * 2;
			uint64_t got = br && to != TS_INTERN_NONE ? br[to].count : 0;
			bad += got != want;
		}
	}
	CHECK(bad == 0, "per stage: totals, idle time, every layer position and every kernel row twice over, percentiles the same");
	bad = 0;
	const ts_anatomy *a1 = ts_layers_anatomy(one), *a2 = ts_layers_anatomy(lay);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		bad += ts_anatomy_layers(a2, s) != 2 * ts_anatomy_layers(a1, s) ||
		       ts_anatomy_passes(a2, s) != 2 * ts_anatomy_passes(a1, s) ||
		       ts_anatomy_total(a2, s)->ns != 2 * ts_anatomy_total(a1, s)->ns ||
		       ts_stat_quantile(ts_anatomy_layer_time(a2, s), 0.5) !=
			       ts_stat_quantile(ts_anatomy_layer_time(a1, s), 0.5);
		for (int t = 0; t < TS_TYPE_COUNT; t++)
			bad += ts_anatomy_type(a2, s, t)->sum.ns != 2 * ts_anatomy_type(a1, s, t)->sum.ns;
		for (size_t c = 0; c <= ts_anatomy_ncategories(a1); c++)
			bad += ts_anatomy_category(a2, s, (int)c - 1)->count !=
			       2 * ts_anatomy_category(a1, s, (int)c - 1)->count;
		size_t r1, r2;
		uint32_t *o1 = ts_anatomy_rows(a1, s, &r1), *o2 = ts_anatomy_rows(a2, s, &r2);
		bad += r1 != r2;
		for (size_t i = 0; i < r1 && i < r2; i++) {
			size_t l1, l2;
			const char *x = ts_intern_str(res.agg->names, o1[i], &l1);
			const char *y = ts_intern_str(agg->names, o2[i], &l2);
			bad += l1 != l2 || memcmp(x, y, l1) != 0 ||
			       ts_anatomy_row(a2, s, o2[i])->sum.ns != 2 * ts_anatomy_row(a1, s, o1[i])->sum.ns;
		}
		free(o1);
		free(o2);
	}
	CHECK(bad == 0, "the typical layer (anatomy): layers, passes, time by type and category, its kernel rows in the same order, twice over");
	ts_agg_free(agg);
	ts_attrib_free(att);
	ts_layers_free(lay);
	ts_result_free(&res);
	ts_patterns_free(pats);
	return unit_failed != 0;
}
