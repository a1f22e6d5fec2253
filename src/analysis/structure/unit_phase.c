/*
 * unit_phase.c - where a layer starts inside the repeating unit: by name
 * (the input norm after the attention, its projection and the MLP), by
 * structure (where the periodic run begins before the first anchor and how
 * far the tail repeats a layer's start), the two reconciled where names
 * cannot tell a layer's two norms apart, and a boundary the alignment
 * placed a kernel off moved back to the reference's pair.
 */
#include "analysis/structure/unit_int.h"

static bool has(const ts_unit *u, slice r, uint32_t c, uint8_t bit)
{
	return (u->mark[r.at + c % r.n] & bit) != 0;
}

/* Copies and casts right before the norm at s belong to it (an eager norm
 * casts to float first), up to column stop. */
static uint32_t with_copies(const ts_unit *u, slice r, uint32_t s, uint32_t stop)
{
	uint32_t L = r.n;
	for (uint32_t d = 0; d + 1 < L; d++) {
		uint32_t p = (s + L - 1) % L;
		if (p == stop || !has(u, r, p, TS_UNIT_COPY))
			break;
		s = p;
	}
	return s;
}

/* Where a layer starts in the segment r (a column), by name, or -1: the
 * input norm. After the attention run come its output projection, the
 * post-attention norm (a gated norm inside the mixer comes before the
 * projection) and MLP work; the layer's start is then the last norm before
 * the next GEMM or attention. With no attention by name, the first norm
 * after the MLP's last mark. */
int32_t ts_unit_names_beta(const ts_unit *u, slice r)
{
	uint32_t L = r.n, a = UINT32_MAX;
	for (uint32_t c = 0; c < L && a == UINT32_MAX; c++)
		if (has(u, r, c, TS_UNIT_ATTN))
			a = c;
	if (a == UINT32_MAX) {
		uint32_t last = UINT32_MAX;
		for (uint32_t c = 0; c < L; c++)
			if (has(u, r, c, TS_UNIT_MLP))
				last = c;
		if (last == UINT32_MAX)
			return -1;
		uint32_t c = last;
		while (c + 1 < last + L && has(u, r, c + 1, TS_UNIT_MLP))
			c++;
		for (uint32_t d = 1; d < L; d++) {
			uint32_t cc = (c + d) % L;
			if (has(u, r, cc, TS_UNIT_MLP))
				return -1;
			if (has(u, r, cc, TS_UNIT_NORM))
				return (int32_t)with_copies(u, r, cc, UINT32_MAX);
		}
		return -1;
	}
	uint32_t c = a, end = a + L;
	while (c < end && has(u, r, c, TS_UNIT_ATTN))
		c++;
	while (c < end && !has(u, r, c, TS_UNIT_GEMM))
		c++;
	while (c < end && !has(u, r, c, TS_UNIT_NORM))
		c++;
	if (c >= end)
		return -1;
	while (c < end && !has(u, r, c, TS_UNIT_GEMM | TS_UNIT_MLP))
		c++;
	while (c < end && !has(u, r, c, TS_UNIT_NORM))
		c++;
	if (c >= end)
		return -1;
	uint32_t s = c;
	while (c < end && !has(u, r, c, TS_UNIT_GEMM | TS_UNIT_ATTN)) {
		if (has(u, r, c, TS_UNIT_NORM))
			s = c;
		c++;
	}
	return (int32_t)with_copies(u, r, s % L, a);
}

/* Whether the kernel at i runs about as long as its counterpart at ref
 * (within 4x, give or take 5 us: a 1 us kernel's time is mostly launch
 * jitter; unknown durations agree): the LM head on the layers' GEMM kernel
 * runs the vocabulary, many times a layer's projection. */
bool ts_unit_as_long(const ts_unit *u, size_t i, size_t ref)
{
	if (!u->dur || ref >= u->n || u->dur[ref] <= 0 || u->dur[i] <= 0)
		return true;
	int64_t a = u->dur[i], b = u->dur[ref], slack = 5000;
	return a <= 4 * b + slack && b <= 4 * a + slack;
}

/* The same, the question and its answer recorded for the memo. */
static bool as_long(const ts_unit *u, size_t i, size_t ref)
{
	bool r = ts_unit_as_long(u, i, ref);
	if (u->asking)
		ts_unit_asked(u->asking, ts_unit_own_index(u, i), ts_unit_own_index(u, ref), r);
	return r;
}

/* Whether the kernel at i repeats column c of the unit r, the kernel at
 * ref (one period before) its counterpart: the same kernel, as long. */
static bool repeats(const ts_unit *u, slice r, size_t i, size_t ref, uint32_t c)
{
	return i < u->n && u->id[i] == r.k[c % r.n] && as_long(u, i, ref);
}

