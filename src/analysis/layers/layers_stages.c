/*
 * layers_stages.c - a pass's stage from its signals' votes, the passes that wait for
 * the relative signals of the passes around them, and each stage's typical
 * layer for compare's kernel alignment (layers_int.h).
 */
#include "analysis/layers/layers_int.h"
#include "input/grow.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/intern.h"
#include "analysis/satmath.h"
#include "input/numtext.h"

/* The stage with most votes and its share; a tie or none: unknown. */
static void tally(ts_pass *p)
{
	int total = 0, best = TS_PSTAGE_UNKNOWN;
	bool tie = false;
	for (int s = 0; s < TS_PSTAGE_UNKNOWN; s++) {
		total += p->votes[s];
		if (p->votes[s] == 0)
			continue;
		if (best == TS_PSTAGE_UNKNOWN || p->votes[s] > p->votes[best]) {
			best = s;
			tie = false;
		} else if (p->votes[s] == p->votes[best]) {
			tie = true;
		}
	}
	p->stage = tie ? TS_PSTAGE_UNKNOWN : (ts_pstage)best;
	p->confidence = total && !tie && best != TS_PSTAGE_UNKNOWN
		      ? (double)p->votes[best] / total : 0.0;
}

/* The smallest and largest token count of the passes so far. */
static void token_range(tok_range *r, int64_t t)
{
	if (t <= 0)
		return;
	if (r->lo <= 0 || t < r->lo)
		r->lo = t;
	if (t > r->hi)
		r->hi = t;
}

/* Tokens against the other passes of the trace: a pass four times
 * smaller than another runs few tokens a sequence beside it (decode);
 * else one four times larger than another is the prompt (prefill). */
static ts_pstage tokens_relative(const tok_range *r, int64_t t, long threshold)
{
	if (t <= 0)
		return TS_PSTAGE_UNKNOWN;
	if (r->hi >= 4 * t)
		return TS_PSTAGE_DECODE;
	if (r->lo > 0 && 4 * r->lo <= t)
		return TS_PSTAGE_PREFILL;
	/* nothing to hold it against: more tokens than a decode batch
	 * usually has are more often a prompt's */
	return t > threshold ? TS_PSTAGE_PREFILL : TS_PSTAGE_UNKNOWN;
}

long ts_lay_decode_threshold(const ts_layers *l)
{
	return l->opts.decode_threshold > 0 ? l->opts.decode_threshold
					    : TS_DECODE_THRESHOLD_DEFAULT;
}

/* Each signal's weight: the annotation's own words outweigh every
 * inferred signal together; a count of tokens outweighs a kernel's name
 * (a FlashInfer "Prefill" kernel runs decode); the passes around a pass
 * speak last, for the passes its own signals leave open. */
static const int weight[TS_SIG_COUNT] = {
	[TS_SIG_ANNOTATION] = 8, [TS_SIG_KERNEL_HINTS] = 1, [TS_SIG_GEMM_M] = 2,
	[TS_SIG_KV_GRID] = 2, [TS_SIG_ONLY_IN] = 1, [TS_SIG_DURATION] = 1,
};

/* The step annotation of pass p: its stage signal, batch, tokens, name. */
static void annotation_signal(ts_layers *l, ts_pass *p)
{
	/* the step whose window began last before the pass (its stray
	 * kernels cut, idle.h) */
	int64_t start = p->idle.span_ns ? p->idle.start_ns : p->first_ts;
	int64_t an = l->hints.step_ann >= 0 ? l->hints.step_ann : ts_steps_at(l->steps, start, false);
	ts_step_says a;
	if (!ts_steps_says(l->steps, an, &a))
		return;
	p->signal[TS_SIG_ANNOTATION] = a.stage;
	p->batch = a.batch;
	p->tokens = a.tokens;
	if (a.name != TS_INTERN_NONE)
		p->annotation = (int)a.name;
}

