/* The surcharge of a layer position (analysis/layers/position.c): a block
 * of consecutive layers with a fixed extra time, whichever kernel carried
 * it; no block from a kernel slow in scattered layers, nor from a run of
 * unequal surcharges; a kernel called twice a layer held against its own
 * call; the saved part merged. */
#include <stdlib.h>
#include <string.h>

#include "analysis/layers/position.h"
#include "input/base/wire.h"
#include "unit.h"

#define LAYERS 12
#define PER 4                    /* kernels a layer: rows 1, 2, 3 and 1 again */
#define US 1000

static ts_anat_kernel ks[LAYERS * PER];

/* A pass of LAYERS layers: row 1 (10 us), row 2 (30 us), row 3 (20 us),
 * row 1 again (40 us: its second call), plus extra[l][j] us. */
static size_t pass(int64_t extra[LAYERS][PER])
{
	static const uint32_t row[PER] = { 1, 2, 3, 1 };
	static const int64_t dur[PER] = { 10, 30, 20, 40 };
	size_t n = 0;
	int64_t t = 0;
	for (uint32_t l = 0; l < LAYERS; l++)
		for (int j = 0; j < PER; j++) {
			int64_t d = (dur[j] + (extra ? extra[l][j] : 0)) * US;
			ks[n++] = (ts_anat_kernel){ .layer = l, .row = row[j], .ts = t, .dur = d,
						    .wl = UINT32_MAX, .category = -1 };
			t += d;
		}
	return n;
}

int main(void)
{
	ts_position *p = ts_position_new();
	CHECK(p != NULL, "made");
	int64_t x[LAYERS][PER];

	/* layers 3-6: 25 us more each, on row 2 in 3-4, on row 3 in 5-6 */
	memset(x, 0, sizeof x);
	x[3][1] = x[4][1] = x[5][2] = x[6][2] = 25;
	ts_position_add(p, 1, ks, pass(x), LAYERS);
	ts_position_add(p, 1, ks, pass(x), LAYERS);
	const ts_pos_stage *st = ts_position_stage(p, 1);
	CHECK(st->passes == 2 && st->block_passes == 2 && st->blocks == 2 && st->layers == 8,
	      "a block a pass, of four layers, in both passes (%u, %u, %llu, %llu)", st->passes,
	      st->block_passes, (unsigned long long)st->blocks, (unsigned long long)st->layers);
	CHECK(st->lo == 3 && st->hi == 6 && !st->moved, "layers 3-6, in one place (%u-%u)", st->lo,
	      st->hi);
	CHECK(st->excess_ns == 8 * 25 * US && st->min_ns == 25 * US && st->max_ns == 25 * US,
	      "25 us a layer, 200 us in all (%lld)", (long long)st->excess_ns);
	CHECK(ts_position_carried(st, 2) == 100 * US && ts_position_carried(st, 3) == 100 * US &&
	      ts_position_carried(st, 1) == 0, "rows 2 and 3 carried half each");
	CHECK(st->hits[3] == 2 && st->hits[6] == 2 && st->hits[2] == 0 && st->hits[7] == 0,
	      "each block layer hit twice, its neighbours never");

	/* the block moves: layers 7-9, on row 1's second call */
	memset(x, 0, sizeof x);
	x[7][3] = x[8][3] = x[9][3] = 25;
	ts_position_add(p, 1, ks, pass(x), LAYERS);
	CHECK(st->moved && st->lo == 3 && st->hi == 9 && ts_position_carried(st, 1) == 75 * US,
	      "another place: moved, layers 3-9, row 1 carried 75 us");

	/* no block: one kernel slow in scattered layers; a run of two; a run
	 * of unequal surcharges (5, 60, 8, 70 us: no fixed amount) */
	memset(x, 0, sizeof x);
	x[1][1] = 20;
	x[4][1] = 35;
	x[8][1] = 15;
	x[10][2] = 30;
	x[11][2] = 30;
	ts_position_add(p, 2, ks, pass(x), LAYERS);
	memset(x, 0, sizeof x);
	x[2][1] = 6;
	x[3][1] = 60;
	x[4][1] = 8;
	x[5][1] = 70;
	ts_position_add(p, 2, ks, pass(x), LAYERS);
	st = ts_position_stage(p, 2);
	CHECK(st->passes == 2 && st->blocks == 0 && st->excess_ns == 0 && st->nrows == 0,
	      "scattered, two in a row, unequal: no block (%llu)", (unsigned long long)st->blocks);

	/* noise under a tenth of a call's median is no excess */
	memset(x, 0, sizeof x);
	for (int l = 2; l < 8; l++)
		x[l][3] = 3;             /* row 1's second call: 43 against 40 us */
	ts_position_add(p, 3, ks, pass(x), LAYERS);
	CHECK(ts_position_stage(p, 3)->blocks == 0, "3 us on a 40 us call: no excess, no block");

	/* saved and merged: the same figures again, rows through a map */
	ts_wbuf w = { 0 };
	ts_position_save(p, &w);
	ts_position *q = ts_position_new();
	uint32_t kmap[4] = { 0, 1, 2, 3 };
	ts_rbuf r = { .p = w.p, .n = w.n };
	ts_status ls = ts_position_load(q, &r, kmap, 4);
	CHECK(ls == TS_OK && r.at == r.n, "loaded whole");
	const ts_pos_stage *a = ts_position_stage(p, 1), *b = ts_position_stage(q, 1);
	CHECK(b->blocks == a->blocks && b->excess_ns == a->excess_ns && b->moved && b->lo == 3 &&
	      b->hi == 9 && b->hits[4] == 2 && ts_position_carried(b, 1) == 75 * US,
	      "the loaded stage is the saved one");
	ts_wbuf_free(&w);
	ts_position_free(q);
	ts_position_free(p);
	ts_position_free(NULL);
	return unit_failed != 0;
}
