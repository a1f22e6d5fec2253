/*
 * patterns.h - the kernel and model pattern tables, loaded from YAML.
 *
 * Tables live in directories: every DIR/NAME.yaml holds `categories` and
 * `rules`, every DIR/models/NAME.yaml one model family (schema: patterns/README.md).
 * Directories given first take precedence: their rules are tried before the
 * built-in ones and their families replace built-in families of the same
 * name. Loading is strict: unknown keys, wrong types, bad enum values,
 * malformed numbers, invalid regexes and dangling references are errors
 * reported as "FILE:LINE:COLUMN: what is wrong".
 *
 * A loaded ts_patterns is read-only and may be shared by several analyses.
 * Regexes are PCRE2 (Perl/Python syntax), compiled once at load.
 */
#ifndef TS_PATTERNS_H
#define TS_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>

#include "input/event.h"
#include "input/base/status.h"
#include "tables/workload.h"

/* Coarse kernel types; the order is the report order. */
typedef enum {
	TS_TYPE_ATTENTION, TS_TYPE_MOE, TS_TYPE_GEMM, TS_TYPE_NORM,
	TS_TYPE_ACTIVATION, TS_TYPE_ROPE, TS_TYPE_KV_CACHE, TS_TYPE_QUANTIZATION,
	TS_TYPE_COMMUNICATION, TS_TYPE_MEMORY, TS_TYPE_ELEMENTWISE,
	TS_TYPE_REDUCE, TS_TYPE_SORT_TOPK, TS_TYPE_SAMPLING, TS_TYPE_EMBEDDING,
	TS_TYPE_OTHER, TS_TYPE_COUNT
} ts_ktype;

const char *ts_ktype_name(ts_ktype t);

typedef enum { TS_STAGE_NONE, TS_STAGE_PREFILL, TS_STAGE_DECODE } ts_stage_hint;

const char *ts_stage_hint_name(ts_stage_hint s);

/* Event categories a rule applies to (bits). */
enum {
	TS_RULE_KERNEL = 1u << 0,
	TS_RULE_MEMCPY = 1u << 1,
	TS_RULE_MEMSET = 1u << 2,
};

/* What a category's kernels are to the layer machine beside their type
 * (kernels.yaml: a category's mixer:, collective:, bookkeeping:, by_op:),
 * so that what a category means is YAML, never a name compared in C.
 *
 * The mixers (kernels.yaml's `mixers:`) are the kinds of a layer's token
 * mixer: softmax attention, latent attention, linear attention, a
 * state-space scan, ... Each names its layers' types (label: "GDN" gives
 * GDN+MoE and GDN+FC) and its words on the model line; a layer whose
 * kernels are of two mixers is of the higher rank's (a state-space layer
 * runs the causal conv linear attention runs too). The default mixer is
 * what attention kernels of a category naming none are. */
#define TS_MIXERS_MAX 8
#define TS_MIXER_LABEL_MAX 16

typedef struct {
	const char *name;            /* the word categories give as mixer: */
	char label[TS_MIXER_LABEL_MAX]; /* in layer types: GDN+MoE, GDN+FC */
	const char *says;            /* on the model line: "linear-attention (GDN)" */
	const char *description;
	long rank;
	bool linear;                 /* linear in the sequence (no softmax over it) */
	bool is_default;
	const char *file;
	int line;
	char type_name[2][TS_MIXER_LABEL_MAX + 8]; /* "GDN+MoE", "GDN+FC" */
} ts_mixer_kind;

/* A category's mixer: an index into the tables' mixers, or one of these. */
enum {
	TS_MIXER_BY_TYPE = -1,       /* none given: the default mixer where typed attention */
	TS_MIXER_NONE = -2,          /* no mixer though typed attention (a softmax) */
};

/* A layer's type: mixer k's layers with MoE work are 2k, dense 2k+1; then
 * layers with a mixer and no MLP, with MLP work only (MoE or dense), and
 * with neither. The order is the report order. */
typedef enum {
	TS_LT_ATTN_ONLY = 2 * TS_MIXERS_MAX,
	TS_LT_MOE_ONLY, TS_LT_FC_ONLY, TS_LT_UNKNOWN, TS_LT_COUNT
} ts_ltype;