/*
 * The token counts of pass p. A decode step runs one token a sequence:
 * GEMMs of few tokens (most of them at --decode-threshold or below) are
 * decode; many (past TOKENS_PREFILL) a prompt, and so is a pass whose LM
 * head ran on a quarter of its tokens or fewer (the last of each prompt: a
 * decode step's GEMMs all run its batch). GEMMs speak only where their
 * shapes were recorded in half the layers at least: a lone LM head (the
 * eager GEMM of a graph-replayed pass) counts sequences, not tokens. The
 * grid of a KV-cache write has one block per token written: one per
 * sequence in decode, every prompt token in prefill. Between the two
 * bounds a large decode batch and a short prompt look alike: the passes
 * around say which (tokens_relative). Many tokens are prefill, or mixed
 * where the annotation says the batch is mixed. Token rows only say
 * prefill or decode where something says the trace is generation at all
 * (a diffusion transformer's steps have many rows and no stage).
 */
static void token_signals(ts_layers *l, ts_pass *p)
{
	ts_pstage many = p->signal[TS_SIG_ANNOTATION] == TS_PSTAGE_MIXED ? TS_PSTAGE_MIXED
			 : TS_PSTAGE_PREFILL;
	uint64_t small = l->hints.gemm_small, large = l->hints.gemm_large;
	bool enough = small + large >= 2 && 2 * (small + large) >= p->layers;
	if (enough && small > large && l->generation)
		p->signal[TS_SIG_GEMM_M] = TS_PSTAGE_DECODE;
	else if (enough && large > small && l->generation &&
		 (p->gemm_m_max > TOKENS_PREFILL || p->gemm_m_max >= 4 * p->gemm_m_min))
		p->signal[TS_SIG_GEMM_M] = many;
	p->kv_grid = l->hints.tokens_max;
	if (l->hints.tokens_max > 0 && l->hints.tokens_max <= ts_lay_decode_threshold(l))
		p->signal[TS_SIG_KV_GRID] = TS_PSTAGE_DECODE;
	else if (l->hints.tokens_max > TOKENS_PREFILL)
		p->signal[TS_SIG_KV_GRID] = many;
	l->hints.gemm_tokens = !enough ? -1 : small > large ? p->gemm_m_min
			     : large > small ? p->gemm_m_max : -1;
	if (p->layers && l->generation) {
		token_range(&l->tok_gemm, l->hints.gemm_tokens);
		token_range(&l->tok_kv, l->hints.tokens_max);
	}
}

void ts_lay_vote(ts_layers *l, ts_pass *p)
{
	annotation_signal(l, p);
	token_signals(l, p);
	ts_pstage hints = TS_PSTAGE_UNKNOWN;
	if (l->hints.hint_prefill != l->hints.hint_decode)
		hints = l->hints.hint_prefill > l->hints.hint_decode ? TS_PSTAGE_PREFILL : TS_PSTAGE_DECODE;
	p->hints_prefill = (uint32_t)l->hints.hint_prefill;
	p->hints_decode = (uint32_t)l->hints.hint_decode;
	/* A kernel's name is weaker evidence than counts: names saying one
	 * stage where the annotation or the token counts say another (a
	 * FlashInfer "Prefill" kernel running decode) do not vote. */
	bool overruled = false;
	for (int sg = TS_SIG_ANNOTATION; sg <= TS_SIG_KV_GRID; sg++)
		if (sg != TS_SIG_KERNEL_HINTS && p->signal[sg] != TS_PSTAGE_UNKNOWN &&
		    p->signal[sg] != hints)
			overruled = true;
	p->signal[TS_SIG_KERNEL_HINTS] = overruled ? TS_PSTAGE_UNKNOWN : hints;
	for (int sg = TS_SIG_ANNOTATION; sg < TS_SIG_COUNT; sg++)
		if (p->signal[sg] != TS_PSTAGE_UNKNOWN)
			p->votes[p->signal[sg]] += weight[sg];
	tally(p);
}

/* The relative signals of a waiting pass, against the passes whose own
 * signals decided their stage. */
