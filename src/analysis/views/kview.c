/*
 * kview.c - the kernel rows of a finished analysis as every report and the
 * comparison read them: all or one stage's, ordered, cut into pieces by
 * context, summed by type and category; operator coverage; short names
 * told apart (see kview.h).
 */
#include "analysis/views/kview.h"
#include "input/base/hash.h"
#include "input/base/satmath.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

ts_kview ts_kview_of(const ts_result *res, bool staged, ts_pstage stage)
{
	const ts_agg *a = res->agg;
	ts_kview v = { .agg = a, .rows = a->rows, .other = &a->other, .all = &a->all };
	if (staged && res->layers) {
		v.staged = true;
		v.stage = stage;
		v.rows = ts_layers_stage_rows(res->layers, stage, &v.other, &v.all);
	}
	return v;
}

const ts_stat *ts_kview_row(const ts_kview *v, uint32_t row)
{
	static const ts_stat empty;
	if (row == TS_ROW_OTHER)
		return v->other;
	return v->rows ? &v->rows[row] : &empty;
}

const char *ts_kview_row_name(const ts_agg *a, uint32_t row, size_t *len)
{
	if (row == TS_ROW_OTHER) {
		*len = 7;
		return "(other)";
	}
	return ts_intern_str(a->names, row, len);
}

/* qsort has no context argument in C11; the order needs the agg. Sorting
 * (total, row) pairs keeps it reentrant. */
typedef struct {
	int64_t total;
	const char *name;
	size_t len;
	uint32_t row;
} sort_key;

