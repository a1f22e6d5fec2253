/*
 * layers_stages.c - a pass's stage from its signals' votes, the passes that wait for
 * the relative signals of the passes around them, and each stage's typical
 * layer for compare's kernel alignment (layers_int.h).
 */
#include "analysis/layers/layers_int.h"
#include "input/base/grow.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "input/base/satmath.h"
#include "input/numtext.h"

long ts_lay_decode_threshold(const ts_layers *l)
{
	return l->opts.decode_threshold > 0 ? l->opts.decode_threshold
					    : TS_DECODE_THRESHOLD_DEFAULT;
}

/* A verdict into the pass's record. */
static void put_vote(ts_pass *p, const ts_vote *v)
{
	memcpy(p->signal, v->signal, sizeof p->signal);
	memcpy(p->votes, v->votes, sizeof p->votes);
	p->stage = v->stage;
	p->confidence = v->confidence;
	p->only_prefill = v->only_prefill;
	p->only_decode = v->only_decode;
	p->duration_ratio = v->duration_ratio;
	p->duration_ref = v->duration_ref;
	p->by_grid = v->by_grid;
}

/* The record's verdict, for the relative signals to add to. */
static void get_vote(const ts_pass *p, int64_t gemm_tokens, ts_vote *v)
{
	memcpy(v->signal, p->signal, sizeof v->signal);
	memcpy(v->votes, p->votes, sizeof v->votes);
	v->stage = p->stage;
	v->confidence = p->confidence;
	v->gemm_tokens = gemm_tokens;
	v->only_prefill = p->only_prefill;
	v->only_decode = p->only_decode;
	v->duration_ratio = p->duration_ratio;
	v->duration_ref = p->duration_ref;
	v->by_grid = p->by_grid;
}

/* The step annotation of pass p: its batch, tokens, name; the stage it
 * names (unknown: none). */
static ts_pstage annotation_of(ts_layers *l, ts_pass *p)
{
	/* the step whose window began last before the pass (its stray
	 * kernels cut, idle.h) */
	int64_t start = p->idle.span_ns ? p->idle.start_ns : p->first_ts;
	int64_t an = l->pass.hints.step_ann >= 0 ? l->pass.hints.step_ann : ts_steps_at(l->steps, start, false);
	ts_step_says a;
	if (!ts_steps_says(l->steps, an, &a))
		return TS_PSTAGE_UNKNOWN;
	p->batch = a.batch;
	p->tokens = a.tokens;
	if (a.name != TS_INTERN_NONE)
		p->annotation = (int)a.name;
	return a.stage;
}

/* The most rows a GEMM op of every layer ran (once a layer at least:
 * the projections run the pass's tokens; an eager MoE loop's experts each
 * a share, other counts each layer), -1 none; and in *common, of the rows
 * run in every layer, the ones most GEMMs ran (the projections' tokens
 * beside a hybrid's per-head batched GEMMs, whose rows are heads). */
static int64_t layer_m(const pass_hints *h, uint32_t layers, int64_t *common)
{
	int64_t most = -1;
	uint32_t best = 0;
	*common = -1;
	for (size_t i = 0; i < TS_LAY_TOP_M; i++) {
		if (!h->top_m[i].n || !layers || h->top_m[i].n < layers)
			continue;
		if (most < 0)
			most = h->top_m[i].m;
		if (h->top_m[i].n > best) {
			best = h->top_m[i].n;
			*common = h->top_m[i].m;
		}
	}
	return most;
}

