/*
 * layers_int.h - the layer machine's own state, shared by its files and by
 * no one else: layers.c (the machine: marks, attention units, boundaries,
 * passes), layers_steps.c (step annotations and CPU-side evidence),
 * layers_stages.c (stage votes and passes waiting for them),
 * layers_results.c (what reports read) and layers_wire.c (save and load).
 */
#ifndef TS_LAYERS_INT_H
#define TS_LAYERS_INT_H

#include "input/base/intern.h"
#include "analysis/layers/layers.h"
#include "analysis/structure/steps.h"
#include "analysis/structure/unit.h"

/* What a kernel means to the machine (bits), decided once per name. */
typedef uint32_t lmark;
enum {
	M_START = 1u << 0,
	M_ATTN_SEL = 1u << 1,   /* a family's attention selector picks it (resolved
				 * to its category's mixer as marks are computed) */
	M_LINEAR = 1u << 2,     /* its mixer is linear (a mixer's linear:) */
	M_MOE = 1u << 4,
	M_FC = 1u << 5,
	M_EMBED = 1u << 6,
	M_SAMPLE = 1u << 7,
	M_GEMM = 1u << 8,       /* a GEMM (type gemm) */
	M_TOKENS = 1u << 9,     /* its grid x counts the batch's tokens */
	M_ENDS = 1u << 10,      /* other or communication: ends an attention unit */
	M_ONCE = 1u << 11,      /* typed attention, but runs once per pass: no unit */
	M_TRAIN = 1u << 12,     /* only a training step runs it (training_kernels:) */
	M_COPY = 1u << 13,      /* a copy or cast (memory type) */
	M_TYPED = 1u << 14,     /* a rule typed its name (not other) */
	M_TOPK = 1u << 16,      /* a sort or top-k (sort_topk type) */
	M_META = 1u << 17,      /* serving bookkeeping (Scheduler-Metadata): no layer's work */
	M_QBLOCKS = 1u << 18,   /* its grid x counts a sequence's query blocks */
	M_ROWS = 1u << 19,      /* its grid x counts rows (row_grids:) */
	M_KNOWN = 1u << 31,     /* computed */
};
/* Mixer k of the tables (tables/patterns.h: at most TS_MIXERS_MAX). */
#define M_MIX(k) (1u << (20 + (k)))
#define M_MIXERS (0xFFu << 20)
#define M_ATTN (M_MIXERS | M_LINEAR)
#define M_MLP (M_MOE | M_FC)

/* One layer of the pass in progress. */
typedef struct {
	int64_t ns;
	uint32_t kernels;
	lmark marks;             /* M_* seen in the layer */
	uint16_t post_gemms;     /* GEMMs after its attention (MLP evidence) */
	uint16_t gemms;          /* GEMMs in it (saturating) */
} cur_layer;

/* A kernel since the last attention kernel of the pass: the gap where the
 * next layer boundary lies when no layer-start marker placed it. */
typedef struct {
	int64_t dur;
	uint32_t key;            /* kernel row, the structural identity */
	lmark marks;
} gap_ent;

#define MAX_GAP 4096            /* kernels of one gap held (oldest dropped) */
#define MAX_PRE 256             /* tail of the pass preamble held */

/* An attention row of the pass in progress: in how many units it ran.
 * A unit whose every kernel runs once per pass, where other units repeat,
 * is a per-pass helper (a varlen scheduler, a planner), never a layer. */
typedef struct {
	uint32_t row;
	uint32_t units;          /* units it ran in */
	uint32_t last_unit;      /* the last of them */
	uint32_t kernels;
} arow_ent;

#define MAX_AROWS 64            /* distinct attention rows of a pass held */
#define MAX_UNITS 8192          /* units of a pass counted one by one */
#define MAX_ONCE 64             /* rows demoted for the trace */

/* A pass the trace's own signals left unknown waits, with its kernels,
 * for the relative signals: the passes of known stage around it. Bounded:
 * past the caps the oldest is decided with what is known by then. */
#define MAX_PENDING 64


#define MAX_PENDING_KERNELS (1u << 20)

