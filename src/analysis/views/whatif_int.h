/*
 * whatif_int.h - what whatif.c (the module) hands whatif_replay.c (one
 * step replayed): the records, the trace's facts, a step's window and the
 * scratch it reuses from step to step.
 */
#ifndef TS_WHATIF_INT_H
#define TS_WHATIF_INT_H

#include "analysis/api.h"
#include "analysis/stat.h"
#include "analysis/timeline.h"
#include "analysis/views/whatif.h"

typedef struct wi_op wi_op;
typedef struct {
	int64_t a, b;            /* a synchronizing call: its start and end */
	int64_t shift;           /* scratch: how far the CPU moved after it */
} wi_sync;

typedef struct {
	wi_op *op;
	int64_t *pend;           /* replayed ends */
	size_t *pmax;            /* the op of the latest end before each */
	size_t cap;
	wi_sync *sync;
	size_t sync_cap;
} wi_scratch;

typedef struct {
	const ts_timeline *tl;
	const ts_api *api;       /* NULL: no synchronizing call */
	uint32_t source;
	int64_t device;          /* the operations' device; INT64_MIN any */
	int64_t lag;             /* the median launch-to-start latency of the trace */
	int64_t sw;              /* the switch between queued kernels, at most */
	int64_t sw_typ;          /* and its median */
	const ts_stat *rows;     /* the stage's kernel rows (medians); NULL none */
	uint32_t nrows;
	double ceil[TS_TYPE_COUNT]; /* a type's time at its roofline ceiling, a share; 1 none */
} wi_ctx;

/* Replay the step [s0, s1) (prep: the GPU idle before its pass, the
 * input preparation) into acc; false when it holds no operation or out
 * of memory. */
bool wi_replay_step(const wi_ctx *c, int64_t s0, int64_t s1, int64_t prep, wi_scratch *sc,
		    ts_wi_stage *acc);
void wi_scratch_free(wi_scratch *sc);

#endif
