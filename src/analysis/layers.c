#include "analysis/layers.h"
#include "analysis/satmath.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/intern.h"
#include "input/numtext.h"

static const char *const pstage_names[TS_PSTAGE_COUNT] = {
	"prefill", "decode", "mixed", "unknown",
};

static const char *const signal_names[TS_SIG_COUNT] = {
	"annotation", "kernel_hints", "gemm_m", "kv_grid", "only_in", "duration",
};

const char *ts_signal_name(ts_signal s)
{
	return (unsigned)s < TS_SIG_COUNT ? signal_names[s] : "unknown";
}

const char *ts_pstage_name(ts_pstage s)
{
	return (unsigned)s < TS_PSTAGE_COUNT ? pstage_names[s] : "unknown";
}

static const char *const ltype_names[TS_LT_COUNT] = {
	"MHA+MoE", "MHA+FC", "MLA+MoE", "MLA+FC", "GDN+MoE", "GDN+FC",
	"Attn-only", "MoE-only", "FC-only", "unknown",
};

const char *ts_ltype_name(ts_ltype t)
{
	return (unsigned)t < TS_LT_COUNT ? ltype_names[t] : "unknown";
}

/* What a kernel means to the machine (bits), decided once per name. */
enum {
	M_START = 1u << 0,
	M_MHA = 1u << 1,
	M_MLA = 1u << 2,
	M_GDN = 1u << 3,
	M_MOE = 1u << 4,
	M_FC = 1u << 5,
	M_EMBED = 1u << 6,
	M_SAMPLE = 1u << 7,
	M_GEMM = 1u << 8,       /* a GEMM (type gemm) */
	M_TOKENS = 1u << 9,     /* its grid x counts the batch's tokens */
	M_ENDS = 1u << 10,      /* other or communication: ends an attention unit */
	M_ONCE = 1u << 11,      /* typed attention, but runs once per pass: no unit */
	M_TRAIN = 1u << 12,     /* only a training step runs it (training_kernels:) */
	M_KNOWN = 1u << 15,     /* computed */
};
#define M_ATTN (M_MHA | M_MLA | M_GDN)
#define M_MLP (M_MOE | M_FC)

typedef struct {
	int64_t ts, end;         /* end: INT64_MAX without a duration */
	ts_pstage stage;
	int64_t batch, tokens;
	int64_t ext;             /* External id, -1 none */
	uint32_t group;          /* one step: windows nested in another share it */
	uint32_t name;           /* in ann_names; TS_INTERN_NONE past its cap */
	bool gpu;                /* gpu_user_annotation: a window on the GPU */
	bool sglang_step;        /* step[...] */
} annotation;

/* One layer of the pass in progress. */
typedef struct {
	int64_t ns;
	uint32_t kernels;
	uint16_t marks;          /* M_* seen in the layer */
	uint16_t post_gemms;     /* GEMMs after its attention (MLP evidence) */
} cur_layer;

/* A kernel since the last attention kernel of the pass: the gap where the
 * next layer boundary lies when no layer-start marker placed it. */
typedef struct {
	int64_t dur;
	uint32_t key;            /* kernel row, the structural identity */
	uint16_t marks;
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
	bool ctx;                /* ran in a context (its row's context class) */
	uint16_t marks;          /* what it meant to the machine (M_*) */
} kernel_ent;

typedef struct {
	uint32_t pass;           /* index of its record */
	uint32_t nlayers;
	cur_layer *layers;       /* per-layer figures, when complete */
	kernel_ent *kernels;
	size_t nkernels;
	ts_layer_sample sample;  /* its middle layer (opts.sample) */
	ts_anat_kernel *anat;    /* its layer kernels, for the anatomy */
	size_t nanat;
	bool anat_skip;          /* complete, but not all of them listed */
} pending_pass;


struct ts_layers {
	ts_layers_opts opts;
	const ts_patterns *patterns;
	const ts_family *forced;
	uint16_t *marks;         /* per kernel row */
	uint16_t *ctx_marks;     /* per kernel row, in its context */
	uint32_t marks_cap;

	annotation *ann;         /* in arrival order (compacted when full) */
	uint32_t *order;         /* indices sorted by start */
	uint32_t *by_ext;        /* CPU ones with an External id, by that id */
	size_t nby_ext;
	size_t nann, ann_cap;
	uint64_t ann_dropped;
	size_t ngpu;             /* GPU step windows among them */
	uint32_t ngroups;
	uint32_t *group_best;    /* per group: the annotation that says most */
	int64_t *group_gpu_end;  /* per group: end of its GPU window, or -1 */
	uint64_t ann_compactions;
	int64_t last_kernel_ts;  /* INT64_MIN before the first kernel */
	int64_t compacted_at;    /* last_kernel_ts at the last compaction */
	ts_intern *ann_names;    /* step annotation names (they repeat) */

	/* the pass in progress */
	bool in_pass;
	ts_pass cur;
	cur_layer *layers;       /* TS_MAX_LAYERS */
	uint32_t nlayers;        /* closed layers of this pass */
	uint32_t layers_dropped;
	cur_layer seg;           /* the span since the last boundary */
	bool seen_boundary;      /* a start kernel opened a span in this pass */
	bool after_sampling;
	int hint_prefill, hint_decode;
	uint64_t gemm_small, gemm_large;   /* GEMM kernels by their op's M */
	int64_t step;            /* step (annotation group) of the pass, -1 none */
	int step_ann;            /* the annotation naming it */
	int64_t tokens_max;      /* largest token-counting grid x, -1 none */
	int64_t last_step;       /* step of the last pass with layers, -1 none */
	ts_pstage last_stage;    /* and its stage */

	/* structure: attention units and the gaps between them */
	gap_ent *gap;            /* MAX_GAP */
	uint32_t ngap;
	bool in_attn;            /* the last kernel was attention */
	uint32_t units;          /* attention units of the pass */
	gap_ent *pre;            /* tail of the segment before the first unit */
	uint32_t npre;           /* held */
	uint32_t pre_len;        /* its whole length */
	int32_t pre_start;       /* kernels from the start marker that opened
				  * layer 0 to the first unit; -1 none */
	int64_t pre_ns;          /* and its time */
	size_t dbg_pre_end;      /* --debug-layers entries before the first unit */
	int32_t tail_len;        /* kernels the last split left in the closing
				  * layer after its attention; -1 none yet */
	uint64_t structural;     /* boundaries placed by structure (all passes) */
	uint64_t attn_units;     /* attention units in the whole trace */
	uint64_t kernels_seen;
	uint64_t skernels;       /* kernels the machine has taken in this pass */
	int64_t sns;             /* and their time */
	uint64_t pass_structural; /* boundaries placed by structure in this pass */
	bool replaying;          /* relayer_pass is feeding the pass again */
	size_t kbuf0;            /* where this pass's kernels begin in kbuf */
	bool dbg_all;            /* the listing holds every kernel of the pass */
	bool embed_first;        /* an embedding kernel before the pass's first unit */
	/* attention rows of the pass, per unit: what runs once per pass */
	arow_ent arows[MAX_AROWS];
	uint32_t narows;
	bool arows_full;         /* more distinct rows than held: no verdict */
	uint32_t *unit_kern;     /* attention kernels per unit, MAX_UNITS */
	uint32_t once_rows[MAX_ONCE];  /* rows demoted for the whole trace */
	uint32_t nonce;
	uint64_t once_units;     /* units not counted as layers (all passes) */
	ts_odd_layer odd[TS_MAX_ODD];   /* the self-check's first findings */
	size_t nodd;
	uint64_t odd_total;
	uint64_t *chk;           /* 2 x TS_MAX_LAYERS: its scratch */
	uint64_t captures;       /* graph captures begun (runtime calls, annotations) */
	uint64_t backward_ops;   /* autograd backward ops and backward kernels
				  * (training_kernels:): a training step */
	uint64_t cpu_ops;        /* CPU ops seen */
	uint64_t launches;       /* kernel and graph launch calls seen */

	/* passes waiting for the relative signals */
	pending_pass pending[MAX_PENDING];
	size_t npending, pending_kernels;
	int64_t known_ns[TS_PSTAGE_COUNT];      /* passes decided by their own */
	uint64_t known_layers[TS_PSTAGE_COUNT]; /* signals: time and layers */
	uint32_t since_start;    /* kernels since the last start-marker boundary */
	bool start_after_attn;   /* a start kernel since the span's attention */
	uint16_t marks_at_gap;   /* span marks when its gap began */

	/* results */
	ts_pass *passes;
	size_t npasses, passes_cap;
	uint64_t passes_dropped;
	uint32_t pass_count;
	ts_stage_total stages[TS_PSTAGE_COUNT];
	ts_layer_stat *lstat[TS_PSTAGE_COUNT];   /* TS_MAX_LAYERS each */
	uint32_t lmax[TS_PSTAGE_COUNT];
	uint64_t type_count[TS_LT_COUNT];
	uint32_t count_hist[TS_MAX_LAYERS + 1];  /* layers per complete pass */
	uint32_t all_hist[TS_MAX_LAYERS + 1];    /* layers per pass, complete or not */
	uint64_t orphan_kernels;                 /* outside any pass */
	int64_t orphan_ns;

	/* kernel rows per stage, filled as passes get their stage */
	kernel_ent *kbuf;
	size_t nkbuf, kbuf_cap;
	ts_stat *srows[TS_PSTAGE_COUNT];
	ts_ctx_stat *sctx[TS_PSTAGE_COUNT];
	uint32_t srows_cap;
	ts_stat sother[TS_PSTAGE_COUNT], sall[TS_PSTAGE_COUNT];
	uint64_t stage_overflow;

	/* --debug-layers: kernels of the requested layers, current pass and
	 * the first complete pass kept */
	ts_debug_kernel *dbg_cur, *dbg_kept;
	size_t ndbg_cur, ndbg_kept;
	size_t dbg_cap;          /* dbg_cur grows to TS_MAX_DEBUG_KERNELS */
	bool dbg_lost;           /* a kernel of the pass did not fit */
	size_t dbg_span;         /* where the open span's kernels begin */
	bool dbg_done;
	bool track;              /* keep dbg_cur: --debug-layers or samples */
	ts_layer_sample samples[TS_PSTAGE_COUNT];
	ts_debug_kernel *samp_tmp; /* TS_MAX_SAMPLE_KERNELS: the pass's middle layer */
	ts_anatomy *anatomy;     /* the typical layer per stage */
	ts_idle *idle;           /* gaps of the pass in progress */
	ts_anat_kernel *anat_tmp; /* the pass's layer kernels, anat_cap of them */
	size_t anat_cap;
};

_Static_assert(TS_ANAT_STAGES == TS_PSTAGE_COUNT, "anatomy stages");

ts_layers *ts_layers_new(const ts_patterns *p, const ts_layers_opts *o)
{
	ts_layers *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->opts = *o;
	l->patterns = p;
	if (p && o->model)
		l->forced = ts_patterns_find_family(p, o->model);
	l->layers = calloc(TS_MAX_LAYERS, sizeof *l->layers);
	l->gap = calloc(MAX_GAP, sizeof *l->gap);
	l->pre = calloc(MAX_PRE, sizeof *l->pre);
	l->unit_kern = calloc(MAX_UNITS, sizeof *l->unit_kern);
	l->chk = calloc(2 * TS_MAX_LAYERS, sizeof *l->chk);
	l->ann_names = ts_intern_new(TS_MAX_ANNOTATION_NAMES, 256 * 1024);
	l->last_kernel_ts = l->compacted_at = INT64_MIN;
	l->last_step = -1;
	l->last_stage = TS_PSTAGE_UNKNOWN;
	/* the listing of the pass's layer kernels: for the anatomy (with
	 * tables), --debug-layers and the samples of compare */
	l->track = o->debug || o->sample || p;

	if (o->debug)
		l->dbg_kept = calloc(TS_MAX_DEBUG_KERNELS, sizeof *l->dbg_kept);
	if (o->sample)
		l->samp_tmp = calloc(TS_MAX_SAMPLE_KERNELS, sizeof *l->samp_tmp);
	if (p)
		l->anatomy = ts_anatomy_new(ts_patterns_ncategories(p));
	l->idle = ts_idle_new();
	bool ok = l->idle && l->layers && l->gap && l->pre && l->unit_kern && l->chk && l->ann_names &&
		  (!o->debug || l->dbg_kept) && (!o->sample || l->samp_tmp) &&
		  (!p || l->anatomy);
	if (!ok) {
		ts_layers_free(l);
		return NULL;
	}
	return l;
}

void ts_layers_free(ts_layers *l)
{
	if (!l)
		return;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		if (l->lstat[s])
			for (uint32_t i = 0; i < l->lmax[s]; i++)   /* the rest are unused */
				ts_stat_clear(&l->lstat[s][i].time);
		free(l->lstat[s]);
	}
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		for (uint32_t i = 0; l->srows[st] && i < l->srows_cap; i++)
			ts_stat_clear(&l->srows[st][i]);
		free(l->srows[st]);
		free(l->sctx[st]);
		ts_stat_clear(&l->sother[st]);
		ts_stat_clear(&l->sall[st]);
	}
	for (size_t i = 0; i < l->npending; i++) {
		free(l->pending[i].layers);
		free(l->pending[i].kernels);
		free(l->pending[i].sample.k);
		free(l->pending[i].anat);
	}
	for (int s = 0; s < TS_PSTAGE_COUNT; s++)
		free(l->samples[s].k);
	free(l->kbuf);
	free(l->marks);
	free(l->ctx_marks);
	free(l->ann);
	free(l->order);
	free(l->by_ext);
	free(l->group_best);
	free(l->group_gpu_end);
	ts_intern_free(l->ann_names);
	free(l->layers);
	free(l->gap);
	free(l->pre);
	free(l->unit_kern);
	free(l->chk);
	free(l->passes);
	free(l->dbg_cur);
	free(l->dbg_kept);
	free(l->samp_tmp);
	ts_anatomy_free(l->anatomy);
	ts_idle_free(l->idle);
	free(l->anat_tmp);
	free(l);
}

