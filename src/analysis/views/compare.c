/*
 * compare.c - two finished analyses side by side (see compare.h).
 *
 * Operation rows: each side's kernel view is cut into pieces (report.h),
 * each piece goes to a group, fusions merge groups (a union-find over the
 * few groups), split groups get a row per shared category. Layers: the
 * per-index statistics of each side's layer machine. Alignment: an edit
 * distance over the kernels of each side's sample layer, with 1-to-many
 * steps for kernels that do one job together.
 */
#include "analysis/views/compare.h"
#include "input/base/satmath.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/kview.h"
#include "input/base/grow.h"

const char *ts_cmp_status_name(ts_cmp_status s)
{
	static const char *const n[] = { "similar", "slower", "faster" };
	return n[s];
}

const char *ts_pair_kind_name(ts_pair_kind k)
{
	static const char *const n[] = { "same", "similar", "fused", "different",
					 "a_only", "b_only" };
	return n[k];
}

static ts_cmp_status status_of(const ts_cmp_opts *o, double a, double b)
{
	double gap = b - a;
	if (fabs(gap) <= o->threshold_us * 1000.0)
		return TS_CMP_SIMILAR;
	if (a > 0 && fabs(gap) / a * 100.0 <= o->threshold_pct)
		return TS_CMP_SIMILAR;
	return gap > 0 ? TS_CMP_SLOWER : TS_CMP_FASTER;
}

const char *ts_cmp_kernel_name(const ts_compare *c, int side, const ts_cmp_kernel *k,
			       size_t *len)
{
	return ts_kview_row_name(c->r[side]->agg, k->row, len);
}

/* ------------------------------------------------------------ the pieces */

/* One piece of a side, with its group. */
typedef struct {
	ts_piece p;
	int group;
	int row;                 /* operation row, filled later */
} piece;

typedef struct {
	const ts_compare *c;
	int side;
	piece *v;
	size_t n, cap;
	bool nomem;
} piece_list;

static int group_of(const ts_compare *c, int side, const ts_piece *p)
{
	const ts_patterns *pt = c->patterns;
	size_t len;
	const char *name = ts_kview_row_name(c->r[side]->agg, p->row, &len);
	for (int g = 0; g < c->ngroups; g++)
		if (ts_selectors_any(&ts_patterns_group(pt, (size_t)g)->kernels,
				     p->cls->category, p->cls->type, name, len))
			return g;
	return c->ngroups;
}

static void collect(void *ctx, const ts_piece *p)
{
	piece_list *l = ctx;
	if (!ts_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v, 64, SIZE_MAX, false)) {
		l->nomem = true;
		return;
	}
	l->v[l->n++] = (piece){ *p, group_of(l->c, l->side, p), -1 };
}

static bool fused_piece(const ts_compare *c, int side, const ts_fusion *f, const piece *p)
{
	size_t len;
	const char *name = ts_kview_row_name(c->r[side]->agg, p->p.row, &len);
	return ts_selectors_any(&f->fused, p->p.cls->category, p->p.cls->type, name, len);
}

/* A piece that may be the fusion's fused form (its name cannot say). */
static bool maybe_piece(const ts_compare *c, int side, const ts_fusion *f, const piece *p)
{
	size_t len;
	const char *name = ts_kview_row_name(c->r[side]->agg, p->p.row, &len);
	return ts_selectors_any(&f->maybe, p->p.cls->category, p->p.cls->type, name, len);
}

/* ---------------------------------------------------------- union-find */

static int find(int *parent, int g)
{
	while (parent[g] != g)
		g = parent[g] = parent[parent[g]];
	return g;
}

static void unite(int *parent, int a, int b)
{
	a = find(parent, a);
	b = find(parent, b);
	if (a != b) {
		/* the smaller index is the root: rows keep the table's order */
		if (a < b)
			parent[b] = a;
		else
			parent[a] = b;
	}
}

/* ------------------------------------------------------------- the rows */

