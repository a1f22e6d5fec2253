/*
 * steps.c - step annotations: their windows on the CPU and the GPU, their
 * steps, and the step each kernel belongs to (see steps.h).
 */
#include "analysis/structure/steps.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "input/base/grow.h"
#include "input/numtext.h"
#include "input/base/strfind.h"

typedef struct {
	int64_t ts, end;         /* end: INT64_MAX without a duration */
	ts_step_says says;
	uint32_t id;             /* the order it came in */
	uint32_t step;           /* its step's id */
	bool gpu;                /* gpu_user_annotation: a window on the GPU */
	bool sglang_step;        /* step[...] */
} ann_t;

typedef struct {
	uint32_t id;
	uint32_t best;           /* the annotation of the step that says most */
	int64_t gpu_end;         /* end of its GPU window, or -1 */
} step_t;

/* CPU ops by External id: the run of ids [lo, hi] recorded in one step's
 * window (ann: the annotation that holds them, -1: outside every step). */
typedef struct {
	int64_t lo, hi;
	int64_t ann;
} op_run;

struct ts_steps {
	ann_t *ann;              /* in arrival order (ids rise) */
	uint32_t *order;         /* indices into ann, by start */
	size_t nann, cap;
	step_t *steps;           /* by id */
	size_t nsteps, steps_cap;
	uint32_t next_ann, next_step;
	size_t ngpu;             /* GPU windows held */
	uint64_t dropped, compactions;
	int64_t hold_from, hold_keep, hold_clock;
	int64_t compacted_at;    /* hold_clock at the last compaction */
	ts_intern *names;
	op_run *runs;            /* by External id */
	size_t nruns, runs_cap;
	uint64_t runs_dropped;   /* ops not placed: the runs were full */
	uint64_t runs_unordered; /* ops whose id was below the last run's */
};

ts_steps *ts_steps_new(void)
{
	ts_steps *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->names = ts_intern_new(TS_STEPS_NAMES, 256 * 1024);
	if (!s->names) {
		free(s);
		return NULL;
	}
	s->hold_from = s->hold_clock = s->compacted_at = INT64_MIN;
	s->hold_keep = -1;
	return s;
}

void ts_steps_free(ts_steps *s)
{
	if (!s)
		return;
	free(s->ann);
	free(s->order);
	free(s->steps);
	free(s->runs);
	ts_intern_free(s->names);
	free(s);
}

/* ------------------------------------------------------------ lookups */

