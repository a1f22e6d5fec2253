/*
 * layers.h - forward passes, transformer layers and prefill/decode stages,
 * found in one pass over the classified kernel stream.
 *
 * The layer machine needs no per-model code: its markers come from the
 * pattern tables (layer.start / attention / moe / fc selectors of the model
 * families; the union of all families unless --model names one). A layer
 * boundary is a layer-start kernel (a residual norm) that arrives after an
 * MLP marker (MoE or dense FC) since the previous boundary, so per-head
 * q/k norms and the post-attention norm never split a layer; with
 * split_half_layers, any start kernel after attention or MLP work splits,
 * giving attention and MLP half-layers. A span counts as a layer when it
 * holds attention (or, split, attention or MLP work).
 *
 * Passes: an embedding kernel starts one, a sampling kernel ends one. A pass
 * that begins inside a layer (the capture started mid-pass) or ends inside
 * one (the capture stopped) is partial. Stages come from votes: the step
 * annotation whose CPU window started last before the pass (vLLM
 * execute_..._context_N_generation_M, SGLang step[DECODE|EXTEND ...]) and
 * the kernel-name stage hints of the tables.
 *
 * Memory is bounded: per-layer figures of the current pass only (at most
 * TS_MAX_LAYERS), pass records up to a cap (the rest are aggregated and
 * counted), per-layer statistics by layer index and stage, not per instance.
 * Events are borrowed for the call.
 */
#ifndef TS_LAYERS_H
#define TS_LAYERS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/layers/anatomy.h"
#include "analysis/structure/pstage.h"
#include "analysis/structure/vote.h"
#include "analysis/attrib/attrib.h"
#include "analysis/context.h"
#include "tables/classify.h"
#include "input/event.h"
#include "analysis/idle.h"
#include "analysis/limits.h"
#include "tables/patterns.h"
#include "analysis/stat.h"
#include "input/base/status.h"
#include "input/base/wire.h"

#define TS_MAX_PASSES 16384     /* pass records kept for passes[] */
#define TS_MAX_PASS_KERNELS 262144 /* kernels of one pass held for its stage */


/* Layer types (ts_ltype) and their names: tables/patterns.h, from the
 * mixers the tables declare. */


/* What told a draft's forward from its target's (JSON passes[].draft_by,
 * layers.drafts_by): in its step, the target verified once beside two or
 * more draft forwards (ONCE); one of each, the target has the count a
 * step showed alone, the prompt's (ALONE); else the deeper (DEEPER); with
 * no step annotation, the cycle of the passes' layer counts (CYCLE); a
 * pass in no step of the drafts' count (STRAY); several forwards replayed
 * from one graph launch beside the target's own (GRAPH); a decode beside
 * one that verified k times its tokens (TOKENS); UNKNOWN from a partial
 * written before this was kept. */
typedef enum {
	TS_DRAFT_NOT = 0,
	TS_DRAFT_UNKNOWN,
	TS_DRAFT_ONCE,
	TS_DRAFT_ALONE,
	TS_DRAFT_DEEPER,
	TS_DRAFT_CYCLE,
	TS_DRAFT_STRAY,
	TS_DRAFT_GRAPH,
	TS_DRAFT_TOKENS,
	TS_DRAFT_BY_COUNT
} ts_draft_by;

/* Its name in the JSON report ("verified_once", ...); NULL for NOT. */
const char *ts_draft_by_name(ts_draft_by b);

