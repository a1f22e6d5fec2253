/*
 * lview.h - the layer machine's findings as a record: the passes, the
 * layers by type and per pass, the odd layers and what puts the layout in
 * doubt, each stage's totals, its layers by index and those off the
 * typical one, the typical layer's anatomy, the --debug-layers listing,
 * and why there is no complete pass (the note: what a trace is, said from
 * what it holds, never a silent zero).
 *
 * Built once from a finished result (ts_lview_of) and read by the
 * reporters, which call no function of the layer machine. What the
 * machine keeps as records (a pass, a stage's kernel rows, a layer
 * index's statistics, the odd layers, the anatomy, the debug kernels) the
 * record points into, read-only and valid while the result lives; the
 * figures the machine computes on asking (the layers per pass, the
 * orphans, the outliers, the expected count, each pass's evidence) are
 * computed here once and held. A result without the layer machine gives
 * a record of zeros (no pass, no stage rows).
 *
 * The note: a file with kernels gets the layer machine's reason
 * (ts_layers_note: a capture, a training step, a window that cuts every
 * pass). A file without one is said to be what its events show: another
 * accelerator's trace (mtia_*, xpu_*, hpu_*, privateuse1_* events, read and
 * not analysed), a profile without GPU activity (kernel launches or
 * computing ATen ops on the CPU, no kernel: ProfilerActivity.CUDA was not
 * on), a front-end process (Python functions of an API server, no op), an
 * empty traceEvents. A trace cut short says only what the cut explains.
 */
#ifndef TS_LVIEW_H
#define TS_LVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/views/result.h"

/* The layer indices off the typical one a stage keeps, largest deviation
 * first (the JSON report's outliers; the text shows the first 8). */
#define TS_LVIEW_OUTLIERS 64
/* A pass's evidence, "annotation=decode gemm_m=1..1 kv_grid=1", at most. */
#define TS_LVIEW_EVIDENCE 160

typedef struct {
	const ts_pass *p;            /* the machine's record */
	const char *annotation;      /* its step annotation's name; NULL none */
	char evidence[TS_LVIEW_EVIDENCE]; /* each signal's; "" none */
} ts_lview_pass;

/* A row of a stage's typical layer: a kernel at its position. */
typedef struct {
	const ts_anat_row *r;        /* the anatomy's row */
	uint32_t kernel;             /* its kernel row */
	uint32_t call;               /* its call in a layer (0 the first) */
} ts_lview_anat_row;

/* The typical layer of a stage (anatomy.h), parts that add up to it.
 * layers 0: none, and nothing else is filled. */
typedef struct {
	uint64_t layers;             /* summed over the passes listed */
	uint32_t passes, skipped;    /* complete passes listed; not listed */
	const ts_anat_sum *total;
	const ts_stat *layer_time;   /* kernel time a layer */
	const ts_stat *layer_wall;   /* wall time a layer */
	const ts_anat_type *type[TS_TYPE_COUNT];
	const ts_anat_sum **category; /* [ncategories + 1]: category c at
				       * c + 1 (0: Other) */
	ts_lview_anat_row *rows;     /* in layer order */
	size_t nrows;
	const ts_anat_sum *other_rows; /* the kernels past the name cap */
} ts_lview_anat;

typedef struct {
	ts_stage_total total;        /* passes, complete, drafts, layers, idle */
	const ts_stat *rows;         /* its kernel rows, indexed like the
				      * aggregate's; NULL when none was staged */
	const ts_stat *other, *all;  /* its (other) row; its count and total */
	uint32_t nindex;             /* layer indices with data */
	const ts_layer_stat *index;  /* [0, nindex): each index over the
				      * complete passes; NULL when nindex is 0 */
	ts_layer_outlier outliers[TS_LVIEW_OUTLIERS];
	size_t noutliers;
	int64_t typical_ns;          /* the typical index's mean (0: too few) */
	ts_lview_anat anat;          /* its typical layer */
} ts_lview_stage;

typedef struct {
	const ts_patterns *tables;   /* what names its layer types (ts_ltype_name) */
	/* the passes kept, in order (ts_layers_npasses of them) */
	ts_lview_pass *passes;
	size_t npasses;
	/* summed over the passes that are no draft */
	uint64_t layers, complete;
	uint64_t drafts;             /* a draft model's forwards */
	ts_draft_by drafts_by;       /* what told most of them from their
				      * targets (NOT: none) */
	uint32_t per_pass;           /* layers per complete pass, the most
				      * common count (0: none) */
	long expected;               /* the count a complete pass should have
				      * (0: none is sure enough) */
	char expected_from[200];     /* whence, or why there is none */
	uint64_t types[TS_LT_COUNT]; /* layers of each type */
	uint64_t structural;         /* boundaries placed by the period */
	uint64_t once_units;         /* attention units that ran once a pass */
	unsigned generation;         /* TS_GEN_* evidence; 0: no stage */
	bool diffusion;              /* a diffusion framework ran the passes */
	bool encoder;                /* an encoder's forward: bidirectional attention */
	uint64_t orphans;            /* kernels in no layer */
	int64_t orphan_ns;
	const ts_odd_layer *odd;     /* the first TS_MAX_ODD of the self-check */
	size_t nodd;
	uint64_t odd_total;          /* all it found */
	ts_layer_doubt doubt;
	bool has_note;               /* no complete pass: note says why */
	char note[300];
	ts_lview_stage stage[TS_PSTAGE_COUNT];
	const ts_anatomy *anatomy;   /* the typical layer of each stage; NULL
				      * without pattern tables (each stage's
				      * anat then has no layer) */
	size_t ncategories;          /* the anatomy's categories, Other aside */
	/* --debug-layers: the pass listed (listed false: none was, the
	 * option's pass or stage say which was asked for) and its kernels */
	struct {
		bool listed;
		uint32_t index;
		ts_pstage stage;
		bool complete;
		const ts_debug_kernel *k;
		size_t n;
		long want_pass;          /* -1: the first complete pass of want_stage */
		int want_stage;          /* -1: any */
	} debug;
} ts_lview;

/* The record of res. *out is written over, not freed. 0, or -1 when
 * memory ran out (free with ts_lview_free either way). */
int ts_lview_of(const ts_result *res, ts_lview *out);
void ts_lview_free(ts_lview *v);

/* true and the note in buf; false when the trace has a complete pass. */
bool ts_note_passes(const ts_result *res, char *buf, size_t n);

#endif