/* A kernel of the pass in progress, held until the pass has its stage. */
typedef struct {
	uint32_t row;
	ts_kref ref;             /* what attribution linked it to */
	int64_t dur;
	uint8_t ctx;             /* the context slot it ran in + 1 (0: none) */
	lmark marks;             /* what it meant to the machine (M_*) */
	/* for the launches (opts.launch): when and where it ran, and its pass
	 * and layer once its pass ended (UINT32_MAX: none) */
	int64_t ts, stream;
	uint32_t pass, layer;
} kernel_ent;

typedef struct {
	uint32_t pass;           /* index of its record */
	uint32_t nlayers;
	cur_layer *layers;       /* per-layer figures, when complete */
	kernel_ent *kernels;
	size_t nkernels;
	ts_layer_sample sample;  /* its middle layer (opts.sample) */
	int64_t gemm_tokens;     /* its GEMMs' tokens (pass_hints) */
	int64_t step;            /* its step (steps.h), -1 none */
	bool step_open;          /* held until its step ends: a later pass of
				  * the step may show it a draft's forward */
	bool own_stage;          /* its own signals gave its stage */
	ts_anat_kernel *anat;    /* its layer kernels, for the anatomy */
	size_t nanat;
	bool anat_skip;          /* complete, but not all of them listed */
	bool first_held;         /* the trace's first pass, held for the passes
				  * after it to say whether it was cut */
} pending_pass;


/* The online layout of the pass in progress: the layers closed, the open
 * span, the attention units and the gaps between them. A new pass starts
 * from pass_walk_start (by assignment). */
typedef struct {
	uint32_t nlayers;        /* closed layers of this pass */
	uint32_t layers_dropped;
	cur_layer seg;           /* the span since the last boundary */
	bool seen_boundary;      /* a start kernel opened a span in this pass */
	uint32_t ngap;           /* gap entries held */
	bool in_attn;            /* the last kernel was attention */
	uint32_t units;          /* attention units of the pass */
	uint32_t npre;           /* entries of the segment before the first unit held */
	uint32_t pre_len;        /* its whole length */
	int32_t pre_start;       /* kernels from the start marker that opened
				  * layer 0 to the first unit; -1 none */
	int64_t pre_ns;          /* and its time */
	size_t dbg_pre_end;      /* --debug-layers entries before the first unit */
	int32_t tail_len;        /* kernels the last split left in the closing
				  * layer after its attention; -1 none yet */
	uint64_t skernels;       /* kernels the machine has taken in this pass */
	int64_t sns;             /* and their time */
	uint64_t pass_structural; /* boundaries placed by structure in this pass */
	int64_t pend_between;    /* no-layer time since the last layer: between
				  * layers when another follows, else the tail */
	uint32_t since_start;    /* kernels since the last start-marker boundary */
	bool start_after_attn;   /* a start kernel since the span's attention */
	lmark marks_at_gap;      /* span marks when its gap began */
} pass_walk;

#define PASS_WALK_START ((pass_walk){ .pre_start = -1, .tail_len = -1 })

#define TS_LAY_TOP_M 4

/* A kernel no op launched, under a launch's correlation: replayed from a
 * graph when others share that correlation (a graph launch runs several),
 * else one whose CPU side the profiler lost. */
static inline bool lay_no_op(const ts_event *ev)
{
	return !(ev->has & TS_HAS_EXTERNAL_ID) && (ev->has & TS_HAS_CORRELATION) && ev->correlation >= 0;
}

/* What the pass in progress says of its stage and step, besides its
 * layers. A new pass starts from PASS_HINTS_START. */
