/*
 * layers.c - forward passes and transformer layers as the kernels arrive:
 * attention units and the period between them, once-per-pass kernels, a
 * pass laid out again by its repeating unit when it ends, per-stage kernel
 * rows (see layers.h; the rest of the machine in layers_*.c, through
 * layers_int.h).
 */
#include "analysis/layers/layers_int.h"
#include "input/base/grow.h"
#include "input/base/satmath.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "input/numtext.h"

ts_layers *ts_layers_new(const ts_patterns *p, const ts_layers_opts *o)
{
	ts_layers *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->opts = *o;
	l->patterns = p;
	if (p && o->model)
		l->meaning.forced = ts_patterns_find_family(p, o->model);
	l->online.layers = calloc(TS_MAX_LAYERS, sizeof *l->online.layers);
	l->online.gap = calloc(MAX_GAP, sizeof *l->online.gap);
	l->online.pre = calloc(MAX_PRE, sizeof *l->online.pre);
	l->online.unit_kern = calloc(MAX_UNITS, sizeof *l->online.unit_kern);
	l->check.chk = calloc(2 * TS_MAX_LAYERS, sizeof *l->check.chk);
	l->steps = ts_steps_new();
	l->stats.prev_end = l->pass.kfrontier = l->pass.frontier_at_start = INT64_MIN;
	l->pass.last_step = -1;
	l->pass.graph_corr = -1;
	l->pass.forward_row = TS_INTERN_NONE;
	l->pass.last_corr = -1;
	l->pass.last_stage = TS_PSTAGE_UNKNOWN;
	l->pass.prev_sampled = -1;
	/* the listing of the pass's layer kernels: for the anatomy (with
	 * tables), --debug-layers and the samples of compare */
	l->listing.track = o->debug || o->sample || o->spans || p;

	if (o->debug)
		l->listing.dbg_kept = calloc(TS_MAX_DEBUG_KERNELS, sizeof *l->listing.dbg_kept);
	if (o->sample)
		l->listing.samp_tmp = calloc(TS_MAX_SAMPLE_KERNELS, sizeof *l->listing.samp_tmp);
	if (p)
		l->listing.anatomy = ts_anatomy_new(ts_patterns_ncategories(p));
	l->idle = ts_idle_new();
	if (l->idle)
		ts_idle_on_gap(l->idle, ts_lay_on_gap, l);
	bool ok = l->idle && l->online.layers && l->online.gap && l->online.pre && l->online.unit_kern && l->check.chk && l->steps &&
		  (!o->debug || l->listing.dbg_kept) && (!o->sample || l->listing.samp_tmp) &&
		  (!p || l->listing.anatomy);
	if (!ok) {
		ts_layers_free(l);
		return NULL;
	}
	return l;
}

void ts_layers_free(ts_layers *l)
{
	if (!l)
		return;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		if (l->stats.lstat[s])
			for (uint32_t i = 0; i < l->stats.lmax[s]; i++)   /* the rest are unused */
				ts_stat_clear(&l->stats.lstat[s][i].time);
		free(l->stats.lstat[s]);
	}
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		for (uint32_t i = 0; l->staged.srows[st] && i < l->staged.srows_cap; i++)
			ts_stat_clear(&l->staged.srows[st][i]);
		free(l->staged.srows[st]);
		free(l->staged.sctx[st]);
		ts_stat_clear(&l->staged.sother[st]);
		ts_stat_clear(&l->staged.sall[st]);
	}
	for (size_t i = 0; i < l->held.npending; i++) {
		free(l->held.pending[i].layers);
		free(l->held.pending[i].kernels);
		free(l->held.pending[i].sample.k);
		free(l->held.pending[i].anat);
	}
	for (int s = 0; s < TS_PSTAGE_COUNT; s++)
		free(l->listing.samples[s].k);
	free(l->staged.kbuf);
	free(l->meaning.marks);
	free(l->meaning.ctx_marks);
	ts_steps_free(l->steps);
	free(l->waiting.wait);
	free(l->online.layers);
	free(l->online.gap);
	free(l->online.pre);
	free(l->online.unit_kern);
	free(l->check.chk);
	free(l->records.passes);
	free(l->listing.dbg_cur);
	free(l->listing.dbg_kept);
	free(l->listing.samp_tmp);
	free(l->listing.spans);
	free(l->listing.gspans);
	ts_anatomy_free(l->listing.anatomy);
	ts_idle_free(l->idle);
	free(l->listing.anat_tmp);
	ts_unit_free(l->finder.unit);
	free(l->finder.ukey);
	free(l->finder.umark);
	free(l->finder.udur);
	free(l->finder.split);
	free(l);
}

/* The layer machine's state at the start of a pass. */
static void reset_structure(ts_layers *l)
{
	l->online.walk = PASS_WALK_START;
	l->listing.ndbg_cur = l->listing.dbg_span = 0;
}

static void start_pass(ts_layers *l, const ts_event *ev)
{
	l->pass.in_pass = true;
	ts_idle_begin(l->idle);
	l->pass.cur = (ts_pass){ .first_ts = ev->ts_ns, .last_end = ev->ts_ns,
			    .batch = -1, .tokens = -1, .annotation = -1,
			    .gemm_m_min = -1, .gemm_m_max = -1,
			    .kv_grid = -1, .q_grid = -1, .sampled = -1, .layer_tokens = -1 };
	for (int sg = 0; sg < TS_SIG_COUNT; sg++)
		l->pass.cur.signal[sg] = TS_PSTAGE_UNKNOWN;
	reset_structure(l);
	l->pass.hints = PASS_HINTS_START;
	l->listing.dbg_lost = false;
	l->listing.dbg_all = true;
	l->staged.kbuf0 = l->staged.nkbuf;
	l->online.narows = 0;
	l->online.arows_full = false;
}

/* Add one finished pass's layers to the statistics of a stage. */
static void add_layers(ts_layers *l, ts_pstage s, const cur_layer *layers,
		       uint32_t n)
{
	/* 600 KB a stage: only for the stages a trace has */
	if (!l->stats.lstat[s] && !(l->stats.lstat[s] = calloc(TS_MAX_LAYERS, sizeof **l->stats.lstat)))
		return;
	for (uint32_t i = 0; i < n && i < TS_MAX_LAYERS; i++) {
		ts_layer_stat *st = &l->stats.lstat[s][i];
		ts_stat_add(&st->time, layers[i].ns);
		st->kernels += layers[i].kernels;
		st->type_count[ts_lay_layer_type(l, layers[i].marks)]++;
		if (i + 1 > l->stats.lmax[s])
			l->stats.lmax[s] = i + 1;
	}
}

