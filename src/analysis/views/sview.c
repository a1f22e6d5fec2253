/*
 * sview.c - a stage's wall, step and per-token figures from its passes
 * (sview.h).
 */
#include "analysis/views/sview.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/satmath.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The median of v[0..n) (sorts it). */
static int64_t median(int64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_i64);
	return n ? v[(n - 1) / 2] : 0;
}

/* Whether pass p is one of the stage's counted passes (a speculative
 * draft's forward is part of its step, not a pass of the model). */
static bool counted(const ts_pass *p, ts_pstage st, bool partials)
{
	return p->stage == st && p->complete != partials && !p->draft;
}

/* Start to start of consecutive counted passes of the stage with no pass
 * of another stage between them, of one trace (a rank's clock is its
 * own): their median in *p50. */
static uint32_t step_times(const ts_layers *l, ts_pstage st, bool partials, int64_t *v,
			   int64_t *p50)
{
	size_t n = 0;
	const ts_pass *prev = NULL;
	for (size_t i = 0; i < ts_layers_npasses(l); i++) {
		const ts_pass *p = ts_layers_pass(l, i);
		if (p->draft)
			continue;   /* inside the step: step to step goes over it */
		if (!counted(p, st, partials)) {
			prev = NULL;
			continue;
		}
		if (prev && p->source == prev->source && p->idle.start_ns > prev->idle.start_ns)
			v[n++] = p->idle.start_ns - prev->idle.start_ns;
		prev = p;
	}
	*p50 = median(v, n);
	return (uint32_t)n;
}

static int64_t scale(int64_t v, int64_t num, int64_t den)
{
	return den > 0 ? (int64_t)((double)v * (double)num / (double)den + 0.5) : 0;
}

/* The most a pass's first kernel may start after its launch for its CPU
 * window to be read on the GPU's clock, unless the CPU sat in a
 * synchronizing call for the rest (the GPU's queue waited with it): a lag
 * nothing explains is the GPU still running earlier work, or two clocks
 * that disagree (an AMD trace's GPU times can lag the CPU's by 100 ms and
 * more). */
#define LAUNCH_LAG_NS 2000000

/* The CPU's time in synchronizing calls of trace source within [from, to)
 * (api NULL: none), and in *top the call with most of it (NULL: none). */
static int64_t sync_within(const ts_api *api, uint32_t source, int64_t from, int64_t to,
			   const char **top)
{
	*top = NULL;
	if (!api || to <= from)
		return 0;
	size_t n;
	uint64_t unkept;
	const ts_api_sync *sy = ts_api_syncs(api, &n, &unkept);
	int64_t sum = 0, best = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t a = sy[i].ts_ns > from ? sy[i].ts_ns : from;
		int64_t e = ts_sat_add(sy[i].ts_ns, sy[i].dur_ns);
		e = e < to ? e : to;
		if (sy[i].source != source || e <= a)
			continue;
		sum = ts_sat_add(sum, e - a);
		if (e - a > best) {
			best = e - a;
			*top = ts_api_row_at(api, sy[i].row)->name;
		}
	}
	return sum;
}

/* Pass i's step window: its GPU window, else from its CPU window's start
 * to the later of its end and the pass's last kernel's (the GPU runs what
 * the step launched after the CPU closed it), where the pass started
 * within LAUNCH_LAG_NS of its launch or of the end of the CPU's waits
 * since. false: none, or the step holds another pass too (a draft's, a
 * chunk's: their time is not this pass's to account). */
static bool step_window(const ts_layers *l, const ts_api *api, size_t i, int64_t *s0, int64_t *s1)
{
	const ts_pass *p = ts_layers_pass(l, i);
	int64_t p0 = p->idle.start_ns, p1 = ts_sat_add(p0, p->idle.span_ns), f = p->idle.first_launch_ns;
	bool gpu = p->step_from != INT64_MIN && p->step_to > p->step_from;
	const char *top;
	if (gpu) {
		*s0 = p->step_from;
		*s1 = p->step_to;
	} else if (p->cwin_from != INT64_MIN && p->cwin_to > p->cwin_from && f != INT64_MIN && f <= p0 &&
		   (p0 - f <= LAUNCH_LAG_NS ||
		    p0 - f - sync_within(api, p->source, f, p0, &top) <= LAUNCH_LAG_NS)) {
		*s0 = p->cwin_from;
		*s1 = p->cwin_to > p1 ? p->cwin_to : p1;
	} else {
		return false;
	}
	for (size_t j = i ? i - 1 : i + 1; j <= i + 1 && j < ts_layers_npasses(l); j += 2) {
		const ts_pass *q = ts_layers_pass(l, j);
		if (q->source == p->source && (gpu ? q->step_from == p->step_from && q->step_to == p->step_to
						   : q->cwin_from == p->cwin_from && q->cwin_to == p->cwin_to))
			return false;
	}
	return true;
}

