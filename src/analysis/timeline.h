/*
 * timeline.h - the GPU's operations and the CPU's launches of a trace,
 * kept as records for what is computed after the run (the replay of its
 * steps, views/whatif.h).
 *
 * An operation is a kernel, a copy or a fill: its device and stream, start,
 * duration, correlation, kernel row and type. A call is a runtime or
 * driver call with a correlation (the launch of an operation, or none):
 * its start, duration and correlation. Records are kept in the order read
 * up to TS_TL_MAX_OPS operations and TS_TL_MAX_CALLS calls; past them each
 * is counted, and the earliest start of one not kept says up to when the
 * records are whole (ts_timeline_whole_until): a step that ends before it
 * has all its records here. Memory: at most about 2 MB, whatever the
 * trace's length.
 */
#ifndef TS_TIMELINE_H
#define TS_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/event.h"

#define TS_TL_MAX_OPS (1u << 15)
#define TS_TL_MAX_CALLS (1u << 15)
#define TS_TL_COPY 255           /* the type of a copy or fill */

typedef struct {
	int64_t ts, dur;         /* trace ns */
	int64_t corr;            /* correlation; -1 none */
	uint32_t row;            /* kernel row; UINT32_MAX a copy, a fill, or past the cap */
	uint16_t stream;         /* (device, stream) as an index; TS_TL_STREAMS - 1: the rest */
	uint8_t type;            /* ts_ktype, or TS_TL_COPY */
	uint8_t comm;            /* a collective */
	int32_t device;
} ts_tl_op;

typedef struct {
	int64_t ts, dur;
	int64_t corr;
} ts_tl_call;

#define TS_TL_STREAMS 256

typedef struct ts_timeline ts_timeline;

ts_timeline *ts_timeline_new(void);
void ts_timeline_free(ts_timeline *t);

/* A kernel (row and type from its class where it ran), a copy or a fill
 * (type TS_TL_COPY, row UINT32_MAX); events without a start or a
 * duration are not kept. */
void ts_timeline_op(ts_timeline *t, const ts_event *ev, uint32_t row, unsigned type, bool comm);
/* A runtime or driver call; kept when it has a correlation. */
void ts_timeline_call(ts_timeline *t, const ts_event *ev);

/* After the run: operations sorted by start (then end), calls by
 * correlation. */
void ts_timeline_seal(ts_timeline *t);

const ts_tl_op *ts_timeline_ops(const ts_timeline *t, size_t *n);
/* The call with correlation corr, or NULL (sealed). */
const ts_tl_call *ts_timeline_launch(const ts_timeline *t, int64_t corr);
/* The earliest start of a record not kept (INT64_MAX: every one kept). */
int64_t ts_timeline_whole_until(const ts_timeline *t);
uint64_t ts_timeline_dropped(const ts_timeline *t);

#endif
