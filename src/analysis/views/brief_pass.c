/*
 * brief_pass.c - the first screen's time per pass by stage (brief.h):
 * each stage's row (wall mean, p50 and max, busy and idle, why idle), per
 * token, the time around the pass in its step, the CPU's waits on the
 * GPU, what the replay says a change would save, and the gaps between
 * passes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/views/brief_int.h"
#include "analysis/views/sview.h"
#include "analysis/views/whatif.h"

#define MAX_STAGE_ROWS 3       /* stages with passes shown per pass */

/* The time from each pass's end to the next one's start (layers.h): how
 * much the GPU sat idle just before the next pass, and whether it waited
 * for the CPU. */
static void put_between(bf_build *s, const ts_between *b)
{
	if (!b->gaps)
		return;
	char all[32], wait[32], rest[32], text[320];
	ts_fmt_ms(all, sizeof all, (double)b->ns);
	ts_fmt_ms(wait, sizeof wait, (double)b->wait_ns);
	ts_fmt_ms(rest, sizeof rest, (double)(b->ns - b->wait_ns));
	int k = snprintf(text, sizeof text, "%" PRIu64 " gap%s, %s: the GPU idle %s before the next "
			 "pass", b->gaps, b->gaps > 1 ? "s" : "", all, wait);
	if (b->checked && k > 0 && (size_t)k < sizeof text)
		k += snprintf(text + k, sizeof text - (size_t)k, " (the CPU late before %" PRIu64
			      " of %" PRIu64 ")", b->late, b->checked);
	if (b->ns - b->wait_ns > b->ns / 20 && k > 0 && (size_t)k < sizeof text)
		snprintf(text + k, sizeof text - (size_t)k, "; %s ran kernels outside the passes",
			 rest);
	bf_wrap(s, TS_BRIEF_PASS_TIMES, " between passes: ", text, 3);
}

/* Why the GPU sat idle in the stage's passes: the CPU late (launch-bound
 * gaps), or how many gaps and the largest. */
static void idle_cause(const ts_sview *st, const ts_idle_pass *d, char *buf, size_t n)
{
	char a[32], b[32];
	if (st->idle_ns <= 0) {
		snprintf(buf, n, "-");
	} else if (st->launch_ns > 0) {
		ts_fmt_ms(a, sizeof a, (double)st->launch_ns / st->passes);
		snprintf(buf, n, "CPU late %s (%.0f%%)", a,
			 100.0 * (double)st->launch_ns / (double)st->idle_ns);
	} else {
		ts_fmt_ms(b, sizeof b, (double)d->largest_ns);
		snprintf(buf, n, "%.0f gaps, largest %s", (double)d->gaps / st->passes, b);
	}
}

static const char *token_how(const ts_sview *st)
{
	return st->token_from == TS_TOKEN_STEPS ? "step to step"
	     : st->token_from == TS_TOKEN_WINDOW ? (st->passes > 1 ? "its steps' windows, p50"
								 : "one step: its window")
	     : "one step: its pass, no step window";
}

/* Is the time around the stage's passes in their steps said (2% of the
 * steps or more, where a step is its window)? */
static bool step_parts_shown(const ts_sview *st)
{
	return st->token_from == TS_TOKEN_WINDOW && st->windows &&
	       (st->before_ns + st->after_ns) * 50 >= st->window_p50_ns * (int64_t)st->windows;
}

/* ... and does it name the CPU's synchronizing call that filled most of
 * the GPU's idle before the pass? */
static bool step_names_wait(const ts_sview *st)
{
	return step_parts_shown(st) && st->before_sync &&
	       2 * st->before_sync_ns >= st->before_ns - st->before_busy_ns;
}

/* The replay's time a stage's steps waited with queued kernels and no
 * cause in the trace, a step (0: none, or no replay). */
static int64_t unexplained_wait(const ts_result *res, ts_pstage stage)
{
	const ts_whatif *w = ts_result_module(res, &ts_whatif_module);
	const ts_wi_stage *x = w ? ts_whatif_stage(w, stage) : NULL;
	return ts_wi_wait_ns(x);
}

/* Where a step's window holds more than its pass: the time before the
 * pass's first kernel (the GPU mostly idle: the CPU preparing the step's
 * inputs and launching its first kernel) and after its last, per step,
 * when they are 2% of the step or more. */