static void row_name(const ts_compare *c, const int *parent, int root, int category,
		     bool rest, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int g = 0; g <= c->ngroups; g++) {
		if (find((int *)parent, g) != root)
			continue;
		const char *gn = g == c->ngroups ? "other" : ts_patterns_group(c->patterns, (size_t)g)->name;
		int w = snprintf(buf + k, n - k, "%s%s", k ? " + " : "", gn);
		if (w < 0 || (size_t)w >= n - k)
			return;
		k += (size_t)w;
	}
	if (category >= 0)
		snprintf(buf + k, n - k, ": %s", ts_patterns_category(c->patterns, (size_t)category)->name);
	else if (rest)
		snprintf(buf + k, n - k, " (rest)");
}

static int by_ns_desc(const void *pa, const void *pb)
{
	const ts_cmp_kernel *a = pa, *b = pb;
	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static int by_gap_desc(const void *pa, const void *pb)
{
	const ts_cmp_op *a = pa, *b = pb;
	if (a->gap != b->gap)
		return a->gap > b->gap ? -1 : 1;
	return strcmp(a->name, b->name);
}

static double compared(const ts_compare *c, int side, int64_t ns)
{
	return c->per_pass ? (double)ns / (double)c->passes[side] : (double)ns;
}

/* Whether row's calls all have one class (no context took some of them
 * elsewhere): then the op that launched most of its calls speaks for the
 * piece; a generic collective kernel's all-gathers are not its
 * all-reduces' op. */
static bool one_class(const ts_agg *a, uint32_t row)
{
	uint64_t in;
	int64_t ns;
	int classes = ts_agg_ctx_total(a, row, &in, &ns);
	classes += a->rows[row].count > in;
	return classes <= 1;
}

static void finish_row(ts_compare *c, ts_cmp_op *r)
{
	for (int s = 0; s < 2; s++) {
		r->per_layer[s] = c->layers[s] ? (double)r->count[s] / (double)c->layers[s] : -1;
		r->cmp[s] = compared(c, s, r->ns[s]);
		qsort(r->k[s], r->nk[s], sizeof *r->k[s], by_ns_desc);
		r->op[s] = -1;
		if (r->nk[s] && r->k[s][0].row != UINT32_MAX && c->r[s]->attrib &&
		    one_class(c->r[s]->agg, r->k[s][0].row))
			r->op[s] = ts_attrib_parent_op(c->r[s]->attrib, r->k[s][0].row);
		r->callsite_len[s] = 0;
		r->callsite[s] = r->op[s] >= 0
			? ts_attrib_op_callsite(c->r[s]->attrib, (size_t)r->op[s], &r->callsite_len[s])
			: NULL;
	}
	r->unpaired = r->rest && r->nk[0] && r->nk[1];
	r->gap = r->cmp[1] - r->cmp[0];
	r->ratio = r->cmp[0] > 0 ? r->cmp[1] / r->cmp[0] : -1;
	r->status = status_of(&c->o, r->cmp[0], r->cmp[1]);
}

/* Which groups are one row: a union-find over the groups (ngroups + 1,
 * the last for kernels in none), and the fusion that united a set. */
typedef struct {
	int parent[TS_MAX_GROUPS + 1];
	int fusion_of[TS_MAX_GROUPS + 1], fused_side[TS_MAX_GROUPS + 1];
} grouping;

/* Fusions: one side runs the fused kernels, the other none of them but at
 * least two of the parts; their groups become one set. */
static void find_fusions(ts_compare *c, const piece_list *pl, grouping *gr)
{
	const ts_patterns *pt = c->patterns;
	int ng = c->ngroups + 1;
	int64_t gns[2][TS_MAX_GROUPS + 1] = { { 0 } };
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < pl[s].n; i++)
			gns[s][pl[s].v[i].group] = ts_sat_add(gns[s][pl[s].v[i].group], pl[s].v[i].p.ns);
	for (size_t f = 0; pt && f < ts_patterns_nfusions(pt); f++) {
		const ts_fusion *fu = ts_patterns_fusion(pt, f);
		uint64_t fused[2] = { 0, 0 };
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < pl[s].n; i++)
				if (fused_piece(c, s, fu, &pl[s].v[i]))
					fused[s] += pl[s].v[i].p.count;
		if ((fused[0] > 0) == (fused[1] > 0))
			continue;
		int fs = fused[0] ? 0 : 1, os = 1 - fs;
		/* the other side's claim "runs the parts separately" needs it to
		 * run no kernel that may be the fused form */
		bool maybe = false;
		for (size_t i = 0; i < pl[os].n && !maybe; i++)
			maybe = maybe_piece(c, os, fu, &pl[os].v[i]);
		if (maybe) {
			if (!c->fusions_unsure++) {
				c->unsure_fusion = (int)f;
				c->unsure_side = fs;
			}
			continue;
		}
		int separate = 0;
		for (size_t k = 0; k < fu->nparts; k++)
			separate += gns[os][fu->parts[k]] > 0;
		if (separate < 2)
			continue;
		for (size_t k = 1; k < fu->nparts; k++)
			unite(gr->parent, fu->parts[0], fu->parts[k]);
		for (size_t i = 0; i < pl[fs].n; i++)
			if (fused_piece(c, fs, fu, &pl[fs].v[i]))
				unite(gr->parent, fu->parts[0], pl[fs].v[i].group);
		int root = find(gr->parent, fu->parts[0]);
		if (gr->fusion_of[root] < 0) {
			gr->fusion_of[root] = (int)f;
			gr->fused_side[root] = fs;
		}
	}
	for (int g = 0; g < ng; g++) {
		int r = find(gr->parent, g);
		if (gr->fusion_of[g] >= 0 && r != g && gr->fusion_of[r] < 0) {
			gr->fusion_of[r] = gr->fusion_of[g];
			gr->fused_side[r] = gr->fused_side[g];
		}
	}

}

