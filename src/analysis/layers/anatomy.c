/*
 * anatomy.c - the typical transformer layer of each stage, taken apart:
 * the layer kernels of its complete passes summed by type, category and
 * kernel row, over the layers they came from (see anatomy.h).
 */
#include "analysis/layers/anatomy.h"
#include "input/base/satmath.h"
#include "input/base/grow.h"
#include "input/base/hash.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "analysis/layers/position.h"

/* A kernel's k-th call in a layer (k >= 1: a repeat; its first call is
 * its row), held at the earliest position it took. */
typedef struct {
	uint32_t row, k;
	ts_anat_row r;
} anat_rep;

#define REP_MAX 2048             /* repeats kept per stage; the rest fold into their row */
#define REP_SLOTS 4096           /* their index: open addressing, a power of two */
#define REP_K_MAX 255            /* a call past it counts as the last kept */

typedef struct {
	uint64_t layers;
	uint32_t passes, skipped;
	ts_anat_sum total;
	ts_stat layer_time;
	ts_stat layer_wall;      /* a layer's first kernel's start to the next layer's */
	ts_anat_type type[TS_TYPE_COUNT];
	ts_anat_sum *cat;        /* ncat + 1: [0] is Other */
	ts_anat_row *rows;       /* rows_cap */
	ts_anat_sum other_rows;
	anat_rep *rep;           /* at most REP_MAX */
	uint32_t *rep_slot;      /* REP_SLOTS: index + 1 into rep, 0 empty */
	uint32_t nrep;
	size_t rep_cap;
} stage_anat;

struct ts_anatomy {
	size_t ncat;
	stage_anat st[TS_ANAT_STAGES];
	size_t rows_cap;
	uint64_t seq;            /* rows seen, for the order of first sight */
	/* scratch of one pass: per layer, per type time and position */
	int64_t (*lt)[TS_TYPE_COUNT];
	int64_t *ltotal;
	int64_t *lfirst, *lend;  /* a layer's earliest kernel start, latest end */
	uint32_t *lpos;
	size_t scratch_layers;   /* room of lt, ltotal, lpos, in layers */
	/* per kernel row (rows_cap): the last layer it was seen in (a running
	 * layer number) and its calls there, for its repeats */
	uint64_t *seen_layer;
	uint32_t *seen_n;
	uint64_t layer_seq;
	ts_position *pos;        /* the same passes' layer positions */
};

ts_anatomy *ts_anatomy_new(size_t ncategories)
{
	ts_anatomy *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->ncat = ncategories;
	if (!(a->pos = ts_position_new())) {
		free(a);
		return NULL;
	}
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
		ts_stat_clear(&st->layer_wall);
		for (int t = 0; t < TS_TYPE_COUNT; t++)
			ts_stat_clear(&st->type[t].per_layer);
		free(st->cat);
		free(st->rows);
		free(st->rep);
		free(st->rep_slot);
	}
	free(a->seen_layer);
	free(a->seen_n);
	free(a->lt);
	free(a->ltotal);
	free(a->lfirst);
	free(a->lend);
	free(a->lpos);
	ts_position_free(a->pos);
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
	ts_grow_part parts[TS_ANAT_STAGES + 2];
	for (int s = 0; s < TS_ANAT_STAGES; s++)
		parts[s] = (ts_grow_part){ (void **)&a->st[s].rows, sizeof *a->st[s].rows };
	parts[TS_ANAT_STAGES] = (ts_grow_part){ (void **)&a->seen_layer, sizeof *a->seen_layer };
	parts[TS_ANAT_STAGES + 1] = (ts_grow_part){ (void **)&a->seen_n, sizeof *a->seen_n };
	return ts_grow_each(parts, TS_ANAT_STAGES + 2, &a->rows_cap, need, 64, SIZE_MAX, true);
}

static uint32_t rep_hash(uint32_t row, uint32_t k)
{
	return (uint32_t)(ts_hash_u64(((uint64_t)row << 8) | k) & (REP_SLOTS - 1));
}

