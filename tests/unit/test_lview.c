/*
 * The layer machine's record (analysis/views/lview.h), built from two
 * bundled traces and checked against what their generators wrote down:
 * the sample (tests/data/sample_trace.truth.json: 3 steps of 48 layers,
 * 2199 kernels, 21951834 ns of kernel time, one attention and one MoE
 * routing kernel a layer) and an eager MoE capture
 * (torch_moe_eager_h200.truth.json: 6 passes, 1 prefill and 5 decode, 8
 * layers of attention and MoE each, 5249 kernels, no step annotation). Then the record
 * of a result without the layer machine: zeros, never a NULL to trip on.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/views/lview.h"
#include "pipeline.h"
#include "unit.h"
#include "unit_tables.h"

/* Every timed kernel is in one stage: the stages' rows add up to the
 * trace's kernels and kernel time. */
static void stages_add_up(const ts_lview *v, uint64_t kernels, int64_t ns, const char *what)
{
	uint64_t k = 0;
	int64_t t = 0;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		k += v->stage[s].all->count;
		t += v->stage[s].all->total;
	}
	CHECK(k == kernels && t == ns, "%s: the stages hold every kernel (%llu of %llu) and its "
	      "time (%lld of %lld ns)", what, (unsigned long long)k, (unsigned long long)kernels,
	      (long long)t, (long long)ns);
}

/* Each pass: its stage, complete, its layers; the evidence made once. */
static void passes_are(const ts_lview *v, size_t n, size_t prefill, uint32_t layers,
		       bool annotated, const char *what)
{
	size_t ok = 0, evidence = 0, named = 0;
	for (size_t i = 0; i < v->npasses; i++) {
		const ts_pass *p = v->passes[i].p;
		ts_pstage want = i < prefill ? TS_PSTAGE_PREFILL : TS_PSTAGE_DECODE;
		ok += p->index == i && p->stage == want && p->complete && !p->draft &&
		      p->layers == layers;
		evidence += v->passes[i].evidence[0] != '\0';
		named += v->passes[i].annotation != NULL;
	}
	CHECK(v->npasses == n && ok == n, "%s: %zu passes (%zu prefill first), each complete with "
	      "%u layers (%zu of %zu as told)", what, n, prefill, layers, ok, v->npasses);
	CHECK(evidence == n, "%s: each pass carries its evidence (%zu)", what, evidence);
	CHECK(named == (annotated ? n : 0), "%s: %s (%zu named)", what,
	      annotated ? "each pass names its step annotation" : "no pass has an annotation", named);
}

/* The summary: per pass, total, by type (one attention and one MoE block
 * a layer), no drafts, no doubt's note, a complete pass so no note. */
static void summary_is(const ts_lview *v, size_t n, uint32_t layers, const char *what)
{
	uint64_t typed = 0;
	ts_ltype attn_moe = ts_ltype_of_mixer(ts_patterns_default_mixer(v->tables), true);
	for (int t = 0; t < TS_LT_COUNT; t++)
		typed += v->types[t];
	CHECK(v->per_pass == layers && v->layers == n * layers && v->complete == n &&
	      v->drafts == 0 && v->drafts_by == TS_DRAFT_NOT,
	      "%s: %u layers a pass, %llu in all, %llu complete passes, no draft", what,
	      v->per_pass, (unsigned long long)v->layers, (unsigned long long)v->complete);
	CHECK(typed == n * layers && v->types[attn_moe] == n * layers,
	      "%s: every layer attention and MoE (%llu of %llu)", what,
	      (unsigned long long)v->types[attn_moe], (unsigned long long)typed);
	CHECK(!v->has_note && v->anatomy, "%s: a complete pass, so no note; the anatomy is there", what);
}

/* A stage's totals and its layers by index: each index over its passes. */
static void stage_is(const ts_lview *v, ts_pstage s, uint32_t passes, uint32_t layers,
		     const char *what)
{
	const ts_lview_stage *st = &v->stage[s];
	uint32_t ok = 0;
	for (uint32_t i = 0; st->index && i < st->nindex; i++)
		ok += st->index[i].time.count == passes;
	CHECK(st->total.passes == passes && st->total.complete_passes == passes &&
	      st->total.layers == (uint64_t)passes * layers && st->total.drafts == 0,
	      "%s: %s has %u passes, all complete, %llu layers", what, ts_pstage_name(s),
	      st->total.passes, (unsigned long long)st->total.layers);
	CHECK(st->nindex == layers && ok == layers && st->typical_ns > 0 &&
	      st->noutliers <= TS_LVIEW_OUTLIERS,
	      "%s: %s's %u layer indices, each over its %u passes, and a typical one", what,
	      ts_pstage_name(s), st->nindex, passes);
}

/* A stage's typical layer (anat): its passes listed and skipped are the
 * stage's complete ones, layers passes times the model's; its kernels,
 * by row (with those past the name cap), by type and by category, each
 * add up to its total, the rows in layer order, the per-layer time over
 * every layer listed. */
