/*
 * unit_fold.c - layers whose inner loop ran a different number of times:
 * an eager MoE block runs its expert body once per expert that got tokens,
 * so its layers differ in length by whole bodies, and where no name marks
 * a layer's start no anchor or edge walk reaches the layer whose loop ran
 * more or fewer times than the others'. Folded, each run of a body
 * repeated back to back kept once, those layers are alike again: the
 * search runs on the folded pass when the first left a layer's length
 * unlaid before or after its layers (or found none), and its layers, read
 * back in the pass's own kernels, replace the first's when there are
 * more of them.
 */
#include "analysis/structure/unit_int.h"

#include <stdlib.h>
#include <string.h>

#define MAX_BODY 24              /* kernels of a loop body folded */
#define MIN_FOLDED 8             /* a folded pass shorter says nothing */

/* Room for n kernels in the folded arrays (one capacity for all). */
static bool fold_room(ts_unit *u, size_t n)
{
	ts_grow_part parts[] = {
		{ (void **)&u->fold.key, sizeof *u->fold.key },
		{ (void **)&u->fold.mark, sizeof *u->fold.mark },
		{ (void **)&u->fold.dur, sizeof *u->fold.dur },
		{ (void **)&u->fold.map, sizeof *u->fold.map },
	};
	return ts_grow_each(parts, sizeof parts / sizeof *parts, &u->fold.cap, n ? n : 1, 1024,
			    SIZE_MAX / 16, false);
}

static bool same_run(const uint32_t *key, size_t a, size_t b, size_t p)
{
	return memcmp(key + a, key + b, p * sizeof *key) == 0;
}

/* The body (1 to maxp kernels) repeated back to back from i that covers
 * the most kernels, the shortest on a tie: its length, and in *reps its
 * repeats; 0 when none repeats. */
static size_t body_at(const uint32_t *key, size_t n, size_t i, size_t maxp, size_t *reps)
{
	size_t best = 0, best_cover = 0;
	for (size_t p = 1; p <= maxp && i + 2 * p <= n; p++) {
		if (!same_run(key, i, i + p, p))
			continue;
		size_t r = 2;
		while (i + (r + 1) * p <= n && same_run(key, i, i + r * p, p))
			r++;
		if (r * p > best_cover) {
			best_cover = r * p;
			best = p;
			*reps = r;
		}
	}
	return best;
}

/* The pass folded into u->fold: each run of a body kept once; map[f] is
 * the pass's index of folded kernel f. Its length; *longest, the longest
 * body folded. */
static size_t fold_pass(ts_unit *u, const uint32_t *key, const uint8_t *mark, const int64_t *dur,
			size_t n, size_t maxp, size_t *longest)
{
	size_t nf = 0;
	*longest = 0;
	for (size_t i = 0; i < n;) {
		size_t reps = 1, p = body_at(key, n, i, maxp, &reps);
		size_t keep = p ? p : 1;
		if (p > *longest)
			*longest = p;
		for (size_t j = 0; j < keep; j++, nf++) {
			u->fold.key[nf] = key[i + j];
			u->fold.mark[nf] = mark ? mark[i + j] : 0;
			u->fold.dur[nf] = dur ? dur[i + j] : 0;
			u->fold.map[nf] = (uint32_t)(i + j);
		}
		i += p ? p * reps : 1;
	}
	return nf;
}

/* Did the search leave, before the first layer or after the last, half a
 * layer's kernels or more (a head or tail is shorter: the embedding and
 * metadata, the final norm, LM head and sampler)? */
static bool loose_edge(const ts_unit_result *r, size_t n)
{
	uint32_t L = r->period ? r->period : 1;
	return 2 * (uint64_t)r->start[0] >= L || 2 * (uint64_t)(n - r->end[r->n - 1]) >= L;
}

/* Is folded layer j of r one the fold gave: a layer's length folded (3/4
 * of the period at least, where a head or tail piece is shorter), its
 * loop run a different number of times (some of its kernels folded)?
 * 1 yes, 0 no, -1 a layer the first search found (kept). */
static int fold_gave(const ts_unit *u, const ts_unit_result *r, size_t j, size_t nf, size_t n,
		     const uint32_t *keep, size_t n0)
{
	uint32_t s = u->fold.map[r->start[j]];
	for (size_t i = 0; i < n0; i++)
		if (keep[i] == s)
			return -1;
	size_t fl = r->end[j] - r->start[j];
	size_t ol = (r->end[j] < nf ? u->fold.map[r->end[j]] : n) - s;
	return ol > fl && 4 * (uint64_t)fl >= 3 * (uint64_t)r->period;
}