typedef struct {
	bool after_sampling;     /* a sampling kernel ran since the layers */
	int hint_prefill, hint_decode;
	uint32_t layer_replayed;   /* kernels a graph replayed (no op) */
	uint32_t launched_between, launched_since; /* kernels an op launched
					       * between two replayed ones; since the
					       * last replayed one */
	uint32_t attn_replayed, attn_launched;   /* and of them, attention
					       * kernels (by name or op) */
	uint64_t gemm_small, gemm_large;   /* GEMM kernels by their op's M */
	struct { int64_t m; uint32_t n; } top_m[TS_LAY_TOP_M]; /* the largest
					       * M values, largest first, and how
					       * many GEMM ops ran each */
	int64_t step;            /* step of the pass (steps.h), -1 none */
	int64_t step_ann;        /* the annotation naming it, -1 none */
	int64_t tokens_max;      /* largest token-counting grid x, -1 none */
	int64_t qblocks_max;     /* largest query-block grid x, -1 none */
	bool embed_first;        /* an embedding kernel before the pass's first unit */
	int64_t embed_at;        /* kernels of the pass before its first embedding, -1 none */
	int64_t gemm_tokens;     /* its GEMMs' tokens, where enough were recorded; -1 */
	int64_t sampled;         /* rows of its sampler's op (its sequences), -1 none */
	int64_t rows_after;      /* grid x of the last row-counting kernel with no
				  * layer work after it (the sampler's softmax:
				  * its sequences), -1 none */
	double grid_log;         /* sum of log2(blocks) of its elementwise kernels */
	uint32_t grid_n;         /* and how many */
} pass_hints;

#define PASS_HINTS_START ((pass_hints){ .step = -1, .step_ann = -1, .tokens_max = -1, .qblocks_max = -1, \
					.embed_at = -1, .gemm_tokens = -1, .sampled = -1, \
					.rows_after = -1 })

/* A kernel waiting for its launch to be read (layers_launch.c): what the
 * machine reads of its event, its class and what it was linked to. */
typedef struct {
	int64_t ts, dur, stream, corr, ext;
	uint32_t has;
	int32_t grid0;
	uint32_t row;
	lmark marks;             /* as it came (a name past the cap has no row) */
	uint8_t slot;
	bool inputs;             /* no kernel: a copy of a step's inputs, in its order */
	ts_kclass cls;
	ts_kref ref;
} wait_ent;

/* Kernels held for their launches at most (the graph kernels NVIDIA
 * writes before their graph launch: up to about 1,350 events seen). */
#define MAX_WAIT 4096

/* What a kernel row means to the machine (M_*), decided once per name,
 * and the rows demoted for the trace (typed attention, run once a pass). */
typedef struct {
	const ts_family *forced; /* --model's family, or NULL: every family's */
	lmark *marks;            /* per kernel row */
	lmark *ctx_marks;        /* per kernel row, in its context */
	size_t marks_cap;
	uint32_t once_rows[MAX_ONCE];
	uint32_t nonce;
} lay_meaning;

/* Kernels waiting for their launch to be read (layers_launch.c): a ring. */
typedef struct {
	wait_ent *wait;
	size_t nwait, wait_head;
} lay_waiting;

/* The pass in progress, its evidence, and where it ends (layers_steps.c:
 * its step, its head kernels running again, a whole-forward graph, the
 * GPU's waits where no name marks the pass). */
typedef struct {
	bool in_pass;
	ts_pass cur;
	pass_hints hints;        /* its stage and step */
	/* where names give no pass edge: the pass's first two distinct
	 * kernel rows, the longest GPU gap inside it, and whether this pass
	 * ran a kernel named an edge (an embedding, sampling) */
	int64_t pass_maxgap;
	uint32_t head_rows[2];   /* [0]: the kernel that began the pass */
	uint8_t nhead_rows;
	uint8_t head_in_layers;  /* bit i: head_rows[i] ran again inside its layers */
	uint32_t last_row;       /* the kernel before this one */
	bool last_replayed;      /* and it was graph-replayed (no op) */
	int64_t last_corr;       /* and its correlation, -1 none */
	bool alone;              /* it had no op and a correlation of its own
				  * so far: a graph's first kernel, or one
				  * launched alone whose CPU side the capture
				  * lost (the next kernel says which) */
	lmark alone_marks;       /* and what it meant to the machine */
	bool pass_named;
	bool before_capture;     /* every kernel so far launched before the capture */
	uint32_t prev_head;      /* the row the pass before began with */
	uint64_t whole_kernels;  /* kernels of the last complete pass, 0 none */
	bool began_before;       /* and the first was */
	bool head_op;            /* the pass's first kernel was an op's */
	int64_t prev_sampled;    /* the sequences the last pass sampled (its
				  * decode tokens), 0 unknown; -1 no pass yet */
	int64_t prev_ts;         /* the start of the pass's last kernel */
	int64_t inputs_ts[4];    /* the last copies of a step's inputs, by start */
	uint32_t ninputs;
	int64_t graph_corr;      /* the correlation of the graph replaying, -1 none */
	uint32_t graph_units;    /* attention units its own kernels began */
	uint32_t graph_row;      /* the kernel it began with */
	uint32_t graph_kernels;  /* and its kernels so far */
	bool graph_in_pass;      /* and it began in the open pass */
	uint32_t forward_row;    /* the kernel the open pass's first graph of
				  * GRAPH_FORWARD kernels began with, or none */
	bool op_since_graph;     /* an op's kernel ran since the last graph began */
	bool work_since_graph;   /* ... one of other work than sampling or a
				  * collective */
	uint32_t graph_pieces;   /* graphs of the open pass begun after an op's
				  * kernel (an eager attention: piecewise) */
	uint32_t row_graphs;     /* graphs of the open pass in a row begun with
				  * graph_row, the last one's included */
	int64_t last_step;       /* step of the last pass with layers, -1 none */
	ts_pstage last_stage;    /* and its stage */
	int64_t kfrontier;       /* the latest kernel end so far */
	int64_t frontier_at_start; /* and before the open pass began */
} lay_pass;