bool ts_lay_grow_srows(ts_layers *l, uint32_t need)
{
	ts_grow_part parts[2 * TS_PSTAGE_COUNT];
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		parts[2 * st] = (ts_grow_part){ (void **)&l->staged.srows[st], sizeof *l->staged.srows[st] };
		parts[2 * st + 1] = (ts_grow_part){ (void **)&l->staged.sctx[st],
						    TS_CTX_SLOTS * sizeof *l->staged.sctx[st] };
	}
	return ts_grow_each(parts, 2 * TS_PSTAGE_COUNT, &l->staged.srows_cap, need, 64, SIZE_MAX, true);
}

static void stage_kernel(ts_layers *l, ts_pstage s, uint32_t row, const ts_kref *ref,
			 int64_t dur, unsigned slot)
{
	if (l->opts.staged && ref)
		l->opts.staged(l->opts.staged_ctx, (int)s, ref, dur);
	/* the stage's total needs no distribution: count and sum only */
	l->staged.sall[s].count++;
	l->staged.sall[s].total = ts_sat_add(l->staged.sall[s].total, dur);
	if (row == TS_INTERN_NONE)
		ts_stat_add(&l->staged.sother[s], dur);
	else if (ts_lay_grow_srows(l, row + 1)) {
		ts_stat_add(&l->staged.srows[s][row], dur);
		if (slot && slot <= TS_CTX_SLOTS) {
			ts_ctx_stat *x = &l->staged.sctx[s][(size_t)row * TS_CTX_SLOTS + slot - 1];
			x->count++;
			x->ns = ts_sat_add(x->ns, dur);
		}
	}
}

static void stage_kernels(ts_layers *l, ts_pstage s, const kernel_ent *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		stage_kernel(l, s, k[i].row, &k[i].ref, k[i].dur, k[i].ctx);
		if (l->opts.launch) {
			ts_launch x = { k[i].ts, k[i].dur, k[i].stream, k[i].row, &k[i].ref, (int)s,
					k[i].pass, k[i].layer };
			l->opts.launch(l->opts.launch_ctx, &x);
		}
	}
}

/* The pass just numbered: its kernels take its index and, where the
 * listing followed every one of them, their layers. */
static void label_kernels(ts_layers *l, const ts_pass *p)
{
	size_t n = l->staged.nkbuf - l->staged.kbuf0;
	bool listed = l->listing.ndbg_cur == n && !l->listing.dbg_lost;
	for (size_t i = 0; i < n; i++) {
		kernel_ent *k = &l->staged.kbuf[l->staged.kbuf0 + i];
		k->pass = p->index;
		k->layer = listed && l->listing.dbg_cur[i].layer < TS_MAX_LAYERS ? l->listing.dbg_cur[i].layer
			 : UINT32_MAX;
	}
}

static void add_stage(ts_layers *l, const ts_pass *p)
{
	ts_stage_total *t = &l->stats.stages[p->stage];
	t->passes += !p->draft;
	t->complete_passes += p->complete && !p->draft;
	t->drafts += p->draft;
	t->layers += p->draft ? 0 : p->layers;
	t->kernels += p->kernels;
	t->gpu_ns = ts_sat_add(t->gpu_ns, p->gpu_ns);
	ts_idle_sum(&t->idle, &p->idle);
}

/* How far past a call's opening kernel its other kernels are looked for. */
#define CALL_REACH 64

/* Each op call's FLOPs and bytes onto the kernels of it that do the work
 * (ref.fits: the workload kind's types), shared by their time; only they
 * count toward the rate's time. A call none of whose kernels does the
 * work is unplaced. anat_tmp parallels the listing's layer kernels. */
static void place_costs(ts_layers *l)
{
	size_t k = 0;
	for (size_t i = 0; i < l->listing.ndbg_cur; i++) {
		const ts_debug_kernel *d = &l->listing.dbg_cur[i];
		if (d->layer >= l->online.walk.nlayers)
			continue;
		size_t at = k++;
		if (!TS_KREF_OPENS(&d->ref) || !(d->ref.flops || d->ref.bytes))
			continue;
		/* the call: this kernel and the op's next ones, up to its next
		 * call; its working kernels' places in anat_tmp */
		uint32_t op = d->ref.op & ~TS_KREF_FIRST;
		size_t fit[CALL_REACH], nfit = 0;
		int64_t fit_ns = 0;
		for (size_t j = i, kk = at; j < l->listing.ndbg_cur && j < i + CALL_REACH; j++) {
			const ts_debug_kernel *e = &l->listing.dbg_cur[j];
			bool in = e->layer < l->online.walk.nlayers, same = (e->ref.op & ~TS_KREF_FIRST) == op;
			if (j > i && same && TS_KREF_OPENS(&e->ref))
				break;
			if (same && e->ref.fits && in) {
				fit[nfit++] = kk;
				fit_ns = ts_sat_add(fit_ns, e->dur > 0 ? e->dur : 1);
			}
			kk += in;
		}
		/* none: unplaced, the workload rows count it */
		for (size_t f = 0; f < nfit; f++) {
			ts_anat_kernel *x = &l->listing.anat_tmp[fit[f]];
			double share = (double)(x->dur > 0 ? x->dur : 1) / (double)fit_ns;
			x->flops += (uint64_t)((double)d->ref.flops * share + 0.5);
			x->bytes += (uint64_t)((double)d->ref.bytes * share + 0.5);
			x->has_flops |= d->ref.flops != 0;
			x->has_bytes |= d->ref.bytes != 0;
		}
	}
}

/* The layer kernels of the pass just ended, from the listing, into
 * anat_tmp (*n of them); false when the listing does not hold them all. */
static bool anatomy_list(ts_layers *l, size_t *n)
{
	*n = 0;
	if (!l->listing.anatomy || l->listing.ndbg_cur >= TS_MAX_DEBUG_KERNELS || l->listing.dbg_lost ||
	    l->online.walk.nlayers > TS_MAX_LAYERS ||
	    !ts_grow((void **)&l->listing.anat_tmp, &l->listing.anat_cap, l->listing.ndbg_cur, sizeof *l->listing.anat_tmp, 256,
			   TS_MAX_DEBUG_KERNELS, false))
		return false;
	size_t k = 0;
	for (size_t i = 0; i < l->listing.ndbg_cur; i++) {
		const ts_debug_kernel *d = &l->listing.dbg_cur[i];
		if (d->layer >= l->online.walk.nlayers)
			continue;
		l->listing.anat_tmp[k++] = (ts_anat_kernel){
			.layer = d->layer, .row = d->row, .ts = d->ts, .dur = d->dur, .wl = d->ref.wl,
			.category = (int16_t)d->cls.category, .type = (uint8_t)d->cls.type };
	}
	place_costs(l);
	*n = k;
	return true;
}

/* A complete pass of the model (a speculative draft's forward is not):
 * its layers' types (the model's description), its layer count (layers
 * per complete pass), and what its stage knows of its own passes. */
