/*
 * attrib.h - which CPU op, or failing that which runtime launch, each
 * kernel came from; the ops view.
 *
 * Joins, in one pass and bounded memory:
 *  - kernel -> CPU op through "External id". cpu_op events come before the
 *    GPU block in real files, so every op is indexed as it passes: 16 bytes
 *    per op (External id, interned op name, M), in a table that never holds
 *    more than --join-mem bytes; ops past the cap are counted and their
 *    kernels fall into the next bucket, never silently.
 *  - kernel -> runtime launch through "correlation". On NVIDIA a kernel is
 *    written before its launch (up to ~1,350 events before a graph launch):
 *    kernels with no op wait in a bounded look-ahead (TS_ATTRIB_LOOKAHEAD)
 *    for their launch; past it they are unlinked, counted.
 *
 * Every timed kernel lands in exactly one bucket: op (linked to a CPU op),
 * graph (replayed from a CUDA/HIP graph, no op), launch (a runtime launch
 * but no op), unlinked. Kernels of one op count one call of it; nested ops
 * (aten::linear -> aten::matmul -> aten::mm) count once, because a kernel
 * carries the External id of the innermost op only.
 */
#ifndef TS_ATTRIB_H
#define TS_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classify.h"
#include "event.h"
#include "stat.h"

#define TS_ATTRIB_LOOKAHEAD 16384   /* kernels waiting for their launch */
#define TS_ATTRIB_MAX_OPS 65536     /* distinct op names with a row */
#define TS_ATTRIB_OP_CATS 4         /* categories kept per op row */

typedef enum {
	TS_ATTR_OP, TS_ATTR_GRAPH, TS_ATTR_LAUNCH, TS_ATTR_UNLINKED, TS_ATTR_COUNT
} ts_attr_bucket;

const char *ts_attr_bucket_name(ts_attr_bucket b);

typedef struct {
	int32_t category;        /* ts_kclass category; -1 none */
	uint64_t count;
	int64_t ns;
} ts_op_cat;

/* One CPU op name, with the kernels linked to it. */
typedef struct {
	uint64_t calls;          /* ops of this name that launched kernels */
	uint64_t kernels;
	int64_t ns;
	ts_op_cat cats[TS_ATTRIB_OP_CATS]; /* by time, the rest in other_ns */
	int64_t other_cat_ns;
} ts_op_row;

typedef struct {
	uint64_t kernels[TS_ATTR_COUNT];
	int64_t ns[TS_ATTR_COUNT];
	uint64_t ops_indexed, ops_dropped;   /* cpu_ops past --join-mem */
	uint64_t lookahead_overflow;         /* kernels given up waiting */
	uint64_t op_names_dropped;           /* linked kernels past the op-row cap */
	size_t index_bytes;
} ts_attrib_totals;

typedef struct ts_attrib ts_attrib;

/* join_mem: bytes the External id index may take (0: the default). */
ts_attrib *ts_attrib_new(size_t join_mem);
void ts_attrib_free(ts_attrib *a);

void ts_attrib_cpu_op(ts_attrib *a, const ts_event *ev);
void ts_attrib_runtime(ts_attrib *a, const ts_event *ev);
/* A timed kernel of row (TS_INTERN_NONE past the name cap) and class. */
void ts_attrib_kernel(ts_attrib *a, const ts_event *ev, uint32_t row,
		      const ts_kclass *c);
/* End of input: kernels still waiting for a launch are unlinked. */
void ts_attrib_finish(ts_attrib *a);

const ts_attrib_totals *ts_attrib_get_totals(const ts_attrib *a);
size_t ts_attrib_nops(const ts_attrib *a);
const ts_op_row *ts_attrib_op(const ts_attrib *a, size_t i);
/* Op rows with kernels, by kernel time (desc). Caller frees. */
size_t *ts_attrib_op_order(const ts_attrib *a, size_t *n);
const char *ts_attrib_op_name(const ts_attrib *a, size_t i, size_t *len);
/* The op most of a kernel row's time came from (a majority vote), or -1. */
long ts_attrib_parent_op(const ts_attrib *a, uint32_t row);
/* M of the op that launched the last kernel (GEMM rows), -1 unknown. */
int64_t ts_attrib_last_m(const ts_attrib *a);

#define TS_JOIN_MEM_DEFAULT (64u << 20)

#endif
