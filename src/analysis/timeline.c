/*
 * timeline.c - the GPU's operations and the CPU's launches, kept for the
 * replay after the run (timeline.h).
 */
#include "analysis/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/satmath.h"
#include "input/base/grow.h"

struct ts_timeline {
	ts_tl_op *ops;
	size_t nops, ops_cap;
	ts_tl_call *calls;
	size_t ncalls, calls_cap;
	int64_t whole_until;         /* the earliest start not kept */
	uint64_t dropped;
	/* (device, stream) -> index, in order of first sight */
	int64_t skey[TS_TL_STREAMS][2];
	uint32_t nstreams;
};

ts_timeline *ts_timeline_new(void)
{
	ts_timeline *t = calloc(1, sizeof *t);
	if (t)
		t->whole_until = INT64_MAX;
	return t;
}

void ts_timeline_free(ts_timeline *t)
{
	if (!t)
		return;
	free(t->ops);
	free(t->calls);
	free(t);
}

static void drop(ts_timeline *t, int64_t ts)
{
	t->dropped++;
	if (ts < t->whole_until)
		t->whole_until = ts;
}

/* The index of (device, stream); past TS_TL_STREAMS - 1 of them, the last
 * index holds the rest. */
static uint16_t stream_of(ts_timeline *t, int64_t dev, int64_t stream)
{
	for (uint32_t i = 0; i < t->nstreams; i++)
		if (t->skey[i][0] == dev && t->skey[i][1] == stream)
			return (uint16_t)i;
	if (t->nstreams >= TS_TL_STREAMS - 1)
		return TS_TL_STREAMS - 1;
	t->skey[t->nstreams][0] = dev;
	t->skey[t->nstreams][1] = stream;
	return (uint16_t)t->nstreams++;
}

void ts_timeline_op(ts_timeline *t, const ts_event *ev, uint32_t row, unsigned type, bool comm)
{
	if (!t || (ev->has & (TS_HAS_TS | TS_HAS_DUR)) != (TS_HAS_TS | TS_HAS_DUR) || ev->dur_ns < 0)
		return;
	if (t->nops >= TS_TL_MAX_OPS ||
	    !ts_grow((void **)&t->ops, &t->ops_cap, t->nops + 1, sizeof *t->ops, 1024, TS_TL_MAX_OPS,
		     false)) {
		drop(t, ev->ts_ns);
		return;
	}
	int64_t dev = ev->has & TS_HAS_DEVICE ? ev->device : ev->has & TS_HAS_PID ? ev->pid : 0;
	int64_t st = ev->has & TS_HAS_STREAM ? ev->stream : ev->tid;
	t->ops[t->nops++] = (ts_tl_op){
		.ts = ev->ts_ns, .dur = ev->dur_ns,
		.corr = ev->has & TS_HAS_CORRELATION ? ev->correlation : -1,
		.row = row, .stream = stream_of(t, dev, st), .type = (uint8_t)type, .comm = comm,
		.device = (int32_t)dev };
}

void ts_timeline_call(ts_timeline *t, const ts_event *ev)
{
	if (!t || !(ev->has & TS_HAS_CORRELATION) || !(ev->has & TS_HAS_TS))
		return;
	if (t->ncalls >= TS_TL_MAX_CALLS ||
	    !ts_grow((void **)&t->calls, &t->calls_cap, t->ncalls + 1, sizeof *t->calls, 1024,
		     TS_TL_MAX_CALLS, false)) {
		drop(t, ev->ts_ns);
		return;
	}
	t->calls[t->ncalls++] = (ts_tl_call){ ev->ts_ns, ev->has & TS_HAS_DUR ? ev->dur_ns : 0,
					      ev->correlation };
}

static int by_start(const void *a, const void *b)
{
	const ts_tl_op *x = a, *y = b;
	if (x->ts != y->ts)
		return (x->ts > y->ts) - (x->ts < y->ts);
	int64_t ex = ts_sat_add(x->ts, x->dur), ey = ts_sat_add(y->ts, y->dur);
	return (ex > ey) - (ex < ey);
}

static int by_corr(const void *a, const void *b)
{
	const ts_tl_call *x = a, *y = b;
	if (x->corr != y->corr)
		return (x->corr > y->corr) - (x->corr < y->corr);
	return (x->ts > y->ts) - (x->ts < y->ts);
}

void ts_timeline_seal(ts_timeline *t)
{
	if (!t)
		return;
	if (t->nops)
		qsort(t->ops, t->nops, sizeof *t->ops, by_start);
	if (t->ncalls)
		qsort(t->calls, t->ncalls, sizeof *t->calls, by_corr);
}

const ts_tl_op *ts_timeline_ops(const ts_timeline *t, size_t *n)
{
	*n = t ? t->nops : 0;
	return t ? t->ops : NULL;
}

/* The first call of correlation corr (a correlation's later calls, where a
 * writer repeats one, are not its launch). */
const ts_tl_call *ts_timeline_launch(const ts_timeline *t, int64_t corr)
{
	if (!t || corr < 0)
		return NULL;
	size_t lo = 0, hi = t->ncalls;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->calls[mid].corr < corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->ncalls && t->calls[lo].corr == corr ? &t->calls[lo] : NULL;
}

int64_t ts_timeline_whole_until(const ts_timeline *t)
{
	return t ? t->whole_until : INT64_MIN;
}

uint64_t ts_timeline_dropped(const ts_timeline *t)
{
	return t ? t->dropped : 0;
}
