/*
 * unit.c - a pass's layers from the repetition of its kernel stream: the
 * kernels as dense keys (unit_keys.c), the anchors (a kernel that runs
 * once per layer at one spacing) and their grids (unit_grid.c), the
 * segments between anchors judged alike, then the layout: the phase
 * (unit_phase.c), the boundaries, the edges.
 */
#include "analysis/structure/unit_int.h"
#include "input/base/hash.h"

#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>


/* Likeness (longest common subsequence over the longer length) a segment
 * kind needs to the reference kind: kinds in runs (a hybrid's linear
 * layers, the first k dense layers), kinds that never repeat back to back
 * (half layers do that, so nearly the same), and kinds that each hold one
 * attention run by name (a dense and a MoE layer, alternating). */
#define THETA_RUNS 0.30
#define THETA_ALT 0.75
#define THETA_NAMED 0.20
#define THETA_MIXER 0.05
#define THETA_SHARED 0.50
#define WHOLE 0.50              /* an edge unit with less is no layer */
#define MAX_KINDS 64            /* segment kinds judged */
#define MAX_TPL 16              /* edge templates tried */
#define EDGE_REPS 8             /* layers grown at an edge, at most */

ts_unit *ts_unit_new(void)
{
	return calloc(1, sizeof(ts_unit));
}

void ts_unit_free(ts_unit *u)
{
	if (!u)
		return;
	free(u->id);
	free(u->cnt);
	free(u->off);
	free(u->first);
	free(u->fill);
	free(u->cls);
	free(u->inref);
	free(u->pos);
	free(u->htab);
	free(u->hkey);
	free(u->byc);
	free(u->gh);
	free(u->cands);
	free(u->kind);
	free(u->B);
	free(u->start);
	free(u->end);
	free(u->dp);
	free(u->map);
	ts_unit_memo_free(&u->memo);
	ts_unit_fold_free(u);
	free(u->dir);
	free(u);
}

/* ------------------------------------------------------------ the phase */

/* ------------------------------------------------------------ the grid */

typedef struct {
	const uint32_t *o;       /* anchor positions */
	size_t no;
	uint32_t nblock;         /* the anchor's block: keys run in a row */
	uint32_t ref;            /* the reference segment (index) */
	double worst;
	uint32_t nkinds;
	uint32_t kinds[MAX_KINDS]; /* first segment of each kind */
} grid;

static slice seg_of(const ts_unit *u, const uint32_t *o, size_t j)
{
	return (slice){ u->id + o[j], o[j + 1] - o[j], o[j] };
}

static uint64_t slice_hash(slice s)
{
	uint64_t h = TS_HASH_GOLDEN ^ s.n;
	for (uint32_t i = 0; i < s.n; i++)
		h = ts_hash_u64(h ^ s.k[i]);
	return h;
}

/* Attention runs in a segment, and whether every attention kernel in it
 * runs more than once in the pass (a once-per-pass planner is no mixer). */
static uint32_t attn_runs(const ts_unit *u, slice s, bool *repeats)
{
	uint32_t runs = 0;
	bool prev = false;
	for (uint32_t i = 0; i < s.n; i++) {
		bool a = (u->mark[s.at + i] & TS_UNIT_ATTN) != 0;
		if (a && !prev)
			runs++;
		if (a && u->cnt[s.k[i]] < 2)
			*repeats = false;
		prev = a;
	}
	return runs;
}

/* Does s hold both a full attention and a linear-attention (or SSM)
 * mixer by name? (A linear mixer's conv and recurrence may run apart,
 * its gating between: two runs of one kind of mixer may be one layer.) */
static bool holds_both(const ts_unit *u, slice s)
{
	bool full = false, linear = false;
	for (uint32_t i = 0; i < s.n; i++) {
		uint8_t m = u->mark[s.at + i];
		full |= (m & (TS_UNIT_ATTN | TS_UNIT_LINEAR)) == TS_UNIT_ATTN;
		linear |= (m & TS_UNIT_LINEAR) != 0;
	}
	return full && linear;
}

/* The segments lo..hi-1 between anchors: every kind like the most common
 * one (see the THETA_* above). Fills g's kinds, reference and worst. */
/* Kinds that differ by a kernel or two are one kind (Inductor names a
 * fused norm by its place in a hybrid's period): do two such segments run
 * back to back? Then the kinds come in runs. */
static bool near_runs(ts_unit *u, const grid *g, size_t lo, size_t hi)
{
	uint32_t canon[MAX_KINDS];
	for (uint32_t k = 0; k < g->nkinds; k++) {
		canon[k] = k;
		slice a = seg_of(u, g->o, g->kinds[k]);
		for (uint32_t j = 0; j < k && canon[k] == k; j++) {
			slice b = seg_of(u, g->o, g->kinds[j]);
			uint32_t d = a.n > b.n ? a.n - b.n : b.n - a.n;
			if (d <= 2 && ts_unit_likeness(u, a, b) >= NEAR)
				canon[k] = canon[j];
		}
	}
	for (size_t j = lo + 1; j < hi; j++)
		if (canon[u->kind[j - 1]] == canon[u->kind[j]])
			return true;
	return false;
}

/* Two kinds of layer that share a block of kernels in a row: at least
 * half alike (THETA_SHARED), the block five kernels and half the shorter
 * kind at least (a mixer both run: norm, projection, mixer, projection,
 * add; an attention half and an MLP half of one layer share four at most,
 * the output GEMM, its all-reduce, the next norm and GEMM). */
/* Does segment s hold a kernel of mark m by name? */
static bool holds(const ts_unit *u, slice s, uint8_t m)
{
	for (uint32_t i = 0; i < s.n; i++)
		if (u->mark[s.at + i] & m)
			return true;
	return false;
}

