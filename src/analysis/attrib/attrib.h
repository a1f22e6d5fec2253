/*
 * attrib.h - which CPU op, graph or runtime launch each kernel came from,
 * the Python call site behind it, and the operator workloads of the ops.
 *
 * Joins, in one pass and bounded memory:
 *  - kernel -> CPU op through "External id". cpu_op events come before the
 *    GPU block in real files, so every op is indexed as it passes, in an
 *    opindex (opindex.h: records interned, ids direct-mapped, about 2.3
 *    bytes per op) that never holds more than --join-mem bytes; ops past
 *    the cap are counted and their kernels fall into the next bucket,
 *    never silently.
 *  - kernel -> runtime launch through "correlation". On NVIDIA a kernel is
 *    written before its launch (up to ~1,350 events before a graph launch):
 *    kernels with no op wait in a bounded look-ahead (TS_ATTRIB_LOOKAHEAD)
 *    for their launch; past it they are unlinked, counted.
 *  - launch -> Python call site: the python_function frame active on the
 *    launching thread at the launch (callsite.h), voted per op.
 *
 * Every timed kernel lands in exactly one bucket: op (linked to a CPU op),
 * graph (replayed from a CUDA/HIP graph, no op), launch (a runtime launch
 * but no op), unlinked. Kernels of one op count one call of it; nested ops
 * (aten::linear -> aten::matmul -> aten::mm) count once, because a kernel
 * carries the External id of the innermost op only.
 *
 * Op rows are CPU op names, plus one row per runtime call name for kernels
 * that only reached a graph or runtime launch, and one for unlinked ones
 * (ts_attrib_op_via says which), so the ops view accounts for all kernel
 * time. Workloads (operators: in the pattern tables) are computed per op
 * call from its shapes and counted when the call launches its first kernel.
 * Views: all kernels, and each pass stage once the layer machine has given
 * the kernels their stage (ts_attrib_staged).
 */
#ifndef TS_ATTRIB_H
#define TS_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/attrib/callsite.h"
#include "analysis/attrib/capture.h"
#include "tables/classify.h"
#include "input/event.h"
#include "input/base/warn.h"
#include "analysis/hist.h"
#include "tables/patterns.h"
#include "analysis/stat.h"
#include "input/base/status.h"
#include "input/base/wire.h"

#define TS_ATTRIB_LOOKAHEAD 16384   /* kernels waiting for their launch */
#define TS_ATTRIB_MAX_OPS 65536     /* distinct op names with a row */
#define TS_ATTRIB_MAX_WORKLOADS 65536
#define TS_ATTRIB_OP_CATS 4         /* categories kept per op row */
#define TS_WL_EXACT 8               /* distinct token counts kept exactly */
#define TS_ATTRIB_STAGES 4          /* = TS_PSTAGE_COUNT (layers.h) */
#define TS_ATTRIB_ALL TS_ATTRIB_STAGES   /* the view of all kernels */
#define TS_ATTRIB_VIEWS (TS_ATTRIB_STAGES + 1)

/* graph_op: replayed from a graph, its op found in a capture trace
 * (--capture; replay.h). Last, so that the others keep their numbers. */
typedef enum {
	TS_ATTR_OP, TS_ATTR_GRAPH, TS_ATTR_LAUNCH, TS_ATTR_UNLINKED, TS_ATTR_GRAPH_OP,
	TS_ATTR_COUNT
} ts_attr_bucket;

const char *ts_attr_bucket_name(ts_attr_bucket b);

typedef struct {
	int32_t category;        /* ts_kclass category; -1 none */
	uint64_t count;
	int64_t ns;
} ts_op_cat;

/* One op name (or runtime call name), with the kernels linked to it. */
typedef struct {
	uint64_t calls;          /* op calls (graph launches) that ran kernels */
	uint64_t kernels;
	int64_t ns;
	ts_op_cat cats[TS_ATTRIB_OP_CATS]; /* by first seen; the rest in other_cat_ns */
	int64_t other_cat_ns;
	uint64_t graph_kernels;  /* of them, graph-replayed with the op from a capture */
	int64_t graph_ns;
	/* memcpy and memset operations it issued (by External id; all stages:
	 * kept in the all view only) */
	uint64_t memops;
	int64_t mem_ns, mem_bytes;
} ts_op_row;