/* Both kernels run once in the pass: Inductor names a fused kernel by its
 * place in its graph, so two layers compiled apart run the same norm under
 * two names. */
static bool renamed(const ts_unit *u, size_t i, size_t j)
{
	return i < u->n && j < u->n && u->cnt[u->id[i]] == 1 && u->cnt[u->id[j]] == 1;
}

/* One step of an exact run of *k kernels: a kernel that repeats its
 * counterpart takes the run over the *gap renamed ones (above) before it;
 * up to three renamed ones in a row wait for one. False: the run ends. */
static bool run_step(bool same_kernel, bool renamed_pair, uint32_t *k, uint32_t *gap)
{
	if (same_kernel) {
		*k += *gap + 1;
		*gap = 0;
	} else if (*gap < 3 && renamed_pair)
		(*gap)++;
	else
		return false;
	return true;
}

/* Kernels from a (stepping step) that repeat those from b, up to cap: the
 * same kernel, as long (run_step). */
static uint32_t run_like(const ts_unit *u, size_t a, size_t b, uint32_t cap, int step)
{
	uint32_t k = 0, gap = 0;
	while (k + gap < cap) {
		uint32_t m = k + gap;
		size_t i = step > 0 ? a + m : a - m, j = step > 0 ? b + m : b - m;
		if ((step < 0 && (m > a || m > b)) || i >= u->n || j >= u->n ||
		    !run_step(u->id[i] == u->id[j] && as_long(u, i, j), renamed(u, i, j), &k, &gap))
			break;
	}
	return k;
}

/* Does the run of n columns of r from column c run elsewhere in r too
 * (cyclically)? */
static bool runs_elsewhere(slice r, uint32_t c, uint32_t n)
{
	uint32_t L = r.n;
	for (uint32_t d = 1; d < L; d++) {
		uint32_t k = 0;
		while (k < n && r.k[(c + k) % L] == r.k[(c + d + k) % L])
			k++;
		if (k == n)
			return true;
	}
	return false;
}

/* The periodic run reaches e kernels beyond the layers: the head's last
 * ones repeat the layers' last columns (an embedding's all-reduce), the
 * tail's first ones their first columns (the final norm). The final norm
 * is the norm a layer also runs in its middle (the post-attention norm,
 * the same kernels): the tail takes the longest such run of the first
 * columns, the head the rest. None: all of it is the tail's (an unfused
 * final norm after an embedding no layer runs). */
static uint32_t split_excess(slice r, uint32_t col, uint32_t e)
{
	/* a final norm is a few kernels: runs of 64 at most are tried (each
	 * try costs a layer's length times the run's) */
	for (uint32_t t = e < 64 ? e : 64; t >= 1; t--)
		if (runs_elsewhere(r, (col + e - t) % r.n, t))
			return (col + e - t) % r.n;
	return col;
}

/* The same without names: where the periodic run begins before the first
 * anchor (o[0]) and how far, exactly, the tail repeats a layer's start
 * after the last one (o[no - 1]). Layer 0 usually starts with a kernel of
 * its own (a norm with no residual yet) where the tail repeats the layers'
 * first kernel (the final norm): the two cancel (e = 0) and the layer
 * starts one column before the run. A tail that repeats more (e > 0: an
 * unfused final norm) leaves the start at the run's; a shorter run (e < 0:
 * the first layer is irregular) puts it where the tail stops repeating.
 * Both ends are also held against every other layer of the pass as it
 * ran (a hybrid's first and last layers need not be the reference's
 * kind): the longest exact run counts, with its own layer's length. */