const ts_layers_opts *ts_layers_options(const ts_layers *l)
{
	return &l->opts;
}

/* ---------------------------------------------------------- annotations */

static bool starts_with(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && memcmp(s, lit, k) == 0;
}

/* The number after "key" in s (e.g. "bs=" -> 16), or -1. */
static int64_t number_after(const char *s, size_t n, const char *key)
{
	size_t k = strlen(key);
	for (size_t i = 0; i + k <= n; i++) {
		if (memcmp(s + i, key, k) != 0)
			continue;
		size_t j = i + k, e = j;
		while (e < n && e - j < 18 && s[e] >= '0' && s[e] <= '9')
			e++;
		int64_t v;
		if (e > j && ts_num_int64(s + j, e - j, &v) == TS_OK)
			return v;
	}
	return -1;
}

/*
 * Step annotations:
 *   SGLang  step[DECODE bs=16], step[EXTEND bs=15 toks=15360]
 *   vLLM    execute_context_1(888_788544)_generation_0(0)
 *           execute_8192_context_9(sq...)_generation_37(sq...)
 *   PyTorch ProfilerStep#6 (a step, stage unknown)
 */
static bool parse_step(const char *s, size_t n, annotation *a)
{
	a->stage = TS_PSTAGE_UNKNOWN;
	a->batch = a->tokens = -1;
	if (starts_with(s, n, "step[DECODE") || starts_with(s, n, "step[EXTEND") ||
	    starts_with(s, n, "step[PREFILL") || starts_with(s, n, "step[MIXED")) {
		a->stage = s[5] == 'D' ? TS_PSTAGE_DECODE
			 : s[5] == 'M' ? TS_PSTAGE_MIXED : TS_PSTAGE_PREFILL;
		a->batch = number_after(s, n, "bs=");
		a->tokens = number_after(s, n, "toks=");
		if (a->tokens < 0 && a->stage == TS_PSTAGE_DECODE)
			a->tokens = a->batch;
		return true;
	}
	if (starts_with(s, n, "execute_")) {
		int64_t ctx = number_after(s, n, "context_");
		int64_t gen = number_after(s, n, "generation_");
		if (ctx < 0 || gen < 0)
			return false;
		a->stage = ctx > 0 && gen > 0 ? TS_PSTAGE_MIXED
			 : ctx > 0 ? TS_PSTAGE_PREFILL
			 : gen > 0 ? TS_PSTAGE_DECODE : TS_PSTAGE_UNKNOWN;
		a->batch = ctx + gen;
		/* execute_<tokens>_context_... or execute_context_N(<tokens>_...) */
		int64_t lead = number_after(s, n, "execute_");
		int64_t first = number_after(s, n, "context_1(");
		a->tokens = lead >= 0 ? lead : (ctx == 1 && first >= 0 ? first + gen : -1);
		return true;
	}
	if (starts_with(s, n, "ProfilerStep#"))
		return true;
	return false;
}

/* Position in the sorted order of the first annotation starting after ts. */
static size_t upper_bound(const ts_layers *l, int64_t ts)
{
	size_t lo = 0, hi = l->nann;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->ann[l->order[mid]].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* What an annotation tells: a stage, then batch and tokens; SGLang's own
 * step[...] over the execute_ window it opens when they say as much. */
static int annotation_score(const annotation *a)
{
	return (a->stage != TS_PSTAGE_UNKNOWN) * 8 + (a->batch >= 0) * 4 +
	       (a->tokens >= 0) * 2 + a->sglang_step;
}

/*
 * Drop the annotations whose window ended before the open pass began:
 * kernels move forward in time, so those are not looked up again. (CPU
 * events come before the GPU block in real files, so before the first
 * kernel nothing can go: the cap then drops new ones, counted.)
 */
static void compact_annotations(ts_layers *l)
{
	size_t n = l->nann, k = 0;
	int64_t before = l->in_pass ? l->cur.first_ts : l->last_kernel_ts;
	if (before == INT64_MIN)
		return;
	uint32_t *newidx = malloc(n * sizeof *newidx);
	uint32_t *newgrp = malloc(l->ngroups * sizeof *newgrp);
	if (!newidx || !newgrp) {
		free(newidx);
		free(newgrp);
		return;
	}
	for (size_t i = 0; i < n; i++)
		newidx[i] = UINT32_MAX;
	for (size_t i = 0; i < l->ngroups; i++)
		newgrp[i] = UINT32_MAX;
	for (size_t i = 0; i < n; i++)
		if (l->ann[i].end >= before || (int)i == l->step_ann)
			newidx[i] = 0;
	/* survivors move down in arrival order; groups are renumbered */
	uint32_t ngroups = 0;
	for (size_t i = 0; i < n; i++) {
		if (newidx[i] == UINT32_MAX)
			continue;
		annotation a = l->ann[i];
		if (newgrp[a.group] == UINT32_MAX) {
			newgrp[a.group] = ngroups;
			l->group_best[ngroups] = (uint32_t)k;
			l->group_gpu_end[ngroups] = -1;
			ngroups++;
		}
		a.group = newgrp[a.group];
		if (annotation_score(&a) > annotation_score(&l->ann[l->group_best[a.group]]))
			l->group_best[a.group] = (uint32_t)k;
		if (a.gpu && a.end > l->group_gpu_end[a.group])
			l->group_gpu_end[a.group] = a.end;
		newidx[i] = (uint32_t)k;
		l->ann[k++] = a;
	}
	size_t no = 0, nx = 0;
	for (size_t j = 0; j < n; j++)
		if (newidx[l->order[j]] != UINT32_MAX)
			l->order[no++] = newidx[l->order[j]];
	for (size_t j = 0; j < l->nby_ext; j++)
		if (newidx[l->by_ext[j]] != UINT32_MAX)
			l->by_ext[nx++] = newidx[l->by_ext[j]];
	l->ngpu = 0;
	for (size_t i = 0; i < k; i++)
		l->ngpu += l->ann[i].gpu;
	if (l->step_ann >= 0) {
		l->step_ann = (int)newidx[l->step_ann];
		l->step = l->ann[l->step_ann].group;
	}
	if (l->last_step >= 0)
		l->last_step = newgrp[l->last_step] == UINT32_MAX ? -1 : (int64_t)newgrp[l->last_step];
	l->nann = k;
	l->nby_ext = nx;
	l->ngroups = ngroups;
	l->ann_compactions++;
	free(newidx);
	free(newgrp);
}

static bool contains(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	for (size_t i = 0; i + k <= n; i++)
		if (s[i] == lit[0] && memcmp(s + i, lit, k) == 0)
			return true;
	return false;
}

void ts_layers_cpu_event(ts_layers *l, const ts_event *ev)
{
	if (ev->cat == TS_CAT_CPU_OP) {
		l->cpu_ops++;
		if (starts_with(ev->name, ev->name_len, "autograd::engine::evaluate_function"))
			l->backward_ops++;
		return;
	}
	ts_idle_runtime(l->idle, ev);
	if (contains(ev->name, ev->name_len, "LaunchKernel") ||
	    contains(ev->name, ev->name_len, "GraphLaunch") ||
	    contains(ev->name, ev->name_len, "ModuleLaunch"))
		l->launches++;
	if (ev->name_len > 12 && ev->name_len < 64 &&
		   contains(ev->name, ev->name_len, "StreamBeginCapture")) {
		l->captures++;
	}
}

void ts_layers_annotation(ts_layers *l, const ts_event *ev)
{
	if ((ev->cat != TS_CAT_USER_ANNOTATION && ev->cat != TS_CAT_GPU_USER_ANNOTATION) ||
	    !(ev->has & TS_HAS_TS))
		return;
	annotation a = { .ts = ev->ts_ns, .gpu = ev->cat == TS_CAT_GPU_USER_ANNOTATION };
	a.end = ev->has & TS_HAS_DUR ? ev->ts_ns + ev->dur_ns : INT64_MAX;
	if (!parse_step(ev->name, ev->name_len, &a)) {
		/* SGLang capture_<bs>_DECODE, vLLM capture_<n>_PIECEWISE */
		if (!a.gpu && starts_with(ev->name, ev->name_len, "capture_"))
			l->captures++;
		return;
	}
	if (ts_intern_put(l->ann_names, ev->name, ev->name_len < 200 ? ev->name_len : 200,
			  &a.name) != TS_OK)
		a.name = TS_INTERN_NONE;
	a.sglang_step = starts_with(ev->name, ev->name_len, "step[");
	if (l->nann >= TS_MAX_ANNOTATIONS && l->nann == l->ann_cap &&
	    l->last_kernel_ts != l->compacted_at) {
		l->compacted_at = l->last_kernel_ts;
		compact_annotations(l);
	}
	if (l->nann == l->ann_cap) {
		if (l->ann_cap >= TS_MAX_ANNOTATIONS) {
			l->ann_dropped++;
			return;
		}
		size_t cap = l->ann_cap ? l->ann_cap * 2 : 64;
		annotation *p = realloc(l->ann, cap * sizeof *p);
		if (p)
			l->ann = p;
		uint32_t *o = p ? realloc(l->order, cap * sizeof *o) : NULL;
		if (o)
			l->order = o;
		uint32_t *x = o ? realloc(l->by_ext, cap * sizeof *x) : NULL;
		if (x)
			l->by_ext = x;
		uint32_t *g = x ? realloc(l->group_best, cap * sizeof *g) : NULL;
		if (g)
			l->group_best = g;
		int64_t *e = g ? realloc(l->group_gpu_end, cap * sizeof *e) : NULL;
		if (!e) {
			l->ann_dropped++;
			return;
		}
		l->group_gpu_end = e;
		l->ann_cap = cap;
	}
	/* Insert in start order (they arrive sorted: the shift is short).
	 * SGLang opens step[...] inside its execute_ window, at the same
	 * moment or just after: a window that starts inside the previous one
	 * of its side (CPU or GPU) is the same step. */
	size_t at = upper_bound(l, a.ts);
	a.group = l->ngroups;
	for (size_t j = at; j-- > 0;) {
		const annotation *prev = &l->ann[l->order[j]];
		if (prev->gpu != a.gpu)
			continue;
		if (prev->end > a.ts)
			a.group = prev->group;
		break;
	}
	/* A GPU window is the GPU side of the CPU window of the same name
	 * that began last before it. */
	if (a.gpu && a.group == l->ngroups)
		for (size_t j = at; j-- > 0;) {
			const annotation *prev = &l->ann[l->order[j]];
			if (!prev->gpu && a.name != TS_INTERN_NONE && prev->name == a.name) {
				a.group = prev->group;
				break;
			}
		}
	if (a.group == l->ngroups) {
		l->group_gpu_end[l->ngroups] = -1;
		l->group_best[l->ngroups++] = (uint32_t)l->nann;
	} else if (annotation_score(&a) > annotation_score(&l->ann[l->group_best[a.group]])) {
		l->group_best[a.group] = (uint32_t)l->nann;
	}
	if (a.gpu && a.end > l->group_gpu_end[a.group])
		l->group_gpu_end[a.group] = a.end;
	memmove(l->order + at + 1, l->order + at, (l->nann - at) * sizeof *l->order);
	l->order[at] = (uint32_t)l->nann;
	a.ext = !a.gpu && (ev->has & TS_HAS_EXTERNAL_ID) && ev->external_id >= 0
	      ? ev->external_id : -1;
	if (a.ext >= 0) {
		size_t k = l->nby_ext;
		while (k > 0 && l->ann[l->by_ext[k - 1]].ext > a.ext)
			k--;
		memmove(l->by_ext + k + 1, l->by_ext + k,
			(l->nby_ext - k) * sizeof *l->by_ext);
		l->by_ext[k] = (uint32_t)l->nann;
		l->nby_ext++;
	}
	l->ann[l->nann++] = a;
	l->ngpu += a.gpu;
}

/* The step annotation that started last at or before ts on one side (CPU
 * or GPU); among those of its step, one that names a stage wins. For the
 * GPU side the window must still be open at ts. -1: none. */
static int annotation_at(const ts_layers *l, int64_t ts, bool gpu)
{
	int best = -1;
	for (size_t j = upper_bound(l, ts); j-- > 0;) {
		const annotation *a = &l->ann[l->order[j]];
		if (a->gpu != gpu)
			continue;
		if (best >= 0 && a->group != l->ann[best].group)
			break;
		if (gpu && a->end <= ts)
			break;
		if (best < 0 || (l->ann[best].stage == TS_PSTAGE_UNKNOWN &&
				 a->stage != TS_PSTAGE_UNKNOWN))
			best = (int)l->order[j];
	}
	return best;
}

int64_t ts_layers_step_size(const ts_layers *l, int64_t ts)
{
	int i = annotation_at(l, ts, false);
	if (i < 0 || l->ann[i].end < ts)
		return -1;
	const annotation *b = &l->ann[l->group_best[l->ann[i].group]];
	return b->tokens >= 0 ? b->tokens : b->batch;
}

/* The CPU step annotation with the greatest External id <= ext: External
 * ids count up as the CPU records ops, so a kernel whose op has id ext was
 * launched after that step began. -1: none. */
static int annotation_by_ext(const ts_layers *l, int64_t ext)
{
	size_t lo = 0, hi = l->nby_ext;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->ann[l->by_ext[mid]].ext <= ext)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (int)l->by_ext[lo - 1] : -1;
}

