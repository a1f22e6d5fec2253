/*
 * layers_wire.c - the layer machine's part of a saved partial: passes, stage totals, layer
 * statistics, per-stage kernel rows, anatomy; saved and merged (layers_int.h).
 */
#include "analysis/layers/layers_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "input/base/satmath.h"
#include "input/base/grow.h"
#include "input/numtext.h"

static uint32_t map_row(uint32_t row, const uint32_t *map, uint32_t n)
{
	return map && row < n ? map[row] : TS_INTERN_NONE;
}

static void idle_save(const ts_idle_pass *d, ts_wbuf *w)
{
	ts_w_i64(w, d->start_ns);
	ts_w_i64(w, d->span_ns);
	ts_w_i64(w, d->busy_ns);
	ts_w_i64(w, d->idle_ns);
	ts_w_u64(w, d->gaps);
	ts_w_i64(w, d->largest_ns);
	ts_w_i64(w, d->largest_at);
	ts_w_u32(w, d->largest_before);
	ts_w_u32(w, d->largest_after);
	ts_w_u32(w, d->largest_op);
	ts_w_u64(w, d->launch_gaps);
	ts_w_i64(w, d->launch_ns);
	ts_w_u64(w, d->launch_checked);
	ts_w_u64(w, d->stray_kernels);
	ts_w_i64(w, d->stray_ns);
	ts_w_i64(w, d->lead_ns);
	ts_w_i64(w, d->comm_ns);
	ts_w_i64(w, d->compute_ns);
}

static void doubt_save(const ts_layer_doubt *d, ts_wbuf *w)
{
	ts_w_u64(w, d->attn_outside);
	ts_w_u32(w, d->attn_passes);
	ts_w_u64(w, d->differ);
	ts_w_u64(w, d->checked);
	ts_w_u32(w, d->first.pass);
	ts_w_u32(w, d->first.layer);
	ts_w_u32(w, (uint32_t)d->first.type);
	ts_w_i64(w, d->first.ns);
	ts_w_i64(w, d->first.typical_ns);
	ts_w_u32(w, d->first.kernels);
	ts_w_u32(w, d->first.typical_kernels);
	ts_w_u32(w, d->thin);
	ts_w_u32(w, d->thin_pass);
	ts_w_f64(w, d->thin_share);
}

/* Sums a part's doubt into this run's; its first odd layer is kept only
 * where this run has none (its pass renumbered after this run's). */
static void doubt_load(ts_layer_doubt *d, ts_rbuf *r, uint32_t base)
{
	d->attn_outside = ts_sat_addu(d->attn_outside, ts_r_u64(r));
	d->attn_passes = ts_sat_addu32(d->attn_passes, ts_r_u32(r));
	uint64_t differ = ts_r_u64(r);
	d->checked = ts_sat_addu(d->checked, ts_r_u64(r));
	ts_odd_layer f;
	f.pass = ts_r_u32(r) + base;
	f.layer = ts_r_u32(r);
	uint32_t t = ts_r_u32(r);
	f.ns = ts_r_i64(r);
	f.typical_ns = ts_r_i64(r);
	f.kernels = ts_r_u32(r);
	f.typical_kernels = ts_r_u32(r);
	if (t >= TS_LT_COUNT) {
		ts_r_fail(r, "a layer type past the last");
		return;
	}
	f.type = (ts_ltype)t;
	if (differ && !d->differ)
		d->first = f;
	d->differ += differ;
	uint32_t thin = ts_r_u32(r), thin_pass = ts_r_u32(r) + base;
	double share = ts_r_f64(r);
	if (thin && (!d->thin || share < d->thin_share)) {
		d->thin_share = share;
		d->thin_pass = thin_pass;
	}
	d->thin += thin;
}

