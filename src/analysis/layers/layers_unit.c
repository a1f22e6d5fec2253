/*
 * layers_unit.c - a pass laid out by its repeating unit (unit.c): the layer
 * machine's online layout, which follows names, is replaced by the layers
 * the structure of the pass's kernel stream gives, whenever a unit repeats
 * and the pass's kernels are all held. Names only refine: a kernel's marks
 * tell the finder where a layer starts (its input norm).
 */
#include "analysis/layers/layers_int.h"
#include "input/base/satmath.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/grow.h"

static uint8_t unit_marks(lmark m)
{
	uint8_t u = 0;
	if (m & M_START)
		u |= TS_UNIT_NORM;
	if (m & M_GEMM)
		u |= TS_UNIT_GEMM;
	if (m & M_ATTN)
		u |= TS_UNIT_ATTN;
	if (m & M_LINEAR)
		u |= TS_UNIT_LINEAR;
	if (m & M_MLP)
		u |= TS_UNIT_MLP;
	if (m & M_COPY)
		u |= TS_UNIT_COPY;
	if (m & M_META)
		u |= TS_UNIT_META;
	return u;
}

/* One layer's figures from its kernels k[0..n): time, count, the kinds of
 * work it holds (its type) and the GEMMs after its attention. */
static cur_layer layer_of(const kernel_ent *k, size_t n)
{
	cur_layer c = { 0 };
	bool attn = false, topk = false;
	for (size_t i = 0; i < n; i++) {
		c.ns = ts_sat_add(c.ns, k[i].dur);
		c.kernels++;
		c.marks |= (lmark)(k[i].marks & (M_ATTN | M_MLP));
		if (attn && (k[i].marks & M_GEMM))
			c.post_gemms++;
		attn |= (k[i].marks & M_ATTN) != 0;
		topk |= attn && (k[i].marks & M_TOPK);
	}
	/* A top-k after the layer's attention is its router (sampling runs
	 * once per pass, after the last layer): the experts its activations
	 * feed are MoE, though plain GEMM kernels run them (an eager HF MoE
	 * block). */
	if (topk && (c.marks & M_FC))
		c.marks = (lmark)((c.marks & ~M_FC) | M_MOE);
	/* GEMMs after the attention beyond its output projection: an MLP
	 * no marker named */
	if ((c.marks & M_ATTN) && !(c.marks & M_MLP) && c.post_gemms >= 3)
		c.marks |= M_FC;
	return c;
}

/* Where names type the rest, a layer's mixer may be the one kernel no
 * rule knows (a new attention kernel, graph-replayed so no op names it
 * either): every layer, the first and last aside (a model's edges may
 * differ), runs a kernel no rule typed that is neither a copy nor a
 * norm. A unit of cache writes and copies has none. */
static bool unnamed_mixer(const kernel_ent *k, const ts_unit_result *r)
{
	if (r->n < 3)
		return false;
	for (size_t j = 1; j + 1 < r->n; j++) {
		bool any = false;
		for (size_t i = r->start[j]; i < r->end[j] && !any; i++)
			any = !(k[i].marks & (M_TYPED | M_COPY | M_START));
		if (!any)
			return false;
	}
	return true;
}

/* The kernels after the last layer of a pass with fewer layers than the
 * passes had, where the trace or step ends: the capture cut the forward
 * (a whole one runs its final norm, LM head and sampler after its last
 * layer) when by name they hold attention or MLP work, or no GEMM (no LM
 * head); without names, when they are the last layer's first kernels in
 * order, or a single kernel the layers run. A pass of the model's length
 * may end where its LM head was cut: its layers are whole. By name, an
 * LM head runs after the final norm: a GEMM before any norm is the cut
 * layer's own. */
static bool cut_layer(const kernel_ent *k, const uint32_t *key, const ts_unit_result *r, size_t n,
		      bool named)
{
	size_t from = r->end[r->n - 1], s = r->start[r->n - 1], len = r->end[r->n - 1] - s;
	if (named) {
		bool gemm = false, normed = false;
		for (size_t i = from; i < n; i++) {
			if (k[i].marks & (M_ATTN | M_MLP))
				return true;
			normed |= (k[i].marks & M_START) != 0;
			/* an LM head runs after the final norm; a GEMM before
			 * any norm is the cut layer's own (its down projection) */
			if ((k[i].marks & M_GEMM) && !normed)
				return true;
			gemm |= (k[i].marks & M_GEMM) != 0;
		}
		return !gemm;
	}
	size_t m = n - from;
	if (m == 1) {
		for (size_t i = s; i < r->end[r->n - 1]; i++)
			if (key[i] == key[from])
				return true;
		return false;
	}
	if (m > len)
		return false;
	for (size_t i = 0; i < m; i++)
		if (key[from + i] != key[s + i])
			return false;
	return true;
}