void ts_lay_vote(ts_layers *l, ts_pass *p)
{
	const pass_hints *h = &l->pass.hints;
	bool attn = h->attn_replayed || h->attn_launched;
	int64_t common;
	int64_t tokens = layer_m(h, p->layers, &common);
	ts_vote_own_in in = {
		.annotation = annotation_of(l, p), .generation = ts_layers_generation(l) != 0,
		.layers = p->layers, .hint_prefill = (uint32_t)h->hint_prefill,
		.hint_decode = (uint32_t)h->hint_decode, .gemm_small = h->gemm_small,
		.gemm_large = h->gemm_large, .gemm_m_min = p->gemm_m_min,
		.gemm_m_max = p->gemm_m_max, .layer_tokens = tokens,
		.layer_rows = common,
		.kv_grid = h->tokens_max, .q_grid = h->qblocks_max, .sampled = h->sampled,
		.sampled_grid = h->rows_after,
		.replayed = attn ? h->attn_replayed : h->layer_replayed,
		.launched = attn ? h->attn_launched : h->launched_between, .replayed_layers = !attn,
		.threshold = ts_lay_decode_threshold(l), .continuous = l->cpu.batching > 0,
		.prev_sampled = l->pass.prev_sampled };
	ts_vote v;
	ts_vote_own(&in, &v);
	put_vote(p, &v);
	p->kv_grid = h->tokens_max;
	p->q_grid = h->qblocks_max;
	p->hints_prefill = in.hint_prefill;
	p->hints_decode = in.hint_decode;
	p->sampled = v.seqs;
	p->layer_tokens = v.rows;
	p->replayed = in.replayed;
	p->launched = in.launched;
	p->replayed_layers = in.replayed_layers;
	p->batching = v.continued ? 1 : v.open_first ? 2 : 0;
	/* the sequences it ran on into the next step: the sampler's, else a
	 * decode step's tokens */
	l->pass.prev_sampled = h->sampled > 0 ? h->sampled
			     : p->stage == TS_PSTAGE_DECODE && v.rows > 0 ? v.rows
			     : p->stage == TS_PSTAGE_DECODE && p->cut_start ? TS_VOTE_PREV_RUNNING : 0;
	l->pass.hints.gemm_tokens = v.gemm_tokens;
	ts_vote_seen(&l->held.vote, &in, &v);
	/* the layers' elementwise work, one kernel a layer at least: a few
	 * in the tail (a sampler's temperature divide over the vocabulary)
	 * count sequences, not tokens */
	p->grid = h->grid_n && h->grid_n >= p->layers ? exp2(h->grid_log / h->grid_n) : 0;
	if (p->complete && !p->draft)
		ts_vote_timed(&l->held.vote, p->gpu_ns, p->layers, p->grid);
}

/* Kernels (by name) of a waiting pass staged so far in prefill passes
 * only, or in decode passes only: a prefill-only attention, a decode
 * combine. With passes of one stage known, an attention kernel they never
 * ran speaks for the other stage. */
static void only_in(const ts_layers *l, const pending_pass *pp, ts_vote_rel_in *in)
{
	bool kp = l->held.vote.known_layers[TS_PSTAGE_PREFILL] > 0;
	bool kd = l->held.vote.known_layers[TS_PSTAGE_DECODE] > 0;
	for (size_t i = 0; i < pp->nkernels && (kp || kd); i++) {
		uint32_t row = pp->kernels[i].row;
		if (row == TS_INTERN_NONE || row >= l->staged.srows_cap)
			continue;
		bool pre = l->staged.srows[TS_PSTAGE_PREFILL][row].count > 0;
		bool dec = l->staged.srows[TS_PSTAGE_DECODE][row].count > 0;
		if (kp && kd) {
			in->only_prefill += pre && !dec;
			in->only_decode += dec && !pre;
		} else if (row < l->meaning.marks_cap && (l->meaning.marks[row] & M_ATTN) && !pre && !dec) {
			if (kd)
				in->only_prefill++;
			else
				in->only_decode++;
		}
	}
}

/* The relative signals of a waiting pass, against the passes around it. */
void ts_lay_relative_votes(ts_layers *l, ts_pass *p, const pending_pass *pp)
{
	ts_vote_rel_in in = { .gpu_ns = p->gpu_ns, .layers = p->layers, .kv_grid = p->kv_grid,
			      .grid = p->grid,
			      .generation = ts_layers_generation(l) != 0,
			      .threshold = ts_lay_decode_threshold(l), .open_first = p->batching == 2 };
	only_in(l, pp, &in);
	ts_vote v;
	get_vote(p, pp->gemm_tokens, &v);
	ts_vote_relative(&l->held.vote, &in, &v);
	put_vote(p, &v);
}

/* One more op of M rows among the pass's largest M values (an outlier
 * or two above the tokens, a batched GEMM's rows, are kept beside them;
 * smaller values than the four largest are not the tokens). */