static void count_model_pass(ts_layers *l, const ts_pass *p, const cur_layer *layers, uint32_t n,
			     bool own_stage)
{
	uint32_t mixers = 0;
	for (uint32_t i = 0; i < n; i++) {
		l->stats.type_count[ts_lay_layer_type(l, layers[i].marks)]++;
		mixers += (layers[i].marks & M_ATTN) != 0;
	}
	/* half its layers held a mixer (by name or by op): the model's layer
	 * count, for passes whose structure alone cannot tell it */
	if (n == p->layers && 2 * mixers >= n)
		l->finder.mixer_layers = n;
	l->stats.count_hist[p->layers < TS_MAX_LAYERS ? p->layers : TS_MAX_LAYERS]++;
	if (own_stage)
		ts_vote_known(&l->held.vote, p->stage, p->gpu_ns, p->layers, p->grid,
			      p->kv_grid > 0 ? p->kv_grid : p->gemm_m_max);
}

/* Decide a waiting pass (k-th) and stage its kernels and layers. */
void ts_lay_resolve_pending(ts_layers *l, size_t k)
{
	pending_pass *pp = &l->held.pending[k];
	ts_pass *p = &l->records.passes[pp->pass];
	if (l->held.first_open && pp->pass == l->held.first_open - 1 && pp->first_held)
		ts_lay_first_cut(l, pp, l->stats.draft_layers != l->stats.target_layers
					? l->stats.draft_layers : 0);
	if (p->stage == TS_PSTAGE_UNKNOWN)
		ts_lay_relative_votes(l, p, pp);
	stage_kernels(l, p->stage, pp->kernels, pp->nkernels);
	if (pp->layers && p->complete && !p->draft) {
		count_model_pass(l, p, pp->layers, pp->nlayers, pp->own_stage);
		add_layers(l, p->stage, pp->layers, pp->nlayers);
		ts_lay_offer_sample(l, p->stage, &pp->sample);
		if (pp->anat_skip)
			ts_anatomy_skip(l->listing.anatomy, p->stage);
		else if (pp->anat)
			ts_anatomy_add(l->listing.anatomy, p->stage, pp->anat, pp->nanat, pp->nlayers);
	}
	free(pp->anat);
	free(pp->sample.k);
	free(pp->layers);
	free(pp->kernels);
	l->held.pending_kernels -= pp->nkernels;
	memmove(l->held.pending + k, l->held.pending + k + 1, (l->held.npending - k - 1) * sizeof *l->held.pending);
	l->held.npending--;
}

/* Hold the pass just recorded (record idx) until the relative signals can
 * speak; false when it cannot be held (then it is staged unknown now). */
bool ts_lay_hold_pending(ts_layers *l, size_t idx, uint32_t n)
{
	while (l->held.npending && (l->held.npending == MAX_PENDING ||
			       l->held.pending_kernels + l->staged.nkbuf > MAX_PENDING_KERNELS))
		ts_lay_resolve_pending(l, 0);
	if (l->staged.nkbuf > MAX_PENDING_KERNELS)
		return false;
	pending_pass *pp = &l->held.pending[l->held.npending];
	*pp = (pending_pass){ .pass = (uint32_t)idx, .gemm_tokens = l->pass.hints.gemm_tokens,
			      .step = l->pass.hints.step,
			      .own_stage = l->records.passes[idx].stage != TS_PSTAGE_UNKNOWN };
	if (l->records.passes[idx].complete && n) {
		pp->layers = malloc(n * sizeof *pp->layers);
		if (!pp->layers)
			return false;
		memcpy(pp->layers, l->online.layers, n * sizeof *pp->layers);
		pp->nlayers = n;
		size_t na;
		if (!anatomy_list(l, &na)) {
			pp->anat_skip = l->listing.anatomy != NULL;
		} else if (na && (pp->anat = malloc(na * sizeof *pp->anat)) != NULL) {
			memcpy(pp->anat, l->listing.anat_tmp, na * sizeof *pp->anat);
			pp->nanat = na;
		} else if (na) {
			pp->anat_skip = true;
		}
		uint32_t mid, inst;
		size_t k = ts_lay_middle_layer(l, &mid, &inst);
		if (k && (pp->sample.k = malloc(k * sizeof *pp->sample.k)) != NULL) {
			memcpy(pp->sample.k, l->listing.samp_tmp, k * sizeof *pp->sample.k);
			pp->sample = (ts_layer_sample){ .layer = mid, .layers = l->online.walk.nlayers,
							.instances = inst, .n = k, .k = pp->sample.k };
		}
	}
	pp->kernels = l->staged.kbuf;      /* handed over */
	pp->nkernels = l->staged.nkbuf;
	l->staged.kbuf = NULL;
	l->staged.nkbuf = l->staged.kbuf_cap = 0;
	l->held.pending_kernels += pp->nkernels;
	l->held.npending++;
	return true;
}

/* An attention kernel of unit l->online.walk.units - 1: count its row's units. */
static void track_unit(ts_layers *l, uint32_t row)
{
	uint32_t u = l->online.walk.units - 1;
	if (u < MAX_UNITS) {
		if (l->online.walk.in_attn)
			l->online.unit_kern[u]++;
		else
			l->online.unit_kern[u] = 1;
	}
	if (row == TS_INTERN_NONE) {
		l->online.arows_full = true;   /* a name past the cap: no verdict */
		return;
	}
	for (uint32_t i = 0; i < l->online.narows; i++) {
		arow_ent *a = &l->online.arows[i];
		if (a->row != row)
			continue;
		if (a->last_unit != u) {
			a->units++;
			a->last_unit = u;
		}
		a->kernels++;
		return;
	}
	if (l->online.narows == MAX_AROWS)
		l->online.arows_full = true;
	else
		l->online.arows[l->online.narows++] = (arow_ent){ row, 1, u, 1 };
}

/* Does attention row `row`, run once in the pass, sit where a layer's
 * mixer does? By name, a GEMM (its QKV projection) runs between the
 * layer's input norm and it, with no other mixer or MLP work in between
 * (a q/k norm may), and MLP work runs after it (or its output
 * projection, a norm and a GEMM): a hybrid's one full-attention layer. A helper (a varlen
 * scheduler, a planner) runs in the pass's head, after the embedding, or
 * after the last layer's MLP, before the final norm and LM head. */
static bool mixer_in_place(const ts_layers *l, uint32_t row)
{
	const kernel_ent *k = l->staged.kbuf;
	size_t lo = l->staged.kbuf0, n = l->staged.nkbuf, at = lo;
	while (at < n && k[at].row != row)
		at++;
	if (at == n)
		return false;
	/* back to the norm before the GEMM (a q/k norm runs between the
	 * projection and the mixer) */
	bool gemm = false, normed = false;
	for (size_t i = at; i > lo && !normed; i--) {
		lmark m = k[i - 1].marks;
		if (m & (M_ATTN | M_MLP))
			return false;
		gemm |= (m & M_GEMM) != 0;
		normed = gemm && (m & M_START);
	}
	if (!normed)
		return false;
	/* after it MLP work, or where no name marks an MLP (its activation
	 * fused into a quantization kernel) its output projection (a GEMM
	 * before any norm), a norm, and the MLP's GEMM: a helper before the
	 * final norm has the LM head after that norm, no projection before */
	int stage = 0;   /* 1: output projection seen, 2: then a norm */
	for (size_t i = at + 1; i < n; i++) {
		lmark m = k[i].marks;
		if (m & M_MLP)
			return true;
		if (stage == 0 && (m & M_START))
			stage = -1;
		else if (stage == 0 && (m & M_GEMM))
			stage = 1;
		else if (stage == 1 && (m & M_START))
			stage = 2;
		else if (stage == 2 && (m & M_GEMM))
			return true;
	}
	return false;
}