/* The next layer start in [lo, e) near target t: the kernel units begin
 * with (pat: a unit's first kernels, m of them), the longest run of pat
 * there within half a layer of t (a layer's input norm and projection,
 * not its post-attention norm and MLP), else the nearest. 0: none. */
static uint32_t start_near(const uint32_t *key, const uint32_t *pat, uint32_t m, uint32_t lo,
			   uint32_t e, uint32_t t, uint32_t half)
{
	uint32_t best = 0, best_run = 0, best_d = UINT32_MAX;
	for (uint32_t p = lo; p < e; p++) {
		if (key[p] != pat[0])
			continue;
		uint32_t run = 1;
		while (run < 3 && run < m && p + run < e && key[p + run] == pat[run])
			run++;
		uint32_t d = p > t ? p - t : t - p;
		bool near = d <= half;
		bool better = best == 0 ||
			      (near && (best_d > half || run > best_run || (run == best_run && d < best_d))) ||
			      (!near && best_d > half && d < best_d);
		if (better) {
			best = p;
			best_run = run;
			best_d = d;
		}
	}
	return best;
}

/* Layers written from units, n of them: each unit opened at its start,
 * cut at the places a new layer begins, closed at its end. */
typedef struct {
	uint32_t *st, *en;       /* starts, then ends (the finder's split) */
	size_t n, j;
	uint32_t at;             /* the open layer's start */
	const uint32_t *pat;     /* the kernels the units begin with (the
				  * second unit's: the first may hold a head
				  * kernel), m of them */
	uint32_t m;
} cuts;

/* Room for n layers; false when out of memory. */
static bool cuts_room(ts_layers *l, const ts_unit_result *r, const uint32_t *key, size_t n,
		      cuts *c)
{
	if (!ts_grow((void **)&l->finder.split, &l->finder.split_cap, 2 * n,
		     sizeof *l->finder.split, 256, SIZE_MAX / 8, false))
		return false;
	*c = (cuts){ .st = l->finder.split, .en = l->finder.split + n, .n = n };
	if (key && r->n > 1) {
		c->pat = key + r->start[1];
		c->m = r->end[1] - r->start[1];
	}
	return true;
}

static void cuts_open(cuts *c, uint32_t s)
{
	c->st[c->j] = c->at = s;
}

/* The open layer ends at p, where the next begins. */
static void cuts_at(cuts *c, uint32_t p)
{
	c->en[c->j++] = p;
	c->st[c->j] = c->at = p;
}

static void cuts_close(cuts *c, uint32_t e)
{
	c->en[c->j++] = e;
}

/* r laid out as the layers written. */
static void cuts_take(const cuts *c, ts_unit_result *r)
{
	r->n = c->n;
	r->start = c->st;
	r->end = c->en;
}

/* Where the units begin o kernels before their layers (the phase of the
 * unit found a kernel earlier: a MoE layer's closing add ends one unit
 * and begins the next), the kernel o into the second unit is the one
 * each of its k layers begins with: the first o (at most 8, less than a
 * layer) up to which every unit runs it within half a layer of each
 * even place. 0 where the first kernel does, or none does. */
static uint32_t split_phase(const uint32_t *key, const ts_unit_result *r, uint32_t k)
{
	uint32_t len1 = r->end[1] - r->start[1];
	for (uint32_t o = 0; o <= 8 && o < len1 / (2 * k); o++) {
		uint32_t want = key[r->start[1] + o];
		bool all = true;
		for (size_t u = 1; all && u < r->n; u++) {
			uint32_t s = r->start[u], len = r->end[u] - s;
			for (uint32_t i = 1; all && i < k; i++) {
				uint32_t t = s + o + (uint32_t)((uint64_t)len * i / k), half = len / (2 * k);
				bool seen = false;
				for (uint32_t p = t > half ? t - half : s; !seen && p <= t + half && p < r->end[u]; p++)
					seen = key[p] == want;
				all = seen;
			}
		}
		if (all)
			return o;
	}
	return 0;
}

/* The units moved o kernels later: each begins where its first layer
 * does (the first unit at its first run of that kernel: it may hold a
 * head kernel), the last ends o later where the tail repeats the units'
 * first kernels (the closing kernels of its last layer). */
static void shift_units(const uint32_t *key, uint32_t *st, uint32_t *en, size_t units, size_t n,
			uint32_t o)
{
	const uint32_t *pat = key + st[1];
	uint32_t s0 = st[0];
	while (s0 < en[0] && key[s0] != pat[o])
		s0++;
	if (s0 < en[0])
		st[0] = s0;
	for (size_t u = 1; u < units; u++) {
		st[u] += o;
		en[u - 1] = st[u];
	}
	uint32_t e = en[units - 1], j = 0;
	while (j < o && e + j < n && key[e + j] == pat[j])
		j++;
	if (j == o)
		en[units - 1] = e + o;
}

