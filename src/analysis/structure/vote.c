/*
 * vote.c - a pass's stage from its evidence (see vote.h).
 */
#include "analysis/structure/vote.h"

#define Q_BLOCK_MIN 32          /* the fewest query tokens an attention grid block runs */
#define PROMPT_TOKENS_MIN 32    /* fewer a sequence, on average: not all prompts... */
#define MIXED_SEQS_MIN 16       /* ...where so many sequences were sampled */
#define MIXED_BATCH_SEQS 8      /* sequences of a decode batch beside prompts */

#include <math.h>
#include <string.h>

static const char *const signal_names[TS_SIG_COUNT] = {
	"annotation", "kernel_hints", "gemm_m", "kv_grid", "q_grid", "graph", "only_in",
	"duration",
};

const char *ts_signal_name(ts_signal s)
{
	return (unsigned)s < TS_SIG_COUNT ? signal_names[s] : "unknown";
}

/* Each signal's weight: the annotation's own words outweigh every
 * inferred signal together; a count of tokens outweighs a kernel's name;
 * the passes around a pass speak last, for the passes its own signals
 * leave open. */
static const int weight[TS_SIG_COUNT] = {
	[TS_SIG_ANNOTATION] = 8, [TS_SIG_KERNEL_HINTS] = 1, [TS_SIG_GEMM_M] = 2,
	[TS_SIG_KV_GRID] = 2, [TS_SIG_Q_GRID] = 2, [TS_SIG_GRAPH] = 1, [TS_SIG_ONLY_IN] = 1, [TS_SIG_DURATION] = 1,
};

/* The stage with most votes and its share; a tie or none: unknown. */
static void tally(ts_vote *v)
{
	int total = 0, best = TS_PSTAGE_UNKNOWN;
	bool tie = false;
	for (int s = 0; s < TS_PSTAGE_UNKNOWN; s++) {
		total += v->votes[s];
		if (v->votes[s] == 0)
			continue;
		if (best == TS_PSTAGE_UNKNOWN || v->votes[s] > v->votes[best]) {
			best = s;
			tie = false;
		} else if (v->votes[s] == v->votes[best]) {
			tie = true;
		}
	}
	v->stage = tie ? TS_PSTAGE_UNKNOWN : (ts_pstage)best;
	v->confidence = total && !tie && best != TS_PSTAGE_UNKNOWN
		      ? (double)v->votes[best] / total : 0.0;
}

/*
 * The token counts of a pass. A decode step runs one token a sequence:
 * GEMMs of few tokens (most of them at the threshold or below) are
 * decode; many (past TS_TOKENS_PREFILL) a prompt, and so is a pass whose
 * LM head ran on a quarter of its tokens or fewer (the last of each
 * prompt: a decode step's GEMMs all run its batch). GEMMs speak only where
 * their shapes were recorded in half the layers at least: a lone LM head
 * (the eager GEMM of a graph-replayed pass) counts sequences, not tokens.
 * The grid of a KV-cache write has one block per token written: one per
 * sequence in decode, every prompt token in prefill. Between the two
 * bounds a large decode batch and a short prompt look alike: the passes
 * around say which (relative). Many tokens are prefill, or mixed where
 * the annotation says the batch is mixed.
 */
/* Tokens against the sequences they ran for: one each is a decode step
 * (whatever the batch), four or more prompts (many); between, or either
 * unknown, nothing. */
static ts_pstage per_sequence(int64_t tokens, int64_t seqs, ts_pstage many)
{
	if (tokens <= 0 || seqs <= 0)
		return TS_PSTAGE_UNKNOWN;
	return tokens == seqs ? TS_PSTAGE_DECODE : tokens >= 4 * seqs ? many : TS_PSTAGE_UNKNOWN;
}

/* Many tokens a sequence: prompts, or a batch mixed where its annotation
 * says so, or where a serving engine (its paged KV-cache write counted
 * the tokens) sampled for so many sequences that, were each a prompt,
 * they would be shorter than a prompt's template alone: a decode batch
 * ran a token each beside a prompt's chunk (continuous batching). A
 * handful of short prompts (a quickstart's four) stays a prefill. */
/* Between one token a sequence and four, where a serving engine ran the
 * pass (its paged KV cache, or its batching known): a speculative verify
 * runs k a sequence, every one alike (tokens a multiple of them); tokens
 * no multiple of many sequences ran unevenly, a decode batch beside
 * prompts: mixed. */