bool ts_step_window(const ts_layers *l, const ts_api *api, size_t i, int64_t *s0, int64_t *s1)
{
	const ts_pass *p = ts_layers_pass(l, i);
	int64_t p0 = p->idle.start_ns, p1 = ts_sat_add(p0, p->idle.span_ns);
	return step_window(l, api, i, s0, s1) && *s1 > *s0 && p->idle.span_ns > 0 && p1 > *s0 &&
	       p0 < *s1;
}

bool ts_step_account(const ts_layers *l, const ts_api *api, size_t i, ts_step_acct *a)
{
	const ts_pass *p = ts_layers_pass(l, i);
	int64_t s0, s1;
	int64_t p0 = p->idle.start_ns, p1 = ts_sat_add(p0, p->idle.span_ns);
	if (!step_window(l, api, i, &s0, &s1) || s1 <= s0 || p->idle.span_ns <= 0 || p1 <= s0 ||
	    p0 >= s1)
		return false;
	int64_t in0 = p0 > s0 ? p0 : s0, in1 = p1 < s1 ? p1 : s1;
	*a = (ts_step_acct){ .wall_ns = s1 - s0, .before_ns = in0 - s0, .pass_ns = in1 - in0,
			     .after_ns = s1 - in1 };
	a->before_busy_ns = p->idle.lead_ns < a->before_ns ? p->idle.lead_ns : a->before_ns;
	/* the step's own waits: in its CPU window too (a wait of the next
	 * step's CPU while this one's GPU window opens is not its cause) */
	int64_t w0 = s0, w1 = in0;
	if (p->cwin_from != INT64_MIN && p->cwin_to > p->cwin_from) {
		w0 = w0 > p->cwin_from ? w0 : p->cwin_from;
		w1 = w1 < p->cwin_to ? w1 : p->cwin_to;
	}
	a->before_sync_ns = sync_within(api, p->source, w0, w1, &a->before_sync);
	a->pass_busy_ns = scale(p->idle.busy_ns, a->pass_ns, p->idle.span_ns);
	if (a->pass_busy_ns > a->pass_ns)
		a->pass_busy_ns = a->pass_ns;
	a->pass_launch_ns = scale(p->idle.launch_ns, a->pass_ns, p->idle.span_ns);
	if (a->pass_launch_ns > a->pass_ns - a->pass_busy_ns)
		a->pass_launch_ns = a->pass_ns - a->pass_busy_ns;
	return true;
}

/* The time of a token: the step p50 where steps follow each other, else
 * the step window's p50 where the profiler drew each step on the GPU, else
 * the pass wall's. */
static void token_time(ts_sview *s)
{
	if (s->steps) {
		s->token_ns = s->step_p50_ns;
		s->token_from = TS_TOKEN_STEPS;
	} else if (s->windows == s->passes) {
		s->token_ns = s->window_p50_ns;
		s->token_from = TS_TOKEN_WINDOW;
	} else {
		s->token_ns = s->wall_p50_ns;
		s->token_from = TS_TOKEN_WALL;
	}
}

/* Decode: the batch of every pass summed as its tokens (one a sequence a
 * step); the time of a token as token_time says and tokens/s the mean
 * batch over it. Prefill: the tokens over the summed wall (of the steps,
 * where each has a window: a prompt waits for its input preparation
 * too). Unknown (-1) where a pass's count is. */
static void per_token(const ts_layers *l, const ts_api *api, ts_pstage st, ts_sview *s)
{
	bool decode = st == TS_PSTAGE_DECODE;
	int64_t wall = 0, batch = -1;
	if (decode)
		token_time(s);
	s->tokens = 0;
	for (size_t i = 0; i < ts_layers_npasses(l); i++) {
		const ts_pass *p = ts_layers_pass(l, i);
		if (!counted(p, st, s->of_partials))
			continue;
		int64_t t = decode ? p->batch : p->tokens;
		if (t <= 0) {
			s->tokens = -1;
			return;
		}
		s->tokens = ts_sat_add(s->tokens, t);
		batch = batch < 0 || batch == p->batch ? p->batch : 0;
		ts_step_acct a;
		bool win = s->windows == s->passes && ts_step_account(l, api, i, &a);
		wall = ts_sat_add(wall, win ? a.wall_ns : p->idle.span_ns);
	}
	if (!decode) {
		if (s->tokens > 0 && wall > 0)
			s->tokens_per_s = (double)s->tokens * 1e9 / (double)wall;
		s->token_from = s->windows == s->passes ? TS_TOKEN_WINDOW : TS_TOKEN_WALL;
		s->tokens_wall_ns = wall;
		return;
	}
	s->batch = batch > 0 ? batch : -1;     /* 0: it changed from pass to pass */
	if (s->tokens > 0 && s->token_ns > 0)
		s->tokens_per_s = (double)s->tokens / s->passes * 1e9 / (double)s->token_ns;
}

