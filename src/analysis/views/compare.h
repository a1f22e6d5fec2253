/*
 * compare.h - two analyses side by side: where B spends more GPU time than
 * A, by operation group, by layer, and kernel by kernel inside a layer.
 *
 * Reads two finished ts_results, each from its own ts_pipeline_run, and the
 * compare tables of the patterns (groups:, fusions:, align: in
 * compare.yaml). Nothing here sees an event: the size of a comparison
 * depends on the distinct kernel names and the layers, never on the trace
 * length.
 *
 * Operation rows: every kernel launch of the view falls in exactly one.
 * A kernel goes to the first group that picks it (by its class where it
 * ran: a GEMM in a MoE context is an expert GEMM); a group with split:
 * category gets a row per category both sides run, the rest of it in one
 * "(rest)" row (unpaired when both sides have kernels there: different
 * work, said as such). A fusion merges the rows of its parts when one side runs
 * its fused kernels and the other none, but at least two of the parts
 * separately. When the sides hold different numbers of forward passes,
 * times are compared per pass (per_pass); totals stay as they are.
 */
#ifndef TS_COMPARE_H
#define TS_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/views/result.h"
#include "analysis/views/sview.h"
#include "analysis/views/whatif.h"

typedef enum { TS_CMP_SIMILAR, TS_CMP_SLOWER, TS_CMP_FASTER } ts_cmp_status;

const char *ts_cmp_status_name(ts_cmp_status s);

#define TS_CMP_THRESHOLD_US 1.0   /* defaults, documented in README.md */
#define TS_CMP_THRESHOLD_PCT 5.0

typedef struct {
	double threshold_us;     /* |gap| at or below: similar */
	double threshold_pct;    /* |gap| / A at or below this percent: similar */
	bool staged;             /* only the kernels, passes and layers of... */
	ts_pstage stage;         /* ...this stage */
} ts_cmp_opts;

/* One kernel name's share of an operation row on one side. */
typedef struct {
	uint32_t row;            /* kernel row; UINT32_MAX: the (other) row */
	const ts_kclass *cls;    /* its class there (a context's, or its own) */
	uint64_t count;
	int64_t ns;
} ts_cmp_kernel;

typedef struct {
	char name[160];          /* "attention", "moe: MoE-GEMM", "communication + norm" */
	int group;               /* the first group of the row; ngroups: other */
	int category;            /* split rows: their category, else -1 */
	int fusion;              /* the fusion that merged the row, -1 none */
	int fused_side;          /* the side that runs the fused kernels, -1 */
	uint64_t count[2];
	int64_t ns[2];
	double per_layer[2];     /* launches per layer of the view; -1: no layers */
	double cmp[2];           /* compared time, ns: total, or per pass */
	double gap;              /* cmp[1] - cmp[0], ns */
	double ratio;            /* cmp[1] / cmp[0]; -1 when A has none */
	ts_cmp_status status;
	ts_cmp_kernel *k[2];     /* by time, desc */
	size_t nk[2];
	long op[2];              /* CPU op of the row's biggest kernel, -1 none */
	const char *callsite[2]; /* the call site most of that op's launches
				  * came from, callsite_len[s] bytes; NULL none */
	size_t callsite_len[2];
	bool rest;               /* a split group's "(rest)": the categories of
				  * the group that only one side runs */
	bool unpaired;           /* a rest row with kernels on both sides: each
				  * side's work is of kinds the other does not
				  * run, so its gap compares different work */
} ts_cmp_op;

typedef struct {
	ts_pstage stage;
	uint32_t layer;
	bool has[2];
	double mean[2];          /* ns, over the complete passes */
	int64_t p50[2];
	double kernels[2];       /* per instance */
	uint64_t instances[2];
	double gap, ratio;       /* ratio -1: not on both sides */
	ts_cmp_status status;
} ts_cmp_layer;

typedef enum {
	TS_PAIR_SAME, TS_PAIR_SIMILAR, TS_PAIR_FUSED, TS_PAIR_DIFFERENT,
	TS_PAIR_A_ONLY, TS_PAIR_B_ONLY
} ts_pair_kind;

