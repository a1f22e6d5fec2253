/*
 * report_json.c - the JSON report: one document, "schema": 1, documented in
 * README.md. Keys are only ever added, never renamed, within a schema.
 * Names are written in full; times are exact microseconds from integer ns.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/insight.h"
#include "analysis/satmath.h"
#include "report/report.h"
#include "analysis/roofline.h"
#include "report/version.h"

/* A JSON string; bytes that are not UTF-8 are written as \u00XX. */
static void put_str(FILE *out, const char *s, size_t n)
{
	ts_json_str(out, s, n);
}

static void put_cstr(FILE *out, const char *s)
{
	put_str(out, s, strlen(s));
}

static void put_us(FILE *out, int64_t ns)
{
	char b[40];
	ts_fmt_us(b, sizeof b, ns);
	fputs(b, out);
}

/* A mean or deviation in ns, as microseconds with 3 decimals. */
/* A figure with up to 4 significant decimals, or null. */
static void put_fig(FILE *out, bool known, double v)
{
	if (known)
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

/* The GPU peaks the roofline uses: which part, how it was found, the
 * figures and their source. */
static void put_peaks(FILE *out, const ts_result *res)
{
	const ts_gpu *g = res->gpu;
	if (!g) {
		fputs("null", out);
		return;
	}
	fputs("{\"name\": ", out);
	put_cstr(out, g->name);
	fputs(", \"matched_by\": ", out);
	put_cstr(out, res->gpu_how ? res->gpu_how : "");
	fprintf(out, ", \"hbm_tbps\": %.6g, \"tflops\": {", g->hbm_tbps);
	bool first = true;
	for (int c = 0; c < TS_DT_COUNT; c++) {
		if (g->tflops[c] <= 0)
			continue;
		fprintf(out, "%s\"%s\": %.6g", first ? "" : ", ", ts_dtclass_name((ts_dtclass)c),
			g->tflops[c]);
		first = false;
	}
	fputs("}, \"source\": ", out);
	put_cstr(out, g->source);
	fputs("}", out);
}

static void put_us_f(FILE *out, double ns)
{
	fprintf(out, "%.3f", ns / 1000.0);
}

static void put_opt_int(FILE *out, int has, int64_t v)
{
	if (has)
		fprintf(out, "%" PRId64, v);
	else
		fputs("null", out);
}

static void put_trace(FILE *out, const ts_result *res)
{
	const ts_agg *a = res->agg;
	const ts_meta *m = &res->meta;
	const ts_devprop *d = ts_report_devprop(res);
	fputs("  \"trace\": {\n    \"path\": ", out);
	put_cstr(out, res->path);
	fprintf(out, ",\n    \"input_bytes\": %" PRIu64 ",\n    \"compressed\": %s,\n"
		     "    \"bytes\": %" PRIu64 ",\n    \"partial\": %s,\n    \"error\": ",
		res->input_bytes, res->gzip ? "true" : "false", res->json_bytes,
		res->partial ? "true" : "false");
	if (res->status != TS_OK)
		put_cstr(out, res->error);
	else
		fputs("null", out);
	fputs(",\n    \"platform\": ", out);
	put_cstr(out, ts_platform_name(res->platform));
	fputs(",\n    \"platform_source\": ", out);
	put_cstr(out, res->platform_source);
	fputs(",\n    \"gpu\": ", out);
	put_cstr(out, d ? d->name : "");
	fputs(",\n    \"device\": ", out);
	if (d) {
		fputs("{\"id\": ", out);
		put_opt_int(out, d->has & 1, d->id);
		fputs(", \"sm_count\": ", out);
		put_opt_int(out, d->has & 4, d->sm_count);
		fputs(", \"memory_bytes\": ", out);
		put_opt_int(out, d->has & 8, d->memory_bytes);
		fputs(", \"warp_size\": ", out);
		put_opt_int(out, d->has & 16, d->warp_size);
		fputs("}", out);
	} else {
		fputs("null", out);
	}
	fputs(",\n    \"peaks\": ", out);
	put_peaks(out, res);
	fputs(",\n    \"world_size\": ", out);
	put_opt_int(out, m->has & 1, m->world_size);
	fputs(",\n    \"rank\": ", out);
	put_opt_int(out, m->has & 2, m->rank);
	fputs(",\n    \"base_time_ns\": ", out);
	put_opt_int(out, m->has & 4, m->base_time_ns);
	fprintf(out, ",\n    \"events\": %" PRIu64 ",\n    \"kernels\": %" PRIu64
		     ",\n    \"distinct_kernels\": %" PRIu32 ",\n    \"devices\": %d",
		a->events, a->kernels, ts_intern_count(a->names), a->ndev);
	fputs(",\n    \"kernel_time_us\": ", out);
	put_us(out, a->all.total);
	fputs(",\n    \"busy_time_us\": ", out);
	put_us(out, ts_agg_busy_ns(a));
	fputs(",\n    \"span_us\": ", out);
	put_us(out, a->has_span ? a->last_end - a->first_ts : 0);
	fputs(",\n    \"gpu_span_us\": ", out);
	put_us(out, a->has_kspan ? a->k_last - a->k_first : 0);
	fputs("\n  },\n", out);
}

static void put_events(FILE *out, const ts_agg *a)
{
	fputs("  \"events\": {", out);
	for (int c = 0; c < TS_CAT_COUNT; c++)
		fprintf(out, "%s\"%s\": %" PRIu64, c ? ", " : "",
			ts_cat_name((ts_cat)c), a->counts[c]);
	fputs("},\n", out);
}

static void put_kernels(FILE *out, const ts_result *res, const ts_kview *v)
{
	const ts_agg *a = res->agg;
	int64_t all = v->all->total;
	size_t n;
	uint32_t *order = ts_kview_kernel_order(v, &n);
	char (*shorts)[TS_SHORT_MAX + 1] = ts_report_short_names(a);
	fputs("  \"kernels\": [", out);
	for (size_t i = 0; i < n; i++) {
		const ts_stat *s = ts_kview_row(v, order[i]);
		const ts_kclass *c = ts_kview_row_class(a, order[i]);
		size_t len;
		const char *name = ts_kview_row_name(a, order[i], &len);
		fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
		put_str(out, name, len);
		fputs(", \"short\": ", out);
		put_cstr(out, order[i] == TS_ROW_OTHER || !shorts ? c->short_name : shorts[order[i]]);
		fprintf(out, ", \"type\": \"%s\", \"category\": ", ts_ktype_name(c->type));
		put_cstr(out, ts_kclass_category(res->patterns, c));
		fprintf(out, ", \"stage_hint\": \"%s\"", ts_stage_hint_name(c->stage));
		/* type and category above are the main context's; the name's own
		 * and the share of time in a context (contexts: in the tables) */
		if (order[i] != TS_ROW_OTHER && a->ctx[order[i]].category >= 0) {
			const ts_kclass *nc = &a->classes[order[i]];
			fprintf(out, ", \"name_type\": \"%s\", \"name_category\": ", ts_ktype_name(nc->type));
			put_cstr(out, ts_kclass_category(res->patterns, nc));
			const ts_stat *whole = &a->rows[order[i]];
			fprintf(out, ", \"context_pct\": %.2f",
				whole->total ? 100.0 * (double)a->ctx[order[i]].ns / (double)whole->total : 0.0);
		}
		fprintf(out, ", \"count\": %" PRIu64 ", \"total_us\": ", s->count);
		put_us(out, s->total);
		fputs(", \"avg_us\": ", out);
		put_us_f(out, (double)s->total / (double)s->count);
		fputs(", \"min_us\": ", out);
		put_us(out, s->min);
		fputs(", \"max_us\": ", out);
		put_us(out, s->max);
		fputs(", \"stddev_us\": ", out);
		put_us_f(out, ts_stat_stddev(s));
		fputs(", \"p50_us\": ", out);
		put_us(out, ts_stat_quantile(s, 0.50));
		fputs(", \"p90_us\": ", out);
		put_us(out, ts_stat_quantile(s, 0.90));
		fputs(", \"p99_us\": ", out);
		put_us(out, ts_stat_quantile(s, 0.99));
		fputs(", \"parent_op\": ", out);
		long op = res->attrib && order[i] != TS_ROW_OTHER
			? ts_attrib_parent_op(res->attrib, order[i]) : -1;
		if (op >= 0) {
			size_t olen;
			const char *oname = ts_attrib_op_name(res->attrib, (size_t)op, &olen);
			put_str(out, oname, olen);
		} else {
			fputs("null", out);
		}
		fprintf(out, ", \"pct\": %.2f}",
			all ? 100.0 * (double)s->total / (double)all : 0.0);
	}
	fputs(n ? "\n  ],\n" : "],\n", out);
	free(order);
	free(shorts);
}

static void put_model(FILE *out, const ts_result *res)
{
	const ts_model *m = &res->model;
	fputs("  \"model\": {\"family\": ", out);
	if (m->family)
		put_cstr(out, m->family->name);
	else
		fputs("null", out);
	fputs(", \"source\": ", out);
	put_cstr(out, m->source);
	fprintf(out, ", \"score\": %ld, \"evidence\": [", m->family ? m->score : 0L);
	for (int i = 0; m->family && i < m->nevidence; i++) {
		char d[300];
		ts_selector_describe(res->patterns, m->evidence[i], d, sizeof d);
		fprintf(out, "%s{\"rule\": ", i ? ", " : "");
		put_cstr(out, d);
		fprintf(out, ", \"weight\": %ld}", m->evidence[i]->weight);
	}
	fputs("], \"num_hidden_layers\": [", out);
	for (size_t i = 0; m->family && i < m->family->nnum_layers; i++)
		fprintf(out, "%s%ld", i ? ", " : "", m->family->num_layers[i]);
	fputs("]},\n", out);
}

static void put_kernel_name(FILE *out, const ts_result *res, uint32_t row)
{
	if (row == TS_INTERN_NONE || row >= ts_intern_count(res->agg->names)) {
		fputs("null", out);
		return;
	}
	size_t len;
	const char *n = ts_kview_row_name(res->agg, row, &len);
	put_str(out, n, len);
}

static void put_op_name(FILE *out, const ts_result *res, uint32_t op)
{
	size_t len;
	const char *n = op == TS_INTERN_NONE || !res->attrib ? NULL
		      : ts_attrib_op_name(res->attrib, op, &len);
	if (n)
		put_str(out, n, len);
	else
		fputs("null", out);
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Busy time, idle gaps and launch-bound gaps (idle.h). */
static void put_idle(FILE *out, const ts_result *res, const ts_idle_pass *d)
{
	fputs("{\"span_us\": ", out);
	put_us(out, d->span_ns);
	fputs(", \"busy_us\": ", out);
	put_us(out, d->busy_ns);
	fprintf(out, ", \"busy_pct\": %.2f, \"idle_us\": ", pct(d->busy_ns, d->span_ns));
	put_us(out, d->idle_ns);
	fprintf(out, ", \"idle_pct\": %.2f, \"gaps\": %" PRIu64 ", \"largest_gap\": ",
		pct(d->idle_ns, d->span_ns), d->gaps);
	if (d->gaps) {
		fputs("{\"us\": ", out);
		put_us(out, d->largest_ns);
		fputs(", \"at_us\": ", out);
		put_us(out, d->largest_at);
		fputs(", \"after_kernel\": ", out);
		put_kernel_name(out, res, d->largest_after);
		fputs(", \"before_kernel\": ", out);
		put_kernel_name(out, res, d->largest_before);
		fputs(", \"before_op\": ", out);
		put_op_name(out, res, d->largest_op);
		fputs("}", out);
	} else {
		fputs("null", out);
	}
	fprintf(out, ", \"launch_bound\": {\"gaps\": %" PRIu64 ", \"us\": ", d->launch_gaps);
	put_us(out, d->launch_ns);
	fprintf(out, ", \"gaps_checked\": %" PRIu64 "}, \"stray_kernels\": %" PRIu64
		     ", \"stray_us\": ", d->launch_checked, d->stray_kernels);
	put_us(out, d->stray_ns);
	fputs("}", out);
}

static void put_rates(FILE *out, const ts_result *res, const ts_anat_sum *s)
{
	ts_roofline r;
	ts_insight_roofline(res, s, &r);
	fprintf(out, ", \"flops\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"tflops\": ",
		s->flops, s->bytes);
	put_fig(out, r.has_flops, r.tflops);
	fputs(", \"tbps\": ", out);
	put_fig(out, r.has_bytes, r.tbps);
	fputs(", \"pct_of_peak\": ", out);
	put_fig(out, r.pct_of_peak >= 0, r.pct_of_peak);
	fprintf(out, ", \"bound\": \"%s\"", ts_bound_name(r.bound));
}

/* The typical layer of each stage (anatomy.h): parts that add up to it. */
static void put_anatomy(FILE *out, const ts_result *res, const ts_kview *v)
{
	const ts_anatomy *a = ts_layers_anatomy(res->layers);
	fputs("  \"layer_anatomy\": [", out);
	int any = 0;
	for (int s = 0; a && s < TS_PSTAGE_COUNT; s++) {
		uint64_t nl = ts_anatomy_layers(a, s);
		if ((v->staged && (ts_pstage)s != v->stage) || nl == 0)
			continue;
		const ts_anat_sum *tot = ts_anatomy_total(a, s);
		const ts_stat *lt = ts_anatomy_layer_time(a, s);
		double L = (double)nl;
		fprintf(out, "%s\n    {\"stage\": \"%s\", \"passes\": %" PRIu32
			     ", \"passes_not_listed\": %" PRIu32 ", \"layers\": %" PRIu64
			     ", \"kernels_per_layer\": %.2f, \"mean_us\": ",
			any++ ? "," : "", ts_pstage_name((ts_pstage)s), ts_anatomy_passes(a, s),
			ts_anatomy_skipped(a, s), nl, (double)tot->count / L);
		put_us_f(out, (double)tot->ns / L);
		fputs(", \"p50_us\": ", out);
		put_us(out, ts_stat_quantile(lt, 0.5));
		put_rates(out, res, tot);
		fputs(",\n     \"by_type\": [", out);
		int k = 0;
		for (int t = 0; t < TS_TYPE_COUNT; t++) {
			const ts_anat_type *ty = ts_anatomy_type(a, s, t);
			if (!ty->sum.count)
				continue;
			fprintf(out, "%s\n      {\"type\": \"%s\", \"kernels_per_layer\": %.2f, \"mean_us\": ",
				k++ ? "," : "", ts_ktype_name((ts_ktype)t), (double)ty->sum.count / L);
			put_us_f(out, (double)ty->sum.ns / L);
			fputs(", \"p50_us\": ", out);
			put_us(out, ts_stat_quantile(&ty->per_layer, 0.5));
			fprintf(out, ", \"share_pct\": %.2f", pct(ty->sum.ns, tot->ns));
			put_rates(out, res, &ty->sum);
			fputs("}", out);
		}
		fputs("],\n     \"by_category\": [", out);
		k = 0;
		for (int c = -1; c < (int)ts_anatomy_ncategories(a); c++) {
			const ts_anat_sum *cs = ts_anatomy_category(a, s, c);
			if (!cs->count)
				continue;
			ts_kclass cl = { .category = c };
			fprintf(out, "%s\n      {\"category\": ", k++ ? "," : "");
			put_cstr(out, ts_kclass_category(res->patterns, &cl));
			fprintf(out, ", \"kernels_per_layer\": %.2f, \"mean_us\": ", (double)cs->count / L);
			put_us_f(out, (double)cs->ns / L);
			fprintf(out, ", \"share_pct\": %.2f}", pct(cs->ns, tot->ns));
		}
		fputs("],\n     \"kernels\": [", out);
		size_t nr;
		uint32_t *rows = ts_anatomy_rows(a, s, &nr);
		for (size_t i = 0; rows && i < nr; i++) {
			const ts_anat_row *r = ts_anatomy_row(a, s, rows[i]);
			const ts_kclass *c = ts_kview_row_class(res->agg, rows[i]);
			fprintf(out, "%s\n      {\"position\": %" PRIu32 ", \"name\": ", i ? "," : "", r->pos);
			put_kernel_name(out, res, rows[i]);
			fputs(", \"category\": ", out);
			put_cstr(out, c ? ts_kclass_category(res->patterns, c) : "Other");
			fprintf(out, ", \"type\": \"%s\", \"calls_per_layer\": %.2f, \"mean_us\": ",
				ts_ktype_name(c ? c->type : TS_TYPE_OTHER), (double)r->sum.count / L);
			put_us_f(out, (double)r->sum.ns / L);
			fprintf(out, ", \"share_pct\": %.2f}", pct(r->sum.ns, tot->ns));
		}
		free(rows);
		const ts_anat_sum *orow = ts_anatomy_other_rows(a, s);
		if (orow->count) {
			fprintf(out, "%s\n      {\"position\": null, \"name\": \"(other)\", \"category\": null, "
				     "\"type\": null, \"calls_per_layer\": %.2f, \"mean_us\": ",
				nr ? "," : "", (double)orow->count / L);
			put_us_f(out, (double)orow->ns / L);
			fprintf(out, ", \"share_pct\": %.2f}", pct(orow->ns, tot->ns));
		}
		fputs("],\n     \"outliers\": [", out);
		ts_layer_outlier lo[64];
		int64_t typical;
		size_t no = ts_layers_outliers(res->layers, (ts_pstage)s, lo, 64, &typical);
		for (size_t i = 0; i < no; i++) {
			fprintf(out, "%s{\"layer\": %" PRIu32 ", \"type\": \"%s\", \"mean_us\": ",
				i ? ", " : "", lo[i].index, ts_ltype_name(lo[i].type));
			put_us(out, lo[i].mean_ns);
			fprintf(out, ", \"ratio\": %.3f}", lo[i].ratio);
		}
		fputs("], \"typical_index_us\": ", out);
		put_us(out, typical);
		fputs("}", out);
	}
	fputs(any ? "\n  ],\n" : "],\n", out);
}

static void put_insight(FILE *out, const ts_result *res)
{
	ts_busy_summary b;
	ts_insight_busy(res, &b);
	fputs("  \"busy\": {\"in_passes\": ", out);
	put_idle(out, res, &b.in_passes);
	fprintf(out, ", \"outside_passes\": {\"kernels\": %" PRIu64 ", \"gpu_time_us\": ",
		b.outside_kernels);
	put_us(out, b.outside_ns);
	fputs("}},\n  \"opportunities\": [", out);
	ts_opportunity op[TS_INSIGHT_MAX];
	size_t n = ts_insight_opportunities(res, op, TS_INSIGHT_MAX);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s\n    {\"kind\": \"%s\", \"stage\": ", i ? "," : "",
			ts_opp_kind_name(op[i].kind));
		if (op[i].kind == TS_OPP_OUTSIDE)
			fputs("null", out);
		else
			fprintf(out, "\"%s\"", ts_pstage_name((ts_pstage)op[i].stage));
		fputs(", \"at_stake_us\": ", out);
		put_us(out, op[i].at_stake_ns);
		fprintf(out, ", \"pct_of_stage\": %.2f, \"text\": ", op[i].pct_of_stage);
		put_cstr(out, op[i].text);
		fputs("}", out);
	}
	fputs(n ? "\n  ],\n" : "],\n", out);
}

static void put_layers(FILE *out, const ts_result *res, const ts_report_opts *o,
		       const ts_kview *v)
{
	const ts_layers *l = res->layers;
	int64_t orphan_ns;
	uint64_t orphans = ts_layers_orphans(l, &orphan_ns);
	uint64_t total = 0, complete = 0;
	for (size_t i = 0; i < ts_layers_npasses(l); i++) {
		total += ts_layers_pass(l, i)->layers;
		complete += ts_layers_pass(l, i)->complete;
	}
	fprintf(out, "  \"layers\": {\"per_pass\": %" PRIu32 ", \"complete_passes\": %" PRIu64
		     ", \"total\": %" PRIu64 ", \"expected\": ",
		ts_layers_per_pass(l), complete, total);
	char why[200];
	long exp = ts_layers_expected(l, res->model.family,
				      strcmp(res->model.source, "forced") == 0,
				      res->model.score, why, sizeof why);
	if (exp > 0)
		fprintf(out, "%ld", exp);
	else
		fputs("null", out);
	fputs(", \"expected_from\": ", out);
	put_str(out, why, strlen(why));
	fputs(", \"types\": {", out);
	int first = 1;
	for (int t = 0; t < TS_LT_COUNT; t++) {
		uint64_t c = ts_layers_type_count(l, (ts_ltype)t);
		if (!c)
			continue;
		fprintf(out, "%s\"%s\": %" PRIu64, first ? "" : ", ", ts_ltype_name((ts_ltype)t), c);
		first = 0;
	}
	fprintf(out, "}, \"structural_boundaries\": %" PRIu64 ", \"once_per_pass_units\": %" PRIu64
		     ", \"orphan_kernels\": %" PRIu64 ", \"orphan_us\": ",
		ts_layers_structural(l), ts_layers_once_units(l), orphans);
	put_us(out, orphan_ns);
	const ts_odd_layer *odd;
	uint64_t odd_total;
	size_t nodd = ts_layers_odd(l, &odd, &odd_total);
	fprintf(out, ", \"odd_total\": %" PRIu64 ", \"odd\": [", odd_total);
	for (size_t i = 0; i < nodd; i++) {
		fprintf(out, "%s{\"pass\": %" PRIu32 ", \"layer\": %" PRIu32 ", \"type\": \"%s\", \"us\": ",
			i ? ", " : "", odd[i].pass, odd[i].layer, ts_ltype_name(odd[i].type));
		put_us(out, odd[i].ns);
		fputs(", \"typical_us\": ", out);
		put_us(out, odd[i].typical_ns);
		fprintf(out, ", \"kernels\": %" PRIu32 ", \"typical_kernels\": %" PRIu32 "}",
			odd[i].kernels, odd[i].typical_kernels);
	}
	fputs("]},\n", out);

	char note[300];
	fputs("  \"passes_note\": ", out);
	if (ts_layers_note(l, note, sizeof note))
		put_cstr(out, note);
	else
		fputs("null", out);
	fputs(",\n", out);
	fputs("  \"passes\": [", out);
	int listed = 0;
	for (size_t i = 0; i < ts_layers_npasses(l); i++) {
		const ts_pass *p = ts_layers_pass(l, i);
		if (v->staged && p->stage != v->stage)
			continue;
		fprintf(out, "%s\n    {\"index\": %" PRIu32 ", \"stage\": \"%s\", \"confidence\": %.2f, "
			     "\"complete\": %s, \"layers\": %" PRIu32 ", \"kernels\": %" PRIu64
			     ", \"gpu_time_us\": ",
			listed++ ? "," : "", p->index, ts_pstage_name(p->stage), p->confidence,
			p->complete ? "true" : "false", p->layers, p->kernels);
		put_us(out, p->gpu_ns);
		fputs(", \"start_us\": ", out);
		put_us(out, p->first_ts);
		fputs(", \"batch\": ", out);
		put_opt_int(out, p->batch >= 0, p->batch);
		fputs(", \"tokens\": ", out);
		put_opt_int(out, p->tokens >= 0, p->tokens);
		fputs(", \"annotation\": ", out);
		const char *an = ts_layers_annotation_name(l, p->annotation);
		if (an)
			put_cstr(out, an);
		else
			fputs("null", out);
		fprintf(out, ", \"votes\": {\"prefill\": %d, \"decode\": %d, \"mixed\": %d}",
			p->votes[TS_PSTAGE_PREFILL], p->votes[TS_PSTAGE_DECODE], p->votes[TS_PSTAGE_MIXED]);
		fputs(", \"signals\": {", out);
		for (int sg = 0; sg < TS_SIG_COUNT; sg++) {
			fprintf(out, "%s\"%s\": ", sg ? ", " : "", ts_signal_name((ts_signal)sg));
			if (p->signal[sg] == TS_PSTAGE_UNKNOWN)
				fputs("null", out);
			else
				fprintf(out, "\"%s\"", ts_pstage_name(p->signal[sg]));
		}
		fputs("}, \"gemm_m\": ", out);
		if (p->gemm_m_max > 0)
			fprintf(out, "{\"min\": %" PRId64 ", \"max\": %" PRId64 "}",
				p->gemm_m_min, p->gemm_m_max);
		else
			fputs("null", out);
		fputs(", \"kv_grid\": ", out);
		put_opt_int(out, p->kv_grid > 0, p->kv_grid);
		char ev[160];
		ts_pass_evidence(l, p, ev, sizeof ev);
		fputs(", \"evidence\": ", out);
		put_cstr(out, ev);
		fputs(", \"idle\": ", out);
		put_idle(out, res, &p->idle);
		fputs(p->cut_start ? ", \"cut\": \"start\"}" : p->cut_end ? ", \"cut\": \"end\"}" : "}", out);
	}
	fputs(listed ? "\n  ],\n" : "],\n", out);

	/* Every timed kernel is in one stage: its pass's, or unknown. */
	fputs("  \"stages\": {", out);
	int64_t all = res->agg->all.total;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_stage_total *t = ts_layers_stage(l, (ts_pstage)s);
		const ts_stat *other, *sall;
		ts_layers_stage_rows(l, (ts_pstage)s, &other, &sall);
		fprintf(out, "%s\"%s\": {\"passes\": %" PRIu32 ", \"complete_passes\": %" PRIu32
			     ", \"layers\": %" PRIu64 ", \"kernels\": %" PRIu64 ", \"gpu_time_us\": ",
			s ? ", " : "", ts_pstage_name((ts_pstage)s), t->passes, t->complete_passes,
			t->layers, sall->count);
		put_us(out, sall->total);
		fprintf(out, ", \"share_pct\": %.2f, \"idle\": ",
			all ? 100.0 * (double)sall->total / (double)all : 0.0);
		put_idle(out, res, &t->idle);
		fputs("}", out);
	}
	fputs("},\n", out);

	ts_report_json_table(out, res, o, "layer_table", "layers");
}