/* A pass's CPU window: its step annotation's, else its launches'; a wait
 * in it counts until the pass's GPU work ended (gpu_end): a wait before
 * the work began held its launches back, one after it is not the pass's. */
typedef struct {
	int64_t from, to, gpu_end;
	int32_t pass;                /* its index */
	uint32_t source;
} cpu_win;

static int by_from(const void *a, const void *b)
{
	int64_t x = ((const cpu_win *)a)->from, y = ((const cpu_win *)b)->from;
	return (x > y) - (x < y);
}

/* Pass i's CPU window: its step annotation's, else from its first
 * kernel's launch to its last's; false when it has none. */
static bool pass_window(const ts_pass *p, size_t i, cpu_win *w)
{
	int64_t end = ts_sat_add(p->idle.start_ns, p->idle.span_ns);
	if (p->cwin_from != INT64_MIN && p->cwin_to > p->cwin_from)
		*w = (cpu_win){ p->cwin_from, p->cwin_to, end, (int32_t)i, p->source };
	else if (p->idle.first_launch_ns != INT64_MIN && p->idle.last_launch_ns > p->idle.first_launch_ns)
		*w = (cpu_win){ p->idle.first_launch_ns, p->idle.last_launch_ns, end, (int32_t)i,
				p->source };
	else
		return false;
	return true;
}

/* The time a wait in pass i's window can take: the window, until the
 * pass's GPU work ended (0: no window). */
static int64_t window_ns(const ts_pass *p, size_t i)
{
	cpu_win w;
	if (!pass_window(p, i, &w))
		return 0;
	int64_t to = w.to < w.gpu_end ? w.to : w.gpu_end;
	return to > w.from ? to - w.from : 0;
}

/* The window holding t of trace source among w[0..n) sorted by start
 * (the latest start at or before t that ends after it), or NULL. */
static const cpu_win *window_at(const cpu_win *w, size_t n, int64_t t, uint32_t source)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w[mid].from <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && lo - i <= 64; )
		if (w[i].source == source && w[i].to >= t)
			return &w[i];
	return NULL;
}

bool ts_syncs_place(const ts_layers *l, const ts_api *api, int32_t *pass, int64_t *inside)
{
	size_t ns;
	uint64_t unkept;
	const ts_api_sync *sy = ts_api_syncs(api, &ns, &unkept);
	size_t np = l ? ts_layers_npasses(l) : 0, nw = 0;
	cpu_win *w = malloc((np ? np : 1) * sizeof *w);
	if (!w)
		return false;
	for (size_t i = 0; i < np; i++)
		nw += pass_window(ts_layers_pass(l, i), i, &w[nw]);
	qsort(w, nw, sizeof *w, by_from);
	for (size_t i = 0; i < ns; i++) {
		const cpu_win *x = window_at(w, nw, sy[i].ts_ns, sy[i].source);
		pass[i] = x ? x->pass : -1;
		int64_t from = sy[i].ts_ns, end = ts_sat_add(sy[i].ts_ns, sy[i].dur_ns);
		if (x) {
			end = end < x->to ? end : x->to;
			end = end < x->gpu_end ? end : x->gpu_end;
		}
		inside[i] = x && end > from ? end - from : 0;
	}
	free(w);
	return true;
}