static inline ts_ltype ts_ltype_of_mixer(int mixer, bool moe)
{
	return (ts_ltype)(2 * mixer + (moe ? 0 : 1));
}

/* The mixer of a mixer's layer type; -1 for the four others. */
static inline int ts_ltype_mixer(ts_ltype t)
{
	return (int)t >= 0 && t < TS_LT_ATTN_ONLY ? (int)t / 2 : -1;
}

typedef enum {
	TS_COLL_NONE,
	TS_COLL_ALL_REDUCE,
	TS_COLL_ALL_GATHER,
	TS_COLL_REDUCE_SCATTER,
	TS_COLL_ALL_TO_ALL,
	TS_COLL_BROADCAST,           /* broadcast, send / receive */
	TS_COLL_UNKNOWN,             /* a collective whose name hides which (RCCL's
				      * generic kernel): its op says, where one ran */
	TS_COLL_COUNT
} ts_collective;

typedef struct {
	const char *name;
	ts_ktype type;
	const char *description;
	const char *file;
	int line;
	int mixer;                   /* index into the mixers, or TS_MIXER_* */
	ts_collective collective;
	bool bookkeeping;            /* a serving framework's bookkeeping kernel */
	bool by_op;                  /* a class a context rule gives by the launching
				      * op, for a name no rule knows */
} ts_category;

/* The words of collective: in the tables, by value. */
extern const char *const ts_collective_names[TS_COLL_COUNT];

typedef struct ts_regex ts_regex;   /* a compiled PCRE2 pattern */

typedef struct {
	const char *name;
	const char *match;          /* regex source */
	ts_regex *re;
	unsigned events;            /* TS_RULE_* */
	int category;               /* index into categories */
	ts_stage_hint stage;
	const char *short_tmpl;     /* NULL: the generic short name */
	bool words;                 /* types by the words of a name no other
				     * rule knows (a fallback, said as such) */
	const char *file;
	int line;
} ts_rule;

/* A kernel's origin (a compute code generator or library: Triton /
 * Inductor, CUTLASS, cuBLAS, CK, ATen) and the types such a kernel never
 * takes, whatever words its name holds: a rule whose category has one of
 * them is passed over for a name the bound matches. */
typedef struct {
	const char *name;
	const char *match;          /* regex source */
	ts_regex *re;
	uint32_t never;             /* bit 1 << ts_ktype */
	const char *file;
	int line;
} ts_kbound;

/* Picks kernels: by category, by type, or by a regex on the name. */
typedef enum { TS_SEL_CATEGORY, TS_SEL_TYPE, TS_SEL_MATCH } ts_sel_kind;

typedef struct {
	ts_sel_kind kind;
	int category;
	ts_ktype type;
	const char *match;
	ts_regex *re;
	long weight;                /* detect rules only */
} ts_selector;

typedef struct {
	ts_selector *v;
	size_t n;
} ts_selectors;

typedef enum { TS_ATTN_MHA, TS_ATTN_MLA, TS_ATTN_GDN, TS_ATTN_HYBRID } ts_attn_kind;
typedef enum { TS_MLP_FC, TS_MLP_MOE, TS_MLP_MIXED } ts_mlp_kind;

const char *ts_attn_kind_name(ts_attn_kind k);
const char *ts_mlp_kind_name(ts_mlp_kind k);

typedef struct {
	const char *name;
	const char *description;
	const char *file;
	const char **examples;
	size_t nexamples;
	long *num_layers;           /* known num_hidden_layers */
	size_t nnum_layers;
	ts_attn_kind attention;
	ts_mlp_kind mlp;
	bool half_layers;
	long sure_score;            /* detect score from which the family, and so
				     * its num_hidden_layers, is sure; 0 never */
	ts_selectors layer_start, attention_markers, moe_markers, fc_markers;
	ts_selectors prefill, decode;
	ts_selectors detect;
	/* operator kinds --verify-ops looks for */
	const char **ops_required, **ops_optional;
	size_t nops_required, nops_optional;
	/* moe_configs: its models' MoE sizes, read by the operator rules'
	 * moe.* fields */
	ts_moecfg *moe;
	size_t nmoe;
} ts_family;

/* Sequence rules: at most this many, of at most TS_SEQ_STEPS steps. */
#define TS_SEQ_RULES 8
#define TS_SEQ_STEPS 8
#define TS_OP_CONDS 4