static void count_m(pass_hints *h, int64_t m)
{
	size_t i = 0;
	while (i < TS_LAY_TOP_M && h->top_m[i].n && h->top_m[i].m > m)
		i++;
	if (i == TS_LAY_TOP_M)
		return;
	if (h->top_m[i].n && h->top_m[i].m == m) {
		h->top_m[i].n++;
		return;
	}
	memmove(h->top_m + i + 1, h->top_m + i, (TS_LAY_TOP_M - 1 - i) * sizeof *h->top_m);
	h->top_m[i].m = m;
	h->top_m[i].n = 1;
}

/* What a kernel says of its pass's stage: its name's hint, how it was
 * launched (a graph's replay, an op), the rows of the op behind it, the
 * blocks of its grid, the sampler's rows; and of the trace (generation). */
void ts_lay_take_evidence(ts_layers *l, const ts_event *ev, const ts_kclass *c, const ts_kref *ref,
			  lmark m)
{
	int64_t op_m = ref->m ? (int64_t)ref->m : -1;
	ts_pass *p = &l->pass.cur;
	pass_hints *h = &l->pass.hints;
	/* elementwise work launches blocks by the elements: its tokens */
	if ((ev->has & TS_HAS_GRID) && (c->type == TS_TYPE_ELEMENTWISE || c->type == TS_TYPE_NORM) &&
	    ev->grid[0] > 0) {
		double b = (double)ev->grid[0] * (ev->grid[1] > 0 ? ev->grid[1] : 1) *
			   (ev->grid[2] > 0 ? ev->grid[2] : 1);
		h->grid_log += log2(b);
		h->grid_n++;
	}
	/* the sampler's rows: one a sequence; by its op's shapes, else by
	 * the grid of a row kernel no layer's work follows (a softmax over
	 * the logits; a layer's, a router's, has norms and attention after) */
	if ((m & M_SAMPLE) && op_m > h->sampled)
		h->sampled = op_m;
	if ((m & M_ROWS) && (ev->has & TS_HAS_GRID) && ev->grid[0] > 0)
		h->rows_after = ev->grid[0];
	else if (m & (M_ATTN | M_START))
		h->rows_after = -1;
	if (c->stage == TS_STAGE_PREFILL)
		h->hint_prefill++;
	else if (c->stage == TS_STAGE_DECODE)
		h->hint_decode++;
	if (c->stage != TS_STAGE_NONE && (m & M_ATTN))
		l->cpu.generation |= TS_GEN_STAGE_KERNEL;
	/* a graph launch runs several kernels under one correlation (a
	 * kernel alone under its own with no op lost its CPU side); kernels
	 * an op launched between two replayed ones ran inside the forward
	 * (a piecewise graph's eager attention), not before or after it */
	bool op = (ev->has & TS_HAS_EXTERNAL_ID) != 0;
	bool replayed = lay_no_op(ev) && ev->correlation == l->pass.last_corr;
	/* the kernel before, no op's and alone under its correlation: launched
	 * by itself, its CPU side outside the capture (a piecewise graph's
	 * eager attention when the profile began after its launch), as an op's
	 * launch counts */
	if (l->pass.alone && !replayed) {
		if (h->layer_replayed)
			h->launched_since++;
		h->attn_launched += (l->pass.alone_marks & M_ATTN) != 0;
	}
	l->pass.alone = lay_no_op(ev) && !replayed;
	l->pass.alone_marks = m;
	if (replayed) {
		h->layer_replayed++;
		h->launched_between += h->launched_since;
		h->launched_since = 0;
	} else if (op && h->layer_replayed) {
		h->launched_since++;
	}
	if (m & M_ATTN) {
		h->attn_launched += op;
		h->attn_replayed += replayed;
	}
	l->pass.last_corr = (ev->has & TS_HAS_CORRELATION) && ev->correlation >= 0 ? ev->correlation : -1;
	if (m & M_EMBED)
		l->cpu.generation |= TS_GEN_EMBEDDING;
	if (c->type == TS_TYPE_KV_CACHE || (m & M_TOKENS))
		l->cpu.generation |= TS_GEN_KV_CACHE;
	/* the token rows of the op that launched a GEMM, or an attention
	 * kernel where a workload rule read its tokens (unified_attention's
	 * q [T, H, D], SDPA's batch x query; an op no rule reads counts rows
	 * times heads): a piecewise graph replays the GEMMs with no op, its
	 * attention runs eager under one */
	if ((c->type == TS_TYPE_GEMM || ((m & M_ATTN) && ref->wl != TS_INTERN_NONE)) && op_m > 0) {
		if (op_m <= ts_lay_decode_threshold(l))
			h->gemm_small++;
		else
			h->gemm_large++;
		if (ref->wl != TS_INTERN_NONE)   /* rows a rule read, not a guess */
			count_m(h, op_m);
		if (p->gemm_m_min < 0 || op_m < p->gemm_m_min)
			p->gemm_m_min = op_m;
		if (op_m > p->gemm_m_max)
			p->gemm_m_max = op_m;
	}
}