static void anat_is(const ts_lview *v, ts_pstage s, uint32_t passes, uint32_t layers,
		    const char *what)
{
	const ts_lview_anat *a = &v->stage[s].anat;
	CHECK(a->passes + a->skipped == passes && a->passes > 0 &&
	      a->layers == (uint64_t)a->passes * layers && a->total && a->total->count > 0,
	      "%s: %s's typical layer over %u of %u passes, %llu layers", what, ts_pstage_name(s),
	      a->passes, passes, (unsigned long long)a->layers);
	if (!a->total)
		return;
	uint64_t by_row = a->other_rows ? a->other_rows->count : 0, by_type = 0, by_cat = 0;
	int64_t ns = a->other_rows ? a->other_rows->ns : 0;
	bool ordered = true;
	for (size_t i = 0; i < a->nrows; i++) {
		by_row += a->rows[i].r->sum.count;
		ns += a->rows[i].r->sum.ns;
		ordered &= i == 0 || a->rows[i - 1].r->pos <= a->rows[i].r->pos;
	}
	for (int t = 0; t < TS_TYPE_COUNT; t++)
		by_type += a->type[t] ? a->type[t]->sum.count : 0;
	for (size_t c = 0; a->category && c <= v->ncategories; c++)
		by_cat += a->category[c] ? a->category[c]->count : 0;
	CHECK(by_row == a->total->count && ns == a->total->ns && by_type == a->total->count &&
	      by_cat == a->total->count && ordered,
	      "%s: %s's layer kernels add up by row, type and category, rows in order (%llu, %llu, "
	      "%llu of %llu)", what, ts_pstage_name(s), (unsigned long long)by_row,
	      (unsigned long long)by_type, (unsigned long long)by_cat,
	      (unsigned long long)a->total->count);
	CHECK(a->layer_time && a->layer_time->count == a->layers && a->layer_wall &&
	      a->layer_wall->count == a->layers,
	      "%s: %s's time and wall a layer, over each of its %llu layers", what, ts_pstage_name(s),
	      (unsigned long long)a->layers);
}

static int analyse(const ts_patterns *pats, const char *path, ts_result *res, ts_lview *v)
{
	ts_pipeline_opts po = { .limits = ts_limits_default(), .patterns = (ts_patterns *)pats };
	ts_status st = ts_pipeline_run(path, &po, res);
	CHECK(st == TS_OK, "%s analyses", path);
	if (st != TS_OK)
		return -1;
	int rc = ts_lview_of(res, v);   /* CHECK reads its condition twice */
	CHECK(rc == 0, "%s: the record builds", path);
	return rc;
}

int main(void)
{
	ts_patterns *pats = unit_tables();
	if (!pats)
		return 1;
	ts_result res;
	ts_lview v;
	if (analyse(pats, "tests/data/sample_trace.json.gz", &res, &v) == 0) {
		passes_are(&v, 3, 0, 48, true, "sample");
		summary_is(&v, 3, 48, "sample");
		stage_is(&v, TS_PSTAGE_DECODE, 3, 48, "sample");
		stages_add_up(&v, 2199, 21951834, "sample");
		CHECK(v.stage[TS_PSTAGE_PREFILL].total.passes == 0 && !v.stage[TS_PSTAGE_PREFILL].index,
		      "sample: no prefill pass, no prefill layer index");
		CHECK(!v.debug.listed && v.debug.n == 0, "sample: no --debug-layers, nothing listed");
		ts_lview_free(&v);
		CHECK(v.npasses == 0 && v.passes == NULL, "freed, the record holds no pass");
		ts_result_free(&res);
	}
	if (analyse(pats, "tests/data/torch_moe_eager_h200.json.gz", &res, &v) == 0) {
		passes_are(&v, 6, 1, 8, false, "eager MoE");
		summary_is(&v, 6, 8, "eager MoE");
		stage_is(&v, TS_PSTAGE_PREFILL, 1, 8, "eager MoE");
		stage_is(&v, TS_PSTAGE_DECODE, 5, 8, "eager MoE");
		anat_is(&v, TS_PSTAGE_PREFILL, 1, 8, "eager MoE");
		anat_is(&v, TS_PSTAGE_DECODE, 5, 8, "eager MoE");
		/* the truth's profiler_kernels; its time is the aggregate's */
		stages_add_up(&v, 5249, res.agg->all.total, "eager MoE");
		ts_lview_free(&v);
		ts_result_free(&res);
	}
	/* no layer machine: a record of zeros whose stage rows can be read */
	ts_result none;
	memset(&none, 0, sizeof none);
	int rc = ts_lview_of(&none, &v);
	CHECK(rc == 0 && v.npasses == 0 && v.per_pass == 0 && !v.has_note && !v.anatomy &&
	      v.stage[TS_PSTAGE_UNKNOWN].all && v.stage[TS_PSTAGE_UNKNOWN].all->count == 0 &&
	      !v.stage[TS_PSTAGE_DECODE].rows,
	      "without the layer machine: no pass, empty stages to read");
	ts_lview_free(&v);
	ts_patterns_free(pats);
	return unit_failed != 0;
}