/* The step a kernel belongs to: the GPU step window it runs in (exact on
 * the GPU timeline), else the CPU step its launching op was recorded in
 * (by External id). Graph-replayed kernels have no External id: -1. */
static int kernel_step(const ts_layers *l, const ts_event *ev)
{
	if (l->ngpu) {
		int a = annotation_at(l, ev->ts_ns, true);
		if (a >= 0)
			return a;
	}
	if (l->nby_ext && (ev->has & TS_HAS_EXTERNAL_ID) && ev->external_id >= 0)
		return annotation_by_ext(l, ev->external_id);
	return -1;
}

const char *ts_layers_annotation_name(const ts_layers *l, int i)
{
	size_t len;
	return i >= 0 ? ts_intern_str(l->ann_names, (uint32_t)i, &len) : NULL;
}

/* -------------------------------------------------------------- markers */

static uint16_t family_marks(const ts_family *f, const ts_kclass *c,
			     const char *name, size_t len)
{
	uint16_t m = 0;
	if (ts_selectors_any(&f->layer_start, c->category, c->type, name, len))
		m |= M_START;
	if (ts_selectors_any(&f->moe_markers, c->category, c->type, name, len))
		m |= M_MOE;
	if (ts_selectors_any(&f->fc_markers, c->category, c->type, name, len))
		m |= M_FC;
	if (ts_selectors_any(&f->attention_markers, c->category, c->type, name, len))
		m |= M_MHA;
	return m;
}

/* Markers of one kernel name: from the forced family, else the union of
 * every family's selectors; attention kinds and pass edges from types. */
static uint16_t compute_marks(const ts_layers *l, const ts_kclass *c,
			      const char *name, size_t len)
{
	uint16_t m = 0;
	const ts_patterns *p = l->patterns;
	if (l->forced) {
		m = family_marks(l->forced, c, name, len);
	} else if (p) {
		for (size_t i = 0; i < ts_patterns_nfamilies(p); i++)
			m |= family_marks(ts_patterns_family(p, i), c, name, len);
	}
	const char *cat = ts_kclass_category(p, c);
	/* A softmax alone is not attention (eager classifiers have one). */
	if ((m & M_MHA) && strcmp(cat, "Attention-Softmax") == 0)
		m &= (uint16_t)~M_MHA;
	if (m & M_MHA) {
		if (strcmp(cat, "Attention-MLA") == 0)
			m = (uint16_t)((m & ~M_MHA) | M_MLA);
		else if (strcmp(cat, "Attention-GDN") == 0)
			m = (uint16_t)((m & ~M_MHA) | M_GDN);
	}
	/* A kernel is one thing: a norm that starts a layer is not also MLP. */
	if (m & M_START)
		m &= (uint16_t)~(M_ATTN | M_MLP);
	if (c->type == TS_TYPE_EMBEDDING)
		m |= M_EMBED;
	if (c->type == TS_TYPE_SAMPLING)
		m |= M_SAMPLE;
	if (c->type == TS_TYPE_GEMM)
		m |= M_GEMM;
	if (p && ts_selectors_any(ts_patterns_token_grids(p), c->category, c->type, name, len))
		m |= M_TOKENS;
	if (p && ts_selectors_any(ts_patterns_training(p), c->category, c->type, name, len))
		m |= M_TRAIN;
	return (uint16_t)(m | M_KNOWN);
}

/* A kernel typed attention that runs once per pass: plain work. */
static uint16_t demoted(uint16_t m)
{
	return (m & M_ATTN) ? (uint16_t)((m & ~M_ATTN) | M_ONCE) : m;
}

static uint16_t marks_for(ts_layers *l, uint32_t row, const ts_kclass *c,
			  const char *name, size_t len, bool in_ctx)
{
	if (row == TS_INTERN_NONE)
		return compute_marks(l, c, name, len);
	if (row >= l->marks_cap) {
		uint32_t cap = l->marks_cap ? l->marks_cap : 64;
		while (cap <= row)
			cap *= 2;
		uint16_t *m = realloc(l->marks, cap * sizeof *m);
		if (m)
			l->marks = m;
		uint16_t *x = m ? realloc(l->ctx_marks, cap * sizeof *x) : NULL;
		if (!x)
			return compute_marks(l, c, name, len);
		l->ctx_marks = x;
		memset(m + l->marks_cap, 0, (cap - l->marks_cap) * sizeof *m);
		memset(x + l->marks_cap, 0, (cap - l->marks_cap) * sizeof *x);
		l->marks_cap = cap;
	}
	/* a name has one class in context (see ts_agg_context) */
	uint16_t *cache = in_ctx ? l->ctx_marks : l->marks;
	if (!(cache[row] & M_KNOWN)) {
		cache[row] = compute_marks(l, c, name, len);
		for (uint32_t i = 0; i < l->nonce; i++)
			if (l->once_rows[i] == row)
				cache[row] = demoted(cache[row]);
	}
	return cache[row];
}

/* ------------------------------------------------------------ the machine */

static ts_ltype layer_type(uint16_t m)
{
	bool moe = m & M_MOE, fc = m & M_FC;
	if (m & M_MLA)
		return moe ? TS_LT_MLA_MOE : fc ? TS_LT_MLA_FC : TS_LT_ATTN_ONLY;
	if (m & M_GDN)
		return moe ? TS_LT_GDN_MOE : fc ? TS_LT_GDN_FC : TS_LT_ATTN_ONLY;
	if (m & M_MHA)
		return moe ? TS_LT_MHA_MOE : fc ? TS_LT_MHA_FC : TS_LT_ATTN_ONLY;
	return moe ? TS_LT_MOE_ONLY : fc ? TS_LT_FC_ONLY : TS_LT_UNKNOWN;
}

static bool is_layer(const ts_layers *l, uint16_t m)
{
	if (l->opts.split_half_layers)
		return m & (M_ATTN | M_MLP);
	return m & M_ATTN;
}

/* Close the span since the last boundary: a layer, or orphan kernels. */
static void close_span(ts_layers *l)
{
	cur_layer *s = &l->seg;
	if (s->kernels == 0)
		return;
	/* Layer work before the pass's first boundary: the capture began
	 * inside a layer, so the pass is not whole. */
	if (l->nlayers == 0 && !l->seen_boundary && (s->marks & (M_ATTN | M_MLP)))
		l->cur.cut_start = true;
	if (!is_layer(l, s->marks))   /* not a layer: no layer in the listing */
		for (size_t i = l->dbg_span; i < l->ndbg_cur; i++)
			l->dbg_cur[i].layer = UINT32_MAX;
	l->dbg_span = l->ndbg_cur;
	if (is_layer(l, s->marks)) {
		/* GEMMs after the attention beyond its output projection: an
		 * MLP no marker named */
		if (!(s->marks & M_MLP) && s->post_gemms >= 3 && !l->opts.split_half_layers)
			s->marks |= M_FC;
		if (l->nlayers < TS_MAX_LAYERS)
			l->layers[l->nlayers] = *s;
		else
			l->layers_dropped++;
		l->nlayers++;
	} else {
		l->cur.orphan_kernels += s->kernels;
		l->cur.orphan_ns = ts_sat_add(l->cur.orphan_ns, s->ns);
	}
	*s = (cur_layer){ 0 };
	l->start_after_attn = false;
}

/* Take the last n kernels of the open span out of it (they go to the next
 * span or to the pass's orphans); *out gets their sum. The listing of
 * --debug-layers follows them. */
static void take_tail(ts_layers *l, const gap_ent *g, uint32_t n, cur_layer *out)
{
	*out = (cur_layer){ 0 };
	for (uint32_t i = 0; i < n; i++) {
		out->ns = ts_sat_add(out->ns, g[i].dur);
		out->kernels++;
		out->marks |= (uint16_t)(g[i].marks & (M_ATTN | M_MLP));
		if ((g[i].marks & M_GEMM) && l->seg.post_gemms)
			l->seg.post_gemms--;
	}
	l->seg.ns -= out->ns;
	l->seg.kernels -= out->kernels;
}

/* Where the next layer begins in the gap before a new attention unit, when
 * no layer-start marker placed it: the gap's index b (its kernels b..n-1
 * are the next layer's head). */
static uint32_t place_boundary(const ts_layers *l)
{
	const gap_ent *g = l->gap;
	uint32_t n = l->ngap;
	if (n == 0)
		return 0;
	/* a start marker as far from the attention as the one that opened
	 * layer 0 (a later one on a tie) */
	if (l->pre_start >= 0) {
		int64_t best = -1, bestd = INT64_MAX;
		for (uint32_t i = 0; i < n; i++) {
			if (!(g[i].marks & M_START))
				continue;
			int64_t d = (int64_t)(n - i) - l->pre_start;
			if (d < 0)
				d = -d;
			if (d <= bestd) {
				bestd = d;
				best = i;
			}
		}
		if (best >= 0)
			return (uint32_t)best;
	}
	/* the period: layer 0's head is the longest run at the end of the
	 * segment before its attention that also ends this gap */
	uint32_t k = 0;
	while (k + 1 < n && k < l->npre && g[n - 1 - k].key != TS_INTERN_NONE &&
	       g[n - 1 - k].key == l->pre[l->npre - 1 - k].key)
		k++;
	if (k > 0)
		return n - k;
	if (l->tail_len >= 0 && (uint32_t)l->tail_len <= n)
		return (uint32_t)l->tail_len;
	return n;
}

/* Relabel the --debug-layers listing: the last n kernels now belong to
 * layer `to` (UINT32_MAX: to no layer). */
static void debug_relabel(ts_layers *l, uint32_t n, uint32_t from, uint32_t to)
{
	for (size_t i = l->ndbg_cur; i-- > 0 && n > 0; n--)
		if (l->dbg_cur[i].layer == from)
			l->dbg_cur[i].layer = to;
}

/* A new attention unit while the open span already holds one: no marker
 * closed the layer, so split the gap between the two by structure. */
static void structural_boundary(ts_layers *l)
{
	uint32_t n = l->ngap, b = place_boundary(l), h = n - b;
	cur_layer head;
	take_tail(l, l->gap + b, h, &head);
	l->seg.marks = (uint16_t)(l->marks_at_gap | head.marks);
	for (uint32_t i = 0; i < b; i++)
		l->seg.marks |= (uint16_t)(l->gap[i].marks & (M_ATTN | M_MLP));
	if (l->track)
		debug_relabel(l, h, l->nlayers, l->nlayers + 1);
	/* Layer 0 with no start marker: it began as far before its attention
	 * as this head does; what came before is the pass preamble. When the
	 * preamble ends like the layers' tails, the capture began inside a
	 * layer. */
	if (l->nlayers == 0 && !l->seen_boundary) {
		if (l->pre_len > h) {
			int64_t head_ns = 0;
			for (uint32_t i = 0; i < h && i < l->npre; i++)
				head_ns = ts_sat_add(head_ns, l->pre[l->npre - 1 - i].dur);
			uint32_t pk = l->pre_len - h;
			int64_t pns = l->pre_ns - head_ns;
			l->seg.ns -= pns;
			l->seg.kernels -= pk;
			l->cur.orphan_kernels += pk;
			l->cur.orphan_ns = ts_sat_add(l->cur.orphan_ns, pns);
			if (l->track) {
				/* the last h listed before the unit are the head */
				size_t i = l->dbg_pre_end < l->ndbg_cur ? l->dbg_pre_end : l->ndbg_cur;
				for (uint32_t k = 0; i-- > 0;) {
					if (l->dbg_cur[i].layer == UINT32_MAX)
						continue;
					if (k < h)
						k++;
					else
						l->dbg_cur[i].layer = UINT32_MAX;
				}
			}
			uint32_t same = 0;
			while (same < b && h + same < l->npre &&
			       l->pre[l->npre - 1 - h - same].key == l->gap[b - 1 - same].key)
				same++;
			if (same >= 2 && 2 * same >= b)
				l->cur.cut_start = true;
		} else if (h > 0) {
			/* all of it looks like a layer's head and there is no
			 * preamble (a pass has one: the embedding at least) */
			l->cur.cut_start = true;
		}
		l->seen_boundary = true;
	}
	close_span(l);
	l->seg = head;
	l->tail_len = (int32_t)b;
	l->structural++;
	l->pass_structural++;
}

/* The layer machine's state at the start of a pass. */
static void reset_structure(ts_layers *l)
{
	l->nlayers = 0;
	l->layers_dropped = 0;
	l->seg = (cur_layer){ 0 };
	l->seen_boundary = false;
	l->ndbg_cur = l->dbg_span = 0;
	l->ngap = l->npre = l->pre_len = l->units = l->since_start = 0;
	l->pre_ns = 0;
	l->dbg_pre_end = 0;
	l->in_attn = l->start_after_attn = false;
	l->pre_start = l->tail_len = -1;
	l->marks_at_gap = 0;
	l->skernels = 0;
	l->sns = 0;
	l->pass_structural = 0;
}

