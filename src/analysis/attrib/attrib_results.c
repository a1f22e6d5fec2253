/*
 * attrib_results.c - what attribution found, as reports read it: ops and
 * workloads in order, their call sites, names and rules, token quantiles
 * (attrib_int.h).
 */
#include "analysis/attrib/attrib_int.h"
#include "input/base/satmath.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------------- results */

int64_t ts_wl_tokens_quantile(const ts_wl_row *w, double q)
{
	if (w->m_min < 0 || w->m.count == 0)
		return -1;
	uint64_t rank = (uint64_t)(q * (double)w->m.count + 0.999999);
	if (rank < 1)
		rank = 1;
	if (!w->inexact) {
		/* nearest rank over the distinct values, in value order */
		uint64_t seen = 0;
		uint32_t last = 0;
		for (;;) {
			int best = -1;
			for (int i = 0; i < w->nexact; i++)
				if (w->exact_v[i] > last && (best < 0 || w->exact_v[i] < w->exact_v[best]))
					best = i;
			if (best < 0)
				return w->m_max;
			seen += w->exact_n[best];
			last = w->exact_v[best];
			if (seen >= rank)
				return last;
		}
	}
	int64_t v = ts_hist_quantile(&w->m, q);
	return v < w->m_min ? w->m_min : v > w->m_max ? w->m_max : v;
}

typedef struct {
	int64_t ns;
	size_t i;
} op_key;