typedef struct {
	uint32_t index;
	ts_pstage stage;
	ts_pstage signal[TS_SIG_COUNT]; /* each signal's verdict; unknown: none */
	int64_t gemm_m_min, gemm_m_max; /* -1: no GEMM with shapes */
	int64_t kv_grid;            /* largest grid x of a token-counting kernel, -1 none */
	int64_t q_grid;             /* ... of a query-block-counting one, -1 none */
	uint32_t hints_prefill, hints_decode; /* kernels with a name stage hint */
	uint32_t replayed, launched;  /* attention kernels a graph replayed and
				       * an op launched (or, replayed_layers, no
				       * attention known: the pass's replayed
				       * kernels and those an op launched
				       * between them) */
	bool replayed_layers;
	int64_t sampled;            /* rows of the sampler's op, -1 none */
	int64_t layer_tokens;       /* the rows most GEMM ops of every layer ran, -1 none */
	uint32_t only_prefill, only_decode;   /* kernels seen only in passes of one stage */
	double duration_ratio;      /* time per layer / that of the reference stage, 0 none */
	ts_pstage duration_ref;     /* the reference stage */
	bool by_grid;               /* the ratio is of elementwise grids, not time */
	double grid;                /* its elementwise kernels' mean blocks (geometric), 0 none */
	double confidence;          /* share of votes for the stage */
	int votes[TS_PSTAGE_COUNT]; /* summed over the signals' weights */
	bool complete;
	bool cut_start, cut_end;
	bool draft;                 /* a speculative draft model's forward: a
				     * pass of its step with fewer layers than
				     * another complete pass of the step */
	uint8_t draft_by;           /* ts_draft_by: what told it from the target */
	uint8_t verify;             /* a target that verified this many tokens a
				     * sequence (its drafts' tokens times it): decode */
	uint8_t batching;           /* its prompt tokens held against the engine's
				     * continuous batching: 1 beside the sequences
				     * the pass before sampled (mixed); 2 the
				     * trace's first, as the passes after say */
	bool graph_shared;          /* replayed from one graph launch with another
				     * pass (not kept in partials: steps settle first) */
	uint64_t rows_sig;          /* the sum of its GEMM kernels' names, hashed:
				     * the same in forwards of one model and batch
				     * (not kept in partials) */
	int64_t first_ts, last_end;
	int64_t gpu_ns;             /* sum of kernel durations */
	uint64_t kernels;
	uint32_t layers;
	uint64_t orphan_kernels;    /* in the pass but in no layer */
	int64_t orphan_ns;
	int64_t batch, tokens;      /* -1: unknown */
	int annotation;             /* see ts_layers_annotation_name; -1 none */
	uint32_t attn_outside;      /* attention kernels in no layer (once-per-pass
				     * ones aside): a layout in doubt */
	int64_t between_ns;         /* kernel time in no layer between the first
				     * layer and the last (once-per-pass aside) */
	ts_idle_pass idle;          /* busy time, idle gaps, launch-bound gaps */
	int64_t win_from, win_to;   /* the GPU windows of its step, joined
				     * (set at the end of the trace); INT64_MIN:
				     * none */
	int64_t cwin_from, cwin_to; /* its step's CPU windows, joined: its
				     * kernels were launched in them (idle.h) */
	int64_t step_from, step_to; /* the GPU window of the annotation of its
				     * step that says most (SGLang's step[...],
				     * not the execute_ window around it): the
				     * step's wall; INT64_MIN: none */
	uint32_t source;            /* 0: read here; n: from the n-th saved
				     * partial merged (a rank: its own clock) */
} ts_pass;

/* Time between passes with layers: from one pass's end to the next one's
 * start, each measured by idle.h's one rule. Wait: the part of it the GPU
 * sat idle just before the next pass (the rest ran kernels outside the
 * passes: a sampler outside the step annotation, input preparation);
 * late: gaps whose next pass's first kernel was launched only after that
 * wait began (the GPU waited for the CPU); checked: gaps whose launch
 * time was known. */
typedef struct {
	uint64_t gaps;
	int64_t ns, largest_ns, wait_ns;
	uint64_t late, checked;
	int64_t late_ns;             /* the waits of the late gaps */
} ts_between;

typedef struct {
	ts_stat time;               /* layer GPU time (sum of its kernels) */
	uint64_t kernels;           /* summed over instances */
	uint64_t type_count[TS_LT_COUNT];
} ts_layer_stat;

typedef struct {
	uint32_t passes;            /* with at least one layer, drafts aside */
	uint32_t complete_passes;
	uint32_t drafts;            /* a draft model's forwards (their kernels,
				     * time and idle count below) */
	uint64_t layers;
	uint64_t kernels;
	int64_t gpu_ns;
	ts_idle_pass idle;          /* summed over its passes with layers */
} ts_stage_total;

/* A kernel as opts.launch is told of it: passes staged in order (a pass
 * whose stage waits for a later one comes when it is decided), a pass's
 * kernels in arrival order. */
