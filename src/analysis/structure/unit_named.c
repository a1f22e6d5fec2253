/*
 * unit_named.c - layers by name at a pass's edges that no anchor reached:
 * a layer of a kind that runs once (a hybrid's one full-attention layer
 * first or last), or a first layer whose input norm and kernels differ
 * from the others' (a first dense layer before MoE ones), read from the
 * marks alone: a norm, a GEMM, a mixer, MLP work, the next norm.
 */
#include "analysis/structure/unit_int.h"

#include <string.h>

/* Does [from, to) hold, by name, a whole layer's work in its order: a GEMM
 * (the mixer's input projection), then the mixer, then MLP work? */
static bool layer_work(const ts_unit *u, size_t from, size_t to)
{
	int stage = 0;   /* 0: want a GEMM, 1: the mixer, 2: MLP work */
	for (size_t i = from; i < to && stage < 3; i++) {
		uint8_t m = u->mark[i];
		if (stage == 0 && (m & TS_UNIT_GEMM))
			stage = 1;
		else if (stage == 1 && (m & TS_UNIT_ATTN))
			stage = 2;
		else if (stage == 2 && (m & TS_UNIT_MLP))
			stage = 3;
	}
	return stage == 3;
}

/* The nearest norm before kernel from (within lim kernels) from which
 * [norm, at) holds a layer's work in order (layer_work), taken with the
 * cast before it; SIZE_MAX none. one_layer: never past a second mixer
 * (ts_unit_two_mixers of [norm, at)). */
static size_t norm_before(const ts_unit *u, size_t from, size_t at, size_t lim, bool one_layer)
{
	for (size_t q = from; q-- > 0 && from - q <= lim;) {
		if (one_layer && ts_unit_two_mixers(u, q, at))
			break;
		if (!(u->mark[q] & TS_UNIT_NORM) || !layer_work(u, q, at))
			continue;
		if (q > 0 && (u->mark[q - 1] & TS_UNIT_COPY))
			q--;
		return q;
	}
	return SIZE_MAX;
}

/* A layer by name at a pass's edge that no anchor reached, its kind not
 * the others' (a hybrid's one full-attention layer last, a first-k dense
 * layer whose input norm and output copy differ from the MoE layers'):
 * from a norm to the next one, within two layers' length, holding a
 * layer's work in order (layer_work). Before the first layer (side 0) or
 * after the last (1); its bounds, or false. */
static bool named_edge(const ts_unit *u, size_t nl, int side, uint32_t L, size_t *pfrom,
		       size_t *pto)
{
	size_t lim = 2 * (size_t)L;
	if (!side) {
		size_t at = u->start[0];
		/* the layer after it begins at its input norm: a walked edge
		 * unit that took a layer's second half leaves no layer before */
		if (!ts_unit_normed_at(u, at, u->end[0]))
			return false;
		size_t q = norm_before(u, at, at, lim, false);
		if (q == SIZE_MAX)
			return false;
		*pfrom = q;
		*pto = at;
		return true;
	}
	size_t at = u->end[nl - 1];
	if (at >= u->n || !ts_unit_normed_at(u, at, u->n))
		return false;
	for (size_t p = at + 1; p < u->n && p - at <= lim; p++) {
		if (!(u->mark[p] & TS_UNIT_NORM))
			continue;
		if (!layer_work(u, at, p))
			continue;
		if (u->mark[p - 1] & TS_UNIT_COPY)
			p--;
		*pfrom = at;
		*pto = p;
		return true;
	}
	return false;
}

/* Does [from, to) run, by name, a mixer, then MLP work, then a mixer:
 * two layers' mixers (first-k dense layers a unit walked over)? */
bool ts_unit_two_mixers(const ts_unit *u, size_t from, size_t to)
{
	int stage = 0;   /* 0: want a mixer, 1: MLP work, 2: a mixer again */
	for (size_t i = from; i < to; i++) {
		uint8_t m = u->mark[i];
		if (stage == 0 && (m & TS_UNIT_ATTN))
			stage = 1;
		else if (stage == 1 && (m & TS_UNIT_MLP))
			stage = 2;
		else if (stage == 2 && (m & TS_UNIT_ATTN))
			return true;
	}
	return false;
}

/* Where in [from, to), holding two layers' mixers (ts_unit_two_mixers),
 * the later layer begins by name: the input norm before the GEMMs before
 * its mixer (past the norm's cast); 0 where none is after from. */
size_t ts_unit_later_start(const ts_unit *u, size_t from, size_t to)
{
	size_t q = to;
	while (q > from && !(u->mark[q - 1] & TS_UNIT_ATTN))
		q--;
	while (q > from && (u->mark[q - 1] & TS_UNIT_ATTN))
		q--;                 /* the later mixer's run begins at q */
	bool gemm = false;
	for (; q > from; q--) {
		uint8_t m = u->mark[q - 1];
		if (m & (TS_UNIT_ATTN | TS_UNIT_MLP))
			return 0;
		gemm |= (m & TS_UNIT_GEMM) != 0;
		if (gemm && (m & TS_UNIT_NORM)) {
			q--;
			if (q > from && (u->mark[q - 1] & TS_UNIT_COPY))
				q--;
			return q > from ? q : 0;
		}
	}
	return 0;
}

/* A layer walked back from kernel at, that begins at from, begins by name
 * at its input norm: where from is no norm, the nearest norm before it
 * (within lim kernels, past its cast) from which [norm, at) holds a
 * layer's work in order. A walk by another layer's kernels stops short of
 * its start where layers differ in length (an eager MoE loop runs the
 * experts its tokens chose). */