/*
 * What an attention operator rule's queries attend to (operators.yaml's
 * attends:): causal (a decoder's prefill or decode: generation) or
 * bidirectional (an encoder's, a diffusion transformer's: no token is
 * generated).
 */
typedef enum { TS_ATTENDS_NONE, TS_ATTENDS_CAUSAL, TS_ATTENDS_BIDIR } ts_attends;

/* An operator rule: a CPU op name and its operand ranks -> a workload
 * definition name (see workload.h for the templates). A sequence rule has
 * steps instead of op: consecutive ops on one thread that together compute
 * one operator (an unfused RMSNorm: pow, mean, add, rsqrt, mul, mul), ops
 * nested in a step or matching skip between them belonging to it; its
 * expressions read the ops of step `shapes`. */
typedef struct {
	const char *kind;           /* gemm, rmsnorm, gqa, ...: what families require */
	const char *op;             /* regex on the cpu_op name; NULL: a sequence */
	ts_regex *re;
	int nsteps;                 /* a sequence: its steps, in order */
	ts_regex *step[TS_SEQ_STEPS];
	ts_regex *skip;             /* ops that may sit between steps, or NULL */
	int shapes;                 /* the step whose op the expressions read */
	int ncond;
	ts_wcond cond[TS_OP_CONDS]; /* where: all must hold */
	bool reads_moe;             /* an expression reads moe.*: the rule
				     * applies with the first MoE
				     * configuration of the tables (family
				     * order) for which it does */
	bool has_heads;
	ts_wexpr heads;             /* per-head ops: heads per token */
	bool sets_context;          /* kind gemm: its tokens are T for later ops */
	uint32_t fit;               /* the kernel types (1 << ts_ktype) that do
				     * its kind's work (workload_kinds:); 0 any */
	int nranks;
	int8_t ranks[TS_MAX_OPERANDS]; /* of the leading operands; -1 any */
	const char *workload;       /* template source */
	ts_wtmpl name;
	bool has_tokens;
	ts_wexpr tokens;            /* M: the token (row) count of the call */
	bool has_flops, has_bytes;
	ts_wexpr flops;             /* floating-point operations of the call */
	ts_wexpr bytes;             /* bytes it must move to or from memory */
	ts_attends attends;         /* an attention rule: what its queries see */
	int dtype_operand;          /* whose "Input type" is the dtype; -1: the
				     * first floating-point operand */
	const char *description;
	const char *file;
	int line;
} ts_oprule;

/*
 * A context rule: kernels picked by `kernels` take `category` (and its
 * type) when they run in the context: launched by a CPU op whose name
 * matches `op`, or, on the GPU timeline, after a kernel of `after` and
 * before the next kernel of `until` (a GEMM between the MoE router and the
 * finalize is an expert GEMM). The first rule that applies wins.
 */
#define TS_MAX_CONTEXTS 32

typedef struct {
	const char *name;
	const char *description;
	ts_selectors kernels;
	const char *op;             /* regex on the launching op; NULL: positional */
	ts_regex *op_re;
	/* with op: a regex on the op's call site (its most frequent Python
	 * frame, "file.py(line): function"); NULL: any */
	ts_regex *callsite_re;
	ts_selectors after, until;
	int category;
	const char *file;
	int line;
} ts_context;

/*
 * Operation groups of `tracestream compare` (compare.yaml): rows that mean
 * the same work on two traces. A kernel belongs to the first group one of
 * whose selectors picks it (by its class where it ran); kernels no group
 * picks are in "other". A fusion says which kernels do, in one, the work
 * of several groups: when only one trace runs them, the rows of those
 * groups merge into one comparable row.
 */
/*
 * devices: the peaks of a GPU for the roofline (patterns/devices.yaml):
 * dense TFLOP/s per dtype class and memory TB/s, matched to the trace's GPU
 * name (a case-insensitive regex), or, for a trace without a name, to its
 * vendor, SM/CU count and memory size.
 */
typedef enum {
	TS_DT_FP32, TS_DT_TF32, TS_DT_BF16, TS_DT_FP16, TS_DT_FP8, TS_DT_INT8,
	TS_DT_FP6, TS_DT_FP4, TS_DT_COUNT
} ts_dtclass;