/* Rows of the pass that ran once while other attention repeated, and make
 * up a unit of their own: demoted for the rest of the trace. Returns how
 * many units they made (0: the pass stands as it is). A pass of fewer
 * than three units, or where most units are of once-run kernels (every
 * layer names its attention apart), has no such helper; nor has a unit
 * in a layer's place (mixer_in_place). */
static uint32_t demote_once_units(ts_layers *l)
{
	uint32_t units = l->online.walk.units;
	if (units < 3 || units > MAX_UNITS || l->online.arows_full || l->opts.split_half_layers)
		return 0;
	bool repeats = false;
	for (uint32_t i = 0; i < l->online.narows; i++)
		repeats |= l->online.arows[i].units >= 2;
	if (!repeats)
		return 0;
	uint32_t once[MAX_AROWS], nonce = 0;
	for (uint32_t i = 0; i < l->online.narows; i++) {
		const arow_ent *a = &l->online.arows[i];
		if (a->units != 1)
			continue;
		/* its unit holds nothing but once-run kernels */
		uint32_t k = 0;
		for (uint32_t j = 0; j < l->online.narows; j++)
			if (l->online.arows[j].units == 1 && l->online.arows[j].last_unit == a->last_unit)
				k += l->online.arows[j].kernels;
		if (k == l->online.unit_kern[a->last_unit] && !mixer_in_place(l, a->row))
			once[nonce++] = i;
	}
	uint32_t nunits = 0;
	for (uint32_t i = 0; i < nonce; i++) {
		bool first = true;
		for (uint32_t j = 0; j < i; j++)
			if (l->online.arows[once[j]].last_unit == l->online.arows[once[i]].last_unit)
				first = false;
		nunits += first;
	}
	if (nunits == 0 || 4 * nunits > units)
		return 0;
	for (uint32_t i = 0; i < nonce && l->meaning.nonce < MAX_ONCE; i++) {
		uint32_t row = l->online.arows[once[i]].row;
		l->meaning.once_rows[l->meaning.nonce++] = row;
		if (row < l->meaning.marks_cap) {
			l->meaning.marks[row] = ts_lay_demoted(l->meaning.marks[row]);
			for (size_t k = 0; k < TS_CTX_SLOTS; k++)
				l->meaning.ctx_marks[(size_t)row * TS_CTX_SLOTS + k] =
					ts_lay_demoted(l->meaning.ctx_marks[(size_t)row * TS_CTX_SLOTS + k]);
		}
		for (size_t k = l->staged.kbuf0; k < l->staged.nkbuf; k++)
			if (l->staged.kbuf[k].row == row)
				l->staged.kbuf[k].marks = ts_lay_demoted(l->staged.kbuf[k].marks);
	}
	return nunits;
}

/* Is the open span nothing but the copies a norm takes (HF casts the
 * hidden states before its unfused norm), or nothing at all? */
static bool only_copies(const ts_layers *l)
{
	uint64_t n = l->online.walk.seg.kernels;
	if (n > 2 || n > l->online.walk.ngap)
		return false;
	for (uint32_t i = l->online.walk.ngap - (uint32_t)n; i < l->online.walk.ngap; i++)
		if (!(l->online.gap[i].marks & M_COPY))
			return false;
	return true;
}

/* The layer machine proper: one kernel of the pass in progress, by its
 * row, marks and duration; online, or replayed by relayer_pass. */
static bool structure_kernel(ts_layers *l, uint32_t row, lmark m, int64_t dur)
{
	/* Once per pass: the pass's own overhead, in no layer. */
	if (m & M_ONCE) {
		l->pass.cur.orphan_kernels++;
		l->pass.cur.orphan_ns = ts_sat_add(l->pass.cur.orphan_ns, dur);
		return false;
	}
	/* Layer boundary at a start marker (a residual norm) after MLP work. */
	lmark seen = l->online.walk.seg.marks;
	bool boundary = (m & M_START) &&
			(l->opts.split_half_layers ? (seen & (M_ATTN | M_MLP)) : (seen & M_MLP));
	/* The first start kernel of a pass, before any layer work, also opens
	 * a layer: what came before it is the pass's preamble. */
	if (boundary || ((m & M_START) && !l->online.walk.seen_boundary && !(seen & (M_ATTN | M_MLP)))) {
		/* a pass's first layer opened at its first kernel (past its
		 * cast): no preamble, not even the embedding (a pass has
		 * one), so the capture began at a later layer's norm; or
		 * after a GEMM by name and no embedding: the end of a
		 * layer's projections */
		if (!l->online.walk.seen_boundary && l->online.walk.nlayers == 0 &&
		    (only_copies(l) || (l->online.walk.seg.gemms && l->pass.hints.embed_at < 0)))
			l->pass.cur.cut_start = true;
		ts_lay_open_at_norm(l);
		l->online.walk.seen_boundary = true;
		l->online.walk.since_start = 0;
	}
	lmark work = (lmark)(m & (M_ATTN | M_MLP));
	if (m & M_ATTN) {
		/* Attention kernels in a row are one unit (compute and its
		 * combine / reduce): one per layer. */
		if (!l->online.walk.in_attn) {
			if (l->online.walk.units == 0) {
				/* the segment before the first unit: layer 0's head */
				uint32_t k = l->online.walk.ngap < MAX_PRE ? l->online.walk.ngap : MAX_PRE;
				memcpy(l->online.pre, l->online.gap + (l->online.walk.ngap - k), k * sizeof *l->online.pre);
				l->online.walk.npre = k;
				l->online.walk.pre_len = l->online.walk.skernels;
				l->online.walk.pre_ns = l->online.walk.sns;
				l->online.walk.pre_start = l->online.walk.seen_boundary ? (int32_t)l->online.walk.since_start : -1;
				l->online.walk.dbg_pre_end = l->listing.ndbg_cur;
			} else if (l->online.walk.seg.marks & M_ATTN) {
				ts_lay_structural_boundary(l);
			}
			l->online.walk.units++;
			l->online.attn_units++;
		}
		if (!l->online.replaying)
			track_unit(l, row);
		l->online.walk.ngap = 0;
		l->online.walk.in_attn = true;
	} else {
		if (l->online.walk.in_attn || (l->online.walk.ngap == 0 && !(l->online.walk.seg.marks & M_ATTN)))
			l->online.walk.marks_at_gap = l->online.walk.seg.marks;
		/* Layer work (a GEMM, MLP, a norm, a collective) or a kernel
		 * no rule knows ends the attention unit; a copy, cache write
		 * or elementwise kernel between two attention kernels (the two
		 * runs of a mixed batch, a merge of cascade states) does not. */
		if (m & (M_GEMM | M_MLP | M_START | M_EMBED | M_SAMPLE | M_ENDS))
			l->online.walk.in_attn = false;
		if ((l->online.walk.seg.marks & M_ATTN) && !l->opts.split_half_layers) {
			/* MLP work comes after the post-attention norm, the norm
			 * after the attention's output projection (a GEMM): a
			 * norm or an activation inside the attention block (the
			 * gated norm of a delta net, an output gate) is not it.
			 * There a GEMM is MLP work too (the MLP of a model whose
			 * activation hides in an Inductor fusion). */
			if ((m & M_START) && l->online.walk.seg.post_gemms)
				l->online.walk.start_after_attn = true;
			else if ((m & M_GEMM) && l->online.walk.start_after_attn)
				work |= M_FC;
			else if (!l->online.walk.start_after_attn)
				work &= (lmark)~M_FC;
		}
		if (l->online.walk.ngap == MAX_GAP) {   /* keep the newest half */
			memmove(l->online.gap, l->online.gap + MAX_GAP / 2, (MAX_GAP / 2) * sizeof *l->online.gap);
			l->online.walk.ngap = MAX_GAP / 2;
		}
		l->online.gap[l->online.walk.ngap++] = (gap_ent){ dur, row, (lmark)((m & ~M_MLP) | work) };
	}
	if ((m & M_GEMM) && (l->online.walk.seg.marks & M_ATTN))
		l->online.walk.seg.post_gemms++;
	if ((m & M_GEMM) && l->online.walk.seg.gemms < UINT16_MAX)
		l->online.walk.seg.gemms++;
	l->online.walk.since_start++;
	l->online.walk.seg.kernels++;
	l->online.walk.seg.ns = ts_sat_add(l->online.walk.seg.ns, dur);
	l->online.walk.seg.marks |= work;
	l->online.walk.skernels++;
	l->online.walk.sns = ts_sat_add(l->online.walk.sns, dur);
	return true;
}

