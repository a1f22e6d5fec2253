#include "anatomy.h"
#include "satmath.h"

#include <stdlib.h>
#include <string.h>

#include "intern.h"

typedef struct {
	uint64_t layers;
	uint32_t passes, skipped;
	ts_anat_sum total;
	ts_stat layer_time;
	ts_anat_type type[TS_TYPE_COUNT];
	ts_anat_sum *cat;        /* ncat + 1: [0] is Other */
	ts_anat_row *rows;       /* rows_cap */
	ts_anat_sum other_rows;
} stage_anat;

struct ts_anatomy {
	size_t ncat;
	stage_anat st[TS_ANAT_STAGES];
	uint32_t rows_cap;
	uint64_t seq;            /* rows seen, for the order of first sight */
	/* scratch of one pass: per layer, per type time and position */
	int64_t (*lt)[TS_TYPE_COUNT];
	int64_t *ltotal;
	uint32_t *lpos;
	uint32_t scratch_layers;
};

ts_anatomy *ts_anatomy_new(size_t ncategories)
{
	ts_anatomy *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->ncat = ncategories;
	for (int s = 0; s < TS_ANAT_STAGES; s++) {
		a->st[s].cat = calloc(ncategories + 1, sizeof *a->st[s].cat);
		if (!a->st[s].cat) {
			ts_anatomy_free(a);
			return NULL;
		}
	}
	return a;
}

void ts_anatomy_free(ts_anatomy *a)
{
	if (!a)
		return;
	for (int s = 0; s < TS_ANAT_STAGES; s++) {
		stage_anat *st = &a->st[s];
		ts_stat_clear(&st->layer_time);
		for (int t = 0; t < TS_TYPE_COUNT; t++)
			ts_stat_clear(&st->type[t].per_layer);
		free(st->cat);
		free(st->rows);
	}
	free(a->lt);
	free(a->ltotal);
	free(a->lpos);
	free(a);
}

static void add_sum(ts_anat_sum *s, const ts_anat_kernel *k)
{
	if (s->count == 0 && s->flops_calls == 0 && s->bytes_calls == 0)
		s->wl = TS_INTERN_NONE;
	s->count++;
	s->ns = ts_sat_add(s->ns, k->dur);
	if (k->has_flops)
		s->flops_ns = ts_sat_add(s->flops_ns, k->dur);
	if (k->has_bytes)
		s->bytes_ns = ts_sat_add(s->bytes_ns, k->dur);
	if (k->flops) {
		s->flops += k->flops;
		s->flops_calls++;
	}
	if (k->bytes) {
		s->bytes += k->bytes;
		s->bytes_calls++;
	}
	if (s->wl == TS_INTERN_NONE && (k->flops || k->bytes))
		s->wl = k->wl;
}

static bool grow_rows(ts_anatomy *a, uint32_t need)
{
	if (need <= a->rows_cap)
		return true;
	uint32_t cap = a->rows_cap ? a->rows_cap : 64;
	while (cap < need)
		cap *= 2;
	for (int s = 0; s < TS_ANAT_STAGES; s++) {
		ts_anat_row *r = realloc(a->st[s].rows, cap * sizeof *r);
		if (!r)
			return false;
		memset(r + a->rows_cap, 0, (cap - a->rows_cap) * sizeof *r);
		a->st[s].rows = r;
	}
	a->rows_cap = cap;
	return true;
}

static bool grow_scratch(ts_anatomy *a, uint32_t nlayers)
{
	if (nlayers <= a->scratch_layers)
		return true;
	int64_t (*lt)[TS_TYPE_COUNT] = realloc(a->lt, nlayers * sizeof *lt);
	if (!lt)
		return false;
	a->lt = lt;
	int64_t *tot = realloc(a->ltotal, nlayers * sizeof *tot);
	if (!tot)
		return false;
	a->ltotal = tot;
	uint32_t *pos = realloc(a->lpos, nlayers * sizeof *pos);
	if (!pos)
		return false;
	a->lpos = pos;
	a->scratch_layers = nlayers;
	return true;
}