static void start_pass(ts_layers *l, const ts_event *ev)
{
	l->in_pass = true;
	ts_idle_begin(l->idle);
	l->cur = (ts_pass){ .first_ts = ev->ts_ns, .last_end = ev->ts_ns,
			    .batch = -1, .tokens = -1, .annotation = -1,
			    .gemm_m_min = -1, .gemm_m_max = -1,
			    .kv_grid = -1 };
	for (int sg = 0; sg < TS_SIG_COUNT; sg++)
		l->cur.signal[sg] = TS_PSTAGE_UNKNOWN;
	reset_structure(l);
	l->after_sampling = false;
	l->hint_prefill = l->hint_decode = 0;
	l->gemm_small = l->gemm_large = 0;
	l->dbg_lost = false;
	l->dbg_all = true;
	l->step = -1;
	l->step_ann = -1;
	l->tokens_max = -1;
	l->kbuf0 = l->nkbuf;
	l->embed_first = false;
	l->narows = 0;
	l->arows_full = false;
}

/* The stage with most votes and its share; a tie or none: unknown. */
static void tally(ts_pass *p)
{
	int total = 0, best = TS_PSTAGE_UNKNOWN;
	bool tie = false;
	for (int s = 0; s < TS_PSTAGE_UNKNOWN; s++) {
		total += p->votes[s];
		if (p->votes[s] == 0)
			continue;
		if (best == TS_PSTAGE_UNKNOWN || p->votes[s] > p->votes[best]) {
			best = s;
			tie = false;
		} else if (p->votes[s] == p->votes[best]) {
			tie = true;
		}
	}
	p->stage = tie ? TS_PSTAGE_UNKNOWN : (ts_pstage)best;
	p->confidence = total && !tie && best != TS_PSTAGE_UNKNOWN
		      ? (double)p->votes[best] / total : 0.0;
}

static long decode_threshold(const ts_layers *l)
{
	return l->opts.decode_threshold > 0 ? l->opts.decode_threshold
					    : TS_DECODE_THRESHOLD_DEFAULT;
}

static void vote(ts_layers *l, ts_pass *p)
{
	/* the step whose window began last before the pass (its stray
	 * kernels cut, idle.h) */
	int64_t start = p->idle.span_ns ? p->idle.start_ns : p->first_ts;
	int an = l->step_ann >= 0 ? l->step_ann : annotation_at(l, start, false);
	if (an >= 0) {
		const annotation *a = &l->ann[l->group_best[l->ann[an].group]];
		if (a->stage != TS_PSTAGE_UNKNOWN)
			p->votes[a->stage] += 3;   /* outweighs both inferred signals */
		p->signal[TS_SIG_ANNOTATION] = a->stage;
		p->batch = a->batch;
		p->tokens = a->tokens;
		if (a->name != TS_INTERN_NONE)
			p->annotation = (int)a->name;
	}
	ts_pstage hints = TS_PSTAGE_UNKNOWN;
	if (l->hint_prefill != l->hint_decode)
		hints = l->hint_prefill > l->hint_decode ? TS_PSTAGE_PREFILL : TS_PSTAGE_DECODE;
	/* Many tokens in the GEMMs: prefill, or mixed when the annotation says
	 * the batch is mixed (a mixed batch has many tokens too). */
	ts_pstage many = p->signal[TS_SIG_ANNOTATION] == TS_PSTAGE_MIXED ? TS_PSTAGE_MIXED
			 : TS_PSTAGE_PREFILL;
	if (l->gemm_small != l->gemm_large)
		p->signal[TS_SIG_GEMM_M] = l->gemm_small > l->gemm_large ? TS_PSTAGE_DECODE : many;
	/* The grid of a KV-cache write has one block per token written: one
	 * per sequence in decode, every prompt token in prefill. */
	p->kv_grid = l->tokens_max;
	p->hints_prefill = (uint32_t)l->hint_prefill;
	p->hints_decode = (uint32_t)l->hint_decode;
	if (l->tokens_max > 0)
		p->signal[TS_SIG_KV_GRID] = l->tokens_max <= decode_threshold(l) ? TS_PSTAGE_DECODE : many;
	/* A kernel's name is weaker evidence than counts: names saying one
	 * stage where the annotation or the token counts say another (a
	 * FlashInfer "Prefill" kernel running decode) do not vote. */
	bool overruled = false;
	for (int sg = TS_SIG_ANNOTATION; sg <= TS_SIG_KV_GRID; sg++)
		if (sg != TS_SIG_KERNEL_HINTS && p->signal[sg] != TS_PSTAGE_UNKNOWN &&
		    p->signal[sg] != hints)
			overruled = true;
	p->signal[TS_SIG_KERNEL_HINTS] = overruled ? TS_PSTAGE_UNKNOWN : hints;
	for (int sg = TS_SIG_KERNEL_HINTS; sg < TS_SIG_COUNT; sg++)
		if (p->signal[sg] != TS_PSTAGE_UNKNOWN)
			p->votes[p->signal[sg]]++;
	tally(p);
}

/* Room for n items of size bytes in *v (capacity *cap, doubling from 256,
 * never past max): the pass listings stay small for small passes. */
static bool reserve_items(void **v, size_t *cap, size_t n, size_t size, size_t max)
{
	if (n <= *cap)
		return true;
	if (n > max)
		return false;
	size_t c = *cap ? *cap : 256;
	while (c < n)
		c *= 2;
	if (c > max)
		c = max;
	void *g = realloc(*v, c * size);
	if (!g)
		return false;
	*v = g;
	*cap = c;
	return true;
}

/* Add one finished pass's layers to the statistics of a stage. */
static void add_layers(ts_layers *l, ts_pstage s, const cur_layer *layers,
		       uint32_t n)
{
	/* 600 KB a stage: only for the stages a trace has */
	if (!l->lstat[s] && !(l->lstat[s] = calloc(TS_MAX_LAYERS, sizeof **l->lstat)))
		return;
	for (uint32_t i = 0; i < n && i < TS_MAX_LAYERS; i++) {
		ts_layer_stat *st = &l->lstat[s][i];
		ts_stat_add(&st->time, layers[i].ns);
		st->kernels += layers[i].kernels;
		st->type_count[layer_type(layers[i].marks)]++;
		if (i + 1 > l->lmax[s])
			l->lmax[s] = i + 1;
	}
}

static bool grow_srows(ts_layers *l, uint32_t need)
{
	if (need <= l->srows_cap)
		return true;
	uint32_t cap = l->srows_cap ? l->srows_cap : 64;
	while (cap < need)
		cap *= 2;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		ts_stat *r = realloc(l->srows[st], cap * sizeof *r);
		if (!r)
			return false;
		memset(r + l->srows_cap, 0, (cap - l->srows_cap) * sizeof *r);
		l->srows[st] = r;
		ts_ctx_stat *x = realloc(l->sctx[st], cap * sizeof *x);
		if (!x)
			return false;
		memset(x + l->srows_cap, 0, (cap - l->srows_cap) * sizeof *x);
		l->sctx[st] = x;
	}
	l->srows_cap = cap;
	return true;
}

static void stage_kernel(ts_layers *l, ts_pstage s, uint32_t row, const ts_kref *ref,
			 int64_t dur, bool in_ctx)
{
	if (l->opts.staged && ref)
		l->opts.staged(l->opts.staged_ctx, (int)s, ref, dur);
	/* the stage's total needs no distribution: count and sum only */
	l->sall[s].count++;
	l->sall[s].total = ts_sat_add(l->sall[s].total, dur);
	if (row == TS_INTERN_NONE)
		ts_stat_add(&l->sother[s], dur);
	else if (grow_srows(l, row + 1)) {
		ts_stat_add(&l->srows[s][row], dur);
		if (in_ctx) {
			l->sctx[s][row].count++;
			l->sctx[s][row].ns = ts_sat_add(l->sctx[s][row].ns, dur);
		}
	}
}

static void stage_kernels(ts_layers *l, ts_pstage s, const kernel_ent *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		stage_kernel(l, s, k[i].row, &k[i].ref, k[i].dur, k[i].ctx);
}

static void add_stage(ts_layers *l, const ts_pass *p)
{
	ts_stage_total *t = &l->stages[p->stage];
	t->passes++;
	t->complete_passes += p->complete;
	t->layers += p->layers;
	t->kernels += p->kernels;
	t->gpu_ns = ts_sat_add(t->gpu_ns, p->gpu_ns);
	ts_idle_sum(&t->idle, &p->idle);
}

/* The relative signals of a waiting pass, against the passes whose own
 * signals decided their stage. */
static void relative_votes(ts_layers *l, ts_pass *p, const pending_pass *pp)
{
	/* Kernels (by name) staged so far in prefill passes only, or in
	 * decode passes only: a prefill-only attention, a decode combine.
	 * With passes of one stage known, an attention kernel they never ran
	 * speaks for the other stage. */
	bool kp = l->known_layers[TS_PSTAGE_PREFILL] > 0, kd = l->known_layers[TS_PSTAGE_DECODE] > 0;
	for (size_t i = 0; i < pp->nkernels && (kp || kd); i++) {
		uint32_t row = pp->kernels[i].row;
		if (row == TS_INTERN_NONE || row >= l->srows_cap)
			continue;
		bool pre = l->srows[TS_PSTAGE_PREFILL][row].count > 0;
		bool dec = l->srows[TS_PSTAGE_DECODE][row].count > 0;
		if (kp && kd) {
			p->only_prefill += pre && !dec;
			p->only_decode += dec && !pre;
		} else if (row < l->marks_cap && (l->marks[row] & M_ATTN) && !pre && !dec) {
			if (kd)
				p->only_prefill++;
			else
				p->only_decode++;
		}
	}
	if (p->only_prefill != p->only_decode)
		p->signal[TS_SIG_ONLY_IN] = p->only_prefill > p->only_decode
					  ? TS_PSTAGE_PREFILL : TS_PSTAGE_DECODE;
	/* time per layer: a prefill layer processes many tokens */
	if (p->layers) {
		double t = (double)p->gpu_ns / p->layers;
		double d = l->known_layers[TS_PSTAGE_DECODE]
			 ? (double)l->known_ns[TS_PSTAGE_DECODE] / (double)l->known_layers[TS_PSTAGE_DECODE] : 0;
		double f = l->known_layers[TS_PSTAGE_PREFILL]
			 ? (double)l->known_ns[TS_PSTAGE_PREFILL] / (double)l->known_layers[TS_PSTAGE_PREFILL] : 0;
		ts_pstage v = TS_PSTAGE_UNKNOWN;
		if (d > 0 && f > 0 && t > 0) {
			/* the nearer, on a log scale */
			double rd = t > d ? t / d : d / t, rf = t > f ? t / f : f / t;
			p->duration_ref = rd <= rf ? TS_PSTAGE_DECODE : TS_PSTAGE_PREFILL;
			p->duration_ratio = t / (rd <= rf ? d : f);
			if (rd != rf)
				v = p->duration_ref;
		} else if (d > 0) {
			p->duration_ref = TS_PSTAGE_DECODE;
			p->duration_ratio = t / d;
			v = p->duration_ratio >= 4 ? TS_PSTAGE_PREFILL
			  : p->duration_ratio <= 2 ? TS_PSTAGE_DECODE : TS_PSTAGE_UNKNOWN;
		} else if (f > 0) {
			p->duration_ref = TS_PSTAGE_PREFILL;
			p->duration_ratio = t / f;
			v = p->duration_ratio <= 0.25 ? TS_PSTAGE_DECODE
			  : p->duration_ratio >= 0.5 ? TS_PSTAGE_PREFILL : TS_PSTAGE_UNKNOWN;
		}
		p->signal[TS_SIG_DURATION] = v;
	}
	for (int sg = TS_SIG_ONLY_IN; sg <= TS_SIG_DURATION; sg++)
		if (p->signal[sg] != TS_PSTAGE_UNKNOWN)
			p->votes[p->signal[sg]]++;
	tally(p);
}

/* The middle layer of the pass just ended, from the kernel listing, into
 * samp_tmp; its kernel count, 0 when the listing does not hold all of it. */
static size_t middle_layer(ts_layers *l, uint32_t *layer)
{
	if (!l->opts.sample || l->nlayers == 0 || l->ndbg_cur >= TS_MAX_DEBUG_KERNELS || l->dbg_lost)
		return 0;
	uint32_t mid = l->nlayers / 2;
	size_t n = 0;
	for (size_t i = 0; i < l->ndbg_cur; i++) {
		if (l->dbg_cur[i].layer != mid)
			continue;
		if (n == TS_MAX_SAMPLE_KERNELS)
			return 0;
		l->samp_tmp[n++] = l->dbg_cur[i];
	}
	*layer = mid;
	return n;
}

/* A complete pass of stage s offers its middle layer: the first becomes
 * the stage's sample; later ones with the same layer and kernel rows add
 * their time to it. */
static void offer_sample(ts_layers *l, ts_pstage s, const ts_layer_sample *c)
{
	ts_layer_sample *d = &l->samples[s];
	if (c->n == 0)
		return;
	if (!d->k) {
		d->k = malloc(c->n * sizeof *d->k);
		if (!d->k)
			return;
		memcpy(d->k, c->k, c->n * sizeof *d->k);
		d->n = c->n;
		d->layer = c->layer;
		d->layers = c->layers;
		d->instances = 1;
		return;
	}
	if (d->n != c->n || d->layer != c->layer || d->layers != c->layers)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (d->k[i].row != c->k[i].row || d->k[i].row == TS_INTERN_NONE)
			return;
	for (size_t i = 0; i < c->n; i++)
		d->k[i].dur += c->k[i].dur;
	d->instances++;
}

