/*
 * position.c - the surcharge of a layer position: blocks of consecutive
 * layers that took a fixed extra time whichever kernels ran there (see
 * position.h).
 */
#include "analysis/layers/position.h"
#include "input/base/satmath.h"
#include "input/base/hash.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "analysis/stat.h"

#define POS_KERNELS 8192         /* a pass's layer kernels looked at, at most */
#define POS_SLOTS 1024           /* (row, call) keys of a pass: open addressing */
#define POS_SLOTS_USED 512       /* past it, a call has no key (no excess) */
#define NO_SLOT UINT16_MAX

/* A kernel row's k-th call in a layer, in the pass looked at: the last
 * layer it was seen in (+1; 0 none), its calls, where its durations
 * begin in the sorted scratch, and their median. */
typedef struct {
	uint32_t row, k;
	uint32_t last;
	uint32_t calls, at;
	int64_t median;
	bool used;
} pos_slot;

struct ts_position {
	ts_pos_stage st[TS_ANAT_STAGES];
	uint32_t place_lo[TS_ANAT_STAGES], place_hi[TS_ANAT_STAGES]; /* the first block's */
	/* scratch of one pass */
	pos_slot slot[POS_SLOTS];
	uint32_t nslots;
	uint16_t *slot_of;           /* POS_KERNELS: each kernel's key */
	int64_t *dur;                /* POS_KERNELS: durations by key */
	int64_t *excess;             /* POS_KERNELS: each kernel's excess */
	int64_t surcharge[TS_MAX_LAYERS], time[TS_MAX_LAYERS], tmp[TS_MAX_LAYERS];
	uint8_t in_block[TS_MAX_LAYERS];
};

ts_position *ts_position_new(void)
{
	ts_position *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->slot_of = malloc(POS_KERNELS * sizeof *p->slot_of);
	p->dur = malloc(POS_KERNELS * sizeof *p->dur);
	p->excess = malloc(POS_KERNELS * sizeof *p->excess);
	if (!p->slot_of || !p->dur || !p->excess) {
		ts_position_free(p);
		return NULL;
	}
	return p;
}

void ts_position_free(ts_position *p)
{
	if (!p)
		return;
	free(p->slot_of);
	free(p->dur);
	free(p->excess);
	free(p);
}

/* The key of (row, k), added when new; NO_SLOT when the table is full. */
static uint16_t key_of(ts_position *p, uint32_t row, uint32_t k)
{
	uint32_t h = (uint32_t)ts_hash_combine(ts_hash_u64(row), k) & (POS_SLOTS - 1);
	for (;; h = (h + 1) & (POS_SLOTS - 1)) {
		pos_slot *x = &p->slot[h];
		if (x->used && x->row == row && x->k == k)
			return (uint16_t)h;
		if (!x->used) {
			if (p->nslots >= POS_SLOTS_USED)
				return NO_SLOT;
			p->nslots++;
			*x = (pos_slot){ .row = row, .k = k, .used = true };
			return (uint16_t)h;
		}
	}
}

/* Each kernel's key: its row and which call of it in its layer. */
static void key_kernels(ts_position *p, const ts_anat_kernel *k, size_t n, uint32_t nlayers)
{
	memset(p->slot, 0, sizeof p->slot);
	p->nslots = 0;
	for (size_t i = 0; i < n; i++) {
		const ts_anat_kernel *e = &k[i];
		p->slot_of[i] = NO_SLOT;
		if (e->layer >= nlayers || e->row == TS_INTERN_NONE)
			continue;
		for (uint32_t c = 0; c < 256; c++) {
			uint16_t h = key_of(p, e->row, c);
			if (h == NO_SLOT)
				break;
			if (p->slot[h].last == e->layer + 1)
				continue;   /* called before in this layer: its next call */
			p->slot[h].last = e->layer + 1;
			p->slot[h].calls++;
			p->slot_of[i] = h;
			break;
		}
	}
}

/* Each key's median duration over the pass's layers. */
static void key_medians(ts_position *p, const ts_anat_kernel *k, size_t n)
{
	uint32_t at = 0;
	for (uint32_t h = 0; h < POS_SLOTS; h++)
		if (p->slot[h].used) {
			p->slot[h].at = at;
			at += p->slot[h].calls;
			p->slot[h].calls = 0;
		}
	for (size_t i = 0; i < n; i++)
		if (p->slot_of[i] != NO_SLOT) {
			pos_slot *x = &p->slot[p->slot_of[i]];
			p->dur[x->at + x->calls++] = k[i].dur > 0 ? k[i].dur : 0;
		}
	for (uint32_t h = 0; h < POS_SLOTS; h++) {
		pos_slot *x = &p->slot[h];
		if (!x->used || !x->calls)
			continue;
		int64_t *v = p->dur + x->at;
		ts_sort_i64(v, x->calls);
		x->median = x->calls % 2 ? v[x->calls / 2] : (v[x->calls / 2 - 1] + v[x->calls / 2]) / 2;
	}
}

/* A call's time above its key's median, where the key ran in three
 * layers or more and the call took over a tenth (and 1 us) more. */