void ts_lay_relative_votes(ts_layers *l, ts_pass *p, const pending_pass *pp)
{
	/* Kernels (by name) staged so far in prefill passes only, or in
	 * decode passes only: a prefill-only attention, a decode combine.
	 * With passes of one stage known, an attention kernel they never ran
	 * speaks for the other stage. */
	bool kp = l->known_layers[TS_PSTAGE_PREFILL] > 0, kd = l->known_layers[TS_PSTAGE_DECODE] > 0;
	for (size_t i = 0; i < pp->nkernels && (kp || kd); i++) {
		uint32_t row = pp->kernels[i].row;
		if (row == TS_INTERN_NONE || row >= l->srows_cap)
			continue;
		bool pre = l->srows[TS_PSTAGE_PREFILL][row].count > 0;
		bool dec = l->srows[TS_PSTAGE_DECODE][row].count > 0;
		if (kp && kd) {
			p->only_prefill += pre && !dec;
			p->only_decode += dec && !pre;
		} else if (row < l->marks_cap && (l->marks[row] & M_ATTN) && !pre && !dec) {
			if (kd)
				p->only_prefill++;
			else
				p->only_decode++;
		}
	}
	if (p->only_prefill != p->only_decode)
		p->signal[TS_SIG_ONLY_IN] = p->only_prefill > p->only_decode
					  ? TS_PSTAGE_PREFILL : TS_PSTAGE_DECODE;
	/* time per layer: a prefill layer processes many tokens */
	if (p->layers) {
		double t = (double)p->gpu_ns / p->layers;
		double d = l->known_layers[TS_PSTAGE_DECODE]
			 ? (double)l->known_ns[TS_PSTAGE_DECODE] / (double)l->known_layers[TS_PSTAGE_DECODE] : 0;
		double f = l->known_layers[TS_PSTAGE_PREFILL]
			 ? (double)l->known_ns[TS_PSTAGE_PREFILL] / (double)l->known_layers[TS_PSTAGE_PREFILL] : 0;
		ts_pstage v = TS_PSTAGE_UNKNOWN;
		if (d > 0 && f > 0 && t > 0) {
			/* the nearer, on a log scale */
			double rd = t > d ? t / d : d / t, rf = t > f ? t / f : f / t;
			p->duration_ref = rd <= rf ? TS_PSTAGE_DECODE : TS_PSTAGE_PREFILL;
			p->duration_ratio = t / (rd <= rf ? d : f);
			if (rd != rf)
				v = p->duration_ref;
		} else if (d > 0) {
			p->duration_ref = TS_PSTAGE_DECODE;
			p->duration_ratio = t / d;
			v = p->duration_ratio >= 4 ? TS_PSTAGE_PREFILL
			  : p->duration_ratio <= 2 ? TS_PSTAGE_DECODE : TS_PSTAGE_UNKNOWN;
		} else if (f > 0) {
			p->duration_ref = TS_PSTAGE_PREFILL;
			p->duration_ratio = t / f;
			v = p->duration_ratio <= 0.25 ? TS_PSTAGE_DECODE
			  : p->duration_ratio >= 0.5 ? TS_PSTAGE_PREFILL : TS_PSTAGE_UNKNOWN;
		}
		p->signal[TS_SIG_DURATION] = v;
	}
	for (int sg = TS_SIG_ONLY_IN; sg <= TS_SIG_DURATION; sg++)
		if (p->signal[sg] != TS_PSTAGE_UNKNOWN)
			p->votes[p->signal[sg]] += weight[sg];
	/* the token counts the pass's own figures left open, against the
	 * passes around it: as weak as the other relative signals */
	long thr = ts_lay_decode_threshold(l);
	if (p->signal[TS_SIG_GEMM_M] == TS_PSTAGE_UNKNOWN && l->generation &&
	    (p->signal[TS_SIG_GEMM_M] = tokens_relative(&l->tok_gemm, pp->gemm_tokens, thr)) !=
	    TS_PSTAGE_UNKNOWN)
		p->votes[p->signal[TS_SIG_GEMM_M]]++;
	if (p->signal[TS_SIG_KV_GRID] == TS_PSTAGE_UNKNOWN && l->generation &&
	    (p->signal[TS_SIG_KV_GRID] = tokens_relative(&l->tok_kv, p->kv_grid, thr)) != TS_PSTAGE_UNKNOWN)
		p->votes[p->signal[TS_SIG_KV_GRID]]++;
	tally(p);
}

/* ------------------------------------------------------ typical layers */

/* The middle layer of the pass just ended, from the kernel listing, into
 * samp_tmp (with every like layer of the pass summed in: *instances); its
 * kernel count, 0 when the listing does not hold all of it. */
