/*
 * patterns_int.h - the pattern tables' own state, shared by their files and
 * by no one else: patterns.c (the loader: validation, errors with
 * FILE:LINE:COLUMN, directories, regexes), patterns_schema.c (the libcyaml
 * schema of the YAML documents) and patterns_query.c (what the tables
 * answer once loaded).
 */
#ifndef TS_PATTERNS_INT_H
#define TS_PATTERNS_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <cyaml/cyaml.h>
#include <pcre2.h>

#include "tables/patterns.h"
#include "tables/yamlpos.h"

#define MAX_FILES 256

/* ----------------------------------------------------- raw YAML documents */

typedef struct {
	char *name, *type, *description;
	char *mixer, *collective;
	bool bookkeeping, by_op;
} y_category;

/* mixers: the kinds of a layer's token mixer. */
typedef struct {
	char *name, *label, *says, *description, *rank;
	bool linear, is_default;
} y_mixer;

typedef struct {
	char *name, *match, *category, *stage, *short_tmpl;
	char **events;
	unsigned events_count;
	bool words;
} y_rule;

typedef struct {
	char *kind, *op, *workload, *tokens, *flops, *bytes, *dtype, *description;
	char *skip, *shapes, *heads, *attends;
	char **ranks;
	unsigned ranks_count;
	char **steps;
	unsigned steps_count;
	char **where;
	unsigned where_count;
} y_operator;

typedef struct {
	char *match, *description;
} y_skip;

/* workload_kinds: the kernel types that do a workload kind's work. */
typedef struct {
	char *kind, *description;
	char **types;
	unsigned types_count;
} y_wkind;

/* bounds: what a kernel of some origin can never be typed. */
typedef struct {
	char *name, *match, *description;
	char **never;
	unsigned never_count;
} y_bound;

typedef struct {
	char *category, *type, *match, *weight;
} y_sel;

typedef struct {
	char *name, *op, *category, *description;
	char *callsite;
	y_sel *kernels;
	unsigned kernels_count;
	y_sel *after;
	unsigned after_count;
	y_sel *until;
	unsigned until_count;
} y_context;

typedef struct {
	char *name, *description, *split;
	y_sel *kernels;
	unsigned kernels_count;
} y_group;

typedef struct {
	char *name, *description;
	y_sel *fused;
	unsigned fused_count;
	y_sel *maybe;
	unsigned maybe_count;
	char **parts;
	unsigned parts_count;
} y_fusion;

typedef struct {
	char *same_category, *same_group, *fused, *join, *gap, *different;
} y_align;

typedef struct {
	char *fp32, *tf32, *bf16, *fp16, *fp8, *int8, *fp6, *fp4;
} y_peaks;

typedef struct {
	char *compute, *memory, *source;
} y_attain;

typedef struct {
	char *fabric, *gbps, *source;
} y_link;

typedef struct {
	char *name, *vendor, *match, *sms, *memory_gb, *hbm_tbps, *source;
	y_peaks *tflops;
	y_attain *attainable;
	y_link *links;
} y_device;

typedef struct {
	y_mixer *mixers;
	unsigned mixers_count;
	y_category *categories;
	unsigned categories_count;
	y_rule *rules;
	unsigned rules_count;
	y_bound *bounds;
	unsigned bounds_count;
	y_wkind *workload_kinds;
	unsigned workload_kinds_count;
	y_operator *operators;
	unsigned operators_count;
	y_skip *callsite_skip;
	unsigned callsite_skip_count;
	y_sel *token_grids;
	unsigned token_grids_count;
	y_sel *query_grids;
	unsigned query_grids_count;
	y_sel *row_grids;
	unsigned row_grids_count;
	y_sel *step_inputs;
	unsigned step_inputs_count;
	y_sel *training_kernels;
	unsigned training_kernels_count;
	y_context *contexts;
	unsigned contexts_count;
	y_group *groups;
	unsigned groups_count;
	y_fusion *fusions;
	unsigned fusions_count;
	y_align *align;
	y_device *devices;
	unsigned devices_count;
} y_kernels;

typedef struct {
	y_sel *start;
	unsigned start_count;
	y_sel *attention;
	unsigned attention_count;
	y_sel *moe;
	unsigned moe_count;
	y_sel *fc;
	unsigned fc_count;
} y_layer;

typedef struct {
	y_sel *prefill;
	unsigned prefill_count;
	y_sel *decode;
	unsigned decode_count;
} y_stage;

typedef struct {
	char **required;
	unsigned required_count;
	char **optional;
	unsigned optional_count;
} y_opset;

/* moe_configs: one model's MoE configuration. */
typedef struct {
	char *name, *experts, *topk, *hidden, *intermediate, *weight_bits;
} y_moecfg;

typedef struct {
	char *family, *description, *attention, *mlp, *half_layers, *sure_score;
	char **examples;
	unsigned examples_count;
	char **num_hidden_layers;
	unsigned num_hidden_layers_count;
	y_layer *layer;
	y_stage *stage;
	y_sel *detect;
	unsigned detect_count;
	y_opset *operators;
	y_moecfg *moe_configs;
	unsigned moe_configs_count;
} y_family;

/* The schemas of a kernel table and of a model family file. */
extern const cyaml_schema_value_t ts_pat_kernels_schema;
extern const cyaml_schema_value_t ts_pat_family_schema;

/* ------------------------------------------------------------ the tables */