static bool uneven(const ts_vote_own_in *in, int64_t tokens, int64_t seqs)
{
	return (in->kv_grid > 0 || in->continuous) && seqs >= MIXED_SEQS_MIN && tokens > seqs &&
	       tokens < 4 * seqs && tokens % seqs != 0;
}

static bool beside_running(const ts_vote_own_in *in)
{
	return in->continuous && in->sampled >= MIXED_BATCH_SEQS &&
	       ((in->prev_sampled >= 1 && 2 * in->sampled >= in->prev_sampled) ||
		in->prev_sampled == TS_VOTE_PREV_RUNNING);
}

static ts_pstage many_of(const ts_vote_own_in *in)
{
	if (in->annotation == TS_PSTAGE_MIXED)
		return TS_PSTAGE_MIXED;
	/* the tokens: every layer's rows, else the writes' (where no GEMM
	 * ran more: a capped grid counts nothing); the sequences: the
	 * sampler's op's rows */
	int64_t tokens = in->layer_tokens > 0 ? in->layer_tokens
		       : in->gemm_m_max <= in->kv_grid ? in->kv_grid : -1;
	if (in->kv_grid > 0 && tokens > 0 && in->sampled >= MIXED_SEQS_MIN &&
	    tokens < PROMPT_TOKENS_MIN * in->sampled)
		return TS_PSTAGE_MIXED;
	/* an engine that batches continuously schedules its running
	 * sequences every step: where a pass samples a decode batch's worth
	 * of sequences, half the pass before's at least (they ran on into
	 * it), its prompt tokens ran beside them, a mixed batch (a few
	 * prompts after a few, each of one token out, are prefills); the
	 * trace's first such pass waits for the passes after it */
	if (beside_running(in))
		return TS_PSTAGE_MIXED;
	if (in->continuous && in->sampled >= MIXED_BATCH_SEQS && in->prev_sampled == -1)
		return TS_PSTAGE_UNKNOWN;
	return TS_PSTAGE_PREFILL;
}