uint32_t ts_unit_structural_beta(ts_unit *u, const uint32_t *o, size_t no, slice r, uint32_t *alt)
{
	*alt = UINT32_MAX;
	uint32_t L = r.n;
	tpl back = { r, true };
	walked w = ts_unit_walk(u, back, o[0] - 1, -1, L, false);
	size_t at = o[no - 1];
	uint32_t c = 0, cap = L + L / 2, Lx = L;
	for (uint32_t g = 0; c + g < cap;)
		if (!run_step(repeats(u, r, at + c + g, at + c + g - L, c + g),
			      renamed(u, at + c + g, at + c + g - L), &c, &g))
			break;
	/* one kernel of its own between the last layer and the tail (a
	 * scheduler, a planner) does not hide the final norm */
	uint32_t d = 0;
	while (c + d < cap && repeats(u, r, at + c + 1 + d, at + c + d - L, c + d))
		d++;
	c += d;
	/* a walk back over a whole period passed a layer 0 the grid left out
	 * (an anchor of its own, at a spacing of its own): it says nothing of
	 * the phase; the exact runs below do */
	if (w.cols >= L)
		w = (walked){ 0, 0, 0 };
	for (size_t j = 0; j + 1 < no; j++) {
		uint32_t len = o[j + 1] - o[j], k = run_like(u, at, o[j], len + len / 2, 1);
		if (k > c) {
			c = k;
			Lx = len;
		}
		if (o[0] > 0) {
			uint32_t kb = run_like(u, o[0] - 1, o[j + 1] - 1, cap, -1);
			if (kb > w.cols)
				w = (walked){ kb, kb, 2 * (int32_t)kb };
		}
	}
	/* the anchor ran before the grid (a first layer of another kind, the
	 * dense layer of a MoE model): the head lies before that layer, whose
	 * end is like the reference's (a residual add), so the runs back from
	 * there say where the head ends */
	uint32_t p = u->first[u->id[o[0]]];
	if (p > 0 && p < o[0]) {
		uint32_t kp = 0;
		for (size_t j = 0; j + 1 < no; j++) {
			uint32_t kb = run_like(u, p - 1, o[j + 1] - 1, cap, -1);
			kp = kb > kp ? kb : kp;
		}
		if (kp > 0)
			w = (walked){ kp, kp, 2 * (int32_t)kp };
	}
	int64_t e = (int64_t)w.cols + c - Lx;
	uint32_t col_back = (L - w.cols % L) % L, col_fwd = (c + L - Lx % L) % L;
	if (e < 0) {
		/* the tail's last repeat is the layers' first kernel (the final
		 * norm) or their last (an all-reduce): layer 0, irregular,
		 * starts with a kernel of its own */
		uint32_t col_b = (col_fwd + L - 1) % L;
		size_t sa = L - (col_fwd ? col_fwd : L), sb = L - (col_b ? col_b : L);
		bool own_a = o[0] >= sa && u->cnt[u->id[o[0] - sa]] == 1;
		bool own_b = o[0] >= sb && u->cnt[u->id[o[0] - sb]] == 1;
		/* or the last layer is (the first k dense, then MoE): the
		 * walk back holds; the layers' mixers choose (layout) */
		*alt = col_back;
		return own_b && !own_a ? col_b : col_fwd;
	}
	/* layer 0 a piece of its own (kernels of its own inside it, a first
	 * compiled graph): its first kernel is its own too */
	bool own = w.score < 2 * (int32_t)w.cols;
	if ((e == 0 || (e > 0 && own)) && o[0] >= w.keys + 1)
		return (col_back + L - 1) % L;
	return e > 0 ? split_excess(r, col_back, (uint32_t)(e < L ? e : L - 1)) : col_back;
}

bool ts_unit_has_attn(const ts_unit *u, slice r)
{
	for (uint32_t c = 0; c < r.n; c++)
		if (has(u, r, c, TS_UNIT_ATTN))
			return true;
	return false;
}

/* Where the reference kind shows no attention by name (a linear-attention
 * mixer built of plain ops), the names' start (the first norm after the
 * last MLP mark) is a guess between the layer's two norms (the mixer's
 * activations read as MLP marks): the structure's phase decides, snapped
 * to the start of the norm nearest it. No norm by name: dflt. */
uint32_t ts_unit_nearest_norm(const ts_unit *u, slice r, uint32_t sb, uint32_t dflt)
{
	uint32_t L = r.n, best = UINT32_MAX, pick = dflt;
	sb %= L;
	for (uint32_t c = 0; c < L; c++) {
		if (!has(u, r, c, TS_UNIT_NORM) || has(u, r, (c + L - 1) % L, TS_UNIT_NORM))
			continue;
		uint32_t s = with_copies(u, r, c, UINT32_MAX);
		uint32_t d = s > sb ? s - sb : sb - s;
		if (L - d < d)
			d = L - d;
		if (d < best) {
			best = d;
			pick = s;
		}
	}
	return pick;
}

/* The alignment can swap a kernel across the boundary where the segment
 * differs from the reference (a MoE layer with other experts): the
 * boundary, when the kernel there is not the reference's first, is where
 * the reference's pair around it (the last kernel of a layer, the first of
 * the next) runs, within two kernels. */
uint32_t ts_unit_near_pair(slice s, slice r, uint32_t beta, uint32_t b)
{
	uint32_t L = r.n, x = r.k[beta], y = r.k[(beta + L - 1) % L];
	if (b < s.n && s.k[b] == x)
		return b;
	for (uint32_t d = 0; d <= 2; d++)
		for (int sg = 1; sg >= -1; sg -= 2) {
			int64_t p = (int64_t)b + sg * (int64_t)d;
			if (p >= 1 && p < (int64_t)s.n && s.k[p] == x && s.k[p - 1] == y)
				return (uint32_t)p;
			if (!d)
				break;
		}
	return b;
}