/* The rows: a row per set of groups, split groups a row per category both
 * sides run (and one for the rest); each piece's row set. */
static bool make_rows(ts_compare *c, piece_list *pl, grouping *gr)
{
	const ts_patterns *pt = c->patterns;
	int ng = c->ngroups + 1;
	size_t ncat = pt ? ts_patterns_ncategories(pt) : 0;
	unsigned char *has = calloc((ncat + 1) * 2, 1);
	int *catrow = malloc((ncat + 1) * sizeof *catrow);
	size_t cap = 0;
	if (!has || !catrow ||
	    !ts_grow((void **)&c->ops, &cap, 16, sizeof *c->ops, 16, SIZE_MAX, true)) {
		free(has);
		free(catrow);
		return false;
	}
	bool ok = true;
	for (int root = 0; root < ng && ok; root++) {
		if (find(gr->parent, root) != root)
			continue;
		bool merged = false;
		for (int g = 0; g < ng; g++)
			merged |= g != root && find(gr->parent, g) == root;
		bool split = !merged && root < c->ngroups && ts_patterns_group(pt, (size_t)root)->split;
		memset(has, 0, (ncat + 1) * 2);
		for (size_t k = 0; k <= ncat; k++)
			catrow[k] = -1;
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < pl[s].n; i++)
				if (find(gr->parent, pl[s].v[i].group) == root) {
					int cat = pl[s].v[i].p.cls->category;
					has[(cat < 0 ? ncat : (size_t)cat) * 2 + (size_t)s] = 1;
				}
		bool any = false, shared = false, rest = false;
		for (size_t k = 0; k <= ncat; k++) {
			any |= has[k * 2] || has[k * 2 + 1];
			bool both = has[k * 2] && has[k * 2 + 1] && k < ncat;
			shared |= both;
			rest |= (has[k * 2] || has[k * 2 + 1]) && !both;
		}
		if (!any)
			continue;
		/* the rows of this set: [shared categories...] [rest or whole] */
		int whole = -1;
		for (size_t k = 0; k <= ncat && ok; k++) {
			bool both = split && has[k * 2] && has[k * 2 + 1] && k < ncat;
			if (!both && !(k == ncat))
				continue;
			if (k == ncat && split && shared && !rest)
				break;
			if (!ts_grow((void **)&c->ops, &cap, c->nops + 1, sizeof *c->ops, 16, SIZE_MAX,
				     true)) {
				ok = false;
				break;
			}
			ts_cmp_op *r = &c->ops[c->nops];
			*r = (ts_cmp_op){ .group = root, .category = k < ncat ? (int)k : -1,
					  .fusion = gr->fusion_of[root], .fused_side = gr->fused_side[root],
					  .rest = k == ncat && split && shared };
			row_name(c, gr->parent, root, r->category, k == ncat && split && shared,
				 r->name, sizeof r->name);
			if (k < ncat)
				catrow[k] = (int)c->nops;
			else
				whole = (int)c->nops;
			c->nops++;
		}
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < pl[s].n; i++) {
				piece *p = &pl[s].v[i];
				if (find(gr->parent, p->group) != root)
					continue;
				int cat = p->p.cls->category;
				p->row = cat >= 0 && catrow[cat] >= 0 ? catrow[cat] : whole;
			}
	}
	free(has);
	free(catrow);
	return ok;

}