/* --capture: the captured graphs, and each kind of replay with the graph
 * it took or why none. */
static void put_replays(FILE *out, const ts_result *res)
{
	const ts_replay *rp = res->replay;
	const ts_capmap *m = ts_replay_map(rp);
	const ts_replay_totals *t = ts_replay_get_totals(rp);
	const ts_capture_totals *ct = ts_capmap_totals(m);
	fprintf(out, "  \"graph_replays\": {\"captures\": {\"files\": %u, \"windows\": %" PRIu64
		     ", \"graphs\": %" PRIu64 ", \"distinct\": %zu, \"kernel_nodes\": %zu"
		     ", \"launches\": %" PRIu64 ", \"nodes_no_op\": %" PRIu64
		     ", \"nodes_dropped\": %" PRIu64 ", \"unclosed\": %" PRIu64
		     ", \"overlapping\": %" PRIu64 ", \"empty\": %" PRIu64 ", \"graphs_dropped\": %" PRIu64
		     ", \"bytes\": %zu,\n      \"list\": [",
		ct->files, ct->windows, ct->graphs, ts_capmap_ngraphs(m), ts_capmap_nnodes(m),
		ct->launches, ct->nodes_no_op, ct->nodes_dropped, ct->unclosed, ct->overlapping,
		ct->empty, ct->graphs_dropped, ts_capmap_bytes(m));
	for (size_t i = 0; i < ts_capmap_ngraphs(m); i++) {
		const ts_capgraph *g = ts_capmap_graph(m, i);
		size_t len;
		const char *s = ts_capmap_str(m, g->file, &len);
		fputs(i ? ",\n        {\"file\": " : "\n        {\"file\": ", out);
		put_str(out, s ? s : "", s ? len : 0);
		fprintf(out, ", \"index\": %u, \"size\": %lld, \"kernels\": %u, \"copies\": %u, "
			     "\"annotation\": ", g->index, (long long)g->size, g->nnodes, g->copies);
		s = ts_capmap_str(m, g->ann, &len);
		if (s)
			put_str(out, s, len);
		else
			fputs("null", out);
		fputs("}", out);
	}
	fprintf(out, "]},\n    \"replays\": %" PRIu64 ", \"matched\": %" PRIu64
		     ", \"refused\": %" PRIu64 ", \"kernels\": %" PRIu64
		     ", \"kernels_matched\": %" PRIu64 ", \"time_us\": ",
		t->replays, t->matched, t->refused, t->kernels, t->kernels_matched);
	put_us(out, t->ns);
	fputs(", \"matched_us\": ", out);
	put_us(out, t->ns_matched);
	fprintf(out, ", \"late_kernels\": %" PRIu64 ", \"forced\": %" PRIu64
		     ", \"held_max\": %" PRIu64 ", \"kinds_dropped\": %" PRIu64 ",\n    \"kinds\": [",
		t->late, t->forced, t->held_max, t->rows_dropped);
	for (size_t i = 0; i < ts_replay_nrows(rp); i++) {
		const ts_replay_row *w = ts_replay_row_at(rp, i);
		fprintf(out, "%s{\"size\": %lld, \"matched_size\": %lld, \"kernels\": %u, "
			     "\"replays\": %" PRIu64 ", \"total_us\": ",
			i ? ",\n      " : "\n      ", (long long)w->size, (long long)w->matched_size,
			w->nkernels, w->replays);
		put_us(out, w->ns);
		fputs(", \"first_kernel\": ", out);
		put_cstr(out, w->first);
		fprintf(out, ", \"fits\": %u, \"reordered\": %s, \"graph\": ", w->fits,
			w->reordered ? "true" : "false");
		if (w->graph >= 0)
			fprintf(out, "%ld", w->graph);
		else
			fputs("null", out);
		fputs(", \"reason\": ", out);
		if (w->graph >= 0)
			fputs("null", out);
		else
			put_cstr(out, w->reason);
		fputs("}", out);
	}
	fputs("]},\n", out);
}