static void idle_load(ts_idle_pass *d, ts_rbuf *r, const uint32_t *kmap, uint32_t nk,
		      const uint32_t *opmap, uint32_t nop)
{
	d->start_ns = ts_r_i64(r);
	d->span_ns = ts_r_i64(r);
	d->busy_ns = ts_r_i64(r);
	d->idle_ns = ts_r_i64(r);
	d->gaps = ts_r_u64(r);
	d->largest_ns = ts_r_i64(r);
	d->largest_at = ts_r_i64(r);
	d->largest_before = map_row(ts_r_u32(r), kmap, nk);
	d->largest_after = map_row(ts_r_u32(r), kmap, nk);
	d->largest_op = map_row(ts_r_u32(r), opmap, nop);
	d->launch_gaps = ts_r_u64(r);
	d->launch_ns = ts_r_i64(r);
	d->launch_checked = ts_r_u64(r);
	d->stray_kernels = ts_r_u64(r);
	d->stray_ns = ts_r_i64(r);
	d->lead_ns = ts_r_i64(r);
	d->comm_ns = ts_r_i64(r);
	d->compute_ns = ts_r_i64(r);
}

static void pass_save(const ts_layers *l, const ts_pass *p, ts_wbuf *w)
{
	ts_w_u32(w, p->index);
	ts_w_u32(w, (uint32_t)p->stage);
	for (int s = 0; s < TS_SIG_COUNT; s++)
		ts_w_u32(w, (uint32_t)p->signal[s]);
	ts_w_i64(w, p->gemm_m_min);
	ts_w_i64(w, p->gemm_m_max);
	ts_w_i64(w, p->kv_grid);
	ts_w_i64(w, p->q_grid);
	ts_w_u32(w, p->hints_prefill);
	ts_w_u32(w, p->replayed);
	ts_w_u32(w, p->launched);
	ts_w_u8(w, p->replayed_layers);
	ts_w_i64(w, p->sampled);
	ts_w_i64(w, p->layer_tokens);
	ts_w_u32(w, p->hints_decode);
	ts_w_u32(w, p->only_prefill);
	ts_w_u32(w, p->only_decode);
	ts_w_f64(w, p->duration_ratio);
	ts_w_u8(w, p->by_grid);
	ts_w_f64(w, p->grid);
	ts_w_u32(w, (uint32_t)p->duration_ref);
	ts_w_f64(w, p->confidence);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++)
		ts_w_i64(w, p->votes[s]);
	ts_w_u8(w, p->complete);
	ts_w_u8(w, p->cut_start);
	ts_w_u8(w, p->cut_end);
	ts_w_u8(w, p->batching);
	/* the draft byte: a draft's rule, or a target's verified tokens (0x80) */
	ts_w_u8(w, p->draft ? (p->draft_by ? p->draft_by : TS_DRAFT_UNKNOWN)
		: p->verify ? (uint8_t)(0x80 | (p->verify & 0x7f)) : TS_DRAFT_NOT);
	ts_w_i64(w, p->first_ts);
	ts_w_i64(w, p->last_end);
	ts_w_i64(w, p->gpu_ns);
	ts_w_u64(w, p->kernels);
	ts_w_u32(w, p->layers);
	ts_w_u64(w, p->orphan_kernels);
	ts_w_i64(w, p->orphan_ns);
	ts_w_u32(w, p->attn_outside);
	ts_w_i64(w, p->between_ns);
	ts_w_i64(w, p->batch);
	ts_w_i64(w, p->tokens);
	const char *ann = ts_layers_annotation_name(l, p->annotation);
	ts_w_str(w, ann ? ann : "", ann ? strlen(ann) : 0);
	idle_save(&p->idle, w);
	ts_w_i64(w, p->win_from);
	ts_w_i64(w, p->win_to);
	ts_w_i64(w, p->cwin_from);
	ts_w_i64(w, p->cwin_to);
	ts_w_i64(w, p->step_from);
	ts_w_i64(w, p->step_to);
	ts_w_i64(w, p->idle.first_launch_ns);
	ts_w_i64(w, p->idle.last_launch_ns);
}

static bool stage_ok(uint32_t s)
{
	return s < TS_PSTAGE_COUNT;
}