static bool shares(ts_unit *u, slice a, slice b, bool names, bool known)
{
	uint32_t shorter = a.n < b.n ? a.n : b.n, ia = 0;
	uint32_t run = ts_unit_run_at(u, a, b, &ia, NULL), held = run;
	/* where no name knows a mixer or MLP work in the layers (a graph
	 * replayed them with no op to name them), the anchor inside the
	 * shared block may cut it in two: the segments' common head and
	 * common tail are that block, in a row around the anchor (a dense
	 * and a MoE layer, the anchor in their attention). Where names know
	 * them, they say which segments are whole layers (below): an
	 * attention half and an MLP half share the output GEMM, its
	 * all-reduce, the next norm and their quantizations around it. */
	if (!known) {
		uint32_t head = 0, tail = 0;
		while (head < shorter && a.k[head] == b.k[head])
			head++;
		while (head + tail < shorter && a.k[a.n - 1 - tail] == b.k[b.n - 1 - tail])
			tail++;
		held = head + tail > run ? head + tail : run;
	}
	if (held < 5 || 2 * held < shorter)
		return false;
	/* by name, each is a whole layer, its MLP work in it (an activation,
	 * the experts): an attention half, which has none, and an MLP half
	 * share an unfused norm (HF eager: eight kernels in a row) */
	if (names && known && !(holds(u, a, TS_UNIT_MLP) && holds(u, b, TS_UNIT_MLP)))
		return false;
	/* the mixer itself in the run: two whole layers, however long the
	 * one's expert loop (an eager MoE prefill runs a GEMM pair for every
	 * expert that got tokens: five times the dense layer's length) */
	slice run_a = { a.k + ia, run, a.at + ia };
	if (names && holds(u, run_a, TS_UNIT_ATTN))
		return true;
	return ts_unit_likeness(u, a, b) >= THETA_SHARED;
}

/* One layer that runs the anchor twice (an attention layer whose output
 * projection is the MLP's GEMM) is two short segments in a row, neither
 * like the reference, the two together as long as it and more alike. */
static bool split_pair(ts_unit *u, slice a, slice b, slice r)
{
	uint32_t tol = r.n / 4 > 2 ? r.n / 4 : 2;
	uint32_t n = a.n + b.n, d = n > r.n ? n - r.n : r.n - n;
	if (d > tol)
		return false;
	slice both = { a.k, n, a.at };
	double l = ts_unit_likeness(u, both, r);
	return l > ts_unit_likeness(u, a, r) && l > ts_unit_likeness(u, b, r);
}

/* Against the reference, or, where the two pieces are as common as it
 * (each once in a short pass: the reference may be a piece), against
 * any third kind at least as common. */
static bool split_layer(ts_unit *u, const grid *g, const uint32_t *cnt, size_t lo, size_t hi)
{
	for (size_t j = lo; j + 1 < hi; j++) {
		uint32_t ka = u->kind[j], kb = u->kind[j + 1];
		if (ka == kb)
			continue;
		slice a = seg_of(u, g->o, j), b = seg_of(u, g->o, j + 1);
		uint32_t most = cnt[ka] > cnt[kb] ? cnt[ka] : cnt[kb];
		bool tied = cnt[u->kind[g->ref]] <= most;
		for (uint32_t k = 0; k < g->nkinds; k++) {
			bool is_ref = g->kinds[k] == g->ref;
			if (k == ka || k == kb || (!is_ref && (!tied || cnt[k] < most)))
				continue;
			if (split_pair(u, a, b, seg_of(u, g->o, g->kinds[k])))
				return true;
		}
	}
	return false;
}

/* Does every kind of the grid hold a kernel marked m? */
static bool kinds_hold(const ts_unit *u, const grid *g, uint8_t m)
{
	for (uint32_t k = 0; k < g->nkinds; k++)
		if (!holds(u, seg_of(u, g->o, g->kinds[k]), m))
			return false;
	return true;
}

/* Does the anchor's block (its first run) hold the mixer by name? */
static bool block_mixer(const ts_unit *u, const grid *g)
{
	for (uint32_t i = 0; i < g->nblock && g->o[0] + i < u->n; i++)
		if (u->mark[g->o[0] + i] & TS_UNIT_ATTN)
			return true;
	return false;
}

static bool accept(ts_unit *u, grid *g, size_t lo, size_t hi, bool names)
{
	uint64_t hk[MAX_KINDS];
	uint32_t cnt[MAX_KINDS] = { 0 };
	uint32_t minlen = UINT32_MAX, maxlen = 0;
	bool alternate = true, named = names, several = false;
	g->nkinds = 0;
	if (!ts_unit_grow(&u->kind, &u->kind_cap, g->no, sizeof *u->kind))
		return false;
	for (size_t j = lo; j < hi; j++) {
		slice s = seg_of(u, g->o, j);
		if (s.n < 2)
			return false;
		minlen = s.n < minlen ? s.n : minlen;
		maxlen = s.n > maxlen ? s.n : maxlen;
		uint64_t h = slice_hash(s);
		uint32_t k = 0;
		while (k < g->nkinds && !(hk[k] == h && ts_unit_same(s, seg_of(u, g->o, g->kinds[k]))))
			k++;
		if (k == g->nkinds) {
			if (k == MAX_KINDS)
				return false;   /* no repeating unit worth the name */
			hk[k] = h;
			g->kinds[g->nkinds++] = (uint32_t)j;
		}
		cnt[k]++;
		u->kind[j] = k;
		if (j > lo && u->kind[j - 1] == k)
			alternate = false;
		if (names) {
			bool rep = true;
			named &= attn_runs(u, s, &rep) == 1 && rep;
			several |= holds_both(u, s);
		}
	}
	/* named: each segment holds one attention run by name, and its own:
	 * a run the anchor cut in two (one kernel both a layer's projection
	 * and inside its attention) is one mixer for two segments */
	if (named && hi > lo) {
		bool rep = true;
		slice all = { u->id + g->o[lo], g->o[hi] - g->o[lo], g->o[lo] };
		named = attn_runs(u, all, &rep) == hi - lo;
	}
	/* a layer has one mixer: where a segment holds a full attention and
	 * a linear one by name, it is several layers (a hybrid's layers
	 * alternating, or its full attention layer between two anchors of
	 * the linear ones), never one: the anchor is not once a layer */
	if (several)
		return false;
	uint32_t modal = 0;
	for (uint32_t k = 1; k < g->nkinds; k++)
		if (cnt[k] > cnt[modal])
			modal = k;
	g->ref = g->kinds[modal];
	g->worst = 1.0;
	if (g->nkinds == 1)
		return true;
	if (split_layer(u, g, cnt, lo, hi))
		return false;
	if (alternate && g->nkinds > 2)
		alternate = !near_runs(u, g, lo, hi);
	double theta = alternate ? THETA_ALT : THETA_RUNS;

	/* each kind one mixer by name: within 60% of each other's length, or
	 * any length where the anchor is the mixer itself (a layer has one
	 * mixer; an eager MoE block's expert loop runs as many GEMMs as
	 * experts got tokens, so its layers' lengths vary); and of any
	 * likeness where the anchor's block holds the mixer and every kind
	 * MLP work by name (every segment begins with the block, and half
	 * layers hold no MLP in one half) */
	if (named && (5 * (uint64_t)minlen >= 3 * (uint64_t)maxlen ||
		      (u->mark[g->o[lo]] & TS_UNIT_ATTN)))
		theta = THETA_NAMED;
	if (named && block_mixer(u, g) && kinds_hold(u, g, TS_UNIT_MLP))
		theta = THETA_MIXER;
	bool ok[MAX_KINDS] = { false };
	ok[modal] = true;
	slice r = seg_of(u, g->o, g->ref);
	for (uint32_t k = 0; k < g->nkinds; k++) {
		if (k == modal)
			continue;
		double l = ts_unit_likeness(u, seg_of(u, g->o, g->kinds[k]), r);
		ok[k] = l >= theta;
		if (l < g->worst)
			g->worst = l;
	}
	/* in turn, two kinds that share a mixer (a dense and a MoE layer)
	 * hold it in a row: half the shorter one at least; a hybrid's third
	 * kind may share its MLP with one such */
	bool known = false;
	for (uint32_t i = g->o[lo]; names && i < g->o[hi] && !known; i++)
		known = (u->mark[i] & (TS_UNIT_ATTN | TS_UNIT_MLP)) != 0;
	for (bool more = alternate; more;) {
		more = false;
		for (uint32_t k = 0; k < g->nkinds; k++)
			for (uint32_t j = 0; j < g->nkinds && !ok[k]; j++)
				if (ok[j] && shares(u, seg_of(u, g->o, g->kinds[k]), seg_of(u, g->o, g->kinds[j]),
						    names, known))
					more = ok[k] = true;
	}
	for (uint32_t k = 0; k < g->nkinds; k++)
		if (!ok[k])
			return false;
	return true;
}