/* The synchronizing calls inside the stage's counted passes. */
static void stage_syncs(const ts_layers *l, const ts_api *api, ts_pstage st, ts_sview *s)
{
	size_t ns;
	uint64_t unkept;
	const ts_api_sync *sy = ts_api_syncs(api, &ns, &unkept);
	int32_t *at = ns ? malloc(ns * sizeof *at) : NULL;
	int64_t *in = ns ? malloc(ns * sizeof *in) : NULL;
	if (!at || !in || !ts_syncs_place(l, api, at, in)) {
		free(at);
		free(in);
		return;
	}
	int64_t by_row[TS_API_ROWS + 1] = { 0 };
	for (size_t i = 0; i < ns; i++) {
		if (at[i] < 0 || !counted(ts_layers_pass(l, (size_t)at[i]), st, s->of_partials))
			continue;
		s->sync_calls++;
		s->sync_ns = ts_sat_add(s->sync_ns, in[i]);
		by_row[sy[i].row] = ts_sat_add(by_row[sy[i].row], in[i]);
	}
	size_t top = 0;
	for (size_t r = 1; r <= TS_API_ROWS; r++)
		if (by_row[r] > by_row[top])
			top = r;
	if (s->sync_calls)
		s->sync_top = ts_api_row_at(api, top)->name;
	free(at);
	free(in);
}

bool ts_sview_of(const ts_layers *l, const ts_api *api, ts_pstage st, ts_sview *s)
{
	memset(s, 0, sizeof *s);
	s->batch = s->tokens = -1;
	if (!l)
		return false;
	size_t np = ts_layers_npasses(l);
	int64_t *v = malloc((np ? np : 1) * sizeof *v), *win = malloc((np ? np : 1) * sizeof *win);
	int64_t top_sync = 0;
	if (!v || !win) {
		free(v);
		free(win);
		return false;
	}
	for (int round = 0; round < 2 && s->passes == 0; round++) {
		s->of_partials = round == 1;
		for (size_t i = 0; i < np; i++) {
			const ts_pass *p = ts_layers_pass(l, i);
			if (!counted(p, st, s->of_partials))
				continue;
			const ts_idle_pass *d = &p->idle;
			v[s->passes++] = d->span_ns;
			s->wall_mean_ns = ts_sat_add(s->wall_mean_ns, d->span_ns);
			s->busy_ns = ts_sat_add(s->busy_ns, d->busy_ns);
			s->idle_ns = ts_sat_add(s->idle_ns, d->idle_ns);
			s->launch_ns = ts_sat_add(s->launch_ns, d->launch_ns);
			s->kernel_ns = ts_sat_add(s->kernel_ns, p->gpu_ns);
			s->sync_window_ns = ts_sat_add(s->sync_window_ns, window_ns(p, i));
			ts_step_acct a;
			if (ts_step_account(l, api, i, &a)) {
				win[s->windows++] = a.wall_ns;
				s->before_ns = ts_sat_add(s->before_ns, a.before_ns);
				s->before_busy_ns = ts_sat_add(s->before_busy_ns, a.before_busy_ns);
				s->before_sync_ns = ts_sat_add(s->before_sync_ns, a.before_sync_ns);
				if (a.before_sync && a.before_sync_ns > top_sync) {
					top_sync = a.before_sync_ns;
					s->before_sync = a.before_sync;
				}
				s->after_ns = ts_sat_add(s->after_ns, a.after_ns);
			}
		}
	}
	s->window_p50_ns = median(win, s->windows);
	if (s->passes) {
		s->wall_mean_ns /= s->passes;
		s->wall_p50_ns = median(v, s->passes);
		s->wall_max_ns = v[s->passes - 1];
		s->steps = step_times(l, st, s->of_partials, v, &s->step_p50_ns);
		if (!s->of_partials)     /* a pass cut by the window is no step */
			per_token(l, api, st, s);
		if (api)
			stage_syncs(l, api, st, s);
	}
	free(v);
	free(win);
	return s->passes > 0;
}

static const struct { const char *key, *name; } causes[TS_CAUSE_COUNT] = {
	[TS_CAUSE_KERNELS] = { "pass_kernels", "kernels running in the pass" },
	[TS_CAUSE_LAUNCH] = { "pass_launch_bound", "pass idle: waiting for launches" },
	[TS_CAUSE_PASS_IDLE] = { "pass_other_idle", "pass idle: other" },
	[TS_CAUSE_BEFORE_KERNELS] = { "before_pass_kernels", "before the pass: kernels" },
	[TS_CAUSE_BEFORE_SYNC] = { "before_pass_sync", "before the pass: CPU in a sync" },
	[TS_CAUSE_BEFORE_CPU] = { "before_pass_cpu", "before the pass: CPU preparing" },
	[TS_CAUSE_AFTER] = { "after_pass", "after the pass, in its step" },
	[TS_CAUSE_BETWEEN] = { "between_passes", "pass end to the next pass" },
};