static void pass_load(ts_layers *l, ts_pass *p, ts_rbuf *r, const uint32_t *kmap, uint32_t nk,
		      const uint32_t *opmap, uint32_t nop)
{
	memset(p, 0, sizeof *p);
	p->index = ts_r_u32(r);
	uint32_t st = ts_r_u32(r);
	bool ok = stage_ok(st);
	p->stage = (ts_pstage)st;
	for (int s = 0; s < TS_SIG_COUNT; s++) {
		uint32_t v = ts_r_u32(r);
		ok &= stage_ok(v);
		p->signal[s] = (ts_pstage)v;
	}
	p->gemm_m_min = ts_r_i64(r);
	p->gemm_m_max = ts_r_i64(r);
	p->kv_grid = ts_r_i64(r);
	p->q_grid = ts_r_i64(r);
	p->hints_prefill = ts_r_u32(r);
	p->replayed = ts_r_u32(r);
	p->launched = ts_r_u32(r);
	p->replayed_layers = ts_r_u8(r) != 0;
	p->sampled = ts_r_i64(r);
	p->layer_tokens = ts_r_i64(r);
	p->hints_decode = ts_r_u32(r);
	p->only_prefill = ts_r_u32(r);
	p->only_decode = ts_r_u32(r);
	p->duration_ratio = ts_r_f64(r);
	p->by_grid = ts_r_u8(r) != 0;
	p->grid = ts_r_f64(r);
	uint32_t ref = ts_r_u32(r);
	ok &= stage_ok(ref);
	p->duration_ref = (ts_pstage)ref;
	p->confidence = ts_r_f64(r);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		int64_t v = ts_r_i64(r);
		p->votes[s] = v < 0 ? 0 : v > INT_MAX ? INT_MAX : (int)v;
	}
	p->complete = ts_r_u8(r);
	p->cut_start = ts_r_u8(r);
	p->cut_end = ts_r_u8(r);
	p->batching = ts_r_u8(r);
	uint8_t by = ts_r_u8(r);
	p->draft = by != 0 && !(by & 0x80);
	p->draft_by = !p->draft ? TS_DRAFT_NOT : by < TS_DRAFT_BY_COUNT ? by : TS_DRAFT_UNKNOWN;
	p->verify = by & 0x80 ? by & 0x7f : 0;
	p->first_ts = ts_r_i64(r);
	p->last_end = ts_r_i64(r);
	p->gpu_ns = ts_r_i64(r);
	p->kernels = ts_r_u64(r);
	p->layers = ts_r_u32(r);
	p->orphan_kernels = ts_r_u64(r);
	p->orphan_ns = ts_r_i64(r);
	p->attn_outside = ts_r_u32(r);
	p->between_ns = ts_r_i64(r);
	p->batch = ts_r_i64(r);
	p->tokens = ts_r_i64(r);
	size_t n;
	const char *ann = ts_r_str(r, &n);
	p->annotation = -1;
	if (n && !r->err) {
		uint32_t id = ts_steps_intern(l->steps, ann, n);
		if (id != TS_INTERN_NONE)
			p->annotation = (int)id;
	}
	idle_load(&p->idle, r, kmap, nk, opmap, nop);
	p->win_from = ts_r_i64(r);
	p->win_to = ts_r_i64(r);
	p->cwin_from = ts_r_i64(r);
	p->cwin_to = ts_r_i64(r);
	p->step_from = ts_r_i64(r);
	p->step_to = ts_r_i64(r);
	p->idle.first_launch_ns = ts_r_i64(r);
	p->idle.last_launch_ns = ts_r_i64(r);
	if (!ok)
		ts_r_fail(r, "a pass with a stage out of range");
}