/* The online layout of the pass in progress (layers.c, layers_span.c):
 * its layers, attention units and the gaps between them. */
typedef struct {
	cur_layer *layers;       /* TS_MAX_LAYERS */
	pass_walk walk;
	gap_ent *gap;            /* MAX_GAP */
	gap_ent *pre;            /* tail of the segment before the first unit */
	uint64_t structural;     /* boundaries placed by structure (all passes) */
	uint64_t attn_units;     /* attention units in the whole trace */
	bool replaying;          /* relayer_pass is feeding the pass again */
	/* attention rows of the pass, per unit: what runs once per pass */
	arow_ent arows[MAX_AROWS];
	uint32_t narows;
	bool arows_full;         /* more distinct rows than held: no verdict */
	uint32_t *unit_kern;     /* attention kernels per unit, MAX_UNITS */
	uint64_t once_units;     /* units not counted as layers (all passes) */
} lay_online;

/* The self-check of the complete passes (layers_check.c). */
typedef struct {
	ts_layer_doubt doubt;    /* what puts the layout in doubt */
	ts_odd_layer odd[TS_MAX_ODD];   /* the first findings */
	size_t nodd;
	uint64_t odd_total;
	int64_t *chk;            /* 2 x TS_MAX_LAYERS: its scratch */
} lay_check;

/* What the CPU side and the kernels say of the trace (layers_steps.c). */
typedef struct {
	uint64_t captures;       /* graph captures begun (runtime calls, annotations) */
	uint64_t capture_calls;  /* of them, StreamBeginCapture runtime calls */
	uint64_t backward_ops;   /* autograd backward ops (CPU): a training step */
	uint64_t backward_kernels; /* kernels training_kernels: names (backward,
				  * optimizer): a training step when enough */
	uint32_t backward_row;   /* the first such kernel's name row + 1 */
	uint32_t backward_names; /* distinct names of them, up to 2 */
	uint64_t cpu_ops;        /* CPU ops seen */
	uint64_t compute_ops;    /* of them ATen ops that compute (mm, conv...) */
	uint64_t py_events;      /* python_function events */
	uint64_t py_server;      /* of the first PY_LOOKED, an API server's */
	uint64_t launches;       /* kernel and graph launch calls seen */
	unsigned generation;     /* TS_GEN_* evidence seen so far */
	int32_t batching;        /* evidence an engine that batches continuously
				  * ran the passes (vLLM, TensorRT-LLM), less
				  * evidence of one that does not (SGLang) */
	uint64_t attn_typed;     /* kernels typed attention (a softmax too) */
	uint64_t kernels_seen;
	/* the latest correlation of a kernel, and of a kernel or graph launch
	 * call with its time (a launch past every kernel's: its kernels never
	 * came); 0 none */
	int64_t kernel_corr, launch_corr, launch_ts;
} lay_cpu;

/* Passes held: until their step ends (a draft's forward), or for the
 * relative stage signals (layers.c, layers_stages.c). */