/* Feed the pass's kernels through the machine again (its rows' marks have
 * changed); false when the pass's kernels are not all held. The listing
 * keeps its entries and takes the new layer of each. */
static bool relayer_pass(ts_layers *l)
{
	size_t n = l->staged.nkbuf - l->staged.kbuf0;
	if (l->pass.cur.kernels != n)
		return false;
	size_t listed = l->listing.ndbg_cur;
	bool relabel = l->listing.track && l->listing.dbg_all && listed == n;
	l->online.structural -= l->online.walk.pass_structural;
	l->online.attn_units -= l->online.walk.units;
	reset_structure(l);
	l->pass.cur.cut_start = false;
	l->pass.cur.orphan_kernels = 0;
	l->pass.cur.orphan_ns = 0;
	l->pass.cur.between_ns = 0;
	l->online.replaying = true;
	for (size_t i = 0; i < n; i++) {
		const kernel_ent *k = &l->staged.kbuf[l->staged.kbuf0 + i];
		bool in = structure_kernel(l, k->row, k->marks, k->dur);
		if (relabel) {
			l->listing.dbg_cur[i].layer = in ? l->online.walk.nlayers : UINT32_MAX;
			l->listing.ndbg_cur = i + 1;
		}
	}
	l->online.replaying = false;
	if (!relabel) {
		l->listing.ndbg_cur = listed;
		l->listing.dbg_lost = true;   /* no anatomy or sample from this pass */
	}
	return true;
}

/* Where a pass ends: inside the kernel stream, at its step's end, or at
 * the trace's end. */
enum { EDGE_NONE, EDGE_STEP, EDGE_TRACE };

/* The open span at a pass's end: the pass tail (final norm, LM head)
 * when it holds no layer work; a layer cut off by the end of the capture
 * or of its step (edge) otherwise: at a step's end only in a pass with
 * fewer layers than the passes had (a step ends with its forward whole,
 * unless the capture ended inside it). With no marker after the last attention, the last layer
 * keeps as many kernels after it as the structural splits left in the
 * others; the rest is the pass tail. */
/* The pass's last layer holds a mixer and no MLP work where most of its
 * other layers (two thirds) hold both, and ran fewer kernels than any of
 * them: the trace ended inside its MLP (the layer's norm and GEMMs ran,
 * its activation and down projection never did). A model's layers
 * alternating mixer-only and MLP-only, a MoE layer whose expert kernels
 * no name marks beside dense layers marked by their ops (it runs more),
 * or a pass whose layers are typed by structure alone, say nothing. */
static bool mlp_cut_off(const ts_layers *l)
{
	uint32_t n = l->online.walk.nlayers < TS_MAX_LAYERS ? l->online.walk.nlayers : TS_MAX_LAYERS;
	if (n < 4)
		return false;
	lmark last = l->online.layers[n - 1].marks;
	if (!(last & M_ATTN) || (last & M_MLP))
		return false;
	uint32_t whole = 0, fewest = UINT32_MAX;
	for (uint32_t i = 0; i + 1 < n; i++) {
		const cur_layer *c = &l->online.layers[i];
		if (!(c->marks & M_ATTN) || !(c->marks & M_MLP))
			continue;
		whole++;
		fewest = c->kernels < fewest ? c->kernels : fewest;
	}
	return 3 * whole >= 2 * (n - 1) && l->online.layers[n - 1].kernels < fewest;
}