/* Each row's count, time and kernels from its pieces. */
static bool fill_rows(ts_compare *c, const piece_list *pl)
{
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < pl[s].n; i++) {
			piece *p = &pl[s].v[i];
			if (p->row < 0)
				continue;
			ts_cmp_op *r = &c->ops[p->row];
			r->count[s] += p->p.count;
			r->ns[s] = ts_sat_add(r->ns[s], p->p.ns);
			r->nk[s]++;
		}
		for (size_t r = 0; r < c->nops; r++) {
			c->ops[r].k[s] = calloc(c->ops[r].nk[s] ? c->ops[r].nk[s] : 1, sizeof **c->ops[r].k);
			if (!c->ops[r].k[s])
				return false;
			c->ops[r].nk[s] = 0;
		}
		for (size_t i = 0; i < pl[s].n; i++) {
			piece *p = &pl[s].v[i];
			if (p->row < 0)
				continue;
			ts_cmp_op *r = &c->ops[p->row];
			r->k[s][r->nk[s]++] = (ts_cmp_kernel){
				p->p.row == TS_ROW_OTHER ? UINT32_MAX : p->p.row, p->p.cls,
				p->p.count, p->p.ns };
		}
	}
	return true;
}


static bool build_ops(ts_compare *c, piece_list *pl)
{
	grouping gr;
	for (int g = 0; g < c->ngroups + 1; g++) {
		gr.parent[g] = g;
		gr.fusion_of[g] = gr.fused_side[g] = -1;
	}
	find_fusions(c, pl, &gr);
	if (!make_rows(c, pl, &gr) || !fill_rows(c, pl))
		return false;
	for (size_t r = 0; r < c->nops; r++)
		finish_row(c, &c->ops[r]);
	qsort(c->ops, c->nops, sizeof *c->ops, by_gap_desc);
	return true;
}

/* ----------------------------------------------------------- the layers */

/* Whether the two sides run one model: MoE on both or neither, and the
 * same depth where both have complete passes of a stage. */
static void models_alike(ts_compare *c)
{
	size_t k = 0, n = sizeof c->models_differ;
	char *w = c->models_differ;
	w[0] = '\0';
	bool m0 = c->r[0]->model.moe, m1 = c->r[1]->model.moe;
	if (m0 != m1)
		k += (size_t)snprintf(w + k, n - k, "A %s, B %s", m0 ? "MoE" : "dense",
				      m1 ? "MoE" : "dense");
	for (int st = 0; st < TS_PSTAGE_COUNT && k < n; st++) {
		const ts_layers *la = c->r[0]->layers, *lb = c->r[1]->layers;
		if (!la || !lb || !ts_layers_stage(la, (ts_pstage)st)->complete_passes ||
		    !ts_layers_stage(lb, (ts_pstage)st)->complete_passes ||
		    c->layer_count[st][0] == c->layer_count[st][1])
			continue;
		k += (size_t)snprintf(w + k, n - k, "%sA %" PRIu32 " layers per %s pass, B %" PRIu32,
				      k ? "; " : "", c->layer_count[st][0],
				      ts_pstage_name((ts_pstage)st), c->layer_count[st][1]);
		break;
	}
}