static int by_total_then_name(const void *pa, const void *pb)
{
	const sort_key *a = pa, *b = pb;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

uint32_t *ts_kview_kernel_order(const ts_kview *v, size_t *n)
{
	const ts_agg *a = v->agg;
	uint32_t rows = ts_intern_count(a->names);
	size_t cnt = 0;
	sort_key *keys = malloc((rows + 1) * sizeof *keys);
	uint32_t *order = malloc((rows + 1) * sizeof *order);
	if (!keys || !order) {
		free(keys);
		free(order);
		*n = 0;
		return NULL;
	}
	for (uint32_t i = 0; i <= rows; i++) {
		uint32_t row = i == rows ? TS_ROW_OTHER : i;
		const ts_stat *s = ts_kview_row(v, row);
		if (s->count == 0)
			continue;
		sort_key *k = &keys[cnt++];
		k->total = s->total;
		k->row = row;
		k->name = ts_kview_row_name(a, row, &k->len);
	}
	qsort(keys, cnt, sizeof *keys, by_total_then_name);
	for (size_t i = 0; i < cnt; i++)
		order[i] = keys[i].row;
	free(keys);
	*n = cnt;
	return order;
}

const ts_kclass *ts_kview_row_class(const ts_agg *a, uint32_t row)
{
	if (row == TS_ROW_OTHER)
		return &ts_other_class;
	return ts_agg_row_class(a, row);
}

void ts_kview_pieces(const ts_result *res, const ts_kview *v, bool with_mem,
		      ts_piece_fn fn, void *ctx)
{
	const ts_agg *a = res->agg;
	uint32_t n = ts_intern_count(a->names);
	const ts_ctx_stat *sctx = v->staged && res->layers
				  ? ts_layers_stage_ctx(res->layers, v->stage) : NULL;
	for (uint32_t i = 0; i < n; i++) {
		const ts_stat *s = ts_kview_row(v, i);
		if (s->count == 0)
			continue;
		/* the parts of a name's time that ran in contexts go to the
		 * contexts' categories */
		const ts_ctxrow *x = ts_agg_ctx(a, i);
		uint64_t cc[TS_CTX_SLOTS] = { 0 }, ccs = 0;
		int64_t cns[TS_CTX_SLOTS] = { 0 }, cnss = 0;
		for (int k = 0; k < TS_CTX_SLOTS && x[k].category >= 0; k++) {
			const ts_ctx_stat *sx = sctx ? &sctx[(size_t)i * TS_CTX_SLOTS + (size_t)k] : NULL;
			cc[k] = v->staged ? (sx ? sx->count : 0) : x[k].count;
			cns[k] = v->staged ? (sx ? sx->ns : 0) : x[k].ns;
			ccs += cc[k];
			cnss += cns[k];
		}
		if (s->count > ccs)
			fn(ctx, &(ts_piece){ i, &a->classes[i], s->count - ccs, s->total - cnss, -1 });
		for (int k = 0; k < TS_CTX_SLOTS; k++)
			if (cc[k])
				fn(ctx, &(ts_piece){ i, &x[k].cls, cc[k], cns[k], -1 });
	}
	if (v->other->count)
		fn(ctx, &(ts_piece){ TS_ROW_OTHER, &ts_other_class, v->other->count,
				      v->other->total, -1 });
	for (int k = 0; k < TS_MEM_COUNT && with_mem && !v->staged; k++)
		if (a->mem[k].count)
			fn(ctx, &(ts_piece){ TS_ROW_OTHER, &a->mem_class[k], a->mem[k].count,
					      a->mem[k].total_ns, k });
}

static void add_bucket(void *ctx, const ts_piece *p)
{
	ts_breakdown *b = ctx;
	const ts_kclass *c = p->cls;
	b->types[c->type].count += p->count;
	b->types[c->type].total_ns = ts_sat_add(b->types[c->type].total_ns, p->ns);
	size_t ci = c->category < 0 ? b->ncats : (size_t)c->category;
	b->cats[ci].count += p->count;
	b->cats[ci].total_ns = ts_sat_add(b->cats[ci].total_ns, p->ns);
	b->total_ns = ts_sat_add(b->total_ns, p->ns);
	if (p->mem < 0 && c->type != TS_TYPE_OTHER)
		b->classified_ns = ts_sat_add(b->classified_ns, p->ns);
	if (p->mem < 0 && c->words)
		b->words_ns = ts_sat_add(b->words_ns, p->ns);
}

int ts_kview_breakdown(const ts_result *res, const ts_kview *v, ts_breakdown *b)
{
	memset(b, 0, sizeof *b);
	b->ncats = res->patterns ? ts_patterns_ncategories(res->patterns) : 0;
	b->cats = calloc(b->ncats + 1, sizeof *b->cats);
	if (!b->cats)
		return -1;
	ts_kview_pieces(res, v, true, add_bucket, b);
	return 0;
}

void ts_breakdown_free(ts_breakdown *b)
{
	free(b->cats);
	b->cats = NULL;
}

const char *ts_breakdown_cat_name(const ts_result *res, size_t i)
{
	if (!res->patterns || i >= ts_patterns_ncategories(res->patterns))
		return "Other";
	return ts_patterns_category(res->patterns, i)->name;
}

ts_ktype ts_breakdown_cat_type(const ts_result *res, size_t i)
{
	if (!res->patterns || i >= ts_patterns_ncategories(res->patterns))
		return TS_TYPE_OTHER;
	return ts_patterns_category(res->patterns, i)->type;
}

uint32_t *ts_kview_unclassified(const ts_kview *v, size_t *n)
{
	const ts_agg *a = v->agg;
	size_t all;
	uint32_t *order = ts_kview_kernel_order(v, &all);
	size_t k = 0;
	for (size_t i = 0; order && i < all; i++)
		if (order[i] != TS_ROW_OTHER && a->classes[order[i]].rule < 0)
			order[k++] = order[i];
	*n = k;
	return order;
}

size_t ts_sort_buckets(const ts_bucket *b, size_t n, size_t *idx)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (b[i].count)
			idx[k++] = i;
	/* Insertion sort: at most a few dozen buckets. */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && b[idx[j]].total_ns > b[idx[j - 1]].total_ns; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	return k;
}

int ts_kview_nbuckets(const ts_result *res)
{
	bool some = res->attrib && ts_attrib_get_totals(res->attrib)->kernels[TS_ATTR_GRAPH_OP];
	return res->replay || some ? TS_ATTR_COUNT : TS_ATTR_GRAPH_OP;
}

int ts_kview_attrib_view(const ts_kview *v)
{
	return v->staged ? (int)v->stage : TS_ATTRIB_ALL;
}