typedef struct {
	pending_pass pending[MAX_PENDING];
	size_t npending, pending_kernels;
	ts_vote_trace vote;      /* what the stage vote knows of the passes */
	bool cycle_done;         /* passes in no step no longer held for
				  * their cycle (layers_steps.c) */
	uint32_t first_open;     /* record index + 1 of the trace's first
				  * complete pass, complete by its head
				  * though no embedding began it, only cut
				  * passes before it; 0 none */
	bool whole_seen;         /* a complete pass was recorded */
} lay_held;

/* The pass records (passes[] of the reports). */
typedef struct {
	ts_pass *passes;
	size_t npasses, passes_cap;
	uint64_t passes_dropped;
	uint32_t pass_count;
	uint32_t merged;         /* saved partials merged in (ts_pass.source) */
} lay_records;

/* Per stage: its totals, per-index layer statistics, layer types and
 * counts, and the time between passes (layers_results.c reads them). */
typedef struct {
	ts_stage_total stages[TS_PSTAGE_COUNT];
	ts_layer_stat *lstat[TS_PSTAGE_COUNT];   /* TS_MAX_LAYERS each */
	uint32_t lmax[TS_PSTAGE_COUNT];
	uint64_t type_count[TS_LT_COUNT];
	uint32_t count_hist[TS_MAX_LAYERS + 1];  /* layers per complete pass */
	uint32_t all_hist[TS_MAX_LAYERS + 1];    /* layers per pass, complete or not */
	uint32_t whole_hist[TS_MAX_LAYERS + 1];  /* ... per complete pass as it closed */
	uint32_t draft_layers, target_layers;    /* a draft's count and its target's, once
						  * seen in one step; 0 before */
	uint32_t alone_layers;                   /* the count of a step's one complete
						  * pass (a prompt's step: the target's) */
	uint64_t orphan_kernels;                 /* outside any pass */
	int64_t orphan_ns;
	ts_between between;                      /* time between passes */
	int64_t prev_end;                        /* the last pass's end, INT64_MIN none */
} lay_stats;

/* Kernels held until their pass has a stage, and the kernel rows of each
 * stage they go to. */
typedef struct {
	kernel_ent *kbuf;
	size_t nkbuf, kbuf_cap;
	size_t kbuf0;            /* where this pass's kernels begin in kbuf */
	ts_stat *srows[TS_PSTAGE_COUNT];
	ts_ctx_stat *sctx[TS_PSTAGE_COUNT];
	size_t srows_cap;
	ts_stat sother[TS_PSTAGE_COUNT], sall[TS_PSTAGE_COUNT];
	uint64_t stage_overflow;
} lay_staged;

/* The listing of the pass's kernels by layer, and what it feeds:
 * --debug-layers, annotate's spans and gaps, compare's samples, the
 * anatomy. */
typedef struct {
	ts_debug_kernel *dbg_cur, *dbg_kept;
	size_t ndbg_cur, ndbg_kept;
	size_t dbg_cap;          /* dbg_cur grows to TS_MAX_DEBUG_KERNELS */
	bool dbg_lost;           /* a kernel of the pass did not fit */
	size_t dbg_span;         /* where the open span's kernels begin */
	bool dbg_done;
	bool dbg_all;            /* the listing holds every kernel of the pass */
	ts_layer_span *spans;    /* opts.spans */
	size_t nspans, spans_cap;
	uint64_t spans_dropped;
	ts_gap_span *gspans;
	size_t ngspans, gspans_cap;
	uint64_t gspans_dropped;
	uint32_t dbg_index;      /* the pass listed */
	ts_pstage dbg_stage;
	bool dbg_complete;
	bool track;              /* keep dbg_cur: --debug-layers or samples */
	ts_layer_sample samples[TS_PSTAGE_COUNT];
	ts_debug_kernel *samp_tmp; /* TS_MAX_SAMPLE_KERNELS: the pass's middle layer */
	ts_anatomy *anatomy;     /* the typical layer per stage */
	ts_anat_kernel *anat_tmp; /* the pass's layer kernels, anat_cap of them */
	size_t anat_cap;
} lay_listing;