static bool build_layers(ts_compare *c)
{
	size_t cap = 0;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		if (c->o.staged && (ts_pstage)st != c->o.stage)
			continue;
		uint32_t n[2] = { 0, 0 };
		for (int s = 0; s < 2; s++)
			if (c->r[s]->layers)
				n[s] = ts_layers_max_index(c->r[s]->layers, (ts_pstage)st);
		c->layer_count[st][0] = n[0];
		c->layer_count[st][1] = n[1];
		cap += n[0] > n[1] ? n[0] : n[1];
	}
	if (cap == 0)
		return true;
	c->layers_rows = calloc(cap, sizeof *c->layers_rows);
	if (!c->layers_rows)
		return false;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		uint32_t m = c->layer_count[st][0] > c->layer_count[st][1]
			   ? c->layer_count[st][0] : c->layer_count[st][1];
		for (uint32_t i = 0; i < m; i++) {
			ts_cmp_layer *L = &c->layers_rows[c->nlayers];
			*L = (ts_cmp_layer){ .stage = (ts_pstage)st, .layer = i, .ratio = -1 };
			for (int s = 0; s < 2; s++) {
				if (i >= c->layer_count[st][s])
					continue;
				const ts_layer_stat *ls = ts_layers_stat(c->r[s]->layers, (ts_pstage)st, i);
				if (!ls || ls->time.count == 0)
					continue;
				L->has[s] = true;
				L->instances[s] = ls->time.count;
				L->mean[s] = (double)ls->time.total / (double)ls->time.count;
				L->p50[s] = ts_stat_quantile(&ls->time, 0.5);
				L->kernels[s] = (double)ls->kernels / (double)ls->time.count;
			}
			if (!L->has[0] && !L->has[1])
				continue;
			if (L->has[0] && L->has[1]) {
				L->gap = L->mean[1] - L->mean[0];
				L->ratio = L->mean[0] > 0 ? L->mean[1] / L->mean[0] : -1;
				L->status = status_of(&c->o, L->mean[0], L->mean[1]);
			}
			c->nlayers++;
		}
	}
	return true;
}

/* -------------------------------------------------------- the alignment */

typedef struct {
	int group;
	int category;
	ts_ktype type;
	uint32_t row;
	int fusion;              /* first fusion whose fused kernels pick it */
} akernel;

static void describe(const ts_compare *c, int side, const ts_layer_sample *smp,
		     akernel *out, size_t n)
{
	const ts_patterns *pt = c->patterns;
	for (size_t i = 0; i < n; i++) {
		const ts_debug_kernel *k = &smp->k[i];
		ts_piece p = { k->row == TS_INTERN_NONE ? TS_ROW_OTHER : k->row, &k->cls,
			       1, k->dur, -1 };
		size_t len;
		const char *name = ts_kview_row_name(c->r[side]->agg, p.row, &len);
		out[i] = (akernel){ .group = group_of(c, side, &p), .category = k->cls.category,
				    .type = k->cls.type, .row = k->row, .fusion = -1 };
		for (size_t f = 0; pt && f < ts_patterns_nfusions(pt); f++)
			if (ts_selectors_any(&ts_patterns_fusion(pt, f)->fused, k->cls.category,
					     k->cls.type, name, len)) {
				out[i].fusion = (int)f;
				break;
			}
	}
}

static bool in_parts(const ts_fusion *f, int group)
{
	for (size_t k = 0; k < f->nparts; k++)
		if (f->parts[k] == group)
			return true;
	return false;
}

/* The cost of x doing the job of y, and the kind of pair they make. */
static long pair_cost(const ts_compare *c, const akernel *x, const akernel *y,
		      ts_pair_kind *kind, int *fusion)
{
	const ts_align_costs *ac = ts_patterns_align_costs(c->patterns);
	*fusion = -1;
	if (x->category == y->category && (x->category >= 0 || x->type == y->type)) {
		*kind = TS_PAIR_SAME;
		return ac->same_category;
	}
	if (x->group == y->group) {
		*kind = TS_PAIR_SIMILAR;
		return ac->same_group;
	}
	const akernel *f = x->fusion >= 0 ? x : y, *o = f == x ? y : x;
	if (f->fusion >= 0 && in_parts(ts_patterns_fusion(c->patterns, (size_t)f->fusion), o->group)) {
		*kind = TS_PAIR_FUSED;
		*fusion = f->fusion;
		return ac->fused;
	}
	*kind = TS_PAIR_DIFFERENT;
	return ac->different;
}

