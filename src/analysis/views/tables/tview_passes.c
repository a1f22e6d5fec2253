/*
 * tview_passes.c - the layer machine's tables (tview.h): layers by index,
 * passes with their busy and idle time, stages with their steps and
 * tokens, the longest idle gaps; and the largest opportunities.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/views/insight.h"
#include "analysis/views/sview.h"
#include "analysis/views/tables/tview_int.h"

int ts_tview_layers(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		    const ts_table_sink *k)
{
	(void)o;
	static const char *const cols[] = { "stage", "layer", "type", "passes", "kernels",
					    "mean_us", "p50_us", "p90_us", "pass_pct" };
	int rc = BEGIN(k, "layers", cols);
	const ts_layers *l = res->layers;
	for (int s = 0; l && s < TS_PSTAGE_COUNT && rc == 0; s++) {
		if (v->staged && (ts_pstage)s != v->stage)
			continue;
		const ts_stage_total *t = ts_layers_stage(l, (ts_pstage)s);
		double pass_mean = t->passes ? (double)t->gpu_ns / t->passes : 0;
		uint32_t n = ts_layers_max_index(l, (ts_pstage)s);
		for (uint32_t i = 0; i < n && rc == 0; i++) {
			const ts_layer_stat *st = ts_layers_stat(l, (ts_pstage)s, i);
			if (!st->time.count)
				continue;
			int bt = TS_LT_UNKNOWN;
			for (int ty = 0; ty < TS_LT_COUNT; ty++)
				if (st->type_count[ty] > st->type_count[bt])
					bt = ty;
			double mean = (double)st->time.total / (double)st->time.count;
			ts_cell row[] = {
				c_cstr(ts_pstage_name((ts_pstage)s)), c_int(i),
				c_cstr(ts_ltype_name(res->patterns, (ts_ltype)bt)), c_uint(st->time.count),
				c_num((double)st->kernels / (double)st->time.count, 1),
				c_num(mean / 1e3, 3), c_us(ts_stat_quantile(&st->time, 0.5)),
				c_us(ts_stat_quantile(&st->time, 0.9)),
				c_num(pass_mean > 0 ? 100.0 * mean / pass_mean : 0.0, 2),
			};
			rc = ROW(k, row);
		}
	}
	return rc;
}

/* Busy, idle and gap columns of a pass or a stage. */
#define IDLE_COLS "span_us", "busy_us", "idle_us", "busy_pct", "gaps", "largest_gap_us", \
	"launch_bound_gaps", "launch_bound_us", "stray_kernels", "compute_us", "comm_us", \
	"comm_hidden_us", "comm_exposed_us"

#define IDLE_CELLS(d) c_us((d)->span_ns), c_us((d)->busy_ns), c_us((d)->idle_ns), \
	c_num(share((d)->busy_ns, (d)->span_ns), 2), c_uint((d)->gaps), \
	(d)->gaps > 0 ? c_us((d)->largest_ns) : c_null(), c_uint((d)->launch_gaps), \
	c_us((d)->launch_ns), c_uint((d)->stray_kernels), c_us((d)->compute_ns), \
	c_us((d)->comm_ns), c_us(ts_idle_hidden(d)), c_us((d)->comm_ns - ts_idle_hidden(d))

int ts_tview_passes(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		    const ts_table_sink *k)
{
	(void)o;
	static const char *const cols[] = { "index", "stage", "confidence", "complete", "draft",
					    "layers", "kernels", "gpu_time_us", "start_us", "batch",
					    "tokens", IDLE_COLS, "annotation", "cut", "evidence" };
	int rc = BEGIN(k, "passes", cols);
	const ts_layers *l = res->layers;
	for (size_t i = 0; l && i < ts_layers_npasses(l) && rc == 0; i++) {
		const ts_pass *p = ts_layers_pass(l, i);
		if (v->staged && p->stage != v->stage)
			continue;
		char ev[160];
		ts_pass_evidence(l, p, ev, sizeof ev);
		ts_cell row[] = {
			c_int(p->index), c_cstr(ts_pstage_name(p->stage)), c_num(p->confidence, 2),
			c_bool(p->complete), c_bool(p->draft), c_int(p->layers), c_uint(p->kernels),
			c_us(p->gpu_ns), c_us(p->first_ts), c_opt_int(p->batch >= 0, p->batch),
			c_opt_int(p->tokens >= 0, p->tokens), IDLE_CELLS(&p->idle),
			c_cstr(ts_layers_annotation_name(l, p->annotation)),
			c_cstr(p->complete ? NULL : p->cut_start ? "start" : "end"),
			c_cstr(ev),
		};
		rc = ROW(k, row);
	}
	return rc;
}