/* One workload definition and dtype. */
typedef struct {
	uint32_t rule;           /* the operator rule that named it */
	uint64_t calls, kernels;
	int64_t ns;
	int64_t m_min, m_max;    /* tokens; m_min -1: none known */
	ts_hist m;               /* tokens of every call */
	/* the tokens exactly while there are few distinct values (the usual
	 * case: one batch shape per stage) */
	uint8_t nexact;
	bool inexact;
	uint32_t exact_v[TS_WL_EXACT];
	uint64_t exact_n[TS_WL_EXACT];
	/* roofline: FLOPs and bytes of the calls whose rule gives them, and
	 * the time of those calls' kernels that do the work (the kind's types:
	 * an attention op's quantization kernel is not its attention; a call
	 * with no such kernel is unplaced, its cost counted nowhere) */
	uint64_t flops, bytes;
	int64_t flops_ns, bytes_ns;
	uint64_t flops_calls, bytes_calls;
	uint64_t cost_calls;     /* calls with a cost */
	uint64_t placed_calls;   /* of them, with a kernel of the kind's types
				  * (the rest are unplaced) */
	uint64_t unfit_kernels;  /* kernels of calls with a cost, not of them */
	int64_t unfit_ns;
	uint64_t seq, placed;    /* the latest call (by its opening kernel), the
				  * latest whose cost was placed */
	/* per-head calls (a QK norm over tokens x heads rows): heads per
	 * token, 0 when no call was per-head */
	uint16_t heads_min, heads_max;
} ts_wl_row;

/* The q-quantile of a workload's tokens: exact while it has at most
 * TS_WL_EXACT distinct values, else within 1%; -1 when none is known. */
int64_t ts_wl_tokens_quantile(const ts_wl_row *w, double q);

/* What the layer machine keeps per kernel until its pass has a stage. */
typedef struct {
	uint32_t op;             /* op row | TS_KREF_FIRST; TS_INTERN_NONE: no op */
	uint32_t wl;             /* workload row, TS_INTERN_NONE none */
	uint32_t m;              /* tokens (M) of the op, 0 unknown */
	uint16_t heads;          /* a per-head op: heads per token, else 0 */
	uint8_t cont;            /* 1: a later op of a sequence call */
	uint8_t graph;           /* 1: graph-replayed, the op from a capture */
	uint8_t fits;            /* 1: its type is one that does its workload's
				  * kind of work (ts_oprule.fit), or no kind
				  * says; 0: it is not (a quantization kernel
				  * of an attention op) */
	uint64_t flops, bytes;   /* of the op call, 0 unknown */
} ts_kref;

/* Whether a kernel opens a call of its workload: the first kernel of its
 * op, unless the op continues a sequence call. */
#define TS_KREF_OPENS(r) (((r)->op & TS_KREF_FIRST) && (r)->op != TS_INTERN_NONE && !(r)->cont)

#define TS_KREF_FIRST 0x80000000u   /* the first kernel of its op call */

typedef struct {
	uint64_t kernels[TS_ATTR_COUNT];
	int64_t ns[TS_ATTR_COUNT];
	uint64_t ops_indexed, ops_dropped;   /* cpu_ops past --join-mem */
	uint64_t lookahead_overflow;         /* kernels given up waiting */
	uint64_t op_names_dropped;           /* linked kernels past the op-row cap */
	uint64_t ops_with_shapes;            /* indexed ops carrying Input Dims */
	uint64_t workload_calls;             /* op calls with a workload */
	uint64_t sequence_calls;             /* of them, op sequences (unfused ops) */
	uint64_t workloads_dropped;          /* past the workload-row cap */
	size_t index_bytes;
} ts_attrib_totals;

typedef struct ts_attrib ts_attrib;

/* join_mem: bytes each join index may take (0: the default); p: operator
 * rules and call-site skips (NULL: none). */
ts_attrib *ts_attrib_new(const ts_patterns *p, size_t join_mem);
void ts_attrib_free(ts_attrib *a);
/* The trace's facts as the parser fills them in: the operator rules' W is
 * its world size (1 without, or before it is seen). */
void ts_attrib_set_meta(ts_attrib *a, const ts_meta *meta);

/* A CPU op: indexed by its External id with the workload its shapes
 * name; what an attention workload's queries attend to (its rule's
 * attends:, NONE for any other op). */
ts_attends ts_attrib_cpu_op(ts_attrib *a, const ts_event *ev);
/* A user annotation: c10d's profiling title of a collective ("nccl:
 * all_reduce", "rccl:_all_gather_base", "gloo:broadcast"), open across the
 * kernel's launch, is the op that launched it; other annotations are not
 * ops. */
void ts_attrib_annotation(ts_attrib *a, const ts_event *ev);
void ts_attrib_python(ts_attrib *a, const ts_event *ev);
/* A kernel linked as *ref turned out to be of category to where its name
 * said from (a context: its op says what it is): its op's categories
 * follow. */
void ts_attrib_recategorize(ts_attrib *a, const ts_kref *ref, int32_t from, int32_t to,
			    int64_t dur);
void ts_attrib_runtime(ts_attrib *a, const ts_event *ev);
/* A timed kernel of row (TS_INTERN_NONE past the name cap) and class; *ref
 * says what it was linked to, for ts_attrib_staged. */
/* A memcpy or memset operation: its op's memory time and bytes. */
void ts_attrib_memop(ts_attrib *a, const ts_event *ev);
void ts_attrib_kernel(ts_attrib *a, const ts_event *ev, uint32_t row,
		      const ts_kclass *c, ts_kref *ref);