static void put_step_parts(bf_build *s, ts_pstage stage, const ts_sview *st)
{
	if (!step_parts_shown(st))
		return;
	int64_t wall = st->window_p50_ns * st->windows;
	char b[32], i[32], a[32], text[400];
	ts_fmt_ms(b, sizeof b, (double)st->before_ns / st->windows);
	ts_fmt_ms(i, sizeof i, (double)(st->before_ns - st->before_busy_ns) / st->windows);
	ts_fmt_ms(a, sizeof a, (double)st->after_ns / st->windows);
	/* the CPU in a synchronizing call for most of the idle: that wait, by
	 * name; else the step's input preparation */
	char why[160] = "the CPU preparing inputs";
	int64_t idle = (st->before_ns - st->before_busy_ns) / st->windows;
	if (2 * unexplained_wait(s->res, stage) >= idle && idle > 0) {
		/* kernels were queued: the CPU's wait was for a GPU held by
		 * something the trace does not show */
		snprintf(why, sizeof why, "kernels queued, held by a wait the trace does not show%s%s",
			 step_names_wait(st) ? "; the CPU in " : "",
			 step_names_wait(st) ? st->before_sync : "");
	} else if (step_names_wait(st)) {
		char w[32];
		ts_fmt_ms(w, sizeof w, (double)st->before_sync_ns / st->windows);
		snprintf(why, sizeof why, "the CPU %s in %s", w, st->before_sync);
	}
	int n = snprintf(text, sizeof text, "of it %s before the pass (GPU idle %s: %s)", b, i, why);
	if (st->after_ns * 100 >= wall && n > 0 && (size_t)n < sizeof text)
		snprintf(text + n, sizeof text - (size_t)n, ", %s after it", a);
	bf_wrap(s, TS_BRIEF_PASS_TIMES, "   ", text, 5);
}

/* Per token, where the batch or the tokens are known: a decode step's
 * time per output token, a prefill's tokens per second. */
static void put_per_token(bf_build *s, ts_pstage stage, const ts_sview *st)
{
	const ts_brief_section P = TS_BRIEF_PASS_TIMES;
	const char *sn = ts_pstage_name(stage);
	char t[32], w[32];
	bf_pass_sum ps;
	ts_brief_stmt *x = NULL;
	bf_stage_passes(s->res->layers, (int)stage, &ps);
	if (stage == TS_PSTAGE_DECODE && st->token_ns > 0 && ps.drafts && ps.n) {
		/* speculative decoding: a step gives each sequence one to k + 1
		 * tokens, as many as the target accepts; the trace does not say */
		uint32_t k = (ps.drafts + ps.n - 1) / ps.n;
		ts_fmt_ms(t, sizeof t, (double)st->token_ns);
		char tail[96] = "";
		if (st->tokens_per_s > 0)
			snprintf(tail, sizeof tail, ": %.0f to %.0f tokens/s", st->tokens_per_s,
				 st->tokens_per_s * (k + 1));
		x = bf_add(s, P, TS_BRIEF_LINE, "   per step %s (%s), 1 to %" PRIu32 " tokens a sequence "
			"(%" PRIu32 " draft forwards a step, accepted or not)%s", t, token_how(st),
			k + 1, k, tail);
		bf_figure(x, (double)st->token_ns / 1e3, "us", "stages.%s.steps.per_output_token_us", sn);
	} else if (stage == TS_PSTAGE_DECODE && st->token_ns > 0) {
		ts_fmt_ms(t, sizeof t, (double)st->token_ns);
		char tail[64] = "", how[48];
		if (st->batch > 0)
			snprintf(tail, sizeof tail, ", batch %" PRId64, st->batch);
		if (st->tokens_per_s > 0)
			snprintf(tail + strlen(tail), sizeof tail - strlen(tail), ": %.0f tokens/s",
				 st->tokens_per_s);
		if (st->steps)
			snprintf(how, sizeof how, "step to step, p50 of %" PRIu32, st->steps);
		else
			snprintf(how, sizeof how, "%s", token_how(st));
		x = bf_add(s, P, TS_BRIEF_LINE, "   per output token %s (%s)%s", t, how, tail);
		bf_figure(x, (double)st->token_ns / 1e3, "us", "stages.%s.steps.per_output_token_us", sn);
		if (st->batch > 0)
			bf_figure(x, (double)st->batch, "sequences", "stages.%s.steps.batch", sn);
		put_step_parts(s, stage, st);
	} else if (stage != TS_PSTAGE_DECODE && st->tokens > 0 && st->tokens_per_s > 0 &&
		   st->token_from == TS_TOKEN_WINDOW) {
		ts_fmt_ms(w, sizeof w, (double)st->wall_mean_ns);
		ts_fmt_ms(t, sizeof t, (double)st->tokens_wall_ns / st->passes);
		x = bf_add(s, P, TS_BRIEF_LINE, "   %.0f tokens a pass, %s a step (the pass %s): %.0f "
			"tokens/s", (double)st->tokens / st->passes, t, w, st->tokens_per_s);
		put_step_parts(s, stage, st);
	} else if (stage != TS_PSTAGE_DECODE && st->tokens > 0 && st->tokens_per_s > 0) {
		ts_fmt_ms(w, sizeof w, (double)st->wall_mean_ns);
		x = bf_add(s, P, TS_BRIEF_LINE, "   %.0f tokens a pass, %s wall: %.0f tokens/s",
			(double)st->tokens / st->passes, w, st->tokens_per_s);
	}
	if (x && st->tokens_per_s > 0)
		bf_figure(x, st->tokens_per_s, "tokens/s", "stages.%s.steps.tokens_per_s", sn);
}