int ts_tview_stages(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		    const ts_table_sink *k)
{
	(void)o, (void)v;
	/* then its passes in wall time, steps and tokens (sview.h) */
	static const char *const cols[] = { "stage", "passes", "complete_passes", "draft_passes", "layers",
					    "kernels", "gpu_time_us", "share_pct", IDLE_COLS,
					    "wall_mean_us", "wall_p50_us", "wall_max_us", "steps",
					    "step_p50_us", "batch", "tokens", "tokens_per_s",
					    "per_output_token_us" };
	int rc = BEGIN(k, "stages", cols);
	const ts_layers *l = res->layers;
	int64_t all = res->agg->all.total;
	for (int s = 0; l && s < TS_PSTAGE_COUNT && rc == 0; s++) {
		const ts_stage_total *t = ts_layers_stage(l, (ts_pstage)s);
		const ts_stat *other, *sall;
		ts_layers_stage_rows(l, (ts_pstage)s, &other, &sall);
		ts_sview st;
		bool has = ts_sview_of(l, res->api, (ts_pstage)s, &st);
		ts_cell row[] = {
			c_cstr(ts_pstage_name((ts_pstage)s)), c_uint(t->passes), c_uint(t->complete_passes),
			c_uint(t->drafts), c_uint(t->layers), c_uint(sall->count), c_us(sall->total),
			c_num(share(sall->total, all), 2), IDLE_CELLS(&t->idle),
			has ? c_us(st.wall_mean_ns) : c_null(), has ? c_us(st.wall_p50_ns) : c_null(),
			has ? c_us(st.wall_max_ns) : c_null(), c_uint(st.steps),
			st.steps ? c_us(st.step_p50_ns) : c_null(), c_opt_int(st.batch > 0, st.batch),
			c_opt_int(st.tokens > 0, st.tokens),
			c_opt_num(st.tokens_per_s > 0, st.tokens_per_s, 1),
			st.token_ns > 0 ? c_us(st.token_ns) : c_null(),
		};
		rc = ROW(k, row);
	}
	return rc;
}

/* The largest opportunities (insight.h), as JSON opportunities has them:
 * by what the replay says each saves, else by time at stake. */
int ts_tview_opportunities(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			   const ts_table_sink *k)
{
	(void)o;
	static const char *const cols[] = { "kind", "stage", "at_stake_us", "saves_us",
					    "pct_of_stage", "ceiling_pct", "text" };
	int rc = BEGIN(k, "opportunities", cols);
	ts_opportunity op[TS_INSIGHT_MAX];
	size_t n = ts_insight_opportunities(res, op, TS_INSIGHT_MAX);
	bool any_pass = res->layers && ts_layers_npasses(res->layers) > 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (v->staged && op[i].stage != (int)v->stage)
			continue;
		ts_cell row[] = {
			c_cstr(ts_opp_kind_name(op[i].kind)),
			c_cstr(any_pass ? ts_pstage_name((ts_pstage)op[i].stage) : NULL),
			c_us(op[i].at_stake_ns), op[i].saves_ns >= 0 ? c_us(op[i].saves_ns) : c_null(),
			c_num(op[i].pct_of_stage, 2),
			c_opt_num(op[i].kind == TS_OPP_ROOFLINE, op[i].ceiling_pct, 1),
			c_cstr(op[i].text),
		};
		rc = ROW(k, row);
	}
	return rc;
}

static int by_gap_len(const void *a, const void *b)
{
	const ts_gap_span *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? 1 : -1;
	return (x->start > y->start) - (x->start < y->start);
}

/* The longest idle gaps inside the passes (layers.h: ts_layers_gaps), the
 * longest first: where, how long, launch-bound or not, between which
 * kernels. */
int ts_tview_gaps(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		  const ts_table_sink *k)
{
	(void)o;
	static const char *const cols[] = { "pass", "stage", "start_us", "len_us", "launch_bound",
					    "after", "before" };
	int rc = BEGIN(k, "gaps", cols);
	uint64_t dropped;
	const ts_gap_span *g;
	size_t n = res->layers ? ts_layers_gaps(res->layers, &g, &dropped) : 0;
	ts_gap_span *s = n ? malloc(n * sizeof *s) : NULL;
	if (n && !s)
		return -1;
	if (n) {
		memcpy(s, g, n * sizeof *s);
		qsort(s, n, sizeof *s, by_gap_len);
	}
	char (*shorts)[TS_SHORT_MAX + 1] = n ? ts_kview_short_names(res->agg) : NULL;
	uint32_t names = ts_intern_count(res->agg->names);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const ts_pass *p = NULL;
		for (size_t j = 0; j < ts_layers_npasses(res->layers) && !p; j++)
			if (ts_layers_pass(res->layers, j)->index == s[i].pass)
				p = ts_layers_pass(res->layers, j);
		if (v->staged && (!p || p->stage != v->stage))
			continue;
		ts_cell row[] = {
			c_uint(s[i].pass), c_cstr(p ? ts_pstage_name(p->stage) : NULL), c_us(s[i].start),
			c_us(s[i].len), c_bool(s[i].launch_bound),
			c_cstr(shorts && s[i].after < names ? shorts[s[i].after] : NULL),
			c_cstr(shorts && s[i].before < names ? shorts[s[i].before] : NULL),
		};
		rc = ROW(k, row);
	}
	free(shorts);
	free(s);
	return rc;
}