/* ------------------------------------------------------------ layers */

/* Templates an edge walk tries: what runs in each kind of segment from a
 * layer's start to the anchor (heads) or from the anchor to the end
 * (tails); and which one each segment gave, by its index modulo a period
 * p, while the segments keep to it (dense and MoE layers alternating:
 * p = 2), so that an edge walks the one its place calls for. */
#define MAX_PERIOD 4

typedef struct {
	slice t[MAX_TPL];
	size_t n;
	uint8_t res[MAX_PERIOD + 1][MAX_PERIOD];   /* template + 1; 0: none yet */
	bool broken[MAX_PERIOD + 1];
	size_t nseg;
} tpls;

static void tpl_add(tpls *ts, slice s, size_t seg)
{
	size_t i = 0;
	while (i < ts->n && !ts_unit_same(ts->t[i], s))
		i++;
	if (i == ts->n && ts->n < MAX_TPL)
		ts->t[ts->n++] = s;
	for (size_t p = 1; p <= MAX_PERIOD; p++) {
		uint8_t *r = &ts->res[p][seg % p];
		if (i == MAX_TPL || (*r && *r != i + 1))
			ts->broken[p] = true;
		else
			*r = (uint8_t)(i + 1);
	}
	ts->nseg++;
}

/* The template segment seg (-1: the one before the first) calls for, by
 * the shortest period the segments kept twice at least; -1: any. */
static int tpl_due(const tpls *ts, long seg)
{
	for (long p = 1; p <= MAX_PERIOD; p++) {
		if (ts->broken[p] || ts->nseg < 2 * (size_t)p)
			continue;
		uint8_t r = ts->res[p][((seg % p) + p) % p];
		return r ? r - 1 : -1;
	}
	return -1;
}

/* Does key k run between the grid's first and last anchor (layer work of
 * some kind, where a head's kernels run before it)? */
static bool in_grid(const ts_unit *u, uint32_t k)
{
	const uint32_t *p = u->pos + u->off[k];   /* ascending */
	for (uint32_t j = 0; j < u->cnt[k] && p[j] < u->grid_hi; j++)
		if (p[j] > u->grid_lo)
			return true;
	return false;
}

/* The best of the templates walked from frm: kernels covered, at most
 * most where one fits (a boundary between two anchors stays between
 * them: a long template would otherwise win by matching the next layer's
 * kernels past its own end; where none fits, the next anchor is a kernel
 * of the head or tail); seg: the segment, whose template the period may
 * call for (tpl_due). first: the walk finds the pass's first layer, which
 * may miss kernels of the others or run one of its own first: unless a
 * name says the walk reached its input norm, it takes up to the
 * template's length of kernels the layers run (the reference's; without
 * names, any that runs between the grid's anchors: a norm the attention
 * layers run for their QK-norm) or that run once. */
static uint32_t best_walk(ts_unit *u, const tpls *ts, size_t frm, int step, bool names, bool first,
			  long seg, uint32_t most)
{
	int due = tpl_due(ts, seg);
	walked best = { 0, 0, INT32_MIN }, over = best;
	if (step < 0 ? frm >= u->n : frm > u->n)
		return 0;        /* nothing before the pass's first kernel */
	for (size_t i = 0; i < ts->n; i++) {
		if (due >= 0 && i != (size_t)due)
			continue;
		uint32_t L = ts->t[i].n;
		walked w = { 0, 0, 0 };
		if (L) {
			/* a kernel of the same class only stands in for the first
			 * layer's own first kernels (a norm with no residual yet):
			 * forward, it would take the LM head's GEMM for a layer's */
			w = ts_unit_walk(u, (tpl){ ts->t[i], step < 0 }, frm, step, L, names && step < 0);
			/* by name, a first layer the walk found its input norm for
			 * is whole */
			bool normed = names && w.keys && frm + 1 >= w.keys &&
				      (u->mark[frm + 1 - w.keys] & TS_UNIT_NORM);
			if (first && step < 0 && !normed) {
				/* up to a layer's length: layer kernels and the first
				 * layer's own (they run once in the pass) */
				while (w.keys < L && frm >= w.keys &&
				       (u->inref[u->id[frm - w.keys]] || u->cnt[u->id[frm - w.keys]] == 1 ||
					(!names && in_grid(u, u->id[frm - w.keys]))))
					w.keys++;
			}
		}
		walked *b = w.keys <= most ? &best : &over;
		if (w.score > b->score)
			*b = w;
	}
	if (best.score == INT32_MIN)   /* the next anchor is the tail's */
		return over.score == INT32_MIN ? 0 : over.keys;
	return best.keys;
}