const ts_layer_sample *ts_layers_sample(const ts_layers *l, ts_pstage s)
{
	return l->samples[s].k ? &l->samples[s] : NULL;
}

/* The layer kernels of the pass just ended, from the listing, into
 * anat_tmp (*n of them); false when the listing does not hold them all. */
static bool anatomy_list(ts_layers *l, size_t *n)
{
	*n = 0;
	if (!l->anatomy || l->ndbg_cur >= TS_MAX_DEBUG_KERNELS || l->dbg_lost ||
	    l->nlayers > TS_MAX_LAYERS ||
	    !reserve_items((void **)&l->anat_tmp, &l->anat_cap, l->ndbg_cur, sizeof *l->anat_tmp,
			   TS_MAX_DEBUG_KERNELS))
		return false;
	size_t k = 0;
	for (size_t i = 0; i < l->ndbg_cur; i++) {
		const ts_debug_kernel *d = &l->dbg_cur[i];
		if (d->layer >= l->nlayers)
			continue;
		bool first = TS_KREF_OPENS(&d->ref);
		l->anat_tmp[k++] = (ts_anat_kernel){
			.layer = d->layer, .row = d->row, .dur = d->dur,
			.flops = first ? d->ref.flops : 0, .bytes = first ? d->ref.bytes : 0,
			.wl = d->ref.wl, .has_flops = d->ref.flops != 0, .has_bytes = d->ref.bytes != 0,
			.category = (int16_t)d->cls.category, .type = (uint8_t)d->cls.type };
	}
	*n = k;
	return true;
}

const ts_anatomy *ts_layers_anatomy(const ts_layers *l)
{
	return l->anatomy;
}

/* Decide a waiting pass (k-th) and stage its kernels and layers. */
static void resolve_pending(ts_layers *l, size_t k)
{
	pending_pass *pp = &l->pending[k];
	ts_pass *p = &l->passes[pp->pass];
	relative_votes(l, p, pp);
	stage_kernels(l, p->stage, pp->kernels, pp->nkernels);
	if (pp->layers)
		add_layers(l, p->stage, pp->layers, pp->nlayers);
	offer_sample(l, p->stage, &pp->sample);
	if (pp->anat_skip)
		ts_anatomy_skip(l->anatomy, p->stage);
	else if (pp->anat)
		ts_anatomy_add(l->anatomy, p->stage, pp->anat, pp->nanat, pp->nlayers);
	free(pp->anat);
	free(pp->sample.k);
	free(pp->layers);
	free(pp->kernels);
	l->pending_kernels -= pp->nkernels;
	memmove(l->pending + k, l->pending + k + 1, (l->npending - k - 1) * sizeof *l->pending);
	l->npending--;
}

/* Hold the pass just recorded (record idx) until the relative signals can
 * speak; false when it cannot be held (then it is staged unknown now). */
static bool hold_pending(ts_layers *l, size_t idx, uint32_t n)
{
	while (l->npending && (l->npending == MAX_PENDING ||
			       l->pending_kernels + l->nkbuf > MAX_PENDING_KERNELS))
		resolve_pending(l, 0);
	if (l->nkbuf > MAX_PENDING_KERNELS)
		return false;
	pending_pass *pp = &l->pending[l->npending];
	*pp = (pending_pass){ .pass = (uint32_t)idx };
	if (l->passes[idx].complete && n) {
		pp->layers = malloc(n * sizeof *pp->layers);
		if (!pp->layers)
			return false;
		memcpy(pp->layers, l->layers, n * sizeof *pp->layers);
		pp->nlayers = n;
		size_t na;
		if (!anatomy_list(l, &na)) {
			pp->anat_skip = l->anatomy != NULL;
		} else if (na && (pp->anat = malloc(na * sizeof *pp->anat)) != NULL) {
			memcpy(pp->anat, l->anat_tmp, na * sizeof *pp->anat);
			pp->nanat = na;
		} else if (na) {
			pp->anat_skip = true;
		}
		uint32_t mid;
		size_t k = middle_layer(l, &mid);
		if (k && (pp->sample.k = malloc(k * sizeof *pp->sample.k)) != NULL) {
			memcpy(pp->sample.k, l->samp_tmp, k * sizeof *pp->sample.k);
			pp->sample = (ts_layer_sample){ .layer = mid, .layers = l->nlayers,
							.instances = 1, .n = k, .k = pp->sample.k };
		}
	}
	pp->kernels = l->kbuf;      /* handed over */
	pp->nkernels = l->nkbuf;
	l->kbuf = NULL;
	l->nkbuf = l->kbuf_cap = 0;
	l->pending_kernels += pp->nkernels;
	l->npending++;
	return true;
}

/* An attention kernel of unit l->units - 1: count its row's units. */
static void track_unit(ts_layers *l, uint32_t row)
{
	uint32_t u = l->units - 1;
	if (u < MAX_UNITS) {
		if (l->in_attn)
			l->unit_kern[u]++;
		else
			l->unit_kern[u] = 1;
	}
	if (row == TS_INTERN_NONE) {
		l->arows_full = true;   /* a name past the cap: no verdict */
		return;
	}
	for (uint32_t i = 0; i < l->narows; i++) {
		arow_ent *a = &l->arows[i];
		if (a->row != row)
			continue;
		if (a->last_unit != u) {
			a->units++;
			a->last_unit = u;
		}
		a->kernels++;
		return;
	}
	if (l->narows == MAX_AROWS)
		l->arows_full = true;
	else
		l->arows[l->narows++] = (arow_ent){ row, 1, u, 1 };
}

/* Rows of the pass that ran once while other attention repeated, and make
 * up a unit of their own: demoted for the rest of the trace. Returns how
 * many units they made (0: the pass stands as it is). A pass of fewer
 * than three units, or where most units are of once-run kernels (every
 * layer names its attention apart), has no such helper. */
static uint32_t demote_once_units(ts_layers *l)
{
	uint32_t units = l->units;
	if (units < 3 || units > MAX_UNITS || l->arows_full || l->opts.split_half_layers)
		return 0;
	bool repeats = false;
	for (uint32_t i = 0; i < l->narows; i++)
		repeats |= l->arows[i].units >= 2;
	if (!repeats)
		return 0;
	uint32_t once[MAX_AROWS], nonce = 0;
	for (uint32_t i = 0; i < l->narows; i++) {
		const arow_ent *a = &l->arows[i];
		if (a->units != 1)
			continue;
		/* its unit holds nothing but once-run kernels */
		uint32_t k = 0;
		for (uint32_t j = 0; j < l->narows; j++)
			if (l->arows[j].units == 1 && l->arows[j].last_unit == a->last_unit)
				k += l->arows[j].kernels;
		if (k == l->unit_kern[a->last_unit])
			once[nonce++] = i;
	}
	uint32_t nunits = 0;
	for (uint32_t i = 0; i < nonce; i++) {
		bool first = true;
		for (uint32_t j = 0; j < i; j++)
			if (l->arows[once[j]].last_unit == l->arows[once[i]].last_unit)
				first = false;
		nunits += first;
	}
	if (nunits == 0 || 4 * nunits > units)
		return 0;
	for (uint32_t i = 0; i < nonce && l->nonce < MAX_ONCE; i++) {
		uint32_t row = l->arows[once[i]].row;
		l->once_rows[l->nonce++] = row;
		if (row < l->marks_cap) {
			l->marks[row] = demoted(l->marks[row]);
			l->ctx_marks[row] = demoted(l->ctx_marks[row]);
		}
		for (size_t k = l->kbuf0; k < l->nkbuf; k++)
			if (l->kbuf[k].row == row)
				l->kbuf[k].marks = demoted(l->kbuf[k].marks);
	}
	return nunits;
}

/* The layer machine proper: one kernel of the pass in progress, by its
 * row, marks and duration; online, or replayed by relayer_pass. */
static bool structure_kernel(ts_layers *l, uint32_t row, uint16_t m, int64_t dur)
{
	/* Once per pass: the pass's own overhead, in no layer. */
	if (m & M_ONCE) {
		l->cur.orphan_kernels++;
		l->cur.orphan_ns = ts_sat_add(l->cur.orphan_ns, dur);
		return false;
	}
	/* Layer boundary at a start marker (a residual norm) after MLP work. */
	uint16_t seen = l->seg.marks;
	bool boundary = (m & M_START) &&
			(l->opts.split_half_layers ? (seen & (M_ATTN | M_MLP)) : (seen & M_MLP));
	/* The first start kernel of a pass, before any layer work, also opens
	 * a layer: what came before it is the pass's preamble. */
	if (boundary || ((m & M_START) && !l->seen_boundary && !(seen & (M_ATTN | M_MLP)))) {
		close_span(l);
		l->seen_boundary = true;
		l->since_start = 0;
	}
	uint16_t work = (uint16_t)(m & (M_ATTN | M_MLP));
	if (m & M_ATTN) {
		/* Attention kernels in a row are one unit (compute and its
		 * combine / reduce): one per layer. */
		if (!l->in_attn) {
			if (l->units == 0) {
				/* the segment before the first unit: layer 0's head */
				uint32_t k = l->ngap < MAX_PRE ? l->ngap : MAX_PRE;
				memcpy(l->pre, l->gap + (l->ngap - k), k * sizeof *l->pre);
				l->npre = k;
				l->pre_len = l->skernels;
				l->pre_ns = l->sns;
				l->pre_start = l->seen_boundary ? (int32_t)l->since_start : -1;
				l->dbg_pre_end = l->ndbg_cur;
			} else if (l->seg.marks & M_ATTN) {
				structural_boundary(l);
			}
			l->units++;
			l->attn_units++;
		}
		if (!l->replaying)
			track_unit(l, row);
		l->ngap = 0;
		l->in_attn = true;
	} else {
		if (l->in_attn || (l->ngap == 0 && !(l->seg.marks & M_ATTN)))
			l->marks_at_gap = l->seg.marks;
		/* Layer work (a GEMM, MLP, a norm, a collective) or a kernel
		 * no rule knows ends the attention unit; a copy, cache write
		 * or elementwise kernel between two attention kernels (the two
		 * runs of a mixed batch, a merge of cascade states) does not. */
		if (m & (M_GEMM | M_MLP | M_START | M_EMBED | M_SAMPLE | M_ENDS))
			l->in_attn = false;
		if ((l->seg.marks & M_ATTN) && !l->opts.split_half_layers) {
			/* MLP work comes after the post-attention norm, the norm
			 * after the attention's output projection (a GEMM): a
			 * norm or an activation inside the attention block (the
			 * gated norm of a delta net, an output gate) is not it.
			 * There a GEMM is MLP work too (the MLP of a model whose
			 * activation hides in an Inductor fusion). */
			if ((m & M_START) && l->seg.post_gemms)
				l->start_after_attn = true;
			else if ((m & M_GEMM) && l->start_after_attn)
				work |= M_FC;
			else if (!l->start_after_attn)
				work &= (uint16_t)~M_FC;
		}
		if (l->ngap == MAX_GAP) {   /* keep the newest half */
			memmove(l->gap, l->gap + MAX_GAP / 2, (MAX_GAP / 2) * sizeof *l->gap);
			l->ngap = MAX_GAP / 2;
		}
		l->gap[l->ngap++] = (gap_ent){ dur, row, (uint16_t)((m & ~M_MLP) | work) };
	}
	if ((m & M_GEMM) && (l->seg.marks & M_ATTN))
		l->seg.post_gemms++;
	l->since_start++;
	l->seg.kernels++;
	l->seg.ns = ts_sat_add(l->seg.ns, dur);
	l->seg.marks |= work;
	l->skernels++;
	l->sns = ts_sat_add(l->sns, dur);
	return true;
}

/* Feed the pass's kernels through the machine again (its rows' marks have
 * changed); false when the pass's kernels are not all held. The listing
 * keeps its entries and takes the new layer of each. */