size_t ts_lay_middle_layer(ts_layers *l, uint32_t *layer, uint32_t *instances)
{
	if (!l->opts.sample || l->walk.nlayers == 0 || l->ndbg_cur >= TS_MAX_DEBUG_KERNELS || l->dbg_lost)
		return 0;
	uint32_t mid = l->walk.nlayers / 2;
	size_t n = 0;
	for (size_t i = 0; i < l->ndbg_cur; i++) {
		if (l->dbg_cur[i].layer != mid)
			continue;
		if (n == TS_MAX_SAMPLE_KERNELS)
			return 0;
		l->samp_tmp[n++] = l->dbg_cur[i];
	}
	*layer = mid;
	*instances = n ? 1 : 0;
	/* every other layer of the pass that ran the same kernel rows in the
	 * same order is one more instance of it: its times join the sample's,
	 * so one pass gives a mean over its like layers, not one layer */
	for (size_t i = 0; n && i < l->ndbg_cur;) {
		size_t j = i;
		while (j < l->ndbg_cur && l->dbg_cur[j].layer == l->dbg_cur[i].layer)
			j++;
		bool same = l->dbg_cur[i].layer != mid && l->dbg_cur[i].layer != UINT32_MAX &&
			    j - i == n;
		for (size_t k = 0; same && k < n; k++)
			same = l->dbg_cur[i + k].row == l->samp_tmp[k].row &&
			       l->samp_tmp[k].row != TS_INTERN_NONE;
		if (same) {
			for (size_t k = 0; k < n; k++)
				l->samp_tmp[k].dur += l->dbg_cur[i + k].dur;
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
	ts_layer_sample *d = &l->samples[s];
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
	uint32_t n = l->walk.nlayers < TS_MAX_LAYERS ? l->walk.nlayers : TS_MAX_LAYERS;
	if (n == 0 || l->dbg_lost || !l->dbg_all)
		return;
	size_t base = l->nspans;
	if (base + n > TS_MAX_SPANS ||
	    !ts_grow((void **)&l->spans, &l->spans_cap, base + n, sizeof *l->spans, 256,
		     TS_MAX_SPANS, false)) {
		l->spans_dropped += n;
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		l->spans[base + i] = (ts_layer_span){ .pass = p->index, .layer = i,
						      .start = INT64_MAX, .end = INT64_MIN,
						      .type = (uint8_t)ts_lay_layer_type(l->layers[i].marks) };
	for (size_t k = 0; k < l->ndbg_cur; k++) {
		const ts_debug_kernel *d = &l->dbg_cur[k];
		if (d->layer >= n)
			continue;
		ts_layer_span *s = &l->spans[base + d->layer];
		if (d->ts < s->start)
			s->start = d->ts;
		if (d->ts + d->dur > s->end)
			s->end = d->ts + d->dur;
		s->kernels++;
	}
	size_t k = base;
	for (uint32_t i = 0; i < n; i++)           /* a layer with no kernel listed: none */
		if (l->spans[base + i].kernels)
			l->spans[k++] = l->spans[base + i];
	l->nspans = k;
}

size_t ts_layers_spans(const ts_layers *l, const ts_layer_span **out, uint64_t *dropped)
{
	*out = l->spans;
	*dropped = l->spans_dropped;
	return l->nspans;
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
	ts_gap_span g = { .pass = (uint32_t)l->pass_count, .launch_bound = launch_bound,
			  .start = start, .len = len, .after = after, .before = before };
	bool top = !l->opts.spans;
	if (top && l->ngspans == TS_TOP_GAPS) {
		l->gspans_dropped++;
		if (gap_less(&l->gspans[0], &g)) {
			l->gspans[0] = g;
			heap_down(l->gspans, l->ngspans, 0);
		}
		return;
	}
	if (!ts_grow((void **)&l->gspans, &l->gspans_cap, l->ngspans + 1, sizeof *l->gspans, 256,
		     top ? TS_TOP_GAPS : TS_MAX_GAP_SPANS, false)) {
		l->gspans_dropped++;
		return;
	}
	l->gspans[l->ngspans++] = g;
	if (top)
		heap_up(l->gspans, l->ngspans - 1);
}

size_t ts_layers_gaps(const ts_layers *l, const ts_gap_span **out, uint64_t *dropped)
{
	*out = l->gspans;
	*dropped = l->gspans_dropped;
	return l->ngspans;
}