static void close_open_span(ts_layers *l, int edge)
{
	bool at_edge = edge != EDGE_NONE, finished = false;
	if (ts_lay_structure(l, at_edge)) {
		l->online.walk.seg = (cur_layer){ 0 };
		finished = true;
	} else if ((l->online.walk.seg.marks & M_ATTN) && !l->online.walk.in_attn && l->online.walk.tail_len >= 0 &&
	    l->online.walk.ngap > (uint32_t)l->online.walk.tail_len) {
		uint32_t keep = (uint32_t)l->online.walk.tail_len, n = l->online.walk.ngap - keep;
		cur_layer tail;
		ts_lay_take_tail(l, l->online.gap + keep, n, &tail);
		/* the open span is the last layer: the pass has one more */
		if (at_edge && !tail.gemms && ts_lay_short_at_edge(l, l->online.walk.nlayers + 1))
			l->pass.cur.cut_end = true;   /* no LM head: the capture cut it */
		l->online.walk.seg.marks = l->online.walk.marks_at_gap;
		for (uint32_t i = 0; i < keep; i++)
			l->online.walk.seg.marks |= (lmark)(l->online.gap[i].marks & (M_ATTN | M_MLP));
		l->pass.cur.orphan_kernels += tail.kernels;
		l->pass.cur.orphan_ns = ts_sat_add(l->pass.cur.orphan_ns, tail.ns);
		if (l->listing.track)
			ts_lay_debug_relabel(l, n, l->online.walk.nlayers, UINT32_MAX);
		finished = true;
	}
	/* where the trace or the step ends, a layer it cut; or a span after
	 * fewer layers than the passes had, with no GEMM: the capture cut the
	 * forward before its LM head (at the next layer's start, or the
	 * tail's norm) */
	const cur_layer *s = &l->online.walk.seg;
	bool layer = ts_lay_is_layer(l, s->marks);
	/* the open span, a layer, closes as the pass's last */
	bool shorter = ts_lay_short_at_edge(l, l->online.walk.nlayers + (layer && !finished));
	if (at_edge && !finished &&
	    ((layer && (edge == EDGE_TRACE || shorter)) ||
	     (s->kernels && !s->gemms && shorter)))
		l->pass.cur.cut_end = true;
	if (edge == EDGE_TRACE && ts_lay_cut_in_step(l))
		l->pass.cur.cut_end = true;
	/* the trace ended inside a pass of fewer layers than the passes most
	 * often had, a count none before recurred with (a draft model's
	 * does): the capture cut it, whatever its last kernels look like (a
	 * layer's own GEMMs are no LM head); or of more, a count no pass had
	 * beside one that recurred: one model's forward has its layers, and
	 * a cut one's remains are no more (an expert loop read as layers) */
	uint32_t n = l->online.walk.nlayers + layer;   /* the open span closes as one */
	if (edge == EDGE_TRACE && n <= TS_MAX_LAYERS &&
	    ((ts_lay_short_pass(l, n) && l->stats.all_hist[n] < 2) || ts_lay_long_pass(l, n)))
		l->pass.cur.cut_end = true;
	ts_lay_close_span(l);
	if (mlp_cut_off(l))
		l->pass.cur.cut_end = true;
}

/* Evidence that a pass began at its start outweighs how its head looks:
 * it opened with its embedding, or it is the first pass of a step
 * annotation, or it is a later pass with at least as many layers as the
 * passes before it most often had (the same structure in every pass is
 * the model's; a profile window cuts its first pass). A pass whose first
 * kernel was launched before the capture began, its launches running on
 * into the capture's (capture_edge found no wait between), began before
 * the capture too, whatever its head looks like: the GPU was inside it. */
static void start_evidence(ts_layers *l, ts_pass *p)
{
	if (l->pass.began_before)
		p->cut_start = true;
	if (!p->cut_start)
		return;
	uint32_t mode = ts_lay_mode_layers(l);
	if (l->pass.hints.embed_first || (l->pass.hints.step >= 0 && l->pass.hints.step != l->pass.last_step) ||
	    (l->records.pass_count > 0 && l->stats.all_hist[mode] && p->layers >= mode))
		p->cut_start = false;
}

/* A pass of a known stage (or one no later pass can name): its kernels,
 * layers, anatomy and sample go to its stage. */
static void stage_pass(ts_layers *l, const ts_pass *p, uint32_t n, bool kept)
{
	if (!p->complete)
		ts_vote_known(&l->held.vote, p->stage, p->gpu_ns, p->layers, p->grid,
			      p->kv_grid > 0 ? p->kv_grid : p->gemm_m_max);
	stage_kernels(l, p->stage, l->staged.kbuf, l->staged.nkbuf);
	l->staged.nkbuf = 0;
	if (p->complete && !p->draft) {
		count_model_pass(l, p, l->online.layers, n, true);
		add_layers(l, p->stage, l->online.layers, n);
		size_t na;
		if (anatomy_list(l, &na))
			ts_anatomy_add(l->listing.anatomy, p->stage, l->listing.anat_tmp, na, n);
		else
			ts_anatomy_skip(l->listing.anatomy, p->stage);
	}
	uint32_t mid, inst;
	size_t k = p->complete && !p->draft ? ts_lay_middle_layer(l, &mid, &inst) : 0;
	if (k) {
		ts_layer_sample c = { .layer = mid, .layers = l->online.walk.nlayers, .instances = inst,
				      .n = k, .k = l->listing.samp_tmp };
		ts_lay_offer_sample(l, p->stage, &c);
	}
	if (!kept)
		add_stage(l, p);
	l->pass.last_stage = p->stage;
}

/* --debug-layers: the listed layers of the pass asked for, kept. */
static void keep_listing(ts_layers *l, const ts_pass *p)
{
	bool listed = l->opts.debug_pass >= 0 ? p->index == (uint64_t)l->opts.debug_pass
		    : p->complete && (l->opts.debug_stage < 0 || (int)p->stage == l->opts.debug_stage);
	if (!l->opts.debug || !listed || l->listing.dbg_done)
		return;
	l->listing.dbg_index = p->index;
	l->listing.dbg_stage = p->stage;
	l->listing.dbg_complete = p->complete;
	size_t k = 0;
	for (size_t i = 0; i < l->listing.ndbg_cur; i++) {
		uint32_t li = l->listing.dbg_cur[i].layer;
		if (li < TS_MAX_LAYERS && l->opts.debug_layers[li])
			l->listing.dbg_kept[k++] = l->listing.dbg_cur[i];
	}
	l->listing.ndbg_kept = k;
	l->listing.dbg_done = true;
}

/* at_edge: no more of the pass's kernels come (the trace or its step
 * ended); carry: the next kernel is in the same step as this pass. */