void ts_layers_save(const ts_layers *l, ts_wbuf *w)
{
	ts_w_u64(w, l->records.pass_count);
	ts_w_u64(w, l->records.passes_dropped);
	ts_w_u64(w, l->records.npasses);
	for (size_t i = 0; i < l->records.npasses; i++)
		pass_save(l, &l->records.passes[i], w);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_stage_total *t = &l->stats.stages[s];
		ts_w_u32(w, t->passes);
		ts_w_u32(w, t->complete_passes);
		ts_w_u32(w, t->drafts);
		ts_w_u64(w, t->layers);
		ts_w_u64(w, t->kernels);
		ts_w_i64(w, t->gpu_ns);
		idle_save(&t->idle, w);
		ts_w_u64(w, l->stats.lmax[s]);
		for (uint32_t i = 0; i < l->stats.lmax[s]; i++) {
			const ts_layer_stat *ls = &l->stats.lstat[s][i];
			ts_stat_save(&ls->time, w);
			ts_w_u64(w, ls->kernels);
			for (int k = 0; k < TS_LT_COUNT; k++)
				ts_w_u64(w, ls->type_count[k]);
		}
		uint64_t used = 0;
		for (uint32_t i = 0; l->staged.srows[s] && i < l->staged.srows_cap; i++)
			used += l->staged.srows[s][i].count > 0;
		ts_w_u64(w, used);
		for (uint32_t i = 0; l->staged.srows[s] && i < l->staged.srows_cap; i++) {
			if (!l->staged.srows[s][i].count)
				continue;
			ts_w_u32(w, i);
			ts_stat_save(&l->staged.srows[s][i], w);
			for (size_t k = 0; k < TS_CTX_SLOTS; k++) {
				ts_w_u64(w, l->staged.sctx[s][(size_t)i * TS_CTX_SLOTS + k].count);
				ts_w_i64(w, l->staged.sctx[s][(size_t)i * TS_CTX_SLOTS + k].ns);
			}
		}
		ts_stat_save(&l->staged.sother[s], w);
		ts_w_u64(w, l->staged.sall[s].count);
		ts_w_i64(w, l->staged.sall[s].total);
	}
	for (int k = 0; k < TS_LT_COUNT; k++)
		ts_w_u64(w, l->stats.type_count[k]);
	uint64_t nh = 0;
	for (uint32_t i = 0; i <= TS_MAX_LAYERS; i++)
		nh += l->stats.count_hist[i] > 0;
	ts_w_u64(w, nh);
	for (uint32_t i = 0; i <= TS_MAX_LAYERS; i++)
		if (l->stats.count_hist[i]) {
			ts_w_u32(w, i);
			ts_w_u32(w, l->stats.count_hist[i]);
		}
	ts_w_u64(w, l->stats.orphan_kernels);
	ts_w_i64(w, l->stats.orphan_ns);
	ts_w_u64(w, l->staged.stage_overflow);
	ts_w_u64(w, l->online.structural);
	ts_w_u32(w, l->cpu.generation);
	doubt_save(&l->check.doubt, w);
	ts_w_u64(w, l->online.attn_units);
	ts_w_u64(w, l->cpu.kernels_seen);
	ts_w_u64(w, l->cpu.attn_typed);
	ts_w_u64(w, l->cpu.captures);
	ts_w_u64(w, l->cpu.capture_calls);
	ts_w_u64(w, l->cpu.backward_ops);
	ts_w_u64(w, l->cpu.backward_kernels);
	ts_w_u32(w, l->cpu.backward_names);
	ts_w_u64(w, ts_steps_dropped(l->steps));
	ts_w_u64(w, l->cpu.cpu_ops);
	ts_w_u64(w, l->cpu.compute_ops);
	ts_w_u64(w, l->cpu.launches);
	ts_w_u64(w, l->cpu.py_events);
	ts_w_u64(w, l->cpu.py_server);
	const ts_between *b = &l->stats.between;
	ts_w_u64(w, b->gaps);
	ts_w_i64(w, b->ns);
	ts_w_i64(w, b->largest_ns);
	ts_w_i64(w, b->wait_ns);
	ts_w_u64(w, b->late);
	ts_w_u64(w, b->checked);
	ts_w_i64(w, b->late_ns);
	ts_w_u8(w, l->listing.anatomy != NULL);
	if (l->listing.anatomy)
		ts_anatomy_save(l->listing.anatomy, l->patterns, w);
}

/* A saved row's context slots into the row's: to[k] the slot + 1 each
 * became (0 or NULL: none, the time stays with the name's class). */
static void ctx_merge(ts_ctx_stat *row, const ts_ctx_stat *saved, const uint8_t *to)
{
	for (size_t k = 0; to && k < TS_CTX_SLOTS; k++) {
		if (!to[k] || to[k] > TS_CTX_SLOTS)
			continue;
		ts_ctx_stat *x = &row[to[k] - 1];
		x->count += saved[k].count;
		x->ns = ts_sat_add(x->ns, saved[k].ns);
	}
}

/* One stage's saved totals: its passes, idle time, per-position layer
 * stats and per-name kernel rows, added to stage s. */