const char *ts_cause_name(ts_cause c)
{
	return c < TS_CAUSE_COUNT ? causes[c].name : "?";
}

const char *ts_cause_key(ts_cause c)
{
	return c < TS_CAUSE_COUNT ? causes[c].key : "?";
}

/* The pass's own parts, its busy and idle scaled to len of its wall. */
static void split_pass(const ts_idle_pass *d, int64_t len, double *part)
{
	int64_t busy = scale(d->busy_ns, len, d->span_ns), launch = scale(d->launch_ns, len, d->span_ns);
	busy = busy < len ? busy : len;
	launch = launch < len - busy ? launch : len - busy;
	part[TS_CAUSE_KERNELS] += (double)busy;
	part[TS_CAUSE_LAUNCH] += (double)launch;
	part[TS_CAUSE_PASS_IDLE] += (double)(len - busy - launch);
}

/* Start to start, as step_times measures it: each pass's parts and the
 * time from its end to the next pass's start. */
static uint32_t split_steps(const ts_layers *l, ts_pstage st, ts_step_split *o)
{
	uint32_t n = 0;
	const ts_pass *prev = NULL;
	for (size_t i = 0; i < ts_layers_npasses(l); i++) {
		const ts_pass *p = ts_layers_pass(l, i);
		if (p->draft)
			continue;
		if (!counted(p, st, false)) {
			prev = NULL;
			continue;
		}
		if (prev && p->source == prev->source && p->idle.start_ns > prev->idle.start_ns) {
			int64_t step = p->idle.start_ns - prev->idle.start_ns;
			int64_t own = prev->idle.span_ns < step ? prev->idle.span_ns : step;
			split_pass(&prev->idle, own, o->part_ns);
			o->part_ns[TS_CAUSE_BETWEEN] += (double)(step - own);
			o->step_ns += (double)step;
			n++;
		}
		prev = p;
	}
	return n;
}

/* In each pass's step window (every counted pass has one). */
static uint32_t split_windows(const ts_layers *l, const ts_api *api, ts_pstage st,
			      ts_step_split *o)
{
	uint32_t n = 0;
	for (size_t i = 0; i < ts_layers_npasses(l); i++) {
		const ts_pass *p = ts_layers_pass(l, i);
		ts_step_acct a;
		if (!counted(p, st, false))
			continue;
		if (!ts_step_account(l, api, i, &a))
			return 0;
		int64_t idle = a.before_ns - a.before_busy_ns;
		int64_t sync = a.before_sync_ns < idle ? a.before_sync_ns : idle;
		o->part_ns[TS_CAUSE_KERNELS] += (double)a.pass_busy_ns;
		o->part_ns[TS_CAUSE_LAUNCH] += (double)a.pass_launch_ns;
		o->part_ns[TS_CAUSE_PASS_IDLE] += (double)(a.pass_ns - a.pass_busy_ns - a.pass_launch_ns);
		o->part_ns[TS_CAUSE_BEFORE_KERNELS] += (double)a.before_busy_ns;
		o->part_ns[TS_CAUSE_BEFORE_SYNC] += (double)sync;
		o->part_ns[TS_CAUSE_BEFORE_CPU] += (double)(idle - sync);
		o->part_ns[TS_CAUSE_AFTER] += (double)a.after_ns;
		o->step_ns += (double)a.wall_ns;
		n++;
	}
	return n;
}

bool ts_step_split_of(const ts_layers *l, const ts_api *api, ts_pstage st, ts_step_split *o)
{
	memset(o, 0, sizeof *o);
	if (!l)
		return false;
	o->from = TS_TOKEN_STEPS;
	o->steps = split_steps(l, st, o);
	if (!o->steps) {
		memset(o, 0, sizeof *o);
		o->from = TS_TOKEN_WINDOW;
		o->steps = split_windows(l, api, st, o);
	}
	if (!o->steps) {
		memset(o, 0, sizeof *o);
		o->from = TS_TOKEN_WALL;
		for (size_t i = 0; i < ts_layers_npasses(l); i++) {
			const ts_pass *p = ts_layers_pass(l, i);
			if (!counted(p, st, false) || p->idle.span_ns <= 0)
				continue;
			split_pass(&p->idle, p->idle.span_ns, o->part_ns);
			o->step_ns += (double)p->idle.span_ns;
			o->steps++;
		}
	}
	if (!o->steps)
		return false;
	o->step_ns /= o->steps;
	for (int c = 0; c < TS_CAUSE_COUNT; c++)
		o->part_ns[c] /= o->steps;
	return true;
}
