/*
 * report_table.c - the report's tables as rows of typed cells.
 *
 * One place says what each table holds (kernels, types, categories, ops,
 * workloads, layers, passes, stages, memory, unclassified; with
 * --capture the graph replays; for a job over ranks the rank table and
 * the skew); the formats
 * that are tables (CSV, and the spreadsheet and web page formats that
 * build on them) render the cells. Figures are those of the JSON report:
 * the same helpers, the same view (--stage), the same order.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "input/base/satmath.h"
#include "analysis/views/aview.h"
#include "analysis/views/insight.h"
#include "analysis/views/memory.h"
#include "analysis/views/steps.h"

const char *const ts_report_tables[] = {
	"kernels", "types", "categories", "unclassified", "ops", "workloads",
	"layers", "passes", "stages", "memory", "collectives", "api", "opportunities", "gaps",
	"replays", "ranks", "skew", "device_memory", "memory_passes", "memory_owners", NULL,
};

/* ------------------------------------------------------------- cells */

static ts_cell c_str(const char *s, size_t len)
{
	return (ts_cell){ .kind = s ? TS_CELL_STR : TS_CELL_NULL, .s = s, .len = len };
}

static ts_cell c_cstr(const char *s)
{
	return c_str(s, s ? strlen(s) : 0);
}

static ts_cell c_int(int64_t v)
{
	return (ts_cell){ .kind = TS_CELL_INT, .i = v };
}

static ts_cell c_uint(uint64_t v)
{
	return (ts_cell){ .kind = TS_CELL_UINT, .u = v };
}

static ts_cell c_bool(bool b)
{
	return (ts_cell){ .kind = TS_CELL_BOOL, .u = b };
}

static ts_cell c_us(int64_t ns)
{
	return (ts_cell){ .kind = TS_CELL_US, .i = ns };
}

static ts_cell c_num(double v, int decimals)
{
	return (ts_cell){ .kind = TS_CELL_NUM, .d = v, .decimals = decimals };
}

static ts_cell c_null(void)
{
	return (ts_cell){ .kind = TS_CELL_NULL };
}

static ts_cell c_opt_int(bool known, int64_t v)
{
	return known ? c_int(v) : c_null();
}

static ts_cell c_opt_num(bool known, double v, int decimals)
{
	return known ? c_num(v, decimals) : c_null();
}

static double share(int64_t part, int64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

#define BEGIN(sink, name, cols) \
	(sink)->begin((sink)->ctx, (name), (cols), sizeof(cols) / sizeof *(cols))
#define ROW(sink, cells) (sink)->row((sink)->ctx, (cells), sizeof(cells) / sizeof *(cells))

/* ------------------------------------------------------------ tables */

static int t_kernels(const ts_result *res, const ts_kview *v, const ts_table_sink *k)
{
	static const char *const cols[] = {
		"name", "short", "type", "category", "count", "total_us", "avg_us", "min_us",
		"max_us", "stddev_us", "p50_us", "p90_us", "p99_us", "pct", "parent_op",
		/* the kernel name's own stage hint; where a context rule (contexts:
		 * in the tables) gave it another meaning, the name's own type and
		 * category and the share of its time spent in a context */
		"stage_hint", "name_type", "name_category", "context_pct",
		/* typed only by the words of a name no rule knows */
		"by_words",
	};
	const ts_agg *a = res->agg;
	size_t n;
	uint32_t *order = ts_kview_kernel_order(v, &n);
	char (*shorts)[TS_SHORT_MAX + 1] = ts_kview_short_names(a);
	int rc = BEGIN(k, "kernels", cols);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const ts_stat *s = ts_kview_row(v, order[i]);
		const ts_kclass *c = ts_kview_row_class(a, order[i]);
		size_t len, olen = 0;
		const char *name = ts_kview_row_name(a, order[i], &len);
		long op = res->attrib && order[i] != TS_ROW_OTHER
			? ts_attrib_parent_op(res->attrib, order[i]) : -1;
		const char *oname = op >= 0 ? ts_attrib_op_name(res->attrib, (size_t)op, &olen) : NULL;
		bool ctx = order[i] != TS_ROW_OTHER && ts_agg_ctx(a, order[i])[0].category >= 0;
		const ts_kclass *nc = ctx ? &a->classes[order[i]] : NULL;
		int64_t whole = ctx ? a->rows[order[i]].total : 0, in_ctx = 0;
		uint64_t in_count;
		if (ctx)
			ts_agg_ctx_total(a, order[i], &in_count, &in_ctx);
		ts_cell row[] = {
			c_str(name, len),
			c_cstr(order[i] == TS_ROW_OTHER || !shorts ? c->short_name : shorts[order[i]]),
			c_cstr(ts_ktype_name(c->type)), c_cstr(ts_kclass_category(res->patterns, c)),
			c_uint(s->count), c_us(s->total),
			c_opt_num(s->count > 0, s->count ? (double)s->total / (double)s->count / 1e3 : 0, 3),
			c_us(s->min), c_us(s->max),
			c_num(ts_stat_stddev(s) / 1e3, 3), c_us(ts_stat_quantile(s, 0.50)),
			c_us(ts_stat_quantile(s, 0.90)), c_us(ts_stat_quantile(s, 0.99)),
			c_num(share(s->total, v->all->total), 2), c_str(oname, olen),
			c_cstr(ts_stage_hint_name(c->stage)),
			c_cstr(nc ? ts_ktype_name(nc->type) : NULL),
			c_cstr(nc ? ts_kclass_category(res->patterns, nc) : NULL),
			c_opt_num(ctx, ctx ? share(in_ctx, whole) : 0, 2),
			c_bool(order[i] != TS_ROW_OTHER && a->classes[order[i]].words),
		};
		rc = ROW(k, row);
	}
	free(order);
	free(shorts);
	return rc;
}

