/*
 * tview_attrib.c - the attribution's tables (tview.h): CPU ops by the
 * time of the kernels they launched, workloads with their roofline
 * figures, and with --capture each kind of graph replay and the graph it
 * took.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/aview.h"
#include "analysis/views/tables/tview_int.h"
#include "input/base/satmath.h"

/* A dtype as the tables show it: "c10::BFloat16" -> "BFloat16", "" -> "-"
 * (JSON keeps the trace's own text). */
static const char *dtype_shown(const char *d)
{
	return strncmp(d, "c10::", 5) == 0 ? d + 5 : *d ? d : "-";
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

int ts_tview_ops(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		 const ts_table_sink *k)
{
	(void)o;
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
int ts_tview_replays(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		     const ts_table_sink *k)
{
	(void)o, (void)v;
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

int ts_tview_workloads(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		       const ts_table_sink *k)
{
	(void)o;
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
			c_cstr(dtype_shown(dtype)), c_uint(w->calls), c_uint(w->kernels), c_us(w->ns),
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
