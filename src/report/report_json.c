/*
 * report_json.c - the JSON report: one document, "schema": 1, documented in
 * docs/json.md. Keys are only ever added, never renamed, within a schema.
 * Names are written in full; times are exact microseconds from integer ns.
 * Everything is written through yajl_gen (jsonw.h); sections whose JSON is
 * exactly a table come from the table view's definition (tview.h), written
 * by report_tabfmt.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/aview.h"
#include "analysis/views/insight.h"
#include "analysis/views/lview.h"
#include "analysis/views/sview.h"
#include "input/base/satmath.h"
#include "report/report.h"
#include "report/jsonw.h"
#include "report/version.h"

/* A figure with up to 6 significant digits, or null. */
static void put_fig(ts_jw *w, const char *k, bool known, double v)
{
	ts_jw_key(w, k);
	if (known)
		ts_jw_num(w, "%.6g", v);
	else
		ts_jw_null(w);
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The GPU peaks the roofline uses: which part, how it was found, the
 * figures and their source. */
static void put_peaks(ts_jw *w, const ts_result *res)
{
	const ts_gpu *g = res->gpu;
	if (!g) {
		ts_jw_null(w);
		return;
	}
	ts_jw_obj(w);
	ts_jw_kstr(w, "name", g->name);
	ts_jw_kstr(w, "matched_by", res->gpu_how ? res->gpu_how : "");
	ts_jw_knum(w, "hbm_tbps", "%.6g", g->hbm_tbps);
	ts_jw_key(w, "tflops");
	ts_jw_obj(w);
	for (int c = 0; c < TS_DT_COUNT; c++)
		if (g->tflops[c] > 0)
			ts_jw_knum(w, ts_dtclass_name((ts_dtclass)c), "%.6g", g->tflops[c]);
	ts_jw_end_obj(w);
	ts_jw_kstr(w, "source", g->source);
	ts_jw_end_obj(w);
}

static void put_trace(ts_jw *w, const ts_result *res, const ts_report_opts *o)
{
	const ts_agg *a = res->agg;
	const ts_meta *m = &res->meta;
	const ts_devprop *d = ts_report_devprop(res);
	ts_jw_member(w, 2, "trace");
	ts_jw_obj(w);
	ts_jw_member(w, 4, "path");
	ts_jw_str(w, res->path);
	ts_jw_member(w, 4, "input_bytes");
	ts_jw_uint(w, res->input_bytes);
	ts_jw_member(w, 4, "compressed");
	ts_jw_bool(w, res->gzip);
	ts_jw_member(w, 4, "bytes");
	ts_jw_uint(w, res->json_bytes);
	ts_jw_member(w, 4, "partial");
	ts_jw_bool(w, res->partial);
	ts_jw_member(w, 4, "error");
	ts_jw_str(w, res->err.status != TS_OK ? res->err.msg : NULL);
	ts_jw_member(w, 4, "platform");
	ts_jw_str(w, ts_platform_name(res->platform));
	ts_jw_member(w, 4, "platform_source");
	ts_jw_str(w, res->platform_source);
	ts_jw_member(w, 4, "framework");
	ts_jw_str(w, res->framework);
	ts_jw_member(w, 4, "gpu");
	ts_jw_str(w, d ? d->name : "");
	ts_jw_member(w, 4, "device");
	if (d) {
		ts_jw_obj(w);
		ts_jw_kopt_int(w, "id", d->has & TS_DEV_HAS_ID, d->id);
		ts_jw_kopt_int(w, "sm_count", d->has & TS_DEV_HAS_SMS, d->sm_count);
		ts_jw_kopt_int(w, "memory_bytes", d->has & TS_DEV_HAS_MEM, d->memory_bytes);
		ts_jw_kopt_int(w, "warp_size", d->has & TS_DEV_HAS_WARP, d->warp_size);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	ts_jw_member(w, 4, "peaks");
	put_peaks(w, res);
	ts_jw_member(w, 4, "world_size");
	ts_jw_opt_int(w, m->has & TS_META_HAS_WORLD, m->world_size);
	ts_jw_member(w, 4, "rank");
	ts_jw_opt_int(w, m->has & TS_META_HAS_RANK, m->rank);
	ts_jw_member(w, 4, "base_time_ns");
	ts_jw_opt_int(w, m->has & TS_META_HAS_BASE_TIME, m->base_time_ns);
	ts_jw_member(w, 4, "events");
	ts_jw_uint(w, a->events);
	/* as the writer ordered them, sorted first, or out of order (a pipe) */
	ts_jw_member(w, 4, "event_order");
	ts_jw_str(w, !res->order_out ? "as_written" : res->order_sorted ? "sorted" : "out_of_order");
	ts_jw_member(w, 4, "kernels");
	ts_jw_uint(w, a->kernels);
	ts_jw_member(w, 4, "distinct_kernels");
	ts_jw_uint(w, ts_intern_count(a->names));
	ts_jw_member(w, 4, "devices");
	ts_jw_int(w, a->ndev);
	ts_jw_member(w, 4, "kernel_time_us");
	ts_jw_us(w, a->all.total);
	ts_busy_summary bs;
	ts_insight_busy(res, &bs);
	ts_jw_member(w, 4, "busy_time_us");
	ts_jw_us(w, bs.busy_ns);
	/* a job of several ranks: each rank's span is on its own clock (ranks[]
	 * .span_us); one across them would mean nothing */
	bool job = o->ranks && o->ranks->n > 1;
	ts_jw_member(w, 4, "span_us");
	if (job)
		ts_jw_null(w);
	else
		ts_jw_us(w, a->has_span ? a->last_end - a->first_ts : 0);
	ts_jw_member(w, 4, "gpu_span_us");
	if (job)
		ts_jw_null(w);
	else
		ts_jw_us(w, a->has_kspan ? a->k_last - a->k_first : 0);
	ts_jw_nl(w, 2);
	ts_jw_end_obj(w);
}

static void put_events(ts_jw *w, const ts_agg *a)
{
	ts_jw_member(w, 2, "events");
	ts_jw_obj(w);
	for (int c = 0; c < TS_CAT_COUNT; c++)
		ts_jw_kuint(w, ts_cat_name((ts_cat)c), a->counts[c]);
	ts_jw_end_obj(w);
}

static void put_model(ts_jw *w, const ts_result *res)
{
	const ts_model *m = &res->model;
	ts_jw_member(w, 2, "model");
	ts_jw_obj(w);
	ts_jw_kstr(w, "family", m->family ? m->family->name : NULL);
	ts_jw_kstr(w, "source", m->source);
	ts_jw_kint(w, "score", m->family ? m->score : 0L);
	ts_jw_key(w, "evidence");
	ts_jw_arr(w);
	for (int i = 0; m->family && i < m->nevidence; i++) {
		char d[300];
		ts_selector_describe(res->patterns, m->evidence[i], d, sizeof d);
		ts_jw_obj(w);
		ts_jw_kstr(w, "rule", d);
		ts_jw_kint(w, "weight", m->evidence[i]->weight);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_key(w, "num_hidden_layers");
	ts_jw_arr(w);
	for (size_t i = 0; m->family && i < m->family->nnum_layers; i++)
		ts_jw_int(w, m->family->num_layers[i]);
	ts_jw_end_arr(w);
	ts_jw_kstr(w, "described", m->described[0] ? m->described : NULL);
	ts_jw_kbool(w, "moe", m->moe);
	/* from the attention ops' recorded shapes; null where none had them */
	ts_jw_key(w, "attention");
	if (m->attn_kind) {
		ts_jw_obj(w);
		ts_jw_kstr(w, "kind", m->attn_kind);
		ts_jw_kint(w, "heads", m->attn_heads);
		ts_jw_kint(w, "kv_heads", m->attn_kv);
		ts_jw_kbool(w, "per_rank", m->attn_per_rank);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	ts_jw_key(w, "tie");
	ts_jw_arr(w);
	if (m->tie) {
		ts_jw_str(w, m->tie->name);
		ts_jw_str(w, m->runner_up ? m->runner_up->name : NULL);
	}
	ts_jw_end_arr(w);
	ts_jw_key(w, "unlike");
	if (m->unlike) {
		ts_jw_obj(w);
		ts_jw_kstr(w, "family", m->unlike->name);
		ts_jw_kint(w, "score", m->unlike_score);
		ts_jw_kstr(w, "why", m->unlike_why);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	ts_jw_end_obj(w);
}

static void put_kernel_name(ts_jw *w, const char *k, const ts_result *res, uint32_t row)
{
	ts_jw_key(w, k);
	if (row == TS_INTERN_NONE || row >= ts_intern_count(res->agg->names)) {
		ts_jw_null(w);
		return;
	}
	size_t len;
	const char *n = ts_kview_row_name(res->agg, row, &len);
	ts_jw_strn(w, n, len);
}

static void put_op_name(ts_jw *w, const char *k, const ts_result *res, uint32_t op)
{
	size_t len;
	const char *n = ts_aview_op_name(res, op, &len);
	ts_jw_kstrn(w, k, n, len);
}

/* Busy time, idle gaps and launch-bound gaps (idle.h). */
static void put_idle(ts_jw *w, const ts_result *res, const ts_idle_pass *d)
{
	ts_jw_obj(w);
	ts_jw_kus(w, "span_us", d->span_ns);
	ts_jw_kus(w, "busy_us", d->busy_ns);
	ts_jw_knum(w, "busy_pct", "%.2f", pct(d->busy_ns, d->span_ns));
	ts_jw_kus(w, "idle_us", d->idle_ns);
	ts_jw_knum(w, "idle_pct", "%.2f", pct(d->idle_ns, d->span_ns));
	ts_jw_kuint(w, "gaps", d->gaps);
	ts_jw_key(w, "largest_gap");
	if (d->gaps) {
		ts_jw_obj(w);
		ts_jw_kus(w, "us", d->largest_ns);
		ts_jw_kus(w, "at_us", d->largest_at);
		put_kernel_name(w, "after_kernel", res, d->largest_after);
		put_kernel_name(w, "before_kernel", res, d->largest_before);
		put_op_name(w, "before_op", res, d->largest_op);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	ts_jw_key(w, "launch_bound");
	ts_jw_obj(w);
	ts_jw_kuint(w, "gaps", d->launch_gaps);
	ts_jw_kus(w, "us", d->launch_ns);
	ts_jw_kuint(w, "gaps_checked", d->launch_checked);
	ts_jw_end_obj(w);
	ts_jw_kuint(w, "stray_kernels", d->stray_kernels);
	ts_jw_kus(w, "stray_us", d->stray_ns);
	/* busy split into communication and computation, and what of the
	 * communication ran under computation (hidden) or alone (exposed) */
	int64_t hidden = ts_insight_comm_hidden(d);
	ts_jw_key(w, "overlap");
	ts_jw_obj(w);
	ts_jw_kus(w, "compute_us", d->compute_ns);
	ts_jw_kus(w, "comm_us", d->comm_ns);
	ts_jw_kus(w, "comm_hidden_us", hidden);
	ts_jw_kus(w, "comm_exposed_us", d->comm_ns - hidden);
	ts_jw_knum(w, "comm_hidden_pct", "%.2f", pct(hidden, d->comm_ns));
	ts_jw_end_obj(w);
	ts_jw_end_obj(w);
}

static void put_rates(ts_jw *w, const ts_result *res, const ts_anat_sum *s)
{
	ts_roofline r;
	ts_roofline_sum(res, s, &r);
	ts_jw_kuint(w, "flops", s->flops);
	ts_jw_kuint(w, "bytes", s->bytes);
	put_fig(w, "tflops", r.has_flops, r.tflops);
	put_fig(w, "tbps", r.has_bytes, r.tbps);
	put_fig(w, "pct_of_peak", r.pct_of_peak >= 0, r.pct_of_peak);
	ts_jw_kstr(w, "bound", ts_bound_name(r.bound));
}

/* The typical layer of stage s (anatomy.h): parts that add up to it. */
static void put_stage_anatomy(ts_jw *w, const ts_result *res, const ts_lview *lv, int s)
{
	const ts_lview_stage *st = &lv->stage[s];
	const ts_lview_anat *an = &st->anat;
	uint64_t nl = an->layers;
	const ts_anat_sum *tot = an->total;
	const ts_stat *lt = an->layer_time;
	double L = (double)nl;
	ts_jw_nl(w, 4);
	ts_jw_obj(w);
	ts_jw_kstr(w, "stage", ts_pstage_name((ts_pstage)s));
	ts_jw_kuint(w, "passes", an->passes);
	ts_jw_kuint(w, "passes_not_listed", an->skipped);
	ts_jw_kuint(w, "layers", nl);
	ts_jw_knum(w, "kernels_per_layer", "%.2f", (double)tot->count / L);
	ts_jw_kus_f(w, "mean_us", (double)tot->ns / L);
	ts_jw_kus(w, "p50_us", ts_stat_quantile(lt, 0.5));
	const ts_stat *wall = an->layer_wall;
	ts_jw_kopt_us(w, "wall_mean_us", wall->count > 0,
		      wall->count ? wall->total / (int64_t)wall->count : 0);
	ts_jw_kopt_us(w, "wall_p50_us", wall->count > 0, ts_stat_quantile(wall, 0.5));
	put_rates(w, res, tot);
	ts_jw_member(w, 5, "by_type");
	ts_jw_arr(w);
	for (int t = 0; t < TS_TYPE_COUNT; t++) {
		const ts_anat_type *ty = an->type[t];
		if (!ty->sum.count)
			continue;
		ts_jw_nl(w, 6);
		ts_jw_obj(w);
		ts_jw_kstr(w, "type", ts_ktype_name((ts_ktype)t));
		ts_jw_knum(w, "kernels_per_layer", "%.2f", (double)ty->sum.count / L);
		ts_jw_kus_f(w, "mean_us", (double)ty->sum.ns / L);
		ts_jw_kus(w, "p50_us", ts_stat_quantile(&ty->per_layer, 0.5));
		ts_jw_knum(w, "share_pct", "%.2f", pct(ty->sum.ns, tot->ns));
		put_rates(w, res, &ty->sum);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_member(w, 5, "by_category");
	ts_jw_arr(w);
	for (int c = -1; c < (int)lv->ncategories; c++) {
		const ts_anat_sum *cs = an->category[c + 1];
		if (!cs->count)
			continue;
		ts_kclass cl = { .category = c };
		ts_jw_nl(w, 6);
		ts_jw_obj(w);
		ts_jw_kstr(w, "category", ts_kclass_category(res->patterns, &cl));
		ts_jw_knum(w, "kernels_per_layer", "%.2f", (double)cs->count / L);
		ts_jw_kus_f(w, "mean_us", (double)cs->ns / L);
		ts_jw_knum(w, "share_pct", "%.2f", pct(cs->ns, tot->ns));
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_member(w, 5, "kernels");
	ts_jw_arr(w);
	for (size_t i = 0; i < an->nrows; i++) {
		const ts_anat_row *r = an->rows[i].r;
		uint32_t call = an->rows[i].call, kr = an->rows[i].kernel;
		const ts_kclass *c = ts_kview_row_class(res->agg, kr);
		ts_jw_nl(w, 6);
		ts_jw_obj(w);
		ts_jw_kuint(w, "position", r->pos);
		put_kernel_name(w, "name", res, kr);
		ts_jw_kuint(w, "call", call + 1);   /* its first call in a layer, second, ... */
		ts_jw_kstr(w, "category", c ? ts_kclass_category(res->patterns, c) : "Other");
		ts_jw_kstr(w, "type", ts_ktype_name(c ? c->type : TS_TYPE_OTHER));
		ts_jw_knum(w, "calls_per_layer", "%.2f", (double)r->sum.count / L);
		ts_jw_kus_f(w, "mean_us", (double)r->sum.ns / L);
		ts_jw_knum(w, "share_pct", "%.2f", pct(r->sum.ns, tot->ns));
		ts_jw_end_obj(w);
	}
	const ts_anat_sum *orow = an->other_rows;
	if (orow->count) {
		ts_jw_nl(w, 6);
		ts_jw_obj(w);
		ts_jw_knull(w, "position");
		ts_jw_kstr(w, "name", "(other)");
		ts_jw_knull(w, "category");
		ts_jw_knull(w, "type");
		ts_jw_knum(w, "calls_per_layer", "%.2f", (double)orow->count / L);
		ts_jw_kus_f(w, "mean_us", (double)orow->ns / L);
		ts_jw_knum(w, "share_pct", "%.2f", pct(orow->ns, tot->ns));
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_member(w, 5, "outliers");
	ts_jw_arr(w);
	for (size_t i = 0; i < st->noutliers; i++) {
		const ts_layer_outlier *lo = &st->outliers[i];
		ts_jw_obj(w);
		ts_jw_kuint(w, "layer", lo->index);
		ts_jw_kstr(w, "type", ts_ltype_name(res->patterns, lo->type));
		ts_jw_kus(w, "mean_us", lo->mean_ns);
		ts_jw_knum(w, "ratio", "%.3f", lo->ratio);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_kus(w, "typical_index_us", st->typical_ns);
	ts_jw_end_obj(w);
}

static void put_anatomy(ts_jw *w, const ts_result *res, const ts_lview *lv, const ts_kview *v)
{
	ts_jw_member(w, 2, "layer_anatomy");
	ts_jw_arr(w);
	size_t any = 0;
	for (int s = 0; lv->anatomy && s < TS_PSTAGE_COUNT; s++) {
		if ((v->staged && (ts_pstage)s != v->stage) || lv->stage[s].anat.layers == 0)
			continue;
		put_stage_anatomy(w, res, lv, s);
		any++;
	}
	ts_jw_end_rows(w, any, 2);
}

static void put_insight(ts_jw *w, const ts_result *res)
{
	ts_busy_summary b;
	ts_insight_busy(res, &b);
	ts_jw_member(w, 2, "busy");
	ts_jw_obj(w);
	ts_jw_key(w, "in_passes");
	put_idle(w, res, &b.in_passes);
	ts_jw_key(w, "outside_passes");
	ts_jw_obj(w);
	ts_jw_kuint(w, "kernels", b.outside_kernels);
	ts_jw_kus(w, "gpu_time_us", b.outside_ns);
	ts_jw_end_obj(w);
	/* from each pass's end to the next one's start */
	ts_jw_key(w, "between_passes");
	ts_jw_obj(w);
	ts_jw_kuint(w, "gaps", b.between.gaps);
	ts_jw_kus(w, "us", b.between.ns);
	ts_jw_kus(w, "largest_us", b.between.largest_ns);
	ts_jw_kus(w, "gpu_idle_before_next_us", b.between.wait_ns);
	ts_jw_key(w, "cpu_late");
	ts_jw_obj(w);
	ts_jw_kuint(w, "gaps", b.between.late);
	ts_jw_kus(w, "us", b.between.late_ns);
	ts_jw_kuint(w, "gaps_checked", b.between.checked);
	ts_jw_end_obj(w);
	ts_jw_end_obj(w);
	/* the whole trace's busy time split (agg.h), passes or none */
	const ts_overlap ov = b.overlap;
	ts_jw_key(w, "overlap");
	ts_jw_obj(w);
	ts_jw_kus(w, "compute_us", ov.compute_ns);
	ts_jw_kus(w, "comm_us", ov.comm_ns);
	ts_jw_kus(w, "comm_hidden_us", ov.comm_hidden_ns);
	ts_jw_kus(w, "comm_exposed_us", ov.comm_ns - ov.comm_hidden_ns);
	ts_jw_kus(w, "mem_us", ov.mem_ns);
	ts_jw_kus(w, "mem_hidden_us", ov.mem_hidden_ns);
	ts_jw_kus(w, "mem_exposed_us", ov.mem_ns - ov.mem_hidden_ns);
	ts_jw_kus(w, "kernel_busy_us", ov.busy_ns);
	ts_jw_kus(w, "busy_with_copies_us", ov.all_ns);
	ts_jw_end_obj(w);
	ts_jw_end_obj(w);
	ts_jw_member(w, 2, "opportunities");
	ts_jw_arr(w);
	ts_opportunity op[TS_INSIGHT_MAX];
	size_t n = ts_insight_opportunities(res, op, TS_INSIGHT_MAX);
	for (size_t i = 0; i < n; i++) {
		ts_jw_nl(w, 4);
		ts_jw_obj(w);
		ts_jw_kstr(w, "kind", ts_opp_kind_name(op[i].kind));
		ts_jw_kstr(w, "stage", ts_pstage_name((ts_pstage)op[i].stage));
		ts_jw_kus(w, "at_stake_us", op[i].at_stake_ns);
		ts_jw_kopt_us(w, "saves_us", op[i].saves_ns >= 0, op[i].saves_ns);
		ts_jw_knum(w, "pct_of_stage", "%.2f", op[i].pct_of_stage);
		/* roofline: measured against this share of the peak, and whence */
		ts_jw_key(w, "ceiling_pct");
		if (op[i].kind == TS_OPP_ROOFLINE)
			ts_jw_num(w, "%.1f", op[i].ceiling_pct);
		else
			ts_jw_null(w);
		ts_jw_kstr(w, "ceiling_source", op[i].kind != TS_OPP_ROOFLINE ? NULL
			   : op[i].ceiling_source ? op[i].ceiling_source : "default");
		ts_jw_kstr(w, "text", op[i].text);
		ts_jw_end_obj(w);
	}
	ts_jw_end_rows(w, n, 2);
}

/* layers.doubt: what the self-check found against the layout */
static void put_doubt(ts_jw *w, const ts_patterns *p, const ts_layer_doubt *d)
{
	ts_jw_key(w, "doubt");
	ts_jw_obj(w);
	ts_jw_kuint(w, "attention_outside_layers", d->attn_outside);
	ts_jw_kuint(w, "passes_with_attention_outside", d->attn_passes);
	ts_jw_kuint(w, "layers_checked", d->checked);
	ts_jw_kuint(w, "layers_differing", d->differ);
	ts_jw_kuint(w, "passes_layers_thin", d->thin);
	ts_jw_key(w, "thinnest");
	if (d->thin) {
		ts_jw_obj(w);
		ts_jw_kuint(w, "pass", d->thin_pass);
		ts_jw_knum(w, "layers_pct", "%.1f", 100.0 * d->thin_share);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	ts_jw_key(w, "first_differing");
	if (d->differ) {
		ts_jw_obj(w);
		ts_jw_kuint(w, "pass", d->first.pass);
		ts_jw_kuint(w, "layer", d->first.layer);
		ts_jw_kstr(w, "type", ts_ltype_name(p, d->first.type));
		ts_jw_kuint(w, "kernels", d->first.kernels);
		ts_jw_kuint(w, "typical_kernels", d->first.typical_kernels);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	ts_jw_end_obj(w);
}

static void put_layer_summary(ts_jw *w, const ts_result *res, const ts_lview *lv)
{
	ts_jw_member(w, 2, "layers");
	ts_jw_obj(w);
	ts_jw_kuint(w, "per_pass", lv->per_pass);
	ts_jw_kuint(w, "complete_passes", lv->complete);
	ts_jw_kuint(w, "draft_passes", lv->drafts);
	/* what told most of the drafts from their targets */
	ts_jw_kstr(w, "drafts_by", ts_draft_by_name(lv->drafts_by));
	ts_jw_kuint(w, "total", lv->layers);
	ts_jw_kopt_int(w, "expected", lv->expected > 0, lv->expected);
	ts_jw_kstr(w, "expected_from", lv->expected_from);
	ts_jw_key(w, "types");
	ts_jw_obj(w);
	for (int t = 0; t < TS_LT_COUNT; t++)
		if (lv->types[t])
			ts_jw_kuint(w, ts_ltype_name(res->patterns, (ts_ltype)t), lv->types[t]);
	ts_jw_end_obj(w);
	ts_jw_kuint(w, "structural_boundaries", lv->structural);
	ts_jw_kuint(w, "once_per_pass_units", lv->once_units);
	/* what says the trace is LLM generation (none: no pass has a stage) */
	static const char *const gen[] = { "annotation", "embedding", "kv_cache",
					   "stage_kernel", "framework" };
	ts_jw_key(w, "generation_evidence");
	ts_jw_arr(w);
	for (size_t i = 0; i < sizeof gen / sizeof *gen; i++)
		if (lv->generation & (1u << i))
			ts_jw_str(w, gen[i]);
	ts_jw_end_arr(w);
	/* a diffusion framework ran the passes: denoising steps, no stage */
	ts_jw_kbool(w, "diffusion", lv->diffusion);
	/* an encoder's forward: bidirectional attention only, no stage */
	ts_jw_kbool(w, "encoder", lv->encoder);
	ts_jw_kuint(w, "orphan_kernels", lv->orphans);
	ts_jw_kus(w, "orphan_us", lv->orphan_ns);
	const ts_odd_layer *odd = lv->odd;
	ts_jw_kuint(w, "odd_total", lv->odd_total);
	ts_jw_key(w, "odd");
	ts_jw_arr(w);
	for (size_t i = 0; i < lv->nodd; i++) {
		ts_jw_obj(w);
		ts_jw_kuint(w, "pass", odd[i].pass);
		ts_jw_kuint(w, "layer", odd[i].layer);
		ts_jw_kstr(w, "type", ts_ltype_name(res->patterns, odd[i].type));
		ts_jw_kus(w, "us", odd[i].ns);
		ts_jw_kus(w, "typical_us", odd[i].typical_ns);
		ts_jw_kuint(w, "kernels", odd[i].kernels);
		ts_jw_kuint(w, "typical_kernels", odd[i].typical_kernels);
		/* the cause: the kernel whose time grew most where the layer
		 * runs the typical layer's kernels (else a boundary may be
		 * misplaced) */
		ts_jw_kbool(w, "same_kernels", odd[i].same_kernels);
		ts_jw_key(w, "slow_kernel");
		if (odd[i].slow_row != TS_INTERN_NONE) {
			ts_jw_obj(w);
			put_kernel_name(w, "name", res, odd[i].slow_row);
			ts_jw_kus(w, "us", odd[i].slow_ns);
			ts_jw_kus(w, "typical_us", odd[i].slow_typical_ns);
			ts_jw_end_obj(w);
		} else {
			ts_jw_null(w);
		}
		/* where its kernels differ: from which layer, and how */
		ts_jw_key(w, "differs_from");
		if (!odd[i].same_kernels && odd[i].ref_layer != UINT32_MAX) {
			ts_jw_obj(w);
			ts_jw_kuint(w, "layer", odd[i].ref_layer);
			put_kernel_name(w, "runs_more", res, odd[i].extra_row);
			put_kernel_name(w, "runs_fewer", res, odd[i].missing_row);
			ts_jw_end_obj(w);
		} else {
			ts_jw_null(w);
		}
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	put_doubt(w, lv->tables, &lv->doubt);
	ts_jw_end_obj(w);

	ts_jw_member(w, 2, "passes_note");
	ts_jw_str(w, lv->has_note ? lv->note : NULL);
}

/* A window of trace time; null when unknown. */
static void put_window(ts_jw *w, const char *key, int64_t from, int64_t to)
{
	ts_jw_key(w, key);
	if (from == INT64_MIN || to == INT64_MIN) {
		ts_jw_null(w);
		return;
	}
	ts_jw_obj(w);
	ts_jw_kus(w, "start_us", from);
	ts_jw_kus(w, "end_us", to);
	ts_jw_end_obj(w);
}

/* A stage's passes in wall time, steps and tokens (sview.h); null when
 * it has no pass. */
static void put_steps(ts_jw *w, const ts_result *res, ts_pstage stage)
{
	ts_sview st;
	ts_jw_key(w, "steps");
	if (!ts_sview_of(res->layers, res->api, stage, &st)) {
		ts_jw_null(w);
		return;
	}
	ts_jw_obj(w);
	ts_jw_kuint(w, "passes", st.passes);
	ts_jw_kbool(w, "of_partial_passes", st.of_partials);
	ts_jw_kus(w, "wall_mean_us", st.wall_mean_ns);
	ts_jw_kus(w, "wall_p50_us", st.wall_p50_ns);
	ts_jw_kus(w, "wall_max_us", st.wall_max_ns);
	ts_jw_kus(w, "busy_us", st.busy_ns);
	ts_jw_kus(w, "idle_us", st.idle_ns);
	ts_jw_kus(w, "launch_bound_us", st.launch_ns);
	ts_jw_kus(w, "kernel_time_us", st.kernel_ns);
	ts_jw_kuint(w, "steps", st.steps);
	ts_jw_kopt_us(w, "step_p50_us", st.steps > 0, st.step_p50_ns);
	ts_jw_kopt_int(w, "batch", st.batch > 0, st.batch);
	ts_jw_kopt_int(w, "tokens", st.tokens > 0, st.tokens);
	if (st.tokens_per_s > 0)
		ts_jw_knum(w, "tokens_per_s", "%.1f", st.tokens_per_s);
	else
		ts_jw_knull(w, "tokens_per_s");
	ts_jw_kopt_us(w, "per_output_token_us", st.token_ns > 0, st.token_ns);
	static const char *const from[] = { "step_to_step", "step_window", "pass_wall" };
	ts_jw_kstr(w, "per_output_token_from", st.token_ns > 0 ? from[st.token_from] : NULL);
	ts_jw_kuint(w, "step_windows", st.windows);
	ts_jw_kopt_us(w, "step_window_p50_us", st.windows > 0, st.window_p50_ns);
	ts_jw_kopt_us(w, "before_pass_us", st.windows > 0, st.before_ns);
	ts_jw_kopt_us(w, "before_pass_busy_us", st.windows > 0, st.before_busy_ns);
	ts_jw_kopt_us(w, "before_pass_sync_us", st.windows > 0, st.before_sync_ns);
	ts_jw_kopt_us(w, "after_pass_us", st.windows > 0, st.after_ns);
	ts_jw_kuint(w, "sync_calls", st.sync_calls);
	ts_jw_kus(w, "sync_us", st.sync_ns);
	ts_jw_kus(w, "sync_window_us", st.sync_window_ns);
	ts_jw_kstr(w, "sync_top", st.sync_top);   /* null when none */
	ts_jw_end_obj(w);
}

/* The pass's step accounted in its GPU window (sview.h): the parts add up
 * to the wall; null without a window. */
static void put_step(ts_jw *w, const ts_result *res, size_t i)
{
	ts_step_acct a;
	ts_jw_key(w, "step");
	if (!ts_step_account(res->layers, res->api, i, &a)) {
		ts_jw_null(w);
		return;
	}
	ts_jw_obj(w);
	ts_jw_kus(w, "wall_us", a.wall_ns);
	ts_jw_kus(w, "before_pass_us", a.before_ns);
	ts_jw_kus(w, "before_pass_busy_us", a.before_busy_ns);
	ts_jw_kus(w, "before_pass_sync_us", a.before_sync_ns);
	ts_jw_kstr(w, "before_pass_sync_top", a.before_sync);   /* null when none */
	ts_jw_kus(w, "pass_us", a.pass_ns);
	ts_jw_kus(w, "pass_busy_us", a.pass_busy_ns);
	ts_jw_kus(w, "pass_launch_bound_us", a.pass_launch_ns);
	ts_jw_kus(w, "after_pass_us", a.after_ns);
	ts_jw_end_obj(w);
}

static void put_pass(ts_jw *w, const ts_result *res, const ts_lview *lv, size_t i)
{
	const ts_lview_pass *vp = &lv->passes[i];
	const ts_pass *p = vp->p;
	ts_jw_nl(w, 4);
	ts_jw_obj(w);
	ts_jw_kuint(w, "index", p->index);
	ts_jw_kstr(w, "stage", ts_pstage_name(p->stage));
	ts_jw_knum(w, "confidence", "%.2f", p->confidence);
	ts_jw_kbool(w, "complete", p->complete);
	ts_jw_kbool(w, "draft", p->draft);
	ts_jw_kstr(w, "draft_by", p->draft ? ts_draft_by_name(p->draft_by) : NULL);
	ts_jw_kuint(w, "layers", p->layers);
	ts_jw_kuint(w, "kernels", p->kernels);
	ts_jw_kus(w, "gpu_time_us", p->gpu_ns);
	ts_jw_kus(w, "start_us", p->first_ts);
	ts_jw_kopt_int(w, "batch", p->batch >= 0, p->batch);
	ts_jw_kopt_int(w, "tokens", p->tokens >= 0, p->tokens);
	ts_jw_kstr(w, "annotation", vp->annotation);
	ts_jw_key(w, "votes");
	ts_jw_obj(w);
	ts_jw_kint(w, "prefill", p->votes[TS_PSTAGE_PREFILL]);
	ts_jw_kint(w, "decode", p->votes[TS_PSTAGE_DECODE]);
	ts_jw_kint(w, "mixed", p->votes[TS_PSTAGE_MIXED]);
	ts_jw_end_obj(w);
	ts_jw_key(w, "signals");
	ts_jw_obj(w);
	for (int sg = 0; sg < TS_SIG_COUNT; sg++)
		ts_jw_kstr(w, ts_signal_name((ts_signal)sg), p->signal[sg] == TS_PSTAGE_UNKNOWN
			   ? NULL : ts_pstage_name(p->signal[sg]));
	ts_jw_end_obj(w);
	ts_jw_key(w, "gemm_m");
	if (p->gemm_m_max > 0) {
		ts_jw_obj(w);
		ts_jw_kint(w, "min", p->gemm_m_min);
		ts_jw_kint(w, "max", p->gemm_m_max);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	ts_jw_kopt_int(w, "kv_grid", p->kv_grid > 0, p->kv_grid);
	ts_jw_kopt_int(w, "q_grid", p->q_grid > 0, p->q_grid);
	ts_jw_kstr(w, "evidence", vp->evidence);
	/* what its idle figures measure (idle.h's one rule), and the GPU
	 * window of its step's own annotation */
	ts_jw_key(w, "span");
	ts_jw_obj(w);
	ts_jw_kus(w, "start_us", p->idle.start_ns);
	ts_jw_kus(w, "end_us", ts_sat_add(p->idle.start_ns, p->idle.span_ns));
	ts_jw_end_obj(w);
	ts_jw_key(w, "step_window");
	ts_jw_obj(w);
	put_window(w, "gpu", p->win_from, p->win_to);
	put_window(w, "cpu", p->cwin_from, p->cwin_to);
	put_window(w, "launched", p->idle.first_launch_ns, p->idle.last_launch_ns);
	put_window(w, "step", p->step_from, p->step_to);
	ts_jw_end_obj(w);
	put_step(w, res, i);
	ts_jw_key(w, "idle");
	put_idle(w, res, &p->idle);
	if (p->cut_start || p->cut_end)
		ts_jw_kstr(w, "cut", p->cut_start ? "start" : "end");
	ts_jw_end_obj(w);
}

static void put_layers(ts_jw *w, const ts_result *res, const ts_report_opts *o,
		       const ts_lview *lv, const ts_kview *v)
{
	put_layer_summary(w, res, lv);
	ts_jw_member(w, 2, "passes");
	ts_jw_arr(w);
	size_t listed = 0;
	for (size_t i = 0; i < lv->npasses; i++) {
		if (v->staged && lv->passes[i].p->stage != v->stage)
			continue;
		put_pass(w, res, lv, i);
		listed++;
	}
	ts_jw_end_rows(w, listed, 2);

	/* Every timed kernel is in one stage: its pass's, or unknown. */
	ts_jw_member(w, 2, "stages");
	ts_jw_obj(w);
	int64_t all = res->agg->all.total;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_stage_total *t = &lv->stage[s].total;
		const ts_stat *sall = lv->stage[s].all;
		ts_jw_key(w, ts_pstage_name((ts_pstage)s));
		ts_jw_obj(w);
		ts_jw_kuint(w, "passes", t->passes);
		ts_jw_kuint(w, "complete_passes", t->complete_passes);
		ts_jw_kuint(w, "draft_passes", t->drafts);
		ts_jw_kuint(w, "layers", t->layers);
		ts_jw_kuint(w, "kernels", sall->count);
		ts_jw_kus(w, "gpu_time_us", sall->total);
		ts_jw_knum(w, "share_pct", "%.2f", pct(sall->total, all));
		ts_jw_key(w, "idle");
		put_idle(w, res, &t->idle);
		put_steps(w, res, (ts_pstage)s);
		ts_jw_end_obj(w);
	}
	ts_jw_end_obj(w);

	ts_report_json_table(w, res, o, "layer_table", "layers");
}

/* --capture: the captured graphs, and each kind of replay with the graph
 * it took or why none. */
static void put_captures(ts_jw *w, const ts_aview_replays *rp)
{
	const ts_capture_totals *ct = rp->ct;
	ts_jw_obj(w);
	ts_jw_kuint(w, "files", ct->files);
	ts_jw_kuint(w, "windows", ct->windows);
	ts_jw_kuint(w, "graphs", ct->graphs);
	ts_jw_kuint(w, "distinct", rp->ngraphs);
	ts_jw_kuint(w, "kernel_nodes", rp->nnodes);
	ts_jw_kuint(w, "launches", ct->launches);
	ts_jw_kuint(w, "nodes_no_op", ct->nodes_no_op);
	ts_jw_kuint(w, "nodes_dropped", ct->nodes_dropped);
	ts_jw_kuint(w, "unclosed", ct->unclosed);
	ts_jw_kuint(w, "overlapping", ct->overlapping);
	ts_jw_kuint(w, "empty", ct->empty);
	ts_jw_kuint(w, "graphs_dropped", ct->graphs_dropped);
	ts_jw_kuint(w, "bytes", rp->bytes);
	ts_jw_member(w, 6, "list");
	ts_jw_arr(w);
	for (size_t i = 0; i < rp->ngraphs; i++) {
		const ts_aview_graph *vg = &rp->graphs[i];
		const ts_capgraph *g = vg->g;
		ts_jw_nl(w, 8);
		ts_jw_obj(w);
		ts_jw_kstrn(w, "file", vg->file ? vg->file : "", vg->file ? vg->file_len : 0);
		ts_jw_kuint(w, "index", g->index);
		ts_jw_kint(w, "size", g->size);
		ts_jw_kuint(w, "kernels", g->nnodes);
		ts_jw_kuint(w, "copies", g->copies);
		ts_jw_kstrn(w, "annotation", vg->ann, vg->ann ? vg->ann_len : 0);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_end_obj(w);
}

static void put_replays(ts_jw *w, const ts_aview_replays *rp)
{
	const ts_replay_totals *t = rp->t;
	ts_jw_member(w, 2, "graph_replays");
	ts_jw_obj(w);
	ts_jw_key(w, "captures");
	put_captures(w, rp);
	ts_jw_member(w, 4, "replays");
	ts_jw_uint(w, t->replays);
	ts_jw_kuint(w, "matched", t->matched);
	ts_jw_kuint(w, "refused", t->refused);
	ts_jw_kuint(w, "kernels", t->kernels);
	ts_jw_kuint(w, "kernels_matched", t->kernels_matched);
	ts_jw_kus(w, "time_us", t->ns);
	ts_jw_kus(w, "matched_us", t->ns_matched);
	ts_jw_kuint(w, "late_kernels", t->late);
	ts_jw_kuint(w, "forced", t->forced);
	ts_jw_kuint(w, "held_max", t->held_max);
	ts_jw_kuint(w, "kinds_dropped", t->rows_dropped);
	ts_jw_member(w, 4, "kinds");
	ts_jw_arr(w);
	for (size_t i = 0; i < rp->nrows; i++) {
		const ts_replay_row *r = rp->rows[i];
		ts_jw_nl(w, 6);
		ts_jw_obj(w);
		ts_jw_kint(w, "size", r->size);
		ts_jw_kint(w, "matched_size", r->matched_size);
		ts_jw_kuint(w, "kernels", r->nkernels);
		ts_jw_kuint(w, "replays", r->replays);
		ts_jw_kus(w, "total_us", r->ns);
		ts_jw_kstr(w, "first_kernel", r->first);
		ts_jw_kuint(w, "fits", r->fits);
		ts_jw_kbool(w, "reordered", r->reordered);
		ts_jw_kopt_int(w, "graph", r->graph >= 0, r->graph);
		ts_jw_kstr(w, "reason", r->graph >= 0 ? NULL : r->reason);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_end_obj(w);
}

static void put_attrib_totals(ts_jw *w, const ts_aview_totals *tot)
{
	const ts_callsite_totals *cs = &tot->cs;
	int nb = tot->nbuckets;
	int64_t all = tot->all_ns;
	char k[64];
	ts_jw_member(w, 2, "attribution");
	ts_jw_obj(w);
	for (int b = 0; b < nb; b++) {
		snprintf(k, sizeof k, "%s_pct", ts_attr_bucket_name((ts_attr_bucket)b));
		ts_jw_knum(w, k, "%.2f", pct(tot->t.ns[b], all));
	}
	ts_jw_key(w, "kernels");
	ts_jw_obj(w);
	for (int b = 0; b < nb; b++)
		ts_jw_kuint(w, ts_attr_bucket_name((ts_attr_bucket)b), tot->t.kernels[b]);
	ts_jw_end_obj(w);
	ts_jw_key(w, "time");
	ts_jw_obj(w);
	for (int b = 0; b < nb; b++) {
		snprintf(k, sizeof k, "%s_us", ts_attr_bucket_name((ts_attr_bucket)b));
		ts_jw_kus(w, k, tot->t.ns[b]);
	}
	ts_jw_end_obj(w);
	ts_jw_kuint(w, "ops_indexed", tot->t.ops_indexed);
	ts_jw_kuint(w, "ops_dropped", tot->t.ops_dropped);
	ts_jw_kuint(w, "ops_with_shapes", tot->t.ops_with_shapes);
	ts_jw_kuint(w, "workload_calls", tot->t.workload_calls);
	ts_jw_kuint(w, "lookahead_overflow", tot->t.lookahead_overflow);
	ts_jw_kuint(w, "index_bytes", tot->t.index_bytes);
	ts_jw_member(w, 4, "python");
	ts_jw_obj(w);
	ts_jw_kuint(w, "frames", cs->frames);
	ts_jw_kuint(w, "indexed", cs->kept);
	ts_jw_kuint(w, "dropped", cs->dropped);
	ts_jw_kuint(w, "out_of_order", cs->out_of_order);
	ts_jw_kuint(w, "lookups", cs->lookups);
	ts_jw_kuint(w, "found", cs->found);
	ts_jw_kuint(w, "late", cs->late);
	ts_jw_kuint(w, "index_bytes", cs->index_bytes);
	ts_jw_end_obj(w);
	ts_jw_end_obj(w);
}

/* One op row of the view; shares of base (the view's kernel time). */
static void put_op(ts_jw *w, const ts_result *res, const ts_aview_op *o, int nb, int64_t base)
{
	const ts_op_row *r = o->r;
	/* categories are kept for all kernels, not per stage */
	const ts_op_row *rc = o->all;
	int64_t cum = o->cum_ns;
	ts_jw_nl(w, 4);
	ts_jw_obj(w);
	ts_jw_kstrn(w, "name", o->name, o->len);
	ts_jw_kstr(w, "via", ts_attr_bucket_name(o->via));
	ts_jw_kuint(w, "calls", r->calls);
	ts_jw_kuint(w, "kernels", r->kernels);
	ts_jw_kus(w, "total_us", r->ns);
	ts_jw_knum(w, "pct", "%.2f", base ? 100.0 * (double)r->ns / (double)base : 0.0);
	ts_jw_knum(w, "cum_pct", "%.2f", base ? 100.0 * (double)cum / (double)base : 0.0);
	/* the memcpy / memset operations it issued (all stages) */
	ts_jw_kuint(w, "memops", rc->memops);
	ts_jw_kus(w, "memops_us", rc->mem_ns);
	ts_jw_kint(w, "memops_bytes", rc->mem_bytes);
	ts_jw_kstrn(w, "callsite", o->site, o->site_len);
	if (nb == TS_ATTR_COUNT) {
		/* --capture: what of it was graph replay given back its op */
		ts_jw_kuint(w, "graph_op_kernels", r->graph_kernels);
		ts_jw_kus(w, "graph_op_us", r->graph_ns);
		ts_jw_key(w, "callsites");
		ts_jw_arr(w);
		for (size_t k = 0; k < o->nsites; k++) {
			ts_jw_obj(w);
			ts_jw_kstrn(w, "site", o->sites[k], o->site_lens[k]);
			ts_jw_kuint(w, "weight", o->site_weights[k]);
			ts_jw_end_obj(w);
		}
		ts_jw_end_arr(w);
	}
	ts_jw_key(w, "categories");
	ts_jw_arr(w);
	for (int c = 0; c < TS_ATTRIB_OP_CATS && rc->cats[c].count; c++) {
		const ts_kclass k = { .category = rc->cats[c].category };
		ts_jw_obj(w);
		ts_jw_kstr(w, "category", ts_kclass_category(res->patterns, &k));
		ts_jw_kuint(w, "kernels", rc->cats[c].count);
		ts_jw_kus(w, "total_us", rc->cats[c].ns);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_end_obj(w);
}

static void put_workload(ts_jw *w, const ts_aview_wl *wl)
{
	const ts_wl_row *r = wl->r;
	const ts_oprule *rule = wl->rule;
	ts_jw_nl(w, 4);
	ts_jw_obj(w);
	ts_jw_kstrn(w, "name", wl->name, wl->len);
	ts_jw_kstr(w, "kind", rule->kind);
	ts_jw_kstr(w, "dtype", wl->dtype);
	ts_jw_kuint(w, "calls", r->calls);
	ts_jw_kuint(w, "kernels", r->kernels);
	ts_jw_kus(w, "total_us", r->ns);
	ts_jw_key(w, "tokens");
	if (r->m_min >= 0) {
		ts_jw_obj(w);
		ts_jw_kint(w, "min", r->m_min);
		ts_jw_kint(w, "p50", ts_wl_tokens_quantile(r, 0.5));
		ts_jw_kint(w, "max", r->m_max);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	/* per-head calls: tokens are tokens, not rows of tokens x heads */
	ts_jw_key(w, "heads");
	if (r->heads_max) {
		ts_jw_obj(w);
		ts_jw_kuint(w, "min", r->heads_min);
		ts_jw_kuint(w, "max", r->heads_max);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	const ts_roofline rf = wl->rf;
	/* exact sums (saturated at 2^64 - 1) */
	ts_jw_key(w, "flops");
	if (r->flops_calls)
		ts_jw_uint(w, r->flops);
	else
		ts_jw_null(w);
	ts_jw_key(w, "bytes");
	if (r->bytes_calls)
		ts_jw_uint(w, r->bytes);
	else
		ts_jw_null(w);
	put_fig(w, "tflops", rf.has_flops, rf.tflops);
	put_fig(w, "tbps", rf.has_bytes, rf.tbps);
	put_fig(w, "intensity", rf.intensity > 0, rf.intensity);
	put_fig(w, "pct_of_peak", rf.pct_of_peak >= 0, rf.pct_of_peak);
	ts_jw_kstr(w, "bound", rf.bound == TS_BOUND_UNKNOWN ? NULL : ts_bound_name(rf.bound));
	ts_jw_kbool(w, "exceeds_peak", rf.exceeds_peak);
	/* the rates that would have been printed, as evidence (null unless
	 * they exceed the device's peak) */
	put_fig(w, "over_peak_tflops", rf.exceeds_peak && rf.over_tflops > 0, rf.over_tflops);
	put_fig(w, "over_peak_tbps", rf.exceeds_peak && rf.over_tbps > 0, rf.over_tbps);
	/* calls whose cost no kernel of the kind's types took (unplaced) and
	 * the kernels of costed calls that do not do the work */
	ts_jw_kuint(w, "cost_calls", r->cost_calls);
	ts_jw_kuint(w, "unplaced_calls", r->cost_calls - r->placed_calls);
	ts_jw_kuint(w, "unfit_kernels", r->unfit_kernels);
	ts_jw_kus(w, "unfit_us", r->unfit_ns);
	char where[512];
	snprintf(where, sizeof where, "%s:%d", rule->file, rule->line);
	ts_jw_kstr(w, "rule", where);
	/* what the rule cannot give (no FLOPs, no bytes) and why */
	ts_jw_kstr(w, "note", rule->description && *rule->description ? rule->description : NULL);
	ts_jw_end_obj(w);
}

static void put_attribution(ts_jw *w, const ts_result *res, const ts_aview *av,
			    const ts_kview *v)
{
	put_attrib_totals(w, &av->tot);

	/* ops of the view; shares of the view's kernel time */
	int64_t base = v->staged ? v->all->total : av->tot.all_ns;
	ts_jw_member(w, 2, "ops");
	ts_jw_arr(w);
	for (size_t i = 0; i < av->nops; i++)
		put_op(w, res, &av->ops[i], av->tot.nbuckets, base);
	ts_jw_end_rows(w, av->nops, 2);

	ts_jw_member(w, 2, "workloads");
	ts_jw_arr(w);
	for (size_t i = 0; i < av->nwls; i++)
		put_workload(w, &av->wls[i]);
	ts_jw_end_rows(w, av->nwls, 2);
}

static void put_coverage(ts_jw *w, const ts_result *res, const ts_kview *v)
{
	ts_opcov c[TS_MAX_OPCOV];
	int missing;
	int n = ts_kview_coverage(res, v, c, &missing);
	ts_jw_member(w, 2, "operator_coverage");
	ts_jw_obj(w);
	ts_jw_kstr(w, "family", res->model.family ? res->model.family->name : NULL);
	ts_jw_kbool(w, "ok", n >= 0 && missing == 0);
	ts_jw_kint(w, "missing_required", missing);
	ts_jw_key(w, "operators");
	ts_jw_arr(w);
	for (int i = 0; i < n; i++) {
		ts_jw_nl(w, 4);
		ts_jw_obj(w);
		ts_jw_kstr(w, "kind", c[i].kind);
		ts_jw_kbool(w, "required", c[i].required);
		ts_jw_kbool(w, "found", c[i].calls != 0);
		ts_jw_kuint(w, "calls", c[i].calls);
		ts_jw_kuint(w, "definitions", c[i].definitions);
		ts_jw_end_obj(w);
	}
	ts_jw_end_rows(w, n > 0 ? (size_t)n : 0, 2);
	ts_jw_end_obj(w);
}

static void put_warnings(ts_jw *w, const ts_result *res)
{
	ts_warns ws;
	ts_result_warnings(res, &ws);
	ts_jw_member(w, 2, "warnings");
	ts_jw_arr(w);
	for (size_t i = 0; i < ws.n; i++)
		ts_jw_str(w, ws.line[i]);
	ts_jw_end_arr(w);
}

/* The head every JSON document of ours starts with. */
void ts_report_json_head(ts_jw *w, const char *mode, bool staged, ts_pstage stage)
{
	ts_jw_obj(w);
	ts_jw_member(w, 2, "schema");
	ts_jw_int(w, 1);
	if (mode) {
		ts_jw_member(w, 2, "mode");
		ts_jw_str(w, mode);
	}
	ts_jw_member(w, 2, "tool");
	ts_jw_str(w, "tracestream");
	ts_jw_member(w, 2, "version");
	ts_jw_str(w, TS_VERSION);
	ts_jw_member(w, 2, "stage_filter");
	ts_jw_str(w, staged ? ts_pstage_name(stage) : NULL);
}

int ts_report_json(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	ts_kview v = ts_report_view(res, o);
	ts_breakdown b;
	if (ts_kview_breakdown(res, &v, &b) != 0)
		return -1;
	ts_lview lv;
	ts_aview av;
	ts_jw w;
	int lrc = ts_lview_of(res, &lv), arc = ts_aview_of(res, &v, &av);
	if (lrc != 0 || arc != 0 || !ts_jw_init(&w, out)) {
		ts_aview_free(&av);
		ts_lview_free(&lv);
		ts_breakdown_free(&b);
		return -1;
	}
	ts_report_json_head(&w, NULL, v.staged, v.stage);
	put_trace(&w, res, o);
	put_model(&w, res);
	ts_jw_member(&w, 2, "classified_pct");
	ts_jw_num(&w, "%.2f", pct(b.classified_ns, v.all->total));
	/* of it, typed only by the words of names no rule knows */
	ts_jw_member(&w, 2, "classified_by_words_pct");
	ts_jw_num(&w, "%.2f", pct(b.words_ns, v.all->total));
	ts_jw_member(&w, 2, "patterns");
	ts_jw_obj(&w);
	ts_jw_key(&w, "dirs");
	ts_jw_arr(&w);
	for (size_t i = 0; res->patterns && i < ts_patterns_ndirs(res->patterns); i++)
		ts_jw_str(&w, ts_patterns_dir(res->patterns, i));
	ts_jw_end_arr(&w);
	ts_jw_end_obj(&w);
	put_events(&w, res->agg);
	/* sections whose JSON is their table (tview.h) */
	ts_report_json_table(&w, res, o, "kernels", "kernels");
	ts_report_json_table(&w, res, o, "types", "types");
	ts_report_json_table(&w, res, o, "categories", "categories");
	ts_report_json_table(&w, res, o, "unclassified", "unclassified");
	if (res->layers) {
		put_layers(&w, res, o, &lv, &v);
		put_anatomy(&w, res, &lv, &v);
		put_insight(&w, res);
		ts_report_whatif_json(&w, res, o);
	}
	if (res->attrib)
		put_attribution(&w, res, &av, &v);
	if (av.rp.present)
		put_replays(&w, &av.rp);
	if (res->attrib && o->verify_ops)
		put_coverage(&w, res, &v);
	if (!v.staged) {
		ts_report_json_table(&w, res, o, "memory", "memory");
		ts_report_json_table(&w, res, o, "collectives", "collectives");
	}
	ts_report_memory_json(&w, res);
	ts_report_json_table(&w, res, o, "api", "api");
	ts_aview_free(&av);
	ts_lview_free(&lv);
	ts_breakdown_free(&b);
	put_warnings(&w, res);
	if (o->ranks)
		ts_report_ranks_json(&w, o->ranks);
	ts_jw_nl(&w, 0);
	ts_jw_end_obj(&w);
	return ts_jw_finish(&w);
}