void ts_anatomy_add(ts_anatomy *a, int s, const ts_anat_kernel *k, size_t n,
		    uint32_t nlayers)
{
	if (!a || s < 0 || s >= TS_ANAT_STAGES || nlayers == 0)
		return;
	stage_anat *st = &a->st[s];
	if (!grow_scratch(a, nlayers)) {
		st->skipped++;
		return;
	}
	memset(a->lt, 0, nlayers * sizeof *a->lt);
	memset(a->ltotal, 0, nlayers * sizeof *a->ltotal);
	memset(a->lpos, 0, nlayers * sizeof *a->lpos);
	for (size_t i = 0; i < n; i++) {
		const ts_anat_kernel *e = &k[i];
		if (e->layer >= nlayers)
			continue;
		unsigned t = e->type < TS_TYPE_COUNT ? e->type : TS_TYPE_OTHER;
		a->lt[e->layer][t] += e->dur;
		a->ltotal[e->layer] += e->dur;
		uint32_t pos = a->lpos[e->layer]++;
		add_sum(&st->total, e);
		add_sum(&st->type[t].sum, e);
		size_t c = e->category >= 0 && (size_t)e->category < a->ncat ? (size_t)e->category + 1 : 0;
		add_sum(&st->cat[c], e);
		if (e->row == TS_INTERN_NONE || !grow_rows(a, e->row + 1)) {
			add_sum(&st->other_rows, e);
			continue;
		}
		ts_anat_row *r = &st->rows[e->row];
		if (r->sum.count == 0) {
			r->pos = pos;
			r->first = a->seq++;
		} else if (pos < r->pos) {
			r->pos = pos;
		}
		add_sum(&r->sum, e);
	}
	for (uint32_t i = 0; i < nlayers; i++) {
		ts_stat_add(&st->layer_time, a->ltotal[i]);
		for (int t = 0; t < TS_TYPE_COUNT; t++)
			ts_stat_add(&st->type[t].per_layer, a->lt[i][t]);
	}
	st->layers += nlayers;
	st->passes++;
}

void ts_anatomy_skip(ts_anatomy *a, int s)
{
	if (a && s >= 0 && s < TS_ANAT_STAGES)
		a->st[s].skipped++;
}

uint64_t ts_anatomy_layers(const ts_anatomy *a, int s)
{
	return a->st[s].layers;
}

uint32_t ts_anatomy_passes(const ts_anatomy *a, int s)
{
	return a->st[s].passes;
}

uint32_t ts_anatomy_skipped(const ts_anatomy *a, int s)
{
	return a->st[s].skipped;
}

const ts_anat_sum *ts_anatomy_total(const ts_anatomy *a, int s)
{
	return &a->st[s].total;
}

const ts_stat *ts_anatomy_layer_time(const ts_anatomy *a, int s)
{
	return &a->st[s].layer_time;
}

const ts_anat_type *ts_anatomy_type(const ts_anatomy *a, int s, int type)
{
	return &a->st[s].type[type];
}

const ts_anat_sum *ts_anatomy_category(const ts_anatomy *a, int s, int category)
{
	size_t c = category >= 0 && (size_t)category < a->ncat ? (size_t)category + 1 : 0;
	return &a->st[s].cat[c];
}

size_t ts_anatomy_ncategories(const ts_anatomy *a)
{
	return a->ncat;
}

const ts_anat_row *ts_anatomy_row(const ts_anatomy *a, int s, uint32_t row)
{
	return row < a->rows_cap ? &a->st[s].rows[row] : NULL;
}

const ts_anat_sum *ts_anatomy_other_rows(const ts_anatomy *a, int s)
{
	return &a->st[s].other_rows;
}

static const ts_anat_row *sort_rows;

static int by_position(const void *x, const void *y)
{
	const ts_anat_row *a = &sort_rows[*(const uint32_t *)x];
	const ts_anat_row *b = &sort_rows[*(const uint32_t *)y];
	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

uint32_t *ts_anatomy_rows(const ts_anatomy *a, int s, size_t *n)
{
	*n = 0;
	const ts_anat_row *rows = a->st[s].rows;
	size_t k = 0;
	for (uint32_t i = 0; i < a->rows_cap; i++)
		k += rows[i].sum.count > 0;
	uint32_t *out = malloc((k ? k : 1) * sizeof *out);
	if (!out)
		return NULL;
	k = 0;
	for (uint32_t i = 0; i < a->rows_cap; i++)
		if (rows[i].sum.count)
			out[k++] = i;
	sort_rows = rows;
	qsort(out, k, sizeof *out, by_position);
	sort_rows = NULL;
	*n = k;
	return out;
}