static void put_attribution(FILE *out, const ts_result *res, const ts_kview *v)
{
	const ts_attrib *at = res->attrib;
	const ts_attrib_totals *t = ts_attrib_get_totals(at);
	const ts_callsite_totals *cs = ts_attrib_callsite_totals(at);
	int64_t all = 0;
	int nb = ts_kview_nbuckets(res);
	for (int b = 0; b < TS_ATTR_COUNT; b++)
		all = ts_sat_add(all, t->ns[b]);
	fputs("  \"attribution\": {", out);
	for (int b = 0; b < nb; b++)
		fprintf(out, "\"%s_pct\": %.2f, ", ts_attr_bucket_name((ts_attr_bucket)b),
			all ? 100.0 * (double)t->ns[b] / (double)all : 0.0);
	fputs("\"kernels\": {", out);
	for (int b = 0; b < nb; b++)
		fprintf(out, "%s\"%s\": %" PRIu64, b ? ", " : "",
			ts_attr_bucket_name((ts_attr_bucket)b), t->kernels[b]);
	fputs("}, \"time\": {", out);
	for (int b = 0; b < nb; b++) {
		fprintf(out, "%s\"%s_us\": ", b ? ", " : "", ts_attr_bucket_name((ts_attr_bucket)b));
		put_us(out, t->ns[b]);
	}
	fprintf(out, "}, \"ops_indexed\": %" PRIu64 ", \"ops_dropped\": %" PRIu64
		     ", \"ops_with_shapes\": %" PRIu64 ", \"workload_calls\": %" PRIu64
		     ", \"lookahead_overflow\": %" PRIu64 ", \"index_bytes\": %zu,\n"
		     "    \"python\": {\"frames\": %" PRIu64 ", \"indexed\": %" PRIu64
		     ", \"dropped\": %" PRIu64 ", \"out_of_order\": %" PRIu64
		     ", \"lookups\": %" PRIu64 ", \"found\": %" PRIu64 ", \"index_bytes\": %zu}},\n",
		t->ops_indexed, t->ops_dropped, t->ops_with_shapes, t->workload_calls,
		t->lookahead_overflow, t->index_bytes, cs->frames, cs->kept, cs->dropped,
		cs->out_of_order, cs->lookups, cs->found, cs->index_bytes);

	/* ops of the view; shares of the view's kernel time */
	int view = ts_kview_attrib_view(v);
	int64_t base = v->staged ? v->all->total : all;
	size_t n;
	size_t *order = ts_attrib_op_order(at, view, &n);
	int64_t cum = 0;
	fputs("  \"ops\": [", out);
	for (size_t i = 0; order && i < n; i++) {
		const ts_op_row *r = ts_attrib_op(at, view, order[i]);
		/* categories are kept for all kernels, not per stage */
		const ts_op_row *rc = ts_attrib_op(at, TS_ATTRIB_ALL, order[i]);
		size_t len;
		const char *name = ts_attrib_op_name(at, order[i], &len);
		cum = ts_sat_add(cum, r->ns);
		fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
		put_str(out, name, len);
		fprintf(out, ", \"via\": \"%s\", \"calls\": %" PRIu64 ", \"kernels\": %" PRIu64
			     ", \"total_us\": ", ts_attr_bucket_name(ts_attrib_op_via(at, order[i])),
			r->calls, r->kernels);
		put_us(out, r->ns);
		fprintf(out, ", \"pct\": %.2f, \"cum_pct\": %.2f, \"callsite\": ",
			base ? 100.0 * (double)r->ns / (double)base : 0.0,
			base ? 100.0 * (double)cum / (double)base : 0.0);
		const char *site = ts_attrib_op_callsite(at, order[i], &len);
		if (site)
			put_str(out, site, len);
		else
			fputs("null", out);
		if (nb == TS_ATTR_COUNT) {
			/* --capture: what of it was graph replay given back its op */
			fprintf(out, ", \"graph_op_kernels\": %" PRIu64 ", \"graph_op_us\": ",
				r->graph_kernels);
			put_us(out, r->graph_ns);
			const char *sn[TS_ATTRIB_CALLSITES];
			size_t sl[TS_ATTRIB_CALLSITES];
			uint64_t sw[TS_ATTRIB_CALLSITES];
			size_t ns = ts_attrib_op_callsites(at, order[i], sn, sl, sw);
			fputs(", \"callsites\": [", out);
			for (size_t k = 0; k < ns; k++) {
				fputs(k ? ", {\"site\": " : "{\"site\": ", out);
				put_str(out, sn[k], sl[k]);
				fprintf(out, ", \"weight\": %" PRIu64 "}", sw[k]);
			}
			fputs("]", out);
		}
		fputs(", \"categories\": [", out);
		for (int c = 0; c < TS_ATTRIB_OP_CATS && rc->cats[c].count; c++) {
			fputs(c ? ", {\"category\": " : "{\"category\": ", out);
			const ts_kclass k = { .category = rc->cats[c].category };
			put_cstr(out, ts_kclass_category(res->patterns, &k));
			fprintf(out, ", \"kernels\": %" PRIu64 ", \"total_us\": ", rc->cats[c].count);
			put_us(out, rc->cats[c].ns);
			fputs("}", out);
		}
		fputs("]}", out);
	}
	fputs(n ? "\n  ],\n" : "],\n", out);
	free(order);

	order = ts_attrib_workload_order(at, view, &n);
	fputs("  \"workloads\": [", out);
	for (size_t i = 0; order && i < n; i++) {
		const ts_wl_row *w = ts_attrib_workload(at, view, order[i]);
		size_t len;
		const char *dtype;
		const char *name = ts_attrib_workload_name(at, order[i], &len, &dtype);
		const ts_oprule *rule = ts_attrib_workload_rule(at, order[i]);
		fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
		put_str(out, name, len);
		fputs(", \"kind\": ", out);
		put_cstr(out, rule->kind);
		fputs(", \"dtype\": ", out);
		put_cstr(out, dtype);
		fprintf(out, ", \"calls\": %" PRIu64 ", \"kernels\": %" PRIu64 ", \"total_us\": ",
			w->calls, w->kernels);
		put_us(out, w->ns);
		fputs(", \"tokens\": ", out);
		if (w->m_min >= 0) {
			int64_t p50 = ts_wl_tokens_quantile(w, 0.5);
			fprintf(out, "{\"min\": %" PRId64 ", \"p50\": %" PRId64 ", \"max\": %" PRId64 "}",
				w->m_min, p50, w->m_max);
		} else {
			fputs("null", out);
		}
		/* per-head calls: tokens are tokens, not rows of tokens x heads */
		if (w->heads_max)
			fprintf(out, ", \"heads\": {\"min\": %u, \"max\": %u}", w->heads_min,
				w->heads_max);
		else
			fputs(", \"heads\": null", out);
		ts_roofline rf;
		ts_roofline_of(w, dtype, res->gpu, &rf);
		/* exact sums (saturated at 2^64 - 1) */
		if (rf.has_flops)
			fprintf(out, ", \"flops\": %" PRIu64, w->flops);
		else
			fputs(", \"flops\": null", out);
		if (rf.has_bytes)
			fprintf(out, ", \"bytes\": %" PRIu64, w->bytes);
		else
			fputs(", \"bytes\": null", out);
		fputs(", \"tflops\": ", out);
		put_fig(out, rf.has_flops, rf.tflops);
		fputs(", \"tbps\": ", out);
		put_fig(out, rf.has_bytes, rf.tbps);
		fputs(", \"intensity\": ", out);
		put_fig(out, rf.intensity > 0, rf.intensity);
		fputs(", \"pct_of_peak\": ", out);
		put_fig(out, rf.pct_of_peak >= 0, rf.pct_of_peak);
		fputs(", \"bound\": ", out);
		if (rf.bound == TS_BOUND_UNKNOWN)
			fputs("null", out);
		else
			put_cstr(out, ts_bound_name(rf.bound));
		fprintf(out, ", \"exceeds_peak\": %s", rf.exceeds_peak ? "true" : "false");
		fputs(", \"rule\": ", out);
		char where[512];
		snprintf(where, sizeof where, "%s:%d", rule->file, rule->line);
		put_cstr(out, where);
		fputs("}", out);
	}
	fputs(n ? "\n  ],\n" : "],\n", out);
	free(order);
}