/* The repeating-unit finder and what it is handed (layers_unit.c). */
typedef struct {
	ts_unit *unit;
	uint32_t *ukey;          /* the pass's kernel identities, marks, durations */
	uint8_t *umark;
	int64_t *udur;
	size_t ukey_cap, umark_cap, udur_cap;
	uint32_t *split;         /* units split into layers: starts, then ends */
	size_t split_cap;
	uint32_t mixer_layers;   /* layers of the last complete pass whose every
				  * layer held a mixer unit (by name or op); 0 none */
} lay_finder;

/* The layer machine: a coordinator of its parts. */
struct ts_layers {
	ts_layers_opts opts;
	const ts_patterns *patterns;
	ts_steps *steps;         /* step annotations and their windows */
	ts_idle *idle;           /* gaps of the pass in progress */
	lay_meaning meaning;
	lay_waiting waiting;
	lay_pass pass;
	lay_online online;
	lay_check check;
	lay_cpu cpu;
	lay_held held;
	lay_records records;
	lay_stats stats;
	lay_staged staged;
	lay_listing listing;
	lay_finder finder;
};

_Static_assert(TS_ANAT_STAGES == TS_PSTAGE_COUNT, "anatomy stages");

/* --- shared between the machine's files --- */
/* layers_launch.c: a kernel, now or once its launch is read (in order);
 * the ones still waiting, at the end of the trace. */
void ts_lay_wait_kernel(ts_layers *l, const ts_event *ev, uint32_t row, const ts_kclass *c,
			const ts_kref *ref, unsigned slot, lmark m);
void ts_lay_wait_drain(ts_layers *l);
void ts_lay_wait_flush(ts_layers *l);
/* layers_results.c: is the trace a training step? Autograd's backward
 * ops say so; backward and optimizer kernels by name when they are one
 * kernel in 50 at least and of two names or more (a training step runs a
 * backward kernel for most forward ones; an opaque name that happens to
 * hold "Bwd" is one name, of thousands of kernels or of one in 16). */
bool ts_lay_training(const ts_layers *l);
/* ... and if so, every pass found undone (its kernels outside any pass,
 * stage unknown): a training step's forward kernels are no inference. */
void ts_lay_training_reset(ts_layers *l);
/* layers_check.c: the layer count the complete passes so far most often
 * had (ties: the larger; every pass's, before one is complete), 0 before
 * any; does a pass of this many layers have fewer (a forward the capture
 * cut), or more where that count recurred and none had this one? */
uint32_t ts_lay_mode_layers(const ts_layers *l);
bool ts_lay_short_pass(const ts_layers *l, uint32_t layers);
bool ts_lay_long_pass(const ts_layers *l, uint32_t layers);
/* ... or, at an edge, a count none had under one that recurred. */
bool ts_lay_short_at_edge(const ts_layers *l, uint32_t layers);
/* layers.c: the machine proper, one kernel with its marks */
void ts_lay_take_kernel(ts_layers *l, const ts_event *ev, uint32_t row, const ts_kclass *c,
			const ts_kref *ref, unsigned ctx_slot, lmark m);
lmark ts_lay_marks_now(ts_layers *l, uint32_t row, const ts_kclass *c, unsigned slot, lmark m);
/* A kernel's marks by its row (name) and context slot, computed once
 * (layers_marks.c; name NULL where the row's are known); a mark of
 * attention demoted to plain work run once a pass. */
lmark ts_lay_marks_for(ts_layers *l, uint32_t row, const ts_kclass *c, const char *name, size_t len,
		       unsigned slot);
lmark ts_lay_demoted(lmark m);
/* layers_unit.c: lay the pass just ended out by its repeating unit (its
 * layers, orphans, cut edges and the listing's layer of each kernel);
 * false, leaving the online layout, when no unit repeats or the pass's
 * kernels are not all held. A cut end counts only at an edge (at_edge:
 * the trace's end, or its step's: no more of the pass's kernels come). */
bool ts_lay_structure(ts_layers *l, bool at_edge);
/* The self-check of complete pass p, its n layers in l->layers
 * (layers_check.c). */
void ts_lay_check_pass(ts_layers *l, const ts_pass *p, uint32_t n);
bool ts_lay_grow_srows(ts_layers *l, uint32_t need);
bool ts_lay_pass_edge(ts_layers *l, const ts_event *ev, uint32_t row, lmark m, bool comm, bool has_work,
		      int64_t *an, int64_t *step, bool *step_edge);