/* Does key[i] run in [s, e)? */
static bool runs_in(const uint32_t *key, uint32_t s, uint32_t e, uint32_t k)
{
	for (uint32_t i = s; i < e; i++)
		if (key[i] == k)
			return true;
	return false;
}

/* Whether the kernels from at (or, back, those ending there) run layer j
 * of a unit [us, ue) again: as many kernels, three in four the same in
 * place (a compiled layer's fused kernels are named by their place in
 * its graph), or, in order, every kernel (two at least) the layer runs
 * and the unit's other layers do not: its mixer's (layer 0's input norm
 * has no residual to add, and a phase found without names may give a
 * layer the closing kernels of the one before). */
static bool runs_again(const uint32_t *key, size_t n, const cuts *c, size_t j, uint32_t us, uint32_t ue,
		       uint32_t at, bool back)
{
	uint32_t s = c->st[j], e = c->en[j], len = e - s, same = 0;
	if (back ? at < len : at + (uint64_t)len > n)
		return false;
	uint32_t from = back ? at - len : at;
	for (uint32_t i = 0; i < len; i++)
		same += key[from + i] == key[s + i];
	if (4 * (uint64_t)same >= 3 * (uint64_t)len)
		return true;
	uint32_t own = 0, p = from;
	for (uint32_t i = s; i < e; i++) {
		if (runs_in(key, us, s, key[i]) || runs_in(key, e, ue, key[i]))
			continue;
		while (p < from + len && key[p] != key[i])
			p++;
		if (p == from + len)
			return false;
		p++;
		own++;
	}
	return own >= 2;
}

/* The layers beyond the units, x of them (fewer than a unit's k): the
 * first x of the last unit's layers again after it, or the last x of the
 * first unit's before it (a model of 41 layers, dense and MoE
 * alternating, dense first and last: 20 units and one dense layer at an
 * edge). Written into c (its units' k * units layers written) after them
 * or before; false where neither edge runs them. */
static bool extra_layers(const uint32_t *key, size_t n, cuts *c, size_t units, uint32_t k, uint32_t x)
{
	size_t w = units * k;
	uint32_t at = c->en[w - 1], s[4], e[4];
	bool tail = true;
	for (uint32_t i = 0; tail && i < x; i++) {
		size_t j = (units - 1) * k + i;
		tail = runs_again(key, n, c, j, c->st[(units - 1) * k], c->en[w - 1], at, false);
		s[i] = at;
		e[i] = at += c->en[j] - c->st[j];
	}
	if (!tail) {
		at = c->st[0];
		for (uint32_t i = 0; i < x; i++) {
			size_t j = k - 1 - i;
			if (!runs_again(key, n, c, j, c->st[0], c->en[k - 1], at, true))
				return false;
			e[x - 1 - i] = at;
			s[x - 1 - i] = at -= c->en[j] - c->st[j];
		}
		memmove(c->st + x, c->st, w * sizeof *c->st);
		memmove(c->en + x, c->en, w * sizeof *c->en);
	}
	size_t o = tail ? w : 0;
	memcpy(c->st + o, s, x * sizeof *s);
	memcpy(c->en + o, e, x * sizeof *e);
	return true;
}

/* A unit found by structure alone (no name, no op marks a mixer) in a
 * pass of a model whose passes with mixers had k times as many layers (2
 * to 4), give or take fewer than k at an edge: the period was k layers
 * (dense and MoE alternating, a hybrid's kinds) that nothing without
 * names tells from one. Each unit is split into k at the kernel the
 * units' layers begin with (the second unit's first, or the kernel its
 * phase puts before it: split_phase), as even as that allows; the layers
 * left over are the units' own layers run again at an edge
 * (extra_layers), or an edge unit the finder laid out apart, shorter
 * than the unit beside it (93 layers, Mamba and attention alternating,
 * Mamba first and last: one Mamba layer, then 46 units of two). False (r
 * as it was) where a unit has no such place, no edge runs the rest, or
 * memory runs out. */
static uint32_t unit_len(const ts_unit_result *r, size_t j)
{
	return r->end[j] - r->start[j];
}