static void put_coverage(FILE *out, const ts_result *res, const ts_kview *v)
{
	ts_opcov c[TS_MAX_OPCOV];
	int missing;
	int n = ts_kview_coverage(res, v, c, &missing);
	fputs("  \"operator_coverage\": {\"family\": ", out);
	if (res->model.family)
		put_cstr(out, res->model.family->name);
	else
		fputs("null", out);
	fprintf(out, ", \"ok\": %s, \"missing_required\": %d, \"operators\": [",
		n >= 0 && missing == 0 ? "true" : "false", missing);
	for (int i = 0; i < n; i++) {
		fputs(i ? ",\n    {\"kind\": " : "\n    {\"kind\": ", out);
		put_cstr(out, c[i].kind);
		fprintf(out, ", \"required\": %s, \"found\": %s, \"calls\": %" PRIu64
			     ", \"definitions\": %zu}", c[i].required ? "true" : "false",
			c[i].calls ? "true" : "false", c[i].calls, c[i].definitions);
	}
	fputs(n > 0 ? "\n  ]},\n" : "]},\n", out);
}

static void put_warnings(FILE *out, const ts_result *res, bool more)
{
	char lines[16][TS_WARN_LEN];
	size_t n = ts_report_warnings(res, lines, 16);
	fputs("  \"warnings\": [", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", out);
		put_cstr(out, lines[i]);
	}
	fputs(more ? "],\n" : "]\n", out);
}