static bool relayer_pass(ts_layers *l)
{
	size_t n = l->nkbuf - l->kbuf0;
	if (l->cur.kernels != n)
		return false;
	size_t listed = l->ndbg_cur;
	bool relabel = l->track && l->dbg_all && listed == n;
	l->structural -= l->pass_structural;
	l->attn_units -= l->units;
	reset_structure(l);
	l->cur.cut_start = false;
	l->cur.orphan_kernels = 0;
	l->cur.orphan_ns = 0;
	l->replaying = true;
	for (size_t i = 0; i < n; i++) {
		const kernel_ent *k = &l->kbuf[l->kbuf0 + i];
		bool in = structure_kernel(l, k->row, k->marks, k->dur);
		if (relabel) {
			l->dbg_cur[i].layer = in ? l->nlayers : UINT32_MAX;
			l->ndbg_cur = i + 1;
		}
	}
	l->replaying = false;
	if (!relabel) {
		l->ndbg_cur = listed;
		l->dbg_lost = true;   /* no anatomy or sample from this pass */
	}
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The median of the n values v (sorted in place). */
static uint64_t median_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool far_off(uint64_t x, uint64_t typical)
{
	return typical > 0 && (2 * x < typical || x > 2 * typical);
}

/* The self-check of a complete pass: each layer against the typical layer
 * of its type in the pass. */
static void check_layers(ts_layers *l, uint32_t pass, uint32_t n)
{
	uint64_t *ns = l->chk, *kn = l->chk + TS_MAX_LAYERS;
	for (int t = 0; t < TS_LT_COUNT; t++) {
		size_t k = 0;
		for (uint32_t i = 0; i < n; i++)
			if (layer_type(l->layers[i].marks) == (ts_ltype)t) {
				ns[k] = (uint64_t)(l->layers[i].ns > 0 ? l->layers[i].ns : 0);
				kn[k++] = l->layers[i].kernels;
			}
		if (k < 3)
			continue;
		uint64_t tns = median_u64(ns, k), tkn = median_u64(kn, k);
		for (uint32_t i = 0; i < n; i++) {
			const cur_layer *c = &l->layers[i];
			if (layer_type(c->marks) != (ts_ltype)t ||
			    !(far_off((uint64_t)(c->ns > 0 ? c->ns : 0), tns) || far_off(c->kernels, tkn)))
				continue;
			if (l->nodd < TS_MAX_ODD)
				l->odd[l->nodd++] = (ts_odd_layer){
					.pass = pass, .layer = i, .type = (ts_ltype)t, .ns = c->ns,
					.typical_ns = (int64_t)tns, .kernels = c->kernels,
					.typical_kernels = (uint32_t)tkn };
			l->odd_total++;
		}
	}
}

size_t ts_layers_odd(const ts_layers *l, const ts_odd_layer **out, uint64_t *total)
{
	*out = l->odd;
	*total = l->odd_total;
	return l->nodd;
}

uint64_t ts_layers_once_units(const ts_layers *l)
{
	return l->once_units;
}

/* carry: the next kernel is in the same step as this pass. */
static void end_pass(ts_layers *l, bool at_trace_end, bool carry)
{
	if (!l->in_pass)
		return;
	l->in_pass = false;
	ts_idle_end(l->idle, &l->cur.idle);
	/* A kernel typed attention that ran once in the pass is not a layer's
	 * attention: lay the pass out again without it. */
	uint32_t once = demote_once_units(l);
	if (once && relayer_pass(l))
		l->once_units += once;
	/* The open span: the pass tail (final norm, LM head) when it holds no
	 * layer work; a layer cut off by the end of the capture otherwise.
	 * With no marker after the last attention, the last layer keeps as
	 * many kernels after it as the structural splits left in the others;
	 * the rest is the pass tail. */
	bool finished = false;
	if ((l->seg.marks & M_ATTN) && !l->in_attn && l->tail_len >= 0 &&
	    l->ngap > (uint32_t)l->tail_len) {
		uint32_t keep = (uint32_t)l->tail_len, n = l->ngap - keep;
		cur_layer tail;
		take_tail(l, l->gap + keep, n, &tail);
		l->seg.marks = l->marks_at_gap;
		for (uint32_t i = 0; i < keep; i++)
			l->seg.marks |= (uint16_t)(l->gap[i].marks & (M_ATTN | M_MLP));
		l->cur.orphan_kernels += tail.kernels;
		l->cur.orphan_ns = ts_sat_add(l->cur.orphan_ns, tail.ns);
		if (l->track)
			debug_relabel(l, n, l->nlayers, UINT32_MAX);
		finished = true;
	}
	if (is_layer(l, l->seg.marks) && at_trace_end && !finished)
		l->cur.cut_end = true;
	close_span(l);
	ts_pass *p = &l->cur;
	p->layers = l->nlayers;
	if (p->layers == 0) {
		/* No layer: not a forward pass (warm-up, capture, copies). Its
		 * kernels take the stage of the pass of their step: the one
		 * that ended in it, or the next one, when the step goes on. */
		l->orphan_kernels += p->kernels;
		l->orphan_ns = ts_sat_add(l->orphan_ns, p->gpu_ns);
		if (l->step >= 0 && l->step == l->last_step) {
			stage_kernels(l, l->last_stage, l->kbuf, l->nkbuf);
		} else if (carry) {
			return;   /* kbuf goes on into the next pass */
		} else {
			stage_kernels(l, TS_PSTAGE_UNKNOWN, l->kbuf, l->nkbuf);
		}
		l->nkbuf = 0;
		return;
	}
	/* Evidence that a pass began at its start outweighs how its head looks:
	 * it opened with its embedding, or it is the first pass of a step
	 * annotation, or it is a later pass with at least as many layers as
	 * the passes before it most often had (the same structure in every
	 * pass is the model's; a profile window cuts its first pass). */
	if (p->cut_start) {
		uint32_t mode = 0;
		for (uint32_t i = 1; i <= TS_MAX_LAYERS; i++)
			if (l->all_hist[i] >= l->all_hist[mode] && l->all_hist[i])   /* ties: the larger */
				mode = i;
		if (l->embed_first || (l->step >= 0 && l->step != l->last_step) ||
		    (l->pass_count > 0 && l->all_hist[mode] && p->layers >= mode))
			p->cut_start = false;
	}
	l->all_hist[p->layers < TS_MAX_LAYERS ? p->layers : TS_MAX_LAYERS]++;
	p->complete = !p->cut_start && !p->cut_end;
	p->index = l->pass_count++;
	vote(l, p);
	for (uint32_t i = 0; i < l->nlayers && i < TS_MAX_LAYERS; i++)
		l->type_count[layer_type(l->layers[i].marks)]++;
	uint32_t n = l->nlayers < TS_MAX_LAYERS ? l->nlayers : TS_MAX_LAYERS;
	if (p->complete) {
		l->count_hist[p->layers < TS_MAX_LAYERS ? p->layers : TS_MAX_LAYERS]++;
		check_layers(l, p->index, n);
	}
	if (l->npasses == l->passes_cap && l->passes_cap < TS_MAX_PASSES) {
		size_t cap = l->passes_cap ? l->passes_cap * 2 : 16;
		ts_pass *np = realloc(l->passes, cap * sizeof *np);
		if (np) {
			l->passes = np;
			l->passes_cap = cap;
		}
	}
	bool kept = l->npasses < l->passes_cap;
	size_t idx = l->npasses;
	if (kept)
		l->passes[l->npasses++] = *p;
	else
		l->passes_dropped++;
	l->last_step = l->step;
	if (p->stage == TS_PSTAGE_UNKNOWN && kept && hold_pending(l, idx, n)) {
		l->last_stage = TS_PSTAGE_UNKNOWN;
	} else {
		if (p->layers && (p->stage == TS_PSTAGE_PREFILL || p->stage == TS_PSTAGE_DECODE)) {
			l->known_ns[p->stage] += p->gpu_ns;
			l->known_layers[p->stage] += p->layers;
		}
		stage_kernels(l, p->stage, l->kbuf, l->nkbuf);
		l->nkbuf = 0;
		if (p->complete) {
			add_layers(l, p->stage, l->layers, n);
			size_t na;
			if (anatomy_list(l, &na))
				ts_anatomy_add(l->anatomy, p->stage, l->anat_tmp, na, n);
			else
				ts_anatomy_skip(l->anatomy, p->stage);
		}
		uint32_t mid;
		size_t k = p->complete ? middle_layer(l, &mid) : 0;
		if (k) {
			ts_layer_sample c = { .layer = mid, .layers = l->nlayers, .instances = 1,
					      .n = k, .k = l->samp_tmp };
			offer_sample(l, p->stage, &c);
		}
		if (!kept)
			add_stage(l, p);
		l->last_stage = p->stage;
	}
	if (l->opts.debug && p->complete && !l->dbg_done) {
		size_t k = 0;
		for (size_t i = 0; i < l->ndbg_cur; i++) {
			uint32_t li = l->dbg_cur[i].layer;
			if (li < TS_MAX_LAYERS && l->opts.debug_layers[li])
				l->dbg_kept[k++] = l->dbg_cur[i];
		}
		l->ndbg_kept = k;
		l->dbg_done = true;
	}
}

void ts_layers_kernel(ts_layers *l, const ts_event *ev, uint32_t row,
		      const ts_kclass *c, const ts_kref *ref, bool in_context)
{
	static const ts_kref none = { .op = TS_INTERN_NONE, .wl = TS_INTERN_NONE };
	if (!ref)
		ref = &none;
	int64_t op_m = ref->m ? (int64_t)ref->m : -1;
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR))
		return;
	l->last_kernel_ts = ev->ts_ns;
	l->kernels_seen++;
	uint16_t m = marks_for(l, row, c, ev->name, ev->name_len, in_context);
	/* Layer work: a layer, MLP work, or attention with a GEMM after it (a
	 * lone attention kernel before the embedding is the pass's metadata
	 * step, not a layer of the previous pass). */
	bool has_work = l->nlayers > 0 || (l->seg.marks & M_MLP) ||
			((l->seg.marks & M_ATTN) && l->seg.post_gemms);

	/* Step annotations split passes (see kernel_step). */
	int an = l->nann ? kernel_step(l, ev) : -1;
	int64_t step = an >= 0 ? (int64_t)l->ann[an].group : -1;
	bool step_edge = false;
	/* Past the end of the pass's GPU step window: that step is over. */
	if (l->in_pass && an < 0 && has_work && l->step >= 0 &&
	    l->group_gpu_end[l->step] >= 0 && ev->ts_ns >= l->group_gpu_end[l->step])
		step_edge = true;
	if (l->in_pass && step >= 0 && step != l->step)
		step_edge = true;
	/* Pass edges: an embedding starts a pass once the current one has
	 * layer work; the first kernel after sampling starts the next. */
	if (l->in_pass && (step_edge || ((m & M_EMBED) && has_work) ||
			   (l->after_sampling && !(m & M_SAMPLE))))
		end_pass(l, false, !step_edge && l->step >= 0);
	if (!l->in_pass) {
		start_pass(l, ev);
		l->step = step;
		l->step_ann = an;
	}
	ts_idle_kernel(l->idle, ev, row,
		       ref->op == TS_INTERN_NONE ? TS_INTERN_NONE : ref->op & ~TS_KREF_FIRST,
		       (m & (M_ATTN | M_MLP | M_GEMM)) != 0);
	if (m & M_SAMPLE)
		l->after_sampling = l->nlayers > 0 || (l->seg.marks & M_ATTN);
	if ((m & M_EMBED) && l->units == 0)
		l->embed_first = true;
	if (m & M_TRAIN)
		l->backward_ops++;

	uint16_t km = (uint16_t)(m | (c->type == TS_TYPE_OTHER ||
					 c->type == TS_TYPE_COMMUNICATION ? M_ENDS : 0));
	bool in_span = structure_kernel(l, row, km, ev->dur_ns);
	if ((m & M_TOKENS) && (ev->has & TS_HAS_GRID) && ev->grid[0] > l->tokens_max)
		l->tokens_max = ev->grid[0];

	if (l->nkbuf == l->kbuf_cap && l->kbuf_cap < TS_MAX_PASS_KERNELS) {
		size_t cap = l->kbuf_cap ? l->kbuf_cap * 2 : 1024;
		kernel_ent *k = realloc(l->kbuf, cap * sizeof *k);
		if (k) {
			l->kbuf = k;
			l->kbuf_cap = cap;
		}
	}
	if (l->nkbuf < l->kbuf_cap) {
		l->kbuf[l->nkbuf++] = (kernel_ent){ row, *ref, ev->dur_ns, in_context, km };
	} else {
		stage_kernel(l, TS_PSTAGE_UNKNOWN, row, ref, ev->dur_ns, in_context);
		l->stage_overflow++;
	}

	ts_pass *p = &l->cur;
	p->kernels++;
	p->gpu_ns = ts_sat_add(p->gpu_ns, ev->dur_ns);
	if (ev->ts_ns + ev->dur_ns > p->last_end)
		p->last_end = ev->ts_ns + ev->dur_ns;
	if (c->stage == TS_STAGE_PREFILL)
		l->hint_prefill++;
	else if (c->stage == TS_STAGE_DECODE)
		l->hint_decode++;
	if (c->type == TS_TYPE_GEMM && op_m > 0) {
		if (op_m <= decode_threshold(l))
			l->gemm_small++;
		else
			l->gemm_large++;
		if (p->gemm_m_min < 0 || op_m < p->gemm_m_min)
			p->gemm_m_min = op_m;
		if (op_m > p->gemm_m_max)
			p->gemm_m_max = op_m;
	}
	/* a structural boundary may move this kernel to the next layer */
	if (l->track && l->nlayers < TS_MAX_LAYERS &&
	    (l->opts.sample || l->anatomy || l->opts.debug_layers[l->nlayers] ||
	     (l->nlayers + 1 < TS_MAX_LAYERS && l->opts.debug_layers[l->nlayers + 1])) &&
	    l->ndbg_cur < TS_MAX_DEBUG_KERNELS) {
		if (reserve_items((void **)&l->dbg_cur, &l->dbg_cap, l->ndbg_cur + 1,
				  sizeof *l->dbg_cur, TS_MAX_DEBUG_KERNELS))
			l->dbg_cur[l->ndbg_cur++] = (ts_debug_kernel){
				.layer = in_span ? l->nlayers : UINT32_MAX, .row = row, .ts = ev->ts_ns, .dur = ev->dur_ns,
				.ref = *ref, .cls = *c };
		else
			l->dbg_lost = true;
	} else {
		l->dbg_all = false;
	}
}

/* Stage totals from the pass records (the dropped ones are added as they
 * end). A pass with no evidence stays unknown: no stage is guessed. */
static void add_stages(ts_layers *l)
{
	for (size_t i = 0; i < l->npasses; i++)
		add_stage(l, &l->passes[i]);
}

/* A training step: its forward kernels are no inference pass. Every pass
 * found is undone: its kernels are outside any pass, stage unknown. */