static int by_time(const void *pa, const void *pb)
{
	const op_key *x = pa, *y = pb;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

size_t *ts_attrib_op_order(const ts_attrib *a, int view, size_t *n)
{
	size_t total = a->rows_cap[view] < ts_intern_count(a->names)
		? a->rows_cap[view] : ts_intern_count(a->names), k = 0;
	op_key *keys = malloc((total + 1) * sizeof *keys);
	size_t *o = malloc((total + 1) * sizeof *o);
	if (!keys || !o) {
		free(keys);
		free(o);
		*n = 0;
		return NULL;
	}
	/* by GPU time, memcpy / memset time with it (an op that only copies,
	 * a device-to-host sync, has a row) */
	for (size_t i = 0; i < total; i++)
		if (a->rows[view][i].kernels || a->rows[view][i].memops)
			keys[k++] = (op_key){ ts_sat_add(a->rows[view][i].ns, a->rows[view][i].mem_ns), i };
	qsort(keys, k, sizeof *keys, by_time);
	for (size_t i = 0; i < k; i++)
		o[i] = keys[i].i;
	free(keys);
	*n = k;
	return o;
}

const ts_attrib_totals *ts_attrib_get_totals(const ts_attrib *a)
{
	return &a->t;
}

const ts_callsite_totals *ts_attrib_callsite_totals(const ts_attrib *a)
{
	return ts_callsites_totals(a->cs);
}

size_t ts_attrib_nops(const ts_attrib *a)
{
	return ts_intern_count(a->names);
}

const ts_op_row *ts_attrib_op(const ts_attrib *a, int view, size_t i)
{
	static const ts_op_row empty;
	return i < a->rows_cap[view] ? &a->rows[view][i] : &empty;
}

const char *ts_attrib_op_name(const ts_attrib *a, size_t i, size_t *len)
{
	return ts_intern_str(a->names, (uint32_t)i, len);
}

ts_attr_bucket ts_attrib_op_via(const ts_attrib *a, size_t i)
{
	return i < a->info_cap ? (ts_attr_bucket)a->info[i].via : TS_ATTR_OP;
}

const char *ts_attrib_op_callsite(const ts_attrib *a, size_t i, size_t *len)
{
	if (i >= a->info_cap)
		return NULL;
	const cs_top *t = &a->info[i].cs;
	int best = -1;
	for (int k = 0; k < CS_TOP; k++)
		if (t->w[k] && (best < 0 || t->w[k] > t->w[best]))
			best = k;
	return best < 0 ? NULL : ts_callsites_name(a->cs, t->id[best], len);
}

size_t ts_attrib_op_callsites(const ts_attrib *a, size_t i, const char **name, size_t *len,
			      uint64_t *weight)
{
	if (i >= a->info_cap)
		return 0;
	const cs_top *t = &a->info[i].cs;
	size_t n = 0;
	for (int k = 0; k < CS_TOP; k++)
		if (t->w[k]) {
			name[n] = ts_callsites_name(a->cs, t->id[k], &len[n]);
			weight[n++] = t->w[k];
		}
	/* heaviest first */
	for (size_t x = 1; x < n; x++)
		for (size_t y = x; y > 0 && weight[y] > weight[y - 1]; y--) {
			const char *sn = name[y];
			size_t sl = len[y];
			uint64_t sw = weight[y];
			name[y] = name[y - 1], len[y] = len[y - 1], weight[y] = weight[y - 1];
			name[y - 1] = sn, len[y - 1] = sl, weight[y - 1] = sw;
		}
	return n;
}

long ts_attrib_parent_op(const ts_attrib *a, uint32_t row)
{
	if (row >= a->parent_cap)
		return -1;
	const parent_vote *v = &a->parent[row];
	int best = -1;
	for (int i = 0; i < PARENT_TOP; i++)
		if (v->n[i] && (best < 0 || v->n[i] > v->n[best] ||
				(v->n[i] == v->n[best] && v->first[i] < v->first[best])))
			best = i;
	return best < 0 ? -1 : (long)v->op[best];
}

size_t ts_attrib_nworkloads(const ts_attrib *a)
{
	return ts_intern_count(a->wl_names);
}

const ts_wl_row *ts_attrib_workload(const ts_attrib *a, int view, size_t i)
{
	static const ts_wl_row empty = { .m_min = -1 };
	return i < a->wl_cap[view] ? &a->wl[view][i] : &empty;
}

typedef struct {
	size_t kind_rank;        /* the index of the kind's first rule */
	const char *name;
	size_t i;
} wl_key;

static int by_kind_name(const void *pa, const void *pb)
{
	const wl_key *x = pa, *y = pb;
	if (x->kind_rank != y->kind_rank)
		return x->kind_rank < y->kind_rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

size_t *ts_attrib_workload_order(const ts_attrib *a, int view, size_t *n)
{
	size_t total = ts_intern_count(a->wl_names), k = 0;
	size_t *o = malloc((total + 1) * sizeof *o);
	wl_key *keys = malloc((total + 1) * sizeof *keys);
	if (!o || !keys) {
		free(o);
		free(keys);
		*n = 0;
		return NULL;
	}
	for (size_t i = 0; i < total && i < a->wl_cap[view]; i++) {
		if (!a->wl[view][i].calls)
			continue;
		uint32_t r = a->wl_rule[i];
		const char *kind = ts_patterns_oprule(a->patterns, r)->kind;
		size_t first = r;
		for (size_t j = 0; j < r; j++)
			if (strcmp(ts_patterns_oprule(a->patterns, j)->kind, kind) == 0) {
				first = j;
				break;
			}
		keys[k++] = (wl_key){ first, ts_intern_str(a->wl_names, (uint32_t)i, NULL), i };
	}
	qsort(keys, k, sizeof *keys, by_kind_name);
	for (size_t i = 0; i < k; i++)
		o[i] = keys[i].i;
	free(keys);
	*n = k;
	return o;
}

const char *ts_attrib_workload_name(const ts_attrib *a, size_t i, size_t *len,
				    const char **dtype)
{
	size_t l;
	const char *s = ts_intern_str(a->wl_names, (uint32_t)i, &l);
	const char *sep = memchr(s, '\x1f', l);
	*len = sep ? (size_t)(sep - s) : l;
	if (dtype)
		*dtype = sep ? sep + 1 : "";
	return s;
}

const ts_oprule *ts_attrib_workload_rule(const ts_attrib *a, size_t i)
{
	return ts_patterns_oprule(a->patterns, a->wl_rule[i]);
}

void ts_attrib_warnings(const ts_attrib *a, bool captures, ts_warns *w)
{
	const ts_attrib_totals *t = ts_attrib_get_totals(a);
	int64_t all = 0;
	for (int b = 0; b < TS_ATTR_COUNT; b++)
		all = ts_sat_add(all, t->ns[b]);
	if (t->ops_dropped)
		ts_warn(w, "%" PRIu64 " CPU ops past --join-mem (%zu bytes, %" PRIu64 " ops) were not "
			"indexed; their kernels count as launch or unlinked", t->ops_dropped,
			t->index_bytes, t->ops_indexed);
	const ts_callsite_totals *cs = ts_attrib_callsite_totals(a);
	if (cs->dropped)
		ts_warn(w, "%" PRIu64 " Python frames past --join-mem or the thread and name caps were "
			"not indexed; launches under them may show an outer call site", cs->dropped);
	if (cs->out_of_order)
		ts_warn(w, "%" PRIu64 " Python frames came out of start order on their thread and were "
			"not indexed", cs->out_of_order);
	if (cs->late)
		ts_warn(w, "%" PRIu64 " runtime calls came before an earlier one on their thread, past "
			"the Python frames still kept, and have no call site", cs->late);
	if (t->workloads_dropped)
		ts_warn(w, "%" PRIu64 " op calls past the %d workload definitions kept have no workload",
			t->workloads_dropped, TS_ATTRIB_MAX_WORKLOADS);
	if (t->lookahead_overflow)
		ts_warn(w, "%" PRIu64 " kernels waited past the look-ahead of %d for their launch and "
			"count as unlinked", t->lookahead_overflow, TS_ATTRIB_LOOKAHEAD);
	if (all && t->ns[TS_ATTR_GRAPH] > all / 2)
		ts_warn(w, "%.1f%% of kernel time was replayed from CUDA/HIP graphs with no CPU op "
			"detail%s", 100.0 * (double)t->ns[TS_ATTR_GRAPH] / (double)all,
			captures ? "" : ": a trace of the graph capture (the server's warm-up) given "
					"with --capture gives them their ops back");
}
