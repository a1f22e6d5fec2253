/*
 * aview.h - the attribution as a record: kernel time by what launched it
 * (the buckets: op, graph, launch, unlinked, graph_op), the joins' and
 * the call sites' totals, the op rows of a view by the time of their
 * kernels, each with its name, how it was reached, its call sites and its
 * running sum, and the workload rows of the view in kind and name order,
 * each with its name, dtype, rule and roofline; and the roofline itself:
 * a workload held against its GPU's peaks.
 *
 * Built once from a finished result and a kernel view (ts_aview_of: all
 * kernels, or one stage's under --stage) and read by the reporters, which
 * call no function of the attribution. What the attribution keeps as
 * records (an op row, a workload row, the operator rule, the names) the
 * record points into, read-only and valid while the result lives; what it
 * computes on asking (the orders, the call sites, each op row's cumulative
 * time, each workload's roofline on the result's GPU) is computed here
 * once and held. A result without the attribution gives a record of
 * zeros (present false, no rows). The totals alone (the first screen's)
 * come from ts_aview_totals_of, without the rows.
 *
 * The roofline: the operator rules give each call's FLOPs and bytes moved
 * from its shapes (flops: and bytes: in patterns/operators.yaml); the
 * workload row sums them with the kernel time of exactly those calls.
 * Achieved TFLOP/s and TB/s are those sums over that time; the arithmetic
 * intensity is FLOPs per byte; the bound is memory when the intensity is
 * below the device's ridge point (peak FLOP/s over peak bytes/s), else
 * compute, and the percentage is of the bound's peak: the dense TFLOP/s
 * of the workload's dtype, or the memory bandwidth. With only FLOPs known
 * the bound is compute, with only bytes memory.
 */
#ifndef TS_AVIEW_H
#define TS_AVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/attrib/attrib.h"
#include "analysis/layers/anatomy.h"
#include "analysis/views/kview.h"
#include "analysis/views/result.h"
#include "tables/patterns.h"

/* ------------------------------------------------------------ roofline */

typedef enum { TS_BOUND_UNKNOWN, TS_BOUND_COMPUTE, TS_BOUND_MEMORY } ts_bound;

typedef struct {
	bool has_flops, has_bytes;
	double flops, bytes;         /* of the calls that have them */
	double tflops, tbps;         /* achieved; 0 when unknown */
	double intensity;            /* FLOPs per byte; 0 unless both known */
	int dtclass;                 /* ts_dtclass of the dtype, -1 none */
	double peak_tflops;          /* of the dtype on the device; 0 none */
	double peak_tbps;            /* 0: no device */
	ts_bound bound;
	double pct_of_peak;          /* of the bound's peak; -1 unknown */
	/* achieved above the device's peak: the kernels linked to the calls are
	 * not theirs (old traces link some kernels to the wrong op) or the
	 * rule or the peak is wrong. No rate is then given as fact: has_flops
	 * and has_bytes are false, tflops, tbps and pct_of_peak unknown, and
	 * the figures that would have been printed are over_tflops, over_tbps
	 * (the evidence; counted and warned about) */
	bool exceeds_peak;
	double over_tflops, over_tbps;
} ts_roofline;

/* The roofline of workload row w, whose dtype is dtype, on device d (NULL:
 * achieved rates only). */
void ts_roofline_of(const ts_wl_row *w, const char *dtype, const ts_gpu *d,
		    ts_roofline *r);

const char *ts_bound_name(ts_bound b);

/* Workloads whose calls ran faster than gpu's peaks allow (mislinked
 * kernels, or a wrong rule or peak), as a warning. */
void ts_roofline_warnings(const ts_attrib *a, const ts_gpu *gpu, ts_warns *w);

/* The roofline of a sum of kernels (a type or row of the layer
 * anatomy), its workload's dtype from the run's attribution. */
void ts_roofline_sum(const ts_result *res, const ts_anat_sum *s, ts_roofline *r);

/* ---------------------------------------------------------- the record */

