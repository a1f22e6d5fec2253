/*
 * layers_steps.c - step annotations (SGLang step[...], vLLM execute_..., ProfilerStep#N): their
 * windows on the CPU and the GPU, each pass's step windows and the time
 * between passes, the CPU-side evidence of captures and training, and
 * where a pass ends (layers_int.h).
 */
#include "analysis/layers/layers_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/intern.h"
#include "analysis/satmath.h"
#include "input/grow.h"
#include "input/numtext.h"
#include "input/strfind.h"

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
		if (l->ann[i].end >= before || (int)i == l->hints.step_ann)
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
	if (l->hints.step_ann >= 0) {
		l->hints.step_ann = (int)newidx[l->hints.step_ann];
		l->hints.step = l->ann[l->hints.step_ann].group;
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

/* ATen ops that compute: a CPU-only profile of a model holds them, an API
 * server's does not. */
static bool compute_op(const char *s, size_t n)
{
	static const char *const ops[] = { "aten::mm", "aten::addmm", "aten::bmm", "aten::matmul",
					   "aten::linear", "aten::conv", "aten::baddbmm",
					   "aten::scaled_dot_product_attention" };
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (ts_begins(s, n, ops[i]))
			return true;
	return false;
}

#define PY_LOOKED 4096          /* python_function names read for words */

/* A Python function: an API server's (its modules' words) in a trace with
 * no kernel is a front-end process. */
void ts_layers_python(ts_layers *l, const ts_event *ev)
{
	static const char *const words[] = { "prometheus_client", "uvicorn", "fastapi",
					     "starlette", "entrypoints", "async_llm",
					     "aiohttp", "api_server", "openai" };
	if (l->py_events++ >= PY_LOOKED)
		return;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (ts_has(ev->name, ev->name_len, words[i])) {
			l->py_server++;
			return;
		}
}

void ts_layers_cpu_event(ts_layers *l, const ts_event *ev)
{
	if (ev->cat == TS_CAT_CPU_OP) {
		l->cpu_ops++;
		l->compute_ops += compute_op(ev->name, ev->name_len);
		if (ts_begins(ev->name, ev->name_len, "autograd::engine::evaluate_function"))
			l->backward_ops++;
		/* a token embedding: a language model reads tokens */
		if (ts_has(ev->name, ev->name_len, "::embedding"))
			l->generation |= TS_GEN_EMBEDDING;
		return;
	}
	ts_idle_runtime(l->idle, ev);
	if (ts_has(ev->name, ev->name_len, "LaunchKernel") ||
	    ts_has(ev->name, ev->name_len, "GraphLaunch") ||
	    ts_has(ev->name, ev->name_len, "ModuleLaunch"))
		l->launches++;
	if (ev->name_len > 12 && ev->name_len < 64 &&
		   ts_has(ev->name, ev->name_len, "StreamBeginCapture")) {
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
		if (!a.gpu && ts_begins(ev->name, ev->name_len, "capture_"))
			l->captures++;
		return;
	}
	if (ts_intern_put(l->ann_names, ev->name, ev->name_len < 200 ? ev->name_len : 200,
			  &a.name) != TS_OK)
		a.name = TS_INTERN_NONE;
	a.sglang_step = ts_begins(ev->name, ev->name_len, "step[");
	if (a.stage != TS_PSTAGE_UNKNOWN || a.tokens > 0)
		l->generation |= TS_GEN_ANNOTATION;
	if (l->nann >= TS_MAX_ANNOTATIONS && l->nann == l->ann_cap &&
	    l->last_kernel_ts != l->compacted_at) {
		l->compacted_at = l->last_kernel_ts;
		compact_annotations(l);
	}
	ts_grow_part parts[] = {
		{ (void **)&l->ann, sizeof *l->ann }, { (void **)&l->order, sizeof *l->order },
		{ (void **)&l->by_ext, sizeof *l->by_ext },
		{ (void **)&l->group_best, sizeof *l->group_best },
		{ (void **)&l->group_gpu_end, sizeof *l->group_gpu_end },
	};
	if (!ts_grow_each(parts, sizeof parts / sizeof *parts, &l->ann_cap, l->nann + 1, 64,
			  TS_MAX_ANNOTATIONS, false)) {
		l->ann_dropped++;
		return;
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
int ts_lay_annotation_at(const ts_layers *l, int64_t ts, bool gpu)
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
	int i = ts_lay_annotation_at(l, ts, false);
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
int ts_lay_kernel_step(const ts_layers *l, const ts_event *ev)
{
	if (l->ngpu) {
		int a = ts_lay_annotation_at(l, ev->ts_ns, true);
		if (a >= 0)
			return a;
	}
	if (l->nby_ext && (ev->has & TS_HAS_EXTERNAL_ID) && ev->external_id >= 0)
		return annotation_by_ext(l, ev->external_id);
	return -1;
}

/* The CPU window of a step: from its first annotation's start to the
 * last one's end. A kernel launched in it runs in the step's GPU window
 * (the profiler draws that window around them). false: no step. */
bool ts_lay_step_window(const ts_layers *l, int64_t step, int64_t *from, int64_t *to)
{
	bool any = false;
	for (size_t i = 0; step >= 0 && i < l->nann; i++) {
		const annotation *a = &l->ann[i];
		if (a->gpu || a->group != (uint32_t)step || a->end == INT64_MAX)
			continue;
		if (!any || a->ts < *from)
			*from = a->ts;
		if (!any || a->end > *to)
			*to = a->end;
		any = true;
	}
	return any;
}

/* The GPU windows of the step a pass ran in: those of the step whose
 * windows overlap [from, to] the most, joined. false: none (no GPU
 * windows, or they were dropped). */
bool ts_lay_gpu_window(const ts_layers *l, int64_t from, int64_t to, int64_t *wf, int64_t *wt)
{
	int64_t best = 0;
	int group = -1;
	for (size_t i = 0; i < l->nann; i++) {
		const annotation *a = &l->ann[i];
		int64_t lo = a->ts > from ? a->ts : from, hi = a->end < to ? a->end : to;
		if (a->gpu && hi - lo > best) {
			best = hi - lo;
			group = (int)a->group;
		}
	}
	if (group < 0)
		return false;
	*wf = INT64_MAX;
	*wt = INT64_MIN;
	for (size_t i = 0; i < l->nann; i++) {
		const annotation *a = &l->ann[i];
		if (!a->gpu || a->group != (uint32_t)group || a->end == INT64_MAX)
			continue;
		if (a->ts < *wf)
			*wf = a->ts;
		if (a->end > *wt)
			*wt = a->end;
	}
	return *wf < *wt;
}

/* The time from the last pass's end to this one's start (layers.h). */
void ts_lay_add_between(ts_layers *l, const ts_idle_pass *d)
{
	if (!d->span_ns)
		return;
	int64_t gap = l->prev_end == INT64_MIN ? 0 : d->start_ns - l->prev_end;
	ts_between *b = &l->between;
	if (gap > 0) {
		int64_t idle = d->idle_from_ns != INT64_MIN ? d->idle_from_ns : l->frontier_at_start;
		if (idle < l->prev_end || idle > d->start_ns)
			idle = l->prev_end;
		int64_t wait = d->start_ns - idle;
		b->gaps++;
		b->ns = ts_sat_add(b->ns, gap);
		b->wait_ns = ts_sat_add(b->wait_ns, wait);
		if (gap > b->largest_ns)
			b->largest_ns = gap;
		if (d->first_launch_ns != INT64_MIN) {
			b->checked++;
			if (wait > 0 && d->first_launch_ns > idle) {
				b->late++;
				b->late_ns = ts_sat_add(b->late_ns, wait);
			}
		}
	}
	int64_t end = d->start_ns + d->span_ns;
	if (end > l->prev_end)
		l->prev_end = end;
}

/* Each kept pass's step windows on the GPU: the profiler writes them
 * after the kernels, so they are read at the end of the trace. */
void ts_lay_pass_windows(ts_layers *l)
{
	for (size_t i = 0; l->ngpu && i < l->npasses; i++) {
		ts_pass *p = &l->passes[i];
		int64_t from = p->idle.start_ns, to = ts_sat_add(from, p->idle.span_ns);
		if (p->idle.span_ns > 0 && p->annotation >= 0 &&
		    !ts_lay_gpu_window(l, from, to, &p->win_from, &p->win_to))
			p->win_from = p->win_to = INT64_MIN;
	}
}

const char *ts_layers_annotation_name(const ts_layers *l, int i)
{
	size_t len;
	return i >= 0 ? ts_intern_str(l->ann_names, (uint32_t)i, &len) : NULL;
}

/* ----------------------------------------------------------- pass edges */

/* Where neither a step annotation nor a name marks where a pass begins
 * (an embedding, sampling: none ran in this pass; a graph-replayed decode
 * step has no ops to name them where the eager prefill had), the stream
 * says it: the kernel that began
 * the pass runs again after the GPU waited longer than at any point
 * inside the pass (the host between two steps). */
static bool repeat_edge(ts_layers *l, uint32_t row, int64_t gap)
{
	if (l->pass_named || l->hints.step >= 0 || row == TS_INTERN_NONE)
		return false;
	/* any kernel after the GPU waited twice as long as anywhere in a
	 * pass of some length (a graph-replayed step: the host between) */
	if (l->cur.kernels >= 16 && gap > 2 * l->pass_maxgap && gap >= 20000)
		return true;
	if (l->cur.kernels < 4)
		return false;
	if (row == l->head_rows[0] && gap > l->pass_maxgap)
		return true;
	/* or, where the GPU waits as long inside a pass (an eager model:
	 * every launch late), one of the pass's first kernels again after
	 * two attention units (attention by its op) when it never ran inside
	 * them: a kernel of the pass's head (its first may be one the layers
	 * run too: an arange for the positions) */
	int h = -1;
	for (int i = 0; i < l->nhead_rows && h < 0; i++)
		if (l->head_rows[i] == row)
			h = i;
	if (h < 0)
		return false;
	/* the second only right after the first (the head's two kernels in
	 * their order: an expert's kernel that no token ran in the first
	 * layers is no head), in a pass of some length (a window cut across
	 * two layers is one fragment) */
	bool again = l->walk.units >= 2 && !(l->head_in_layers & (1u << h)) &&
		     (h == 0 || (l->last_row == l->head_rows[0] && l->cur.kernels >= 32));
	if (l->walk.units > 0)
		l->head_in_layers |= (uint8_t)(1u << h);
	return again;
}

/* One of the pass's first kernels: its first two distinct rows are where
 * the next pass is looked for. */
void ts_lay_head_row(ts_layers *l, uint32_t row)
{
	if (row == TS_INTERN_NONE || l->nhead_rows >= 2)
		return;
	for (int i = 0; i < l->nhead_rows; i++)
		if (l->head_rows[i] == row)
			return;
	l->head_rows[l->nhead_rows++] = row;
}

/* Whether the kernel ends the open pass: its step annotation changed or
 * its step's GPU window is over, an embedding after layer work, the first
 * kernel after sampling, or the pass's first kernel again (repeat_edge).
 * Gives the kernel's step annotation (*an, -1 none) and step group. */
bool ts_lay_pass_edge(ts_layers *l, const ts_event *ev, uint32_t row, lmark m, bool has_work,
		      int *an_out, int64_t *step_out, bool *step_edge_out)
{
	int64_t gap = l->kfrontier != INT64_MIN && ev->ts_ns > l->kfrontier ? ev->ts_ns - l->kfrontier : 0;
	/* Step annotations split passes (see kernel_step). */
	int an = l->nann ? ts_lay_kernel_step(l, ev) : -1;
	int64_t step = an >= 0 ? (int64_t)l->ann[an].group : -1;
	bool step_edge = false, edge = false;
	/* Past the end of the pass's GPU step window: that step is over. */
	if (l->in_pass && an < 0 && has_work && l->hints.step >= 0 &&
	    l->group_gpu_end[l->hints.step] >= 0 && ev->ts_ns >= l->group_gpu_end[l->hints.step])
		step_edge = true;
	if (l->in_pass && step >= 0 && step != l->hints.step)
		step_edge = true;
	/* Pass edges: an embedding starts a pass once the current one has
	 * layer work; the first kernel after sampling starts the next. */
	if (m & (M_EMBED | M_SAMPLE))
		l->pass_named = true;
	if (l->in_pass && (step_edge || ((m & M_EMBED) && has_work) ||
			   (l->hints.after_sampling && !(m & M_SAMPLE)) ||
			   (step < 0 && repeat_edge(l, row, gap))))
		edge = true;
	else if (l->in_pass && gap > l->pass_maxgap && l->cur.kernels >= 4)
		l->pass_maxgap = gap;    /* past the pass's first kernels (a lone fill before its work) */
	*an_out = an;
	*step_out = step;
	*step_edge_out = step_edge;
	return edge;
}
