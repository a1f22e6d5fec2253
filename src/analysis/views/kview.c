/*
 * kview.c - the kernel rows of a finished analysis as every report and the
 * comparison read them: all or one stage's, ordered, cut into pieces by
 * context, summed by type and category; operator coverage (see kview.h).
 */
#include "analysis/views/kview.h"
#include "input/base/satmath.h"

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