/* Calls that made the CPU wait for the GPU inside the stage's passes: no
 * launch goes out while one runs. Said where the GPU sat idle in the
 * passes (2% of their wall or more): with the GPU busy all along, the
 * wait cost it nothing (JSON has them either way). Beside the CPU's time
 * in the passes it is part of: a wait can begin before the pass's GPU
 * work and be longer than its wall. Where the line would not fit the
 * width, the calls are counted, not named. */
static void put_syncs(bf_build *s, const ts_sview *st)
{
	int64_t wall = st->busy_ns + st->idle_ns;
	if (!st->sync_calls || st->idle_ns * 50 < wall)
		return;
	/* the step's line named most of these waits already */
	if (step_names_wait(st) && 2 * st->before_sync_ns >= st->sync_ns)
		return;
	char t[32], w[32];
	ts_fmt_ms(t, sizeof t, (double)st->sync_ns / st->passes);
	ts_fmt_ms(w, sizeof w, (double)st->sync_window_ns / st->passes);
	const char *head = "   CPU waits on the GPU: ";
	if (st->sync_calls == 1) {
		bf_add(s, TS_BRIEF_PASS_TIMES, TS_BRIEF_LINE, "%s%s of its %s a pass (%s)", head, t, w,
		    st->sync_top);
		return;
	}
	ts_brief_stmt *x = bf_add(s, TS_BRIEF_PASS_TIMES, TS_BRIEF_LINE, "%s%s of its %s a pass (%"
			       PRIu64 " calls, most in %s)", head, t, w, st->sync_calls, st->sync_top);
	char narrow[256];
	snprintf(narrow, sizeof narrow, "%s%s of its %s a pass (%" PRIu64 " calls)", head, t, w,
		 st->sync_calls);
	bf_alt(s, x, TS_BRIEF_ALT_NARROW, narrow);
}

/* The first screen's words for a change. */
static void change_short(int k, char *buf, size_t n)
{
	static const char *const w[TS_WI_COUNT - TS_WI_LAUNCH] = {
		[TS_WI_LAUNCH - TS_WI_LAUNCH] = "launches on time",
		[TS_WI_PREP - TS_WI_LAUNCH] = "inputs prepared during the last step",
		[TS_WI_PEER - TS_WI_LAUNCH] = "no peer waits",
		[TS_WI_COPIES - TS_WI_LAUNCH] = "copies hidden",
	};
	if (k < TS_TYPE_COUNT)
		snprintf(buf, n, "%s kernels 2x faster", ts_ktype_name((ts_ktype)k));
	else if (k < TS_WI_LAUNCH)
		snprintf(buf, n, "%s at its roofline ceiling", ts_ktype_name((ts_ktype)(k - TS_WI_CEIL)));
	else
		snprintf(buf, n, "%s", w[k - TS_WI_LAUNCH]);
}