static bool split_units(ts_layers *l, const uint32_t *key, ts_unit_result *r, size_t n)
{
	uint32_t ref = l->finder.mixer_layers;
	if (!ref || r->n < 2)
		return false;
	/* a unit at an edge shorter than three quarters of the one beside
	 * it is one layer (an odd count's extra layer, laid out apart) */
	size_t e0 = 0, e1 = 0;
	if (r->n >= 4) {
		e0 = 4 * (uint64_t)unit_len(r, 0) < 3 * (uint64_t)unit_len(r, 1);
		e1 = 4 * (uint64_t)unit_len(r, r->n - 1) < 3 * (uint64_t)unit_len(r, r->n - 2);
	}
	size_t m = r->n - e0 - e1;
	uint32_t rest = ref > e0 + e1 ? ref - (uint32_t)(e0 + e1) : 0;
	if (rest / m < 2 || rest / m > 4) {
		e0 = e1 = 0;
		m = r->n;
		rest = ref;
	}
	if (rest / m < 2 || rest / m > 4)
		return false;
	uint32_t k = rest / (uint32_t)m, x = rest - k * (uint32_t)m;
	ts_unit_result was = *r, mid = *r;
	mid.n = m;
	mid.start += e0;
	mid.end += e0;
	uint32_t o = split_phase(key, &mid, k);
	if ((e0 || e1) && (x || o))
		return false;
	cuts c;
	if (!cuts_room(l, &mid, key, ref, &c))
		return false;
	if (o) {
		/* the unit's boundaries live in the finder: keep a copy */
		if (!ts_grow((void **)&l->finder.split, &l->finder.split_cap, 2 * ref + 2 * m,
			     sizeof *l->finder.split, 256, SIZE_MAX / 8, false))
			return false;
		uint32_t *st = l->finder.split + 2 * ref, *en = st + m;
		memcpy(st, mid.start, m * sizeof *st);
		memcpy(en, mid.end, m * sizeof *en);
		shift_units(key, st, en, m, n, o);
		mid.start = st;
		mid.end = en;
		cuts_room(l, &mid, key, ref, &c);
	}
	if (e0) {
		cuts_open(&c, r->start[0]);
		cuts_close(&c, r->end[0]);
	}
	for (size_t u = 0; u < m; u++) {
		uint32_t s = mid.start[u], e = mid.end[u], len = e - s;
		cuts_open(&c, s);
		for (uint32_t i = 1; i < k; i++) {
			uint32_t p = start_near(key, c.pat, c.m, c.at + 1, e,
						s + (uint32_t)((uint64_t)len * i / k), len / (2 * k));
			if (!p) {
				*r = was;
				return false;
			}
			cuts_at(&c, p);
		}
		cuts_close(&c, e);
	}
	if (e1) {
		cuts_open(&c, r->start[r->n - 1]);
		cuts_close(&c, r->end[r->n - 1]);
	}
	if (x && !extra_layers(key, n, &c, m, k, x)) {
		*r = was;
		return false;
	}
	cuts_take(&c, r);
	return true;
}

/* Mixer runs (attention kernels in a row, by name or by op) in [s, e). */
static uint32_t mixer_runs(const kernel_ent *k, uint32_t s, uint32_t e)
{
	uint32_t runs = 0;
	for (uint32_t i = s; i < e; i++)
		runs += (k[i].marks & M_ATTN) && (i == s || !(k[i - 1].marks & M_ATTN));
	return runs;
}

/* Do units a and b run the same kernels in the same order? */
static bool same_units(const uint32_t *key, const ts_unit_result *r, size_t a, size_t b)
{
	uint32_t n = unit_len(r, a);
	return n == unit_len(r, b) &&
	       memcmp(key + r->start[a], key + r->start[b], n * sizeof *key) == 0;
}

/* Are the groups of k units from unit p on, ref of them, parts of layers:
 * no two units side by side in a group the same, and the x units left
 * out (before p, or after the groups) pieces: shorter, all of them, than
 * half a group? */
static bool groups_of(const uint32_t *key, const ts_unit_result *r, size_t k, size_t p, uint32_t ref)
{
	uint64_t len = 0;
	for (size_t g = p; g < p + k * ref; g += k) {
		for (size_t j = g + 1; j < g + k; j++)
			if (same_units(key, r, j - 1, j))
				return false;
		len += r->end[g + k - 1] - r->start[g];
	}
	uint64_t left = 0;
	for (size_t j = 0; j < r->n; j++)
		if (j < p || j >= p + k * ref)
			left += unit_len(r, j);
	return 2 * left * ref < len;
}

/* The reverse of split_units: units found by structure alone, k times (2
 * to 4) as many as the layers of the model's passes whose mixers were
 * known, give or take fewer than k pieces at an edge (a final norm and
 * LM head alike an MLP's norm and projection), where no two units side by
 * side in a group of k are the same: the anchor ran twice or more a
 * layer (a TP all-reduce after the mixer and after the MLP, under a graph
 * replay no op or name marks), so each unit is a part of a layer, a
 * mixer's half and an MLP's. Each k units in turn are one layer, the
 * pieces left to the head or tail. A deeper model of one layer kind (a
 * draft whose layers are all alike) is kept as it is. False (r as it
 * was) where the count does not fit or memory runs out. */
