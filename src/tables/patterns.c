#define PCRE2_CODE_UNIT_WIDTH 8

#include "tables/patterns.h"

#include <errno.h>
#include <stdatomic.h>

#include <cyaml/cyaml.h>
#include <dirent.h>
#include <limits.h>
#include <pcre2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/numtext.h"
#include "tables/workload.h"
#include "tables/yamlpos.h"

#ifndef TS_DATADIR
#define TS_DATADIR "/usr/local/share/tracestream"
#endif
#ifndef TS_SOURCE_PATTERNS
#define TS_SOURCE_PATTERNS "patterns"
#endif

#define MAX_FILES 256

/* ---------------------------------------------------------------- names */

static const char *const type_names[TS_TYPE_COUNT] = {
	"attention", "moe", "gemm", "norm", "activation", "rope", "kv_cache",
	"quantization", "communication", "memory", "elementwise", "reduce",
	"sort_topk", "sampling", "embedding", "other",
};

const char *ts_ktype_name(ts_ktype t)
{
	return (unsigned)t < TS_TYPE_COUNT ? type_names[t] : "other";
}

const char *ts_stage_hint_name(ts_stage_hint s)
{
	return s == TS_STAGE_PREFILL ? "prefill" : s == TS_STAGE_DECODE ? "decode" : "none";
}

static const char *const attn_names[] = { "mha", "mla", "gdn", "hybrid" };
static const char *const mlp_names[] = { "fc", "moe", "mixed" };

const char *ts_attn_kind_name(ts_attn_kind k)
{
	return (unsigned)k < 4 ? attn_names[k] : "mha";
}

const char *ts_mlp_kind_name(ts_mlp_kind k)
{
	return (unsigned)k < 3 ? mlp_names[k] : "fc";
}

static int lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* ----------------------------------------------------- raw YAML documents */

typedef struct {
	char *name, *type, *description;
} y_category;

typedef struct {
	char *name, *match, *category, *stage, *short_tmpl;
	char **events;
	unsigned events_count;
} y_rule;

typedef struct {
	char *kind, *op, *workload, *tokens, *flops, *bytes, *dtype, *description;
	char *skip, *shapes, *heads;
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

typedef struct {
	char *category, *type, *match, *weight;
} y_sel;

typedef struct {
	char *name, *op, *category, *description;
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
	char *name, *vendor, *match, *sms, *memory_gb, *hbm_tbps, *source;
	y_peaks *tflops;
} y_device;

typedef struct {
	y_category *categories;
	unsigned categories_count;
	y_rule *rules;
	unsigned rules_count;
	y_operator *operators;
	unsigned operators_count;
	y_skip *callsite_skip;
	unsigned callsite_skip_count;
	y_sel *token_grids;
	unsigned token_grids_count;
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
} y_family;

#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define REQ CYAML_FLAG_POINTER

static const cyaml_schema_value_t str_schema = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t category_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_category, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("type", REQ, y_category, type, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_category, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t category_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_category, category_fields),
};

