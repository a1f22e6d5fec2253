/*
 * attrib_wire.c - attribution's part of a saved partial: totals, op and
 * workload rows with their names, saved and merged (attrib_int.h).
 */
#include "analysis/attrib/attrib_int.h"
#include "input/base/grow.h"
#include "input/base/satmath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ saved partials */

static void name_save(const char *s, ts_wbuf *w)
{
	ts_w_str(w, s, strlen(s));
}

static const char *category_name(const ts_attrib *a, int32_t c)
{
	return c >= 0 && a->patterns ? ts_patterns_category(a->patterns, (size_t)c)->name : "";
}

static int32_t category_index(const ts_attrib *a, const char *s, size_t n)
{
	for (size_t i = 0; a->patterns && n && i < ts_patterns_ncategories(a->patterns); i++) {
		const char *name = ts_patterns_category(a->patterns, i)->name;
		if (strlen(name) == n && memcmp(name, s, n) == 0)
			return (int32_t)i;
	}
	return -1;
}

static void oprow_save(const ts_attrib *a, const ts_op_row *r, ts_wbuf *w)
{
	ts_w_u64(w, r->calls);
	ts_w_u64(w, r->kernels);
	ts_w_i64(w, r->ns);
	for (int i = 0; i < TS_ATTRIB_OP_CATS; i++) {
		ts_w_u64(w, r->cats[i].count);
		if (r->cats[i].count) {
			name_save(category_name(a, r->cats[i].category), w);
			ts_w_i64(w, r->cats[i].ns);
		}
	}
	ts_w_i64(w, r->other_cat_ns);
	ts_w_u64(w, r->graph_kernels);
	ts_w_i64(w, r->graph_ns);
	ts_w_u64(w, r->memops);
	ts_w_i64(w, r->mem_ns);
	ts_w_i64(w, r->mem_bytes);
}

static void oprow_load(ts_attrib *a, ts_op_row *r, ts_rbuf *r_)
{
	r->calls = ts_sat_addu(r->calls, ts_r_u64(r_));
	r->kernels = ts_sat_addu(r->kernels, ts_r_u64(r_));
	r->ns = ts_sat_add(r->ns, ts_r_i64(r_));
	for (int i = 0; i < TS_ATTRIB_OP_CATS && !r_->err; i++) {
		uint64_t count = ts_r_u64(r_);
		if (!count)
			continue;
		size_t n;
		const char *name = ts_r_str(r_, &n);
		int64_t ns = ts_r_i64(r_);
		if (r_->err)
			break;
		int32_t cat = category_index(a, name, n);
		int k = 0;
		while (k < TS_ATTRIB_OP_CATS && r->cats[k].count && r->cats[k].category != cat)
			k++;
		if (k == TS_ATTRIB_OP_CATS) {
			r->other_cat_ns = ts_sat_add(r->other_cat_ns, ns);
			continue;
		}
		if (!r->cats[k].count)
			r->cats[k].category = cat;
		r->cats[k].count = ts_sat_addu(r->cats[k].count, count);
		r->cats[k].ns = ts_sat_add(r->cats[k].ns, ns);
	}
	r->other_cat_ns = ts_sat_add(r->other_cat_ns, ts_r_i64(r_));
	r->graph_kernels = ts_sat_addu(r->graph_kernels, ts_r_u64(r_));
	r->graph_ns = ts_sat_add(r->graph_ns, ts_r_i64(r_));
	r->memops = ts_sat_addu(r->memops, ts_r_u64(r_));
	r->mem_ns = ts_sat_add(r->mem_ns, ts_r_i64(r_));
	r->mem_bytes = ts_sat_add(r->mem_bytes, ts_r_i64(r_));
}

static void wlrow_save(const ts_wl_row *x, ts_wbuf *w)
{
	ts_w_u64(w, x->calls);
	ts_w_u64(w, x->kernels);
	ts_w_i64(w, x->ns);
	ts_w_i64(w, x->m_min);
	ts_w_i64(w, x->m_max);
	ts_hist_save(&x->m, w);
	ts_w_u8(w, x->inexact);
	ts_w_u8(w, x->nexact);
	for (int i = 0; i < x->nexact; i++) {
		ts_w_u32(w, x->exact_v[i]);
		ts_w_u64(w, x->exact_n[i]);
	}
	ts_w_u64(w, x->flops);
	ts_w_u64(w, x->bytes);
	ts_w_i64(w, x->flops_ns);
	ts_w_i64(w, x->bytes_ns);
	ts_w_u64(w, x->flops_calls);
	ts_w_u64(w, x->bytes_calls);
	ts_w_u64(w, x->cost_calls);
	ts_w_u64(w, x->placed_calls);
	ts_w_u64(w, x->unfit_kernels);
	ts_w_i64(w, x->unfit_ns);
	ts_w_u32(w, x->heads_min);
	ts_w_u32(w, x->heads_max);
}

