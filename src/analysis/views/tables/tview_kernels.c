/*
 * tview_kernels.c - the kernel table's tables (tview.h): each kernel row
 * with its statistics, class and parent op; time by type and by
 * category; the names no rule knew; memory operations by kind; and the
 * launches table, a row per kernel while the trace is read.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/views/tables/tview_int.h"
#include "input/base/satmath.h"

int ts_tview_kernels(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		     const ts_table_sink *k)
{
	(void)o;
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

static int buckets(const ts_result *res, const ts_kview *v, const ts_table_sink *k, bool cats)
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

int ts_tview_types(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		   const ts_table_sink *k)
{
	(void)o;
	return buckets(res, v, k, false);
}

int ts_tview_categories(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			const ts_table_sink *k)
{
	(void)o;
	return buckets(res, v, k, true);
}

int ts_tview_unclassified(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			  const ts_table_sink *k)
{
	(void)res, (void)o;
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

int ts_tview_memory(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		    const ts_table_sink *k)
{
	(void)o;
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

/* One row per kernel launch, streamed while the trace is read (the
 * launches table: --table launches): when and where it ran, what it is,
 * its stage, pass and layer, and the op and call site that launched it. */
static const char *const launch_cols[] = {
	"start_us", "dur_us", "stream", "name", "short", "type", "category", "stage", "pass",
	"layer", "op", "callsite",
};

int ts_tview_launches_begin(const ts_table_sink *k)
{
	return BEGIN(k, "launches", launch_cols);
}

int ts_tview_launch_row(const ts_result *res, const ts_launch *x, const ts_table_sink *k)
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