static int t_buckets(const ts_result *res, const ts_kview *v, const ts_table_sink *k,
		     bool cats)
{
	static const char *const tcols[] = { "type", "count", "total_us", "pct", "cum_pct" };
	static const char *const ccols[] = { "category", "type", "count", "total_us", "pct",
					     "cum_pct" };
	ts_breakdown b;
	if (ts_kview_breakdown(res, v, &b) != 0)
		return -1;
	size_t nb = cats ? b.ncats + 1 : TS_TYPE_COUNT;
	const ts_bucket *bk = cats ? b.cats : b.types;
	size_t *idx = malloc(nb * sizeof *idx);
	size_t n = idx ? ts_sort_buckets(bk, nb, idx) : 0;
	int rc = idx ? (cats ? BEGIN(k, "categories", ccols) : BEGIN(k, "types", tcols)) : -1;
	int64_t cum = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const ts_bucket *x = &bk[idx[i]];
		cum = ts_sat_add(cum, x->total_ns);
		ts_cell tail[] = { c_uint(x->count), c_us(x->total_ns), c_num(share(x->total_ns, b.total_ns), 2),
				   c_num(share(cum, b.total_ns), 2) };
		if (cats) {
			ts_cell row[] = { c_cstr(ts_breakdown_cat_name(res, idx[i])),
					  c_cstr(ts_ktype_name(ts_breakdown_cat_type(res, idx[i]))),
					  tail[0], tail[1], tail[2], tail[3] };
			rc = ROW(k, row);
		} else {
			ts_cell row[] = { c_cstr(ts_ktype_name((ts_ktype)idx[i])), tail[0], tail[1],
					  tail[2], tail[3] };
			rc = ROW(k, row);
		}
	}
	free(idx);
	ts_breakdown_free(&b);
	return rc;
}

static int t_unclassified(const ts_kview *v, const ts_table_sink *k)
{
	static const char *const cols[] = { "name", "count", "total_us", "pct" };
	size_t n;
	uint32_t *rows = ts_kview_unclassified(v, &n);
	int rc = BEGIN(k, "unclassified", cols);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const ts_stat *s = ts_kview_row(v, rows[i]);
		size_t len;
		const char *name = ts_intern_str(v->agg->names, rows[i], &len);
		ts_cell row[] = { c_str(name, len), c_uint(s->count), c_us(s->total),
				  c_num(share(s->total, v->all->total), 2) };
		rc = ROW(k, row);
	}
	free(rows);
	return rc;
}

/* The categories of an op's kernels, by first seen: "a, b". */
static void op_categories(const ts_result *res, const ts_op_row *r, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int c = 0; c < TS_ATTRIB_OP_CATS && r->cats[c].count && k < n; c++) {
		const ts_kclass kc = { .category = r->cats[c].category };
		int w = snprintf(buf + k, n - k, "%s%s", c ? ", " : "",
				 ts_kclass_category(res->patterns, &kc));
		k += w > 0 ? (size_t)w : 0;
	}
}

static int t_ops(const ts_result *res, const ts_kview *v, const ts_table_sink *k)
{
	/* categories: of its kernels in every stage, the first seen; graph:
	 * a graph launch, or an op whose kernels came mostly from graph
	 * replays (--capture) */
	static const char *const cols[] = { "stage", "op", "via", "calls", "kernels", "total_us",
					    "pct", "cum_pct", "memops", "memops_us", "callsite",
					    "categories", "graph" };
	/* --capture: what of each op was graph replay given back its op */
	static const char *const gcols[] = { "stage", "op", "via", "calls", "kernels", "total_us",
					     "pct", "cum_pct", "memops", "memops_us", "callsite",
					     "categories", "graph", "graph_op_kernels", "graph_op_us" };
	bool g = res->replay != NULL;
	int rc = g ? BEGIN(k, "ops", gcols) : BEGIN(k, "ops", cols);
	const ts_attrib *at = res->attrib;
	if (!at || rc)
		return rc;
	const ts_attrib_totals *t = ts_attrib_get_totals(at);
	int64_t all = 0;
	for (int b = 0; b < TS_ATTR_COUNT; b++)
		all = ts_sat_add(all, t->ns[b]);
	int view = ts_kview_attrib_view(v);
	int64_t base = v->staged ? v->all->total : all;
	size_t n;
	size_t *order = ts_attrib_op_order(at, view, &n);
	int64_t cum = 0;
	const char *stage = v->staged ? ts_pstage_name(v->stage) : "all";
	for (size_t i = 0; order && i < n && rc == 0; i++) {
		const ts_op_row *r = ts_attrib_op(at, view, order[i]);
		const ts_op_row *ra = ts_attrib_op(at, TS_ATTRIB_ALL, order[i]);
		size_t len, slen = 0;
		const char *name = ts_attrib_op_name(at, order[i], &len);
		const char *site = ts_attrib_op_callsite(at, order[i], &slen);
		cum = ts_sat_add(cum, r->ns);
		ts_attr_bucket via = ts_attrib_op_via(at, order[i]);
		char cats[256];
		op_categories(res, ra, cats, sizeof cats);
		bool graph = via == TS_ATTR_GRAPH ||
			     (ra->graph_kernels && 2 * ra->graph_ns >= ra->ns);
		ts_cell row[] = { c_cstr(stage), c_str(name, len), c_cstr(ts_attr_bucket_name(via)),
				  c_uint(r->calls), c_uint(r->kernels), c_us(r->ns),
				  c_num(share(r->ns, base), 2), c_num(share(cum, base), 2),
				  c_uint(ra->memops), c_us(ra->mem_ns), c_str(site, slen),
				  c_cstr(cats), c_bool(graph),
				  c_uint(r->graph_kernels), c_us(r->graph_ns) };
		rc = k->row(k->ctx, row, g ? 15 : 13);
	}
	free(order);
	return rc;
}