static ts_status stage_load(ts_layers *l, int s, ts_rbuf *r, const uint32_t *kmap,
			    const uint8_t *kslots, uint32_t nk, const uint32_t *opmap, uint32_t nop)
{
	ts_stage_total *t = &l->stats.stages[s];
	t->passes = ts_sat_addu32(t->passes, ts_r_u32(r));
	t->complete_passes = ts_sat_addu32(t->complete_passes, ts_r_u32(r));
	t->drafts = ts_sat_addu32(t->drafts, ts_r_u32(r));
	t->layers = ts_sat_addu(t->layers, ts_r_u64(r));
	t->kernels = ts_sat_addu(t->kernels, ts_r_u64(r));
	t->gpu_ns = ts_sat_add(t->gpu_ns, ts_r_i64(r));
	ts_idle_pass idle;
	idle_load(&idle, r, kmap, nk, opmap, nop);
	if (!r->err)
		ts_idle_sum(&t->idle, &idle);
	uint64_t lmax = ts_r_u64(r);
	if (lmax > TS_MAX_LAYERS) {
		ts_r_fail(r, "more layer positions than a pass holds");
		return TS_OK;    /* r->err says it */
	}
	if (lmax && !l->stats.lstat[s] && !(l->stats.lstat[s] = calloc(TS_MAX_LAYERS, sizeof **l->stats.lstat)))
		return TS_ERR_NOMEM;
	for (uint32_t i = 0; i < lmax && !r->err; i++) {
		ts_layer_stat *ls = &l->stats.lstat[s][i];
		ts_status st = ts_stat_load(&ls->time, r);
		if (st != TS_OK)
			return st;
		ls->kernels = ts_sat_addu(ls->kernels, ts_r_u64(r));
		for (int k = 0; k < TS_LT_COUNT; k++)
			ls->type_count[k] = ts_sat_addu(ls->type_count[k], ts_r_u64(r));
	}
	if ((uint32_t)lmax > l->stats.lmax[s])
		l->stats.lmax[s] = (uint32_t)lmax;
	uint64_t used = ts_r_count(r, 4 + 8 * 8);
	for (uint64_t k = 0; k < used && !r->err; k++) {
		uint32_t saved = ts_r_u32(r), row = map_row(saved, kmap, nk);
		ts_stat tmp = { 0 };
		ts_status st = ts_stat_load(&tmp, r);
		ts_ctx_stat cx[TS_CTX_SLOTS];
		for (size_t c = 0; c < TS_CTX_SLOTS; c++) {
			cx[c].count = ts_r_u64(r);
			cx[c].ns = ts_r_i64(r);
		}
		if (st == TS_OK && !r->err) {
			if (row == TS_INTERN_NONE) {
				st = ts_stat_merge(&l->staged.sother[s], &tmp);
			} else if (!ts_lay_grow_srows(l, row + 1)) {
				st = TS_ERR_NOMEM;
			} else {
				st = ts_stat_merge(&l->staged.srows[s][row], &tmp);
				ctx_merge(l->staged.sctx[s] + (size_t)row * TS_CTX_SLOTS, cx,
					  kslots && saved < nk ? kslots + (size_t)saved * TS_CTX_SLOTS
					  : NULL);
			}
		}
		ts_hist_clear(&tmp.hist);
		if (st != TS_OK)
			return st;
	}
	ts_status st = ts_stat_load(&l->staged.sother[s], r);
	if (st != TS_OK)
		return st;
	l->staged.sall[s].count = ts_sat_addu(l->staged.sall[s].count, ts_r_u64(r));
	l->staged.sall[s].total = ts_sat_add(l->staged.sall[s].total, ts_r_i64(r));
	return TS_OK;
}