static void training_reset(ts_layers *l)
{
	for (size_t i = 0; i < l->npasses; i++) {
		l->orphan_kernels += l->passes[i].kernels;
		l->orphan_ns = ts_sat_add(l->orphan_ns, l->passes[i].gpu_ns);
	}
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		if (s != TS_PSTAGE_UNKNOWN) {   /* dropped records' kernels */
			l->orphan_kernels += l->stages[s].kernels;
			l->orphan_ns = ts_sat_add(l->orphan_ns, l->stages[s].gpu_ns);
		}
		l->stages[s] = (ts_stage_total){ 0 };
		for (uint32_t i = 0; l->lstat[s] && i < l->lmax[s]; i++)
			ts_stat_clear(&l->lstat[s][i].time);
		if (l->lstat[s])
			memset(l->lstat[s], 0, l->lmax[s] * sizeof *l->lstat[s]);
		l->lmax[s] = 0;
		free(l->samples[s].k);
		l->samples[s] = (ts_layer_sample){ 0 };
		if (s == TS_PSTAGE_UNKNOWN)
			continue;
		for (uint32_t i = 0; l->srows[s] && i < l->srows_cap; i++) {
			ts_stat_merge(&l->srows[TS_PSTAGE_UNKNOWN][i], &l->srows[s][i]);
			ts_stat_clear(&l->srows[s][i]);
			l->sctx[TS_PSTAGE_UNKNOWN][i].count += l->sctx[s][i].count;
			l->sctx[TS_PSTAGE_UNKNOWN][i].ns = ts_sat_add(l->sctx[TS_PSTAGE_UNKNOWN][i].ns,
								      l->sctx[s][i].ns);
			l->sctx[s][i] = (ts_ctx_stat){ 0 };
		}
		ts_stat_merge(&l->sother[TS_PSTAGE_UNKNOWN], &l->sother[s]);
		ts_stat_clear(&l->sother[s]);
		ts_stat_merge(&l->sall[TS_PSTAGE_UNKNOWN], &l->sall[s]);
		ts_stat_clear(&l->sall[s]);
	}
	l->npasses = 0;
	l->passes_dropped = 0;
	l->pass_count = 0;
	memset(l->type_count, 0, sizeof l->type_count);
	memset(l->count_hist, 0, sizeof l->count_hist);
	memset(l->all_hist, 0, sizeof l->all_hist);
	l->nodd = 0;
	l->odd_total = 0;
	l->structural = 0;
	l->once_units = 0;
	l->ndbg_kept = 0;
	if (l->anatomy) {
		ts_anatomy_free(l->anatomy);
		l->anatomy = ts_anatomy_new(ts_patterns_ncategories(l->patterns));
	}
}

void ts_layers_finish(ts_layers *l, uint32_t nrows)
{
	end_pass(l, true, false);
	while (l->npending)
		resolve_pending(l, 0);
	grow_srows(l, nrows);
	if (l->backward_ops)
		training_reset(l);
	add_stages(l);
}

const ts_stat *ts_layers_stage_rows(const ts_layers *l, ts_pstage s,
				    const ts_stat **other, const ts_stat **all)
{
	*other = &l->sother[s];
	*all = &l->sall[s];
	return l->srows[s];
}

const ts_ctx_stat *ts_layers_stage_ctx(const ts_layers *l, ts_pstage s)
{
	return l->sctx[s];
}

uint64_t ts_layers_stage_overflow(const ts_layers *l)
{
	return l->stage_overflow;
}

/* --------------------------------------------------------------- results */

size_t ts_layers_npasses(const ts_layers *l)
{
	return l->npasses;
}

const ts_pass *ts_layers_pass(const ts_layers *l, size_t i)
{
	return &l->passes[i];
}

uint64_t ts_layers_annotations_dropped(const ts_layers *l)
{
	return l->ann_dropped;
}

uint64_t ts_layers_passes_dropped(const ts_layers *l)
{
	return l->passes_dropped;
}

const ts_stage_total *ts_layers_stage(const ts_layers *l, ts_pstage s)
{
	return &l->stages[s];
}

uint32_t ts_layers_per_pass(const ts_layers *l)
{
	uint32_t best = 0;
	for (uint32_t n = 1; n <= TS_MAX_LAYERS; n++)
		if (l->count_hist[n] > l->count_hist[best] ||
		    (best == 0 && l->count_hist[n] > 0))
			best = n;
	return l->count_hist[best] ? best : 0;
}

uint64_t ts_layers_structural(const ts_layers *l)
{
	return l->structural;
}

uint64_t ts_layers_type_count(const ts_layers *l, ts_ltype t)
{
	return l->type_count[t];
}

uint32_t ts_layers_max_index(const ts_layers *l, ts_pstage s)
{
	return l->lmax[s];
}

const ts_layer_stat *ts_layers_stat(const ts_layers *l, ts_pstage s, uint32_t i)
{
	static const ts_layer_stat none;
	return l->lstat[s] && i < TS_MAX_LAYERS ? &l->lstat[s][i] : &none;
}

uint64_t ts_layers_outside(const ts_layers *l, int64_t *ns)
{
	*ns = l->orphan_ns;
	return l->orphan_kernels;
}

uint64_t ts_layers_orphans(const ts_layers *l, int64_t *ns)
{
	uint64_t k = l->orphan_kernels;
	int64_t t = l->orphan_ns;
	for (size_t i = 0; i < l->npasses; i++) {
		k += l->passes[i].orphan_kernels;
		t += l->passes[i].orphan_ns;
	}
	*ns = t;
	return k;
}

long ts_layers_expected(const ts_layers *l, const ts_family *f, bool forced,
			long score, char *why, size_t whylen)
{
	/* Split, a hidden layer is two spans. */
	long per = l->opts.split_half_layers ? 2 : 1;
	if (l->opts.expect_layers > 0) {
		snprintf(why, whylen, "--expect-layers %ld", l->opts.expect_layers);
		return per * l->opts.expect_layers;
	}
	if (!f) {
		snprintf(why, whylen, "no model family known");
		return 0;
	}
	if (!forced && (f->sure_score <= 0 || score < f->sure_score)) {
		if (f->sure_score <= 0)
			snprintf(why, whylen, "family %s is detected from generic evidence only", f->name);
		else
			snprintf(why, whylen, "family %s detected with score %ld, below its sure_score %ld",
				 f->name, score, f->sure_score);
		return 0;
	}
	if (f->nnum_layers == 0) {
		snprintf(why, whylen, "family %s lists no num_hidden_layers", f->name);
		return 0;
	}
	if (forced)
		snprintf(why, whylen, "num_hidden_layers of family %s (--model)", f->name);
	else
		snprintf(why, whylen, "num_hidden_layers of family %s (detected, score %ld >= sure_score %ld)",
			 f->name, score, f->sure_score);
	uint32_t got = ts_layers_per_pass(l);
	for (size_t i = 0; i < f->nnum_layers; i++)
		if (per * f->num_layers[i] == (long)got)
			return (long)got;
	return per * f->num_layers[0];
}

/* Append to a bounded buffer, space-separated. */
static void append(char *buf, size_t n, size_t *k, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t n, size_t *k, const char *fmt, ...)
{
	if (*k + 2 >= n)
		return;
	if (*k)
		buf[(*k)++] = ' ';
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(buf + *k, n - *k, fmt, ap);
	va_end(ap);
	if (w > 0)
		*k = (size_t)w < n - *k ? *k + (size_t)w : n - 1;
	buf[*k] = 0;
}

void ts_pass_evidence(const ts_layers *l, const ts_pass *p, char *buf, size_t n)
{
	size_t k = 0;
	(void)l;
	if (!n)
		return;
	buf[0] = 0;
	if (p->signal[TS_SIG_ANNOTATION] != TS_PSTAGE_UNKNOWN)
		append(buf, n, &k, "annotation=%s", ts_pstage_name(p->signal[TS_SIG_ANNOTATION]));
	if (p->hints_prefill || p->hints_decode)
		append(buf, n, &k, "hints=%" PRIu32 "p/%" PRIu32 "d", p->hints_prefill, p->hints_decode);
	if (p->gemm_m_max > 0)
		append(buf, n, &k, "gemm_m=%" PRId64 "..%" PRId64, p->gemm_m_min, p->gemm_m_max);
	if (p->kv_grid > 0)
		append(buf, n, &k, "kv_grid=%" PRId64, p->kv_grid);
	if (p->only_prefill || p->only_decode)
		append(buf, n, &k, "only_in=%" PRIu32 "p/%" PRIu32 "d", p->only_prefill, p->only_decode);
	if (p->duration_ratio > 0)
		append(buf, n, &k, "layer_time=x%.2g_%s", p->duration_ratio,
		       ts_pstage_name(p->duration_ref));
}

bool ts_layers_note(const ts_layers *l, char *buf, size_t n)
{
	uint64_t complete = 0, partial = 0, cut_start = 0, cut_end = 0, layers = 0;
	for (size_t i = 0; i < l->npasses; i++) {
		const ts_pass *p = &l->passes[i];
		layers += p->layers;
		complete += p->complete;
		partial += !p->complete;
		cut_start += p->cut_start;
		cut_end += p->cut_end;
	}
	if (complete)
		return false;
	if (l->captures)
		snprintf(buf, n, "a CUDA/HIP graph capture (%" PRIu64 " captures begun): its kernels "
			 "ran while graphs were recorded, not as forward passes", l->captures);
	else if (l->backward_ops)
		snprintf(buf, n, "a training step (%" PRIu64 " autograd backward ops and backward "
			 "kernels), not inference: no inference pass, layer or stage is reported",
			 l->backward_ops);
	else if (l->kernels_seen == 0 && l->launches)
		snprintf(buf, n, "no GPU kernels, though the CPU launched %" PRIu64 ": the profiler "
			 "recorded no GPU activity (profile with ProfilerActivity.CUDA)", l->launches);
	else if (l->kernels_seen == 0 && l->cpu_ops)
		snprintf(buf, n, "no GPU kernels: this looks like a front-end process (%" PRIu64
			 " CPU ops, no kernel launch), such as an API server; profile the worker "
			 "that runs the model", l->cpu_ops);
	else if (l->kernels_seen == 0)
		snprintf(buf, n, "no kernels in the trace");
	else if (l->attn_units == 0)
		snprintf(buf, n, "no attention kernel among %" PRIu64 " kernels, so no transformer "
			 "layer (see the unclassified kernels: an attention kernel no rule types?)",
			 l->kernels_seen);
	else if (partial && layers <= 2 && l->npasses == 1)
		snprintf(buf, n, "no complete pass: the window holds %" PRIu64 " kernels, %s",
			 l->kernels_seen, layers <= 1 ? "part of a layer" : "parts of two layers");
	else if (partial)
		snprintf(buf, n, "the profile window cuts every pass (%" PRIu64 " partial: %" PRIu64
			 " began inside a layer, %" PRIu64 " ended inside one)",
			 partial, cut_start, cut_end);
	else
		snprintf(buf, n, "%" PRIu64 " attention kernels but no pass with a layer",
			 l->attn_units);
	return true;
}

size_t ts_layers_debug(const ts_layers *l, const ts_debug_kernel **out)
{
	*out = l->dbg_kept;
	return l->ndbg_kept;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static double deviation(double r)
{
	return r >= 1 ? r - 1 : 1 / r - 1;
}

size_t ts_layers_outliers(const ts_layers *l, ts_pstage s, ts_layer_outlier *out,
			  size_t max, int64_t *typical_ns)
{
	*typical_ns = 0;
	uint32_t n = l->lmax[s];
	int64_t *means = malloc((n ? n : 1) * sizeof *means);
	if (!means)
		return 0;
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		const ts_stat *t = &l->lstat[s][i].time;
		if (t->count)
			means[k++] = t->total / (int64_t)t->count;
	}
	if (k < 3) {      /* too few layers to say which is typical */
		free(means);
		return 0;
	}
	qsort(means, k, sizeof *means, cmp_i64);
	int64_t typ = means[(k - 1) / 2];
	free(means);
	*typical_ns = typ;
	if (typ <= 0)
		return 0;
	size_t m = 0;
	for (uint32_t i = 0; i < n; i++) {
		const ts_layer_stat *st = &l->lstat[s][i];
		if (!st->time.count)
			continue;
		int64_t mean = st->time.total / (int64_t)st->time.count;
		double r = (double)mean / (double)typ;
		if (mean <= 0 || deviation(r) * 100 <= TS_OUTLIER_PCT)
			continue;
		int best = TS_LT_UNKNOWN;
		uint64_t bc = 0;
		for (int t = 0; t < TS_LT_COUNT; t++)
			if (st->type_count[t] > bc) {
				bc = st->type_count[t];
				best = t;
			}
		ts_layer_outlier o = { i, mean, r, (ts_ltype)best };
		/* insertion into the largest deviations kept */
		size_t j = m < max ? m++ : max;
		while (j > 0 && deviation(out[j - 1].ratio) < deviation(r)) {
			if (j < max)
				out[j] = out[j - 1];
			j--;
		}
		if (j < max)
			out[j] = o;
	}
	return m;
}

/* ------------------------------------------------------ saved partials */

static uint32_t map_row(uint32_t row, const uint32_t *map, uint32_t n)
{
	return map && row < n ? map[row] : TS_INTERN_NONE;
}

static void idle_save(const ts_idle_pass *d, ts_wbuf *w)
{
	ts_w_i64(w, d->start_ns);
	ts_w_i64(w, d->span_ns);
	ts_w_i64(w, d->busy_ns);
	ts_w_i64(w, d->idle_ns);
	ts_w_u64(w, d->gaps);
	ts_w_i64(w, d->largest_ns);
	ts_w_i64(w, d->largest_at);
	ts_w_u32(w, d->largest_before);
	ts_w_u32(w, d->largest_after);
	ts_w_u32(w, d->largest_op);
	ts_w_u64(w, d->launch_gaps);
	ts_w_i64(w, d->launch_ns);
	ts_w_u64(w, d->launch_checked);
	ts_w_u64(w, d->stray_kernels);
	ts_w_i64(w, d->stray_ns);
}