/* Kernel time by what launched it, and what the joins kept. */
typedef struct {
	bool present;                /* the result has an attribution */
	int nbuckets;                /* buckets the reports show: graph_op
				      * only with --capture or its kernels
				      * (ts_kview_nbuckets) */
	ts_attrib_totals t;          /* kernels and time per bucket, the
				      * op index, shapes, workload calls */
	ts_callsite_totals cs;       /* the Python frames and call sites */
	int64_t all_ns;              /* kernel time of every bucket */
} ts_aview_totals;

/* One op row of the view. */
typedef struct {
	size_t op;                   /* the attribution's op row */
	const ts_op_row *r;          /* in the view */
	const ts_op_row *all;        /* in all kernels: the categories and
				      * the memcpy / memset it issued */
	const char *name;            /* not NUL-terminated: len */
	size_t len;
	ts_attr_bucket via;          /* op, or graph / launch / unlinked */
	const char *site;            /* the call site most launches came
				      * from; NULL none */
	size_t site_len;
	size_t nsites;               /* its most frequent, heaviest first */
	const char *sites[TS_ATTRIB_CALLSITES];
	size_t site_lens[TS_ATTRIB_CALLSITES];
	uint64_t site_weights[TS_ATTRIB_CALLSITES];
	int64_t cum_ns;              /* kernel time of it and the rows before */
} ts_aview_op;

/* One workload row of the view. */
typedef struct {
	size_t wl;                   /* the attribution's workload row */
	const ts_wl_row *r;          /* in the view */
	const char *name;            /* "gemm_n6144_k4096", not NUL-
				      * terminated: len */
	size_t len;
	const char *dtype;           /* "" none */
	const ts_oprule *rule;       /* the operator rule that named it */
	ts_roofline rf;              /* on the result's GPU (achieved rates
				      * only without one) */
} ts_aview_wl;

/* A captured graph (--capture), with its file's and annotation's names. */
typedef struct {
	const ts_capgraph *g;        /* the capture map's record */
	const char *file, *ann;      /* NULL none; not NUL-terminated: the
				      * lens */
	size_t file_len, ann_len;
} ts_aview_graph;

/* --capture: the graphs the capture recorded, and each kind of replay
 * with the graph it took or why none (the machine's rows, its order). */
typedef struct {
	bool present;                /* the result matched replays */
	const ts_replay_totals *t;   /* NULL when not present */
	const ts_capture_totals *ct;
	size_t ngraphs, nnodes, bytes;
	ts_aview_graph *graphs;      /* [ngraphs] */
	const ts_replay_row **rows;  /* [nrows] */
	size_t nrows;
} ts_aview_replays;

typedef struct {
	ts_aview_totals tot;
	ts_aview_replays rp;         /* whatever the view: replays are not
				      * staged */
	int view;                    /* TS_ATTRIB_ALL, or the stage's */
	ts_aview_op *ops;            /* with kernels or memops in the view,
				      * by their time, the memops' with it
				      * (desc) */
	size_t nops;
	ts_aview_wl *wls;            /* with calls in the view, by kind (rule
				      * order), then name */
	size_t nwls;
} ts_aview;

/* The totals of res's attribution (zeros, present false, without one). */
void ts_aview_totals_of(const ts_result *res, ts_aview_totals *out);
/* The record of res in the kernel view v (its stage, or all kernels).
 * *out is written over, not freed. 0, or -1 when memory ran out (free
 * with ts_aview_free either way). */
int ts_aview_of(const ts_result *res, const ts_kview *v, ts_aview *out);
void ts_aview_free(ts_aview *v);

/* An op row's name, NULL when op is TS_INTERN_NONE or res has no
 * attribution (an idle gap's op, a compared row's). */
const char *ts_aview_op_name(const ts_result *res, uint32_t op, size_t *len);
/* An op row's label: "aten::mm", "[graph] hipGraphLaunch", "(unlinked)". */
void ts_aview_op_label(const ts_attrib *a, size_t op, char *buf, size_t n);

#endif