/* The repeat (row, k) of stage st, made when new; NULL when none can be. */
static ts_anat_row *rep_of(stage_anat *st, uint32_t row, uint32_t k, uint64_t *seq, bool add)
{
	if (!st->rep_slot && (!add || !(st->rep_slot = calloc(REP_SLOTS, sizeof *st->rep_slot))))
		return NULL;
	for (uint32_t h = rep_hash(row, k);; h = (h + 1) & (REP_SLOTS - 1)) {
		uint32_t i = st->rep_slot[h];
		if (i && st->rep[i - 1].row == row && st->rep[i - 1].k == k)
			return &st->rep[i - 1].r;
		if (i)
			continue;
		if (!add || !ts_grow((void **)&st->rep, &st->rep_cap, (size_t)st->nrep + 1,
				     sizeof *st->rep, 64, REP_MAX, false))
			return NULL;
		st->rep[st->nrep] = (anat_rep){ .row = row, .k = k, .r = { .pos = UINT32_MAX,
									  .first = (*seq)++ } };
		st->rep_slot[h] = ++st->nrep;
		return &st->rep[st->nrep - 1].r;
	}
}

/* The row of a kernel's call: its own row for its first call in the
 * layer, a repeat for the next ones (its row when no repeat can be kept). */
static ts_anat_row *call_row(ts_anatomy *a, stage_anat *st, uint32_t row, uint64_t layer)
{
	if (a->seen_layer[row] != layer + 1) {
		a->seen_layer[row] = layer + 1;
		a->seen_n[row] = 0;
	}
	uint32_t k = a->seen_n[row]++;
	if (k == 0)
		return &st->rows[row];
	ts_anat_row *r = rep_of(st, row, k < REP_K_MAX ? k : REP_K_MAX, &a->seq, true);
	return r ? r : &st->rows[row];
}

static bool grow_scratch(ts_anatomy *a, uint32_t nlayers)
{
	ts_grow_part parts[] = { { (void **)&a->lt, sizeof *a->lt },
				 { (void **)&a->ltotal, sizeof *a->ltotal },
				 { (void **)&a->lpos, sizeof *a->lpos },
				 { (void **)&a->lfirst, sizeof *a->lfirst },
				 { (void **)&a->lend, sizeof *a->lend } };
	return ts_grow_each(parts, 5, &a->scratch_layers, nlayers, 64, SIZE_MAX, false);
}

/* Layer i's wall: from its first kernel's start to the next layer's (the
 * last layer: to its last kernel's end), so the layers' walls add up to
 * their span, idle between them included; a layer with no kernel, or
 * whose next one starts before it, gives none. */