#define MAX_JOIN 4               /* kernels on the many side of a pair */

/* Step that reached a cell: 0 diagonal, 1 A only, 2 B only,
 * 16 + k: A's one kernel with B's k, 32 + k: A's k with B's one. */
/* The cost of one kernel of one side doing the job of the k kernels
 * before it on the other (side 0: A[i - 1] against B[j - k .. j - 1]):
 * the worst of the pairs, or -1 when one is worse than kin (same group or
 * fused). */
static long join_cost(ts_compare *c, const akernel *A, const akernel *B, size_t i, size_t j,
		      size_t k, int side, long worst)
{
	long mx = 0;
	ts_pair_kind kd;
	int fu;
	for (size_t t = (side ? i : j) - k; t < (side ? i : j); t++) {
		long cst = side ? pair_cost(c, &A[t], &B[j - 1], &kd, &fu)
				: pair_cost(c, &A[i - 1], &B[t], &kd, &fu);
		if (cst > worst)
			return -1;
		mx = cst > mx ? cst : mx;
	}
	return mx;
}

/* Cell (i, j) of the alignment: the cheapest of a pair, a gap on either
 * side, or one kernel for up to MAX_JOIN of the other's; *how says which
 * (0 pair, 1 A alone, 2 B alone, 16 + k: A for k of B's, 32 + k: B for k
 * of A's). */
static long cell(ts_compare *c, const akernel *A, const akernel *B, const long *D, size_t W,
		 size_t i, size_t j, unsigned char *how)
{
	const ts_align_costs *ac = ts_patterns_align_costs(c->patterns);
	long worst = ac->same_group > ac->fused ? ac->same_group : ac->fused;
	long best = i || j ? -1 : 0;
	ts_pair_kind kd;
	int fu;
	*how = 0;
	if (i && j)
		best = D[(i - 1) * W + j - 1] + pair_cost(c, &A[i - 1], &B[j - 1], &kd, &fu);
	if (i && (best < 0 || D[(i - 1) * W + j] + ac->gap < best)) {
		best = D[(i - 1) * W + j] + ac->gap;
		*how = 1;
	}
	if (j && (best < 0 || D[i * W + j - 1] + ac->gap < best)) {
		best = D[i * W + j - 1] + ac->gap;
		*how = 2;
	}
	for (int side = 0; side < 2; side++) {
		size_t have = side ? i : j;
		for (size_t k = 2; k <= MAX_JOIN && (side ? j : i) && have >= k; k++) {
			long mx = join_cost(c, A, B, i, j, k, side, worst);
			if (mx < 0)
				break;
			long v = (side ? D[(i - k) * W + j - 1] : D[(i - 1) * W + j - k]) + mx +
				 (long)(k - 1) * ac->join;
			if (v < best) {
				best = v;
				*how = (unsigned char)((side ? 32 : 16) + k);
			}
		}
	}
	return best;
}

/* The pairs of the cheapest alignment, walked back from (n, m) by the
 * steps cell() chose, in order. */