typedef struct ts_launch {
	int64_t ts, dur, stream;    /* stream -1: not given */
	uint32_t row;               /* kernel row (TS_INTERN_NONE past the cap) */
	const ts_kref *ref;         /* its op */
	int stage;                  /* ts_pstage */
	uint32_t pass, layer;       /* pass index and layer in it; UINT32_MAX none */
} ts_launch;

typedef struct {
	bool split_half_layers;
	const char *model;          /* --model: only this family's markers */
	long expect_layers;         /* --expect-layers N, 0: from the family */
	long decode_threshold;      /* GEMM M (tokens) at or below: decode; 0: default */
	char debug_layers[TS_MAX_LAYERS]; /* 1: keep the kernel sequence */
	bool debug;
	long debug_pass;            /* list this pass (index); -1: the first complete
	                             * one of debug_stage */
	int debug_stage;            /* ts_pstage, or -1 for any */
	bool sample;                /* keep a typical layer per stage (compare) */
	bool spans;                 /* keep every layer's time span (annotate) */
	/* told every kernel's stage once its pass has one (or unknown) */
	void (*staged)(void *ctx, int stage, const ts_kref *ref, int64_t dur);
	void *staged_ctx;
	/* told every kernel once staged, with its pass and layer (NULL: not) */
	void (*launch)(void *ctx, const ts_launch *k);
	void *launch_ctx;
} ts_layers_opts;


typedef struct ts_layers ts_layers;

ts_layers *ts_layers_new(const ts_patterns *p, const ts_layers_opts *o);
void ts_layers_free(ts_layers *l);
const ts_layers_opts *ts_layers_options(const ts_layers *l);

/* CPU ops and runtime calls: what says a trace is a graph capture or a
 * training step (for the note when there is no complete pass). */
void ts_layers_cpu_event(ts_layers *l, const ts_event *ev);
/* What the CPU side of a trace held (views/lview.h: the note when there
 * is no complete pass). */
typedef struct {
	uint64_t cpu_ops, compute_ops, launches, backward_ops;
	uint64_t captures;               /* capture calls begun; else capture annotations */
	uint64_t py_events, py_server;   /* py_server: of the first 4096 */
	uint64_t backward_kernels;       /* by name, where they make a training
					  * step (1 in 50 kernels); else 0 */
	uint64_t kernels;
} ts_cpu_side;
void ts_layers_cpu_side(const ts_layers *l, ts_cpu_side *out);
/* python_function events: an API server's modules say a front-end file. */
void ts_layers_python(ts_layers *l, const ts_event *ev);
/* The size (tokens, else batch) the CPU step annotation open at ts names,
 * or -1: what a graph launched then was captured for. */
int64_t ts_layers_step_size(const ts_layers *l, int64_t ts);
/* (runtime calls also give the launch times of idle.h) */

/* Evidence that the trace is LLM generation (bits), without which no pass
 * is called prefill or decode: a step annotation naming a stage or token
 * counts, a token embedding (kernel or op), a KV-cache write, an attention
 * kernel of one stage by name, or module paths of a serving framework. */
enum {
	TS_GEN_ANNOTATION = 1u << 0,
	TS_GEN_EMBEDDING = 1u << 1,
	TS_GEN_KV_CACHE = 1u << 2,
	TS_GEN_STAGE_KERNEL = 1u << 3,
	TS_GEN_FRAMEWORK = 1u << 4,
	/* not evidence: a diffusion framework's modules ran the passes
	 * (diffusers, xDiT): denoising steps, whatever else looks like
	 * generation (a text encoder's embedding, a prefill-named kernel) */
	TS_GEN_DIFFUSION = 1u << 5,
	/* not evidence: attention workloads whose queries see the whole
	 * sequence (an encoder's) and ones that see only before them (a
	 * decoder's): bidirectional with no causal one and nothing else of
	 * generation but a token embedding is an encoder's forward */
	TS_GEN_BIDIR = 1u << 6,
	TS_GEN_CAUSAL = 1u << 7,
};
#define TS_GEN_EVIDENCE 0x1Fu
/* A serving framework's module paths were seen (the pipeline's call). */
void ts_layers_framework_seen(ts_layers *l);
/* Evidence of how the serving engine batches (+1: continuously, every
 * step scheduling its running sequences, prompts beside them: vLLM,
 * TensorRT-LLM; -1: not, SGLang): the sum decides. */
void ts_layers_batching(ts_layers *l, int vote);
/* Whether a diffusion framework's (diffusers/, xfuser/) are the most
 * named, as the frames read so far say. */