const char *ts_dtclass_name(ts_dtclass c);

typedef struct {
	const char *name;
	ts_platform vendor;
	const char *match;
	ts_regex *re;
	int sms;                    /* 0: not given */
	double memory_gb;           /* 0: not given */
	double hbm_tbps;
	double tflops[TS_DT_COUNT]; /* dense peaks; 0: the part has none */
	const char *source;
	/* The share of each peak a well-tuned kernel reaches on the part:
	 * what an opportunity is measured against (attainable: in the
	 * tables); TS_ATTAINABLE_DEFAULT and a NULL source when not given. */
	double attain_compute, attain_memory;
	const char *attain_source;
	/* links: the GPU-to-GPU fabric, its peak per GPU and direction in
	 * GB/s (1e9 bytes/s), what a collective's bus bandwidth is held to;
	 * 0 and NULLs: not given */
	const char *link_fabric, *link_source;
	double link_gbps;
	const char *file;
	int line;
} ts_gpu;

#define TS_ATTAINABLE_DEFAULT 0.80

#define TS_MAX_GROUPS 64
#define TS_MAX_FUSIONS 32
#define TS_MAX_FUSION_PARTS 8

typedef struct {
	const char *name;
	const char *description;
	ts_selectors kernels;
	bool split;                 /* a row per category both traces run */
	const char *file;
	int line;
} ts_group;

typedef struct {
	const char *name;
	const char *description;
	ts_selectors fused;         /* the kernels that fuse the parts */
	ts_selectors maybe;         /* kernels that may fuse them, the name
				     * cannot say (an Inductor norm whose op
				     * list holds add: the residual's, or the
				     * epsilon's) */
	int parts[TS_MAX_FUSION_PARTS]; /* group indices */
	size_t nparts;
	const char *file;
	int line;
} ts_fusion;

/* Costs of the kernel alignment inside a layer (compare.yaml align:). */
typedef struct {
	long same_category;         /* two kernels of one category */
	long same_group;            /* of one group, other categories */
	long fused;                 /* a fused kernel and one of its parts */
	long join;                  /* each extra kernel of a 1-to-many pair */
	long gap;                   /* a kernel the other layer has no match for */
	long different;             /* two kernels of different groups */
} ts_align_costs;

typedef struct ts_patterns ts_patterns;

/* Where the tables come from (see README.md, "Pattern tables"). */
typedef struct {
	const char *const *user_dirs;   /* --patterns DIR, in the order given */
	size_t nuser_dirs;
	const char *builtin_dir;        /* NULL: search $TRACESTREAM_PATTERNS, the
					 * installed data dir, the source tree */
} ts_patterns_source;

/* A problem in the tables: the file it is in, and what and where in it
 * (e.line and e.col 1-based; 0 where it has no place in the file: out of
 * memory, not a directory); ts_error_print writes it "FILE:LINE:COL: what". */
typedef struct {
	char file[1024];
	ts_error e;
} ts_pattern_error;

/*
 * Load and validate. On TS_ERR_PATTERNS, *out is NULL and errors holds one
 * entry per problem (at most max_errors, the count of all in *nerrors);
 * TS_ERR_IO when no built-in tables can be found.
 */
ts_status ts_patterns_load(const ts_patterns_source *src, ts_patterns **out,
			   ts_pattern_error *errors, size_t max_errors, size_t *nerrors);
void ts_patterns_free(ts_patterns *p);

size_t ts_patterns_ncategories(const ts_patterns *p);
/* The mixers, in the order declared (built-in tables first); the default
 * one's index, -1 where none is. */
size_t ts_patterns_nmixers(const ts_patterns *p);
const ts_mixer_kind *ts_patterns_mixer(const ts_patterns *p, size_t i);
int ts_patterns_default_mixer(const ts_patterns *p);
/* A category's mixer, resolved: its index, or -1 where it has none
 * (TS_MIXER_NONE; BY_TYPE where the tables have no default). */