static bool join_units(ts_layers *l, ts_unit_result *r, const uint32_t *key)
{
	uint32_t ref = l->finder.mixer_layers;
	if (!ref || r->n < 2 * (size_t)ref || r->n / ref > 4)
		return false;
	size_t k = r->n / ref, x = r->n - k * ref, p = 0;
	if (x >= k)
		return false;
	if (!groups_of(key, r, k, 0, ref)) {
		if (!x || !groups_of(key, r, k, x, ref))
			return false;
		p = x;
	}
	cuts c;
	if (!cuts_room(l, r, NULL, ref, &c))
		return false;
	for (size_t g = p; g < p + k * ref; g += k) {
		cuts_open(&c, r->start[g]);
		cuts_close(&c, r->end[g + k - 1]);
	}
	cuts_take(&c, r);
	return true;
}

/* Units that each hold k (2 to 4) mixer runs, by op where no name says
 * it (an eager pass of dense and MoE layers alternating, every kernel
 * name unknown): k layers each, a layer a mixer. Each is split before
 * each run after its first, at the kernel the units begin with nearest
 * that run. False (r as it was) where the units differ in runs, a place
 * is missing or memory runs out. */
static bool split_by_mixers(ts_layers *l, const kernel_ent *k, const uint32_t *key,
			    ts_unit_result *r)
{
	if (r->n < 2)
		return false;
	uint32_t runs = mixer_runs(k, r->start[1], r->end[1]);
	for (size_t u = 0; u < r->n; u++)
		if (mixer_runs(k, r->start[u], r->end[u]) != runs)
			return false;
	if (runs < 2 || runs > 4 || r->n > UINT32_MAX / 4)
		return false;
	cuts c;
	if (!cuts_room(l, r, key, r->n * runs, &c))
		return false;
	for (size_t u = 0; u < r->n; u++) {
		uint32_t s = r->start[u], e = r->end[u], seen = 0;
		cuts_open(&c, s);
		for (uint32_t i = s; i < e; i++) {
			if (!(k[i].marks & M_ATTN) || (i > s && (k[i - 1].marks & M_ATTN)) || seen++ == 0)
				continue;
			/* the next layer begins between the last run and this one */
			uint32_t p = start_near(key, c.pat, c.m, c.at + 1, i, i, i - c.at);
			if (!p)
				return false;
			cuts_at(&c, p);
		}
		cuts_close(&c, e);
	}
	cuts_take(&c, r);
	return true;
}

/* Does the pass run a mixer, by name or op, that is no per-pass helper? */
static bool mixer_outside(const kernel_ent *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((k[i].marks & M_ATTN) && !(k[i].marks & M_ONCE))
			return true;
	return false;
}

/* Does unit j hold MLP work (an activation, a MoE kernel) by name? */
static bool unit_mlp(const kernel_ent *k, const ts_unit_result *r, size_t j)
{
	for (uint32_t i = r->start[j]; i < r->end[j]; i++)
		if (k[i].marks & M_MLP)
			return true;
	return false;
}

/* What unit j holds by name: a mixer (1), MLP work (2). */
static unsigned unit_holds(const kernel_ent *k, const ts_unit_result *r, size_t j)
{
	return (mixer_runs(k, r->start[j], r->end[j]) ? 1u : 0u) | (unit_mlp(k, r, j) ? 2u : 0u);
}

/* Units with neither a mixer run nor a norm whose kernels are mostly
 * known (by name or op: not of type other, which could hide a mixer no
 * rule names, as a graph replay's do), less the units holding a mixer
 * run. A layer whose mixer no rule knows (a linear attention written as
 * ATen's elementwise ops) still runs its input norm. */
static ptrdiff_t units_known_bare(const kernel_ent *k, const ts_unit_result *r)
{
	ptrdiff_t n = 0;
	for (size_t j = 0; j < r->n; j++) {
		if (unit_holds(k, r, j) & 1u) {
			n--;
			continue;
		}
		size_t known = 0, len = r->end[j] - r->start[j];
		bool normed = false;
		for (size_t i = r->start[j]; i < r->end[j]; i++) {
			known += !(k[i].marks & M_ENDS);
			normed |= (k[i].marks & M_START) != 0;
		}
		n += !normed && 2 * known >= len;
	}
	return n;
}

/* Units holding both a mixer and MLP work: whole layers by name. */
static size_t units_whole(const kernel_ent *k, const ts_unit_result *r)
{
	size_t n = 0;
	for (size_t j = 0; j < r->n; j++)
		n += unit_holds(k, r, j) == 3;
	return n;
}