const char *ts_pair_kind_name(ts_pair_kind k);

/* Kernels a[a0 .. a0+na) of A's sample do the job of b[b0 .. b0+nb). */
typedef struct {
	uint32_t a0, na, b0, nb;
	ts_pair_kind kind;
	int fusion;              /* TS_PAIR_FUSED: which, else -1 */
	double a_ns, b_ns;       /* mean per instance */
} ts_cmp_pair;

#define TS_CMP_ALIGN_MAX 512     /* kernels of a sample aligned */

typedef struct {
	const ts_layer_sample *s[2];  /* NULL: no sample on that side */
	ts_cmp_pair *pairs;
	size_t npairs;
	long cost;
	bool truncated;          /* a sample was longer than TS_CMP_ALIGN_MAX */
} ts_cmp_align;

/* The latency of a stage both sides run: its steps and per token (the
 * figures the first screen prints), and the mean step by cause on each
 * side, the difference of the means split by cause (the parts add up to
 * the difference of the mean steps). */
typedef struct {
	bool has;
	ts_sview steps[2];
	ts_step_split split[2];
	double gap_ns;           /* mean step, B - A */
	double ratio;            /* B / A of the mean step; -1 none */
	double token_ratio;      /* decode: B / A per token; -1 unknown */
	ts_cmp_status status;    /* of the mean step, by the thresholds */
	/* each side's steps replayed (whatif.h), NULL where none was: the
	 * step by what each start waited for, kernels by type */
	const ts_wi_stage *wi[2];
} ts_cmp_latency;

typedef struct {
	const ts_result *r[2];
	const char *name[2];
	const ts_patterns *patterns;
	ts_cmp_opts o;
	int ngroups;             /* of the tables; "other" is index ngroups */
	/* the view of each side */
	int64_t kernel_ns[2];
	uint64_t kernels[2];
	uint64_t passes[2];      /* passes with layers */
	uint64_t complete[2];
	uint64_t layers[2];      /* layer instances */
	int64_t busy_ns[2];      /* the whole trace's busy time (every stage) */
	/* each stage's totals on each side (the layer machine's records, every
	 * stage whatever the view); NULL where a side has no layers */
	const ts_stage_total *stage[TS_PSTAGE_COUNT][2];
	/* collectives per kind on each side, every stage */
	ts_comm_total comm[TS_COMM_KINDS][2];
	bool per_pass;           /* pass counts differ: times compared per pass */
	bool stages_differ;      /* both have passes, of no stage in common */
	double cmp_total[2];
	double gap, ratio;
	ts_cmp_status status;
	ts_cmp_op *ops;          /* worst gap first */
	size_t nops;
	ts_cmp_layer *layers_rows;
	size_t nlayers;
	uint32_t layer_count[TS_PSTAGE_COUNT][2]; /* layer indices per stage */
	ts_cmp_align align[TS_PSTAGE_COUNT];
	/* fusions not claimed: one side runs the fused kernels, the other a
	 * kernel that may be them (the tables' maybe:); the first's index and
	 * fused side, -1 none */
	uint32_t fusions_unsure;
	int unsure_fusion, unsure_side;
	/* the two traces run different models: MoE on one side only, or
	 * complete passes of different depths in a stage both run; why: "A
	 * dense, B MoE; A 28 layers per pass, B 48" ("" when alike) */
	char models_differ[160];
	ts_cmp_latency latency[TS_PSTAGE_COUNT];
} ts_compare;

/* NULL when out of memory. a and b stay borrowed, as do the names. */
ts_compare *ts_compare_new(const ts_result *a, const ts_result *b,
			   const char *name_a, const char *name_b,
			   const ts_cmp_opts *o);
void ts_compare_free(ts_compare *c);

/* The name of a kernel of a row ("(other)" for the folded row). */
const char *ts_cmp_kernel_name(const ts_compare *c, int side, const ts_cmp_kernel *k,
			       size_t *len);

#endif
