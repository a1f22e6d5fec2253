/*
 * unit_align.c - how alike two runs of kernels are: the longest common
 * subsequence and its alignment, the longest run both hold in a row, and
 * the walk of a template from an edge of the pass (the unit finder's
 * measures; unit.c decides with them).
 */
#include "analysis/structure/unit_int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ likeness */

/* Longest common subsequence of a and b; beyond MAX_CELLS the multiset
 * overlap (an upper bound of it, good enough to tell kinds apart). */
uint32_t ts_unit_lcs(ts_unit *u, slice a, slice b)
{
	if (!a.n || !b.n)
		return 0;
	if ((uint64_t)a.n * b.n > MAX_CELLS) {
		uint32_t *c = u->fill;   /* per-key scratch, zero after use */
		uint32_t common = 0;
		for (uint32_t i = 0; i < a.n; i++)
			c[a.k[i]] = 0;
		for (uint32_t i = 0; i < b.n; i++)
			c[b.k[i]] = 0;
		for (uint32_t i = 0; i < a.n; i++)
			c[a.k[i]]++;
		for (uint32_t i = 0; i < b.n; i++)
			if (c[b.k[i]]) {
				c[b.k[i]]--;
				common++;
			}
		return common;
	}
	if (!ts_unit_grow(&u->dp, &u->dp_cap, 2 * ((size_t)b.n + 1), sizeof *u->dp))
		return 0;
	int32_t *prev = u->dp, *cur = u->dp + b.n + 1;
	memset(prev, 0, ((size_t)b.n + 1) * sizeof *prev);
	for (uint32_t i = 0; i < a.n; i++) {
		cur[0] = 0;
		for (uint32_t j = 0; j < b.n; j++)
			cur[j + 1] = a.k[i] == b.k[j] ? prev[j] + 1
				   : prev[j + 1] > cur[j] ? prev[j + 1] : cur[j];
		int32_t *t = prev;
		prev = cur;
		cur = t;
	}
	return (uint32_t)prev[b.n];
}

/* Longest run of kernels a and b both hold in a row (0 beyond MAX_CELLS),
 * and where it starts in each (ia, ib: may be NULL). */
uint32_t ts_unit_run_at(ts_unit *u, slice a, slice b, uint32_t *ia, uint32_t *ib)
{
	if (!a.n || !b.n || (uint64_t)a.n * b.n > MAX_CELLS ||
	    !ts_unit_grow(&u->dp, &u->dp_cap, 2 * ((size_t)b.n + 1), sizeof *u->dp))
		return 0;
	int32_t *prev = u->dp, *cur = u->dp + b.n + 1, best = 0;
	uint32_t ea = 0, eb = 0;
	memset(prev, 0, ((size_t)b.n + 1) * sizeof *prev);
	for (uint32_t i = 0; i < a.n; i++) {
		cur[0] = 0;
		for (uint32_t j = 0; j < b.n; j++) {
			cur[j + 1] = a.k[i] == b.k[j] ? prev[j] + 1 : 0;
			/* the latest in a of the longest (a layer before the
			 * edge: the one nearest it) */
			if (cur[j + 1] > best || (best && cur[j + 1] == best && i + 1 > ea)) {
				best = cur[j + 1];
				ea = i + 1;
				eb = j + 1;
			}
		}
		int32_t *t = prev;
		prev = cur;
		cur = t;
	}
	if (ia)
		*ia = ea - (uint32_t)best;
	if (ib)
		*ib = eb - (uint32_t)best;
	return (uint32_t)best;
}

uint32_t ts_unit_common_run(ts_unit *u, slice a, slice b)
{
	return ts_unit_run_at(u, a, b, NULL, NULL);
}

double ts_unit_likeness(ts_unit *u, slice a, slice b)
{
	uint32_t m = a.n > b.n ? a.n : b.n;
	return m ? (double)ts_unit_lcs(u, a, b) / m : 1.0;
}

bool ts_unit_same(slice a, slice b)
{
	return a.n == b.n && memcmp(a.k, b.k, a.n * sizeof *a.k) == 0;
}

/* For each index of a, the index of b it aligns with in a longest common
 * subsequence, or UINT32_MAX; false when too large to align (or no memory). */