/* Units whose every other one holds a mixer by name and the others none:
 * an anchor that runs twice a layer (the tensor-parallel all-reduce after
 * the attention and after the MLP) cut each layer into its attention half
 * and its MLP half. So where they are twice as many as the layers of a
 * complete pass before whose layers held mixers, or, with no pass before,
 * where every unit of the pass is a half (a mixer and no MLP work, then
 * MLP work and no mixer, to its end). Each mixer unit and the one after it
 * are one layer. False (r as it was) where they do not alternate so or
 * memory runs out. (A hybrid whose mixer-only and MLP-only blocks are
 * layers, Nemotron-H's, has as many in every pass, and two mixers in a
 * row where an attention block follows a Mamba block.) */
static bool join_by_mixers(ts_layers *l, const kernel_ent *k, ts_unit_result *r)
{
	uint32_t ref = l->finder.mixer_layers;
	bool twice = ref && r->n == 2 * (size_t)ref;
	bool halves = r->n >= 4 && r->n % 2 == 0;
	for (size_t j = 0; j < r->n && (twice || halves); j++) {
		if ((mixer_runs(k, r->start[j], r->end[j]) > 0) != (j % 2 == 0) ||
		    (j % 2 && r->start[j] != r->end[j - 1]))
			return false;
		halves = halves && unit_holds(k, r, j) == (j % 2 ? 2u : 1u);
	}
	if (!twice && !halves)
		return false;
	size_t n = r->n / 2;
	cuts c;
	if (!cuts_room(l, r, NULL, n, &c))
		return false;
	for (size_t i = 0; i < n; i++) {
		cuts_open(&c, r->start[2 * i]);
		cuts_close(&c, r->end[2 * i + 1]);
	}
	cuts_take(&c, r);
	return true;
}

/* Is unit j, with neither a mixer nor MLP work, a piece of a layer: every
 * kernel in it known by name or op, or shorter than half the unit after
 * it? (A layer whose kernels nothing names shows neither either.) */
static bool unit_piece(const kernel_ent *k, const ts_unit_result *r, size_t j)
{
	uint32_t len = r->end[j] - r->start[j];
	/* against the unit after it, or for the last, the one before */
	size_t o = j + 1 < r->n ? j + 1 : j ? j - 1 : j;
	if (o != j && 2 * len < r->end[o] - r->start[o])
		return true;
	for (uint32_t i = r->start[j]; i < r->end[j]; i++)
		if (!(k[i].marks & (M_TYPED | M_COPY | M_START)))
			return false;
	return true;
}

/* The longest unit holding both a mixer and MLP work, where most units
 * do (0 else): what one whole layer may run. */
static uint32_t longest_whole(const kernel_ent *k, const ts_unit_result *r)
{
	uint32_t most = 0;
	if (2 * units_whole(k, r) <= r->n)
		return 0;
	for (size_t j = 0; j < r->n; j++)
		if (unit_holds(k, r, j) == 3 && r->end[j] - r->start[j] > most)
			most = r->end[j] - r->start[j];
	return most;
}

/* The last unit of the layer that begins at unit j: a piece with neither
 * a mixer nor MLP work (an input norm and a projection the anchor cut
 * off) joins the mixer unit after it (any such unit, where most units are
 * whole: a layer has a mixer; a hybrid's attention layer whose anchor,
 * a norm chain's kernel, ran again before its q/k norms, cut it at a
 * third of its length), and with halves, a mixer unit with
 * no MLP work the MLP-only unit after it (a layer the anchor cut after
 * its attention). Where most units are whole (longest: the longest of
 * them), a short MLP-only unit after a whole one is the rest of its MLP
 * (the anchor ran again inside an eager expert loop), where the two are
 * no longer than a whole layer. */
static size_t layer_units_end(const kernel_ent *k, const ts_unit_result *r, size_t j, bool halves,
			      uint32_t longest)
{
	unsigned have = unit_holds(k, r, j);
	if (have == 0 && j + 1 < r->n && r->start[j + 1] == r->end[j] && (unit_holds(k, r, j + 1) & 1) &&
	    (longest || unit_piece(k, r, j)))
		have = unit_holds(k, r, ++j);
	if (halves && have == 1 && j + 1 < r->n && r->start[j + 1] == r->end[j] &&
	    unit_holds(k, r, j + 1) == 2)
		j++;
	else if (longest && have == 3 && j + 1 < r->n && r->start[j + 1] == r->end[j] &&
		 unit_holds(k, r, j + 1) == 2) {
		uint32_t a = r->end[j] - r->start[j], b = r->end[j + 1] - r->start[j + 1];
		if (2 * b < a && a + b <= longest)
			j++;
	}
	return j;
}

/* May a mixer-only unit and the MLP-only unit after it be one layer? Where
 * at least as many units hold both as such pairs (a hybrid's attention
 * layers among Mamba layers, each with its MLP, whose anchor, a GEMM
 * kernel, runs twice in them), or where so joined every layer that holds
 * work holds both (an MLA layer cut at its two projections and its MLP).
 * A hybrid whose layers are mixer-only and MLP-only (Nemotron-H) has no
 * unit with both, and mixer-only blocks side by side: kept. */