static void end_pass(ts_layers *l, int edge, bool carry)
{
	if (!l->pass.in_pass)
		return;
	l->pass.in_pass = false;
	l->pass.cur.win_from = l->pass.cur.win_to = INT64_MIN;
	l->pass.cur.step_from = l->pass.cur.step_to = INT64_MIN;
	l->pass.cur.cwin_from = l->pass.cur.cwin_to = INT64_MIN;
	if (ts_steps_cpu_window(l->steps, l->pass.hints.step, &l->pass.cur.cwin_from, &l->pass.cur.cwin_to))
		ts_idle_window(l->idle, l->pass.cur.cwin_from, l->pass.cur.cwin_to);
	ts_idle_end(l->idle, &l->pass.cur.idle);
	/* A kernel typed attention that ran once in the pass is not a layer's
	 * attention: lay the pass out again without it. */
	uint32_t once = demote_once_units(l);
	if (once && relayer_pass(l))
		l->online.once_units += once;
	close_open_span(l, edge);
	ts_pass *p = &l->pass.cur;
	p->layers = l->online.walk.nlayers;
	if (p->layers == 0) {
		/* No layer: not a forward pass (warm-up, capture, copies). Its
		 * kernels take the stage of the pass of their step: the one
		 * that ended in it, or the next one, when the step goes on. */
		l->stats.orphan_kernels += p->kernels;
		l->stats.orphan_ns = ts_sat_add(l->stats.orphan_ns, p->gpu_ns);
		if (l->pass.hints.step >= 0 && l->pass.hints.step == l->pass.last_step) {
			stage_kernels(l, l->pass.last_stage, l->staged.kbuf, l->staged.nkbuf);
		} else if (carry) {
			return;   /* kbuf goes on into the next pass */
		} else {
			stage_kernels(l, TS_PSTAGE_UNKNOWN, l->staged.kbuf, l->staged.nkbuf);
		}
		l->staged.nkbuf = 0;
		return;
	}
	ts_lay_settle_ended(l, l->pass.hints.step);
	start_evidence(l, p);
	l->stats.all_hist[p->layers < TS_MAX_LAYERS ? p->layers : TS_MAX_LAYERS]++;
	ts_lay_add_between(l, &p->idle);
	p->complete = !p->cut_start && !p->cut_end;
	if (p->complete)
		l->pass.whole_kernels = p->kernels;
	if (p->complete)
		l->stats.whole_hist[p->layers < TS_MAX_LAYERS ? p->layers : TS_MAX_LAYERS]++;
	p->index = l->records.pass_count++;
	if (l->opts.launch)
		label_kernels(l, p);
	ts_lay_vote(l, p);
	uint32_t n = l->online.walk.nlayers < TS_MAX_LAYERS ? l->online.walk.nlayers : TS_MAX_LAYERS;
	if (p->complete)
		ts_lay_check_pass(l, p, n);
	else   /* a complete pass counts its types when staged (a draft's do not) */
		for (uint32_t i = 0; i < n; i++)
			l->stats.type_count[ts_lay_layer_type(l, l->online.layers[i].marks)]++;
	(void)ts_grow((void **)&l->records.passes, &l->records.passes_cap, l->records.npasses + 1, sizeof *l->records.passes, 16,
		      TS_MAX_PASSES, false);   /* past it, or without memory: not kept */
	if (l->opts.spans)
		ts_lay_record_spans(l, p);
	bool kept = l->records.npasses < l->records.passes_cap;
	size_t idx = l->records.npasses;
	if (kept)
		l->records.passes[l->records.npasses++] = *p;
	else
		l->records.passes_dropped++;
	/* the trace's first complete pass, only passes the capture cut
	 * before it (a forward begun before the capture, split where the GPU
	 * waited inside it) */
	if (!l->held.whole_seen && p->complete && kept && !l->pass.hints.embed_first)
		l->held.first_open = (uint32_t)idx + 1;
	l->held.whole_seen |= p->complete;
	l->pass.last_step = l->pass.hints.step;
	if (carry && l->pass.hints.step >= 0 && p->complete && kept && ts_lay_hold_pending(l, idx, n)) {
		/* the step goes on: a later pass of it may show this one a draft's */
		l->held.pending[l->held.npending - 1].step_open = true;
		l->pass.last_stage = p->stage;
	} else if (ts_lay_hold_cycle(l, p, idx, n, kept)) {
		l->pass.last_stage = p->stage;
	} else {
		ts_lay_close_step(l, p, kept ? idx : SIZE_MAX);
		/* the trace's first pass in no step of an annotated trace: the
		 * passes after it say whether the capture cut it */
		bool first = kept && l->held.first_open == idx + 1 && l->pass.hints.step < 0;
		if ((p->stage == TS_PSTAGE_UNKNOWN || first) && kept && ts_lay_hold_pending(l, idx, n)) {
			l->held.pending[l->held.npending - 1].first_held = first;
			l->pass.last_stage = p->stage;
		}
		else
			stage_pass(l, p, n, kept);
	}
	keep_listing(l, p);
}

/* Kernels of a pass before its sampling, past which sampling ends the
 * pass though no name said what ran before it (a mixer no rule knows). */
#define SAMPLE_AFTER 16

void ts_layers_kernel(ts_layers *l, const ts_event *ev, uint32_t row,
		      const ts_kclass *c, const ts_kref *ref, unsigned ctx_slot)
{
	static const ts_kref none = { .op = TS_INTERN_NONE, .wl = TS_INTERN_NONE };
	if (!ref)
		ref = &none;
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR))
		return;
	lmark m = ts_lay_marks_for(l, row, c, ev->name, ev->name_len, ctx_slot);
	ts_lay_wait_kernel(l, ev, row, c, ref, ctx_slot, m);
}

/* The kernel that opens a pass (shared: inside the graph replay the
 * last pass ended in): the pass's head and what it began with. */
static void open_pass(ts_layers *l, const ts_event *ev, uint32_t row, lmark m, int64_t step,
		      int64_t an, bool shared)
{
	l->pass.frontier_at_start = l->pass.kfrontier;
	start_pass(l, ev);
	l->pass.cur.graph_shared = shared;
	l->pass.pass_maxgap = 0;
	l->pass.prev_head = l->pass.frontier_at_start == INT64_MIN ? TS_INTERN_NONE : l->pass.head_rows[0];
	l->pass.head_rows[0] = row;
	l->pass.graph_units = 0;   /* a graph's units count in the pass they ran in */
	l->pass.graph_pieces = 0;
	l->pass.forward_row = TS_INTERN_NONE;
	/* the graph replaying began in this pass where it began here */
	l->pass.graph_in_pass = lay_no_op(ev) && ev->correlation == l->pass.graph_corr &&
				l->pass.graph_kernels == 1;
	l->pass.row_graphs = l->pass.graph_in_pass;
	l->pass.nhead_rows = 1;
	l->pass.head_in_layers = 0;
	l->pass.pass_named = (m & (M_EMBED | M_SAMPLE)) != 0;
	l->pass.before_capture = (ev->has & TS_HAS_CORRELATION) &&
				 ts_idle_before_capture(l->idle, ev->correlation);
	l->pass.began_before = l->pass.before_capture;
	l->pass.head_op = (ev->has & TS_HAS_EXTERNAL_ID) != 0;
	l->pass.hints.step = step;
	l->pass.hints.step_ann = an;
}