bool ts_unit_lcs_map(ts_unit *u, slice a, slice b)
{
	size_t w = (size_t)b.n + 1, cells = ((size_t)a.n + 1) * w;
	if (cells > MAX_CELLS || a.n > 65535 || b.n > 65535)
		return false;
	if (!ts_unit_grow(&u->dir, &u->dir_cap, cells * 2, 1) ||
	    !ts_unit_grow(&u->map, &u->map_cap, a.n, sizeof *u->map))
		return false;
	uint16_t *d = (uint16_t *)(void *)u->dir;   /* suffix LCS lengths */
	for (size_t j = 0; j < w; j++)
		d[a.n * w + j] = 0;
	for (uint32_t i = a.n; i-- > 0;) {
		d[i * w + b.n] = 0;
		for (uint32_t j = b.n; j-- > 0;) {
			uint16_t down = d[(i + 1) * w + j], right = d[i * w + j + 1];
			d[i * w + j] = a.k[i] == b.k[j] ? (uint16_t)(d[(i + 1) * w + j + 1] + 1)
				     : down >= right ? down : right;
		}
	}
	uint32_t i = 0, j = 0;
	for (uint32_t x = 0; x < a.n; x++)
		u->map[x] = UINT32_MAX;
	while (i < a.n && j < b.n) {
		if (a.k[i] == b.k[j]) {
			u->map[i++] = j++;
		} else if (d[(i + 1) * w + j] >= d[i * w + j + 1]) {
			i++;
		} else {
			j++;
		}
	}
	return true;
}

/* ------------------------------------------------------------ walks */

static uint32_t tpl_at(tpl t, uint32_t j)
{
	j %= t.s.n;
	return t.s.k[t.rev ? t.s.n - 1 - j : j];
}

/* Align up to maxcols columns of t against the kernels from frm stepping
 * step (+1, -1), edits within BAND; the best end is one where the last
 * step matched (ties: fewer kernels). With names a kernel of the same
 * class as the column (a norm for a norm) half-matches. */
walked ts_unit_walk(ts_unit *u, tpl t, size_t frm, int step, uint32_t maxcols, bool names)
{
	walked best = { 0, 0, 0 };
	if (!t.s.n || !maxcols)
		return best;
	size_t avail = step < 0 ? frm + 1 : u->n - frm;
	if (step < 0 && frm >= u->n)
		return best;
	uint32_t maxi = maxcols + BAND;
	if (avail < maxi)
		maxi = (uint32_t)avail;
	size_t W = 2 * BAND + 1;
	if (!ts_unit_grow(&u->dp, &u->dp_cap, ((size_t)maxi + 1) * W, sizeof *u->dp))
		return best;
	const int32_t NEG = INT32_MIN / 4;
	int32_t *S = u->dp;
	for (size_t x = 0; x < ((size_t)maxi + 1) * W; x++)
		S[x] = NEG;
#define AT(i, j) S[(size_t)(i) * W + (size_t)((int64_t)(j) - (int64_t)(i) + BAND)]
	AT(0, 0) = 0;
	for (uint32_t i = 0; i <= maxi; i++) {
		uint32_t jlo = i > BAND ? i - BAND : 0, jhi = i + BAND < maxcols ? i + BAND : maxcols;
		for (uint32_t j = jlo; j <= jhi; j++) {
			if (!i && !j)
				continue;
			int32_t b = NEG;
			bool m = false;
			if (i && j && AT(i - 1, j - 1) > NEG) {
				uint32_t k = u->id[step < 0 ? frm - (i - 1) : frm + (i - 1)];
				uint32_t c = tpl_at(t, j - 1);
				int32_t dd = -2;
				if (k == c) {
					dd = 2;
					m = true;
				} else if (names && u->cls[k] && u->cls[k] == u->cls[c]) {
					dd = 1;
					m = true;
				}
				b = AT(i - 1, j - 1) + dd;
			}
			if (i && j + BAND >= i && (int64_t)j - (int64_t)(i - 1) <= BAND &&
			    AT(i - 1, j) > NEG && AT(i - 1, j) - 2 > b) {
				b = AT(i - 1, j) - 2;
				m = false;
			}
			if (j && (int64_t)(j - 1) - (int64_t)i >= -BAND && AT(i, j - 1) > NEG &&
			    AT(i, j - 1) - 1 > b) {
				b = AT(i, j - 1) - 1;
				m = false;
			}
			AT(i, j) = b;
			if (m && (b > best.score || (b == best.score && i < best.keys)))
				best = (walked){ i, j, b };
		}
	}
#undef AT
	return best;
}