int ts_report_json(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	fprintf(out, "{\n  \"schema\": 1,\n  \"tool\": \"tracestream\",\n  \"version\": \"%s\",\n",
		TS_VERSION);
	ts_kview v = ts_report_view(res, o);
	ts_breakdown b;
	if (ts_kview_breakdown(res, &v, &b) != 0)
		return -1;
	fputs("  \"stage_filter\": ", out);
	if (v.staged)
		fprintf(out, "\"%s\",\n", ts_pstage_name(v.stage));
	else
		fputs("null,\n", out);
	put_trace(out, res);
	put_model(out, res);
	fputs("  \"classified_pct\": ", out);
	fprintf(out, "%.2f,\n", v.all->total ?
		100.0 * (double)b.classified_ns / (double)v.all->total : 0.0);
	fputs("  \"patterns\": {\"dirs\": [", out);
	for (size_t i = 0; res->patterns && i < ts_patterns_ndirs(res->patterns); i++) {
		fputs(i ? ", " : "", out);
		put_cstr(out, ts_patterns_dir(res->patterns, i));
	}
	fputs("]},\n", out);
	put_events(out, res->agg);
	put_kernels(out, res, &v);
	/* sections whose JSON is their table (report_table.c) */
	ts_report_json_table(out, res, o, "types", "types");
	ts_report_json_table(out, res, o, "categories", "categories");
	ts_report_json_table(out, res, o, "unclassified", "unclassified");
	if (res->layers) {
		put_layers(out, res, o, &v);
		put_anatomy(out, res, &v);
		put_insight(out, res);
	}
	if (res->attrib)
		put_attribution(out, res, &v);
	if (res->replay)
		put_replays(out, res);
	if (res->attrib && o->verify_ops)
		put_coverage(out, res, &v);
	if (!v.staged)
		ts_report_json_table(out, res, o, "memory", "memory");
	ts_breakdown_free(&b);
	put_warnings(out, res, o->ranks != NULL);
	if (o->ranks)
		ts_report_ranks_json(out, o->ranks);
	fputs("}\n", out);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------ compare */

/* A ratio, or null when A has none. */
static void put_ratio(FILE *out, double r)
{
	if (r < 0)
		fputs("null", out);
	else
		fprintf(out, "%.4f", r);
}

static void put_cmp_side(FILE *out, const ts_compare *c, int s)
{
	const ts_result *r = c->r[s];
	const ts_devprop *d = ts_report_devprop(r);
	fprintf(out, "  \"%c\": {\n    \"name\": ", s ? 'b' : 'a');
	put_cstr(out, c->name[s]);
	fputs(",\n    \"path\": ", out);
	put_cstr(out, r->path);
	fprintf(out, ",\n    \"partial\": %s,\n    \"error\": ", r->partial ? "true" : "false");
	if (r->status != TS_OK)
		put_cstr(out, r->error);
	else
		fputs("null", out);
	fputs(",\n    \"platform\": ", out);
	put_cstr(out, ts_platform_name(r->platform));
	fputs(",\n    \"gpu\": ", out);
	put_cstr(out, d ? d->name : "");
	fputs(",\n    \"model\": ", out);
	if (r->model.family)
		put_cstr(out, r->model.family->name);
	else
		fputs("null", out);
	fprintf(out, ",\n    \"kernels\": %" PRIu64 ",\n    \"kernel_time_us\": ", c->kernels[s]);
	put_us(out, c->kernel_ns[s]);
	fputs(",\n    \"busy_time_us\": ", out);
	put_us(out, ts_agg_busy_ns(r->agg));
	int64_t mns = 0;
	uint64_t mn = 0;
	for (int k = 0; k < TS_MEM_COUNT; k++) {
		mns += r->agg->mem[k].total_ns;
		mn += r->agg->mem[k].count;
	}
	fprintf(out, ",\n    \"memory_ops\": %" PRIu64 ",\n    \"memory_ops_us\": ", mn);
	put_us(out, mns);
	fprintf(out, ",\n    \"passes\": %" PRIu64 ",\n    \"complete_passes\": %" PRIu64
		     ",\n    \"layers\": %" PRIu64 ",\n    \"stages\": {",
		c->passes[s], c->complete[s], c->layers[s]);
	int first = 1;
	for (int st = 0; st < TS_PSTAGE_COUNT && r->layers; st++) {
		if (c->o.staged && (ts_pstage)st != c->o.stage)
			continue;
		const ts_stage_total *t = ts_layers_stage(r->layers, (ts_pstage)st);
		fprintf(out, "%s\"%s\": {\"passes\": %" PRIu32 ", \"complete_passes\": %" PRIu32
			     ", \"layers_per_pass\": %" PRIu32 ", \"kernel_time_us\": ",
			first ? "" : ", ", ts_pstage_name((ts_pstage)st), t->passes,
			t->complete_passes, c->layer_count[st][s]);
		put_us(out, t->gpu_ns);
		fputs("}", out);
		first = 0;
	}
	fputs("}\n  },\n", out);
}

static void put_cmp_kernel_list(FILE *out, const ts_compare *c, const ts_cmp_op *r, int s,
				char (*shorts)[TS_SHORT_MAX + 1])
{
	fprintf(out, ", \"%c_kernels\": [", s ? 'b' : 'a');
	for (size_t i = 0; i < r->nk[s]; i++) {
		const ts_cmp_kernel *k = &r->k[s][i];
		size_t len;
		const char *nm = ts_cmp_kernel_name(c, s, k, &len);
		fputs(i ? ", {\"name\": " : "{\"name\": ", out);
		put_str(out, nm, len);
		fputs(", \"short\": ", out);
		put_cstr(out, k->row == UINT32_MAX || !shorts ? k->cls->short_name : shorts[k->row]);
		fputs(", \"category\": ", out);
		put_cstr(out, ts_kclass_category(c->patterns, k->cls));
		fprintf(out, ", \"count\": %" PRIu64 ", \"total_us\": ", k->count);
		put_us(out, k->ns);
		fputs("}", out);
	}
	fputs("]", out);
	const ts_attrib *at = c->r[s]->attrib;
	fprintf(out, ", \"%c_op\": ", s ? 'b' : 'a');
	if (r->op[s] >= 0 && at) {
		char lab[300];
		ts_report_op_label(at, (size_t)r->op[s], lab, sizeof lab);
		put_cstr(out, lab);
	} else {
		fputs("null", out);
	}
	fprintf(out, ", \"%c_callsite\": ", s ? 'b' : 'a');
	size_t cl;
	const char *cs = r->op[s] >= 0 && at ? ts_attrib_op_callsite(at, (size_t)r->op[s], &cl) : NULL;
	if (cs)
		put_str(out, cs, cl);
	else
		fputs("null", out);
}

static void put_cmp_ops_json(FILE *out, const ts_compare *c)
{
	char (*shorts[2])[TS_SHORT_MAX + 1];
	for (int s = 0; s < 2; s++)
		shorts[s] = ts_report_short_names(c->r[s]->agg);
	fputs("  \"ops\": [", out);
	for (size_t i = 0; i < c->nops; i++) {
		const ts_cmp_op *r = &c->ops[i];
		fputs(i ? ",\n    {\"op\": " : "\n    {\"op\": ", out);
		put_cstr(out, r->name);
		fprintf(out, ", \"a_count\": %" PRIu64 ", \"b_count\": %" PRIu64, r->count[0], r->count[1]);
		for (int s = 0; s < 2; s++) {
			fprintf(out, ", \"%c_per_layer\": ", s ? 'b' : 'a');
			if (r->per_layer[s] >= 0)
				fprintf(out, "%.4f", r->per_layer[s]);
			else
				fputs("null", out);
		}
		for (int s = 0; s < 2; s++) {
			fprintf(out, ", \"%c_avg_us\": ", s ? 'b' : 'a');
			if (r->count[s])
				put_us_f(out, (double)r->ns[s] / (double)r->count[s]);
			else
				fputs("null", out);
		}
		fputs(", \"a_total_us\": ", out);
		put_us(out, r->ns[0]);
		fputs(", \"b_total_us\": ", out);
		put_us(out, r->ns[1]);
		fputs(", \"ratio\": ", out);
		put_ratio(out, r->ratio);
		fputs(", \"gap_us\": ", out);
		put_us_f(out, r->gap);
		fprintf(out, ", \"status\": \"%s\", \"fused\": ", ts_cmp_status_name(r->status));
		if (r->fusion >= 0) {
			const ts_fusion *f = ts_patterns_fusion(c->patterns, (size_t)r->fusion);
			fputs("{\"fusion\": ", out);
			put_cstr(out, f->name);
			fprintf(out, ", \"side\": \"%c\", \"description\": ", r->fused_side ? 'b' : 'a');
			put_cstr(out, f->description);
			fputs("}", out);
		} else {
			fputs("null", out);
		}
		for (int s = 0; s < 2; s++)
			put_cmp_kernel_list(out, c, r, s, shorts[s]);
		fputs("}", out);
	}
	fputs(c->nops ? "\n  ],\n" : "],\n", out);
	free(shorts[0]);
	free(shorts[1]);
}

static void put_cmp_layers_json(FILE *out, const ts_compare *c)
{
	fputs("  \"layer_counts\": [", out);
	int first = 1;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		uint32_t na = c->layer_count[st][0], nb = c->layer_count[st][1];
		if (!na && !nb)
			continue;
		fprintf(out, "%s{\"stage\": \"%s\", \"a\": %" PRIu32 ", \"b\": %" PRIu32
			     ", \"matched\": %" PRIu32 "}", first ? "" : ", ",
			ts_pstage_name((ts_pstage)st), na, nb, na < nb ? na : nb);
		first = 0;
	}
	fputs("],\n  \"layers\": [", out);
	for (size_t i = 0; i < c->nlayers; i++) {
		const ts_cmp_layer *L = &c->layers_rows[i];
		fprintf(out, "%s{\"stage\": \"%s\", \"layer\": %" PRIu32, i ? ",\n    " : "\n    ",
			ts_pstage_name(L->stage), L->layer);
		for (int s = 0; s < 2; s++) {
			char k = s ? 'b' : 'a';
			fprintf(out, ", \"%c_us\": ", k);
			if (L->has[s])
				put_us_f(out, L->mean[s]);
			else
				fputs("null", out);
			fprintf(out, ", \"%c_p50_us\": ", k);
			if (L->has[s])
				put_us(out, L->p50[s]);
			else
				fputs("null", out);
			fprintf(out, ", \"%c_kernels\": ", k);
			if (L->has[s])
				fprintf(out, "%.2f", L->kernels[s]);
			else
				fputs("null", out);
		}
		fputs(", \"ratio\": ", out);
		put_ratio(out, L->ratio);
		fputs(", \"gap_us\": ", out);
		if (L->has[0] && L->has[1])
			put_us_f(out, L->gap);
		else
			fputs("null", out);
		fprintf(out, ", \"status\": \"%s\"}", L->has[0] && L->has[1]
			? ts_cmp_status_name(L->status) : L->has[0] ? "a_only" : "b_only");
	}
	fputs(c->nlayers ? "\n  ],\n" : "],\n", out);
}