static void token_signals(const ts_vote_own_in *in, ts_vote *v)
{
	int64_t n_seqs = in->sampled > 0 ? in->sampled : in->sampled_grid;
	ts_pstage many = many_of(in);
	bool by_batching = in->continuous && in->annotation != TS_PSTAGE_MIXED;
	uint64_t small = in->gemm_small, large = in->gemm_large;
	bool enough = small + large >= 2 && 2 * (small + large) >= in->layers;
	/* most GEMMs few rows: decode, unless a GEMM of every layer ran many
	 * (an eager MoE loop's experts each run a share of a prompt) */
	bool few = in->layer_tokens <= 0 || in->layer_tokens <= in->threshold;
	/* the most rows every layer ran are the tokens where known: a MoE
	 * layer's expert GEMMs run each token top-k times */
	int64_t rows = in->layer_tokens > 0 ? in->layer_tokens : in->gemm_m_max;
	/* tokens against the sequences the sampler drew for: one token each
	 * is a decode step whatever the batch (256 sequences, 256 rows);
	 * four a sequence or more, prompts, however few (two prompts of 16
	 * tokens); between, the GEMMs' rows against the threshold. The rows
	 * are the most every layer ran where they are the sequences (a MoE
	 * decode step's experts run fewer), else the ones most of the
	 * layers' GEMMs ran (a hybrid's per-head batched GEMMs run heads as
	 * rows beside them). */
	int64_t lr = in->layer_tokens > 0 && in->layer_tokens == in->sampled ? in->layer_tokens
										: in->layer_rows;
	ts_pstage by_rows = in->generation ? per_sequence(lr, in->sampled, many) : TS_PSTAGE_UNKNOWN;
	if (by_rows == TS_PSTAGE_UNKNOWN && in->generation && uneven(in, lr, in->sampled))
		by_rows = TS_PSTAGE_MIXED;
	v->rows = lr > 0 ? lr : -1;
	v->seqs = in->sampled;
	if (by_rows != TS_PSTAGE_UNKNOWN)
		v->signal[TS_SIG_GEMM_M] = by_rows;
	else if (enough && small > large && few && in->generation)
		v->signal[TS_SIG_GEMM_M] = TS_PSTAGE_DECODE;
	else if (enough && large > small && in->generation &&
		 (rows > TS_TOKENS_PREFILL || rows >= 4 * in->gemm_m_min))
		v->signal[TS_SIG_GEMM_M] = many;
	/* the tokens the KV-cache writes count against the sequences, by
	 * the sampler's op or the grid of its softmax over the logits (a
	 * block a sequence), the same way (with rows recorded too, a second
	 * count: few tokens written say decode only where the rows did not
	 * count them a sequence); not where a GEMM ran more rows than the
	 * writes count (a grid capped: no count) */
	int64_t seqs = n_seqs, kv = in->kv_grid;
	ts_pstage by_kv = in->generation && in->gemm_m_max <= kv ? per_sequence(kv, seqs, many)
								 : TS_PSTAGE_UNKNOWN;
	if (by_kv != TS_PSTAGE_UNKNOWN) {
		v->signal[TS_SIG_KV_GRID] = by_kv;
		if (by_rows == TS_PSTAGE_UNKNOWN)
			v->rows = kv, v->seqs = seqs;
	} else if (by_rows == TS_PSTAGE_UNKNOWN && in->kv_grid > 0 && in->kv_grid <= in->threshold)
		v->signal[TS_SIG_KV_GRID] = TS_PSTAGE_DECODE;
	else if (in->kv_grid > TS_TOKENS_PREFILL)
		v->signal[TS_SIG_KV_GRID] = many;
	/* FlashAttention's forward runs a block of 64 or 128 of a
	 * sequence's query tokens a grid x (PyTorch's memory-efficient one,
	 * 32 or 64): two blocks or more, a sequence ran more query tokens
	 * than a decode step's one (a speculative verify's few); in LLM
	 * generation only (a diffusion transformer's steps attend over every
	 * image token); not where the GEMMs ran fewer rows than two blocks
	 * hold at the least (a writer that laid the grid out otherwise: the
	 * rows are the count) */
	bool q_fits = in->gemm_m_max < 0 || in->gemm_m_max > Q_BLOCK_MIN;
	if (in->q_grid > 1 && in->generation && q_fits)
		v->signal[TS_SIG_Q_GRID] = many;
	/* many tokens a sequence, told mixed (or left to the passes after)
	 * by the engine's batching */
	int64_t toks = lr > 0 && in->sampled > 0 ? lr : kv;
	bool prompts = toks > 0 && in->sampled > 0 && toks >= 4 * in->sampled;
	v->continued = by_batching && prompts && many == TS_PSTAGE_MIXED && beside_running(in);
	v->open_first = by_batching && prompts && many == TS_PSTAGE_UNKNOWN;
	v->gemm_tokens = !enough ? -1 : by_rows != TS_PSTAGE_UNKNOWN ? lr
		       : small > large && few ? in->gemm_m_min
		       : small > large ? in->layer_tokens : large > small ? in->gemm_m_max : -1;
}

/* Was the pass's forward replayed from a graph? Every attention kernel
 * replayed, none launched by an op; where no kernel is known to be
 * attention (no names, no ops: a graph), a kernel a layer replayed at
 * least and fewer than one every two layers launched by an op between
 * replayed ones (the LM head and sampler after the graph run eager; a
 * piecewise graph launches each layer's attention from an op between
 * its pieces). */
static bool replayed(const ts_vote_own_in *in)
{
	if (!in->replayed_layers)
		return in->replayed && !in->launched;
	return in->layers && in->replayed >= in->layers && 2 * (uint64_t)in->launched < in->layers;
}

/* Does the annotation or a token count say other than s? */
static bool overruled(const ts_vote *v, ts_pstage s)
{
	for (int sg = TS_SIG_ANNOTATION; sg <= TS_SIG_Q_GRID; sg++)
		if (sg != TS_SIG_KERNEL_HINTS && v->signal[sg] != TS_PSTAGE_UNKNOWN &&
		    v->signal[sg] != s)
			return true;
	return false;
}