static ts_status wlrow_load(ts_wl_row *x, ts_rbuf *r)
{
	x->calls = ts_sat_addu(x->calls, ts_r_u64(r));
	x->kernels = ts_sat_addu(x->kernels, ts_r_u64(r));
	x->ns = ts_sat_add(x->ns, ts_r_i64(r));
	int64_t mn = ts_r_i64(r), mx = ts_r_i64(r);
	if (mn >= 0 && (x->m_min < 0 || mn < x->m_min))
		x->m_min = mn;
	if (mx > x->m_max)
		x->m_max = mx;
	ts_status st = ts_hist_load(&x->m, r);
	if (st != TS_OK)
		return st;
	bool inexact = ts_r_u8(r);
	uint8_t ne = ts_r_u8(r);
	if (ne > TS_WL_EXACT) {
		ts_r_fail(r, "more exact token counts than a workload keeps");
		return TS_ERR_PARTIAL;
	}
	x->inexact |= inexact;
	for (int i = 0; i < ne; i++) {
		uint32_t v = ts_r_u32(r);
		uint64_t n = ts_r_u64(r);
		if (x->inexact)
			continue;
		unsigned k = 0;
		while (k < x->nexact && x->exact_v[k] != v)
			k++;
		if (k < x->nexact) {
			x->exact_n[k] += n;
		} else if (x->nexact < TS_WL_EXACT) {
			x->exact_v[x->nexact] = v;
			x->exact_n[x->nexact++] = n;
		} else {
			x->inexact = true;
		}
	}
	x->flops = ts_sat_addu(x->flops, ts_r_u64(r));
	x->bytes = ts_sat_addu(x->bytes, ts_r_u64(r));
	x->flops_ns = ts_sat_add(x->flops_ns, ts_r_i64(r));
	x->bytes_ns = ts_sat_add(x->bytes_ns, ts_r_i64(r));
	x->flops_calls = ts_sat_addu(x->flops_calls, ts_r_u64(r));
	x->bytes_calls = ts_sat_addu(x->bytes_calls, ts_r_u64(r));
	x->cost_calls = ts_sat_addu(x->cost_calls, ts_r_u64(r));
	x->placed_calls = ts_sat_addu(x->placed_calls, ts_r_u64(r));
	x->unfit_kernels = ts_sat_addu(x->unfit_kernels, ts_r_u64(r));
	x->unfit_ns = ts_sat_add(x->unfit_ns, ts_r_i64(r));
	uint32_t hmin = ts_r_u32(r), hmax = ts_r_u32(r);
	if (hmin && hmin <= UINT16_MAX && (!x->heads_min || hmin < x->heads_min))
		x->heads_min = (uint16_t)hmin;
	if (hmax <= UINT16_MAX && hmax > x->heads_max)
		x->heads_max = (uint16_t)hmax;
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

void ts_attrib_save(const ts_attrib *a, ts_wbuf *w)
{
	const ts_attrib_totals *t = &a->t;
	for (int b = 0; b < TS_ATTR_COUNT; b++) {
		ts_w_u64(w, t->kernels[b]);
		ts_w_i64(w, t->ns[b]);
	}
	ts_w_u64(w, t->ops_indexed);
	ts_w_u64(w, t->ops_dropped);
	ts_w_u64(w, t->lookahead_overflow);
	ts_w_u64(w, t->op_names_dropped);
	ts_w_u64(w, t->ops_with_shapes);
	ts_w_u64(w, t->workload_calls);
	ts_w_u64(w, t->sequence_calls);
	ts_w_u64(w, t->workloads_dropped);
	ts_w_u64(w, t->index_bytes);
	const ts_callsite_totals *ct = ts_callsites_totals(a->cs);
	ts_w_u64(w, ct->frames);
	ts_w_u64(w, ct->kept);
	ts_w_u64(w, ct->dropped);
	ts_w_u64(w, ct->out_of_order);
	ts_w_u64(w, ct->lookups);
	ts_w_u64(w, ct->found);
	ts_w_u64(w, ct->late);
	ts_w_u64(w, ct->index_bytes);
	uint32_t nops = ts_intern_count(a->names);
	ts_w_u64(w, nops);
	for (uint32_t i = 0; i < nops; i++) {
		size_t len;
		const char *name = ts_intern_str(a->names, i, &len);
		ts_w_str(w, name, len);
		const name_info *in = &a->info[i];
		ts_w_u8(w, in->via);
		for (int k = 0; k < CS_TOP; k++) {
			ts_w_u64(w, in->cs.w[k]);
			if (in->cs.w[k]) {
				size_t cl;
				const char *cs = ts_callsites_name(a->cs, in->cs.id[k], &cl);
				ts_w_str(w, cs, cl);
			}
		}
		for (int v = 0; v < TS_ATTRIB_VIEWS; v++) {
			bool has = i < a->rows_cap[v] && (a->rows[v][i].kernels || a->rows[v][i].memops);
			ts_w_u8(w, has);
			if (has)
				oprow_save(a, &a->rows[v][i], w);
		}
	}
	uint32_t nwl = ts_intern_count(a->wl_names);
	ts_w_u64(w, nwl);
	for (uint32_t i = 0; i < nwl; i++) {
		size_t len;
		const char *name = ts_intern_str(a->wl_names, i, &len);
		ts_w_str(w, name, len);
		const ts_oprule *r = ts_patterns_oprule(a->patterns, a->wl_rule[i]);
		ts_w_u32(w, a->wl_rule[i]);
		name_save(r->kind, w);
		name_save(r->workload, w);
		for (int v = 0; v < TS_ATTRIB_VIEWS; v++) {
			bool has = i < a->wl_cap[v] && (a->wl[v][i].calls || a->wl[v][i].kernels);
			ts_w_u8(w, has);
			if (has)
				wlrow_save(&a->wl[v][i], w);
		}
	}
	uint64_t np = 0;
	for (size_t i = 0; i < a->parent_cap; i++)
		for (int k = 0; k < PARENT_TOP; k++)
			np += a->parent[i].n[k] > 0;
	ts_w_u64(w, np);
	for (size_t i = 0; i < a->parent_cap; i++)
		for (int k = 0; k < PARENT_TOP; k++)
			if (a->parent[i].n[k]) {
				ts_w_u32(w, (uint32_t)i);
				ts_w_u32(w, a->parent[i].op[k]);
				ts_w_u32(w, a->parent[i].n[k]);
				ts_w_u32(w, a->parent[i].first[k]);
			}
}

/* One saved op row: its name and bucket, call-site votes and per-view
 * rows, added to the row of its name (*id; TS_INTERN_NONE past the cap,
 * read and dropped). */
static ts_status op_load(ts_attrib *a, ts_rbuf *r, uint32_t *idp)
{
	size_t len;
	const char *name = ts_r_str(r, &len);
	uint8_t via = ts_r_u8(r);
	if (r->err)
		return TS_ERR_PARTIAL;
	if (via >= TS_ATTR_COUNT) {
		ts_r_fail(r, "an op row with no bucket");
		return TS_ERR_PARTIAL;
	}
	uint32_t id = ts_att_name_row(a, name, len, (ts_attr_bucket)via);
	*idp = id;
	if (id == TS_INTERN_NONE)
		a->t.op_names_dropped++;
	if (via == TS_ATTR_UNLINKED && id != TS_INTERN_NONE && a->unlinked_row == TS_INTERN_NONE)
		a->unlinked_row = id;
	for (int k = 0; k < CS_TOP; k++) {
		uint64_t wgt = ts_r_u64(r);
		if (!wgt)
			continue;
		size_t cl;
		const char *cs = ts_r_str(r, &cl);
		if (!r->err && id != TS_INTERN_NONE)
			ts_att_vote_callsite(&a->info[id].cs, ts_callsites_intern(a->cs, cs, cl), wgt);
	}
	for (int v = 0; v < TS_ATTRIB_VIEWS && !r->err; v++) {
		if (!ts_r_u8(r))
			continue;
		ts_op_row scratch = { 0 };
		ts_op_row *row = id == TS_INTERN_NONE ? &scratch : ts_att_op_row(a, v, id);
		if (!row)
			return TS_ERR_NOMEM;
		oprow_load(a, row, r);
	}
	return TS_OK;
}

/* One saved workload: its name and the rule that made it (found again in
 * this run's tables, else dropped), and its per-view rows (*idp: its id,
 * TS_INTERN_NONE when dropped). */
static ts_status wl_load(ts_attrib *a, ts_rbuf *r, uint32_t *idp)
{
	size_t len, kl, tl;
	const char *name = ts_r_str(r, &len);
	uint32_t at = ts_r_u32(r);
	const char *kind = ts_r_str(r, &kl);
	const char *tmpl = ts_r_str(r, &tl);
	if (r->err)
		return TS_ERR_PARTIAL;
	long ri = ts_patterns_oprule_find(a->patterns, at, kind, kl, tmpl, tl);
	uint32_t before = ts_intern_count(a->wl_names), id = TS_INTERN_NONE;
	if (ri < 0 || ts_intern_put(a->wl_names, name, len, &id) != TS_OK ||
	    !ts_grow((void **)&a->wl_rule, &a->wl_rule_cap, (size_t)id + 1, sizeof *a->wl_rule, 64,
		     SIZE_MAX, true) || !ts_att_wl_row(a, TS_ATTRIB_ALL, id))
		id = TS_INTERN_NONE;
	if (id != TS_INTERN_NONE && id == before)
		a->wl_rule[id] = (uint32_t)ri;
	*idp = id;
	for (int v = 0; v < TS_ATTRIB_VIEWS && !r->err; v++) {
		if (!ts_r_u8(r))
			continue;
		ts_wl_row scratch = { .m_min = -1 };
		ts_wl_row *row = id == TS_INTERN_NONE ? &scratch : ts_att_wl_row(a, v, id);
		if (!row)
			return TS_ERR_NOMEM;
		if (id == TS_INTERN_NONE && v == TS_ATTRIB_ALL)
			a->t.workloads_dropped++;
		ts_status st = wlrow_load(row, r);
		ts_hist_clear(&scratch.m);
		if (st != TS_OK)
			return st;
	}
	return TS_OK;
}

ts_status ts_attrib_load(ts_attrib *a, ts_rbuf *r, const uint32_t *kmap, uint32_t nk,
			 uint32_t **opmap, uint32_t *nop, uint32_t **wlmap, uint32_t *nwl)
{
	*opmap = *wlmap = NULL;
	*nop = *nwl = 0;
	ts_attrib_totals *t = &a->t;
	for (int b = 0; b < TS_ATTR_COUNT; b++) {
		t->kernels[b] = ts_sat_addu(t->kernels[b], ts_r_u64(r));
		t->ns[b] = ts_sat_add(t->ns[b], ts_r_i64(r));
	}
	t->ops_indexed = ts_sat_addu(t->ops_indexed, ts_r_u64(r));
	t->ops_dropped = ts_sat_addu(t->ops_dropped, ts_r_u64(r));
	t->lookahead_overflow = ts_sat_addu(t->lookahead_overflow, ts_r_u64(r));
	t->op_names_dropped = ts_sat_addu(t->op_names_dropped, ts_r_u64(r));
	t->ops_with_shapes = ts_sat_addu(t->ops_with_shapes, ts_r_u64(r));
	t->workload_calls = ts_sat_addu(t->workload_calls, ts_r_u64(r));
	t->sequence_calls = ts_sat_addu(t->sequence_calls, ts_r_u64(r));
	t->workloads_dropped = ts_sat_addu(t->workloads_dropped, ts_r_u64(r));
	t->index_bytes = ts_sat_addu(t->index_bytes, ts_r_u64(r));
	ts_callsite_totals ct;
	ct.frames = ts_r_u64(r);
	ct.kept = ts_r_u64(r);
	ct.dropped = ts_r_u64(r);
	ct.out_of_order = ts_r_u64(r);
	ct.lookups = ts_r_u64(r);
	ct.found = ts_r_u64(r);
	ct.late = ts_r_u64(r);
	ct.index_bytes = ts_r_u64(r);
	if (!r->err)
		ts_callsites_add_totals(a->cs, &ct);
	uint64_t n = ts_r_count(r, 4 + 1 + CS_TOP * 8 + TS_ATTRIB_VIEWS);
	if (r->err)
		return TS_ERR_PARTIAL;
	uint32_t *om = malloc((n ? n : 1) * sizeof *om);
	if (!om)
		return TS_ERR_NOMEM;
	*opmap = om;
	*nop = (uint32_t)n;
	for (uint64_t i = 0; i < n; i++) {
		ts_status st = op_load(a, r, &om[i]);
		if (st != TS_OK)
			return st;
	}
	n = ts_r_count(r, 4 + 4 + 4 + 4 + TS_ATTRIB_VIEWS);
	if (r->err)
		return TS_ERR_PARTIAL;
	uint32_t *wm = malloc((n ? n : 1) * sizeof *wm);
	if (!wm)
		return TS_ERR_NOMEM;
	*wlmap = wm;
	*nwl = (uint32_t)n;
	for (uint64_t i = 0; i < n; i++) {
		ts_status st = wl_load(a, r, &wm[i]);
		if (st != TS_OK)
			return st;
	}
	uint64_t np = ts_r_count(r, 16);
	for (uint64_t i = 0; i < np && !r->err; i++) {
		uint32_t row = ts_r_u32(r), cand = ts_r_u32(r), votes = ts_r_u32(r);
		uint32_t first = ts_r_u32(r);
		uint32_t to = kmap && row < nk ? kmap[row] : TS_INTERN_NONE;
		uint32_t op = cand < *nop ? om[cand] : TS_INTERN_NONE;
		if (r->err || to == TS_INTERN_NONE || op == TS_INTERN_NONE ||
		    !ts_grow((void **)&a->parent, &a->parent_cap, (size_t)to + 1, sizeof *a->parent, 64, SIZE_MAX, true))
			continue;
		/* the same op adds; another takes a slot (space-saving) */
		if (votes)
			ts_att_parent_add(&a->parent[to], op, votes, first);
	}
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}