/* The boundary in segment j (a layer starts there), as an offset. */
static uint32_t boundary(ts_unit *u, const grid *g, size_t j, uint32_t beta, bool by_names,
			 int32_t *own)
{
	slice s = seg_of(u, g->o, j), r = seg_of(u, g->o, g->ref);
	if (ts_unit_same(s, r))
		return beta;
	uint32_t k = u->kind[j];
	if (by_names && k < MAX_KINDS && u->kind[g->kinds[k]] == k) {
		if (own[k] == -2) {
			int32_t b = ts_unit_names_beta(u, s);
			own[k] = b < 0 ? -1 : b ? b : (int32_t)s.n;
		}
		if (own[k] > 0)
			return (uint32_t)own[k];
	}
	uint32_t L = r.n, b = UINT32_MAX;
	if (ts_unit_lcs_map(u, r, s)) {
		for (uint32_t c = beta; c < L && b == UINT32_MAX; c++)
			if (u->map[c] != UINT32_MAX)
				b = u->map[c] >= c - beta ? u->map[c] - (c - beta) : 0;
		for (uint32_t c = beta; b == UINT32_MAX && c-- > 0;)
			if (u->map[c] != UINT32_MAX)
				b = u->map[c] + 1 + (beta - 1 - c);
	}
	if (b == UINT32_MAX)
		b = (uint32_t)((uint64_t)beta * s.n / L);
	b = b < 1 ? 1 : b > s.n ? s.n : b;
	return ts_unit_near_pair(s, r, beta % L, b);
}

bool ts_unit_out_room(ts_unit *u, size_t n)
{
	if (n <= u->out_cap)
		return true;
	size_t cap = u->out_cap;
	uint32_t *s = u->start, *e = u->end;
	if (!ts_unit_grow(&s, &cap, n, sizeof *s))
		return false;
	u->start = s;
	size_t cap2 = u->out_cap;
	if (!ts_unit_grow(&e, &cap2, n, sizeof *e))
		return false;
	u->end = e;
	u->out_cap = cap < cap2 ? cap : cap2;
	return true;
}

/* Does unit a run a layer's block in a row: five kernels of b together, a
 * third of the shorter at least? A first-k dense layer runs the attention block of
 * the MoE layers after it (norm, projections, mixer, output projection)
 * and an MLP of its own; a head (metadata, the embedding) or a tail (final
 * norm, LM head, sampler) runs two or three of a layer's kernels. */
static bool runs_block(ts_unit *u, slice a, slice b)
{
	uint32_t run = ts_unit_common_run(u, a, b), shorter = a.n < b.n ? a.n : b.n;
	return run >= 5 && 3 * (uint64_t)run >= shorter;
}

/* Is unit x at least half like one of the layers between the edges, or,
 * the first, does it run a block of one of them (runs_block: a first-k
 * dense layer; the last may be the tail, whose final norm, unfused, runs
 * a layer's norm kernels in a row)? */
static bool whole(ts_unit *u, size_t nl, size_t x)
{
	size_t lo = nl > 2 ? 1 : 0, hi = nl > 2 ? nl - 1 : nl, tried = 0;
	slice a = { u->id + u->start[x], u->end[x] - u->start[x], u->start[x] };
	for (size_t i = lo; i < hi && tried < 8; i++) {
		if (i == x)
			continue;
		slice b = { u->id + u->start[i], u->end[i] - u->start[i], u->start[i] };
		bool seen = false;
		for (size_t j = lo; j < i && !seen; j++)
			seen = j != x && ts_unit_same(b, (slice){ u->id + u->start[j], u->end[j] - u->start[j], 0 });
		if (seen)
			continue;
		tried++;
		if (ts_unit_likeness(u, a, b) >= WHOLE || (x == 0 && runs_block(u, a, b)))
			return true;
	}
	return tried == 0;
}

bool ts_unit_put_edge(ts_unit *u, size_t nl, int side, size_t from, size_t to)
{
	if (!ts_unit_out_room(u, nl + 1))
		return false;
	size_t at = side ? nl : 0;
	if (!side) {
		memmove(u->start + 1, u->start, nl * sizeof *u->start);
		memmove(u->end + 1, u->end, nl * sizeof *u->end);
	}
	u->start[at] = (uint32_t)from;
	u->end[at] = (uint32_t)to;
	return true;
}

/* Does the piece [from, to) begin at a norm by name (past its cast)? */
bool ts_unit_normed_at(const ts_unit *u, size_t from, size_t to)
{
	for (size_t i = from; i < to && i < from + 3; i++) {
		if (u->mark[i] & TS_UNIT_NORM)
			return true;
		if (!(u->mark[i] & TS_UNIT_COPY))
			return false;
	}
	return false;
}

/* A first-k dense layer just before kernel at: it runs kind k's attention
 * block in a row (five kernels, a third of it at least: a head runs no
 * five of a layer's kernels in a row), placed as k's start would be
 * against that run, and, by name, holds a mixer of its own. Its MLP
 * differs from k's (dense, not MoE), so no walk of k's kernels reaches
 * its start: the run nearest at says where it is. The kernels taken, or
 * 0; *prun, the run's length. */
static uint32_t dense_first(ts_unit *u, size_t at, slice k, bool names, uint32_t *prun)
{
	size_t lo = at > k.n + BAND ? at - k.n - BAND : 0;
	slice w = { u->id + lo, (uint32_t)(at - lo), (uint32_t)lo };
	uint32_t ia, ib, run = ts_unit_run_at(u, w, k, &ia, &ib);
	*prun = run;
	if (run < 5 || ia < ib)
		return 0;
	slice c = { w.k + (ia - ib), w.n - (ia - ib), w.at + (ia - ib) };
	if (3 * (uint64_t)run < (c.n < k.n ? c.n : k.n))
		return 0;
	for (uint32_t i = 0; names && i < c.n; i++)
		if (u->mark[c.at + i] & TS_UNIT_ATTN)
			return c.n;
	return names ? 0 : c.n;
}