void ts_vote_own(const ts_vote_own_in *in, ts_vote *v)
{
	memset(v, 0, sizeof *v);
	for (int sg = 0; sg < TS_SIG_COUNT; sg++)
		v->signal[sg] = TS_PSTAGE_UNKNOWN;
	v->duration_ref = TS_PSTAGE_UNKNOWN;
	v->signal[TS_SIG_ANNOTATION] = in->annotation;
	token_signals(in, v);
	ts_pstage hints = TS_PSTAGE_UNKNOWN;
	if (in->hint_prefill != in->hint_decode)
		hints = in->hint_prefill > in->hint_decode ? TS_PSTAGE_PREFILL : TS_PSTAGE_DECODE;
	/* Layers replayed from a graph, none launched by an op: a server
	 * captures whole forwards for its decode steps (vLLM's full graphs,
	 * SGLang's, TensorRT-LLM's generation); a piecewise graph leaves
	 * attention to eager ops, prefill and decode alike. */
	ts_pstage graph = replayed(in) ? TS_PSTAGE_DECODE : TS_PSTAGE_UNKNOWN;
	/* A kernel's name, or how it was launched, is weaker evidence than
	 * counts: either saying one stage where the annotation or the token
	 * counts say another (a FlashInfer "Prefill" kernel running decode)
	 * does not vote. */
	v->signal[TS_SIG_KERNEL_HINTS] = overruled(v, hints) ? TS_PSTAGE_UNKNOWN : hints;
	v->signal[TS_SIG_GRAPH] = overruled(v, graph) ? TS_PSTAGE_UNKNOWN : graph;
	for (int sg = TS_SIG_ANNOTATION; sg < TS_SIG_COUNT; sg++)
		if (v->signal[sg] != TS_PSTAGE_UNKNOWN)
			v->votes[v->signal[sg]] += weight[sg];
	tally(v);
	if (v->open_first && v->signal[TS_SIG_ANNOTATION] == TS_PSTAGE_UNKNOWN)
		v->stage = TS_PSTAGE_UNKNOWN, v->confidence = 0.0;   /* the passes after say */
}

static void range_add(ts_tok_range *r, int64_t t)
{
	if (t <= 0)
		return;
	if (r->lo <= 0 || t < r->lo)
		r->lo = t;
	if (t > r->hi)
		r->hi = t;
}

void ts_vote_seen(ts_vote_trace *t, const ts_vote_own_in *in, const ts_vote *v)
{
	if (!in->layers || !in->generation)
		return;
	range_add(&t->gemm, v->gemm_tokens);
	range_add(&t->kv, in->kv_grid);
	t->continued += v->continued || v->stage == TS_PSTAGE_MIXED;
}

static const ts_vote_count *count_of(const ts_vote_trace *t, uint32_t layers)
{
	for (uint32_t i = 0; i < t->ncounts; i++)
		if (t->counts[i].layers == layers)
			return &t->counts[i];
	return NULL;
}

void ts_vote_timed(ts_vote_trace *t, int64_t gpu_ns, uint32_t layers, double grid)
{
	if (!layers)
		return;
	ts_vote_count *c = (ts_vote_count *)count_of(t, layers);
	if (!c && t->ncounts < TS_VOTE_COUNTS)
		c = &t->counts[t->ncounts++], *c = (ts_vote_count){ .layers = layers };
	if (!c)
		return;    /* past the counts kept: no reference */
	if (gpu_ns > 0)
		range_add(&c->ns, gpu_ns / layers > 0 ? gpu_ns / layers : 1);
	if (grid > 0) {
		if (c->grid_lo <= 0 || grid < c->grid_lo)
			c->grid_lo = grid;
		if (grid > c->grid_hi)
			c->grid_hi = grid;
	}
}

void ts_vote_known(ts_vote_trace *t, ts_pstage s, int64_t gpu_ns, uint32_t layers, double grid,
		   int64_t tokens)
{
	if (!layers || (s != TS_PSTAGE_PREFILL && s != TS_PSTAGE_DECODE))
		return;
	range_add(&t->known_tok[s], tokens);
	t->known_ns[s] += gpu_ns;
	t->known_layers[s] += layers;
	if (grid > 0) {
		t->known_grid_log[s] += log2(grid);
		t->known_grids[s]++;
	}
}

/* Tokens against the other passes of the trace: a pass four times
 * smaller than another runs few tokens a sequence beside it (decode);
 * else one four times larger than another is the prompt (prefill); else
 * within twice the tokens of a pass whose own signals said its stage (a
 * decode step of 256 sequences beside one whose sampler counted them),
 * that stage, where the other stage's known passes are not as near; with
 * nothing to hold it against, more tokens than a decode batch usually has
 * are more often a prompt's. */