static void cover(const ts_result *res, int view, const char *kind, bool required,
		  ts_opcov *c)
{
	*c = (ts_opcov){ .kind = kind, .required = required };
	size_t n = ts_attrib_nworkloads(res->attrib);
	for (size_t i = 0; i < n; i++) {
		const ts_wl_row *w = ts_attrib_workload(res->attrib, view, i);
		if (!w->calls || strcmp(ts_attrib_workload_rule(res->attrib, i)->kind, kind) != 0)
			continue;
		c->calls += w->calls;
		c->definitions++;
	}
}

int ts_kview_coverage(const ts_result *res, const ts_kview *v, ts_opcov *out,
		       int *missing)
{
	*missing = 0;
	const ts_family *f = res->model.family;
	if (!f || !res->attrib)
		return -1;
	int view = ts_kview_attrib_view(v), n = 0;
	for (size_t i = 0; i < f->nops_required && n < TS_MAX_OPCOV; i++) {
		cover(res, view, f->ops_required[i], true, &out[n]);
		*missing += out[n].calls == 0;
		n++;
	}
	for (size_t i = 0; i < f->nops_optional && n < TS_MAX_OPCOV; i++, n++)
		cover(res, view, f->ops_optional[i], false, &out[n]);
	return n;
}

/* ------------------------------------------------------- short names */

typedef struct {
	const char *s;
	uint32_t row;
} short_key;

static int by_short(const void *pa, const void *pb)
{
	const short_key *a = pa, *b = pb;
	int c = strcmp(a->s, b->s);
	return c ? c : (a->row > b->row) - (a->row < b->row);
}

/* A kernel name's words: runs of letters, digits and '.' (template
 * arguments, tile shapes, functors), at most MAX_WORDS. */
#define MAX_WORDS 128

typedef struct {
	const char *p;
	uint8_t n;
} word;

static size_t words_of(const char *s, size_t len, word *w)
{
	size_t n = 0;
	for (size_t i = 0; i < len && n < MAX_WORDS;) {
		while (i < len && !isalnum((unsigned char)s[i]) && s[i] != '.')
			i++;
		size_t j = i;
		while (j < len && (isalnum((unsigned char)s[j]) || s[j] == '.'))
			j++;
		if (j > i)
			w[n++] = (word){ s + i, (uint8_t)(j - i < 255 ? j - i : 255) };
		i = j;
	}
	return n;
}

static bool same_word(const word *x, const word *y)
{
	return x->n == y->n && memcmp(x->p, y->p, x->n) == 0;
}

/* The first index from `from` where two word lists differ (the shorter
 * one's end when one is the other's start; SIZE_MAX: the same). */
static size_t first_diff(const word *x, size_t nx, const word *y, size_t ny, size_t from)
{
	size_t i = from;
	while (i < nx && i < ny && same_word(&x[i], &y[i]))
		i++;
	return i == nx && i == ny ? SIZE_MAX : i;
}

/* Word x where it parts from y (x's next 12 bytes from the first byte that
 * differs: "s6", "CausalP16Var"), after `sep`. */
static size_t put_part(char *out, size_t n, const char *sep, const word *x, const word *y)
{
	size_t d = 0;
	while (y && d < x->n && d < y->n && x->p[d] == y->p[d])
		d++;
	if (d >= x->n || x->n <= 12)
		d = 0;
	size_t k = x->n - d < 12 ? x->n - d : 12;
	int w = snprintf(out, n, "%s%.*s", sep, (int)k, x->p + d);
	return w > 0 && (size_t)w < n ? (size_t)w : 0;
}

/*
 * What tells kernel `me` from the others of its group (the same short
 * name): its words where they first part from each other name's (the
 * template argument or tile that differs), the two earliest such places,
 * each as it reads from its first differing byte; with one other name,
 * where they part next: "s6 ldgsts" against "s5 rgTma", "unrolled 3"
 * against "elementwise 3" and "unrolled 4". "" when it has no word of its
 * own there.
 */