/* The first-k dense layer before kernel at by the layer kind (of all the
 * pass's, the edges' too: a hybrid's dense layers run its mixers in turn)
 * whose block it runs longest; 0 when none. */
static uint32_t dense_before(ts_unit *u, const tpls *all, size_t at, bool names)
{
	uint32_t keys = 0, best = 0;
	for (size_t i = 0; i < all->n; i++) {
		uint32_t run, k = dense_first(u, at, all->t[i], names, &run);
		if (k && run > best) {
			best = run;
			keys = k;
		}
	}
	return keys;
}

/* A walked unit holds as many runs of the kernel its kind begins with as
 * the kind does: more, and it walked over the start of another layer (two
 * first-k dense layers, shorter than the kind, taken as one). Where no
 * name or op says where its mixers are, the unit keeps the layer beside
 * the ones laid out: from the kind's count of runs before at (side 0), or up to
 * the run after them (side 1). */
static bool one_layer(const ts_unit *u, slice kind, int side, size_t *pfrom, uint32_t *pkeys)
{
	uint32_t k0 = kind.k[0], want = 0, seen = 0;
	for (uint32_t i = 0; i < kind.n; i++)
		want += kind.k[i] == k0;
	size_t from = *pfrom, to = from + *pkeys;
	if (!side) {
		for (size_t i = to; i-- > from;)
			if (u->id[i] == k0 && ++seen == want + 1) {
				*pfrom = i + 1;
				while (*pfrom < to && u->id[*pfrom] != k0)
					(*pfrom)++;
				break;
			}
	} else {
		for (size_t i = from; i < to; i++)
			if (u->id[i] == k0 && ++seen == want + 1) {
				to = i;
				break;
			}
	}
	bool cut = to - *pfrom < *pkeys;
	*pkeys = (uint32_t)(to - *pfrom);
	return cut;
}

/* The unit walked from kernel at (side 0: backward, before the first
 * layer; 1: forward, after the last) with the inner layers' kinds, when
 * it holds at least half a layer and is like its kind (WHOLE). */
static bool edge_unit(ts_unit *u, const tpls *kinds, size_t at, int side, bool names,
		      size_t *pfrom, uint32_t *pkeys, bool *pcut)
{
	walked best = { 0, 0, INT32_MIN };
	slice bk = { 0 };
	for (size_t i = 0; i < kinds->n; i++) {
		walked w = ts_unit_walk(u, (tpl){ kinds->t[i], !side }, side ? at : at - 1,
					side ? 1 : -1, kinds->t[i].n, names);
		if (w.score > best.score) {
			best = w;
			bk = kinds->t[i];
		}
	}
	if (best.score == INT32_MIN || 2 * best.keys < bk.n)
		return false;
	/* a first layer's own first kernel (a norm with no residual yet) runs
	 * once in the pass: taken unless names say the walk began at the
	 * layer's norm, or name the kernel */
	if (!side && best.keys < bk.n && at > best.keys &&
	    (!names || (!u->mark[at - 1 - best.keys] && !ts_unit_normed_at(u, at - best.keys, at))) &&
	    u->cnt[u->id[at - 1 - best.keys]] == 1)
		best.keys++;
	size_t from = side ? at : at - best.keys;
	/* a kernel of the same class before the layer's own first kernel
	 * stands in for nothing (an embedding before the input norm's copy) */
	if (!side && best.keys > 1 && u->id[from] != bk.k[0] && u->id[from + 1] == bk.k[0]) {
		from++;
		best.keys--;
	}
	*pcut = (!names || !holds(u, (slice){ u->id + from, best.keys, (uint32_t)from }, TS_UNIT_ATTN)) &&
		one_layer(u, bk, side, &from, &best.keys);
	*pfrom = from;
	*pkeys = best.keys;
	return ts_unit_likeness(u, (slice){ u->id + from, best.keys, (uint32_t)from }, bk) >= WHOLE;
}

/* Layers the anchors missed at the edges: a first (or last) layer whose
 * kernels differ from the others' where the anchor runs (Inductor names
 * the first graph piece apart), so no anchor falls in it: a unit walked
 * from the edge (edge_unit), or before the first layer a first-k dense
 * one (dense_first); up to EDGE_REPS a side (a model's first three
 * layers dense before its MoE ones, all three laid out from the walk). */
static bool grow_edges(ts_unit *u, size_t *pnl, bool names)
{
	size_t nl = *pnl;
	/* two layers laid out leave no inner one to walk by, but a first-k
	 * dense layer before them (dense_first) is still found (a dense layer
	 * before two MoE ones) */
	if (nl < 2)
		return true;
	tpls kinds = { .n = 0 }, all = { .n = 0 };
	for (size_t i = 0; i < nl; i++) {
		slice s = { u->id + u->start[i], u->end[i] - u->start[i], u->start[i] };
		if (i && i + 1 < nl)
			tpl_add(&kinds, s, i);
		tpl_add(&all, s, i);
	}
	bool took = false;
	for (int side = 0; side < 2; side++) {
		for (int rep = 0; rep < EDGE_REPS; rep++) {
			size_t at = side ? u->end[nl - 1] : u->start[0], from = 0;
			uint32_t keys = 0;
			if (side ? at >= u->n : at == 0)
				break;
			bool cut = false;
			bool ok = edge_unit(u, &kinds, at, side, names, &from, &keys, &cut);
			took |= ok && !side;
			/* a walked unit may be half a layer (WHOLE), whose other
			 * half runs before it: no dense layer there */
			if (!ok && !side && !took) {
				keys = dense_before(u, &all, at, names);
				from = at - keys;
				ok = keys > 0;
			}
			if (ok && !side && names) {
				from = ts_unit_named_start(u, from, at, keys / 2);
				keys = (uint32_t)(at - from);
			}
			/* by name a walked unit that holds two layers' mixers
			 * is two layers: the later begins at its input norm */
			size_t lo = side ? at : from, hi = side ? at + keys : at, mid = 0;
			if (ok && names && ts_unit_two_mixers(u, lo, hi)) {
				mid = ts_unit_later_start(u, lo, hi);
				if (!mid)
					break;
			}
			if (!ok)
				break;
			if (mid) {
				/* the one beside the layers laid out first */
				if (!ts_unit_put_edge(u, nl, side, side ? lo : mid, side ? mid : hi))
					break;
				nl++;
				lo = side ? mid : lo;
				hi = side ? hi : mid;
			}
			if (!ts_unit_put_edge(u, nl, side, lo, hi))
				break;
			nl++;
			/* a layer cut from a walk over two is of a kind of its
			 * own: the next one beside it is walked by it too */
			if (cut && kinds.n < MAX_TPL)
				kinds.t[kinds.n++] = (slice){ u->id + lo, (uint32_t)(hi - lo), (uint32_t)lo };
		}
	}
	*pnl = nl;
	return true;
}