static ts_pstage tokens_relative(const ts_vote_trace *tr, const ts_tok_range *r, int64_t t,
				 long threshold)
{
	if (t <= 0)
		return TS_PSTAGE_UNKNOWN;
	if (r->hi >= 4 * t)
		return TS_PSTAGE_DECODE;
	if (r->lo > 0 && 4 * r->lo <= t)
		return TS_PSTAGE_PREFILL;
	const ts_tok_range *d = &tr->known_tok[TS_PSTAGE_DECODE], *f = &tr->known_tok[TS_PSTAGE_PREFILL];
	bool as_decode = d->hi > 0 && 2 * d->hi >= t, as_prefill = f->lo > 0 && f->lo <= 2 * t;
	if (as_decode != as_prefill)
		return as_decode ? TS_PSTAGE_DECODE : TS_PSTAGE_PREFILL;
	return t > threshold ? TS_PSTAGE_PREFILL : TS_PSTAGE_UNKNOWN;
}

/* Where no pass's stage is known and nothing else speaks for this one,
 * it against the other complete passes of its layer count (a fragment of
 * a step, its few layers' time, is no prompt or decode step): first by
 * the blocks its elementwise kernels launch (a grid grows with the
 * tokens: a prompt's norms and casts run hundreds of times the blocks of
 * a decode step's, where no shape was recorded), else by its time a
 * layer; four times the smallest is a prompt's, a quarter of the largest
 * a decode step's beside it; both (a spread of 16x) or neither say
 * nothing. duration_ref stays unknown: the reference is a pass. */
static ts_pstage against(double x, double lo, double hi, double *ratio)
{
	bool big = x >= 4.0 * lo, small = 4.0 * x <= hi;
	if (big == small)
		return TS_PSTAGE_UNKNOWN;
	*ratio = big ? x / lo : x / hi;
	return big ? TS_PSTAGE_PREFILL : TS_PSTAGE_DECODE;
}

static ts_pstage against_others(const ts_vote_trace *t, const ts_vote_rel_in *in, ts_vote *v,
				double x)
{
	bool others = false;
	for (int s = 0; s < TS_PSTAGE_UNKNOWN; s++)
		others |= v->votes[s] != 0;
	if (others || !in->generation)
		return TS_PSTAGE_UNKNOWN;
	ts_pstage s = TS_PSTAGE_UNKNOWN;
	const ts_vote_count *c = count_of(t, in->layers);
	if (!c)
		return TS_PSTAGE_UNKNOWN;
	if (in->grid > 0 && c->grid_lo > 0 &&
	    (s = against(in->grid, c->grid_lo, c->grid_hi, &v->duration_ratio)) != TS_PSTAGE_UNKNOWN) {
		v->by_grid = true;
		return s;
	}
	if (c->ns.lo <= 0 || x <= 0)
		return TS_PSTAGE_UNKNOWN;
	return against(x, (double)c->ns.lo, (double)c->ns.hi, &v->duration_ratio);
}

/* x against the passes of known stage, d the decode passes' and f the
 * prefill passes' figure (0: none known): the nearer on a log scale
 * where both are known; with one, at least 4x decode's is prefill, at
 * most 2x decode; at most a quarter of prefill's is decode, at least half
 * prefill. */
static ts_pstage against_known(double x, double d, double f, ts_vote *v)
{
	if (d > 0 && f > 0 && x > 0) {
		double rd = x > d ? x / d : d / x, rf = x > f ? x / f : f / x;
		v->duration_ref = rd <= rf ? TS_PSTAGE_DECODE : TS_PSTAGE_PREFILL;
		v->duration_ratio = x / (rd <= rf ? d : f);
		return rd != rf ? v->duration_ref : TS_PSTAGE_UNKNOWN;
	}
	if (d > 0) {
		v->duration_ref = TS_PSTAGE_DECODE;
		v->duration_ratio = x / d;
		return v->duration_ratio >= 4 ? TS_PSTAGE_PREFILL
		     : v->duration_ratio <= 2 ? TS_PSTAGE_DECODE : TS_PSTAGE_UNKNOWN;
	}
	if (f > 0) {
		v->duration_ref = TS_PSTAGE_PREFILL;
		v->duration_ratio = x / f;
		return v->duration_ratio <= 0.25 ? TS_PSTAGE_DECODE
		     : v->duration_ratio >= 0.5 ? TS_PSTAGE_PREFILL : TS_PSTAGE_UNKNOWN;
	}
	return TS_PSTAGE_UNKNOWN;
}

static double known_grid(const ts_vote_trace *t, ts_pstage s)
{
	return t->known_grids[s] ? exp2(t->known_grid_log[s] / t->known_grids[s]) : 0;
}

/* The pass against the passes of known stage: first by the blocks its
 * elementwise kernels launch (they grow with the tokens; a small model's
 * layer time does not, its launches bound it), else by its time a layer
 * (a prefill layer processes many tokens); where no stage is known,
 * against the other passes (against_others). */
