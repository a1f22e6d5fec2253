/*
 * unit_grid.c - the anchors of a pass's layers: the keys that run v times
 * at one spacing, grouped into the blocks that repeat together (the
 * candidates, best first), and a stray run at an edge of an anchor's grid
 * left out (a head's or tail's kernel a layer runs too). unit.c tries each
 * candidate's grid and lays its layers out.
 */
#include "analysis/structure/unit_int.h"
#include "input/base/hash.h"

#include <stdlib.h>

static int gkey_cmp(const void *a, const void *b)
{
	const ts_unit_gkey *x = a, *y = b;
	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int cand_cmp(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	if (x->nblock != y->nblock)
		return x->nblock > y->nblock ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static bool same_gaps(const ts_unit *u, uint32_t a, uint32_t b)
{
	const uint32_t *pa = u->pos + u->off[a], *pb = u->pos + u->off[b];
	for (uint32_t j = 1; j < u->cnt[a]; j++)
		if (pa[j] - pa[j - 1] != pb[j] - pb[j - 1])
			return false;
	return true;
}

/* The anchors of one layer count v: keys running v times at the same
 * spacing form a group; in each group, the keys whose first runs lie
 * within one spacing of each other are one repeating block. Candidates
 * (the block's first key, its size) are appended to u->cands. */
static bool grids_of(ts_unit *u, uint32_t v, ts_unit_gkey *gk, size_t *nc)
{
	size_t m = 0;
	for (uint32_t k = 0; k < u->nk; k++) {
		if (u->cnt[k] != v)
			continue;
		const uint32_t *p = u->pos + u->off[k];
		uint64_t h = 0x51ed270b27f3a9cdULL;
		for (uint32_t j = 1; j < v; j++)
			h = ts_hash_u64(h ^ (p[j] - p[j - 1]));
		gk[m++] = (ts_unit_gkey){ h, u->first[k], k };
	}
	qsort(gk, m, sizeof *gk, gkey_cmp);
	for (size_t i = 0; i < m;) {
		size_t j = i + 1;
		while (j < m && gk[j].h == gk[i].h && same_gaps(u, gk[i].key, gk[j].key))
			j++;
		/* the group gk[i..j), by first run; its narrowest spacing is
		 * the block's width */
		const uint32_t *p = u->pos + u->off[gk[i].key];
		uint32_t width = UINT32_MAX;
		for (uint32_t x = 1; x < v; x++)
			if (p[x] - p[x - 1] < width)
				width = p[x] - p[x - 1];
		size_t best = 0, bi = i;
		for (size_t a = i, b = i; b < j; b++) {
			while (gk[b].first - gk[a].first >= width)
				a++;
			if (b - a + 1 > best) {
				best = b - a + 1;
				bi = a;
			}
		}
		if (!ts_unit_grow(&u->cands, &u->cands_cap, *nc + 1, sizeof *u->cands))
			return false;
		u->cands[(*nc)++] = (cand){ (uint32_t)best, gk[bi].first, gk[bi].key };
		i = j;
	}
	return true;
}

bool ts_unit_candidates(ts_unit *u, uint32_t v, ts_unit_gkey *gk, size_t *nc)
{
	if (!grids_of(u, v, gk, nc))
		return false;
	qsort(u->cands, *nc, sizeof *u->cands, cand_cmp);
	return true;
}

static bool gap_inside(const uint32_t *o, uint32_t v, uint32_t gap)
{
	for (uint32_t j = 2; j + 1 < v; j++)
		if (o[j] - o[j - 1] == gap)
			return true;
	return false;
}

/* Is the run beside the edge one (side 0: first, 1: last) the odd one: the
 * edge run and the second one over at an inner pair's spacing, within BAND
 * kernels (an eager expert loop runs as many kernels as experts got
 * tokens), the short spacing between them at no other inner pair? */
static bool odd_beside(const uint32_t *p, uint32_t n, int side)
{
	uint32_t whole = side ? p[n - 1] - p[n - 3] : p[2] - p[0];
	uint32_t part = side ? p[n - 2] - p[n - 3] : p[2] - p[1], near = 0, same = 0;
	for (uint32_t j = 2; j + 1 < n; j++) {
		uint32_t g = p[j] - p[j - 1];
		same += g == part;
		near += g + BAND >= whole && g <= whole + BAND;
	}
	return gap_inside(p, n, whole) || (near && same == 1);
}

/* Do the inner spacings take few values (at most four)? An eager MoE
 * block's expert loop runs as many kernels as experts got tokens, so its
 * layers' spacings all differ: no spacing then sets an edge apart. */
static bool regular(const uint32_t *o, uint32_t v)
{
	uint32_t seen[4], n = 0;
	for (uint32_t j = 2; j + 1 < v; j++) {
		uint32_t g = o[j] - o[j - 1], k = 0;
		while (k < n && seen[k] != g)
			k++;
		if (k == n) {
			if (n == 4)
				return false;
			seen[n++] = g;
		}
	}
	return true;
}

/* Is the edge segment (side 0: first, 1: last) one kind with an inner
 * segment of nearly its spacing (within BAND kernels, alike as NEAR_KIND
 * says)? Then its spacing differs only by the kernels a loop ran more or
 * fewer times (an eager expert loop runs as many as experts got tokens):
 * a layer's, though no inner pair has that spacing. A stray run's segment
 * (the last output projection to the LM head) is part of a layer. */
static bool like_inner(ts_unit *u, const uint32_t *p, uint32_t n, int side)
{
	uint32_t a = side ? p[n - 2] : p[0], g = side ? p[n - 1] - p[n - 2] : p[1] - p[0];
	slice e = { u->id + a, g, a };
	for (uint32_t j = 2; j + 1 < n; j++) {
		uint32_t h = p[j] - p[j - 1];
		if (h + BAND < g || h > g + BAND)
			continue;
		slice in = { u->id + p[j - 1], h, p[j - 1] };
		if (ts_unit_likeness(u, e, in) >= NEAR)
			return true;
	}
	return false;
}

/* An anchor's run at an edge, at a spacing no inner pair has, is a kernel
 * of the head or tail that a layer runs too (the LM head on the layers'
 * output-projection GEMM, the final norm on their add+norm): not a layer's,
 * unless its segment is like an inner one (like_inner). And unless the run
 * beside it is the odd one (odd_beside): the edge run and the second one
 * over make a layer whose kernel ran a second time inside it (an eager
 * expert loop's GEMM on the tile its tokens chose, a copy in the loop): no
 * anchor at all (false). */
bool ts_unit_stray_ends(ts_unit *u, const uint32_t **o, uint32_t *v)
{
	if (*v < 5 || !regular(*o, *v))
		return true;
	const uint32_t *p = *o;
	uint32_t n = *v;
	bool last = !gap_inside(p, n, p[n - 1] - p[n - 2]) && !like_inner(u, p, n, 1);
	bool first = !gap_inside(p, n, p[1] - p[0]) && !like_inner(u, p, n, 0);
	if ((first && odd_beside(p, n, 0)) || (last && odd_beside(p, n, 1)))
		return false;
	*v -= last + first;
	*o += first;
	return true;
}