/* --capture: each kind of replay, the captured graph it took or why none
 * (the JSON report's graph_replays.kinds). */
static int t_replays(const ts_result *res, const ts_table_sink *k)
{
	static const char *const cols[] = { "size", "matched_size", "kernels", "replays",
					    "total_us", "pct", "first_kernel", "graph_file",
					    "graph_index", "graph_annotation", "graph_copies", "fits",
					    "reordered", "reason" };
	int rc = BEGIN(k, "replays", cols);
	if (!res->replay || rc)
		return rc;
	const ts_capmap *m = ts_replay_map(res->replay);
	for (size_t i = 0; i < ts_replay_nrows(res->replay) && rc == 0; i++) {
		const ts_replay_row *w = ts_replay_row_at(res->replay, i);
		const ts_capgraph *g = w->graph >= 0 ? ts_capmap_graph(m, (size_t)w->graph) : NULL;
		size_t fl = 0, al = 0;
		const char *f = g ? ts_capmap_str(m, g->file, &fl) : NULL;
		const char *an = g ? ts_capmap_str(m, g->ann, &al) : NULL;
		ts_cell row[] = { c_opt_int(w->size >= 0, w->size),
				  c_opt_int(w->matched_size >= 0, w->matched_size),
				  c_uint(w->nkernels), c_uint(w->replays), c_us(w->ns),
				  c_num(share(w->ns, res->agg->all.total), 2), c_cstr(w->first),
				  c_str(f, fl), g ? c_uint(g->index) : c_null(), c_str(an, al),
				  g ? c_uint(g->copies) : c_null(), c_uint(w->fits),
				  c_bool(w->reordered), g ? c_null() : c_cstr(w->reason) };
		rc = ROW(k, row);
	}
	return rc;
}

static int t_workloads(const ts_result *res, const ts_kview *v, const ts_table_sink *k)
{
	static const char *const cols[] = {
		"stage", "name", "kind", "dtype", "calls", "kernels", "total_us", "tokens_min",
		"tokens_p50", "tokens_max", "heads_min", "heads_max", "flops", "bytes", "tflops",
		"tbps", "intensity_flop_per_byte", "pct_of_peak", "bound",
		/* rates past the GPU's peaks (mislinked kernels, a wrong rule or
		 * peak): no fact, so no rate above; what was measured, here; and
		 * the calls whose kernels gave a FLOP or byte rate */
		"over_peak_tflops", "over_peak_tbps", "rated_calls",
	};
	int rc = BEGIN(k, "workloads", cols);
	const ts_attrib *at = res->attrib;
	if (!at || rc)
		return rc;
	int view = ts_kview_attrib_view(v);
	size_t n;
	size_t *order = ts_attrib_workload_order(at, view, &n);
	const char *stage = v->staged ? ts_pstage_name(v->stage) : "all";
	for (size_t i = 0; order && i < n && rc == 0; i++) {
		const ts_wl_row *w = ts_attrib_workload(at, view, order[i]);
		size_t len;
		const char *dtype;
		const char *name = ts_attrib_workload_name(at, order[i], &len, &dtype);
		ts_roofline rf;
		ts_roofline_of(w, dtype, res->gpu, &rf);
		bool tok = w->m_min >= 0;
		ts_cell row[] = {
			c_cstr(stage), c_str(name, len), c_cstr(ts_attrib_workload_rule(at, order[i])->kind),
			c_cstr(ts_report_dtype(dtype)), c_uint(w->calls), c_uint(w->kernels), c_us(w->ns),
			c_opt_int(tok, w->m_min), c_opt_int(tok, tok ? ts_wl_tokens_quantile(w, 0.5) : 0),
			c_opt_int(tok, w->m_max), c_opt_int(w->heads_max > 0, w->heads_min),
			c_opt_int(w->heads_max > 0, w->heads_max),
			rf.has_flops ? c_uint(w->flops) : c_null(), rf.has_bytes ? c_uint(w->bytes) : c_null(),
			c_opt_num(rf.has_flops, rf.tflops, 3), c_opt_num(rf.has_bytes, rf.tbps, 4),
			c_opt_num(rf.intensity > 0, rf.intensity, 3),
			c_opt_num(rf.pct_of_peak >= 0, rf.pct_of_peak, 2),
			c_cstr(rf.bound == TS_BOUND_UNKNOWN ? NULL : ts_bound_name(rf.bound)),
			c_opt_num(rf.exceeds_peak && rf.over_tflops > 0, rf.over_tflops, 3),
			c_opt_num(rf.exceeds_peak && rf.over_tbps > 0, rf.over_tbps, 4),
			c_uint(w->flops_calls > w->bytes_calls ? w->flops_calls : w->bytes_calls),
		};
		rc = ROW(k, row);
	}
	free(order);
	return rc;
}