int ts_patterns_category_mixer(const ts_patterns *p, const ts_category *c);
/* A layer type's name: "Attn+MoE", "GDN+FC", "Attn-only", "unknown". */
const char *ts_ltype_name(const ts_patterns *p, ts_ltype t);
const ts_category *ts_patterns_category(const ts_patterns *p, size_t i);
size_t ts_patterns_nrules(const ts_patterns *p);
const ts_rule *ts_patterns_rule(const ts_patterns *p, size_t i);
size_t ts_patterns_nbounds(const ts_patterns *p);
const ts_kbound *ts_patterns_bound(const ts_patterns *p, size_t i);
size_t ts_patterns_nfamilies(const ts_patterns *p);
const ts_family *ts_patterns_family(const ts_patterns *p, size_t i);
const ts_family *ts_patterns_find_family(const ts_patterns *p, const char *name);
size_t ts_patterns_noprules(const ts_patterns *p);
const ts_oprule *ts_patterns_oprule(const ts_patterns *p, size_t i);
/* An operator rule saved elsewhere by index, kind and workload template:
 * the index when the rule there has that kind and template (the same
 * tables), else the first rule that has; -1 none (p may be NULL). */
long ts_patterns_oprule_find(const ts_patterns *p, uint32_t at, const char *kind, size_t kn,
			     const char *tmpl, size_t tn);
size_t ts_patterns_nskips(const ts_patterns *p);
/* Is a python_function frame name one that is never a call site (builtins,
 * torch internals, the standard library)? */
/* Kernels whose launch grid x counts the tokens of the batch. */
const ts_selectors *ts_patterns_token_grids(const ts_patterns *p);
/* Attention kernels whose launch grid x counts the query blocks of a
 * sequence (FlashAttention's forward: blocks of 64 or 128 query tokens). */
const ts_selectors *ts_patterns_query_grids(const ts_patterns *p);
/* Kernels whose launch grid x counts the rows of a matrix, a block a row
 * (ATen's softmax): after a pass's layers, the sampler's sequences. */
const ts_selectors *ts_patterns_row_grids(const ts_patterns *p);
/* Copies that bring a step's inputs to the device (step_inputs:): host
 * to device, between one forward's layers and the next's. */
const ts_selectors *ts_patterns_step_inputs(const ts_patterns *p);
/* Kernels only a training step runs (training_kernels:): the backward of
 * a layer, the optimizer. One of them says a trace is training. */
const ts_selectors *ts_patterns_training(const ts_patterns *p);
size_t ts_patterns_ncontexts(const ts_patterns *p);
const ts_context *ts_patterns_context(const ts_patterns *p, size_t i);
size_t ts_patterns_ngroups(const ts_patterns *p);
const ts_group *ts_patterns_group(const ts_patterns *p, size_t i);
size_t ts_patterns_ngpus(const ts_patterns *p);
const ts_gpu *ts_patterns_gpu(const ts_patterns *p, size_t i);
size_t ts_patterns_nfusions(const ts_patterns *p);
const ts_fusion *ts_patterns_fusion(const ts_patterns *p, size_t i);
const ts_align_costs *ts_patterns_align_costs(const ts_patterns *p);
bool ts_patterns_callsite_skipped(const ts_patterns *p, const char *name, size_t len);

/* The directories the tables were read from, most specific first. */
size_t ts_patterns_ndirs(const ts_patterns *p);
const char *ts_patterns_dir(const ts_patterns *p, size_t i);

/* Regex helpers (PCRE2). ts_regex_match returns the number of capture pairs
 * filled in ov (start, end offsets), 0 for no match. */
/* Regexes that gave up on a name (PCRE2's match or depth limit: a pattern
 * that backtracks without end, such as (a+)+$): one line each,
 * FILE:LINE:COL first. Such a regex matches nothing after its first give-up,
 * so it costs at most one limit's work per analysis. */
#define TS_PATTERN_ERR_LEN 600

/* The largest pattern table file read (bytes). */
#define TS_PATTERN_FILE_MAX (4 << 20)
size_t ts_patterns_regex_limits(const ts_patterns *p, char (*lines)[TS_PATTERN_ERR_LEN],
				size_t max);

int ts_regex_match(const ts_regex *re, const char *s, size_t len, size_t *ov,
		   int ov_pairs);

/* Does a selector pick this kernel? */
bool ts_selector_matches(const ts_selector *sel, int category, ts_ktype type,
			 const char *name, size_t len);
/* Does any selector of s pick it? */
bool ts_selectors_any(const ts_selectors *s, int category, ts_ktype type,
		      const char *name, size_t len);

#endif