/* PCRE2's limits for one match: a pathological pattern such as (a+)+$
 * gives up after this many steps instead of backtracking for seconds. The
 * rules of the built-in tables need a few hundred. */
#define TS_REGEX_MATCH_LIMIT 200000
#define TS_REGEX_DEPTH_LIMIT 2000

struct ts_regex {
	pcre2_code *code;
	const char *src;
	const char *file;        /* where it was written, for the limit's error */
	ts_ypath path[6];
	int depth;
	/* names it gave up on (the first stops further matching: no match) */
	atomic_uint limit_hits;
	atomic_size_t limit_len; /* the length of the first such name */
};

typedef struct {
	char *path;
	bool is_family;
	void *doc;             /* y_kernels * or y_family *, freed by cyaml */
} loaded_file;

struct ts_patterns {
	char *dirs[16];
	size_t ndirs;
	loaded_file files[MAX_FILES];
	size_t nfiles;
	ts_mixer_kind mixers[TS_MIXERS_MAX];
	size_t nmixers;
	int default_mixer;        /* -1: none */
	ts_category *cats;
	size_t ncats, cats_cap;
	ts_rule *rules;
	size_t nrules, rules_cap;
	ts_kbound *bounds;        /* kernels' origins and the types they never take */
	size_t nbounds, bounds_cap;
	struct { const char *kind; uint32_t types; } *wkinds; /* workload kinds */
	size_t nwkinds, wkinds_cap;
	ts_family *fams;
	size_t nfams, fams_cap;
	ts_oprule *oprules;
	size_t noprules, oprules_cap;
	ts_selectors token_grids; /* kernels whose grid x counts tokens */
	ts_selectors query_grids; /* ... query blocks of a sequence */
	ts_selectors row_grids;   /* ... rows: a block a row */
	ts_selectors step_inputs; /* copies of a step's inputs to the device */
	ts_selectors training;    /* kernels only a training step runs */
	ts_context *contexts;
	size_t ncontexts, contexts_cap;
	ts_group *groups;
	size_t ngroups, groups_cap;
	ts_gpu *gpus;            /* devices: */
	size_t ngpus, gpus_cap;
	ts_fusion *fusions;
	size_t nfusions, fusions_cap;
	ts_align_costs align;
	bool align_set;
	ts_regex **skips;      /* call-site frames that are never call sites */
	size_t nskips, skips_cap;
	ts_regex **regexes;    /* every compiled regex, for freeing */
	size_t nregexes, regexes_cap;
	void **allocs;         /* other arrays we own */
	size_t nallocs, allocs_cap;
	/* error collection while loading */
	ts_pattern_error *errors;
	size_t max_errors, nerrors;
	cyaml_config_t cyaml;
	char cyaml_log[2048];
};

/* --- shared between the tables' files --- */
/* The mixers of every kernel file (built-in directory first, a user's
 * mixer of the same name replacing its fields in place), before the
 * categories that name them (patterns_mixers.c). */
void ts_pat_add_mixers(ts_patterns *p, size_t first, size_t end);
/* A category's mixer: word (NULL: none given), item i of file's
 * categories, resolved against the mixers; false with an error naming
 * them where it is none of them. */
bool ts_pat_category_mixer(ts_patterns *p, const char *file, const char *word, int i, int *out);
/* A rule's regex, compiled with flags, owned by the tables; NULL with the
 * error at FILE:LINE:COLUMN of path. */
ts_regex *ts_pat_compile_flags(ts_patterns *p, const char *src, uint32_t flags,
			       const char *file, const ts_ypath *path, int depth);
ts_regex *ts_pat_compile(ts_patterns *p, const char *src, const char *file,
			 const ts_ypath *path, int depth);
int ts_pat_capture_count(const ts_regex *re);
/* Errors while loading, in file: at line:col (1-based; 0: no place in
 * it), or at a YAML path. */
void ts_pat_fail(ts_patterns *p, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void ts_pat_error_at(ts_patterns *p, const char *file, const ts_ypath *path, int depth,
		     int col_offset, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* A YAML document of file, read with schema (NULL with the errors added);
 * libcyaml's log goes through ts_pat_cyaml_log into the tables' errors. */
void *ts_pat_load_doc(ts_patterns *p, const char *file, const cyaml_schema_value_t *schema);
void ts_pat_cyaml_log(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
	__attribute__((format(printf, 3, 0)));
/* The *.yaml and *.yml files of dir, sorted, strdup'ed; at most max. An
 * entry so named that is no regular file (a FIFO, a dangling link) is an
 * error of the tables, naming it. */
size_t ts_pat_list_yaml(ts_patterns *p, const char *dir, char **out, size_t max);
bool ts_pat_is_dir(const char *path);

/* patterns.c: a whole number within [lo, hi]; the line of each of the n
 * items of a file's top-level list key (malloc'ed, or NULL). */
bool ts_pat_parse_long(const char *s, long lo, long hi, long *out);
int *ts_pat_item_lines(const char *file, const char *key, unsigned n);
/* patterns_bounds.c: a file's bounds: and workload_kinds: entries into the
 * tables; then each operator rule's kernel types (ts_oprule.fit). */
void ts_pat_add_bounds(ts_patterns *p, const char *file, y_kernels *k);
void ts_pat_add_wkinds(ts_patterns *p, const char *file, y_kernels *k);
void ts_pat_resolve_fit(ts_patterns *p);
/* patterns_devices.c: a file's devices: entries into the tables. */
void ts_pat_add_devices(ts_patterns *p, const char *file, y_kernels *k);

#endif