static void put_pair_side(FILE *out, const ts_compare *c, const ts_layer_sample *smp,
			  uint32_t k0, uint32_t n, int s)
{
	fputs("[", out);
	for (uint32_t k = 0; k < n; k++) {
		const ts_debug_kernel *d = &smp->k[k0 + k];
		size_t len;
		const char *nm = ts_kview_row_name(c->r[s]->agg,
						    d->row == TS_INTERN_NONE ? TS_ROW_OTHER : d->row, &len);
		fputs(k ? ", {\"name\": " : "{\"name\": ", out);
		put_str(out, nm, len);
		fputs(", \"short\": ", out);
		put_cstr(out, d->cls.short_name);
		fputs(", \"category\": ", out);
		put_cstr(out, ts_kclass_category(c->patterns, &d->cls));
		fputs(", \"avg_us\": ", out);
		put_us_f(out, (double)d->dur / (double)(smp->instances ? smp->instances : 1));
		fputs("}", out);
	}
	fputs("]", out);
}

static void put_cmp_align_json(FILE *out, const ts_compare *c)
{
	fputs("  \"alignment\": [", out);
	int first = 1;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		const ts_cmp_align *al = &c->align[st];
		if (!al->pairs)
			continue;
		fprintf(out, "%s{\"stage\": \"%s\", \"a_layer\": %" PRIu32 ", \"b_layer\": %" PRIu32
			     ", \"a_instances\": %" PRIu32 ", \"b_instances\": %" PRIu32
			     ", \"cost\": %ld, \"truncated\": %s, \"pairs\": [",
			first ? "\n    " : ",\n    ", ts_pstage_name((ts_pstage)st),
			al->s[0]->layer, al->s[1]->layer, al->s[0]->instances, al->s[1]->instances,
			al->cost, al->truncated ? "true" : "false");
		for (size_t i = 0; i < al->npairs; i++) {
			const ts_cmp_pair *p = &al->pairs[i];
			fprintf(out, "%s{\"kind\": \"%s\", \"fusion\": ", i ? ",\n      " : "\n      ",
				ts_pair_kind_name(p->kind));
			if (p->fusion >= 0)
				put_cstr(out, ts_patterns_fusion(c->patterns, (size_t)p->fusion)->name);
			else
				fputs("null", out);
			fputs(", \"a_us\": ", out);
			put_us_f(out, p->a_ns);
			fputs(", \"b_us\": ", out);
			put_us_f(out, p->b_ns);
			fputs(", \"a\": ", out);
			put_pair_side(out, c, al->s[0], p->a0, p->na, 0);
			fputs(", \"b\": ", out);
			put_pair_side(out, c, al->s[1], p->b0, p->nb, 1);
			fputs("}", out);
		}
		fputs("]}", out);
		first = 0;
	}
	fputs(first ? "]\n" : "\n  ]\n", out);
}