ts_status ts_layers_load(ts_layers *l, ts_rbuf *r, const uint32_t *kmap, const uint8_t *kslots,
			 uint32_t nk, const uint32_t *opmap, uint32_t nop, const uint32_t *wlmap,
			 uint32_t nwl)
{
	uint32_t base = l->records.pass_count, source = ++l->records.merged;
	l->records.pass_count += (uint32_t)ts_r_u64(r);
	l->records.passes_dropped = ts_sat_addu(l->records.passes_dropped, ts_r_u64(r));
	uint64_t np = ts_r_count(r, 100);
	for (uint64_t i = 0; i < np && !r->err; i++) {
		ts_pass p;
		pass_load(l, &p, r, kmap, nk, opmap, nop);
		if (r->err)
			break;
		p.index += base;
		p.source = source;
		if (l->records.npasses < TS_MAX_PASSES &&
		    !ts_grow((void **)&l->records.passes, &l->records.passes_cap, l->records.npasses + 1, sizeof *l->records.passes,
			     16, TS_MAX_PASSES, false))
			return TS_ERR_NOMEM;
		if (l->records.npasses < l->records.passes_cap)
			l->records.passes[l->records.npasses++] = p;
		else
			l->records.passes_dropped++;
	}
	for (int s = 0; s < TS_PSTAGE_COUNT && !r->err; s++) {
		ts_status st = stage_load(l, s, r, kmap, kslots, nk, opmap, nop);
		if (st != TS_OK)
			return st;
	}
	for (int k = 0; k < TS_LT_COUNT; k++)
		l->stats.type_count[k] = ts_sat_addu(l->stats.type_count[k], ts_r_u64(r));
	uint64_t nh = ts_r_count(r, 8);
	for (uint64_t k = 0; k < nh && !r->err; k++) {
		uint32_t i = ts_r_u32(r), v = ts_r_u32(r);
		if (i > TS_MAX_LAYERS)
			ts_r_fail(r, "a layer count past the largest");
		else
			l->stats.count_hist[i] += v;
	}
	l->stats.orphan_kernels = ts_sat_addu(l->stats.orphan_kernels, ts_r_u64(r));
	l->stats.orphan_ns = ts_sat_add(l->stats.orphan_ns, ts_r_i64(r));
	l->staged.stage_overflow = ts_sat_addu(l->staged.stage_overflow, ts_r_u64(r));
	l->online.structural = ts_sat_addu(l->online.structural, ts_r_u64(r));
	l->cpu.generation |= ts_r_u32(r);
	doubt_load(&l->check.doubt, r, base);
	l->online.attn_units = ts_sat_addu(l->online.attn_units, ts_r_u64(r));
	l->cpu.kernels_seen = ts_sat_addu(l->cpu.kernels_seen, ts_r_u64(r));
	l->cpu.attn_typed = ts_sat_addu(l->cpu.attn_typed, ts_r_u64(r));
	l->cpu.captures = ts_sat_addu(l->cpu.captures, ts_r_u64(r));
	l->cpu.capture_calls = ts_sat_addu(l->cpu.capture_calls, ts_r_u64(r));
	l->cpu.backward_ops = ts_sat_addu(l->cpu.backward_ops, ts_r_u64(r));
	l->cpu.backward_kernels = ts_sat_addu(l->cpu.backward_kernels, ts_r_u64(r));
	{   /* names are rows of one part: the most distinct any part saw */
		uint32_t names = ts_r_u32(r);
		if (names > l->cpu.backward_names)
			l->cpu.backward_names = names;
	}
	ts_steps_add_dropped(l->steps, ts_r_u64(r));
	l->cpu.cpu_ops = ts_sat_addu(l->cpu.cpu_ops, ts_r_u64(r));
	l->cpu.compute_ops = ts_sat_addu(l->cpu.compute_ops, ts_r_u64(r));
	l->cpu.launches = ts_sat_addu(l->cpu.launches, ts_r_u64(r));
	l->cpu.py_events = ts_sat_addu(l->cpu.py_events, ts_r_u64(r));
	l->cpu.py_server = ts_sat_addu(l->cpu.py_server, ts_r_u64(r));
	ts_between *b = &l->stats.between;
	b->gaps = ts_sat_addu(b->gaps, ts_r_u64(r));
	b->ns = ts_sat_add(b->ns, ts_r_i64(r));
	int64_t largest = ts_r_i64(r);
	if (largest > b->largest_ns)
		b->largest_ns = largest;
	b->wait_ns = ts_sat_add(b->wait_ns, ts_r_i64(r));
	b->late = ts_sat_addu(b->late, ts_r_u64(r));
	b->checked = ts_sat_addu(b->checked, ts_r_u64(r));
	b->late_ns = ts_sat_add(b->late_ns, ts_r_i64(r));
	if (ts_r_u8(r) && !r->err) {
		if (!l->listing.anatomy) {
			ts_r_fail(r, "a layer anatomy where this run keeps none");
			return TS_ERR_PARTIAL;
		}
		ts_status st = ts_anatomy_load(l->listing.anatomy, l->patterns, r, kmap, nk, wlmap, nwl);
		if (st != TS_OK)
			return st;
	}
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}