static void differs(const ts_agg *a, const short_key *g, size_t ng, uint32_t me, char *out,
		    size_t n)
{
	word mine[MAX_WORDS], other[MAX_WORDS], ref[2][MAX_WORDS];
	size_t len, nm, at[2] = { SIZE_MAX, SIZE_MAX }, nref[2] = { 0, 0 };
	const char *s = ts_intern_str(a->names, me, &len);
	nm = words_of(s, len, mine);
	for (size_t j = 0; j < ng; j++) {
		if (g[j].row == me)
			continue;
		size_t ol;
		const char *o = ts_intern_str(a->names, g[j].row, &ol);
		size_t no = words_of(o, ol, other);
		size_t i = first_diff(mine, nm, other, no, 0);
		if (i == SIZE_MAX || i == at[0] || i == at[1])
			continue;
		int slot = i < at[0] ? 0 : i < at[1] ? 1 : -1;
		if (slot < 0)
			continue;
		if (slot == 0) {           /* the earliest moves to second */
			at[1] = at[0];
			nref[1] = nref[0];
			memcpy(ref[1], ref[0], nref[0] * sizeof *ref[0]);
		}
		at[slot] = i;
		nref[slot] = no;
		memcpy(ref[slot], other, no * sizeof *other);
	}
	out[0] = '\0';
	if (at[0] >= nm)
		return;
	if (at[1] == SIZE_MAX) {           /* one place: where it parts next */
		at[1] = first_diff(mine, nm, ref[0], nref[0], at[0] + 1);
		nref[1] = nref[0];
		memcpy(ref[1], ref[0], nref[0] * sizeof *ref[0]);
	}
	size_t k = put_part(out, n, "", &mine[at[0]], at[0] < nref[0] ? &ref[0][at[0]] : NULL);
	if (k && at[1] < nm)
		put_part(out + k, n - k, " ", &mine[at[1]], at[1] < nref[1] ? &ref[1][at[1]] : NULL);
}

#define MAX_GROUP 64              /* kernels of one short name told apart by words */

/* dst (a short name) with " label" after it, cut to fit. */
static void append_label(char *dst, const char *label)
{
	size_t keep = strlen(dst), dl = strlen(label);   /* dl < 32 */
	if (keep + 1 + dl > TS_SHORT_MAX)
		keep = TS_SHORT_MAX - dl - 1;
	dst[keep] = ' ';
	memcpy(dst + keep + 1, label, dl + 1);
}

char (*ts_kview_short_names(const ts_agg *a))[TS_SHORT_MAX + 1]
{
	uint32_t n = ts_intern_count(a->names);
	char (*out)[TS_SHORT_MAX + 1] = calloc(n + 1, sizeof *out);
	short_key *k = malloc((n + 1) * sizeof *k);
	if (!out || !k) {
		free(out);
		free(k);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		memcpy(out[i], a->classes[i].short_name, sizeof out[i]);
		k[i] = (short_key){ a->classes[i].short_name, i };
	}
	qsort(k, n, sizeof *k, by_short);
	/* a short name that several kernels share: each says what differs
	 * (its own words; a group past MAX_GROUP, where that would cost the
	 * square of its size, and a label another shares: a hash of its full
	 * name) */
	char (*d)[32] = malloc(MAX_GROUP * sizeof *d);
	for (uint32_t i = 0; i < n;) {
		uint32_t e = i + 1;
		while (e < n && strcmp(k[e].s, k[i].s) == 0)
			e++;
		size_t g = e - i;
		for (size_t j = 0; d && g > 1 && g <= MAX_GROUP && j < g; j++)
			differs(a, k + i, g, k[i + j].row, d[j], sizeof d[j]);
		for (size_t j = 0; g > 1 && j < g; j++) {
			bool alone = d && g <= MAX_GROUP && d[j][0];
			for (size_t m = 0; alone && m < g; m++)
				alone = m == j || strcmp(d[j], d[m]) != 0;
			char h[32];
			if (!alone) {
				size_t len;
				const char *full = ts_intern_str(a->names, k[i + j].row, &len);
				snprintf(h, sizeof h, "~%04x", (unsigned)(ts_hash_bytes(full, len) & 0xffff));
			}
			append_label(out[k[i + j].row], alone ? d[j] : h);
		}
		i = e;
	}
	free(d);
	free(k);
	return out;
}