size_t ts_unit_named_start(const ts_unit *u, size_t from, size_t at, size_t lim)
{
	if (ts_unit_normed_at(u, from, at))
		return from;
	/* past another layer's mixer the walk began mid-layer (the layers
	 * laid out begin after their mixer): no start there */
	size_t q = norm_before(u, from, at, lim, true);
	return q == SIZE_MAX ? from : q;
}

/* The first layer laid out from its mixer (the walk back from the anchors
 * stopped there: its projections and input norm are not the other
 * layers', a hybrid's one attention layer among Mamba ones) begins at its
 * input norm: the norm before the GEMMs that precede the mixer, with no
 * MLP work or other mixer between. */
static void back_to_norm(ts_unit *u)
{
	size_t at = u->start[0], q = at;
	if (!(u->mark[at] & TS_UNIT_ATTN))
		return;
	while (q > 0 && !(u->mark[q - 1] & TS_UNIT_GEMM)) {
		if (u->mark[q - 1] & (TS_UNIT_ATTN | TS_UNIT_MLP))
			return;
		q--;
	}
	while (q > 0 && !(u->mark[q - 1] & TS_UNIT_NORM)) {
		if (u->mark[q - 1] & (TS_UNIT_ATTN | TS_UNIT_MLP))
			return;
		q--;
	}
	if (q == 0)
		return;
	q--;
	if (q > 0 && (u->mark[q - 1] & TS_UNIT_COPY))
		q--;   /* the cast before a norm is the norm's (named_edge) */
	u->start[0] = (uint32_t)q;
}

/* Does [0, to) hold a mixer or MLP work by name? */
static bool head_works(const ts_unit *u, size_t to)
{
	for (size_t i = 0; i < to; i++)
		if (u->mark[i] & (TS_UNIT_ATTN | TS_UNIT_MLP))
			return true;
	return false;
}

/* Layers named_edge finds at both edges, up to eight a side (first-k dense
 * layers before MoE ones). Before the first layer, the head must be left
 * with no mixer or MLP work (it holds the embedding and metadata only):
 * else none of them is taken. */
bool ts_unit_grow_named(ts_unit *u, size_t *pnl, uint32_t L)
{
	size_t nl = *pnl;
	uint32_t s0 = u->start[0];
	if (head_works(u, s0))
		back_to_norm(u);
	for (int side = 0; side < 2; side++) {
		size_t added = 0;
		for (int rep = 0; rep < 8; rep++) {
			size_t from, to;
			if (!named_edge(u, nl, side, L, &from, &to))
				break;
			if (!ts_unit_put_edge(u, nl, side, from, to))
				return false;
			nl++;
			added++;
		}
		if (!side && head_works(u, u->start[0])) {
			memmove(u->start, u->start + added, (nl - added) * sizeof *u->start);
			memmove(u->end, u->end + added, (nl - added) * sizeof *u->end);
			nl -= added;
			u->start[0] = s0;
		}
	}
	*pnl = nl;
	return true;
}

/* What layer i holds by name: bit 0 a mixer, bit 1 MLP work. */
static unsigned holds_of(const ts_unit *u, size_t i)
{
	unsigned h = 0;
	for (uint32_t p = u->start[i]; p < u->end[i]; p++)
		h |= ((u->mark[p] & TS_UNIT_ATTN) ? 1u : 0u) | ((u->mark[p] & TS_UNIT_MLP) ? 2u : 0u);
	return h;
}

/* An edge layer the walks took in two (an HF eager first dense layer: its
 * attention half, then its MLP half, each from its unfused norm): where
 * every other layer holds a mixer and MLP work by name, a first or last
 * pair of a mixer with no MLP work and MLP work with no mixer, back to
 * back, is one layer. (A model whose blocks are mixer-only and MLP-only,
 * Nemotron-H's, has such blocks between its edges too.) */
void ts_unit_join_halves(ts_unit *u, size_t *pnl)
{
	size_t nl = *pnl;
	if (nl < 4)
		return;
	for (int side = 0; side < 2 && nl >= 4; side++) {
		size_t a = side ? nl - 2 : 0;
		if (holds_of(u, a) != 1u || holds_of(u, a + 1) != 2u || u->end[a] != u->start[a + 1])
			continue;
		bool whole = true;
		for (size_t i = 0; i < nl && whole; i++)
			if (i != a && i != a + 1)
				whole = holds_of(u, i) == 3u;
		if (!whole)
			continue;
		u->end[a] = u->end[a + 1];
		memmove(u->start + a + 1, u->start + a + 2, (nl - a - 2) * sizeof *u->start);
		memmove(u->end + a + 1, u->end + a + 2, (nl - a - 2) * sizeof *u->end);
		nl--;
	}
	*pnl = nl;
}

/* An edge unit that holds two layers' mixers by name (a mixer, MLP work,
 * a mixer again: two first-k dense layers the anchors' placement took as
 * one, the anchor running only from the second) is two layers: the later
 * begins at its input norm (ts_unit_later_start). At most EDGE_SPLITS a
 * side; false where memory runs out. */
#define EDGE_SPLITS 4
bool ts_unit_split_edges(ts_unit *u, size_t *pnl)
{
	for (int side = 0; side < 2; side++)
		for (int rep = 0; rep < EDGE_SPLITS && *pnl; rep++) {
			size_t e = side ? *pnl - 1 : 0, from = u->start[e], to = u->end[e];
			size_t mid = ts_unit_two_mixers(u, from, to) ? ts_unit_later_start(u, from, to) : 0;
			if (!mid)
				break;
			if (side)
				u->end[e] = (uint32_t)mid;
			else
				u->start[e] = (uint32_t)mid;
			if (!ts_unit_put_edge(u, *pnl, side, side ? mid : from, side ? to : mid))
				return false;
			(*pnl)++;
		}
	return true;
}