/* Are the folded search's layers r the ones a loop hid: every layer the
 * first search missed given by the fold (fold_gave), or with none found
 * first, half the layers at least? */
static bool loop_hid(const ts_unit *u, const ts_unit_result *r, size_t nf, size_t n,
		     const uint32_t *keep, size_t n0)
{
	size_t gave = 0;
	for (size_t j = 0; j < r->n; j++) {
		int g = fold_gave(u, r, j, nf, n, keep, n0);
		if (!g && n0)
			return false;
		gave += g == 1;
	}
	return n0 || 2 * gave >= r->n;
}

/* Kernels inside the layers: the folded search's, read back in the
 * pass's kernels, and the first search's (kept: starts, then ends). */
static size_t covered(const ts_unit *u, const ts_unit_result *r, size_t nf, size_t n)
{
	size_t c = 0;
	for (size_t j = 0; j < r->n; j++)
		c += (r->end[j] < nf ? u->fold.map[r->end[j]] : n) - u->fold.map[r->start[j]];
	return c;
}

static size_t covered_kept(const uint32_t *keep, size_t n0)
{
	size_t c = 0;
	for (size_t j = 0; j < n0; j++)
		c += keep[n0 + j] - keep[j];
	return c;
}

bool ts_unit_refold(ts_unit *u, const uint32_t *key, bool found, ts_unit_result *out)
{
	size_t n = u->n;
	if (found && (!out->n || !loose_edge(out, n)))
		return found;
	size_t maxp = MAX_BODY;
	if (found && out->period / 2 < maxp)
		maxp = out->period / 2;
	if (maxp < 2 || !fold_room(u, n))
		return found;
	const uint8_t *mark = u->mark;
	const int64_t *dur = u->dur;
	size_t longest, nf = fold_pass(u, key, mark, dur, n, maxp, &longest);
	if (nf == n || nf < MIN_FOLDED)
		return found;
	/* the first search's layers, kept while the second runs */
	size_t n0 = found ? out->n : 0;
	if (!ts_unit_grow(&u->fold.keep, &u->fold.keep_cap, 2 * n0, sizeof *u->fold.keep))
		return found;
	if (n0) {
		memcpy(u->fold.keep, out->start, n0 * sizeof *u->fold.keep);
		memcpy(u->fold.keep + n0, out->end, n0 * sizeof *u->fold.keep);
	}
	ts_unit_result r;
	u->n = nf;
	u->mark = mark ? u->fold.mark : NULL;
	u->dur = dur ? u->fold.dur : NULL;
	u->fold.active = true;
	bool found1 = ts_unit_search(u, u->fold.key, mark != NULL, &r);
	u->fold.active = false;
	u->n = n;
	u->mark = mark;
	u->dur = dur;
	/* a body half a layer long or more was layers back to back, not a
	 * loop inside one: the folded pass lost them */
	if (found1 && r.n >= n0 && 2 * longest <= r.period && ts_unit_out_room(u, r.n) &&
	    loop_hid(u, &r, nf, n, u->fold.keep, n0) &&
	    (r.n > n0 || covered(u, &r, nf, n) > covered_kept(u->fold.keep, n0))) {
		/* read back in the pass's kernels: a layer ends where the
		 * next folded kernel begins, its loop's repeats inside it */
		for (size_t j = 0; j < r.n; j++) {
			u->start[j] = u->fold.map[r.start[j]];
			u->end[j] = r.end[j] < nf ? u->fold.map[r.end[j]] : (uint32_t)n;
		}
		r.start = u->start;
		r.end = u->end;
		*out = r;
		return true;
	}
	if (!found)
		return false;
	/* the first search's layers again (start and end never shrink) */
	memcpy(u->start, u->fold.keep, n0 * sizeof *u->start);
	memcpy(u->end, u->fold.keep + n0, n0 * sizeof *u->end);
	out->start = u->start;
	out->end = u->end;
	return true;
}

/* The pass's own index of a kernel of the pass searched (folded or not). */
size_t ts_unit_own_index(const ts_unit *u, size_t i)
{
	return u->fold.active && i < u->n ? u->fold.map[i] : i;
}

void ts_unit_fold_free(ts_unit *u)
{
	free(u->fold.key);
	free(u->fold.mark);
	free(u->fold.dur);
	free(u->fold.map);
	free(u->fold.keep);
}