static bool halves_join(const kernel_ent *k, const ts_unit_result *r)
{
	size_t full = units_whole(k, r), pairs = 0, parts = 0, whole = 0;
	for (size_t j = 0; j + 1 < r->n; j++)
		pairs += unit_holds(k, r, j) == 1 && unit_holds(k, r, j + 1) == 2;
	for (size_t j = 0; j < r->n; j++) {
		size_t e = layer_units_end(k, r, j, true, 0);
		unsigned have = 0;
		for (size_t u = j; u <= e; u++)
			have |= unit_holds(k, r, u);
		parts += have != 0;
		whole += have == 3;
		j = e;
	}
	return (full >= 2 && full >= pairs) || (parts >= 2 && whole == parts);
}

/* Layers one anchor cut in parts (layer_units_end). False (r as it was)
 * where nothing joins or memory runs out. */
static bool join_parts(ts_layers *l, const kernel_ent *k, ts_unit_result *r)
{
	bool halves = halves_join(k, r);
	uint32_t longest = longest_whole(k, r);
	size_t joined = 0;
	for (size_t j = 0; j < r->n; j++) {
		size_t e = layer_units_end(k, r, j, halves, longest);
		joined += e - j;
		j = e;
	}
	cuts c;
	if (!joined || !cuts_room(l, r, NULL, r->n - joined, &c))
		return false;
	for (size_t j = 0; j < r->n; j++) {
		cuts_open(&c, r->start[j]);
		j = layer_units_end(k, r, j, halves, longest);
		cuts_close(&c, r->end[j]);
	}
	cuts_take(&c, r);
	return true;
}

/* A last unit with neither a mixer nor MLP work, a piece (unit_piece),
 * where most units hold both: the pass's tail (its final norm and LM
 * head, alike a layer's input norm and first projection) laid out as a
 * layer. It is no layer: the pass ends before it. */
static void drop_tail_piece(const kernel_ent *k, ts_unit_result *r)
{
	size_t j = r->n - 1;
	if (r->n >= 3 && 2 * units_whole(k, r) > r->n && unit_holds(k, r, j) == 0 && unit_piece(k, r, j))
		r->n--;
}

/* Are the units the finder laid out layers? Whether names are known
 * (they type most of the units' kernels) and a mixer ran in them (by
 * name or op), in *named and *attn. */
static bool units_are_layers(const kernel_ent *k, const ts_unit_result *r, size_t n, bool *named,
			     bool *attn)
{
	/* where names are known, a layer holds a mixer (attention, linear
	 * attention) by name and GEMM or MLP work: a unit of cache writes and
	 * copies (a graph capture's warm-up), a bare attention call, or a
	 * stack with no attention is no transformer layer */
	bool work = false;
	*attn = false;
	size_t typed = 0, held = 0;
	for (size_t j = 0; j < r->n; j++)
		for (size_t i = r->start[j]; i < r->end[j]; i++) {
			*attn |= (k[i].marks & M_ATTN) != 0;
			work |= (k[i].marks & (M_GEMM | M_MLP)) != 0;
			typed += (k[i].marks & M_TYPED) != 0;
			held++;
		}
	/* names are known when they type most of the layers' kernels: a rule
	 * that happens to match an opaque name or two says nothing */
	*named = 2 * typed >= held;
	if (*named && !((*attn || unnamed_mixer(k, r)) && work))
		return false;
	/* and a layer has its mixer (by name or op) or its norm at least:
	 * where more units are known to hold neither than hold a mixer,
	 * they are the turns of a loop inside a layer (an eager MoE block's
	 * expert body, run once an expert), not layers. As many may, so a
	 * hybrid whose MLP blocks are layers of their own keeps them. */
	if (*attn && units_known_bare(k, r) > 0)
		return false;
	/* a unit with no mixer in a pass whose mixer ran (by op) elsewhere
	 * is a loop inside a layer (an eager MoE block's expert body), the
	 * layer itself cut or irregular: no layer */
	return *named || *attn || !mixer_outside(k, n);
}