static int64_t call_excess(const ts_position *p, const ts_anat_kernel *e, uint16_t h)
{
	if (h == NO_SLOT)
		return 0;
	const pos_slot *x = &p->slot[h];
	int64_t d = e->dur - x->median, floor = x->median / 10 > 1000 ? x->median / 10 : 1000;
	return x->calls >= 3 && d > floor ? d : 0;
}

static int64_t median_of(int64_t *v, size_t n)
{
	ts_sort_i64(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The run of layers [a, b): about the same surcharge in each (two in
 * three within half of the run's median). */
static bool fixed_run(ts_position *p, uint32_t a, uint32_t b)
{
	uint32_t len = b - a, near = 0;
	memcpy(p->tmp, p->surcharge + a, len * sizeof *p->tmp);
	int64_t m = median_of(p->tmp, len);
	for (uint32_t i = a; i < b; i++)
		near += 2 * p->surcharge[i] >= m && 2 * p->surcharge[i] <= 3 * m;
	return 3 * near >= 2 * len;
}

/* calls of row carried ns of the stage's blocks */
static void carry(ts_pos_stage *st, uint32_t row, uint64_t calls, int64_t ns)
{
	for (uint32_t i = 0; i < st->nrows; i++)
		if (st->rows[i].row == row) {
			st->rows[i].calls = ts_sat_addu(st->rows[i].calls, calls);
			st->rows[i].ns = ts_sat_add(st->rows[i].ns, ns);
			return;
		}
	if (st->nrows == TS_POS_ROWS) {
		st->lost_ns = ts_sat_add(st->lost_ns, ns);
		return;
	}
	st->rows[st->nrows++] = (ts_pos_carrier){ row, calls, ns };
}

/* A block of layers [a, b) of stage s. */
static void add_block(ts_position *p, int s, uint32_t a, uint32_t b)
{
	ts_pos_stage *st = &p->st[s];
	if (!st->blocks) {
		p->place_lo[s] = a;
		p->place_hi[s] = b - 1;
		st->lo = a;
		st->hi = b - 1;
		st->min_ns = INT64_MAX;
	} else if (a != p->place_lo[s] || b - 1 != p->place_hi[s]) {
		st->moved = true;
	}
	st->lo = a < st->lo ? a : st->lo;
	st->hi = b - 1 > st->hi ? b - 1 : st->hi;
	st->blocks++;
	st->layers += b - a;
	for (uint32_t i = a; i < b; i++) {
		int64_t x = p->surcharge[i];
		st->excess_ns = ts_sat_add(st->excess_ns, x);
		st->min_ns = x < st->min_ns ? x : st->min_ns;
		st->max_ns = x > st->max_ns ? x : st->max_ns;
		st->hits[i]++;
		p->in_block[i] = 1;
	}
}

/* The runs of surcharged layers of the pass: its blocks (how many). */
static uint32_t find_blocks(ts_position *p, int s, uint32_t nlayers)
{
	memcpy(p->tmp, p->time, nlayers * sizeof *p->tmp);
	int64_t thr = median_of(p->tmp, nlayers) / 20;
	thr = thr > 0 ? thr : 1;
	uint32_t found = 0;
	memset(p->in_block, 0, nlayers);
	for (uint32_t a = 0; a < nlayers;) {
		if (p->surcharge[a] < thr) {
			a++;
			continue;
		}
		uint32_t b = a;
		while (b < nlayers && p->surcharge[b] >= thr)
			b++;
		if (b - a >= TS_POS_RUN && fixed_run(p, a, b)) {
			add_block(p, s, a, b);
			found++;
		}
		a = b;
	}
	return found;
}

void ts_position_add(ts_position *p, int s, const ts_anat_kernel *k, size_t n, uint32_t nlayers)
{
	if (!p || s < 0 || s >= TS_ANAT_STAGES || nlayers < TS_POS_RUN || nlayers > TS_MAX_LAYERS ||
	    n > POS_KERNELS)
		return;
	ts_pos_stage *st = &p->st[s];
	st->passes++;
	key_kernels(p, k, n, nlayers);
	key_medians(p, k, n);
	memset(p->surcharge, 0, nlayers * sizeof *p->surcharge);
	memset(p->time, 0, nlayers * sizeof *p->time);
	for (size_t i = 0; i < n; i++) {
		const ts_anat_kernel *e = &k[i];
		p->excess[i] = 0;
		if (e->layer >= nlayers)
			continue;
		p->time[e->layer] = ts_sat_add(p->time[e->layer], e->dur > 0 ? e->dur : 0);
		p->excess[i] = call_excess(p, e, p->slot_of[i]);
		p->surcharge[e->layer] = ts_sat_add(p->surcharge[e->layer], p->excess[i]);
	}
	if (!find_blocks(p, s, nlayers))
		return;
	st->block_passes++;
	for (size_t i = 0; i < n; i++)
		if (p->excess[i] > 0 && k[i].layer < nlayers && p->in_block[k[i].layer])
			carry(st, k[i].row, 1, p->excess[i]);
}

const ts_pos_stage *ts_position_stage(const ts_position *p, int s)
{
	static const ts_pos_stage none;
	return p && s >= 0 && s < TS_ANAT_STAGES ? &p->st[s] : &none;
}

int64_t ts_position_carried(const ts_pos_stage *st, uint32_t row)
{
	for (uint32_t i = 0; st && i < st->nrows; i++)
		if (st->rows[i].row == row)
			return st->rows[i].ns;
	return 0;
}

void ts_position_save(const ts_position *p, ts_wbuf *w)
{
	for (int s = 0; s < TS_ANAT_STAGES; s++) {
		const ts_pos_stage *st = &p->st[s];
		ts_w_u32(w, st->passes);
		ts_w_u32(w, st->block_passes);
		ts_w_u64(w, st->blocks);
		ts_w_u64(w, st->layers);
		ts_w_i64(w, st->excess_ns);
		ts_w_i64(w, st->min_ns);
		ts_w_i64(w, st->max_ns);
		ts_w_u32(w, st->lo);
		ts_w_u32(w, st->hi);
		ts_w_u8(w, st->moved);
		uint64_t nh = 0;
		for (uint32_t i = 0; i < TS_MAX_LAYERS; i++)
			nh += st->hits[i] > 0;
		ts_w_u64(w, nh);
		for (uint32_t i = 0; i < TS_MAX_LAYERS; i++)
			if (st->hits[i]) {
				ts_w_u32(w, i);
				ts_w_u32(w, st->hits[i]);
			}
		ts_w_u64(w, st->nrows);
		for (uint32_t i = 0; i < st->nrows; i++) {
			ts_w_u32(w, st->rows[i].row);
			ts_w_u64(w, st->rows[i].calls);
			ts_w_i64(w, st->rows[i].ns);
		}
		ts_w_i64(w, st->lost_ns);
	}
}

/* A saved stage's place against ours: blocks in another place moved. */
static void merge_place(ts_pos_stage *st, const ts_pos_stage *in)
{
	if (!in->blocks)
		return;
	if (!st->blocks) {
		st->lo = in->lo;
		st->hi = in->hi;
		st->min_ns = in->min_ns;
		st->max_ns = in->max_ns;
		st->moved = in->moved;
		return;
	}
	st->moved |= in->moved || in->lo != st->lo || in->hi != st->hi;
	st->lo = in->lo < st->lo ? in->lo : st->lo;
	st->hi = in->hi > st->hi ? in->hi : st->hi;
	st->min_ns = in->min_ns < st->min_ns ? in->min_ns : st->min_ns;
	st->max_ns = in->max_ns > st->max_ns ? in->max_ns : st->max_ns;
}

static void load_stage(ts_pos_stage *st, ts_rbuf *r, const uint32_t *kmap, uint32_t nk)
{
	ts_pos_stage in = { 0 };
	in.passes = ts_r_u32(r);
	in.block_passes = ts_r_u32(r);
	in.blocks = ts_r_u64(r);
	in.layers = ts_r_u64(r);
	in.excess_ns = ts_r_i64(r);
	in.min_ns = ts_r_i64(r);
	in.max_ns = ts_r_i64(r);
	in.lo = ts_r_u32(r);
	in.hi = ts_r_u32(r);
	in.moved = ts_r_u8(r) != 0;
	if (in.blocks && (in.lo > in.hi || in.hi >= TS_MAX_LAYERS))
		ts_r_fail(r, "a block of layers past the largest");
	merge_place(st, &in);
	st->passes = ts_sat_addu32(st->passes, in.passes);
	st->block_passes = ts_sat_addu32(st->block_passes, in.block_passes);
	st->blocks = ts_sat_addu(st->blocks, in.blocks);
	st->layers = ts_sat_addu(st->layers, in.layers);
	st->excess_ns = ts_sat_add(st->excess_ns, in.excess_ns);
	uint64_t nh = ts_r_count(r, 8);
	for (uint64_t k = 0; k < nh && !r->err; k++) {
		uint32_t i = ts_r_u32(r), v = ts_r_u32(r);
		if (i >= TS_MAX_LAYERS)
			ts_r_fail(r, "a layer index past the largest");
		else
			st->hits[i] = ts_sat_addu32(st->hits[i], v);
	}
	uint64_t nr = ts_r_count(r, 4 + 8 + 8);
	for (uint64_t k = 0; k < nr && !r->err; k++) {
		uint32_t row = ts_r_u32(r);
		uint64_t calls = ts_r_u64(r);
		int64_t ns = ts_r_i64(r);
		uint32_t to = kmap && row < nk ? kmap[row] : TS_INTERN_NONE;
		if (to == TS_INTERN_NONE) {
			st->lost_ns = ts_sat_add(st->lost_ns, ns);
			continue;
		}
		carry(st, to, calls, ns);
	}
	st->lost_ns = ts_sat_add(st->lost_ns, ts_r_i64(r));
}

ts_status ts_position_load(ts_position *p, ts_rbuf *r, const uint32_t *kmap, uint32_t nk)
{
	for (int s = 0; s < TS_ANAT_STAGES && !r->err; s++)
		load_stage(&p->st[s], r, kmap, nk);
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}