static ts_pstage duration_signal(const ts_vote_trace *t, const ts_vote_rel_in *in, ts_vote *v)
{
	if (!in->layers)
		return TS_PSTAGE_UNKNOWN;
	double x = (double)in->gpu_ns / in->layers;
	double d = t->known_layers[TS_PSTAGE_DECODE]
		 ? (double)t->known_ns[TS_PSTAGE_DECODE] / (double)t->known_layers[TS_PSTAGE_DECODE] : 0;
	double f = t->known_layers[TS_PSTAGE_PREFILL]
		 ? (double)t->known_ns[TS_PSTAGE_PREFILL] / (double)t->known_layers[TS_PSTAGE_PREFILL] : 0;
	if (d <= 0 && f <= 0)
		return against_others(t, in, v, x);
	double gd = known_grid(t, TS_PSTAGE_DECODE), gf = known_grid(t, TS_PSTAGE_PREFILL);
	if (in->grid > 0 && (gd > 0 || gf > 0)) {
		ts_pstage s = against_known(in->grid, gd, gf, v);
		if (s != TS_PSTAGE_UNKNOWN) {
			v->by_grid = true;
			return s;
		}
		v->duration_ref = TS_PSTAGE_UNKNOWN;
		v->duration_ratio = 0;
	}
	return against_known(x, d, f, v);
}

void ts_vote_relative(const ts_vote_trace *t, const ts_vote_rel_in *in, ts_vote *v)
{
	v->only_prefill = in->only_prefill;
	v->only_decode = in->only_decode;
	if (in->only_prefill != in->only_decode)
		v->signal[TS_SIG_ONLY_IN] = in->only_prefill > in->only_decode
					  ? TS_PSTAGE_PREFILL : TS_PSTAGE_DECODE;
	/* the trace's first pass of prompts in an engine that batches
	 * continuously: mixed where later passes ran prompts beside the
	 * sequences before them (the capture began inside a run), else a
	 * prefill (the run began with it) */
	bool counted = false;
	if (in->open_first && v->signal[TS_SIG_GEMM_M] == TS_PSTAGE_UNKNOWN) {
		ts_pstage s = t->continued ? TS_PSTAGE_MIXED : TS_PSTAGE_PREFILL;
		v->signal[TS_SIG_GEMM_M] = s;
		v->votes[s] += weight[TS_SIG_GEMM_M];
		/* a mixed batch runs prefill kernels too: their names say no
		 * other stage */
		if (s == TS_PSTAGE_MIXED && v->signal[TS_SIG_KERNEL_HINTS] == TS_PSTAGE_PREFILL) {
			v->votes[TS_PSTAGE_PREFILL] -= weight[TS_SIG_KERNEL_HINTS];
			v->signal[TS_SIG_KERNEL_HINTS] = TS_PSTAGE_UNKNOWN;
		}
		counted = true;
	}
	/* the token counts the pass's own figures left open, against the
	 * passes around it: as weak as the other relative signals */
	if (v->signal[TS_SIG_GEMM_M] == TS_PSTAGE_UNKNOWN && in->generation &&
	    (v->signal[TS_SIG_GEMM_M] = tokens_relative(t, &t->gemm, v->gemm_tokens, in->threshold)) !=
	    TS_PSTAGE_UNKNOWN) {
		v->votes[v->signal[TS_SIG_GEMM_M]]++;
		counted = true;
	}
	if (v->signal[TS_SIG_KV_GRID] == TS_PSTAGE_UNKNOWN && in->generation && !in->open_first &&
	    (v->signal[TS_SIG_KV_GRID] = tokens_relative(t, &t->kv, in->kv_grid, in->threshold)) !=
	    TS_PSTAGE_UNKNOWN) {
		v->votes[v->signal[TS_SIG_KV_GRID]]++;
		counted = true;
	}
	/* its time against theirs only where no count of its tokens spoke:
	 * a decode batch of 256 takes a prompt's time a layer */
	if (!counted)
		v->signal[TS_SIG_DURATION] = duration_signal(t, in, v);
	for (int sg = TS_SIG_ONLY_IN; sg <= TS_SIG_DURATION; sg++)
		if (v->signal[sg] != TS_PSTAGE_UNKNOWN)
			v->votes[v->signal[sg]] += weight[sg];
	tally(v);
}