void ts_lay_take_kernel(ts_layers *l, const ts_event *ev, uint32_t row, const ts_kclass *c,
			const ts_kref *ref, unsigned ctx_slot, lmark m)
{
	ts_steps_hold(l->steps, l->pass.in_pass ? l->pass.cur.first_ts : ev->ts_ns, l->pass.hints.step_ann,
		      ev->ts_ns);
	l->cpu.kernels_seen++;
	if ((ev->has & TS_HAS_CORRELATION) && ev->correlation > l->cpu.kernel_corr)
		l->cpu.kernel_corr = ev->correlation;
	int64_t kend = ts_sat_add(ev->ts_ns, ev->dur_ns);
	l->cpu.attn_typed += c->type == TS_TYPE_ATTENTION;
	/* Layer work: a layer, MLP work, or attention with a GEMM after it (a
	 * lone attention kernel before the embedding is the pass's metadata
	 * step, not a layer of the previous pass). */
	bool has_work = l->online.walk.nlayers > 0 || (l->online.walk.seg.marks & M_MLP) ||
			((l->online.walk.seg.marks & M_ATTN) && l->online.walk.seg.post_gemms);

	int64_t an, step;
	bool step_edge;
	/* a step's edge ends its pass's kernels as the trace's end does: a
	 * layer it cut, or no tail after the layers, is a pass cut there */
	bool edge = ts_lay_pass_edge(l, ev, row, m, c->type == TS_TYPE_COMMUNICATION, has_work, &an,
				     &step, &step_edge);
	/* an edge inside a graph's replay: two forwards of one graph */
	bool shared = edge && lay_no_op(ev) && ev->correlation == l->pass.graph_corr &&
		      l->pass.graph_kernels > 1;
	if (edge) {
		l->pass.cur.graph_shared |= shared;
		end_pass(l, step_edge ? EDGE_STEP : EDGE_NONE, !step_edge && l->pass.hints.step >= 0);
	}
	if (!l->pass.in_pass) {
		open_pass(l, ev, row, m, step, an, shared);
	} else if (l->pass.cur.kernels < 8) {
		ts_lay_head_row(l, row);
	}
	ts_idle_kernel(l->idle, ev, row,
		       ref->op == TS_INTERN_NONE ? TS_INTERN_NONE : ref->op & ~TS_KREF_FIRST,
		       ((m & (M_ATTN | M_MLP | M_GEMM)) ? TS_IDLE_WORK : 0u) |
		       ((m & M_START) ? TS_IDLE_NORM : 0u) |
		       (c && c->type == TS_TYPE_COMMUNICATION ? TS_IDLE_COMM : 0u));
	if (kend > l->pass.kfrontier)
		l->pass.kfrontier = kend;
	if (m & M_SAMPLE)
		l->pass.hints.after_sampling = l->online.walk.nlayers > 0 || (l->online.walk.seg.marks & M_ATTN) ||
					  l->pass.cur.kernels >= SAMPLE_AFTER;
	if ((m & M_EMBED) && l->online.walk.units == 0)
		l->pass.hints.embed_first = true;
	if ((m & M_EMBED) && l->pass.hints.embed_at < 0)
		l->pass.hints.embed_at = (int64_t)l->pass.cur.kernels;
	if (m & M_TRAIN) {
		l->cpu.backward_kernels++;
		if (!l->cpu.backward_row)
			l->cpu.backward_row = row + 1, l->cpu.backward_names = 1;
		else if (l->cpu.backward_row != row + 1)
			l->cpu.backward_names = 2;
	}

	uint32_t units = l->online.walk.units;
	bool in_span = structure_kernel(l, row, m, ev->dur_ns);
	if (l->online.walk.units > units && lay_no_op(ev) && ev->correlation == l->pass.graph_corr)
		l->pass.graph_units++;   /* a unit inside the graph replaying */
	l->pass.last_row = row;
	if ((m & M_TOKENS) && (ev->has & TS_HAS_GRID) && ev->grid[0] > l->pass.hints.tokens_max)
		l->pass.hints.tokens_max = ev->grid[0];
	if ((m & M_QBLOCKS) && (ev->has & TS_HAS_GRID) && ev->grid[0] > l->pass.hints.qblocks_max)
		l->pass.hints.qblocks_max = ev->grid[0];

	(void)ts_grow((void **)&l->staged.kbuf, &l->staged.kbuf_cap, l->staged.nkbuf + 1, sizeof *l->staged.kbuf, 1024,
		      TS_MAX_PASS_KERNELS, false);   /* else staged at once */
	if (l->staged.nkbuf < l->staged.kbuf_cap) {
		l->staged.kbuf[l->staged.nkbuf++] = (kernel_ent){ row, *ref, ev->dur_ns, (uint8_t)ctx_slot, m,
						    ev->ts_ns, ev->has & TS_HAS_STREAM ? ev->stream : -1,
						    UINT32_MAX, UINT32_MAX };
	} else {
		kernel_ent k = { row, *ref, ev->dur_ns, (uint8_t)ctx_slot, m, ev->ts_ns,
				 ev->has & TS_HAS_STREAM ? ev->stream : -1, UINT32_MAX, UINT32_MAX };
		stage_kernels(l, TS_PSTAGE_UNKNOWN, &k, 1);   /* the launches see it too */
		l->staged.stage_overflow++;
	}

	ts_pass *p = &l->pass.cur;
	p->kernels++;
	if (m & M_GEMM)   /* a model's GEMMs: its own, whatever ran around them */
		p->rows_sig += ((uint64_t)row + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)row << 29);
	p->gpu_ns = ts_sat_add(p->gpu_ns, ev->dur_ns);
	if (ev->ts_ns + ev->dur_ns > p->last_end)
		p->last_end = ev->ts_ns + ev->dur_ns;
	ts_lay_take_evidence(l, ev, c, ref, m);
	/* a structural boundary may move this kernel to the next layer */
	if (l->listing.track && l->online.walk.nlayers < TS_MAX_LAYERS &&
	    (l->opts.sample || l->opts.spans || l->listing.anatomy || l->opts.debug_layers[l->online.walk.nlayers] ||
	     (l->online.walk.nlayers + 1 < TS_MAX_LAYERS && l->opts.debug_layers[l->online.walk.nlayers + 1])) &&
	    l->listing.ndbg_cur < TS_MAX_DEBUG_KERNELS) {
		if (ts_grow((void **)&l->listing.dbg_cur, &l->listing.dbg_cap, l->listing.ndbg_cur + 1,
				  sizeof *l->listing.dbg_cur, 256, TS_MAX_DEBUG_KERNELS, false))
			l->listing.dbg_cur[l->listing.ndbg_cur++] = (ts_debug_kernel){
				.layer = in_span ? l->online.walk.nlayers : UINT32_MAX, .row = row, .ts = ev->ts_ns, .dur = ev->dur_ns,
				.ref = *ref, .cls = *c };
		else
			l->listing.dbg_lost = true;
	} else {
		l->listing.dbg_all = false;
	}
}

/* Stage totals from the pass records (the dropped ones are added as they
 * end). A pass with no evidence stays unknown: no stage is guessed. */
static void add_stages(ts_layers *l)
{
	for (size_t i = 0; i < l->records.npasses; i++)
		add_stage(l, &l->records.passes[i]);
}

void ts_layers_finish(ts_layers *l, uint32_t nrows)
{
	ts_lay_wait_flush(l);
	end_pass(l, EDGE_TRACE, false);
	ts_lay_settle_cycle(l);
	ts_lay_settle_ended(l, -1);
	while (l->held.npending)
		ts_lay_resolve_pending(l, 0);
	ts_lay_pass_windows(l);
	ts_lay_grow_srows(l, nrows);
	if (ts_lay_training(l))
		ts_lay_training_reset(l);
	add_stages(l);
}