int ts_report_compare_json(FILE *out, const ts_compare *c, const ts_report_opts *o)
{
	(void)o;
	fprintf(out, "{\n  \"schema\": 1,\n  \"mode\": \"compare\",\n  \"tool\": \"tracestream\",\n"
		     "  \"version\": \"%s\",\n  \"stage_filter\": ", TS_VERSION);
	if (c->o.staged)
		fprintf(out, "\"%s\",\n", ts_pstage_name(c->o.stage));
	else
		fputs("null,\n", out);
	fprintf(out, "  \"thresholds\": {\"us\": %g, \"pct\": %g},\n  \"per_pass\": %s,\n"
		     "  \"stages_differ\": %s,\n",
		c->o.threshold_us, c->o.threshold_pct, c->per_pass ? "true" : "false",
		c->stages_differ ? "true" : "false");
	put_cmp_side(out, c, 0);
	put_cmp_side(out, c, 1);
	fputs("  \"total\": {\"a_us\": ", out);
	put_us(out, c->kernel_ns[0]);
	fputs(", \"b_us\": ", out);
	put_us(out, c->kernel_ns[1]);
	fputs(", \"ratio\": ", out);
	put_ratio(out, c->ratio);
	fputs(", \"gap_us\": ", out);
	put_us_f(out, c->gap);
	fprintf(out, ", \"status\": \"%s\"},\n", ts_cmp_status_name(c->status));
	put_cmp_ops_json(out, c);
	put_cmp_layers_json(out, c);
	put_cmp_align_json(out, c);
	fputs("}\n", out);
	return ferror(out) ? -1 : 0;
}
