/*
 * steps.c - a stage's wall, step and per-token figures from its passes
 * (steps.h).
 */
#include "analysis/views/steps.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/satmath.h"

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

/* Whether pass p is one of the stage's counted passes. */
static bool counted(const ts_pass *p, ts_pstage st, bool partials)
{
	return p->stage == st && p->complete != partials;
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

/* Decode: the batch of every pass summed as its tokens (one a sequence a
 * step); the time of a token is the step p50 (the wall p50 with one step)
 * and tokens/s the mean batch over it. Prefill: the tokens over the summed
 * wall. Unknown (-1) where a pass's count is. */
static void per_token(const ts_layers *l, ts_pstage st, ts_steps *s)
{
	bool decode = st == TS_PSTAGE_DECODE;
	int64_t wall = 0, batch = -1;
	if (decode)
		s->token_ns = s->steps ? s->step_p50_ns : s->wall_p50_ns;
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
		wall = ts_sat_add(wall, p->idle.span_ns);
	}
	if (!decode) {
		if (s->tokens > 0 && wall > 0)
			s->tokens_per_s = (double)s->tokens * 1e9 / (double)wall;
		return;
	}
	s->batch = batch > 0 ? batch : -1;     /* 0: it changed from pass to pass */
	if (s->tokens > 0 && s->token_ns > 0)
		s->tokens_per_s = (double)s->tokens / s->passes * 1e9 / (double)s->token_ns;
}

bool ts_steps_of(const ts_layers *l, ts_pstage st, ts_steps *s)
{
	memset(s, 0, sizeof *s);
	s->batch = s->tokens = -1;
	if (!l)
		return false;
	size_t np = ts_layers_npasses(l);
	int64_t *v = malloc((np ? np : 1) * sizeof *v);
	if (!v)
		return false;
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
		}
	}
	if (s->passes) {
		s->wall_mean_ns /= s->passes;
		s->wall_p50_ns = median(v, s->passes);
		s->wall_max_ns = v[s->passes - 1];
		s->steps = step_times(l, st, s->of_partials, v, &s->step_p50_ns);
		per_token(l, st, s);
	}
	free(v);
	return s->passes > 0;
}