/* The replayed steps of stage st (whatif.h): the two changes that save
 * the most, or why there is no projection. */
static void put_whatif(bf_build *s, int st)
{
	const ts_whatif *m = ts_result_module(s->res, &ts_whatif_module);
	const ts_wi_stage *x = m ? ts_whatif_stage(m, (ts_pstage)st) : NULL;
	if (!x || !x->steps)
		return;
	char buf[400], why[200];
	size_t n = sizeof buf;
	const char *no = ts_wi_why_not(x, why, sizeof why);
	if (no) {
		snprintf(buf, n, "replay: no projection, %s", no);
		bf_wrap(s, TS_BRIEF_PASS_TIMES, "   ", buf, 5);
		return;
	}
	int r[2];
	size_t nr = ts_wi_ranked(x, r, 2);
	size_t k = (size_t)snprintf(buf, n, "what if, replayed (%.0f%% of starts explained):",
				    100.0 * ts_wi_fidelity(x));
	for (size_t i = 0; i < nr && k < n; i++) {
		char what[96], step[32];
		change_short(r[i], what, sizeof what);
		ts_fmt_ms(step, sizeof step, (double)(x->wall_ns - x->saving_ns[r[i]]) / x->steps);
		k += (size_t)snprintf(buf + k, n - k, "%s %s %s a step (-%.0f%%)", i ? "," : "", what,
				      step, 100.0 * (double)x->saving_ns[r[i]] / (double)x->wall_ns);
	}
	if (!nr && k < n)
		snprintf(buf + k, n - k, " no change saves the step anything");
	bf_wrap(s, TS_BRIEF_PASS_TIMES, "   ", buf, 5);
}

void bf_pass_times(bf_build *s)
{
	const ts_result *res = s->res;
	const ts_brief_section P = TS_BRIEF_PASS_TIMES;
	if (!res->layers)
		return;
	int shown = 0;
	for (int stage = 0; stage < TS_PSTAGE_COUNT && shown < MAX_STAGE_ROWS; stage++) {
		bf_pass_sum ps;
		ts_sview st;
		bf_stage_passes(res->layers, stage, &ps);
		if (!ps.n || !bf_shown_stage(s->o, stage) ||
		    !ts_sview_of(res->layers, res->api, (ts_pstage)stage, &st))
			continue;
		if (!shown++)
			bf_add(s, P, TS_BRIEF_ROW, "%-10s %9s %9s %9s %6s %5s  %s", "Per pass",
			    "wall mean", "p50", "max", "busy", "idle", "idle: why");
		char mean[32], p50[32], max[32], why[64], name[24];
		const char *sn = ts_pstage_name((ts_pstage)stage);
		ts_fmt_ms(mean, sizeof mean, (double)st.wall_mean_ns);
		ts_fmt_ms(p50, sizeof p50, (double)st.wall_p50_ns);
		ts_fmt_ms(max, sizeof max, (double)st.wall_max_ns);
		idle_cause(&st, &ps.idle, why, sizeof why);
		double wall = (double)st.busy_ns + (double)st.idle_ns;
		snprintf(name, sizeof name, "%s%s", sn, ps.of_partials ? "*" : "");
		double busy = wall > 0 ? 100.0 * (double)st.busy_ns / wall : 0.0;
		ts_brief_stmt *x = bf_add(s, P, TS_BRIEF_ROW, " %-9s %9s %9s %9s %5.1f%% %4.1f%%  %s",
				       name, mean, p50, max, busy,
				       wall > 0 ? 100.0 * (double)st.idle_ns / wall : 0.0, why);
		bf_figure(x, (double)st.wall_mean_ns / 1e3, "us", "stages.%s.steps.wall_mean_us", sn);
		bf_figure(x, (double)st.wall_p50_ns / 1e3, "us", "stages.%s.steps.wall_p50_us", sn);
		bf_figure(x, (double)st.wall_max_ns / 1e3, "us", "stages.%s.steps.wall_max_us", sn);
		bf_figure(x, busy, "%", "%s", "");   /* busy over busy_us + idle_us */
		put_per_token(s, (ts_pstage)stage, &st);
		put_syncs(s, &st);
		put_whatif(s, stage);
	}
	if (shown && !s->o->filter_stage)
		put_between(s, ts_layers_between(res->layers));
}