bool ts_lay_structure(ts_layers *l, bool at_edge)
{
	size_t n = l->staged.nkbuf - l->staged.kbuf0;
	if (l->opts.split_half_layers || n != l->pass.cur.kernels || n < 4 || n > UINT32_MAX / 2)
		return false;
	if (!l->finder.unit && !(l->finder.unit = ts_unit_new()))
		return false;
	if (!ts_grow((void **)&l->finder.ukey, &l->finder.ukey_cap, n, sizeof *l->finder.ukey, 1024, SIZE_MAX / 8, false) ||
	    !ts_grow((void **)&l->finder.umark, &l->finder.umark_cap, n, 1, 1024, SIZE_MAX / 8, false) ||
	    !ts_grow((void **)&l->finder.udur, &l->finder.udur_cap, n, sizeof *l->finder.udur, 1024, SIZE_MAX / 8, false))
		return false;
	const kernel_ent *k = l->staged.kbuf + l->staged.kbuf0;
	for (size_t i = 0; i < n; i++) {
		/* a name past the cap is a kernel of its own */
		l->finder.ukey[i] = k[i].row == TS_INTERN_NONE ? 0x80000000u | (uint32_t)i : k[i].row;
		l->finder.umark[i] = unit_marks(k[i].marks);
		l->finder.udur[i] = k[i].dur;
	}
	ts_unit_result r;
	if (!ts_unit_find(l->finder.unit, l->finder.ukey, l->finder.umark, l->finder.udur, n, &r) || r.n == 0)
		return false;
	bool named, attn;
	if (!units_are_layers(k, &r, n, &named, &attn))
		return false;
	bool halves = false;
	if (!named && !attn && !r.by_names && !split_units(l, l->finder.ukey, &r, n))
		join_units(l, &r, l->finder.ukey);
	else if (!named && attn && !r.by_names)
		split_by_mixers(l, k, l->finder.ukey, &r);
	else if (named)
		halves = join_by_mixers(l, k, &r);
	/* a layer the anchor cut in parts, mixers known by name or op */
	if (attn && !halves)
		join_parts(l, k, &r);
	if (attn)
		drop_tail_piece(k, &r);
	l->online.walk.nlayers = 0;
	l->online.walk.layers_dropped = 0;
	l->pass.cur.orphan_kernels = 0;
	l->pass.cur.orphan_ns = 0;
	size_t at = 0;
	for (size_t j = 0; j < r.n; j++) {
		for (; at < r.start[j]; at++) {   /* the head, between layers: none */
			l->pass.cur.orphan_kernels++;
			l->pass.cur.orphan_ns = ts_sat_add(l->pass.cur.orphan_ns, k[at].dur);
		}
		cur_layer c = layer_of(k + r.start[j], r.end[j] - r.start[j]);
		if (l->online.walk.nlayers < TS_MAX_LAYERS)
			l->online.layers[l->online.walk.nlayers] = c;
		else
			l->online.walk.layers_dropped++;
		l->online.walk.nlayers++;
		at = r.end[j];
	}
	for (; at < n; at++) {                   /* the tail */
		l->pass.cur.orphan_kernels++;
		l->pass.cur.orphan_ns = ts_sat_add(l->pass.cur.orphan_ns, k[at].dur);
	}
	/* a mixer no layer holds, or time between layers in none, puts the
	 * layout in doubt */
	l->pass.cur.attn_outside = 0;
	l->pass.cur.between_ns = 0;
	for (size_t i = 0, j = 0; i < n; i++) {
		while (j < r.n && i >= r.end[j])
			j++;
		bool inside = j < r.n && i >= r.start[j];
		if (!inside && (k[i].marks & M_ATTN))
			l->pass.cur.attn_outside++;
		if (!inside && r.n && i > r.start[0] && i < r.end[r.n - 1] &&
		    !(k[i].marks & M_ONCE) && k[i].dur > 0)
			l->pass.cur.between_ns = ts_sat_add(l->pass.cur.between_ns, k[i].dur);
	}
	l->pass.cur.cut_start = r.cut_start;
	/* the profile window cuts a pass only where the trace ends: inside a
	 * layer, or after one, before the pass's tail (every forward ends with
	 * its final norm and LM head after its last layer) */
	l->pass.cur.cut_end = (r.cut_end || r.end[r.n - 1] == n ||
			       (ts_lay_short_at_edge(l, (uint32_t)r.n) &&
				cut_layer(k, l->finder.ukey, &r, n, named))) && at_edge;
	/* boundaries the structure alone placed: none where names gave the phase */
	l->online.structural -= l->online.walk.pass_structural;
	l->online.walk.pass_structural = !r.by_names && r.n > 1 ? r.n - 1 : 0;
	l->online.structural += l->online.walk.pass_structural;
	l->online.attn_units -= l->online.walk.units;
	l->online.walk.units = (uint32_t)r.n;
	l->online.attn_units += l->online.walk.units;
	/* the listing follows, when it holds every kernel of the pass */
	if (l->listing.track && l->listing.dbg_all && l->listing.ndbg_cur == n) {
		size_t j = 0;
		for (size_t i = 0; i < n; i++) {
			while (j < r.n && i >= r.end[j])
				j++;
			l->listing.dbg_cur[i].layer = j < r.n && i >= r.start[j] ? (uint32_t)j : UINT32_MAX;
		}
	} else if (l->listing.track) {
		l->listing.dbg_lost = true;   /* no anatomy or sample from this pass */
	}
	return true;
}