void ts_layers_diffusion_seen(ts_layers *l, bool most);
/* An attention workload's queries attend bidirectionally, or causally
 * (the pipeline's call, from the operator rule that named it). */
void ts_layers_attends(ts_layers *l, bool bidirectional);
/* The evidence seen (TS_GEN_* bits); 0: the trace does not look like LLM
 * generation (or a diffusion framework ran it), and every pass's stage is
 * unknown. */
unsigned ts_layers_generation(const ts_layers *l);
/* Whether a diffusion framework ran the passes. */
bool ts_layers_diffusion(const ts_layers *l);
/* An encoder's forward: bidirectional attention, no causal one, and no
 * evidence of generation but a token embedding. */
bool ts_layers_encoder(const ts_layers *l);

/* A copy or fill on the GPU (c: its class): where it brings a step's
 * inputs (step_inputs:), a later kernel after layer work may begin a pass. */
void ts_layers_copy(ts_layers *l, const ts_event *ev, const ts_kclass *c);

/* CPU-side user annotations (step windows); other events are ignored. */
void ts_layers_annotation(ts_layers *l, const ts_event *ev);

#define TS_DECODE_THRESHOLD_DEFAULT 32

/* A kernel with its row (TS_INTERN_NONE past the name cap), class, and
 * what attribution linked it to (ref->m: the M of the CPU op that launched
 * it, 0 unknown; NULL: nothing) and the context slot it ran in + 1 (0:
 * none; the aggregate's, ts_agg_context). */
void ts_layers_kernel(ts_layers *l, const ts_event *ev, uint32_t row,
		      const ts_kclass *c, const ts_kref *ref, unsigned ctx_slot);

/* End of input: close the open pass, resolve unknown stages. nrows: kernel
 * rows of the aggregate, so the per-stage row tables cover every row. */
void ts_layers_finish(ts_layers *l, uint32_t nrows);

/* --- results, valid after ts_layers_finish --- */
size_t ts_layers_npasses(const ts_layers *l);       /* records kept */
const ts_pass *ts_layers_pass(const ts_layers *l, size_t i);
uint64_t ts_layers_passes_dropped(const ts_layers *l);

/* Kernel rows of one stage, indexed like the aggregate's rows (every kernel
 * takes the stage of its pass; kernels in no pass are unknown). NULL when
 * no kernel row was staged. *all holds the stage's count and total only. */
const ts_stat *ts_layers_stage_rows(const ts_layers *l, ts_pstage s,
				    const ts_stat **other, const ts_stat **all);
/* Per kernel row and context slot ([row * TS_CTX_SLOTS + k]), the part of
 * a stage's time that ran in the slot's context (the kernels
 * ts_layers_kernel was told so); NULL when none. */
typedef struct {
	uint64_t count;
	int64_t ns;
} ts_ctx_stat;
const ts_ctx_stat *ts_layers_stage_ctx(const ts_layers *l, ts_pstage s);
/* Kernels of passes longer than TS_MAX_PASS_KERNELS, staged unknown. */
uint64_t ts_layers_stage_overflow(const ts_layers *l);
/* Step annotations not held: TS_STEPS_MAX arrived before any kernel. */
uint64_t ts_layers_annotations_dropped(const ts_layers *l);
const ts_stage_total *ts_layers_stage(const ts_layers *l, ts_pstage s);
/* Layers per complete pass: the most common count (0 if none). */
uint32_t ts_layers_per_pass(const ts_layers *l);
/* The kinds of a typical complete pass's layers: kinds[t] layers of type
 * t (each layer index its most common type); returns the layers per pass
 * (kinds has TS_LT_COUNT entries). */
uint32_t ts_layers_kinds(const ts_layers *l, uint32_t *kinds);
uint64_t ts_layers_type_count(const ts_layers *l, ts_ltype t);
/* Layer boundaries placed by the period of the stream, where no start
 * marker did. */