static void walk_back(ts_compare *c, ts_cmp_align *al, const akernel *A, const akernel *B,
		      const unsigned char *step, size_t n, size_t m)
{
	size_t W = m + 1, i = n, j = m, np = 0;
	double ia = al->s[0]->instances ? al->s[0]->instances : 1;
	double ib = al->s[1]->instances ? al->s[1]->instances : 1;
	while (i || j) {
		unsigned char how = step[i * W + j];
		ts_cmp_pair p = { .fusion = -1 };
		size_t da = 1, db = 1;
		if (how == 1)
			db = 0;
		else if (how == 2)
			da = 0;
		else if (how >= 32)
			da = how - 32;
		else if (how >= 16)
			db = how - 16;
		p.a0 = (uint32_t)(i - da);
		p.na = (uint32_t)da;
		p.b0 = (uint32_t)(j - db);
		p.nb = (uint32_t)db;
		if (!da) {
			p.kind = TS_PAIR_B_ONLY;
		} else if (!db) {
			p.kind = TS_PAIR_A_ONLY;
		} else {
			/* the pair's kind: the worst of its members */
			p.kind = TS_PAIR_SAME;
			for (size_t x = 0; x < da; x++)
				for (size_t y = 0; y < db; y++) {
					ts_pair_kind kd;
					int fu;
					pair_cost(c, &A[p.a0 + x], &B[p.b0 + y], &kd, &fu);
					if (kd > p.kind) {
						p.kind = kd;
						p.fusion = fu;
					}
				}
		}
		for (size_t x = 0; x < da; x++)
			p.a_ns += (double)al->s[0]->k[p.a0 + x].dur / ia;
		for (size_t y = 0; y < db; y++)
			p.b_ns += (double)al->s[1]->k[p.b0 + y].dur / ib;
		al->pairs[np++] = p;
		i -= da;
		j -= db;
	}
	for (size_t k = 0; k < np / 2; k++) {
		ts_cmp_pair t = al->pairs[k];
		al->pairs[k] = al->pairs[np - 1 - k];
		al->pairs[np - 1 - k] = t;
	}
	al->npairs = np;
}

static bool align_stage(ts_compare *c, ts_cmp_align *al)
{
	size_t n = al->s[0]->n, m = al->s[1]->n;
	if (n > TS_CMP_ALIGN_MAX || m > TS_CMP_ALIGN_MAX)
		al->truncated = true;
	if (n > TS_CMP_ALIGN_MAX)
		n = TS_CMP_ALIGN_MAX;
	if (m > TS_CMP_ALIGN_MAX)
		m = TS_CMP_ALIGN_MAX;
	akernel *A = malloc((n + 1) * sizeof *A), *B = malloc((m + 1) * sizeof *B);
	long *D = malloc((n + 1) * (m + 1) * sizeof *D);
	unsigned char *step = malloc((n + 1) * (m + 1));
	al->pairs = malloc((n + m + 1) * sizeof *al->pairs);
	bool ok = A && B && D && step && al->pairs;
	if (ok) {
		describe(c, 0, al->s[0], A, n);
		describe(c, 1, al->s[1], B, m);
		size_t W = m + 1;
		for (size_t i = 0; i <= n; i++)
			for (size_t j = 0; j <= m; j++)
				D[i * W + j] = cell(c, A, B, D, W, i, j, &step[i * W + j]);
		al->cost = D[n * W + m];
		walk_back(c, al, A, B, step, n, m);
	}
	free(A);
	free(B);
	free(D);
	free(step);
	return ok;
}

/* --------------------------------------------------------------- public */

/* Each stage both sides have steps of (the view's stage alone). */
static void build_latency(ts_compare *c)
{
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		ts_cmp_latency *x = &c->latency[st];
		if (c->o.staged && (ts_pstage)st != c->o.stage)
			continue;
		bool both = true;
		for (int s = 0; s < 2 && both; s++)
			both = ts_sview_of(c->r[s]->layers, c->r[s]->api, (ts_pstage)st, &x->steps[s]) &&
			       !x->steps[s].of_partials &&
			       ts_step_split_of(c->r[s]->layers, c->r[s]->api, (ts_pstage)st, &x->split[s]);
		if (!both) {
			memset(x, 0, sizeof *x);
			continue;
		}
		x->has = true;
		x->gap_ns = x->split[1].step_ns - x->split[0].step_ns;
		x->ratio = x->split[0].step_ns > 0 ? x->split[1].step_ns / x->split[0].step_ns : -1;
		x->status = status_of(&c->o, x->split[0].step_ns, x->split[1].step_ns);
		for (int s = 0; s < 2; s++) {
			const ts_whatif *w = ts_result_module(c->r[s], &ts_whatif_module);
			const ts_wi_stage *ws = w ? ts_whatif_stage(w, (ts_pstage)st) : NULL;
			x->wi[s] = ws && ws->steps ? ws : NULL;
		}
		x->token_ratio = x->steps[0].token_ns > 0 && x->steps[1].token_ns > 0
			? (double)x->steps[1].token_ns / (double)x->steps[0].token_ns : -1;
	}
}