static const cyaml_schema_field_t rule_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_rule, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("match", REQ, y_rule, match, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("category", REQ, y_rule, category, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("stage", OPT, y_rule, stage, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("short", OPT, y_rule, short_tmpl, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("events", OPT, y_rule, events, &str_schema, 1, 3),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t rule_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_rule, rule_fields),
};

static const cyaml_schema_field_t operator_fields[] = {
	CYAML_FIELD_STRING_PTR("kind", REQ, y_operator, kind, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("op", OPT, y_operator, op, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("steps", OPT, y_operator, steps, &str_schema, 2, TS_SEQ_STEPS),
	CYAML_FIELD_STRING_PTR("skip", OPT, y_operator, skip, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("shapes", OPT, y_operator, shapes, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("where", OPT, y_operator, where, &str_schema, 1, TS_OP_CONDS),
	CYAML_FIELD_STRING_PTR("heads", OPT, y_operator, heads, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("ranks", OPT, y_operator, ranks, &str_schema, 1, TS_MAX_OPERANDS),
	CYAML_FIELD_STRING_PTR("workload", REQ, y_operator, workload, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("tokens", OPT, y_operator, tokens, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("flops", OPT, y_operator, flops, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("bytes", OPT, y_operator, bytes, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("dtype", OPT, y_operator, dtype, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_operator, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t operator_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_operator, operator_fields),
};

static const cyaml_schema_field_t skip_fields[] = {
	CYAML_FIELD_STRING_PTR("match", REQ, y_skip, match, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_skip, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t skip_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_skip, skip_fields),
};

static const cyaml_schema_field_t sel_fields[] = {
	CYAML_FIELD_STRING_PTR("category", OPT, y_sel, category, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("type", OPT, y_sel, type, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("match", OPT, y_sel, match, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("weight", OPT, y_sel, weight, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t sel_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_sel, sel_fields),
};

#define SEL_SEQ(key, type, member) \
	CYAML_FIELD_SEQUENCE(key, OPT, type, member, &sel_schema, 0, CYAML_UNLIMITED)

static const cyaml_schema_field_t context_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_context, name, 1, CYAML_UNLIMITED),
	SEL_SEQ("kernels", y_context, kernels),
	CYAML_FIELD_STRING_PTR("op", OPT, y_context, op, 1, CYAML_UNLIMITED),
	SEL_SEQ("after", y_context, after),
	SEL_SEQ("until", y_context, until),
	CYAML_FIELD_STRING_PTR("category", REQ, y_context, category, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_context, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t context_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_context, context_fields),
};

static const cyaml_schema_field_t group_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_group, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_group, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("split", OPT, y_group, split, 1, CYAML_UNLIMITED),
	SEL_SEQ("kernels", y_group, kernels),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t group_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_group, group_fields),
};

static const cyaml_schema_field_t fusion_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_fusion, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_fusion, description, 0, CYAML_UNLIMITED),
	SEL_SEQ("fused", y_fusion, fused),
	CYAML_FIELD_SEQUENCE("parts", OPT, y_fusion, parts, &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t fusion_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_fusion, fusion_fields),
};

static const cyaml_schema_field_t align_fields[] = {
	CYAML_FIELD_STRING_PTR("same_category", OPT, y_align, same_category, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("same_group", OPT, y_align, same_group, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fused", OPT, y_align, fused, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("join", OPT, y_align, join, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("gap", OPT, y_align, gap, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("different", OPT, y_align, different, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t peaks_fields[] = {
	CYAML_FIELD_STRING_PTR("fp32", OPT, y_peaks, fp32, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("tf32", OPT, y_peaks, tf32, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("bf16", OPT, y_peaks, bf16, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fp16", OPT, y_peaks, fp16, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fp8", OPT, y_peaks, fp8, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("int8", OPT, y_peaks, int8, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fp6", OPT, y_peaks, fp6, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fp4", OPT, y_peaks, fp4, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t device_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_device, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("vendor", REQ, y_device, vendor, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("match", REQ, y_device, match, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("sms", OPT, y_device, sms, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("memory_gb", OPT, y_device, memory_gb, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("hbm_tbps", REQ, y_device, hbm_tbps, 1, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("tflops", REQ, y_device, tflops, peaks_fields),
	CYAML_FIELD_STRING_PTR("source", REQ, y_device, source, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t device_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_device, device_fields),
};

static const cyaml_schema_field_t kernels_fields[] = {
	CYAML_FIELD_SEQUENCE("categories", OPT, y_kernels, categories,
			     &category_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("rules", OPT, y_kernels, rules, &rule_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("operators", OPT, y_kernels, operators, &operator_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("callsite_skip", OPT, y_kernels, callsite_skip, &skip_schema, 0,
			     CYAML_UNLIMITED),
	SEL_SEQ("token_grids", y_kernels, token_grids),
	SEL_SEQ("training_kernels", y_kernels, training_kernels),
	CYAML_FIELD_SEQUENCE("contexts", OPT, y_kernels, contexts, &context_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("groups", OPT, y_kernels, groups, &group_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("fusions", OPT, y_kernels, fusions, &fusion_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("align", OPT, y_kernels, align, align_fields),
	CYAML_FIELD_SEQUENCE("devices", OPT, y_kernels, devices, &device_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t kernels_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, y_kernels, kernels_fields),
};

static const cyaml_schema_field_t layer_fields[] = {
	SEL_SEQ("start", y_layer, start),
	SEL_SEQ("attention", y_layer, attention),
	SEL_SEQ("moe", y_layer, moe),
	SEL_SEQ("fc", y_layer, fc),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t stage_fields[] = {
	SEL_SEQ("prefill", y_stage, prefill),
	SEL_SEQ("decode", y_stage, decode),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t opset_fields[] = {
	CYAML_FIELD_SEQUENCE("required", OPT, y_opset, required, &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("optional", OPT, y_opset, optional, &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t family_fields[] = {
	CYAML_FIELD_STRING_PTR("family", REQ, y_family, family, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_family, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("examples", OPT, y_family, examples, &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("num_hidden_layers", OPT, y_family, num_hidden_layers,
			     &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("attention", REQ, y_family, attention, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("mlp", REQ, y_family, mlp, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("half_layers", OPT, y_family, half_layers, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("sure_score", OPT, y_family, sure_score, 1, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("layer", OPT, y_family, layer, layer_fields),
	CYAML_FIELD_MAPPING_PTR("stage", OPT, y_family, stage, stage_fields),
	SEL_SEQ("detect", y_family, detect),
	CYAML_FIELD_MAPPING_PTR("operators", OPT, y_family, operators, opset_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t family_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, y_family, family_fields),
};

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
	ts_category *cats;
	size_t ncats, cats_cap;
	ts_rule *rules;
	size_t nrules, rules_cap;
	ts_family *fams;
	size_t nfams, fams_cap;
	ts_oprule *oprules;
	size_t noprules, oprules_cap;
	ts_selectors token_grids; /* kernels whose grid x counts tokens */
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
	char (*errors)[512];
	size_t max_errors, nerrors;
	cyaml_config_t cyaml;
	char cyaml_log[2048];
};

static void add_error(ts_patterns *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_error(ts_patterns *p, const char *fmt, ...)
{
	if (p->nerrors < p->max_errors) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->errors[p->nerrors], 512, fmt, ap);
		va_end(ap);
	}
	p->nerrors++;
}

/* Is the byte at 1-based line:col of file a quote? */
static bool quoted_at(const char *file, int line, int col)
{
	FILE *fp = fopen(file, "rb");
	if (!fp)
		return false;
	int c, l = 1, k = 1;
	bool q = false;
	while ((c = fgetc(fp)) != EOF) {
		if (l == line && k == col) {
			q = c == '\'' || c == '"';
			break;
		}
		if (c == '\n')
			l++, k = 1;
		else
			k++;
	}
	fclose(fp);
	return q;
}

/* An error at a YAML path of file: FILE:LINE:COLUMN: message. */
static void error_at(ts_patterns *p, const char *file, const ts_ypath *path,
		     int depth, int col_offset, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void error_at(ts_patterns *p, const char *file, const ts_ypath *path,
		     int depth, int col_offset, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	int line, col;
	ts_yaml_locate(file, path, depth, false, &line, &col);
	/* An offset into a quoted scalar starts after the quote. */
	if (col_offset > 0 && quoted_at(file, line, col))
		col_offset++;
	add_error(p, "%s:%d:%d: %s", file, line, col + col_offset, msg);
}

static bool grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 32;
	while (n < need)
		n *= 2;
	void *a = realloc(*arr, n * elem);
	if (!a)
		return false;
	*arr = a;
	*cap = n;
	return true;
}

static void *own(ts_patterns *p, void *mem)
{
	if (mem && grow((void **)&p->allocs, &p->allocs_cap, p->nallocs + 1, sizeof(void *)))
		p->allocs[p->nallocs++] = mem;
	return mem;
}

/* Compile a regex; on error report it at the value's position plus the
 * offset PCRE2 gives (the value's column is that of its opening quote when
 * quoted: close enough to point at the problem). */
static ts_regex *compile_flags(ts_patterns *p, const char *src, uint32_t flags,
			       const char *file, const ts_ypath *path, int depth)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED, flags,
				       &code, &off, NULL);
	if (!re) {
		PCRE2_UCHAR buf[256];
		pcre2_get_error_message(code, buf, sizeof buf);
		error_at(p, file, path, depth, (int)off,
			 "invalid regex '%s': %s (at offset %zu)", src, (char *)buf,
			 (size_t)off);
		return NULL;
	}
	ts_regex *r = calloc(1, sizeof *r);
	if (!r || !grow((void **)&p->regexes, &p->regexes_cap, p->nregexes + 1,
			 sizeof(void *))) {
		free(r);
		pcre2_code_free(re);
		add_error(p, "%s: out of memory", file);
		return NULL;
	}
	r->code = re;
	r->src = src;
	r->file = file;
	r->depth = depth < 6 ? depth : 6;
	memcpy(r->path, path, (size_t)r->depth * sizeof *path);
	atomic_init(&r->limit_hits, 0);
	atomic_init(&r->limit_len, 0);
	p->regexes[p->nregexes++] = r;
	return r;
}

static ts_regex *compile(ts_patterns *p, const char *src, const char *file,
			 const ts_ypath *path, int depth)
{
	return compile_flags(p, src, 0, file, path, depth);
}

/* Match data is made per call, not kept in the regex, so that tables can be
 * shared by analyses running in several threads. Matching happens once per
 * distinct kernel name, never per event. */
int ts_regex_match(const ts_regex *re, const char *s, size_t len, size_t *ov,
		   int ov_pairs)
{
	ts_regex *rw = (ts_regex *)re;   /* only the atomic counters change */
	if (atomic_load(&rw->limit_hits))
		return 0;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re->code, NULL);
	pcre2_match_context *mc = pcre2_match_context_create(NULL);
	if (!md || !mc) {
		pcre2_match_data_free(md);
		pcre2_match_context_free(mc);
		return 0;
	}
	pcre2_set_match_limit(mc, TS_REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(mc, TS_REGEX_DEPTH_LIMIT);
	int rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, 0, md, mc);
	pcre2_match_context_free(mc);
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT) {
		if (atomic_fetch_add(&rw->limit_hits, 1) == 0)
			atomic_store(&rw->limit_len, len);
	}
	if (rc <= 0) {
		pcre2_match_data_free(md);
		return 0;
	}
	PCRE2_SIZE *v = pcre2_get_ovector_pointer(md);
	uint32_t n = pcre2_get_ovector_count(md);
	int pairs = (int)n < ov_pairs ? (int)n : ov_pairs;
	for (int i = 0; i < pairs; i++) {
		bool unset = v[2 * i] == PCRE2_UNSET;
		ov[2 * i] = unset ? 0 : v[2 * i];
		ov[2 * i + 1] = unset ? 0 : v[2 * i + 1];
	}
	pcre2_match_data_free(md);
	return pairs > 0 ? pairs : 1;
}

static int capture_count(const ts_regex *re)
{
	uint32_t n = 0;
	pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &n);
	return (int)n;
}

/* --------------------------------------------------------- cyaml errors */

static void cyaml_log_fn(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	ts_patterns *p = ctx;
	if (level < CYAML_LOG_ERROR)
		return;
	size_t n = strlen(p->cyaml_log);
	if (n + 1 < sizeof p->cyaml_log)
		vsnprintf(p->cyaml_log + n, sizeof p->cyaml_log - n, fmt, args);
}

/*
 * libcyaml reports "Load: <what>" and then a backtrace, innermost first:
 * "  in mapping field 'k' (line: L, column: C)", "  in sequence entry 'N'
 * (...)", "  in mapping (...)". Its positions point near, not at, the
 * problem (for an unexpected key, at the previous value), so we rebuild the
 * YAML path from the backtrace and find the node with libyaml.
 */
static void report_cyaml(ts_patterns *p, const char *file, cyaml_err_t err)
{
	const char *log = p->cyaml_log;
	char what[300] = "";
	const char *w = strstr(log, "Load: ");
	if (err == CYAML_ERR_ALIAS) {
		snprintf(what, sizeof what, "YAML aliases (*name) are not accepted in pattern "
			 "tables: write the value out");
	} else if (w) {
		w += 6;
		size_t n = strcspn(w, "\n");
		snprintf(what, sizeof what, "%.*s", (int)n, w);
	} else {
		size_t n = strcspn(log, "\n");
		snprintf(what, sizeof what, "%s%.*s", err == CYAML_ERR_LIBYAML_PARSER ?
			 "YAML syntax error: " : "", (int)n, n ? log : cyaml_strerror(err));
	}
	/* Backtrace -> path (outermost first). */
	enum { MAXP = 12 };
	char keys[MAXP][100];
	ts_ypath rev[MAXP];
	int depth = 0;
	unsigned long line = 0, col = 0;
	for (const char *l = strstr(log, "  in "); l && depth < MAXP; l = strstr(l + 1, "  in ")) {
		unsigned long ln, cn;
		const char *pos = strstr(l, "(line: ");
		if (pos && sscanf(pos, "(line: %lu, column: %lu)", &ln, &cn) == 2 && line == 0)
			line = ln, col = cn;
		if (sscanf(l, "  in mapping field '%99[^']'", keys[depth]) == 1) {
			rev[depth] = (ts_ypath){ keys[depth], 0 };
			depth++;
		} else {
			unsigned idx;
			/* libcyaml counts entries from 1 */
			if (sscanf(l, "  in sequence entry '%u'", &idx) == 1 && idx > 0)
				rev[depth++] = (ts_ypath){ NULL, (int)idx - 1 };
		}
	}
	/* "Missing required mapping field" names the last field read as the
	 * innermost place: drop it to point at the mapping itself. */
	bool missing = strncmp(what, "Missing required mapping field", 30) == 0;
	int skip = missing && depth > 0 && rev[0].key ? 1 : 0;
	ts_ypath path[MAXP + 1];
	depth -= skip;
	for (int i = 0; i < depth; i++)
		path[i] = rev[depth - 1 - i + skip];
	int pl = 0, pc = 0;
	bool found = false;
	char key[100];
	if (sscanf(what, "Unexpected key: %99s", key) == 1 && depth < MAXP) {
		path[depth] = (ts_ypath){ key, 0 };
		found = ts_yaml_locate(file, path, depth + 1, true, &pl, &pc);
	} else if (strncmp(what, "libyaml: ", 9) == 0) {
		char msg[200];
		if (ts_yaml_syntax_error(file, &pl, &pc, msg, sizeof msg)) {
			snprintf(what, sizeof what, "YAML syntax error: %s", msg);
			found = true;
		}
	} else if (missing) {
		/* Point at the mapping that lacks it: the sequence entry or
		 * the value of the key around it. */
		found = depth > 0 && ts_yaml_locate(file, path, depth, false, &pl, &pc);
		if (!found)
			pl = 1, pc = 1, found = true;
	} else if (depth > 0) {
		found = ts_yaml_locate(file, path, depth, false, &pl, &pc);
	}
	if (!found) {
		pl = line ? (int)line : 1;
		pc = col ? (int)col : 1;
	}
	add_error(p, "%s:%d:%d: %s", file, pl, pc, what);
}

static void *load_doc(ts_patterns *p, const char *file, const cyaml_schema_value_t *schema)
{
	void *doc = NULL;
	struct stat st;
	if (stat(file, &st) == 0 && st.st_size > TS_PATTERN_FILE_MAX) {
		add_error(p, "%s: %lld bytes: a pattern table is at most %d MB (the built-in ones "
			  "are a few KB)", file, (long long)st.st_size, TS_PATTERN_FILE_MAX >> 20);
		return NULL;
	}
	p->cyaml_log[0] = '\0';
	cyaml_err_t err = cyaml_load_file(file, &p->cyaml, schema, (cyaml_data_t **)&doc, NULL);
	if (err != CYAML_OK) {
		report_cyaml(p, file, err);
		return NULL;
	}
	return doc;
}

/* ----------------------------------------------------- validation helpers */

static int find_category(const ts_patterns *p, const char *name)
{
	for (size_t i = 0; i < p->ncats; i++)
		if (strcmp(p->cats[i].name, name) == 0)
			return (int)i;
	return -1;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
	int64_t v;
	if (ts_num_int64(s, strlen(s), &v) != TS_OK || strchr(s, '.') || strchr(s, 'e') ||
	    strchr(s, 'E') || v < lo || v > hi)
		return false;
	*out = (long)v;
	return true;
}

/* ------------------------------------------------------ kernel rule files */

/* Lines of the items of a top-level sequence, read in one pass (rules and
 * categories remember where they were defined, for explain and list).
 * Caller frees; NULL (lines unknown) when memory runs out. */
static int *item_lines(const char *file, const char *key, unsigned n)
{
	int *lines = calloc(n ? n : 1, sizeof *lines);
	if (lines && n)
		ts_yaml_seq_lines(file, key, lines, (int)n);
	return lines;
}

static void add_categories(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = item_lines(file, "categories", k->categories_count);
	for (unsigned i = 0; i < k->categories_count; i++) {
		y_category *c = &k->categories[i];
		ts_ypath path[] = { { "categories", 0 }, { NULL, (int)i }, { "type", 0 } };
		int t = lookup(type_names, TS_TYPE_COUNT, c->type);
		if (t < 0) {
			error_at(p, file, path, 3, 0,
				 "unknown type '%s' (one of attention, moe, gemm, norm, activation, rope, kv_cache, quantization, communication, memory, elementwise, reduce, sort_topk, sampling, embedding, other)",
				 c->type);
			continue;
		}
		int existing = find_category(p, c->name);
		if (existing >= 0) {
			/* Same file or directory: a mistake. Earlier directory
			 * (user's): it overrides this built-in definition. */
			if (strcmp(p->cats[existing].file, file) == 0) {
				path[2].key = "name";
				error_at(p, file, path, 3, 0, "category '%s' is defined twice",
					 c->name);
			}
			continue;
		}
		if (!grow((void **)&p->cats, &p->cats_cap, p->ncats + 1, sizeof *p->cats)) {
			add_error(p, "%s: out of memory", file);
			break;
		}
		p->cats[p->ncats++] = (ts_category){ .name = c->name, .type = (ts_ktype)t,
			.description = c->description ? c->description : "",
			.file = file, .line = lines ? lines[i] : 0 };
	}
	free(lines);
}

/* A set of names (open addressing, at most half full): true when name
 * was there already. slots is a power of two. */
static bool name_seen(const char **set, size_t slots, const char *name)
{
	uint64_t h = 1469598103934665603ull;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = (h ^ *c) * 1099511628211ull;
	for (size_t i = (size_t)h & (slots - 1);; i = (i + 1) & (slots - 1)) {
		if (!set[i]) {
			set[i] = name;
			return false;
		}
		if (strcmp(set[i], name) == 0)
			return true;
	}
}

static void add_rules(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = item_lines(file, "rules", k->rules_count);
	/* rule names of this file, for the used-twice check in linear time */
	size_t slots = 16;
	while (slots < 2 * (size_t)k->rules_count)
		slots *= 2;
	const char **names = calloc(slots, sizeof *names);
	for (unsigned i = 0; i < k->rules_count; i++) {
		y_rule *r = &k->rules[i];
		ts_ypath path[] = { { "rules", 0 }, { NULL, (int)i }, { "match", 0 } };
		ts_rule rule = { .name = r->name, .match = r->match, .file = file,
				 .short_tmpl = r->short_tmpl, .events = TS_RULE_KERNEL };
		bool ok = true;
		if (names && name_seen(names, slots, r->name)) {
			path[2].key = "name";
			error_at(p, file, path, 3, 0, "rule name '%s' is used twice", r->name);
			ok = false;
		}
		path[2].key = "match";
		rule.re = compile(p, r->match, file, path, 3);
		ok &= rule.re != NULL;
		rule.category = find_category(p, r->category);
		if (rule.category < 0) {
			path[2].key = "category";
			error_at(p, file, path, 3, 0,
				 "unknown category '%s' (declare it under categories:)",
				 r->category);
			ok = false;
		}
		if (r->stage) {
			static const char *const stages[] = { "none", "prefill", "decode" };
			int s = lookup(stages, 3, r->stage);
			if (s < 0) {
				path[2].key = "stage";
				error_at(p, file, path, 3, 0,
					 "unknown stage '%s' (prefill, decode or none)", r->stage);
				ok = false;
			} else {
				rule.stage = (ts_stage_hint)s;
			}
		}
		if (r->events_count) {
			static const char *const evs[] = { "kernel", "gpu_memcpy", "gpu_memset" };
			rule.events = 0;
			for (unsigned e = 0; e < r->events_count; e++) {
				int b = lookup(evs, 3, r->events[e]);
				if (b < 0) {
					ts_ypath ep[] = { { "rules", 0 }, { NULL, (int)i },
							  { "events", 0 }, { NULL, (int)e } };
					error_at(p, file, ep, 4, 0,
						 "unknown event category '%s' (kernel, gpu_memcpy or gpu_memset)",
						 r->events[e]);
					ok = false;
				} else {
					rule.events |= 1u << b;
				}
			}
		}
		if (r->short_tmpl && rule.re) {
			int groups = capture_count(rule.re);
			for (const char *s = r->short_tmpl; *s; s++) {
				if (s[0] == '$' && s[1] >= '0' && s[1] <= '9' && s[1] - '0' > groups) {
					path[2].key = "short";
					error_at(p, file, path, 3, (int)(s - r->short_tmpl),
						 "short name uses $%c but the regex has %d capture group%s",
						 s[1], groups, groups == 1 ? "" : "s");
					ok = false;
					break;
				}
			}
		}
		if (!ok)
			continue;
		if (!grow((void **)&p->rules, &p->rules_cap, p->nrules + 1, sizeof *p->rules)) {
			add_error(p, "%s: out of memory", file);
			break;
		}
		rule.line = lines ? lines[i] : 0;
		p->rules[p->nrules++] = rule;
	}
	free(lines);
	free(names);
}

/* ------------------------------------------------------ operator rules */

/* An error inside a compiled template: at the value plus the offset. */
static void add_operators(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = item_lines(file, "operators", k->operators_count);
	for (unsigned i = 0; i < k->operators_count; i++) {
		y_operator *o = &k->operators[i];
		ts_ypath path[] = { { "operators", 0 }, { NULL, (int)i }, { "op", 0 } };
		ts_oprule r = { .kind = o->kind, .op = o->op, .workload = o->workload,
				.description = o->description ? o->description : "",
				.file = file, .line = lines ? lines[i] : 0,
				.sets_context = strcmp(o->kind, "gemm") == 0 };
		bool ok = true;
		char err[200];
		size_t off;
		if (!o->op == !o->steps) {
			path[2].key = o->op ? "steps" : "op";
			error_at(p, file, path, 2, 0, "an operator rule has either op (one op) "
				 "or steps (a sequence of ops), not %s", o->op ? "both" : "neither");
			ok = false;
		} else if (o->op) {
			r.re = compile(p, o->op, file, path, 3);
			ok &= r.re != NULL;
			if (o->skip || o->shapes) {
				path[2].key = o->skip ? "skip" : "shapes";
				error_at(p, file, path, 3, 0, "%s belongs to a sequence rule (steps)",
					 path[2].key);
				ok = false;
			}
		} else {
			size_t nseq = 0;
			for (size_t j = 0; j < p->noprules; j++)
				nseq += p->oprules[j].nsteps > 0;
			if (nseq >= TS_SEQ_RULES) {
				path[2].key = "steps";
				error_at(p, file, path, 3, 0, "at most %d sequence rules", TS_SEQ_RULES);
				ok = false;
			}
			for (unsigned j = 0; j < o->steps_count; j++) {
				ts_ypath sp[] = { { "operators", 0 }, { NULL, (int)i }, { "steps", 0 },
						  { NULL, (int)j } };
				r.step[j] = compile(p, o->steps[j], file, sp, 4);
				ok &= r.step[j] != NULL;
			}
			r.nsteps = (int)o->steps_count;
			if (o->skip) {
				path[2].key = "skip";
				r.skip = compile(p, o->skip, file, path, 3);
				ok &= r.skip != NULL;
			}
			long v = 0;
			if (o->shapes && !parse_long(o->shapes, 0, (long)o->steps_count - 1, &v)) {
				path[2].key = "shapes";
				error_at(p, file, path, 3, 0, "shapes '%s' is not a step, 0 to %u",
					 o->shapes, o->steps_count - 1);
				ok = false;
			}
			r.shapes = (int)v;
		}
		for (unsigned j = 0; j < o->where_count; j++) {
			ts_ypath wp[] = { { "operators", 0 }, { NULL, (int)i }, { "where", 0 },
					  { NULL, (int)j } };
			if (!ts_wcond_compile(o->where[j], &r.cond[j], &off, err, sizeof err)) {
				error_at(p, file, wp, 4, (int)off, "where '%s': %s", o->where[j], err);
				ok = false;
			}
		}
		r.ncond = (int)o->where_count;
		if (o->heads) {
			if (!ts_wexpr_compile(o->heads, strlen(o->heads), &r.heads, &off, err,
					      sizeof err)) {
				path[2].key = "heads";
				error_at(p, file, path, 3, (int)off, "heads '%s': %s", o->heads, err);
				ok = false;
			}
			r.has_heads = true;
		}
		if (!ts_wtmpl_compile(o->workload, &r.name, &off, err, sizeof err)) {
			path[2].key = "workload";
			error_at(p, file, path, 3, (int)off, "workload '%s': %s", o->workload, err);
			ok = false;
		}
		if (o->tokens) {
			if (!ts_wexpr_compile(o->tokens, strlen(o->tokens), &r.tokens, &off, err,
					      sizeof err)) {
				path[2].key = "tokens";
				error_at(p, file, path, 3, (int)off, "tokens '%s': %s", o->tokens, err);
				ok = false;
			}
			r.has_tokens = true;
		}
		/* FLOPs and bytes: the roofline; without a value the call still
		 * has its workload */
		struct {
			const char *key, *src;
			ts_wexpr *e;
			bool *has;
		} cost[] = { { "flops", o->flops, &r.flops, &r.has_flops },
			     { "bytes", o->bytes, &r.bytes, &r.has_bytes } };
		for (size_t c = 0; c < 2; c++) {
			if (!cost[c].src)
				continue;
			if (!ts_wexpr_compile(cost[c].src, strlen(cost[c].src), cost[c].e, &off,
					      err, sizeof err)) {
				path[2].key = cost[c].key;
				error_at(p, file, path, 3, (int)off, "%s '%s': %s", cost[c].key,
					 cost[c].src, err);
				ok = false;
			}
			*cost[c].has = true;
		}
		for (unsigned j = 0; j < o->ranks_count; j++) {
			long v;
			if (strcmp(o->ranks[j], "any") == 0) {
				r.ranks[j] = -1;
			} else if (parse_long(o->ranks[j], 0, TS_MAX_RANK, &v)) {
				r.ranks[j] = (int8_t)v;
			} else {
				ts_ypath rp[] = { { "operators", 0 }, { NULL, (int)i }, { "ranks", 0 },
						  { NULL, (int)j } };
				error_at(p, file, rp, 4, 0,
					 "rank '%s' is not a whole number from 0 to %d, or any",
					 o->ranks[j], TS_MAX_RANK);
				ok = false;
			}
		}
		r.nranks = (int)o->ranks_count;
		r.dtype_operand = -1;
		if (o->dtype) {
			long v;
			if (o->dtype[0] == 'a' && parse_long(o->dtype + 1, 0, TS_MAX_OPERANDS - 1, &v)) {
				r.dtype_operand = (int)v;
			} else {
				path[2].key = "dtype";
				error_at(p, file, path, 3, 0,
					 "dtype '%s' is not an operand a0 to a%d", o->dtype,
					 TS_MAX_OPERANDS - 1);
				ok = false;
			}
		}
		if (!ok)
			continue;
		if (!grow((void **)&p->oprules, &p->oprules_cap, p->noprules + 1,
			  sizeof *p->oprules)) {
			add_error(p, "%s: out of memory", file);
			break;
		}
		p->oprules[p->noprules++] = r;
	}
	free(lines);
}

static bool convert_sels_at(ts_patterns *p, const char *file, const ts_ypath *pre,
			    int npre, const y_sel *in, unsigned n, bool weighted,
			    ts_selectors *out);
static void add_context_rules(ts_patterns *p, const char *file, y_kernels *k);

static void add_skips(ts_patterns *p, const char *file, y_kernels *k)
{
	for (unsigned i = 0; i < k->callsite_skip_count; i++) {
		ts_ypath path[] = { { "callsite_skip", 0 }, { NULL, (int)i }, { "match", 0 } };
		ts_regex *re = compile(p, k->callsite_skip[i].match, file, path, 3);
		if (!re)
			continue;
		if (!grow((void **)&p->skips, &p->skips_cap, p->nskips + 1, sizeof *p->skips)) {
			add_error(p, "%s: out of memory", file);
			break;
		}
		p->skips[p->nskips++] = re;
	}
}

static bool has_opkind(const ts_patterns *p, const char *kind)
{
	for (size_t i = 0; i < p->noprules; i++)
		if (strcmp(p->oprules[i].kind, kind) == 0)
			return true;
	return false;
}

static bool convert_opset(ts_patterns *p, const char *file, const char *key,
			  char **in, unsigned n)
{
	bool ok = true;
	for (unsigned i = 0; i < n; i++) {
		if (has_opkind(p, in[i]))
			continue;
		ts_ypath path[] = { { "operators", 0 }, { key, 0 }, { NULL, (int)i } };
		error_at(p, file, path, 3, 0,
			 "no operator rule has kind '%s' (see operators: in the kernel tables)",
			 in[i]);
		ok = false;
	}
	return ok;
}

/* ---------------------------------------------------------- model files */

static bool convert_sels_at(ts_patterns *p, const char *file, const ts_ypath *pre,
			    int npre, const y_sel *in, unsigned n, bool weighted,
			    ts_selectors *out)
{
	bool ok = true;
	out->n = 0;
	out->v = n ? own(p, calloc(n, sizeof *out->v)) : NULL;
	if (n && !out->v) {
		add_error(p, "%s: out of memory", file);
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		const y_sel *s = &in[i];
		ts_selector *d = &out->v[out->n];
		ts_ypath path[8];
		int depth = 0;
		for (int j = 0; j < npre && j < 6; j++)
			path[depth++] = pre[j];
		path[depth++] = (ts_ypath){ NULL, (int)i };
		int given = (s->category != NULL) + (s->type != NULL) + (s->match != NULL);
		if (given != 1) {
			error_at(p, file, path, depth, 0,
				 "a selector needs exactly one of category, type or match (found %d)",
				 given);
			ok = false;
			continue;
		}
		bool this_ok = true;
		if (s->category) {
			d->kind = TS_SEL_CATEGORY;
			d->category = find_category(p, s->category);
			if (d->category < 0) {
				path[depth] = (ts_ypath){ "category", 0 };
				error_at(p, file, path, depth + 1, 0, "unknown category '%s'",
					 s->category);
				this_ok = false;
			}
		} else if (s->type) {
			d->kind = TS_SEL_TYPE;
			int t = lookup(type_names, TS_TYPE_COUNT, s->type);
			if (t < 0) {
				path[depth] = (ts_ypath){ "type", 0 };
				error_at(p, file, path, depth + 1, 0, "unknown type '%s'", s->type);
				this_ok = false;
			}
			d->type = (ts_ktype)(t < 0 ? TS_TYPE_OTHER : t);
		} else {
			d->kind = TS_SEL_MATCH;
			d->match = s->match;
			path[depth] = (ts_ypath){ "match", 0 };
			d->re = compile(p, s->match, file, path, depth + 1);
			this_ok = d->re != NULL;
		}
		if (s->weight) {
			path[depth] = (ts_ypath){ "weight", 0 };
			if (!weighted) {
				error_at(p, file, path, depth + 1, 0,
					 "weight is only used in detect rules");
				this_ok = false;
			} else if (!parse_long(s->weight, -1000, 1000, &d->weight)) {
				error_at(p, file, path, depth + 1, 0,
					 "weight '%s' is not a whole number from -1000 to 1000",
					 s->weight);
				this_ok = false;
			}
		} else if (weighted) {
			d->weight = 1;
		}
		if (this_ok)
			out->n++;
		ok &= this_ok;
	}
	return ok;
}

static bool convert_sels(ts_patterns *p, const char *file, const char *k1,
			 const char *k2, const y_sel *in, unsigned n, bool weighted,
			 ts_selectors *out)
{
	ts_ypath pre[2] = { { k1, 0 }, { k2, 0 } };
	return convert_sels_at(p, file, pre, k2 ? 2 : 1, in, n, weighted, out);
}

/* A top-level selector list of a kernel table (key), added to *into. */
static bool add_selector_list(ts_patterns *p, const char *file, const char *key,
			      const y_sel *sels, unsigned n, ts_selectors *into)
{
	if (!n)
		return true;
	ts_selectors t;
	ts_ypath pre[] = { { key, 0 } };
	if (convert_sels_at(p, file, pre, 1, sels, n, false, &t) && t.n) {
		ts_selector *v = own(p, calloc(into->n + t.n, sizeof *v));
		if (!v) {
			add_error(p, "%s: out of memory", file);
			return false;
		}
		if (into->n)
			memcpy(v, into->v, into->n * sizeof *v);
		memcpy(v + into->n, t.v, t.n * sizeof *v);
		into->v = v;
		into->n += t.n;
	}
	return true;
}

/* token_grids:, training_kernels: and contexts: of a kernel table. */
static void add_context_rules(ts_patterns *p, const char *file, y_kernels *k)
{
	if (!add_selector_list(p, file, "token_grids", k->token_grids, k->token_grids_count,
			       &p->token_grids) ||
	    !add_selector_list(p, file, "training_kernels", k->training_kernels,
			       k->training_kernels_count, &p->training))
		return;
	int *lines = item_lines(file, "contexts", k->contexts_count);
	for (unsigned i = 0; i < k->contexts_count; i++) {
		const y_context *y = &k->contexts[i];
		ts_context c = { .name = y->name, .op = y->op,
				 .description = y->description ? y->description : "",
				 .file = file, .line = lines ? lines[i] : 0 };
		ts_ypath path[] = { { "contexts", 0 }, { NULL, (int)i }, { "category", 0 } };
		bool ok = true;
		c.category = find_category(p, y->category);
		if (c.category < 0) {
			error_at(p, file, path, 3, 0,
				 "unknown category '%s' (declare it under categories:)", y->category);
			ok = false;
		}
		path[2].key = "kernels";
		if (!y->kernels_count) {
			error_at(p, file, path + 0, 2, 0,
				 "a context needs kernels: (the kernels it gives the category)");
			ok = false;
		}
		ok &= convert_sels_at(p, file, path, 3, y->kernels, y->kernels_count,
				      false, &c.kernels);
		if ((y->op != NULL) == (y->after_count != 0)) {
			error_at(p, file, path, 2, 0,
				 "a context needs exactly one of op: (the launching CPU op) "
				 "or after: (the kernels that open it)");
			ok = false;
		}
		if (y->after_count && !y->until_count) {
			error_at(p, file, path, 2, 0,
				 "a context with after: needs until: (the kernels that close it)");
			ok = false;
		}
		if (y->op) {
			path[2].key = "op";
			c.op_re = compile(p, y->op, file, path, 3);
			ok &= c.op_re != NULL;
		}
		path[2].key = "after";
		ok &= convert_sels_at(p, file, path, 3, y->after, y->after_count, false, &c.after);
		path[2].key = "until";
		ok &= convert_sels_at(p, file, path, 3, y->until, y->until_count, false, &c.until);
		if (ok && p->ncontexts >= TS_MAX_CONTEXTS) {
			error_at(p, file, path, 2, 0, "more than %d contexts", TS_MAX_CONTEXTS);
			ok = false;
		}
		if (!ok)
			continue;
		if (!grow((void **)&p->contexts, &p->contexts_cap, p->ncontexts + 1,
			  sizeof *p->contexts)) {
			add_error(p, "%s: out of memory", file);
			break;
		}
		p->contexts[p->ncontexts++] = c;
	}
	free(lines);
}

/* groups: of a kernel table (compare). A name defined in an earlier
 * directory (the user's) hides this one; twice in one file is an error. */
static void add_groups(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = item_lines(file, "groups", k->groups_count);
	for (unsigned i = 0; i < k->groups_count; i++) {
		const y_group *y = &k->groups[i];
		ts_ypath path[] = { { "groups", 0 }, { NULL, (int)i }, { "name", 0 } };
		ts_group g = { .name = y->name, .description = y->description ? y->description : "",
			       .file = file, .line = lines ? lines[i] : 0 };
		bool ok = true, hidden = false;
		for (size_t j = 0; j < p->ngroups; j++)
			if (strcmp(p->groups[j].name, y->name) == 0) {
				if (strcmp(p->groups[j].file, file) == 0) {
					error_at(p, file, path, 3, 0, "group '%s' is defined twice (first at line %d)",
						 y->name, p->groups[j].line);
					ok = false;
				}
				hidden = true;
			}
		if (y->split) {
			if (strcmp(y->split, "category") == 0) {
				g.split = true;
			} else if (strcmp(y->split, "none") != 0) {
				path[2].key = "split";
				error_at(p, file, path, 3, 0, "split '%s' is not category or none", y->split);
				ok = false;
			}
		}
		path[2].key = "kernels";
		if (!y->kernels_count) {
			error_at(p, file, path, 2, 0, "a group needs kernels: (the selectors that pick its kernels)");
			ok = false;
		}
		ok &= convert_sels_at(p, file, path, 3, y->kernels, y->kernels_count, false, &g.kernels);
		if (!ok || hidden)
			continue;
		if (p->ngroups >= TS_MAX_GROUPS) {
			error_at(p, file, path, 2, 0, "more than %d groups", TS_MAX_GROUPS);
			break;
		}
		if (!grow((void **)&p->groups, &p->groups_cap, p->ngroups + 1, sizeof *p->groups)) {
			add_error(p, "%s: out of memory", file);
			break;
		}
		p->groups[p->ngroups++] = g;
	}
	free(lines);
}

/* A positive decimal (TFLOP/s, TB/s, GB): strict, no trailing text. */
static bool parse_positive(const char *s, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > hi)
		return false;
	*out = v;
	return true;
}

/* devices: peak figures for the roofline (devices.yaml). A name defined
 * again in a later directory replaces the earlier one. */
static void add_devices(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = item_lines(file, "devices", k->devices_count);
	for (unsigned i = 0; i < k->devices_count; i++) {
		const y_device *y = &k->devices[i];
		ts_ypath path[] = { { "devices", 0 }, { NULL, (int)i }, { "name", 0 } };
		ts_gpu d = { .name = y->name, .source = y->source, .match = y->match,
				.file = file, .line = lines ? lines[i] : 0 };
		bool ok = true;
		if (strcmp(y->vendor, "nvidia") == 0) {
			d.vendor = TS_PLATFORM_NVIDIA;
		} else if (strcmp(y->vendor, "amd") == 0) {
			d.vendor = TS_PLATFORM_AMD;
		} else {
			path[2].key = "vendor";
			error_at(p, file, path, 3, 0, "vendor '%s' is not nvidia or amd", y->vendor);
			ok = false;
		}
		path[2].key = "match";
		d.re = compile_flags(p, y->match, PCRE2_CASELESS, file, path, 3);
		ok &= d.re != NULL;
		long v;
		if (y->sms) {
			if (parse_long(y->sms, 1, 100000, &v)) {
				d.sms = (int)v;
			} else {
				path[2].key = "sms";
				error_at(p, file, path, 3, 0, "sms '%s' is not a whole number from 1 to 100000", y->sms);
				ok = false;
			}
		}
		if (y->memory_gb && !parse_positive(y->memory_gb, 1e6, &d.memory_gb)) {
			path[2].key = "memory_gb";
			error_at(p, file, path, 3, 0, "memory_gb '%s' is not a positive number", y->memory_gb);
			ok = false;
		}
		if (!parse_positive(y->hbm_tbps, 1e4, &d.hbm_tbps)) {
			path[2].key = "hbm_tbps";
			error_at(p, file, path, 3, 0, "hbm_tbps '%s' is not a positive number of TB/s", y->hbm_tbps);
			ok = false;
		}
		const char *peaks[TS_DT_COUNT] = {
			[TS_DT_FP32] = y->tflops->fp32, [TS_DT_TF32] = y->tflops->tf32,
			[TS_DT_BF16] = y->tflops->bf16, [TS_DT_FP16] = y->tflops->fp16,
			[TS_DT_FP8] = y->tflops->fp8, [TS_DT_INT8] = y->tflops->int8,
			[TS_DT_FP6] = y->tflops->fp6, [TS_DT_FP4] = y->tflops->fp4,
		};
		bool any = false;
		for (int c = 0; c < TS_DT_COUNT; c++) {
			if (!peaks[c])
				continue;
			any = true;
			if (!parse_positive(peaks[c], 1e6, &d.tflops[c])) {
				ts_ypath tp[] = { { "devices", 0 }, { NULL, (int)i }, { "tflops", 0 },
						  { ts_dtclass_name((ts_dtclass)c), 0 } };
				error_at(p, file, tp, 4, 0, "%s '%s' is not a positive number of TFLOP/s",
					 ts_dtclass_name((ts_dtclass)c), peaks[c]);
				ok = false;
			}
		}
		if (!any) {
			path[2].key = "tflops";
			error_at(p, file, path, 3, 0, "tflops: needs at least one dtype (fp32, bf16, fp8, ...)");
			ok = false;
		}
		if (!ok)
			continue;
		size_t j = 0;
		while (j < p->ngpus && strcmp(p->gpus[j].name, d.name) != 0)
			j++;
		if (j < p->ngpus && strcmp(p->gpus[j].file, file) == 0) {
			path[2].key = "name";
			error_at(p, file, path, 3, 0, "device '%s' is defined twice (first at line %d)",
				 d.name, p->gpus[j].line);
			continue;
		}
		if (j == p->ngpus && !grow((void **)&p->gpus, &p->gpus_cap, p->ngpus + 1,
					      sizeof *p->gpus)) {
			add_error(p, "%s: out of memory", file);
			break;
		}
		p->gpus[j] = d;
		if (j == p->ngpus)
			p->ngpus++;
	}
	free(lines);
}

static bool align_cost(ts_patterns *p, const char *file, const char *key,
		       const char *v, long *out)
{
	if (!v)
		return true;
	if (parse_long(v, 0, 1000, out))
		return true;
	ts_ypath path[] = { { "align", 0 }, { key, 0 } };
	error_at(p, file, path, 2, 0, "%s '%s' is not a whole number from 0 to 1000", key, v);
	return false;
}

/* fusions: and align: of a kernel table; after every file's groups. */
static void add_fusions(ts_patterns *p, const char *file, y_kernels *k)
{
	if (k->align && !p->align_set) {
		ts_align_costs c = p->align;
		const y_align *y = k->align;
		bool ok = align_cost(p, file, "same_category", y->same_category, &c.same_category);
		ok &= align_cost(p, file, "same_group", y->same_group, &c.same_group);
		ok &= align_cost(p, file, "fused", y->fused, &c.fused);
		ok &= align_cost(p, file, "join", y->join, &c.join);
		ok &= align_cost(p, file, "gap", y->gap, &c.gap);
		ok &= align_cost(p, file, "different", y->different, &c.different);
		if (ok) {
			p->align = c;
			p->align_set = true;
		}
	}
	int *lines = item_lines(file, "fusions", k->fusions_count);
	for (unsigned i = 0; i < k->fusions_count; i++) {
		const y_fusion *y = &k->fusions[i];
		ts_ypath path[] = { { "fusions", 0 }, { NULL, (int)i }, { "fused", 0 }, { NULL, 0 } };
		ts_fusion f = { .name = y->name, .description = y->description ? y->description : "",
				.file = file, .line = lines ? lines[i] : 0 };
		bool ok = true;
		if (!y->fused_count) {
			error_at(p, file, path, 2, 0, "a fusion needs fused: (the kernels that do the parts' work)");
			ok = false;
		}
		ok &= convert_sels_at(p, file, path, 3, y->fused, y->fused_count, false, &f.fused);
		path[2].key = "parts";
		if (y->parts_count < 2 || y->parts_count > TS_MAX_FUSION_PARTS) {
			error_at(p, file, path, 2, 0, "a fusion needs parts: 2 to %d group names",
				 TS_MAX_FUSION_PARTS);
			ok = false;
		}
		for (unsigned j = 0; j < y->parts_count && j < TS_MAX_FUSION_PARTS; j++) {
			int g = -1;
			for (size_t q = 0; q < p->ngroups; q++)
				if (strcmp(p->groups[q].name, y->parts[j]) == 0)
					g = (int)q;
			if (g < 0) {
				path[3].index = (int)j;
				error_at(p, file, path, 4, 0, "unknown group '%s' (declare it under groups:)",
					 y->parts[j]);
				ok = false;
			}
			f.parts[f.nparts++] = g;
		}
		if (!ok)
			continue;
		if (p->nfusions >= TS_MAX_FUSIONS) {
			error_at(p, file, path, 2, 0, "more than %d fusions", TS_MAX_FUSIONS);
			break;
		}
		if (!grow((void **)&p->fusions, &p->fusions_cap, p->nfusions + 1, sizeof *p->fusions)) {
			add_error(p, "%s: out of memory", file);
			break;
		}
		p->fusions[p->nfusions++] = f;
	}
	free(lines);
}

static void add_family(ts_patterns *p, const char *file, y_family *f)
{
	ts_family fam = { .name = f->family, .file = file,
			  .description = f->description ? f->description : "" };
	bool ok = true;
	ts_ypath path[] = { { "attention", 0 } };
	if (f->sure_score && !parse_long(f->sure_score, 1, 100000, &fam.sure_score)) {
		path[0].key = "sure_score";
		error_at(p, file, path, 1, 0, "sure_score '%s' is not a whole number from 1 to 100000",
			 f->sure_score);
		ok = false;
	}
	if (f->half_layers) {
		/* libcyaml takes any word for a bool; be strict. */
		static const char *const yes[] = { "true", "yes" }, *const no[] = { "false", "no" };
		if (lookup(yes, 2, f->half_layers) >= 0) {
			fam.half_layers = true;
		} else if (lookup(no, 2, f->half_layers) < 0) {
			path[0].key = "half_layers";
			error_at(p, file, path, 1, 0, "half_layers '%s' is not true or false",
				 f->half_layers);
			ok = false;
		}
		path[0].key = "attention";
	}
	int a = lookup(attn_names, 4, f->attention);
	if (a < 0) {
		error_at(p, file, path, 1, 0, "unknown attention '%s' (mha, mla, gdn or hybrid)",
			 f->attention);
		ok = false;
	}
	fam.attention = (ts_attn_kind)(a < 0 ? 0 : a);
	int m = lookup(mlp_names, 3, f->mlp);
	if (m < 0) {
		path[0].key = "mlp";
		error_at(p, file, path, 1, 0, "unknown mlp '%s' (fc, moe or mixed)", f->mlp);
		ok = false;
	}
	fam.mlp = (ts_mlp_kind)(m < 0 ? 0 : m);
	fam.examples = (const char **)f->examples;
	fam.nexamples = f->examples_count;
	if (f->num_hidden_layers_count) {
		fam.num_layers = own(p, calloc(f->num_hidden_layers_count, sizeof(long)));
		for (unsigned i = 0; fam.num_layers && i < f->num_hidden_layers_count; i++) {
			if (!parse_long(f->num_hidden_layers[i], 1, 100000, &fam.num_layers[i])) {
				ts_ypath np[] = { { "num_hidden_layers", 0 }, { NULL, (int)i } };
				error_at(p, file, np, 2, 0,
					 "num_hidden_layers entry '%s' is not a whole number from 1 to 100000",
					 f->num_hidden_layers[i]);
				ok = false;
			}
		}
		fam.nnum_layers = f->num_hidden_layers_count;
	}
	const y_layer *l = f->layer;
	if (l) {
		ok &= convert_sels(p, file, "layer", "start", l->start, l->start_count, false, &fam.layer_start);
		ok &= convert_sels(p, file, "layer", "attention", l->attention, l->attention_count, false, &fam.attention_markers);
		ok &= convert_sels(p, file, "layer", "moe", l->moe, l->moe_count, false, &fam.moe_markers);
		ok &= convert_sels(p, file, "layer", "fc", l->fc, l->fc_count, false, &fam.fc_markers);
	}
	if (f->stage) {
		ok &= convert_sels(p, file, "stage", "prefill", f->stage->prefill, f->stage->prefill_count, false, &fam.prefill);
		ok &= convert_sels(p, file, "stage", "decode", f->stage->decode, f->stage->decode_count, false, &fam.decode);
	}
	ok &= convert_sels(p, file, "detect", NULL, f->detect, f->detect_count, true, &fam.detect);
	if (f->operators) {
		const y_opset *os = f->operators;
		ok &= convert_opset(p, file, "required", os->required, os->required_count);
		ok &= convert_opset(p, file, "optional", os->optional, os->optional_count);
		fam.ops_required = (const char **)os->required;
		fam.nops_required = os->required_count;
		fam.ops_optional = (const char **)os->optional;
		fam.nops_optional = os->optional_count;
	}
	for (size_t i = 0; i < p->nfams; i++) {
		if (strcmp(p->fams[i].name, fam.name) != 0)
			continue;
		/* Same directory: a mistake; an earlier (user) directory
		 * overrides the built-in family of the same name. */
		char da[PATH_MAX], db[PATH_MAX];
		snprintf(da, sizeof da, "%s", p->fams[i].file);
		snprintf(db, sizeof db, "%s", file);
		char *sa = strrchr(da, '/'), *sb = strrchr(db, '/');
		if (sa)
			*sa = '\0';
		if (sb)
			*sb = '\0';
		if (strcmp(da, db) == 0) {
			path[0].key = "family";
			error_at(p, file, path, 1, 0, "family '%s' is also defined in %s",
				 fam.name, p->fams[i].file);
		}
		return;
	}
	if (!ok)
		return;
	if (!grow((void **)&p->fams, &p->fams_cap, p->nfams + 1, sizeof *p->fams)) {
		add_error(p, "%s: out of memory", file);
		return;
	}
	p->fams[p->nfams++] = fam;
}

/* ------------------------------------------------------------ directories */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.yaml files of dir, sorted; at most max. */
static size_t list_yaml(const char *dir, char **out, size_t max)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < max) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 6 ||
		    (strcmp(e->d_name + len - 5, ".yaml") != 0 &&
		     strcmp(e->d_name + len - 4, ".yml") != 0))
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat sb;
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
			continue;
		out[n] = strdup(path);
		if (out[n])
			n++;
	}
	closedir(d);
	qsort(out, n, sizeof *out, cmp_str);
	return n;
}

static bool is_dir(const char *path)
{
	struct stat sb;
	return path && *path && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static loaded_file *new_file(ts_patterns *p, char *path, bool family)
{
	if (p->nfiles == MAX_FILES) {
		add_error(p, "%s: too many pattern files (at most %d)", path, MAX_FILES);
		free(path);
		return NULL;
	}
	loaded_file *f = &p->files[p->nfiles++];
	*f = (loaded_file){ .path = path, .is_family = family };
	return f;
}

/* Load the categories of every directory first (rules may refer to a
 * category declared in another file), then rules, then families. */
static void load_dirs(ts_patterns *p)
{
	size_t first_kernel_file = p->nfiles;
	for (size_t d = 0; d < p->ndirs; d++) {
		char *names[MAX_FILES];
		size_t n = list_yaml(p->dirs[d], names, MAX_FILES);
		for (size_t i = 0; i < n; i++) {
			loaded_file *f = new_file(p, names[i], false);
			if (f)
				f->doc = load_doc(p, f->path, &kernels_schema);
		}
	}
	size_t end_kernel_files = p->nfiles;
	for (size_t i = first_kernel_file; i < end_kernel_files; i++)
		if (p->files[i].doc)
			add_categories(p, p->files[i].path, p->files[i].doc);
	for (size_t i = first_kernel_file; i < end_kernel_files; i++)
		if (p->files[i].doc) {
			add_rules(p, p->files[i].path, p->files[i].doc);
			add_operators(p, p->files[i].path, p->files[i].doc);
			add_skips(p, p->files[i].path, p->files[i].doc);
			add_context_rules(p, p->files[i].path, p->files[i].doc);
			add_groups(p, p->files[i].path, p->files[i].doc);
			add_devices(p, p->files[i].path, p->files[i].doc);
		}
	for (size_t i = first_kernel_file; i < end_kernel_files; i++)
		if (p->files[i].doc)
			add_fusions(p, p->files[i].path, p->files[i].doc);
	for (size_t d = 0; d < p->ndirs; d++) {
		char models[PATH_MAX];
		snprintf(models, sizeof models, "%s/models", p->dirs[d]);
		char *names[MAX_FILES];
		size_t n = list_yaml(models, names, MAX_FILES);
		for (size_t i = 0; i < n; i++) {
			loaded_file *f = new_file(p, names[i], true);
			if (!f)
				continue;
			f->doc = load_doc(p, f->path, &family_schema);
			if (f->doc)
				add_family(p, f->path, f->doc);
		}
	}
}

/* The built-in tables: $TRACESTREAM_PATTERNS, the installed data directory,
 * then the source tree this binary was built from (or beside the binary). */
static const char *find_builtin(char *buf, size_t len)
{
	const char *env = getenv("TRACESTREAM_PATTERNS");
	if (env && *env)
		return env;   /* explicit: used even if missing, so errors say so */
	snprintf(buf, len, "%s/patterns", TS_DATADIR);
	if (is_dir(buf))
		return buf;
	if (is_dir(TS_SOURCE_PATTERNS)) {
		snprintf(buf, len, "%s", TS_SOURCE_PATTERNS);
		return buf;
	}
	char exe[PATH_MAX - 16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/patterns", exe);
			if (is_dir(buf))
				return buf;
		}
	}
	return NULL;
}

ts_status ts_patterns_load(const ts_patterns_source *src, ts_patterns **out,
			   char (*errors)[512], size_t max_errors, size_t *nerrors)
{
	*out = NULL;
	*nerrors = 0;
	ts_patterns *p = calloc(1, sizeof *p);
	if (!p)
		return TS_ERR_NOMEM;
	p->align = (ts_align_costs){ .same_category = 0, .same_group = 3, .fused = 3,
				     .join = 1, .gap = 2, .different = 5 };
	p->errors = errors;
	p->max_errors = max_errors;
	p->cyaml = (cyaml_config_t){ .log_fn = cyaml_log_fn, .log_ctx = p,
				     .mem_fn = cyaml_mem, .log_level = CYAML_LOG_ERROR,
				     /* aliases would let a small file stand for a huge
				      * document ("billion laughs"): refused */
				     .flags = CYAML_CFG_NO_ALIAS };
	char buf[PATH_MAX];
	for (size_t i = 0; i < src->nuser_dirs && p->ndirs < 15; i++) {
		if (!is_dir(src->user_dirs[i])) {
			add_error(p, "%s: not a directory of pattern tables", src->user_dirs[i]);
			continue;
		}
		p->dirs[p->ndirs++] = strdup(src->user_dirs[i]);
	}
	const char *builtin = src->builtin_dir ? src->builtin_dir : find_builtin(buf, sizeof buf);
	if (!builtin || !is_dir(builtin)) {
		add_error(p, "%s: built-in pattern tables not found%s",
			  builtin ? builtin : "patterns",
			  builtin ? "" : " (set TRACESTREAM_PATTERNS or use --patterns DIR)");
		*nerrors = p->nerrors;
		ts_patterns_free(p);
		return TS_ERR_IO;
	}
	p->dirs[p->ndirs++] = strdup(builtin);
	load_dirs(p);
	*nerrors = p->nerrors;
	if (p->nerrors) {
		ts_patterns_free(p);
		return TS_ERR_PATTERNS;
	}
	p->errors = NULL;
	*out = p;
	return TS_OK;
}

void ts_patterns_free(ts_patterns *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nregexes; i++) {
		pcre2_code_free(p->regexes[i]->code);
		free(p->regexes[i]);
	}
	for (size_t i = 0; i < p->nfiles; i++) {
		if (p->files[i].doc)
			cyaml_free(&p->cyaml, p->files[i].is_family ? &family_schema
								  : &kernels_schema,
				   p->files[i].doc, 0);
		free(p->files[i].path);
	}
	for (size_t i = 0; i < p->nallocs; i++)
		free(p->allocs[i]);
	for (size_t i = 0; i < p->ndirs; i++)
		free(p->dirs[i]);
	free(p->allocs);
	free(p->regexes);
	free(p->cats);
	free(p->rules);
	free(p->fams);
	free(p->oprules);
	free(p->skips);
	free(p->contexts);
	free(p->groups);
	free(p->fusions);
	free(p->gpus);
	free(p);
}

size_t ts_patterns_ncategories(const ts_patterns *p) { return p->ncats; }
const ts_category *ts_patterns_category(const ts_patterns *p, size_t i) { return &p->cats[i]; }
size_t ts_patterns_nrules(const ts_patterns *p) { return p->nrules; }
const ts_rule *ts_patterns_rule(const ts_patterns *p, size_t i) { return &p->rules[i]; }
size_t ts_patterns_nfamilies(const ts_patterns *p) { return p->nfams; }
const ts_family *ts_patterns_family(const ts_patterns *p, size_t i) { return &p->fams[i]; }
size_t ts_patterns_ndirs(const ts_patterns *p) { return p->ndirs; }
const char *ts_patterns_dir(const ts_patterns *p, size_t i) { return p->dirs[i]; }

size_t ts_patterns_noprules(const ts_patterns *p) { return p->noprules; }
const ts_oprule *ts_patterns_oprule(const ts_patterns *p, size_t i) { return &p->oprules[i]; }

static bool oprule_is(const ts_oprule *r, const char *kind, size_t kn, const char *tmpl, size_t tn)
{
	return strlen(r->kind) == kn && memcmp(r->kind, kind, kn) == 0 &&
	       strlen(r->workload) == tn && memcmp(r->workload, tmpl, tn) == 0;
}

long ts_patterns_oprule_find(const ts_patterns *p, uint32_t at, const char *kind, size_t kn,
			     const char *tmpl, size_t tn)
{
	size_t n = p ? p->noprules : 0;
	if (at < n && oprule_is(&p->oprules[at], kind, kn, tmpl, tn))
		return (long)at;
	for (size_t i = 0; i < n; i++)
		if (oprule_is(&p->oprules[i], kind, kn, tmpl, tn))
			return (long)i;
	return -1;
}
size_t ts_patterns_nskips(const ts_patterns *p) { return p->nskips; }

const ts_selectors *ts_patterns_token_grids(const ts_patterns *p)
{
	return &p->token_grids;
}

const ts_selectors *ts_patterns_training(const ts_patterns *p)
{
	return &p->training;
}

size_t ts_patterns_ngroups(const ts_patterns *p)
{
	return p->ngroups;
}

size_t ts_patterns_ngpus(const ts_patterns *p)
{
	return p->ngpus;
}

const ts_gpu *ts_patterns_gpu(const ts_patterns *p, size_t i)
{
	return &p->gpus[i];
}

const ts_group *ts_patterns_group(const ts_patterns *p, size_t i)
{
	return &p->groups[i];
}

size_t ts_patterns_nfusions(const ts_patterns *p)
{
	return p->nfusions;
}

const ts_fusion *ts_patterns_fusion(const ts_patterns *p, size_t i)
{
	return &p->fusions[i];
}

const ts_align_costs *ts_patterns_align_costs(const ts_patterns *p)
{
	return &p->align;
}

size_t ts_patterns_ncontexts(const ts_patterns *p)
{
	return p->ncontexts;
}

const ts_context *ts_patterns_context(const ts_patterns *p, size_t i)
{
	return &p->contexts[i];
}

bool ts_patterns_callsite_skipped(const ts_patterns *p, const char *name, size_t len)
{
	for (size_t i = 0; i < p->nskips; i++) {
		size_t ov[2];
		if (ts_regex_match(p->skips[i], name, len, ov, 1) > 0)
			return true;
	}
	return false;
}

const ts_family *ts_patterns_find_family(const ts_patterns *p, const char *name)
{
	for (size_t i = 0; i < p->nfams; i++)
		if (strcmp(p->fams[i].name, name) == 0)
			return &p->fams[i];
	return NULL;
}

bool ts_selector_matches(const ts_selector *sel, int category, ts_ktype type,
			 const char *name, size_t len)
{
	switch (sel->kind) {
	case TS_SEL_CATEGORY:
		return sel->category == category;
	case TS_SEL_TYPE:
		return sel->type == type;
	case TS_SEL_MATCH: {
		size_t ov[2];
		return ts_regex_match(sel->re, name, len, ov, 1) > 0;
	}
	}
	return false;
}

bool ts_selectors_any(const ts_selectors *s, int category, ts_ktype type,
		      const char *name, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (ts_selector_matches(&s->v[i], category, type, name, len))
			return true;
	return false;
}

size_t ts_patterns_regex_limits(const ts_patterns *p, char (*lines)[TS_PATTERN_ERR_LEN],
				size_t max)
{
	size_t n = 0;
	for (size_t i = 0; p && i < p->nregexes && n < max; i++) {
		ts_regex *r = p->regexes[i];
		if (!atomic_load(&r->limit_hits))
			continue;
		int line = 1, col = 1;
		ts_yaml_locate(r->file, r->path, r->depth, false, &line, &col);
		snprintf(lines[n++], TS_PATTERN_ERR_LEN,
			 "%s:%d:%d: regex '%.80s' gave up on a name of %zu bytes (PCRE2's match "
			 "limit: it backtracks without end); it matches nothing from then on",
			 r->file, line, col, r->src, (size_t)atomic_load(&r->limit_len));
	}
	return n;
}

const char *ts_dtclass_name(ts_dtclass c)
{
	static const char *const names[TS_DT_COUNT] = {
		"fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp6", "fp4",
	};
	return (unsigned)c < TS_DT_COUNT ? names[c] : "?";
}