uint64_t ts_layers_structural(const ts_layers *l);
/* Per layer index within a pass, per stage. n: indices with data. */
uint32_t ts_layers_max_index(const ts_layers *l, ts_pstage s);
const ts_layer_stat *ts_layers_stat(const ts_layers *l, ts_pstage s, uint32_t i);
uint64_t ts_layers_orphans(const ts_layers *l, int64_t *ns);
/* Kernels in no pass with layers (a subset of the orphans). */
uint64_t ts_layers_outside(const ts_layers *l, int64_t *ns);
const ts_between *ts_layers_between(const ts_layers *l);
/* The layer count a complete pass should have (0: none is sure enough to
 * check against) and, in why, where it comes from or why there is none:
 * --expect-layers, a forced family, or a family detected with a score of
 * at least its sure_score; never a family detected from generic evidence. */
long ts_layers_expected(const ts_layers *l, const ts_family *f, bool forced,
			long score, char *why, size_t whylen);
const char *ts_layers_annotation_name(const ts_layers *l, int i);
/* Each signal's evidence, e.g. "annotation=decode gemm_m=1..1 kv_grid=1";
 * "" when there is none. */
void ts_pass_evidence(const ts_layers *l, const ts_pass *p, char *buf, size_t n);

/* Why there is no complete forward pass (graph capture, training step, no
 * attention, passes cut by the profile window): true and the reason in
 * buf; false when there is a complete pass. cut: the input was cut short
 * (a partial report), and only what the cut cannot explain is a finding. */
bool ts_layers_note(const ts_layers *l, bool cut, char *buf, size_t n);

/* With opts.spans: each layer of each pass, where it lies in time (the
 * first kernel's start to the last one's end), for annotate's tracks. At
 * most TS_MAX_SPANS; the rest are counted in *dropped. A pass whose kernels
 * outrun the listing (TS_MAX_DEBUG_KERNELS) has no layer spans. */
typedef struct {
	uint32_t pass;            /* ts_pass.index */
	uint32_t layer;           /* its index in the pass */
	int64_t start, end;       /* trace ns */
	uint32_t kernels;
	uint8_t type;             /* ts_ltype */
} ts_layer_span;

#define TS_MAX_SPANS (1u << 20)
size_t ts_layers_spans(const ts_layers *l, const ts_layer_span **out, uint64_t *dropped);

/* The idle gaps inside passes of at least TS_GAP_SPAN_MIN_NS (shorter
 * ones are the launch rhythm of any pass): with opts.spans every one, at
 * most TS_MAX_GAP_SPANS; else the TS_TOP_GAPS longest. The rest are
 * counted in *dropped. In no order. */
typedef struct {
	uint32_t pass;
	bool launch_bound;        /* the GPU waited for the next kernel's launch */
	int64_t start, len;       /* trace ns */
	uint32_t after, before;   /* kernel rows around it (TS_INTERN_NONE unknown) */
} ts_gap_span;

#define TS_GAP_SPAN_MIN_NS 5000
#define TS_TOP_GAPS 256
#define TS_MAX_GAP_SPANS (1u << 18)
size_t ts_layers_gaps(const ts_layers *l, const ts_gap_span **out, uint64_t *dropped);

/* The kernel sequence kept for --debug-layers (first complete pass). */
typedef struct {
	uint32_t layer;
	uint32_t row;             /* kernel row (TS_INTERN_NONE past the name cap) */
	int64_t ts, dur;
	ts_kref ref;              /* what attribution linked it to */
	ts_kclass cls;            /* a copy: the class table may move */
} ts_debug_kernel;

#define TS_MAX_DEBUG_KERNELS 8192

size_t ts_layers_debug(const ts_layers *l, const ts_debug_kernel **out);
/* The pass --debug-layers listed: false when none was. */
bool ts_layers_debug_pass(const ts_layers *l, uint32_t *index, ts_pstage *stage, bool *complete);

/* A typical layer of a stage (opts.sample), for kernel alignment: the
 * kernels of the middle layer of the first complete pass of the stage, in
 * order, each dur summed over every layer of that pass that ran the same
 * kernel rows, and over every later complete pass of the stage whose
 * middle layer did too (instances: how many layers were summed). */
typedef struct {
	uint32_t layer;           /* its index in the pass */
	uint32_t layers;          /* layers of that pass */
	uint32_t instances;
	size_t n;
	ts_debug_kernel *k;
} ts_layer_sample;

#define TS_MAX_SAMPLE_KERNELS 1024

/* NULL when the stage had no complete pass (or sample was off). */
const ts_layer_sample *ts_layers_sample(const ts_layers *l, ts_pstage s);