/* ------------------------------------------------------ typical layers */

/* The middle layer of the pass just ended, from the kernel listing, into
 * samp_tmp (with every like layer of the pass summed in: *instances); its
 * kernel count, 0 when the listing does not hold all of it. */
size_t ts_lay_middle_layer(ts_layers *l, uint32_t *layer, uint32_t *instances)
{
	if (!l->opts.sample || l->online.walk.nlayers == 0 || l->listing.ndbg_cur >= TS_MAX_DEBUG_KERNELS || l->listing.dbg_lost)
		return 0;
	uint32_t mid = l->online.walk.nlayers / 2;
	size_t n = 0;
	for (size_t i = 0; i < l->listing.ndbg_cur; i++) {
		if (l->listing.dbg_cur[i].layer != mid)
			continue;
		if (n == TS_MAX_SAMPLE_KERNELS)
			return 0;
		l->listing.samp_tmp[n++] = l->listing.dbg_cur[i];
	}
	*layer = mid;
	*instances = n ? 1 : 0;
	/* every other layer of the pass that ran the same kernel rows in the
	 * same order is one more instance of it: its times join the sample's,
	 * so one pass gives a mean over its like layers, not one layer */
	for (size_t i = 0; n && i < l->listing.ndbg_cur;) {
		size_t j = i;
		while (j < l->listing.ndbg_cur && l->listing.dbg_cur[j].layer == l->listing.dbg_cur[i].layer)
			j++;
		bool same = l->listing.dbg_cur[i].layer != mid && l->listing.dbg_cur[i].layer != UINT32_MAX &&
			    j - i == n;
		for (size_t k = 0; same && k < n; k++)
			same = l->listing.dbg_cur[i + k].row == l->listing.samp_tmp[k].row &&
			       l->listing.samp_tmp[k].row != TS_INTERN_NONE;
		if (same) {
			for (size_t k = 0; k < n; k++)
				l->listing.samp_tmp[k].dur += l->listing.dbg_cur[i + k].dur;
			(*instances)++;
		}
		i = j;
	}
	return n;
}

/* A complete pass of stage s offers its middle layer: the first becomes
 * the stage's sample; later ones with the same layer and kernel rows add
 * their time to it. */
void ts_lay_offer_sample(ts_layers *l, ts_pstage s, const ts_layer_sample *c)
{
	ts_layer_sample *d = &l->listing.samples[s];
	if (c->n == 0)
		return;
	if (!d->k) {
		d->k = malloc(c->n * sizeof *d->k);
		if (!d->k)
			return;
		memcpy(d->k, c->k, c->n * sizeof *d->k);
		d->n = c->n;
		d->layer = c->layer;
		d->layers = c->layers;
		d->instances = c->instances;
		return;
	}
	if (d->n != c->n || d->layer != c->layer || d->layers != c->layers)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (d->k[i].row != c->k[i].row || d->k[i].row == TS_INTERN_NONE)
			return;
	for (size_t i = 0; i < c->n; i++)
		d->k[i].dur += c->k[i].dur;
	d->instances += c->instances;
}

/* ------------------------------------------------------------ layer spans */

