/*
 * memory_ops.h - which CPU ops hold a device's memory at its peak: the
 * allocations still live at the peak (an allocator event's "Addr" with
 * no free of it before), each owned by the outermost CPU op that ran on
 * its thread when it was made.
 *
 * Kineto writes the allocator's events after every CPU op, and tools that
 * re-save a trace interleave them, so the ops are kept and matched when
 * the run is done: the outermost ops of each thread (an op inside another
 * of its thread is not kept), the last TS_MEMOP_RING of them. An
 * allocation made while a dropped op ran is owned by "an op not kept",
 * one made outside every op by "no CPU op".
 *
 * Memory: TS_MEMOP_RING ops of 16 bytes (512 KiB; an op is kept up to
 * 4.29 s long), TS_MEMOP_THREADS threads, op
 * names up to TS_MEMOP_NAMES; after the run, a few bytes per allocator
 * record for the match.
 */
#ifndef TS_MEMORY_OPS_H
#define TS_MEMORY_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/event.h"

#define TS_MEMOP_RING (1u << 15)
#define TS_MEMOP_THREADS 64
#define TS_MEMOP_NAMES 4096
#define TS_MEMOP_NO_THREAD UINT16_MAX
#define TS_MEMOP_ROWS 8              /* a device's owners, the last "other ops" */
#define TS_MEMOP_NAME 96

typedef enum {
	TS_MEMOP_OP,                 /* a CPU op, by name */
	TS_MEMOP_NONE,               /* made outside every CPU op of its thread */
	TS_MEMOP_LOST,               /* its op was past the kept ones */
	TS_MEMOP_OTHER,              /* ops past the rows, together */
} ts_memop_kind;

typedef struct {
	ts_memop_kind kind;
	char name[TS_MEMOP_NAME];    /* TS_MEMOP_OP: the op's name (cut to fit) */
	int64_t bytes;               /* live at the peak */
	uint32_t allocations;
} ts_memop_row;

/* A device's peak, in owners. */
typedef enum {
	TS_MEMPEAK_NONE,             /* not computed: no events */
	TS_MEMPEAK_DONE,
	TS_MEMPEAK_MERGED,           /* records merged: an allocation's free unknown */
	TS_MEMPEAK_NO_ADDR,          /* the events carry no "Addr" (PyTorch before 1.10) */
	TS_MEMPEAK_UNEVEN,           /* the live blocks exceed the peak: the events'
				      * totals and bytes do not add up */
} ts_mempeak_status;

typedef struct {
	ts_mempeak_status status;
	int64_t live_bytes;          /* made in the capture, live at the peak */
	uint32_t live_allocations;
	int64_t before_bytes;        /* the peak less live_bytes: held from before
				      * the capture's first event */
	size_t nrows;                /* biggest first */
	ts_memop_row rows[TS_MEMOP_ROWS];
} ts_mem_peak;

/* One allocator event of a device, in time order. */
typedef struct {
	int64_t t;
	uint64_t addr;
	int64_t bytes;               /* + allocated, - freed */
	uint16_t thread;             /* ts_mem_ops_thread's slot */
} ts_mem_point;

typedef struct ts_mem_ops ts_mem_ops;

ts_mem_ops *ts_mem_ops_new(void);
void ts_mem_ops_free(ts_mem_ops *o);

/* A thread's slot, TS_MEMOP_NO_THREAD past TS_MEMOP_THREADS threads. */
uint16_t ts_mem_ops_thread(ts_mem_ops *o, int64_t tid);
/* A CPU op, in the stream's order (a parent before its children). */
void ts_mem_ops_add(ts_mem_ops *o, const ts_event *ev);

/* The owners of the allocations live after the last of pts[0..n) (one
 * device's events in time order, up to its peak), grouped into pk's rows;
 * sorts the kept ops. peak_allocated: the device's peak, for
 * before_bytes. False: out of memory (pk untouched). */
bool ts_mem_ops_peak(ts_mem_ops *o, const ts_mem_point *pts, size_t n, int64_t peak_allocated,
		     ts_mem_peak *pk);

#endif