static void idle_load(ts_idle_pass *d, ts_rbuf *r, const uint32_t *kmap, uint32_t nk,
		      const uint32_t *opmap, uint32_t nop)
{
	d->start_ns = ts_r_i64(r);
	d->span_ns = ts_r_i64(r);
	d->busy_ns = ts_r_i64(r);
	d->idle_ns = ts_r_i64(r);
	d->gaps = ts_r_u64(r);
	d->largest_ns = ts_r_i64(r);
	d->largest_at = ts_r_i64(r);
	d->largest_before = map_row(ts_r_u32(r), kmap, nk);
	d->largest_after = map_row(ts_r_u32(r), kmap, nk);
	d->largest_op = map_row(ts_r_u32(r), opmap, nop);
	d->launch_gaps = ts_r_u64(r);
	d->launch_ns = ts_r_i64(r);
	d->launch_checked = ts_r_u64(r);
	d->stray_kernels = ts_r_u64(r);
	d->stray_ns = ts_r_i64(r);
}

static void pass_save(const ts_layers *l, const ts_pass *p, ts_wbuf *w)
{
	ts_w_u32(w, p->index);
	ts_w_u32(w, (uint32_t)p->stage);
	for (int s = 0; s < TS_SIG_COUNT; s++)
		ts_w_u32(w, (uint32_t)p->signal[s]);
	ts_w_i64(w, p->gemm_m_min);
	ts_w_i64(w, p->gemm_m_max);
	ts_w_i64(w, p->kv_grid);
	ts_w_u32(w, p->hints_prefill);
	ts_w_u32(w, p->hints_decode);
	ts_w_u32(w, p->only_prefill);
	ts_w_u32(w, p->only_decode);
	ts_w_f64(w, p->duration_ratio);
	ts_w_u32(w, (uint32_t)p->duration_ref);
	ts_w_f64(w, p->confidence);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++)
		ts_w_i64(w, p->votes[s]);
	ts_w_u8(w, p->complete);
	ts_w_u8(w, p->cut_start);
	ts_w_u8(w, p->cut_end);
	ts_w_i64(w, p->first_ts);
	ts_w_i64(w, p->last_end);
	ts_w_i64(w, p->gpu_ns);
	ts_w_u64(w, p->kernels);
	ts_w_u32(w, p->layers);
	ts_w_u64(w, p->orphan_kernels);
	ts_w_i64(w, p->orphan_ns);
	ts_w_i64(w, p->batch);
	ts_w_i64(w, p->tokens);
	const char *ann = ts_layers_annotation_name(l, p->annotation);
	ts_w_str(w, ann ? ann : "", ann ? strlen(ann) : 0);
	idle_save(&p->idle, w);
}

static bool stage_ok(uint32_t s)
{
	return s < TS_PSTAGE_COUNT;
}

static void pass_load(ts_layers *l, ts_pass *p, ts_rbuf *r, const uint32_t *kmap, uint32_t nk,
		      const uint32_t *opmap, uint32_t nop)
{
	memset(p, 0, sizeof *p);
	p->index = ts_r_u32(r);
	uint32_t st = ts_r_u32(r);
	bool ok = stage_ok(st);
	p->stage = (ts_pstage)st;
	for (int s = 0; s < TS_SIG_COUNT; s++) {
		uint32_t v = ts_r_u32(r);
		ok &= stage_ok(v);
		p->signal[s] = (ts_pstage)v;
	}
	p->gemm_m_min = ts_r_i64(r);
	p->gemm_m_max = ts_r_i64(r);
	p->kv_grid = ts_r_i64(r);
	p->hints_prefill = ts_r_u32(r);
	p->hints_decode = ts_r_u32(r);
	p->only_prefill = ts_r_u32(r);
	p->only_decode = ts_r_u32(r);
	p->duration_ratio = ts_r_f64(r);
	uint32_t ref = ts_r_u32(r);
	ok &= stage_ok(ref);
	p->duration_ref = (ts_pstage)ref;
	p->confidence = ts_r_f64(r);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		int64_t v = ts_r_i64(r);
		p->votes[s] = v < 0 ? 0 : v > INT_MAX ? INT_MAX : (int)v;
	}
	p->complete = ts_r_u8(r);
	p->cut_start = ts_r_u8(r);
	p->cut_end = ts_r_u8(r);
	p->first_ts = ts_r_i64(r);
	p->last_end = ts_r_i64(r);
	p->gpu_ns = ts_r_i64(r);
	p->kernels = ts_r_u64(r);
	p->layers = ts_r_u32(r);
	p->orphan_kernels = ts_r_u64(r);
	p->orphan_ns = ts_r_i64(r);
	p->batch = ts_r_i64(r);
	p->tokens = ts_r_i64(r);
	size_t n;
	const char *ann = ts_r_str(r, &n);
	p->annotation = -1;
	if (n && !r->err) {
		uint32_t id;
		if (ts_intern_put(l->ann_names, ann, n, &id) == TS_OK)
			p->annotation = (int)id;
	}
	idle_load(&p->idle, r, kmap, nk, opmap, nop);
	if (!ok)
		ts_r_fail(r, "a pass with a stage out of range");
}

void ts_layers_save(const ts_layers *l, ts_wbuf *w)
{
	ts_w_u64(w, l->pass_count);
	ts_w_u64(w, l->passes_dropped);
	ts_w_u64(w, l->npasses);
	for (size_t i = 0; i < l->npasses; i++)
		pass_save(l, &l->passes[i], w);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_stage_total *t = &l->stages[s];
		ts_w_u32(w, t->passes);
		ts_w_u32(w, t->complete_passes);
		ts_w_u64(w, t->layers);
		ts_w_u64(w, t->kernels);
		ts_w_i64(w, t->gpu_ns);
		idle_save(&t->idle, w);
		ts_w_u64(w, l->lmax[s]);
		for (uint32_t i = 0; i < l->lmax[s]; i++) {
			const ts_layer_stat *ls = &l->lstat[s][i];
			ts_stat_save(&ls->time, w);
			ts_w_u64(w, ls->kernels);
			for (int k = 0; k < TS_LT_COUNT; k++)
				ts_w_u64(w, ls->type_count[k]);
		}
		uint64_t used = 0;
		for (uint32_t i = 0; l->srows[s] && i < l->srows_cap; i++)
			used += l->srows[s][i].count > 0 || l->sctx[s][i].count > 0;
		ts_w_u64(w, used);
		for (uint32_t i = 0; l->srows[s] && i < l->srows_cap; i++) {
			if (!l->srows[s][i].count && !l->sctx[s][i].count)
				continue;
			ts_w_u32(w, i);
			ts_stat_save(&l->srows[s][i], w);
			ts_w_u64(w, l->sctx[s][i].count);
			ts_w_i64(w, l->sctx[s][i].ns);
		}
		ts_stat_save(&l->sother[s], w);
		ts_w_u64(w, l->sall[s].count);
		ts_w_i64(w, l->sall[s].total);
	}
	for (int k = 0; k < TS_LT_COUNT; k++)
		ts_w_u64(w, l->type_count[k]);
	uint64_t nh = 0;
	for (uint32_t i = 0; i <= TS_MAX_LAYERS; i++)
		nh += l->count_hist[i] > 0;
	ts_w_u64(w, nh);
	for (uint32_t i = 0; i <= TS_MAX_LAYERS; i++)
		if (l->count_hist[i]) {
			ts_w_u32(w, i);
			ts_w_u32(w, l->count_hist[i]);
		}
	ts_w_u64(w, l->orphan_kernels);
	ts_w_i64(w, l->orphan_ns);
	ts_w_u64(w, l->stage_overflow);
	ts_w_u64(w, l->structural);
	ts_w_u64(w, l->attn_units);
	ts_w_u64(w, l->kernels_seen);
	ts_w_u64(w, l->captures);
	ts_w_u64(w, l->backward_ops);
	ts_w_u64(w, l->ann_dropped);
	ts_w_u8(w, l->anatomy != NULL);
	if (l->anatomy)
		ts_anatomy_save(l->anatomy, l->patterns, w);
}

ts_status ts_layers_load(ts_layers *l, ts_rbuf *r, const uint32_t *kmap, uint32_t nk,
			 const uint32_t *opmap, uint32_t nop, const uint32_t *wlmap, uint32_t nwl)
{
	uint32_t base = l->pass_count;
	l->pass_count += (uint32_t)ts_r_u64(r);
	l->passes_dropped += ts_r_u64(r);
	uint64_t np = ts_r_count(r, 100);
	for (uint64_t i = 0; i < np && !r->err; i++) {
		ts_pass p;
		pass_load(l, &p, r, kmap, nk, opmap, nop);
		if (r->err)
			break;
		p.index += base;
		if (l->npasses == l->passes_cap && l->passes_cap < TS_MAX_PASSES) {
			size_t cap = l->passes_cap ? l->passes_cap * 2 : 16;
			ts_pass *g = realloc(l->passes, cap * sizeof *g);
			if (!g)
				return TS_ERR_NOMEM;
			l->passes = g;
			l->passes_cap = cap;
		}
		if (l->npasses < l->passes_cap)
			l->passes[l->npasses++] = p;
		else
			l->passes_dropped++;
	}
	for (int s = 0; s < TS_PSTAGE_COUNT && !r->err; s++) {
		ts_stage_total *t = &l->stages[s];
		t->passes += ts_r_u32(r);
		t->complete_passes += ts_r_u32(r);
		t->layers += ts_r_u64(r);
		t->kernels += ts_r_u64(r);
		t->gpu_ns = ts_sat_add(t->gpu_ns, ts_r_i64(r));
		ts_idle_pass idle;
		idle_load(&idle, r, kmap, nk, opmap, nop);
		if (!r->err)
			ts_idle_sum(&t->idle, &idle);
		uint64_t lmax = ts_r_u64(r);
		if (lmax > TS_MAX_LAYERS) {
			ts_r_fail(r, "more layer positions than a pass holds");
			break;
		}
		if (lmax && !l->lstat[s] && !(l->lstat[s] = calloc(TS_MAX_LAYERS, sizeof **l->lstat)))
			return TS_ERR_NOMEM;
		for (uint32_t i = 0; i < lmax && !r->err; i++) {
			ts_layer_stat *ls = &l->lstat[s][i];
			ts_status st = ts_stat_load(&ls->time, r);
			if (st != TS_OK)
				return st;
			ls->kernels += ts_r_u64(r);
			for (int k = 0; k < TS_LT_COUNT; k++)
				ls->type_count[k] += ts_r_u64(r);
		}
		if ((uint32_t)lmax > l->lmax[s])
			l->lmax[s] = (uint32_t)lmax;
		uint64_t used = ts_r_count(r, 4 + 8 * 8);
		for (uint64_t k = 0; k < used && !r->err; k++) {
			uint32_t row = map_row(ts_r_u32(r), kmap, nk);
			ts_stat tmp = { 0 };
			ts_status st = ts_stat_load(&tmp, r);
			uint64_t cc = ts_r_u64(r);
			int64_t cns = ts_r_i64(r);
			if (st == TS_OK && !r->err) {
				if (row == TS_INTERN_NONE) {
					st = ts_stat_merge(&l->sother[s], &tmp);
				} else if (!grow_srows(l, row + 1)) {
					st = TS_ERR_NOMEM;
				} else {
					st = ts_stat_merge(&l->srows[s][row], &tmp);
					l->sctx[s][row].count += cc;
					l->sctx[s][row].ns = ts_sat_add(l->sctx[s][row].ns, cns);
				}
			}
			ts_hist_clear(&tmp.hist);
			if (st != TS_OK)
				return st;
		}
		ts_status st = ts_stat_load(&l->sother[s], r);
		if (st != TS_OK)
			return st;
		l->sall[s].count += ts_r_u64(r);
		l->sall[s].total = ts_sat_add(l->sall[s].total, ts_r_i64(r));
	}
	for (int k = 0; k < TS_LT_COUNT; k++)
		l->type_count[k] += ts_r_u64(r);
	uint64_t nh = ts_r_count(r, 8);
	for (uint64_t k = 0; k < nh && !r->err; k++) {
		uint32_t i = ts_r_u32(r), v = ts_r_u32(r);
		if (i > TS_MAX_LAYERS)
			ts_r_fail(r, "a layer count past the largest");
		else
			l->count_hist[i] += v;
	}
	l->orphan_kernels += ts_r_u64(r);
	l->orphan_ns = ts_sat_add(l->orphan_ns, ts_r_i64(r));
	l->stage_overflow += ts_r_u64(r);
	l->structural += ts_r_u64(r);
	l->attn_units += ts_r_u64(r);
	l->kernels_seen += ts_r_u64(r);
	l->captures += ts_r_u64(r);
	l->backward_ops += ts_r_u64(r);
	l->ann_dropped += ts_r_u64(r);
	if (ts_r_u8(r) && !r->err) {
		if (!l->anatomy) {
			ts_r_fail(r, "a layer anatomy where this run keeps none");
			return TS_ERR_PARTIAL;
		}
		ts_status st = ts_anatomy_load(l->anatomy, l->patterns, r, kmap, nk, wlmap, nwl);
		if (st != TS_OK)
			return st;
	}
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}