void ts_lay_record_spans(ts_layers *l, const ts_pass *p)
{
	uint32_t n = l->online.walk.nlayers < TS_MAX_LAYERS ? l->online.walk.nlayers : TS_MAX_LAYERS;
	if (n == 0 || l->listing.dbg_lost || !l->listing.dbg_all)
		return;
	size_t base = l->listing.nspans;
	if (base + n > TS_MAX_SPANS ||
	    !ts_grow((void **)&l->listing.spans, &l->listing.spans_cap, base + n, sizeof *l->listing.spans, 256,
		     TS_MAX_SPANS, false)) {
		l->listing.spans_dropped += n;
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		l->listing.spans[base + i] = (ts_layer_span){ .pass = p->index, .layer = i,
						      .start = INT64_MAX, .end = INT64_MIN,
						      .type = (uint8_t)ts_lay_layer_type(l, l->online.layers[i].marks) };
	for (size_t k = 0; k < l->listing.ndbg_cur; k++) {
		const ts_debug_kernel *d = &l->listing.dbg_cur[k];
		if (d->layer >= n)
			continue;
		ts_layer_span *s = &l->listing.spans[base + d->layer];
		if (d->ts < s->start)
			s->start = d->ts;
		if (d->ts + d->dur > s->end)
			s->end = d->ts + d->dur;
		s->kernels++;
	}
	size_t k = base;
	for (uint32_t i = 0; i < n; i++)           /* a layer with no kernel listed: none */
		if (l->listing.spans[base + i].kernels)
			l->listing.spans[k++] = l->listing.spans[base + i];
	l->listing.nspans = k;
}

size_t ts_layers_spans(const ts_layers *l, const ts_layer_span **out, uint64_t *dropped)
{
	*out = l->listing.spans;
	*dropped = l->listing.spans_dropped;
	return l->listing.nspans;
}

/* The longest TS_TOP_GAPS as a min-heap (without opts.spans): the root,
 * the least kept, gives way to a greater one. A gap is less than another
 * when shorter, or as long and later (so the earliest of equal ones stay). */
static bool gap_less(const ts_gap_span *a, const ts_gap_span *b)
{
	return a->len < b->len || (a->len == b->len && a->start > b->start);
}

static void heap_down(ts_gap_span *h, size_t n, size_t i)
{
	for (;;) {
		size_t m = i, c = 2 * i + 1;
		if (c < n && gap_less(&h[c], &h[m]))
			m = c;
		if (c + 1 < n && gap_less(&h[c + 1], &h[m]))
			m = c + 1;
		if (m == i)
			return;
		ts_gap_span t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void heap_up(ts_gap_span *h, size_t i)
{
	while (i > 0 && gap_less(&h[i], &h[(i - 1) / 2])) {
		ts_gap_span t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

void ts_lay_on_gap(void *ctx, int64_t start, int64_t len, bool launch_bound, uint32_t after,
		   uint32_t before)
{
	ts_layers *l = ctx;
	if (len < TS_GAP_SPAN_MIN_NS)
		return;
	/* the pass that ends now takes the next index */
	ts_gap_span g = { .pass = (uint32_t)l->records.pass_count, .launch_bound = launch_bound,
			  .start = start, .len = len, .after = after, .before = before };
	bool top = !l->opts.spans;
	if (top && l->listing.ngspans == TS_TOP_GAPS) {
		l->listing.gspans_dropped++;
		if (gap_less(&l->listing.gspans[0], &g)) {
			l->listing.gspans[0] = g;
			heap_down(l->listing.gspans, l->listing.ngspans, 0);
		}
		return;
	}
	if (!ts_grow((void **)&l->listing.gspans, &l->listing.gspans_cap, l->listing.ngspans + 1, sizeof *l->listing.gspans, 256,
		     top ? TS_TOP_GAPS : TS_MAX_GAP_SPANS, false)) {
		l->listing.gspans_dropped++;
		return;
	}
	l->listing.gspans[l->listing.ngspans++] = g;
	if (top)
		heap_up(l->listing.gspans, l->listing.ngspans - 1);
}

size_t ts_layers_gaps(const ts_layers *l, const ts_gap_span **out, uint64_t *dropped)
{
	*out = l->listing.gspans;
	*dropped = l->listing.gspans_dropped;
	return l->listing.ngspans;
}