/* The typical layer of each stage (every complete pass's layers); NULL
 * without pattern tables. */
const ts_anatomy *ts_layers_anatomy(const ts_layers *l);

/* Saved partials (docs/partial-format.md), after ts_layers_finish: what
 * the reports read (passes, stage totals and kernel rows, layer
 * statistics, counts, the anatomy). ts_layers_load adds them to l (which
 * must not be finished after: its totals are whole); kmap sends a saved
 * kernel row to l's (nk of them, TS_INTERN_NONE: (other)), kslots its
 * context slots (ts_agg_load's), opmap a saved
 * op row and wlmap a workload row (NULL: none kept). The typical-layer
 * samples of compare and --debug-layers listings are not saved.
 * TS_ERR_PARTIAL with r->err set, or TS_ERR_NOMEM. */
void ts_layers_save(const ts_layers *l, ts_wbuf *w);
ts_status ts_layers_load(ts_layers *l, ts_rbuf *r, const uint32_t *kmap, const uint8_t *kslots,
			 uint32_t nk, const uint32_t *opmap, uint32_t nop, const uint32_t *wlmap,
			 uint32_t nwl);

/* Layer indices whose mean time is off the stage's typical layer (the
 * median of the per-index means) by more than TS_OUTLIER_PCT percent,
 * largest deviation first. */
typedef struct {
	uint32_t index;
	int64_t mean_ns;
	double ratio;             /* mean / typical */
	ts_ltype type;            /* the index's most common layer type */
} ts_layer_outlier;

#define TS_OUTLIER_PCT 10.0

/* The self-check: a layer of a complete pass whose time or kernel count is
 * under half or over twice the typical layer of its type in that pass (the
 * median; types with at least three layers). Where it runs the same
 * kernels as the typical layer, the cause is the kernel whose time grew
 * most (slow_row: one all-reduce waiting on the other ranks, one norm call
 * stalled), not a boundary; where its kernels differ, a boundary may be
 * misplaced. The first TS_MAX_ODD are kept; *total counts them all. */
typedef struct {
	uint32_t pass, layer;
	ts_ltype type;
	int64_t ns, typical_ns;
	uint32_t kernels, typical_kernels;
	bool same_kernels;        /* the typical layer's kernels, in its order */
	uint32_t slow_row;        /* the kernel whose time grew most, or
				   * TS_INTERN_NONE */
	int64_t slow_ns, slow_typical_ns; /* its time, and the typical layer's */
	uint32_t ref_layer;       /* where its kernels differ: the layer of
				   * its type nearest the typical time it was
				   * held against, UINT32_MAX none */
	uint32_t extra_row;       /* the first kernel it runs more often than
				   * that one, TS_INTERN_NONE none */
	uint32_t missing_row;     /* the first that one runs more often */
} ts_odd_layer;

#define TS_MAX_ODD 16

size_t ts_layers_odd(const ts_layers *l, const ts_odd_layer **out, uint64_t *total);

/* What puts the layout of the complete passes in doubt, for the first
 * screen: attention kernels that ran outside any layer (a mixer no layer
 * holds), layers whose kernel count is more than two off the median of
 * their type in their pass (layers of one type run the same kernels), and
 * passes whose layers leave much of the time between them to no layer
 * (half a unit taken for a layer). */
typedef struct {
	uint64_t attn_outside;      /* summed over the complete passes */
	uint32_t attn_passes;       /* complete passes with any */
	uint64_t differ, checked;   /* layers off their type's count, of those checked */
	ts_odd_layer first;         /* the first that differs */
	uint32_t thin;              /* complete passes whose layers hold under
				     * TS_LAYERS_HOLD of the time from the first
				     * layer to the end of the last */
	uint32_t thin_pass;         /* the one where they hold least */
	double thin_share;          /* what they hold there (0..1) */
} ts_layer_doubt;

#define TS_LAYERS_HOLD 0.85

const ts_layer_doubt *ts_layers_doubt(const ts_layers *l);
/* Units of a kernel typed attention that ran once per pass and so were no
 * layer (all passes). */
uint64_t ts_layers_once_units(const ts_layers *l);

size_t ts_layers_outliers(const ts_layers *l, ts_pstage s, ts_layer_outlier *out,
			  size_t max, int64_t *typical_ns);

#endif