/* The last layer runs up to the tail, which begins with the final norm:
 * the kernel a layer begins with, or a norm by name. A last layer of
 * another kind than the reference (its MoE after the dense ones) holds the
 * kernels the walk left before that norm, within a layer's length, when
 * they hold layer work by name (a GEMM, MLP work) or are three at least:
 * a planner the pass runs once before its final norm is the tail's, and
 * by name bookkeeping never ends the last layer. */
static void reach_tail(ts_unit *u, size_t nl, bool names, uint32_t L)
{
	uint32_t s = u->start[nl - 1], e = u->end[nl - 1], k0 = u->id[s];
	bool work = false;
	for (size_t p = e; p < u->n && p < (size_t)e + L; p++) {
		if (u->id[p] == k0 || (names && (u->mark[p] & TS_UNIT_NORM))) {
			if (names && p > e && (u->mark[p - 1] & TS_UNIT_COPY))
				p--;
			if (work || p >= (size_t)e + 3)
				u->end[nl - 1] = (uint32_t)p;
			break;
		}
		work |= names && (u->mark[p] & (TS_UNIT_GEMM | TS_UNIT_MLP));
	}
	while (names && u->end[nl - 1] > s + 1 && (u->mark[u->end[nl - 1] - 1] & TS_UNIT_META))
		u->end[nl - 1]--;
}

/* Does the pass begin (side 0) or end (1) inside a layer? Its head or tail
 * is then, all of it, the end or the start of a layer, a third of one at
 * least; a real head (metadata, the embedding) or tail (final norm, LM
 * head, sampler) is not. */
static bool cut_edge(ts_unit *u, size_t nl, bool names, int side)
{
	size_t len = side ? u->n - u->end[nl - 1] : u->start[0], at = side ? u->end[nl - 1] : 0;
	if (len < 2 || nl < 2)
		return false;
	/* a final norm alone repeats a layer's first kernels: a third of a
	 * layer at least, and by name some GEMM or attention work */
	if (3 * len < u->end[0] - u->start[0])
		return false;
	bool work = !names;
	for (size_t i = at; i < at + len && !work; i++)
		work = (u->mark[i] & (TS_UNIT_GEMM | TS_UNIT_ATTN)) != 0;
	if (!work)
		return false;
	for (size_t i = 0; i < nl; i++) {
		slice t = { u->id + u->start[i], u->end[i] - u->start[i], u->start[i] };
		if (t.n <= len)
			continue;
		walked w = ts_unit_walk(u, (tpl){ t, !side }, side ? u->end[nl - 1] : u->start[0] - 1,
				side ? 1 : -1, (uint32_t)len + BAND < t.n ? (uint32_t)len + BAND : t.n, names);
		if (w.keys != len)
			continue;
		slice part = side ? (slice){ t.k, (uint32_t)len, t.at }
				  : (slice){ t.k + t.n - len, (uint32_t)len, t.at };
		slice edge = side ? (slice){ u->id + u->end[nl - 1], (uint32_t)len, u->end[nl - 1] }
				  : (slice){ u->id, (uint32_t)len, 0 };
		if (ts_unit_likeness(u, edge, part) >= 0.7)
			return true;
	}
	return false;
}

/* By name, does unit s run MLP work, then a norm, before its mixer (a
 * layer's input norm, projections and mixer come before its MLP)? Units
 * cut so begin inside one layer and end inside the next: a hybrid's
 * kernel that its state-space layers run twice (their input projection
 * and their MLP's on one GEMM tile) and its attention layers never, as
 * an anchor, cuts the period in two at a column no layer starts at. */
static bool mlp_first(const ts_unit *u, slice s)
{
	bool mlp = false, norm = false;
	for (uint32_t i = 0; i < s.n; i++) {
		uint8_t m = u->mark[s.at + i];
		if (m & TS_UNIT_ATTN)
			return mlp && norm;
		norm |= mlp && (m & TS_UNIT_NORM);
		mlp |= (m & TS_UNIT_MLP) != 0;
	}
	return false;
}

/* Do most units holding a mixer run MLP work before it (mlp_first)? */
static bool off_phase(const ts_unit *u, size_t v)
{
	size_t off = 0, with = 0;
	for (size_t i = 0; i < v; i++) {
		slice s = { u->id + u->start[i], u->end[i] - u->start[i], u->start[i] };
		bool repeats = true;
		if (!attn_runs(u, s, &repeats))
			continue;
		with++;
		off += mlp_first(u, s);
	}
	return with >= 2 && 2 * off > with;
}

/* The units of grid g laid out with the phase beta: the boundaries
 * between inner anchors, the edge ones walked against the layers' own
 * starts and ends (heads and tails), and each unit's start and end in
 * u->start, u->end (one per anchor); false when they do not nest. */