static int t_layers(const ts_result *res, const ts_kview *v, const ts_table_sink *k)
{
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
				c_cstr(ts_ltype_name((ts_ltype)bt)), c_uint(st->time.count),
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

static int t_passes(const ts_result *res, const ts_kview *v, const ts_table_sink *k)
{
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

static int t_stages(const ts_result *res, const ts_table_sink *k)
{
	/* then its passes in wall time, steps and tokens (steps.h) */
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
		ts_steps st;
		bool has = ts_steps_of(l, res->api, (ts_pstage)s, &st);
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

/* The runtime and driver calls by name, by total time (nsys stats'
 * cuda_api_sum): calls, total, share, mean, median, min, max; whether a
 * call makes the CPU wait for the GPU, and how many of those calls (and
 * their time) fell inside a pass's CPU window. All stages. */
static int t_api(const ts_result *res, const ts_table_sink *k)
{
	static const char *const cols[] = { "name", "calls", "total_us", "pct", "avg_us", "p50_us",
					    "min_us", "max_us", "sync", "in_passes", "in_passes_us" };
	int rc = BEGIN(k, "api", cols);
	size_t n = 0, ns = 0;
	uint64_t unkept;
	size_t *order = res->api ? ts_api_order(res->api, &n) : NULL;
	const ts_api_sync *sy = res->api ? ts_api_syncs(res->api, &ns, &unkept) : NULL;
	int32_t *at = ns ? malloc(ns * sizeof *at) : NULL;
	int64_t *in = ns ? malloc(ns * sizeof *in) : NULL;
	if (ns && (!at || !in || !ts_syncs_place(res->layers, res->api, at, in)))
		ns = 0;
	int64_t all = ts_api_total_ns(res->api);
	for (size_t i = 0; order && i < n && rc == 0; i++) {
		const ts_api_row *r = ts_api_row_at(res->api, order[i]);
		const ts_stat *s = &r->stat;
		uint64_t inside = 0;
		int64_t inside_ns = 0;
		for (size_t j = 0; j < ns; j++)
			if (sy[j].row == order[i] && at[j] >= 0) {
				inside++;
				inside_ns = ts_sat_add(inside_ns, in[j]);
			}
		ts_cell row[] = {
			c_cstr(r->name), c_uint(s->count), c_us(s->total), c_num(share(s->total, all), 2),
			c_num((double)s->total / (double)s->count / 1e3, 3), c_us(ts_stat_quantile(s, 0.5)),
			c_us(s->min), c_us(s->max), c_bool(r->sync),
			r->sync ? c_uint(inside) : c_null(), r->sync ? c_us(inside_ns) : c_null(),
		};
		rc = ROW(k, row);
	}
	free(order);
	free(at);
	free(in);
	return rc;
}

static int t_memory(const ts_result *res, const ts_kview *v, const ts_table_sink *k)
{
	static const char *const cols[] = { "kind", "count", "total_us", "bytes" };
	int rc = BEGIN(k, "memory", cols);
	for (int m = 0; !v->staged && m < TS_MEM_COUNT && rc == 0; m++) {
		const ts_memrow *r = &res->agg->mem[m];
		if (!r->count)
			continue;
		ts_cell row[] = { c_cstr(ts_memkind_name((ts_memkind)m)), c_uint(r->count),
				  c_us(r->total_ns), c_opt_int(r->with_bytes > 0, r->bytes) };
		rc = ROW(k, row);
	}
	return rc;
}

/* Device memory (memory.h), a row per GPU: its peaks, the reserve at
 * the peak allocated, its allocations and growth, as JSON device_memory
 * has them (relative: no totals in the events, no reserve). */
static int t_device_memory(const ts_result *res, const ts_table_sink *k)
{
	static const char *const cols[] = {
		"device", "relative", "events", "allocs", "frees", "bytes_allocated", "bytes_freed",
		"peak_allocated_bytes", "peak_allocated_at_us", "reserved_at_peak_allocated_bytes",
		"peak_reserved_bytes", "first_allocated_bytes", "last_allocated_bytes", "growth_bytes",
	};
	const ts_memory *m = ts_memory_of(res);
	int rc = BEGIN(k, "device_memory", cols);
	for (size_t i = 0; i < ts_memory_ndevices(m) && rc == 0; i++) {
		const ts_mem_device *d = ts_memory_device(m, i);
		bool tot = !d->relative;
		ts_cell row[] = { c_int(d->device), c_bool(d->relative), c_uint(d->events),
				  c_uint(d->allocs), c_uint(d->frees), c_int(d->bytes_allocated),
				  c_int(d->bytes_freed), c_int(d->peak_allocated), c_us(d->peak_allocated_ns),
				  c_opt_int(tot, d->reserved_at_peak_allocated),
				  c_opt_int(tot, d->peak_reserved), c_int(d->first_allocated),
				  c_int(d->last_allocated), c_int(d->last_allocated - d->first_allocated) };
		rc = ROW(k, row);
	}
	return rc;
}

/* Each pass's device memory (memory.h): its window, events, peak, growth. */
static int t_memory_passes(const ts_result *res, const ts_table_sink *k)
{
	static const char *const cols[] = { "pass", "device", "window", "start_us", "end_us",
					    "events", "peak_allocated_bytes", "peak_reserved_bytes",
					    "growth_bytes" };
	const ts_memory *m = ts_memory_of(res);
	int rc = BEGIN(k, "memory_passes", cols);
	for (size_t i = 0; i < ts_memory_npasses(m) && rc == 0; i++) {
		const ts_mem_pass *x = ts_memory_pass(m, i);
		ts_cell row[] = { c_uint(x->pass), c_int(x->device), c_cstr(x->window),
				  c_us(x->from_ns), c_us(x->to_ns), c_uint(x->events),
				  c_opt_int(x->events > 0, x->peak_allocated),
				  c_opt_int(x->events > 0 && x->peak_reserved >= 0, x->peak_reserved),
				  c_opt_int(x->growth != INT64_MIN, x->growth) };
		rc = ROW(k, row);
	}
	return rc;
}

/* Who held each GPU's memory at its peak allocated (memory_ops.h), as
 * JSON device_memory.devices[].at_peak: a row for what was allocated
 * before the capture, then the owners of the capture's live blocks. A
 * device whose owners are unknown has no rows. */
static int t_memory_owners(const ts_result *res, const ts_table_sink *k)
{
	static const char *const owner[] = { "op", "no_op", "op_not_kept", "other_ops" };
	static const char *const cols[] = { "device", "owner", "op", "bytes", "allocations" };
	const ts_memory *m = ts_memory_of(res);
	int rc = BEGIN(k, "memory_owners", cols);
	for (size_t i = 0; i < ts_memory_ndevices(m) && rc == 0; i++) {
		const ts_mem_device *d = ts_memory_device(m, i);
		const ts_mem_peak *pk = ts_memory_peak(m, i);
		if (pk->status != TS_MEMPEAK_DONE)
			continue;
		ts_cell first[] = { c_int(d->device), c_cstr("before_capture"), c_null(),
				    c_int(pk->before_bytes), c_null() };
		rc = ROW(k, first);
		for (size_t j = 0; j < pk->nrows && rc == 0; j++) {
			const ts_memop_row *r = &pk->rows[j];
			ts_cell row[] = { c_int(d->device), c_cstr(owner[r->kind]),
					  r->kind == TS_MEMOP_OP ? c_cstr(r->name) : c_null(),
					  c_int(r->bytes), c_uint(r->allocations) };
			rc = ROW(k, row);
		}
	}
	return rc;
}

/* Collectives by kind, message size and group (comm.h), then per kind the
 * calls past the rows kept, unsized. All stages: none under --stage. */
/* The largest opportunities (insight.h), as JSON opportunities has them:
 * by what the replay says each saves, else by time at stake. */
static int t_opportunities(const ts_result *res, const ts_kview *v, const ts_table_sink *k)
{
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
static int t_gaps(const ts_result *res, const ts_kview *v, const ts_table_sink *k)
{
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

static int t_collectives(const ts_result *res, const ts_kview *v, const ts_table_sink *k)
{
	static const char *const cols[] = { "kind", "msg_bytes", "group_size", "calls", "total_us",
					    "avg_us", "min_us", "max_us", "algbw_gbps", "busbw_gbps",
					    "pct_of_link" };
	/* held to the GPU's link (devices.yaml links:); a figure beyond it
	 * is no fact: null */
	double link = res->gpu ? res->gpu->link_gbps : 0;
	int rc = BEGIN(k, "collectives", cols);
	size_t n = 0;
	const ts_comm_row *rows = res->comm && !v->staged ? ts_comm_rows(res->comm, &n) : NULL;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const ts_comm_row *r = &rows[i];
		double alg = ts_comm_algbw(r), bus = ts_comm_busbw(r);
		ts_cell row[] = { c_cstr(ts_comm_kind_name(r->kind)),
				  c_opt_int(r->msg_bytes >= 0, r->msg_bytes),
				  c_opt_int(r->group > 0, r->group), c_uint(r->calls), c_us(r->ns),
				  c_num((double)r->ns / 1e3 / (double)r->calls, 3), c_us(r->min_ns),
				  c_us(r->max_ns), c_opt_num(alg >= 0, alg, 2),
				  c_opt_num(bus >= 0, bus, 2),
				  c_opt_num(bus >= 0 && link > 0 && bus <= link, 100.0 * bus / link, 2) };
		rc = ROW(k, row);
	}
	for (int kd = 0; res->comm && !v->staged && kd < TS_COMM_KINDS && rc == 0; kd++) {
		int64_t ns;
		uint64_t c = ts_comm_unkept(res->comm, (ts_comm_kind)kd, &ns);
		if (!c)
			continue;
		ts_cell row[] = { c_cstr(ts_comm_kind_name((ts_comm_kind)kd)), c_null(), c_null(),
				  c_uint(c), c_us(ns), c_num((double)ns / 1e3 / (double)c, 3),
				  c_null(), c_null(), c_null(), c_null(), c_null() };
		rc = ROW(k, row);
	}
	return rc;
}

/* A job over ranks: one row per rank, as JSON "ranks" (with the wait of
 * "skew.collective_wait" and whether it is the straggler). */
_Static_assert(TS_PSTAGE_COUNT == 4, "a passes and a time column per stage");

static int t_ranks(const ts_multi *m, const ts_table_sink *k)
{
	static const char *const cols[] = {
		"rank", "trace_rank", "world_size", "path", "status", "partial", "gpu", "kernels",
		"kernel_time_us", "busy_us", "span_us", "comm_us", "wait_us", "wait_pct", "passes",
		"layers_per_pass", "prefill_passes", "prefill_us", "decode_passes", "decode_us",
		"mixed_passes", "mixed_us", "unknown_passes", "unknown_us", "straggler",
	};
	int rc = BEGIN(k, "ranks", cols);
	for (size_t i = 0; m && i < m->n && rc == 0; i++) {
		const ts_rank_summary *r = &m->ranks[i];
		const ts_rank_wait *w = &m->skew->wait[i];
		ts_cell row[sizeof cols / sizeof *cols] = {
			c_int(r->rank), c_opt_int(r->trace_rank >= 0, r->trace_rank),
			c_opt_int(r->world_size >= 0, r->world_size), c_cstr(r->path),
			c_cstr(r->err.status == TS_OK ? "ok" : ts_strerror(r->err.status)),
			c_bool(r->partial), r->gpu[0] ? c_cstr(r->gpu) : c_null(), c_uint(r->kernels),
			c_us(r->kernel_ns), c_us(r->busy_ns), c_us(r->span_ns), c_us(r->comm_ns),
			c_us(w->wait_ns), c_num(share(w->wait_ns, r->comm_ns), 2), c_uint(r->passes),
			c_uint(r->layers_per_pass),
		};
		size_t at = 16;
		for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
			bool has = r->stage_passes[st] > 0;
			row[at++] = c_uint(r->stage_passes[st]);
			row[at++] = has ? c_us(r->stage_ns[st]) : c_null();
		}
		row[at] = c_bool(m->skew->straggler >= 0 && (size_t)m->skew->straggler == i);
		rc = ROW(k, row);
	}
	return rc;
}

/* A job over ranks: the spread of each figure over the ranks (JSON "skew":
 * kernel time, busy time, each stage, each layer position of each stage). */
static int t_skew(const ts_multi *m, const ts_table_sink *k)
{
	static const char *const cols[] = { "figure", "stage", "layer", "ranks", "min_us",
					    "median_us", "max_us", "spread_pct", "slowest_rank" };
	int rc = BEGIN(k, "skew", cols);
	if (!m || rc)
		return rc;
	const ts_skew *sk = m->skew;
	typedef struct {
		const char *figure;
		int stage;
		long layer;
		const ts_spread *s;
	} fig;
	fig top[2 + TS_PSTAGE_COUNT];
	size_t n = 0;
	top[n++] = (fig){ "kernel_time", -1, -1, &sk->kernel };
	top[n++] = (fig){ "busy", -1, -1, &sk->busy };
	for (int st = 0; st < TS_PSTAGE_COUNT; st++)
		top[n++] = (fig){ "stage", st, -1, &sk->stage[st] };
	for (int st = -1; st < TS_PSTAGE_COUNT && rc == 0; st++) {
		/* the job's figures first, then each stage's layer positions */
		size_t cnt = st < 0 ? n : sk->npos[st];
		for (size_t i = 0; i < cnt && rc == 0; i++) {
			fig f = st < 0 ? top[i] : (fig){ "layer", st, (long)i, &sk->pos[st][i] };
			if (!f.s->n)
				continue;
			ts_cell row[] = {
				c_cstr(f.figure), f.stage >= 0 ? c_cstr(ts_pstage_name((ts_pstage)f.stage)) : c_null(),
				c_opt_int(f.layer >= 0, f.layer), c_uint(f.s->n), c_us(f.s->min),
				c_us(f.s->median), c_us(f.s->max),
				c_num(share(f.s->max - f.s->min, f.s->median), 2),
				c_int(m->ranks[f.s->slowest].rank),
			};
			rc = ROW(k, row);
		}
	}
	return rc;
}

int ts_report_table(const ts_result *res, const ts_report_opts *o, const char *name,
		    const ts_table_sink *sink)
{
	ts_kview v = ts_report_view(res, o);
	int rc;
	if (strcmp(name, "kernels") == 0)
		rc = t_kernels(res, &v, sink);
	else if (strcmp(name, "types") == 0 || strcmp(name, "categories") == 0)
		rc = t_buckets(res, &v, sink, name[0] == 'c');
	else if (strcmp(name, "unclassified") == 0)
		rc = t_unclassified(&v, sink);
	else if (strcmp(name, "ops") == 0)
		rc = t_ops(res, &v, sink);
	else if (strcmp(name, "workloads") == 0)
		rc = t_workloads(res, &v, sink);
	else if (strcmp(name, "layers") == 0)
		rc = t_layers(res, &v, sink);
	else if (strcmp(name, "passes") == 0)
		rc = t_passes(res, &v, sink);
	else if (strcmp(name, "stages") == 0)
		rc = t_stages(res, sink);
	else if (strcmp(name, "memory") == 0)
		rc = t_memory(res, &v, sink);
	else if (strcmp(name, "collectives") == 0)
		rc = t_collectives(res, &v, sink);
	else if (strcmp(name, "api") == 0)
		rc = t_api(res, sink);
	else if (strcmp(name, "opportunities") == 0)
		rc = t_opportunities(res, &v, sink);
	else if (strcmp(name, "gaps") == 0)
		rc = t_gaps(res, &v, sink);
	else if (strcmp(name, "replays") == 0)
		rc = t_replays(res, sink);
	else if (strcmp(name, "ranks") == 0)
		rc = t_ranks(o->ranks, sink);
	else if (strcmp(name, "skew") == 0)
		rc = t_skew(o->ranks, sink);
	else if (strcmp(name, "device_memory") == 0)
		rc = t_device_memory(res, sink);
	else if (strcmp(name, "memory_passes") == 0)
		rc = t_memory_passes(res, sink);
	else if (strcmp(name, "memory_owners") == 0)
		rc = t_memory_owners(res, sink);
	else
		return -2;
	return rc || sink->end(sink->ctx) ? -1 : 0;
}

bool ts_report_table_applies(const ts_result *res, const ts_report_opts *o, const char *name)
{
	if (strcmp(name, "replays") == 0)
		return res->replay != NULL;
	if (strcmp(name, "ranks") == 0 || strcmp(name, "skew") == 0)
		return o->ranks != NULL;
	const ts_memory *m = ts_memory_of(res);
	if (strcmp(name, "memory_owners") == 0) {
		for (size_t i = 0; i < ts_memory_ndevices(m); i++)
			if (ts_memory_peak(m, i)->status == TS_MEMPEAK_DONE)
				return true;
		return false;
	}
	if (strcmp(name, "device_memory") == 0 || strcmp(name, "memory_passes") == 0)
		return ts_memory_ndevices(m) > 0;
	return true;
}

/* ------------------------------------------------------------ launches */

/* One row per kernel launch, streamed while the trace is read (the
 * launches table: --table launches): when and where it ran, what it is,
 * its stage, pass and layer, and the op and call site that launched it. */
static const char *const launch_cols[] = {
	"start_us", "dur_us", "stream", "name", "short", "type", "category", "stage", "pass",
	"layer", "op", "callsite",
};

int ts_report_launches_begin(const ts_table_sink *k)
{
	return BEGIN(k, "launches", launch_cols);
}

int ts_report_launch_row(const ts_result *res, const ts_launch *x, const ts_table_sink *k)
{
	const ts_agg *a = res->agg;
	bool named = x->row != TS_INTERN_NONE && x->row < ts_intern_count(a->names);
	size_t len = 0, olen = 0, slen = 0;
	const char *name = named ? ts_intern_str(a->names, x->row, &len) : NULL;
	const ts_kclass *c = named ? ts_agg_class(a, x->row) : NULL;
	uint32_t op = x->ref && x->ref->op != TS_INTERN_NONE ? x->ref->op & ~TS_KREF_FIRST
		    : TS_INTERN_NONE;
	const char *oname = res->attrib && op != TS_INTERN_NONE
			  ? ts_attrib_op_name(res->attrib, op, &olen) : NULL;
	const char *site = oname ? ts_attrib_op_callsite(res->attrib, op, &slen) : NULL;
	ts_cell row[] = {
		c_us(x->ts), c_us(x->dur), x->stream >= 0 ? c_int(x->stream) : c_null(),
		c_str(name, len), c_cstr(c ? c->short_name : NULL),
		c_cstr(c ? ts_ktype_name(c->type) : NULL),
		c_cstr(c ? ts_kclass_category(res->patterns, c) : NULL),
		c_cstr(ts_pstage_name((ts_pstage)x->stage)),
		x->pass != UINT32_MAX ? c_uint(x->pass) : c_null(),
		x->layer != UINT32_MAX ? c_uint(x->layer) : c_null(),
		c_str(oname, olen), c_str(site, slen),
	};
	return ROW(k, row);
}

bool ts_report_table_known(const char *name)
{
	for (size_t i = 0; ts_report_tables[i]; i++)
		if (strcmp(ts_report_tables[i], name) == 0)
			return true;
	return false;
}

/* ------------------------------------------------------------ compare */

const char *const ts_report_compare_tables[] = { "ops", "layers", "alignment", "collectives",
						 NULL };

static ts_cell c_ratio(double r)
{
	return r >= 0 ? c_num(r, 3) : c_null();
}

/* One side's kernels of an op group: "short xN total us; ..." by time. */
static const char *cmp_kernels(const ts_compare *c, const ts_cmp_op *r, int s,
			       char (*shorts)[TS_SHORT_MAX + 1], char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < r->nk[s] && k < n; i++) {
		const ts_cmp_kernel *kn = &r->k[s][i];
		char t[32];
		ts_fmt_us(t, sizeof t, kn->ns);
		k += (size_t)snprintf(buf + k, n - k, "%s%s x%" PRIu64 " %s us", i ? "; " : "",
				      kn->row == UINT32_MAX || !shorts ? kn->cls->short_name
				      : shorts[kn->row], kn->count, t);
	}
	(void)c;
	return r->nk[s] ? buf : NULL;
}

static int t_cmp_ops(const ts_compare *c, const ts_table_sink *k)
{
	static const char *const cols[] = {
		"op", "status", "a_count", "b_count", "a_total_us", "b_total_us", "a_compared_us",
		"b_compared_us", "gap_us", "ratio", "fused", "a_kernels", "b_kernels",
		"a_per_layer", "b_per_layer", "fused_side", "unpaired",
	};
	int rc = BEGIN(k, "ops", cols);
	char (*shorts[2])[TS_SHORT_MAX + 1] = { ts_kview_short_names(c->r[0]->agg),
						ts_kview_short_names(c->r[1]->agg) };
	char *kb[2] = { malloc(4096), malloc(4096) };
	for (size_t i = 0; i < c->nops && rc == 0 && kb[0] && kb[1]; i++) {
		const ts_cmp_op *r = &c->ops[i];
		const char *fused = r->fusion >= 0 ? ts_patterns_fusion(c->patterns, (size_t)r->fusion)->name
						   : NULL;
		ts_cell row[] = {
			c_cstr(r->name), c_cstr(ts_cmp_status_name(r->status)), c_uint(r->count[0]),
			c_uint(r->count[1]), c_us(r->ns[0]), c_us(r->ns[1]), c_num(r->cmp[0] / 1e3, 3),
			c_num(r->cmp[1] / 1e3, 3), c_num(r->gap / 1e3, 3), c_ratio(r->ratio), c_cstr(fused),
			c_cstr(cmp_kernels(c, r, 0, shorts[0], kb[0], 4096)),
			c_cstr(cmp_kernels(c, r, 1, shorts[1], kb[1], 4096)),
			c_opt_num(r->per_layer[0] >= 0, r->per_layer[0], 4),
			c_opt_num(r->per_layer[1] >= 0, r->per_layer[1], 4),
			c_cstr(r->fusion < 0 ? NULL : r->fused_side ? "b" : "a"), c_bool(r->unpaired),
		};
		rc = ROW(k, row);
	}
	if (!kb[0] || !kb[1])
		rc = -1;
	free(kb[0]);
	free(kb[1]);
	free(shorts[0]);
	free(shorts[1]);
	return rc;
}

/* The kernels of a typical layer of each stage, A's and B's aligned: one
 * row per pair (same, similar, fused, a_only, b_only), as compare's text
 * KERNEL ALIGNMENT. */
static int t_cmp_alignment(const ts_compare *c, const ts_table_sink *k)
{
	static const char *const cols[] = { "stage", "pair", "kind", "fusion", "a_kernels",
					    "a_us", "b_kernels", "b_us" };
	int rc = BEGIN(k, "alignment", cols);
	char ka[2048], kb[2048];
	for (int st = 0; st < TS_PSTAGE_COUNT && rc == 0; st++) {
		const ts_cmp_align *al = &c->align[st];
		for (size_t i = 0; al->pairs && i < al->npairs && rc == 0; i++) {
			const ts_cmp_pair *p = &al->pairs[i];
			char *buf[2] = { ka, kb };
			uint32_t from[2] = { p->a0, p->b0 }, cnt[2] = { p->na, p->nb };
			for (int s = 0; s < 2; s++) {
				size_t m = 0;
				buf[s][0] = '\0';
				for (uint32_t j = 0; j < cnt[s] && m < sizeof ka; j++)
					m += (size_t)snprintf(buf[s] + m, sizeof ka - m, "%s%s", j ? "; " : "",
							      al->s[s]->k[from[s] + j].cls.short_name);
			}
			ts_cell row[] = {
				c_cstr(ts_pstage_name((ts_pstage)st)), c_uint(i), c_cstr(ts_pair_kind_name(p->kind)),
				c_cstr(p->fusion >= 0 ? ts_patterns_fusion(c->patterns, (size_t)p->fusion)->name
						      : NULL),
				c_cstr(p->na ? ka : NULL), c_opt_num(p->na > 0, p->a_ns / 1e3, 3),
				c_cstr(p->nb ? kb : NULL), c_opt_num(p->nb > 0, p->b_ns / 1e3, 3),
			};
			rc = ROW(k, row);
		}
	}
	return rc;
}

static int t_cmp_layers(const ts_compare *c, const ts_table_sink *k)
{
	static const char *const cols[] = { "stage", "layer", "a_us", "b_us", "a_kernels",
					    "b_kernels", "gap_us", "ratio", "status", "a_p50_us",
					    "b_p50_us" };
	int rc = BEGIN(k, "layers", cols);
	for (size_t i = 0; i < c->nlayers && rc == 0; i++) {
		const ts_cmp_layer *L = &c->layers_rows[i];
		bool both = L->has[0] && L->has[1];
		ts_cell row[] = {
			c_cstr(ts_pstage_name(L->stage)), c_int(L->layer),
			c_opt_num(L->has[0], L->mean[0] / 1e3, 3), c_opt_num(L->has[1], L->mean[1] / 1e3, 3),
			c_opt_num(L->has[0], L->kernels[0], 2), c_opt_num(L->has[1], L->kernels[1], 2),
			c_opt_num(both, L->gap / 1e3, 3), c_ratio(L->ratio),
			c_cstr(both ? ts_cmp_status_name(L->status) : L->has[0] ? "a_only" : "b_only"),
			L->has[0] ? c_us(L->p50[0]) : c_null(), L->has[1] ? c_us(L->p50[1]) : c_null(),
		};
		rc = ROW(k, row);
	}
	return rc;
}

/* Collectives per kind on both sides (a kind either side ran): calls,
 * time, message bytes, bus bandwidth weighted by time (comm.h). */
static int t_cmp_collectives(const ts_compare *c, const ts_table_sink *k)
{
	static const char *const cols[] = { "kind", "a_calls", "a_total_us", "a_bytes",
					    "a_busbw_gbps", "b_calls", "b_total_us", "b_bytes",
					    "b_busbw_gbps" };
	int rc = BEGIN(k, "collectives", cols);
	for (int kd = 0; kd < TS_COMM_KINDS && rc == 0; kd++) {
		ts_comm_total t[2];
		ts_comm_kind_total(c->r[0]->comm, (ts_comm_kind)kd, &t[0]);
		ts_comm_kind_total(c->r[1]->comm, (ts_comm_kind)kd, &t[1]);
		if (!t[0].calls && !t[1].calls)
			continue;
		ts_cell row[] = {
			c_cstr(ts_comm_kind_name((ts_comm_kind)kd)),
			c_uint(t[0].calls), c_us(t[0].ns), c_int(t[0].bytes),
			c_opt_num(t[0].busbw >= 0, t[0].busbw, 2),
			c_uint(t[1].calls), c_us(t[1].ns), c_int(t[1].bytes),
			c_opt_num(t[1].busbw >= 0, t[1].busbw, 2),
		};
		rc = ROW(k, row);
	}
	return rc;
}

int ts_report_compare_table(const ts_compare *c, const char *name, const ts_table_sink *sink)
{
	int rc;
	if (strcmp(name, "ops") == 0)
		rc = t_cmp_ops(c, sink);
	else if (strcmp(name, "layers") == 0)
		rc = t_cmp_layers(c, sink);
	else if (strcmp(name, "alignment") == 0)
		rc = t_cmp_alignment(c, sink);
	else if (strcmp(name, "collectives") == 0)
		rc = t_cmp_collectives(c, sink);
	else
		return -2;
	return rc || sink->end(sink->ctx) ? -1 : 0;
}

size_t ts_cell_number(const ts_cell *c, char *buf, size_t n)
{
	int k = -1;
	switch (c->kind) {
	case TS_CELL_INT:
		k = snprintf(buf, n, "%" PRId64, c->i);
		break;
	case TS_CELL_UINT:
		k = snprintf(buf, n, "%" PRIu64, c->u);
		break;
	case TS_CELL_US:
		ts_fmt_us(buf, n, c->i);
		k = (int)strlen(buf);
		break;
	case TS_CELL_NUM:
		if (isfinite(c->d))
			k = snprintf(buf, n, "%.*f", c->decimals, c->d);
		break;
	case TS_CELL_BOOL:
		k = snprintf(buf, n, "%s", c->u ? "true" : "false");
		break;
	default:
		break;
	}
	return k > 0 && (size_t)k < n ? (size_t)k : 0;
}