/* A kernel's pass got its stage (0 .. TS_ATTRIB_STAGES-1). */
void ts_attrib_staged(ts_attrib *a, int stage, const ts_kref *ref, int64_t dur);
/* What a kernel is linked to so far (the replay matcher holds kernels
 * until it knows): an op, a launch, a graph launch, a launch not seen yet
 * (NVIDIA writes kernels first), or nothing (unlinked). */
typedef enum { TS_LINK_NONE, TS_LINK_OP, TS_LINK_LAUNCH, TS_LINK_GRAPH, TS_LINK_WAIT } ts_link;
ts_link ts_attrib_link(const ts_attrib *a, const ts_event *ev);
/* The runtime call of a correlation, once seen: TS_LINK_GRAPH, _LAUNCH, or
 * TS_LINK_WAIT when not seen (yet). */
ts_link ts_attrib_corr_link(const ts_attrib *a, int64_t correlation);
/* A graph-replayed kernel whose node of a captured graph was found: it
 * takes that node's op, call site and workload (bucket graph_op). */
void ts_attrib_captured(ts_attrib *a, const ts_event *ev, uint32_t row, const ts_kclass *c,
			const ts_capmap *map, size_t node, ts_kref *ref);

/* Recording a capture trace: every runtime call goes to m with its call
 * site; ts_attrib_op_info (a ts_opinfo_fn, ctx the attribution) gives the
 * op of a launch's External id at the end. */
void ts_attrib_record(ts_attrib *a, ts_capmap *m);
bool ts_attrib_op_info(void *a, int64_t ext, ts_opinfo *out);

/* End of input: kernels still waiting for a launch are unlinked. */
void ts_attrib_finish(ts_attrib *a);

const ts_attrib_totals *ts_attrib_get_totals(const ts_attrib *a);
const ts_callsite_totals *ts_attrib_callsite_totals(const ts_attrib *a);

/* Op rows of a view (TS_ATTRIB_ALL or a stage). */
size_t ts_attrib_nops(const ts_attrib *a);
const ts_op_row *ts_attrib_op(const ts_attrib *a, int view, size_t i);
/* Rows with kernels in the view, by kernel time (desc). Caller frees. */
size_t *ts_attrib_op_order(const ts_attrib *a, int view, size_t *n);
const char *ts_attrib_op_name(const ts_attrib *a, size_t i, size_t *len);
ts_attr_bucket ts_attrib_op_via(const ts_attrib *a, size_t i);
/* The call site most of a row's launches came from, or NULL. */
const char *ts_attrib_op_callsite(const ts_attrib *a, size_t i, size_t *len);
/* A row's most frequent call sites (up to 4; a space-saving count, exact
 * while a row has at most 4): names and weights (launches, or replayed
 * kernels), heaviest first; how many. */
#define TS_ATTRIB_CALLSITES 4
size_t ts_attrib_op_callsites(const ts_attrib *a, size_t i, const char **name, size_t *len,
			      uint64_t *weight);
/* The op most of a kernel row's time came from (a majority vote), or -1. */
long ts_attrib_parent_op(const ts_attrib *a, uint32_t row);

/* Workload rows of a view. */
size_t ts_attrib_nworkloads(const ts_attrib *a);
const ts_wl_row *ts_attrib_workload(const ts_attrib *a, int view, size_t i);
/* Rows with calls in the view, by kind (rule order), then name. */
size_t *ts_attrib_workload_order(const ts_attrib *a, int view, size_t *n);
/* Name (gemm_n6144_k4096) and dtype of a workload row. */
const char *ts_attrib_workload_name(const ts_attrib *a, size_t i, size_t *len,
				    const char **dtype);
const ts_oprule *ts_attrib_workload_rule(const ts_attrib *a, size_t i);

/* Saved partials (docs/partial-format.md), after ts_attrib_finish: totals,
 * op rows and workload rows of every view, call sites, the op each kernel
 * row came from. Categories and operator rules go by name (category) and
 * by kind and template (rule). ts_attrib_load adds them to a, sending
 * saved kernel rows through kmap, and gives the op row and workload row
 * each saved one became (*opmap, *wlmap: free them; TS_INTERN_NONE past
 * the caps). TS_ERR_PARTIAL with r->err set, or TS_ERR_NOMEM. */
void ts_attrib_save(const ts_attrib *a, ts_wbuf *w);
ts_status ts_attrib_load(ts_attrib *a, ts_rbuf *r, const uint32_t *kmap, uint32_t nk,
			 uint32_t **opmap, uint32_t *nop, uint32_t **wlmap, uint32_t *nwl);

#define TS_JOIN_MEM_DEFAULT (64u << 20)

/* What the joins could not index or link, as warnings; captures: whether
 * graph-capture traces were given (the advice for graph-replayed time). */
void ts_attrib_warnings(const ts_attrib *a, bool captures, ts_warns *w);

#endif