static bool place(ts_unit *u, const grid *g, uint32_t beta, bool by_names, bool names)
{
	const uint32_t *o = g->o;
	size_t v = g->no;
	slice r = seg_of(u, o, g->ref);
	memset(u->inref, 0, u->nk);
	for (uint32_t i = 0; i < r.n; i++)
		u->inref[r.k[i]] = 1;
	if (!ts_unit_grow(&u->B, &u->B_cap, v, sizeof *u->B) || !ts_unit_out_room(u, v))
		return false;
	int32_t own[MAX_KINDS];
	for (size_t k = 0; k < MAX_KINDS; k++)
		own[k] = -2;
	bool edges = v >= 4;
	size_t jlo = edges ? 2 : 1, jhi = edges ? v - 1 : v;
	tpls heads = { .n = 0 }, tails = { .n = 0 };
	for (size_t j = jlo; j < jhi; j++) {
		uint32_t off = boundary(u, g, j - 1, beta, by_names, own);
		u->B[j - 1] = o[j - 1] + off;
		slice s = seg_of(u, o, j - 1);
		tpl_add(&tails, (slice){ s.k, off, s.at }, j - 1);
		tpl_add(&heads, (slice){ s.k + off, s.n - off, s.at + off }, j - 1);
	}
	if (edges) {
		u->B[0] = o[1] - best_walk(u, &heads, o[1] - 1, -1, names, false, 0, o[1] - o[0] - 1);
		u->B[v - 2] = o[v - 2] + best_walk(u, &tails, o[v - 2], 1, names, false, (long)v - 2,
						 o[v - 1] - o[v - 2]);
		for (size_t e = 0; e < 2; e++) {
			size_t j = e ? v - 2 : 0;
			slice s = { u->id + o[j], o[j + 1] - o[j] + 1, o[j] };
			u->B[j] = o[j] + ts_unit_near_pair(s, r, beta % r.n, u->B[j] - o[j]);
		}
	}
	u->grid_lo = o[0];
	u->grid_hi = o[v - 1];
	u->start[0] = o[0] - best_walk(u, &heads, o[0] - 1, -1, names, true, -1, UINT32_MAX);
	for (size_t j = 1; j < v; j++)
		u->start[j] = u->end[j - 1] = u->B[j - 1];
	u->end[v - 1] = o[v - 1] + best_walk(u, &tails, o[v - 1], 1, names, true, (long)v - 1, UINT32_MAX);
	for (size_t j = 0; j < v; j++)
		if (u->start[j] >= u->end[j] || (j && u->start[j] < u->start[j - 1]) || u->end[j] > u->n)
			return false;
	return true;
}

/* A first layer that came from a plain walk may still miss layer 0's own
 * first kernels: unit j takes the layer kernels before it, up to a
 * layer's length L, and then one that runs once in the pass. */
static void widen_first(ts_unit *u, size_t j, uint32_t L)
{
	uint32_t s = u->start[j];
	int64_t deficit = (int64_t)L - (int64_t)(u->end[j] - s);
	while (deficit > 0 && s > 0 && u->inref[u->id[s - 1]]) {
		s--;
		deficit--;
	}
	if (deficit > 0 && s > 0 && u->cnt[u->id[s - 1]] == 1)
		s--;
	u->start[j] = s;
}

static bool layout(ts_unit *u, grid *g, bool names, size_t tlo, size_t thi, ts_unit_result *out);

/* The layers laid out at phase beta (a column of the reference segment),
 * the boundaries, the edges. */
static bool lay(ts_unit *u, grid *g, bool names, size_t tlo, size_t thi, uint32_t beta,
		bool by_names, ts_unit_result *out)
{
	const uint32_t *o = g->o;
	size_t v = g->no;
	uint32_t L = seg_of(u, o, g->ref).n;
	beta %= L;
	if (beta == 0)
		beta = L;
	if (!place(u, g, beta, by_names, names))
		return false;
	/* a structural phase names would not give: not where the units run
	 * their MLP before their mixer */
	if (names && !by_names && off_phase(u, v))
		return false;
	size_t nl = v;
	/* the edge units against the layers between them: less than half a
	 * layer is no layer (an anchor in the head or tail, or the pass cut) */
	bool cut0 = false, cut1 = false, drop0 = false, drop1 = false;
	size_t first = 0;
	/* a unit with no head before it (or no tail after), shorter than a
	 * layer, is the part of one the profile window cut */
	uint32_t len0 = u->end[0] - u->start[0], lenl = u->end[nl - 1] - u->start[nl - 1];
	bool short0 = u->start[0] == 0 && 10 * (uint64_t)len0 < 9 * (uint64_t)L;
	bool shortl = u->end[nl - 1] >= u->n && 10 * (uint64_t)lenl < 9 * (uint64_t)L;
	if (nl > 1 && (short0 || !whole(u, nl, 0))) {
		drop0 = true;
		/* reaching the pass's first kernel, it is a layer the window
		 * cut when it holds only layer kernels; one with kernels of its
		 * own is the head (an anchor kernel ran there too) */
		cut0 = u->start[0] == 0;
		for (uint32_t i = 0; cut0 && i < u->end[0]; i++)
			cut0 = u->inref[u->id[i]] != 0;
		first = 1;
		/* unless a name says it starts at its input norm */
		if (!names || !(u->mark[u->start[1]] & TS_UNIT_NORM))
			widen_first(u, 1, L);
	}
	if (nl > first && (shortl || (nl - first > 1 && !whole(u, nl, nl - 1)))) {
		drop1 = true;
		/* it reached the pass's end: the window cut a layer there, or,
		 * by name, it is the tail (final norm, LM head) when it holds no
		 * attention or MLP work */
		cut1 = u->end[nl - 1] >= u->n;
		bool work = !names;
		for (uint32_t i = u->start[nl - 1]; cut1 && i < u->end[nl - 1] && !work; i++)
			work = (u->mark[i] & (TS_UNIT_ATTN | TS_UNIT_MLP)) != 0;
		cut1 &= work;
		nl--;
	}
	if (!by_names && tlo == 0 && thi == v && (drop0 || drop1) && v >= 4)
		return layout(u, g, names, drop0 ? 1 : 0, drop1 ? v - 1 : v, out);
	if (nl == first)
		return false;    /* every unit cut: no whole layer */
	memmove(u->start, u->start + first, (nl - first) * sizeof *u->start);
	memmove(u->end, u->end + first, (nl - first) * sizeof *u->end);
	nl -= first;
	if (!grow_edges(u, &nl, names))
		return false;
	if (!cut1)
		reach_tail(u, nl, names, L);
	if (names && !cut1 && !ts_unit_grow_named(u, &nl, L))
		return false;
	if (names)
		ts_unit_join_halves(u, &nl);
	if (names && !ts_unit_split_edges(u, &nl))
		return false;
	/* the edge layers too hold one mixer each (accept checked the ones
	 * between anchors): a last unit walked over a hybrid's full and
	 * linear layer is two layers the anchors missed */
	for (size_t i = 0; names && i < nl; i++)
		if (holds_both(u, (slice){ u->id + u->start[i], u->end[i] - u->start[i], u->start[i] }))
			return false;
	cut0 |= cut_edge(u, nl, names, 0);
	cut1 |= cut_edge(u, nl, names, 1);
	/* a pass has a head (its embedding at least, a kernel no layer
	 * runs): one whose first kernels are all layer kernels began inside
	 * a layer, or at its edge */
	bool headless = true;
	for (uint32_t i = 0; i < u->start[0] && headless; i++)
		headless = u->inref[u->id[i]] != 0;
	cut0 |= headless;
	*out = (ts_unit_result){ .n = nl, .start = u->start, .end = u->end,
				 .cut_start = cut0, .cut_end = cut1, .by_names = by_names,
				 .period = L, .anchors = (uint32_t)v, .worst = g->worst };
	return true;
}