void ts_lay_head_row(ts_layers *l, uint32_t row);
/* A copy of a step's inputs ran from ts (in the kernels' order). */
void ts_lay_inputs_copied(ts_layers *l, int64_t ts);
void ts_lay_pass_windows(ts_layers *l);
/* At the trace's end, the open pass was cut inside its step: the step's
 * GPU window runs on past the trace's last kernel, or a kernel or graph
 * launch of its step on the CPU never came to the GPU (layers_steps.c). */
bool ts_lay_cut_in_step(const ts_layers *l);

/* layers_steps.c: of a step's passes held (and last, its last pass's
 * count, whole or not), the target's count and what told it (by:
 * ts_draft_by); is a pass of this many layers a draft's beside it; a
 * target that verified its drafts' tokens k times over is decode. */
uint32_t ts_lay_step_target(ts_layers *l, int64_t s, uint32_t last, bool last_whole, uint8_t *by);
bool ts_lay_drafts_beside(uint32_t layers, uint32_t target, uint8_t by);
void ts_lay_verify_stage(ts_pass *q, int64_t draft_tokens);

/* layers.c: a waiting pass (the k-th held) decided and staged; the pass
 * just recorded (record idx, n layers) held, false where it cannot be. */
void ts_lay_resolve_pending(ts_layers *l, size_t k);
bool ts_lay_hold_pending(ts_layers *l, size_t idx, uint32_t n);
/* layers_steps.c: passes held until their step ends (the drafts told from
 * the target); with no step annotation, held for their layer counts'
 * cycle (true where held); the steps held open other than now (-1:
 * every one) settled; the step of pass p (record idx, SIZE_MAX none)
 * closed with it. */
void ts_lay_settle_cycle(ts_layers *l);
/* The trace's first pass, held, cut where the passes after it show more
 * layers and kernels (draft: a draft model's count, 0 none). */
void ts_lay_first_cut(ts_layers *l, const pending_pass *first, uint32_t draft);
bool ts_lay_hold_cycle(ts_layers *l, const ts_pass *p, size_t idx, uint32_t n, bool kept);
void ts_lay_settle_ended(ts_layers *l, int64_t now);
void ts_lay_close_step(ts_layers *l, ts_pass *p, size_t idx);

/* Add the time from the last pass's end to this one's start (layers.h). */
void ts_lay_add_between(ts_layers *l, const ts_idle_pass *d);
long ts_lay_decode_threshold(const ts_layers *l);
void ts_lay_relative_votes(ts_layers *l, ts_pass *p, const pending_pass *pp);
void ts_lay_vote(ts_layers *l, ts_pass *p);
/* layers_stages.c: a kernel's evidence of its pass's stage (hints). */
void ts_lay_take_evidence(ts_layers *l, const ts_event *ev, const ts_kclass *c, const ts_kref *ref,
			  lmark m);


/* layers_stages.c: a stage's typical layer for compare's alignment: the
 * middle layer of the pass just ended (samp_tmp, like layers summed in),
 * offered to stage s's sample. */
size_t ts_lay_middle_layer(ts_layers *l, uint32_t *layer, uint32_t *instances);
void ts_lay_offer_sample(ts_layers *l, ts_pstage s, const ts_layer_sample *c);

/* layers_stages.c: the layer spans of the pass just ended (opts.spans). */
void ts_lay_record_spans(ts_layers *l, const ts_pass *p);
/* layers_span.c: the online layout's spans. */
bool ts_lay_is_layer(const ts_layers *l, lmark m);
void ts_lay_close_span(ts_layers *l);
void ts_lay_take_tail(ts_layers *l, const gap_ent *g, uint32_t n, cur_layer *out);
void ts_lay_debug_relabel(ts_layers *l, uint32_t n, uint32_t from, uint32_t to);
void ts_lay_structural_boundary(ts_layers *l);
void ts_lay_open_at_norm(ts_layers *l);
ts_ltype ts_lay_layer_type(const ts_layers *l, lmark marks);

/* layers_stages.c: idle's gap callback (opts.spans). */
void ts_lay_on_gap(void *ctx, int64_t start, int64_t len, bool launch_bound, uint32_t after,
		   uint32_t before);

#endif