static void layer_wall(ts_anatomy *a, stage_anat *st, uint32_t i, uint32_t nlayers)
{
	int64_t from = a->lfirst[i], to = a->lend[i];
	if (from == INT64_MAX)
		return;
	if (i + 1 < nlayers && a->lfirst[i + 1] != INT64_MAX)
		to = a->lfirst[i + 1];
	if (to > from)
		ts_stat_add(&st->layer_wall, to - from);
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
	for (uint32_t i = 0; i < nlayers; i++) {
		a->lfirst[i] = INT64_MAX;
		a->lend[i] = INT64_MIN;
	}
	for (size_t i = 0; i < n; i++) {
		const ts_anat_kernel *e = &k[i];
		if (e->layer >= nlayers)
			continue;
		int64_t end = ts_sat_add(e->ts, e->dur > 0 ? e->dur : 0);
		a->lfirst[e->layer] = e->ts < a->lfirst[e->layer] ? e->ts : a->lfirst[e->layer];
		a->lend[e->layer] = end > a->lend[e->layer] ? end : a->lend[e->layer];
		unsigned t = e->type < TS_TYPE_COUNT ? e->type : TS_TYPE_OTHER;
		a->lt[e->layer][t] += e->dur;
		a->ltotal[e->layer] += e->dur;
		uint32_t pos = a->lpos[e->layer]++;
		add_sum(&st->total, e);
		add_sum(&st->type[t].sum, e);
		size_t c = e->category >= 0 && (size_t)e->category < a->ncat ? (size_t)e->category + 1 : 0;
		add_sum(&st->cat[c], e);
		if (e->row == TS_INTERN_NONE ||
		    (e->row >= a->rows_cap && !grow_rows(a, e->row + 1))) {
			add_sum(&st->other_rows, e);
			continue;
		}
		ts_anat_row *r = call_row(a, st, e->row, a->layer_seq + e->layer);
		if (r->sum.count == 0 && r->pos != UINT32_MAX) {   /* a row's first sight */
			r->pos = pos;
			r->first = a->seq++;
		} else if (pos < r->pos) {
			r->pos = pos;
		}
		add_sum(&r->sum, e);
	}
	a->layer_seq += nlayers;
	for (uint32_t i = 0; i < nlayers; i++) {
		ts_stat_add(&st->layer_time, a->ltotal[i]);
		layer_wall(a, st, i, nlayers);
		for (int t = 0; t < TS_TYPE_COUNT; t++)
			ts_stat_add(&st->type[t].per_layer, a->lt[i][t]);
	}
	st->layers += nlayers;
	st->passes++;
	ts_position_add(a->pos, s, k, n, nlayers);
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

const ts_stat *ts_anatomy_layer_wall(const ts_anatomy *a, int s)
{
	return &a->st[s].layer_wall;
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

const ts_anat_row *ts_anatomy_row(const ts_anatomy *a, int s, uint32_t id)
{
	const stage_anat *st = &a->st[s];
	if (id >= TS_ANAT_REPEAT)
		return id - TS_ANAT_REPEAT < st->nrep ? &st->rep[id - TS_ANAT_REPEAT].r : NULL;
	return id < a->rows_cap ? &st->rows[id] : NULL;
}

uint32_t ts_anatomy_row_kernel(const ts_anatomy *a, int s, uint32_t id, uint32_t *call)
{
	const stage_anat *st = &a->st[s];
	bool rep = id >= TS_ANAT_REPEAT && id - TS_ANAT_REPEAT < st->nrep;
	if (call)
		*call = rep ? st->rep[id - TS_ANAT_REPEAT].k : 0;
	return rep ? st->rep[id - TS_ANAT_REPEAT].row : id;
}

const ts_position *ts_anatomy_position(const ts_anatomy *a)
{
	return a ? a->pos : NULL;
}

const ts_anat_sum *ts_anatomy_other_rows(const ts_anatomy *a, int s)
{
	return &a->st[s].other_rows;
}

/* A row with its sort keys: earliest position, then order of first sight. */
typedef struct {
	uint32_t pos;
	uint64_t first;
	uint32_t row;
} row_key;

static int by_position(const void *x, const void *y)
{
	const row_key *a = x, *b = y;
	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

uint32_t *ts_anatomy_rows(const ts_anatomy *a, int s, size_t *n)
{
	*n = 0;
	const stage_anat *st = &a->st[s];
	const ts_anat_row *rows = st->rows;
	size_t k = st->nrep;
	for (uint32_t i = 0; i < a->rows_cap; i++)
		k += rows[i].sum.count > 0;
	uint32_t *out = malloc((k ? k : 1) * sizeof *out);
	row_key *keys = malloc((k ? k : 1) * sizeof *keys);
	if (!out || !keys) {
		free(out);
		free(keys);
		return NULL;
	}
	k = 0;
	for (uint32_t i = 0; i < a->rows_cap; i++)
		if (rows[i].sum.count)
			keys[k++] = (row_key){ rows[i].pos, rows[i].first, i };
	for (uint32_t i = 0; i < st->nrep; i++)
		if (st->rep[i].r.sum.count)
			keys[k++] = (row_key){ st->rep[i].r.pos, st->rep[i].r.first, TS_ANAT_REPEAT + i };
	qsort(keys, k, sizeof *keys, by_position);
	for (size_t i = 0; i < k; i++)
		out[i] = keys[i].row;
	free(keys);
	*n = k;
	return out;
}

/* ------------------------------------------------------ saved partials */

#define SUM_BYTES (8 * 8 + 4)    /* a saved ts_anat_sum: eight 64-bit, one 32-bit */

static void sum_save(const ts_anat_sum *s, ts_wbuf *w)
{
	ts_w_u64(w, s->count);
	ts_w_i64(w, s->ns);
	ts_w_u64(w, s->flops);
	ts_w_u64(w, s->bytes);
	ts_w_i64(w, s->flops_ns);
	ts_w_i64(w, s->bytes_ns);
	ts_w_u64(w, s->flops_calls);
	ts_w_u64(w, s->bytes_calls);
	ts_w_u32(w, s->wl);
}

static void sum_add(ts_anat_sum *s, const ts_anat_sum *t)
{
	bool fresh = s->count == 0 && s->flops_calls == 0 && s->bytes_calls == 0;
	s->count += t->count;
	s->ns = ts_sat_add(s->ns, t->ns);
	s->flops += t->flops;
	s->bytes += t->bytes;
	s->flops_ns = ts_sat_add(s->flops_ns, t->flops_ns);
	s->bytes_ns = ts_sat_add(s->bytes_ns, t->bytes_ns);
	s->flops_calls += t->flops_calls;
	s->bytes_calls += t->bytes_calls;
	if (fresh || s->wl == TS_INTERN_NONE)
		s->wl = t->wl;
}

static void sum_load(ts_anat_sum *s, ts_rbuf *r, const uint32_t *wlmap, uint32_t nwl)
{
	ts_anat_sum t;
	t.count = ts_r_u64(r);
	t.ns = ts_r_i64(r);
	t.flops = ts_r_u64(r);
	t.bytes = ts_r_u64(r);
	t.flops_ns = ts_r_i64(r);
	t.bytes_ns = ts_r_i64(r);
	t.flops_calls = ts_r_u64(r);
	t.bytes_calls = ts_r_u64(r);
	uint32_t wl = ts_r_u32(r);
	t.wl = wlmap && wl < nwl ? wlmap[wl] : TS_INTERN_NONE;
	if (!r->err)
		sum_add(s, &t);
}

#define ROW_BYTES (SUM_BYTES + 4 + 8)    /* a saved row: sum, pos, first */

static void row_save(const ts_anat_row *row, ts_wbuf *w)
{
	sum_save(&row->sum, w);
	ts_w_u32(w, row->pos);
	ts_w_u64(w, row->first);
}

/* A saved row into *row; false when the buffer ran out. */
static bool row_load(ts_anat_row *row, ts_rbuf *r, const uint32_t *wlmap, uint32_t nwl)
{
	*row = (ts_anat_row){ .sum = { .wl = TS_INTERN_NONE } };
	sum_load(&row->sum, r, wlmap, nwl);
	row->pos = ts_r_u32(r);
	row->first = ts_r_u64(r);
	return !r->err;
}

/* A loaded row added to ours: the earliest position, our order of first
 * sight kept (the loaded one's, after ours, when ours is new). */
static void row_merge(ts_anat_row *dst, const ts_anat_row *in, uint64_t seq_base)
{
	bool fresh = dst->sum.count == 0;
	sum_add(&dst->sum, &in->sum);
	if (fresh || in->pos < dst->pos)
		dst->pos = in->pos;
	if (fresh)
		dst->first = seq_base + in->first;
}

void ts_anatomy_save(const ts_anatomy *a, const ts_patterns *p, ts_wbuf *w)
{
	ts_w_u64(w, a->seq);
	for (int s = 0; s < TS_ANAT_STAGES; s++) {
		const stage_anat *st = &a->st[s];
		ts_w_u64(w, st->layers);
		ts_w_u32(w, st->passes);
		ts_w_u32(w, st->skipped);
		sum_save(&st->total, w);
		ts_stat_save(&st->layer_time, w);
		ts_stat_save(&st->layer_wall, w);
		for (int t = 0; t < TS_TYPE_COUNT; t++) {
			sum_save(&st->type[t].sum, w);
			ts_stat_save(&st->type[t].per_layer, w);
		}
		uint64_t nc = 0;
		for (size_t c = 0; c <= a->ncat; c++)
			nc += st->cat[c].count > 0;
		ts_w_u64(w, nc);
		for (size_t c = 0; c <= a->ncat; c++) {
			if (!st->cat[c].count)
				continue;
			const char *name = c && p ? ts_patterns_category(p, c - 1)->name : "";
			ts_w_str(w, name, strlen(name));
			sum_save(&st->cat[c], w);
		}
		uint64_t nr = 0;
		for (uint32_t i = 0; i < a->rows_cap; i++)
			nr += st->rows[i].sum.count > 0;
		ts_w_u64(w, nr);
		for (uint32_t i = 0; i < a->rows_cap; i++) {
			if (!st->rows[i].sum.count)
				continue;
			ts_w_u32(w, i);
			row_save(&st->rows[i], w);
		}
		sum_save(&st->other_rows, w);
		ts_w_u64(w, st->nrep);
		for (uint32_t i = 0; i < st->nrep; i++) {
			const anat_rep *r = &st->rep[i];
			ts_w_u32(w, r->row);
			ts_w_u32(w, r->k);
			row_save(&r->r, w);
		}
	}
	ts_position_save(a->pos, w);
}

static size_t category_slot(const ts_anatomy *a, const ts_patterns *p, const char *s, size_t n)
{
	for (size_t i = 0; p && n && i < a->ncat; i++) {
		const char *name = ts_patterns_category(p, i)->name;
		if (strlen(name) == n && memcmp(name, s, n) == 0)
			return i + 1;
	}
	return 0;   /* Other */
}

/* A stage's saved repeats, added to its own (a repeat of a row past the
 * name cap, or past REP_MAX, goes to the other rows). */
static void load_repeats(ts_anatomy *a, stage_anat *st, ts_rbuf *r, const uint32_t *kmap,
			 uint32_t nk, const uint32_t *wlmap, uint32_t nwl, uint64_t seq_base)
{
	uint64_t n = ts_r_count(r, 4 + 4 + ROW_BYTES);
	for (uint64_t i = 0; i < n && !r->err; i++) {
		uint32_t row = ts_r_u32(r), k = ts_r_u32(r);
		ts_anat_row in;
		if (!row_load(&in, r, wlmap, nwl))
			return;
		uint32_t to = kmap && row < nk ? kmap[row] : TS_INTERN_NONE;
		ts_anat_row *dst = to == TS_INTERN_NONE || k == 0 || k > REP_K_MAX
				   ? NULL : rep_of(st, to, k, &a->seq, true);
		if (dst)
			row_merge(dst, &in, seq_base);
		else
			sum_add(&st->other_rows, &in.sum);
	}
}

ts_status ts_anatomy_load(ts_anatomy *a, const ts_patterns *p, ts_rbuf *r,
			  const uint32_t *kmap, uint32_t nk, const uint32_t *wlmap, uint32_t nwl)
{
	uint64_t seq_base = a->seq;
	a->seq = ts_sat_addu(a->seq, ts_r_u64(r));
	for (int s = 0; s < TS_ANAT_STAGES && !r->err; s++) {
		stage_anat *st = &a->st[s];
		st->layers = ts_sat_addu(st->layers, ts_r_u64(r));
		st->passes = ts_sat_addu32(st->passes, ts_r_u32(r));
		st->skipped = ts_sat_addu32(st->skipped, ts_r_u32(r));
		sum_load(&st->total, r, wlmap, nwl);
		ts_status rs = ts_stat_load(&st->layer_time, r);
		if (rs == TS_OK)
			rs = ts_stat_load(&st->layer_wall, r);
		for (int t = 0; t < TS_TYPE_COUNT && rs == TS_OK; t++) {
			sum_load(&st->type[t].sum, r, wlmap, nwl);
			rs = ts_stat_load(&st->type[t].per_layer, r);
		}
		if (rs != TS_OK)
			return rs;
		uint64_t nc = ts_r_count(r, 4 + SUM_BYTES);          /* name, sum */
		for (uint64_t k = 0; k < nc && !r->err; k++) {
			size_t n;
			const char *name = ts_r_str(r, &n);
			sum_load(&st->cat[category_slot(a, p, name, n)], r, wlmap, nwl);
		}
		uint64_t nr = ts_r_count(r, 4 + ROW_BYTES);
		for (uint64_t k = 0; k < nr && !r->err; k++) {
			uint32_t row = ts_r_u32(r);
			ts_anat_row in;
			if (!row_load(&in, r, wlmap, nwl))
				break;
			uint32_t to = kmap && row < nk ? kmap[row] : TS_INTERN_NONE;
			if (to == TS_INTERN_NONE) {
				sum_add(&st->other_rows, &in.sum);
				continue;
			}
			if (!grow_rows(a, to + 1))
				return TS_ERR_NOMEM;
			row_merge(&a->st[s].rows[to], &in, seq_base);
		}
		sum_load(&st->other_rows, r, wlmap, nwl);
		load_repeats(a, st, r, kmap, nk, wlmap, nwl, seq_base);
	}
	if (!r->err)
		return ts_position_load(a->pos, r, kmap, nk);
	return TS_ERR_PARTIAL;
}