/* Attention kernels by name outside the layers laid out: each layer holds
 * one mixer, so a phase that leaves a layer's in the head or tail is off. */
static size_t mixers_out(const ts_unit *u, const ts_unit_result *r)
{
	size_t k = 0;
	for (size_t i = 0; i < u->n; i++)
		if ((u->mark[i] & TS_UNIT_ATTN) && (i < r->start[0] || i >= r->end[r->n - 1]))
			k++;
	return k;
}

/* Lay the layers out on a grid at the phase the names or the structure
 * give. trim: anchors at the ends left out of the structural phase. Where
 * the structure allows two phases (a short tail: the first layer or the
 * last is of another kind), the one that leaves fewer mixers out of the
 * layers, and no fewer layers, wins. */
static bool layout(ts_unit *u, grid *g, bool names, size_t tlo, size_t thi, ts_unit_result *out)
{
	const uint32_t *o = g->o;
	slice r = seg_of(u, o, g->ref);
	int32_t nb = names ? ts_unit_names_beta(u, r) : -1;
	bool by_names = nb >= 0;
	uint32_t alt = UINT32_MAX, unused;
	uint32_t beta = by_names ? (uint32_t)nb : ts_unit_structural_beta(u, o + tlo, thi - tlo, r, &alt);
	if (by_names && !ts_unit_has_attn(u, r))
		beta = ts_unit_nearest_norm(u, r, ts_unit_structural_beta(u, o + tlo, thi - tlo, r, &unused),
					    beta);
	if (!lay(u, g, names, tlo, thi, beta, by_names, out))
		return false;
	if (!names || alt == UINT32_MAX || alt % r.n == beta % r.n)
		return true;
	size_t n0 = out->n, m0 = mixers_out(u, out);
	if (m0 == 0)
		return true;
	ts_unit_result o2;
	if (lay(u, g, names, tlo, thi, alt, by_names, &o2) && o2.n >= n0 && mixers_out(u, &o2) < m0) {
		*out = o2;
		return true;
	}
	return lay(u, g, names, tlo, thi, beta, by_names, out);
}

/* ------------------------------------------------------------ anchors */

static int u32_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x > y ? -1 : x < y;
}

static bool try_grid(ts_unit *u, const cand *c, bool names, ts_unit_result *out)
{
	uint32_t v = u->cnt[c->key];
	const uint32_t *o = u->pos + u->off[c->key];
	if (!ts_unit_stray_ends(u, &o, &v))
		return false;
	if (v <= 4 && c->nblock < 3)
		return false;    /* few repeats (strays left out): a block of three says so */
	if (v == 3) {
		uint32_t a = o[1] - o[0], b = o[2] - o[1];
		if (5 * (uint64_t)(a < b ? a : b) < 3 * (uint64_t)(a > b ? a : b))
			return false;
	}
	grid g = { .o = o, .no = v, .nblock = c->nblock };
	/* the edge segments may reach into the head or tail (an anchor there:
	 * an embedding all-reduce, a final norm): the inner ones judge, where
	 * there are two at least (one alone is like itself: half layers) */
	size_t nseg = v - 1;
	if (!(nseg >= 4 ? accept(u, &g, 1, nseg - 1, names) : accept(u, &g, 0, nseg, names)))
		return false;
	if (o[g.ref + 1] - o[g.ref] < 4)
		return false;    /* a layer runs four kernels at least: a norm, GEMMs, its mixer */
	return layout(u, &g, names, 0, v, out);
}

bool ts_unit_find(ts_unit *u, const uint32_t *key, const uint8_t *mark, const int64_t *dur,
		  size_t n, ts_unit_result *out)
{
	*out = (ts_unit_result){ 0 };
	if (n < 4 || n > UINT32_MAX / 4)
		return false;
	u->n = n;
	u->dur = dur;
	u->mark = NULL;
	for (size_t i = 0; mark && i < n && !u->mark; i++)
		if (mark[i])
			u->mark = mark;
	bool names = u->mark != NULL;
	/* a decode step runs the same kernels as the one before */
	int memo = ts_unit_memo_find(u, key, u->mark, n, out);
	if (memo >= 0)
		return memo == 1;
	ts_unit_memo_begin(u);
	bool found = ts_unit_search(u, key, names, out);
	found = ts_unit_refold(u, key, found, out);
	ts_unit_memo_end(u, key, u->mark, n, found, out);
	return found;
}

/* The search itself: the layer counts, largest first, and their grids. */
bool ts_unit_search(ts_unit *u, const uint32_t *key, bool names, ts_unit_result *out)
{
	if (!ts_unit_index_keys(u, key))
		return false;
	/* the layer counts to try, largest first */
	uint32_t *vs = u->byc, nv = 0;
	for (uint32_t k = 0; k < u->nk; k++)
		if (u->cnt[k] >= 2)
			vs[nv++] = u->cnt[k];
	qsort(vs, nv, sizeof *vs, u32_desc);
	ts_unit_gkey *gk = malloc((size_t)u->nk * sizeof *gk);
	if (!gk)
		return false;
	bool found = false;
	size_t tries = 0;
	for (uint32_t i = 0; i < nv && !found && tries < TS_UNIT_MAX_TRIES; i++) {
		if (i && vs[i] == vs[i - 1])
			continue;
		size_t nc = 0;
		if (!ts_unit_candidates(u, vs[i], gk, &nc))
			break;
		for (size_t c = 0; c < nc && !found && tries < TS_UNIT_MAX_TRIES; c++) {
			tries++;
			found = try_grid(u, &u->cands[c], names, out);
		}
	}
	free(gk);
	return found;
}
