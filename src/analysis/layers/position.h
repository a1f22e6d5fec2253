/*
 * position.h - the surcharge of a layer position: blocks of consecutive
 * layers of a pass that took a fixed extra time, whichever kernels ran
 * there (a clock or power event, a memory stall, a host-side hiccup
 * under the stream), told from a kernel's own spread.
 *
 * The anatomy hands over each complete pass as the list of its layer
 * kernels (anatomy.h). In the pass, each kernel call (a kernel row's k-th
 * call in a layer) is held against its median over the pass's layers;
 * what it took above that, beyond a tenth of the median, is its excess.
 * A layer's surcharge is its kernels' excess summed; a block is a run of
 * at least TS_POS_RUN consecutive layers each surcharged by 5% of the
 * pass's median layer or more, about the same amount in each (two in
 * three within half of the run's median surcharge). Per stage, the
 * blocks' layers, their surcharge, where they lay, and which kernel rows
 * carried it.
 *
 * Memory: per stage, counters, a count per layer index (TS_MAX_LAYERS)
 * and TS_POS_ROWS carriers; a pass's scratch bounded by
 * TS_MAX_DEBUG_KERNELS kernels. Nothing grows with passes or events.
 */
#ifndef TS_POSITION_H
#define TS_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/limits.h"
#include "analysis/layers/anatomy.h"
#include "input/base/status.h"
#include "input/base/wire.h"

#define TS_POS_RUN 3             /* layers a block holds at least */
#define TS_POS_ROWS 64           /* carriers kept a stage; the rest in lost_ns */

/* A kernel row's excess in the blocks: its calls there above their
 * median, beyond a tenth of it. */
typedef struct {
	uint32_t row;
	uint64_t calls;
	int64_t ns;
} ts_pos_carrier;

typedef struct {
	uint32_t passes;             /* complete passes looked at */
	uint32_t block_passes;       /* of them with a block */
	uint64_t blocks, layers;     /* blocks and their layers, summed */
	int64_t excess_ns;           /* the blocks' surcharge, summed */
	int64_t min_ns, max_ns;      /* a block layer's surcharge, least and most */
	uint32_t lo, hi;             /* the first and last layer in any block */
	bool moved;                  /* blocks of the stage lay in more than one place */
	uint32_t hits[TS_MAX_LAYERS]; /* per layer index: passes it was in a block */
	ts_pos_carrier rows[TS_POS_ROWS];
	uint32_t nrows;
	int64_t lost_ns;             /* excess of carriers past TS_POS_ROWS */
} ts_pos_stage;

typedef struct ts_position ts_position;

ts_position *ts_position_new(void);
void ts_position_free(ts_position *p);

/* One complete pass of stage s (0..TS_ANAT_STAGES-1): its n layer kernels
 * in pass order, layers 0..nlayers-1. A pass whose kernels outrun the
 * scratch is not looked at. */
void ts_position_add(ts_position *p, int s, const ts_anat_kernel *k, size_t n, uint32_t nlayers);

/* The stage's blocks (zeros: none looked at). */
const ts_pos_stage *ts_position_stage(const ts_position *p, int s);
/* A row's excess in the stage's blocks (0: none, or not kept). */
int64_t ts_position_carried(const ts_pos_stage *st, uint32_t row);

/* Saved partials: ts_position_load adds to p, saved kernel rows through
 * kmap (nk of them; a row not kept counts in lost_ns). TS_ERR_PARTIAL
 * with r->err set. */
void ts_position_save(const ts_position *p, ts_wbuf *w);
ts_status ts_position_load(ts_position *p, ts_rbuf *r, const uint32_t *kmap, uint32_t nk);

#endif