ts_compare *ts_compare_new(const ts_result *a, const ts_result *b,
			   const char *name_a, const char *name_b,
			   const ts_cmp_opts *o)
{
	ts_compare *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->r[0] = a;
	c->r[1] = b;
	c->name[0] = name_a;
	c->name[1] = name_b;
	c->o = *o;
	c->patterns = a->patterns;
	c->ngroups = c->patterns ? (int)ts_patterns_ngroups(c->patterns) : 0;
	c->unsure_fusion = c->unsure_side = -1;
	piece_list pl[2] = { { .c = c, .side = 0 }, { .c = c, .side = 1 } };
	bool ok = true;
	for (int s = 0; s < 2; s++) {
		const ts_result *r = c->r[s];
		ts_kview v = ts_kview_of(r, o->staged, o->stage);
		c->kernel_ns[s] = v.all->total;
		c->kernels[s] = v.all->count;
		c->busy_ns[s] = ts_agg_busy_ns(r->agg);
		for (int st = 0; st < TS_PSTAGE_COUNT; st++)
			c->stage[st][s] = r->layers ? ts_layers_stage(r->layers, (ts_pstage)st) : NULL;
		for (int kd = 0; kd < TS_COMM_KINDS; kd++)
			ts_comm_kind_total(r->comm, (ts_comm_kind)kd, &c->comm[kd][s]);
		for (int st = 0; st < TS_PSTAGE_COUNT && r->layers; st++) {
			if (o->staged && (ts_pstage)st != o->stage)
				continue;
			const ts_stage_total *t = ts_layers_stage(r->layers, (ts_pstage)st);
			c->passes[s] += t->passes;
			c->complete[s] += t->complete_passes;
			c->layers[s] += t->layers;
		}
		ts_kview_pieces(r, &v, false, collect, &pl[s]);
		ok &= !pl[s].nomem;
	}
	c->per_pass = c->passes[0] && c->passes[1] && c->passes[0] != c->passes[1];
	if (c->passes[0] && c->passes[1] && a->layers && b->layers) {
		bool common = false;
		for (int st = 0; st < TS_PSTAGE_COUNT; st++)
			common |= ts_layers_stage(a->layers, (ts_pstage)st)->passes > 0 &&
				  ts_layers_stage(b->layers, (ts_pstage)st)->passes > 0 &&
				  (!o->staged || (ts_pstage)st == o->stage);
		c->stages_differ = !common;
	}
	for (int s = 0; s < 2; s++)
		c->cmp_total[s] = compared(c, s, c->kernel_ns[s]);
	c->gap = c->cmp_total[1] - c->cmp_total[0];
	c->ratio = c->cmp_total[0] > 0 ? c->cmp_total[1] / c->cmp_total[0] : -1;
	c->status = status_of(&c->o, c->cmp_total[0], c->cmp_total[1]);
	build_latency(c);
	ok = ok && build_ops(c, pl) && build_layers(c);
	if (ok)
		models_alike(c);
	for (int st = 0; ok && st < TS_PSTAGE_COUNT; st++) {
		if (o->staged && (ts_pstage)st != o->stage)
			continue;
		ts_cmp_align *al = &c->align[st];
		for (int s = 0; s < 2; s++)
			al->s[s] = c->r[s]->layers ? ts_layers_sample(c->r[s]->layers, (ts_pstage)st) : NULL;
		if (al->s[0] && al->s[1] && c->patterns)
			ok = align_stage(c, al);
	}
	free(pl[0].v);
	free(pl[1].v);
	if (!ok) {
		ts_compare_free(c);
		return NULL;
	}
	return c;
}

void ts_compare_free(ts_compare *c)
{
	if (!c)
		return;
	for (size_t r = 0; r < c->nops; r++) {
		free(c->ops[r].k[0]);
		free(c->ops[r].k[1]);
	}
	free(c->ops);
	free(c->layers_rows);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++)
		free(c->align[st].pairs);
	free(c);
}