/* The index of annotation id, or -1 (never held, or dropped). */
static ptrdiff_t find_ann(const ts_steps *s, int64_t id)
{
	if (id < 0)
		return -1;
	size_t lo = 0, hi = s->nann;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ann[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nann && s->ann[lo].id == id ? (ptrdiff_t)lo : -1;
}

static step_t *find_step(const ts_steps *s, int64_t id)
{
	if (id < 0)
		return NULL;
	size_t lo = 0, hi = s->nsteps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->steps[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nsteps && s->steps[lo].id == id ? &s->steps[lo] : NULL;
}

/* Position in the sorted order of the first annotation starting after ts. */
static size_t upper_bound(const ts_steps *s, int64_t ts)
{
	size_t lo = 0, hi = s->nann;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ann[s->order[mid]].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* What an annotation tells: a stage, then batch and tokens; SGLang's own
 * step[...] over the execute_ window it opens when they say as much. */
static int score(const ann_t *a)
{
	return (a->says.stage != TS_PSTAGE_UNKNOWN) * 8 + (a->says.batch >= 0) * 4 +
	       (a->says.tokens >= 0) * 2 + a->sglang_step;
}

/* ------------------------------------------------------------ parsing */

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
static bool parse_step(const char *s, size_t n, ts_step_says *a)
{
	a->stage = TS_PSTAGE_UNKNOWN;
	a->batch = a->tokens = -1;
	if (ts_begins(s, n, "step[DECODE") || ts_begins(s, n, "step[EXTEND") ||
	    ts_begins(s, n, "step[PREFILL") || ts_begins(s, n, "step[MIXED")) {
		a->stage = s[5] == 'D' ? TS_PSTAGE_DECODE
			 : s[5] == 'M' ? TS_PSTAGE_MIXED : TS_PSTAGE_PREFILL;
		a->batch = number_after(s, n, "bs=");
		a->tokens = number_after(s, n, "toks=");
		if (a->tokens < 0 && a->stage == TS_PSTAGE_DECODE)
			a->tokens = a->batch;
		return true;
	}
	if (ts_begins(s, n, "execute_")) {
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
	if (ts_begins(s, n, "ProfilerStep#"))
		return true;
	return false;
}

/* ---------------------------------------------------------- compaction */

void ts_steps_hold(ts_steps *s, int64_t from, int64_t keep, int64_t clock)
{
	s->hold_from = from;
	s->hold_keep = keep;
	s->hold_clock = clock;
}

/* A step's record made again from its surviving annotations. */
static void restep(ts_steps *s, step_t *st, const ann_t *a, uint32_t at)
{
	if (st->best == UINT32_MAX || score(a) > score(&s->ann[st->best]))
		st->best = at;
	if (a->gpu && a->end > st->gpu_end)
		st->gpu_end = a->end;
}

/*
 * Drop the annotations whose window ended before hold_from: kernels move
 * forward in time, so those are not looked up again. (CPU events come
 * before the GPU block in real files, so before the first kernel nothing
 * can go: the cap then drops new ones, counted.)
 */
static void compact(ts_steps *s)
{
	size_t n = s->nann, k = 0;
	if (s->hold_from == INT64_MIN)
		return;
	uint32_t *newidx = malloc(n * sizeof *newidx);
	if (!newidx)
		return;
	/* survivors move down in arrival order; steps keep their ids, their
	 * best annotation and GPU end found again among the survivors (best
	 * held as an index while this runs) */
	for (size_t i = 0; i < s->nsteps; i++) {
		s->steps[i].best = UINT32_MAX;
		s->steps[i].gpu_end = -1;
	}
	for (size_t i = 0; i < n; i++) {
		newidx[i] = UINT32_MAX;
		const ann_t a = s->ann[i];
		if (a.end < s->hold_from && (int64_t)a.id != s->hold_keep)
			continue;
		newidx[i] = (uint32_t)k;
		s->ann[k] = a;
		restep(s, find_step(s, a.step), &s->ann[k], (uint32_t)k);
		k++;
	}
	size_t ns = 0;
	for (size_t i = 0; i < s->nsteps; i++)
		if (s->steps[i].best != UINT32_MAX) {
			s->steps[i].best = s->ann[s->steps[i].best].id;
			s->steps[ns++] = s->steps[i];
		}
	size_t no = 0;
	for (size_t j = 0; j < n; j++)
		if (newidx[s->order[j]] != UINT32_MAX)
			s->order[no++] = newidx[s->order[j]];
	s->ngpu = 0;
	for (size_t i = 0; i < k; i++)
		s->ngpu += s->ann[i].gpu;

	s->nann = k;
	s->nsteps = ns;
	s->compactions++;
	free(newidx);
	/* the ops of dropped windows go with them */
	size_t nr = 0;
	for (size_t i = 0; i < s->nruns; i++)
		if (find_ann(s, s->runs[i].ann) >= 0)
			s->runs[nr++] = s->runs[i];
	s->nruns = nr;
}

/* ------------------------------------------------------------ adding */

/* The step a new annotation (starting at position `at` of the order)
 * joins: SGLang opens step[...] inside its execute_ window, at the same
 * moment or just after: a window that starts inside the previous one of
 * its side (CPU or GPU) is the same step; a GPU window is the GPU side of
 * the CPU window of the same name that began last before it. -1: a new
 * step. */
static int64_t joins_step(const ts_steps *s, const ann_t *a, size_t at)
{
	for (size_t j = at; j-- > 0;) {
		const ann_t *prev = &s->ann[s->order[j]];
		if (prev->gpu != a->gpu)
			continue;
		if (prev->end > a->ts)
			return prev->step;
		break;
	}
	if (a->gpu)
		for (size_t j = at; j-- > 0;) {
			const ann_t *prev = &s->ann[s->order[j]];
			if (!prev->gpu && a->says.name != TS_INTERN_NONE && prev->says.name == a->says.name)
				return prev->step;
		}
	return -1;
}

static bool grow(ts_steps *s)
{
	ts_grow_part parts[] = {
		{ (void **)&s->ann, sizeof *s->ann }, { (void **)&s->order, sizeof *s->order },
	};
	if (!ts_grow_each(parts, sizeof parts / sizeof *parts, &s->cap, s->nann + 1, 64,
			  TS_STEPS_MAX, false))
		return false;
	/* every annotation may open a step */
	return ts_grow((void **)&s->steps, &s->steps_cap, s->nsteps + 1, sizeof *s->steps, 64,
		       TS_STEPS_MAX, false);
}

/* Insert a (its id set) in start order (they arrive sorted: the shift is
 * short) and into its step. */
static void insert(ts_steps *s, ann_t a)
{
	size_t at = upper_bound(s, a.ts);
	int64_t step = joins_step(s, &a, at);
	step_t *st = step >= 0 ? find_step(s, step) : NULL;
	if (!st) {
		st = &s->steps[s->nsteps++];
		*st = (step_t){ .id = s->next_step++, .best = a.id, .gpu_end = -1 };
	} else {
		ptrdiff_t b = find_ann(s, st->best);
		if (b < 0 || score(&a) > score(&s->ann[b]))
			st->best = a.id;
	}
	a.step = st->id;
	if (a.gpu && a.end > st->gpu_end)
		st->gpu_end = a.end;
	memmove(s->order + at + 1, s->order + at, (s->nann - at) * sizeof *s->order);
	s->order[at] = (uint32_t)s->nann;
	s->ann[s->nann++] = a;
	s->ngpu += a.gpu;
}

ts_step_kind ts_steps_annotation(ts_steps *s, const ts_event *ev)
{
	if ((ev->cat != TS_CAT_USER_ANNOTATION && ev->cat != TS_CAT_GPU_USER_ANNOTATION) ||
	    !(ev->has & TS_HAS_TS))
		return TS_STEP_NOT;
	ann_t a = { .ts = ev->ts_ns, .gpu = ev->cat == TS_CAT_GPU_USER_ANNOTATION };
	a.end = ev->has & TS_HAS_DUR ? ev->ts_ns + ev->dur_ns : INT64_MAX;
	if (!parse_step(ev->name, ev->name_len, &a.says)) {
		/* SGLang capture_<bs>_DECODE, vLLM capture_<n>_PIECEWISE */
		return !a.gpu && ts_begins(ev->name, ev->name_len, "capture_") ? TS_STEP_CAPTURE
									     : TS_STEP_NOT;
	}
	if (ts_intern_put(s->names, ev->name, ev->name_len < 200 ? ev->name_len : 200,
			  &a.says.name) != TS_OK)
		a.says.name = TS_INTERN_NONE;
	a.sglang_step = ts_begins(ev->name, ev->name_len, "step[");
	ts_step_kind kind = a.says.stage != TS_PSTAGE_UNKNOWN || a.says.tokens > 0
			  ? TS_STEP_STAGED : TS_STEP_PLAIN;
	if (s->nann >= TS_STEPS_MAX && s->nann == s->cap && s->hold_clock != s->compacted_at) {
		s->compacted_at = s->hold_clock;
		compact(s);
	}
	if (!grow(s)) {
		s->dropped++;
		return kind;
	}
	a.id = s->next_ann++;
	insert(s, a);
	return kind;
}

/* ------------------------------------------------------------ answers */

int64_t ts_steps_at(const ts_steps *s, int64_t ts, bool gpu)
{
	ptrdiff_t best = -1;
	for (size_t j = upper_bound(s, ts); j-- > 0;) {
		const ann_t *a = &s->ann[s->order[j]];
		if (a->gpu != gpu)
			continue;
		if (best >= 0 && a->step != s->ann[best].step)
			break;
		if (gpu && a->end <= ts)
			break;
		if (best < 0 || (s->ann[best].says.stage == TS_PSTAGE_UNKNOWN &&
				 a->says.stage != TS_PSTAGE_UNKNOWN))
			best = s->order[j];
	}
	return best < 0 ? -1 : (int64_t)s->ann[best].id;
}

int64_t ts_steps_size_at(const ts_steps *s, int64_t ts)
{
	ptrdiff_t i = find_ann(s, ts_steps_at(s, ts, false));
	if (i < 0 || s->ann[i].end < ts)
		return -1;
	ts_step_says b;
	if (!ts_steps_says(s, s->ann[i].id, &b))
		return -1;
	return b.tokens >= 0 ? b.tokens : b.batch;
}

/* How many CPU windows that began before a time are looked at for one
 * that holds it (windows of one step nest; steps follow each other). */
#define WINDOWS_BACK 8

/* The CPU window that holds ts: of the last WINDOWS_BACK that began at or
 * before it, the latest to begin. An id, or -1. */
static int64_t window_at(const ts_steps *s, int64_t ts)
{
	int looked = 0;
	for (size_t j = upper_bound(s, ts); j-- > 0 && looked < WINDOWS_BACK;) {
		const ann_t *a = &s->ann[s->order[j]];
		if (a->gpu)
			continue;
		looked++;
		if (a->end >= ts)
			return a->id;
	}
	return -1;
}

void ts_steps_cpu_op(ts_steps *s, const ts_event *ev)
{
	if (!s->nann || !(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_EXTERNAL_ID) ||
	    ev->external_id < 0)
		return;
	int64_t ext = ev->external_id, ann = window_at(s, ev->ts_ns);
	if (ann < 0)
		return;
	op_run *last = s->nruns ? &s->runs[s->nruns - 1] : NULL;
	if (last && ext <= last->hi) {
		s->runs_unordered += ext < last->lo;
		return;   /* ids count up as ops are recorded: one out of order is left */
	}
	if (last && last->ann == ann) {
		last->hi = ext;
		return;
	}
	if (!ts_grow((void **)&s->runs, &s->runs_cap, s->nruns + 1, sizeof *s->runs, 64,
		     2 * TS_STEPS_MAX, false)) {
		s->runs_dropped++;
		return;
	}
	s->runs[s->nruns++] = (op_run){ ext, ext, ann };
}

/* The window the op with External id ext was recorded in, or -1 (none,
 * or it was not seen in one). */
static int64_t window_of_op(const ts_steps *s, int64_t ext)
{
	size_t lo = 0, hi = s->nruns;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->runs[mid].lo <= ext)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && ext <= s->runs[lo - 1].hi ? s->runs[lo - 1].ann : -1;
}

int64_t ts_steps_of_kernel(const ts_steps *s, const ts_event *ev, int64_t launch)
{
	int64_t a = -1;
	if (s->nruns && (ev->has & TS_HAS_EXTERNAL_ID) && ev->external_id >= 0)
		a = window_of_op(s, ev->external_id);
	if (a < 0 && launch != INT64_MIN)
		a = window_at(s, launch);
	if (a < 0 && s->ngpu)
		a = ts_steps_at(s, ev->ts_ns, true);
	return find_ann(s, a) >= 0 ? a : -1;
}

int64_t ts_steps_step(const ts_steps *s, int64_t ann)
{
	ptrdiff_t i = find_ann(s, ann);
	return i < 0 ? -1 : (int64_t)s->ann[i].step;
}

bool ts_steps_says(const ts_steps *s, int64_t ann, ts_step_says *out)
{
	ptrdiff_t i = find_ann(s, ann);
	const step_t *st = i < 0 ? NULL : find_step(s, s->ann[i].step);
	ptrdiff_t b = st ? find_ann(s, st->best) : -1;
	if (b < 0)
		return false;
	*out = s->ann[b].says;
	return true;
}

int64_t ts_steps_gpu_end(const ts_steps *s, int64_t step)
{
	const step_t *st = find_step(s, step);
	return st ? st->gpu_end : -1;
}

bool ts_steps_cpu_window(const ts_steps *s, int64_t step, int64_t *from, int64_t *to)
{
	bool any = false;
	for (size_t i = 0; step >= 0 && i < s->nann; i++) {
		const ann_t *a = &s->ann[i];
		if (a->gpu || a->step != (uint64_t)step || a->end == INT64_MAX)
			continue;
		if (!any || a->ts < *from)
			*from = a->ts;
		if (!any || a->end > *to)
			*to = a->end;
		any = true;
	}
	return any;
}

bool ts_steps_gpu_window(const ts_steps *s, int64_t from, int64_t to, int64_t *wf, int64_t *wt,
			 int64_t *sf, int64_t *st)
{
	int64_t best = 0, step = -1;
	for (size_t i = 0; i < s->nann; i++) {
		const ann_t *a = &s->ann[i];
		int64_t lo = a->ts > from ? a->ts : from, hi = a->end < to ? a->end : to;
		if (a->gpu && hi - lo > best) {
			best = hi - lo;
			step = a->step;
		}
	}
	if (step < 0)
		return false;
	const step_t *sp = find_step(s, step);
	ptrdiff_t b = sp ? find_ann(s, sp->best) : -1;
	uint32_t name = b >= 0 ? s->ann[b].says.name : TS_INTERN_NONE;
	*wf = *sf = INT64_MAX;
	*wt = *st = INT64_MIN;
	for (size_t i = 0; i < s->nann; i++) {
		const ann_t *a = &s->ann[i];
		if (!a->gpu || a->step != (uint64_t)step || a->end == INT64_MAX)
			continue;
		if (a->ts < *wf)
			*wf = a->ts;
		if (a->end > *wt)
			*wt = a->end;
		if (name != TS_INTERN_NONE && a->says.name == name) {
			*sf = a->ts < *sf ? a->ts : *sf;
			*st = a->end > *st ? a->end : *st;
		}
	}
	if (*sf >= *st) {
		*sf = *wf;
		*st = *wt;
	}
	return *wf < *wt;
}

bool ts_steps_any_gpu(const ts_steps *s)
{
	return s->ngpu > 0;
}

bool ts_steps_any(const ts_steps *s)
{
	return s->nann > 0;
}

bool ts_steps_op_placed(const ts_steps *s, int64_t ext)
{
	return ext >= 0 && window_of_op(s, ext) >= 0;
}

const char *ts_steps_name(const ts_steps *s, int id)
{
	size_t len;
	return id >= 0 ? ts_intern_str(s->names, (uint32_t)id, &len) : NULL;
}

uint32_t ts_steps_intern(ts_steps *s, const char *name, size_t n)
{
	uint32_t id;
	return ts_intern_put(s->names, name, n, &id) == TS_OK ? id : TS_INTERN_NONE;
}

uint64_t ts_steps_dropped(const ts_steps *s)
{
	return s->dropped;
}

void ts_steps_add_dropped(ts_steps *s, uint64_t n)
{
	s->dropped += n;
}

void ts_steps_op_counts(const ts_steps *s, uint64_t *dropped, uint64_t *unordered)
{
	*dropped = s->runs_dropped;
	*unordered = s->runs_unordered;
}
