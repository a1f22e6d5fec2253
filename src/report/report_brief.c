/*
 * report_brief.c - the first screen of the text report: what the trace is
 * (and, with --capture, how much graph replay got its ops back), the time
 * per pass by stage with its busy and idle share, the typical layer of
 * each stage taken apart, the top categories and kernels, and the largest
 * opportunities (insight.h): a list of sections (sections[] below; the
 * top kernels are the kernels table's first rows, through the text sink).
 * At most TS_BRIEF_LINES lines, laid out for the report width (80 columns
 * when it has none); where a width applies
 * (a terminal, -w N) a longer line is cut with "...", elsewhere (a pipe,
 * a file, the web page) it is printed whole. --brief prints only this.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/insight.h"
#include "input/base/label.h"
#include "analysis/views/note.h"
#include "analysis/views/steps.h"
#include "analysis/views/whatif.h"
#include "input/base/satmath.h"
#include "report/report.h"
#include "report/report_text_int.h"
#include "report/version.h"

#define MAX_STAGE_ROWS 3       /* stages with passes shown per pass */
#define MAX_ANAT_STAGES 2      /* stages whose typical layer is shown */

typedef struct {
	FILE *out;
	int width;               /* the layout's columns */
	bool cut;                /* lines past it are cut (a terminal, -w) */
	int lines;
	/* what the sections read */
	const ts_result *res;
	const ts_report_opts *o;
	const ts_kview *v;
	const ts_breakdown *b;
	/* the opportunities it may show, picked once (the top kernels make
	 * room for the first): nop -1 until then */
	ts_opportunity op[3];
	int nop;
} screen;

/* One line, cut to the width with "..." when longer and a width applies. */
/* lead spaces, then n bytes of text: one line of the screen */
static void put_line(screen *s, size_t lead, const char *text, size_t n)
{
	fprintf(s->out, "%*s%.*s\n", (int)lead, "", (int)n, text);
	s->lines++;
}

/* A row of a table or the title: one line, cut with "..." to the width
 * where one is set (a name is cut; its row keeps its columns). */
static void row(screen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void row(screen *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (s->cut && strlen(buf) > (size_t)s->width && s->width > 3)
		memcpy(buf + s->width - 3, "...", 4);
	put_line(s, 0, buf, strlen(buf));
}

/* A statement: never cut; past the width it breaks at spaces, each line
 * after the first indented two past the first's indent. */
static void line(screen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(screen *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	size_t w = (size_t)s->width, ind = strspn(buf, " ") + 2, lead = 0;
	char *at = buf;
	while (s->cut && strlen(at) + lead > w && w > ind + 20) {
		size_t cut = w - lead;
		while (cut > 10 && at[cut] != ' ')
			cut--;
		if (at[cut] != ' ')
			cut = w - lead;
		put_line(s, lead, at, cut);
		at += cut;
		while (*at == ' ')
			at++;
		lead = ind;
	}
	put_line(s, lead, at, strlen(at));
}

/* head and text on as many lines as the width needs (a verdict is never
 * cut: each line breaks at a space, the next indented ind); printed
 * where print, and the lines it takes returned either way. */
static int wrap_lines(screen *s, const char *head, const char *text, int ind, bool print)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s%s", head, text);
	const char *at = buf;
	size_t w = (size_t)s->width, lead = 0;
	int n = 1;
	while (strlen(at) + lead > w && w > (size_t)ind + 20) {
		size_t cut = w - lead;
		while (cut > 10 && at[cut] != ' ')
			cut--;
		if (at[cut] != ' ')
			cut = w - lead;
		if (print)
			line(s, "%*s%.*s", (int)lead, "", (int)cut, at);
		n++;
		at += cut;
		while (*at == ' ')
			at++;
		lead = (size_t)ind;
	}
	if (print)
		line(s, "%*s%s", (int)lead, "", at);
	return n;
}

static void wrap_all(screen *s, const char *head, const char *text, int ind)
{
	wrap_lines(s, head, text, ind, true);
}

/* Milliseconds with three significant-ish digits. */
static void fmt_ms(char *buf, size_t n, double ns)
{
	double ms = ns / 1e6;
	if (ms >= 100)
		snprintf(buf, n, "%.0f ms", ms);
	else if (ms >= 1)
		snprintf(buf, n, "%.2f ms", ms);
	else
		snprintf(buf, n, "%.1f us", ns / 1e3);
}

/* Under --stage, only that stage's rows. */
static bool shown_stage(const ts_report_opts *o, int st)
{
	return !o->filter_stage || (ts_pstage)st == o->stage;
}

/* A stage's passes as the per-pass row counts them: complete passes only,
 * the partial ones (cut by the profile window) counted beside them. When
 * there is no complete pass, the partial ones, marked so. */
typedef struct {
	uint32_t n, partial;
	uint32_t drafts, draft_layers;   /* a speculative draft's forwards */
	uint8_t draft_by;                /* what told them from the target */
	bool of_partials;
	int64_t gpu_ns;
	ts_idle_pass idle;
} pass_sum;

/* What told the drafts from the target, as the first screen says it. */
static const char *draft_evidence(uint8_t by)
{
	switch (by) {
	case TS_DRAFT_ONCE: return ": the target verifies once a step beside them";
	case TS_DRAFT_ALONE: return ": the target has the count a step showed alone";
	case TS_DRAFT_DEEPER: return ": the deeper model is the target";
	case TS_DRAFT_CYCLE: return ": told by the cycle of the passes' layer counts";
	default: return "";
	}
}

static void stage_passes(const ts_layers *l, int st, pass_sum *ps)
{
	memset(ps, 0, sizeof *ps);
	for (int round = 0; round < 2 && ps->n == 0; round++) {
		ps->of_partials = round == 1;
		ps->partial = 0;
		for (size_t i = 0; i < ts_layers_npasses(l); i++) {
			const ts_pass *p = ts_layers_pass(l, i);
			if ((int)p->stage != st)
				continue;
			if (p->draft) {
				ps->drafts += round == 0;
				ps->draft_layers = p->layers;
				ps->draft_by = p->draft_by;
				continue;
			}
			if (p->complete == ps->of_partials) {
				ps->partial++;
				continue;
			}
			ps->n++;
			ps->gpu_ns = ts_sat_add(ps->gpu_ns, p->gpu_ns);
			ts_idle_sum(&ps->idle, &p->idle);
		}
	}
	if (ps->of_partials)
		ps->partial = ps->n;
}

static void put_what(screen *s)
{
	const ts_result *res = s->res;
	const ts_report_opts *o = s->o;
	const ts_kview *v = s->v;
	const ts_devprop *d = ts_report_devprop(res);
	const ts_meta *m = &res->meta;
	char gpu[512] = "";
	size_t k = 0;
	const char *vendor = ts_platform_name(res->platform);
	const char *name = d && (d->has & TS_DEV_HAS_NAME) && d->name[0] ? d->name
			 : res->gpu ? res->gpu->name : "";
	/* "AMD Instinct MI300X", not "AMD AMD Instinct MI300X" */
	if (strncmp(name, vendor, strlen(vendor)) != 0)
		k += (size_t)snprintf(gpu + k, sizeof gpu - k, "%s%s", vendor, name[0] ? " " : "");
	k += (size_t)snprintf(gpu + k, sizeof gpu - k, "%s", name);
	if (d && (d->has & TS_DEV_HAS_SMS) && k < sizeof gpu)
		snprintf(gpu + k, sizeof gpu - k, " (%" PRId64 " %s)", d->sm_count,
			 res->platform == TS_PLATFORM_AMD ? "CUs" : "SMs");
	char rank[48] = "";
	if ((m->has & TS_META_HAS_WORLD) && (m->has & TS_META_HAS_RANK))
		snprintf(rank, sizeof rank, ", rank %" PRId64 "/%" PRId64, m->rank, m->world_size);
	/* the family where one fits what ran, else what ran */
	const ts_model *mo = &res->model;
	char famb[320];
	const char *fam = famb;
	if (mo->family)
		fam = mo->family->name;
	else if (mo->tie)
		snprintf(famb, sizeof famb, "%s (a tie: %s or %s)",
			 mo->described[0] ? mo->described : "unknown", mo->tie->name,
			 mo->runner_up ? mo->runner_up->name : "?");
	else
		fam = mo->described[0] ? mo->described : "unknown";
	/* a job: every distinct GPU with its ranks, not rank 0's alone */
	char job[512];
	if (ts_report_job_gpus(o->ranks, job, sizeof job) > 0) {
		snprintf(gpu, sizeof gpu, "%s", job);
		rank[0] = '\0';
	}
	line(s, "  %s%s; model %s%s%s", gpu, rank, fam,
	     res->framework ? "; " : "", res->framework ? res->framework : "");
	/* busy time leads (the union of kernel intervals); kernel time is
	 * named beside it when streams overlap (steps.h has the words) */
	char kt[96];
	int64_t kns = v->all->total, busy = v->staged ? kns : ts_agg_busy_ns(res->agg);
	fmt_ms(kt, sizeof kt, (double)busy);
	if (busy < kns - kns / 100) {
		char k2[32];
		fmt_ms(k2, sizeof k2, (double)kns);
		size_t kl = strlen(kt);
		snprintf(kt + kl, sizeof kt - kl, " busy (%s kernel time)", k2);
	} else {
		size_t kl = strlen(kt);
		snprintf(kt + kl, sizeof kt - kl, v->staged ? " kernel time" : " busy and kernel time");
	}
	char kn[64];
	if (v->staged)
		snprintf(kn, sizeof kn, "%s: %" PRIu64 " kernels", ts_pstage_name(o->stage),
			 v->all->count);
	else
		snprintf(kn, sizeof kn, "%" PRIu64 " kernels", res->agg->kernels);
	char passes[200] = "", drafts[200] = "";
	k = 0;
	bool complete_any = false;
	for (int st = 0; res->layers && st < TS_PSTAGE_COUNT; st++) {
		pass_sum ps;
		stage_passes(res->layers, st, &ps);
		if (!ps.n || !shown_stage(o, st) || k >= sizeof passes)
			continue;
		complete_any |= !ps.of_partials;
		if (ps.drafts && !drafts[0])
			snprintf(drafts, sizeof drafts, "; and %" PRIu32 " forwards of a %" PRIu32
				 "-layer draft model (speculative decoding%s)", ps.drafts, ps.draft_layers,
				 draft_evidence(ps.draft_by));
		if (ps.of_partials)
			k += (size_t)snprintf(passes + k, sizeof passes - k, "%s%" PRIu32 " partial %s",
					      k ? ", " : "", ps.n, ts_pstage_name((ts_pstage)st));
		else if (ps.partial)
			k += (size_t)snprintf(passes + k, sizeof passes - k, "%s%" PRIu32 " %s (+%" PRIu32
					      " partial)", k ? ", " : "", ps.n,
					      ts_pstage_name((ts_pstage)st), ps.partial);
		else
			k += (size_t)snprintf(passes + k, sizeof passes - k, "%s%" PRIu32 " %s",
					      k ? ", " : "", ps.n, ts_pstage_name((ts_pstage)st));
	}
	uint32_t per = res->layers ? ts_layers_per_pass(res->layers) : 0;
	char note[300] = "no forward pass";
	bool none = res->layers && ts_note_passes(res, note, sizeof note);
	if (k && (none || !complete_any)) {   /* no complete pass: say so first */
		char *q;
		while ((q = strstr(passes, " partial")) != NULL)
			memmove(q, q + 8, strlen(q + 8) + 1);
		char all[1024];
		snprintf(all, sizeof all, "%s; partial passes %s; %s, %s", note, passes, kn, kt);
		wrap_all(s, "  ", all, 4);
	} else if (k) {
		char lay[48] = "";
		if (per)
			snprintf(lay, sizeof lay, " of %" PRIu32 " layers", per);
		line(s, "  passes %s%s%s; %s, %s", passes, lay, drafts, kn, kt);
		if (ts_layers_diffusion(res->layers)) {
			char dif[200];
			snprintf(dif, sizeof dif, "diffusion, not LLM generation: %s runs the passes, each "
				 "a denoising step through the transformer's blocks; no tokens are "
				 "generated, so the passes have no stage",
				 res->framework ? res->framework : "a diffusion framework");
			wrap_all(s, "  ", dif, 4);
		} else if (!ts_layers_generation(res->layers)) {
			wrap_all(s, "  ", "not LLM generation by what it holds: no step annotation, "
				 "token embedding, KV-cache write, stage-named attention or serving "
				 "framework; its repeating passes have no stage", 4);
		}
	} else {
		if (v->staged)
			snprintf(note, sizeof note, "no %s pass", ts_pstage_name(o->stage));
		char all[1024];
		snprintf(all, sizeof all, "%s, %s; %s", kn, kt, note);
		wrap_all(s, "  ", all, 4);
	}
}

/* --capture: how much of the graph replay got its ops back. */
static void put_replays(screen *s)
{
	const ts_result *res = s->res;
	if (!res->attrib)
		return;
	if (!res->replay) {
		/* graph replay with no op: what --capture would give back */
		const ts_attrib_totals *t = ts_attrib_get_totals(res->attrib);
		int64_t all = 0;
		for (int b = 0; b < TS_ATTR_COUNT; b++)
			all = ts_sat_add(all, t->ns[b]);
		if (all && t->ns[TS_ATTR_GRAPH] > all / 10)
			line(s, "  graph replay: %.1f%% of kernel time without ops or shapes; --capture "
			     "adds them",
			     100.0 * (double)t->ns[TS_ATTR_GRAPH] / (double)all);
		return;
	}
	const ts_replay_totals *rt = ts_replay_get_totals(res->replay);
	const ts_attrib_totals *t = ts_attrib_get_totals(res->attrib);
	int64_t all = 0;
	for (int b = 0; b < TS_ATTR_COUNT; b++)
		all = ts_sat_add(all, t->ns[b]);
	char none[48] = "";
	if (rt->refused)
		snprintf(none, sizeof none, " (%" PRIu64 " none)", rt->refused);
	line(s, "  --capture: %" PRIu64 " of %" PRIu64 " graph replays matched%s; ops for %.1f%% of kernel time",
	     rt->matched, rt->replays, none,
	     all ? 100.0 * (double)t->ns[TS_ATTR_GRAPH_OP] / (double)all : 0.0);
}

/* The time from each pass's end to the next one's start (layers.h): how
 * much the GPU sat idle just before the next pass, and whether it waited
 * for the CPU. */
static void put_between(screen *s, const ts_between *b)
{
	if (!b->gaps)
		return;
	char all[32], wait[32], rest[32], text[320];
	fmt_ms(all, sizeof all, (double)b->ns);
	fmt_ms(wait, sizeof wait, (double)b->wait_ns);
	fmt_ms(rest, sizeof rest, (double)(b->ns - b->wait_ns));
	int k = snprintf(text, sizeof text, "%" PRIu64 " gap%s, %s: the GPU idle %s before the next "
			 "pass", b->gaps, b->gaps > 1 ? "s" : "", all, wait);
	if (b->checked && k > 0 && (size_t)k < sizeof text)
		k += snprintf(text + k, sizeof text - (size_t)k, " (the CPU late before %" PRIu64
			      " of %" PRIu64 ")", b->late, b->checked);
	if (b->ns - b->wait_ns > b->ns / 20 && k > 0 && (size_t)k < sizeof text)
		snprintf(text + k, sizeof text - (size_t)k, "; %s ran kernels outside the passes",
			 rest);
	wrap_all(s, " between passes: ", text, 3);
}

/* Why the GPU sat idle in the stage's passes: the CPU late (launch-bound
 * gaps), or how many gaps and the largest. */
static void idle_cause(const ts_steps *st, const ts_idle_pass *d, char *buf, size_t n)
{
	char a[32], b[32];
	if (st->idle_ns <= 0) {
		snprintf(buf, n, "-");
	} else if (st->launch_ns > 0) {
		fmt_ms(a, sizeof a, (double)st->launch_ns / st->passes);
		snprintf(buf, n, "CPU late %s (%.0f%%)", a,
			 100.0 * (double)st->launch_ns / (double)st->idle_ns);
	} else {
		fmt_ms(b, sizeof b, (double)d->largest_ns);
		snprintf(buf, n, "%.0f gaps, largest %s", (double)d->gaps / st->passes, b);
	}
}

static const char *token_how(const ts_steps *st)
{
	return st->token_from == TS_TOKEN_STEPS ? "step to step"
	     : st->token_from == TS_TOKEN_WINDOW ? (st->passes > 1 ? "its steps' windows, p50"
								 : "one step: its window")
	     : "one step: its pass, no step window";
}

/* Is the time around the stage's passes in their steps said (2% of the
 * steps or more, where a step is its window)? */
static bool step_parts_shown(const ts_steps *st)
{
	return st->token_from == TS_TOKEN_WINDOW && st->windows &&
	       (st->before_ns + st->after_ns) * 50 >= st->window_p50_ns * (int64_t)st->windows;
}

/* ... and does it name the CPU's synchronizing call that filled most of
 * the GPU's idle before the pass? */
static bool step_names_wait(const ts_steps *st)
{
	return step_parts_shown(st) && st->before_sync &&
	       2 * st->before_sync_ns >= st->before_ns - st->before_busy_ns;
}

/* Where a step's window holds more than its pass: the time before the
 * pass's first kernel (the GPU mostly idle: the CPU preparing the step's
 * inputs and launching its first kernel) and after its last, per step,
 * when they are 2% of the step or more. */
/* The replay's time a stage's steps waited with queued kernels and no
 * cause in the trace, a step (0: none, or no replay). */
static int64_t unexplained_wait(const ts_result *res, ts_pstage stage)
{
	const ts_whatif *w = ts_result_module(res, &ts_whatif_module);
	const ts_wi_stage *x = w ? ts_whatif_stage(w, stage) : NULL;
	return ts_wi_wait_ns(x);
}

static void put_step_parts(screen *s, ts_pstage stage, const ts_steps *st)
{
	if (!step_parts_shown(st))
		return;
	int64_t wall = st->window_p50_ns * st->windows;
	char b[32], i[32], a[32], text[400];
	fmt_ms(b, sizeof b, (double)st->before_ns / st->windows);
	fmt_ms(i, sizeof i, (double)(st->before_ns - st->before_busy_ns) / st->windows);
	fmt_ms(a, sizeof a, (double)st->after_ns / st->windows);
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
		fmt_ms(w, sizeof w, (double)st->before_sync_ns / st->windows);
		snprintf(why, sizeof why, "the CPU %s in %s", w, st->before_sync);
	}
	int n = snprintf(text, sizeof text, "of it %s before the pass (GPU idle %s: %s)", b, i, why);
	if (st->after_ns * 100 >= wall && n > 0 && (size_t)n < sizeof text)
		snprintf(text + n, sizeof text - (size_t)n, ", %s after it", a);
	wrap_all(s, "   ", text, 5);
}

/* Per token, where the batch or the tokens are known: a decode step's
 * time per output token, a prefill's tokens per second. */
static void put_per_token(screen *s, ts_pstage stage, const ts_steps *st)
{
	char t[32], w[32];
	pass_sum ps;
	stage_passes(s->res->layers, (int)stage, &ps);
	if (stage == TS_PSTAGE_DECODE && st->token_ns > 0 && ps.drafts && ps.n) {
		/* speculative decoding: a step gives each sequence one to k + 1
		 * tokens, as many as the target accepts; the trace does not say */
		uint32_t k = (ps.drafts + ps.n - 1) / ps.n;
		fmt_ms(t, sizeof t, (double)st->token_ns);
		char tail[96] = "";
		if (st->tokens_per_s > 0)
			snprintf(tail, sizeof tail, ": %.0f to %.0f tokens/s", st->tokens_per_s,
				 st->tokens_per_s * (k + 1));
		line(s, "   per step %s (%s), 1 to %" PRIu32 " tokens a sequence (%" PRIu32
		     " draft forwards a step, accepted or not)%s", t, token_how(st), k + 1, k, tail);
	} else if (stage == TS_PSTAGE_DECODE && st->token_ns > 0) {
		fmt_ms(t, sizeof t, (double)st->token_ns);
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
		line(s, "   per output token %s (%s)%s", t, how, tail);
		put_step_parts(s, stage, st);
	} else if (stage != TS_PSTAGE_DECODE && st->tokens > 0 && st->tokens_per_s > 0 &&
		   st->token_from == TS_TOKEN_WINDOW) {
		fmt_ms(w, sizeof w, (double)st->wall_mean_ns);
		fmt_ms(t, sizeof t, (double)st->tokens_wall_ns / st->passes);
		line(s, "   %.0f tokens a pass, %s a step (the pass %s): %.0f tokens/s",
		     (double)st->tokens / st->passes, t, w, st->tokens_per_s);
		put_step_parts(s, stage, st);
	} else if (stage != TS_PSTAGE_DECODE && st->tokens > 0 && st->tokens_per_s > 0) {
		fmt_ms(w, sizeof w, (double)st->wall_mean_ns);
		line(s, "   %.0f tokens a pass, %s wall: %.0f tokens/s",
		     (double)st->tokens / st->passes, w, st->tokens_per_s);
	}
}

/* Calls that made the CPU wait for the GPU inside the stage's passes: no
 * launch goes out while one runs. Said where the GPU sat idle in the
 * passes (2% of their wall or more): with the GPU busy all along, the
 * wait cost it nothing (JSON has them either way). Beside the CPU's time
 * in the passes it is part of: a wait can begin before the pass's GPU
 * work and be longer than its wall. */
static void put_syncs(screen *s, const ts_steps *st)
{
	int64_t wall = st->busy_ns + st->idle_ns;
	if (!st->sync_calls || st->idle_ns * 50 < wall)
		return;
	/* the step's line named most of these waits already */
	if (step_names_wait(st) && 2 * st->before_sync_ns >= st->sync_ns)
		return;
	char t[32], w[32], text[256];
	fmt_ms(t, sizeof t, (double)st->sync_ns / st->passes);
	fmt_ms(w, sizeof w, (double)st->sync_window_ns / st->passes);
	const char *head = "   CPU waits on the GPU: ";
	if (st->sync_calls == 1)
		snprintf(text, sizeof text, "%s of its %s a pass (%s)", t, w, st->sync_top);
	else
		snprintf(text, sizeof text, "%s of its %s a pass (%" PRIu64 " calls, most in %s)", t,
			 w, st->sync_calls, st->sync_top);
	if (st->sync_calls > 1 && s->width > 0 && strlen(head) + strlen(text) > (size_t)s->width)
		snprintf(text, sizeof text, "%s of its %s a pass (%" PRIu64 " calls)", t, w,
			 st->sync_calls);   /* one line: the screen counts them */
	line(s, "%s%s", head, text);
}

static void put_pass_times(screen *s)
{
	const ts_result *res = s->res;
	const ts_report_opts *o = s->o;
	if (!res->layers)
		return;
	int shown = 0;
	for (int stage = 0; stage < TS_PSTAGE_COUNT && shown < MAX_STAGE_ROWS; stage++) {
		pass_sum ps;
		ts_steps st;
		stage_passes(res->layers, stage, &ps);
		if (!ps.n || !shown_stage(o, stage) || !ts_steps_of(res->layers, res->api, (ts_pstage)stage, &st))
			continue;
		if (!shown++)
			row(s, "%-10s %9s %9s %9s %6s %5s  %s", "Per pass", "wall mean", "p50", "max",
			     "busy", "idle", "idle: why");
		char mean[32], p50[32], max[32], why[64], name[24];
		fmt_ms(mean, sizeof mean, (double)st.wall_mean_ns);
		fmt_ms(p50, sizeof p50, (double)st.wall_p50_ns);
		fmt_ms(max, sizeof max, (double)st.wall_max_ns);
		idle_cause(&st, &ps.idle, why, sizeof why);
		double wall = (double)st.busy_ns + (double)st.idle_ns;
		snprintf(name, sizeof name, "%s%s", ts_pstage_name((ts_pstage)stage),
			 ps.of_partials ? "*" : "");
		row(s, " %-9s %9s %9s %9s %5.1f%% %4.1f%%  %s", name, mean, p50, max,
		     wall > 0 ? 100.0 * (double)st.busy_ns / wall : 0.0,
		     wall > 0 ? 100.0 * (double)st.idle_ns / wall : 0.0, why);
		put_per_token(s, (ts_pstage)stage, &st);
		put_syncs(s, &st);
		char wi[400];
		if (ts_report_whatif_brief(res, stage, wi, sizeof wi))
			wrap_all(s, "   ", wi, 5);
	}
	if (shown && !o->filter_stage)
		put_between(s, ts_layers_between(res->layers));
}

typedef struct {
	int type;
	int64_t ns;
} tshare;

static int cmp_tshare(const void *a, const void *b)
{
	const tshare *x = a, *y = b;
	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : x->type - y->type;
}

/* What the self-check found against the layers above, with its numbers
 * (layers.doubt in JSON). */
static void put_doubt(screen *s, const ts_layer_doubt *d)
{
	char a[128] = "", b[200] = "", c[160] = "", all[500];
	if (d->attn_outside)
		snprintf(a, sizeof a, "%" PRIu64 " attention kernel%s in no layer (%" PRIu32
			 " complete pass%s)", d->attn_outside, d->attn_outside > 1 ? "s" : "",
			 d->attn_passes, d->attn_passes > 1 ? "es" : "");
	if (d->differ)
		snprintf(b, sizeof b, "%" PRIu64 " of %" PRIu64 " layers off their type's kernel "
			 "count (pass %" PRIu32 " layer %" PRIu32 ", %s: %" PRIu32 " kernels, typical %"
			 PRIu32 ")", d->differ, d->checked, d->first.pass, d->first.layer,
			 ts_ltype_name(d->first.type), d->first.kernels, d->first.typical_kernels);
	if (d->thin)
		snprintf(c, sizeof c, "in %" PRIu32 " complete pass%s layers hold under %.0f%% of the "
			 "time from the first layer's start to the last's end (pass %" PRIu32 ": %.0f%%)", d->thin,
			 d->thin > 1 ? "es" : "", 100.0 * TS_LAYERS_HOLD, d->thin_pass,
			 100.0 * d->thin_share);
	if (!*a && !*b && !*c)
		return;
	snprintf(all, sizeof all, "%s%s%s%s%s", c, *c && (*a || *b) ? "; " : "", a,
		 *a && *b ? "; " : "", b);
	wrap_all(s, "  layers in doubt: ", all, 4);
}

static void put_anatomy(screen *s)
{
	const ts_result *res = s->res;
	const ts_report_opts *o = s->o;
	const ts_anatomy *a = res->layers ? ts_layers_anatomy(res->layers) : NULL;
	int shown = 0;
	for (int st = 0; a && st < TS_PSTAGE_COUNT && shown < MAX_ANAT_STAGES; st++) {
		uint64_t nl = ts_anatomy_layers(a, st);
		if (!nl || !shown_stage(o, st))
			continue;
		shown++;
		const ts_anat_sum *tot = ts_anatomy_total(a, st);
		char mean[32], p50[32];
		fmt_ms(mean, sizeof mean, (double)tot->ns / (double)nl);
		fmt_ms(p50, sizeof p50, (double)ts_stat_quantile(ts_anatomy_layer_time(a, st), 0.5));
		ts_roofline r;
		ts_roofline_sum(res, tot, &r);
		char rate[64] = "";
		if (r.has_flops)
			snprintf(rate, sizeof rate, r.tflops >= 10 ? ", %.0f TFLOP/s" : ", %.2g TFLOP/s",
				 r.tflops);
		const ts_stat *wall = ts_anatomy_layer_wall(a, st);
		if (wall->count) {
			char wm[32], wp[32];
			fmt_ms(wm, sizeof wm, (double)wall->total / (double)wall->count);
			fmt_ms(wp, sizeof wp, (double)ts_stat_quantile(wall, 0.5));
			/* the p50 goes where the line would not fit */
			char tail[128];
			snprintf(tail, sizeof tail, "%.0f kernels, %s kernel time%s",
				 (double)tot->count / (double)nl, mean, rate);
			const char *stn = ts_pstage_name((ts_pstage)st);
			if (snprintf(NULL, 0, "Typical %s layer %s wall (p50 %s), %s", stn, wm, wp, tail) <=
			    s->width)
				line(s, "Typical %s layer %s wall (p50 %s), %s", stn, wm, wp, tail);
			else
				line(s, "Typical %s layer %s wall, %s", stn, wm, tail);
		} else {
			line(s, "Typical %s layer kernel time %s (p50 %s), %.0f kernels%s",
			     ts_pstage_name((ts_pstage)st), mean, p50, (double)tot->count / (double)nl, rate);
		}
		tshare sh[TS_TYPE_COUNT];
		int n = 0;
		for (int t = 0; t < TS_TYPE_COUNT; t++) {
			const ts_anat_type *ty = ts_anatomy_type(a, st, t);
			if (ty->sum.ns > 0)
				sh[n++] = (tshare){ t, ty->sum.ns };
		}
		qsort(sh, (size_t)n, sizeof *sh, cmp_tshare);
		char buf[512];
		size_t k = 0;
		for (int i = 0; i < n && k < sizeof buf; i++) {
			char part[64];
			snprintf(part, sizeof part, "%s%s %.1f%%", i ? ", " : "",
				 ts_ktype_name((ts_ktype)sh[i].type),
				 100.0 * (double)sh[i].ns / (double)tot->ns);
			/* keep to one line: the rest summed */
			if (k + strlen(part) + 2 > (size_t)s->width - 16 && i + 1 < n) {
				int64_t rest = 0;
				for (int j = i; j < n; j++)
					rest = ts_sat_add(rest, sh[j].ns);
				snprintf(buf + k, sizeof buf - k, ", rest %.1f%%",
					 100.0 * (double)rest / (double)tot->ns);
				k = strlen(buf);
				break;
			}
			k += (size_t)snprintf(buf + k, sizeof buf - k, "%s", part);
		}
		line(s, "  %s", buf);
	}
	if (shown && res->layers)
		put_doubt(s, ts_layers_doubt(res->layers));
}

static void put_categories(screen *s)
{
	const ts_result *res = s->res;
	const ts_breakdown *b = s->b;
	if (!res->patterns || b->total_ns == 0)
		return;
	size_t *idx = malloc((b->ncats + 1) * sizeof *idx);
	if (!idx)
		return;
	size_t n = ts_sort_buckets(b->cats, b->ncats + 1, idx);
	char buf[512];
	size_t k = (size_t)snprintf(buf, sizeof buf, "Top categories");
	for (size_t i = 0; i < n && i < 6; i++) {
		char part[96];
		snprintf(part, sizeof part, "%s %s %.1f%%", i ? "," : "",
			 ts_breakdown_cat_name(res, idx[i]),
			 b->total_ns ? 100.0 * (double)b->cats[idx[i]].total_ns / (double)b->total_ns : 0.0);
		if (k + strlen(part) > (size_t)s->width)
			break;
		k += (size_t)snprintf(buf + k, sizeof buf - k, "%s", part);
	}
	free(idx);
	line(s, "%s", buf);
}

/* A table of report_table.c as text (report_textsink.c), a line of the
 * screen each. */
static void put_table_lines(screen *s, const char *name, ts_text_table t)
{
	char *buf = NULL;
	size_t len = 0;
	t.out = open_memstream(&buf, &len);
	if (!t.out)
		return;
	ts_table_sink k = ts_text_sink(&t);
	ts_report_table(s->res, s->o, name, &k);
	fclose(t.out);
	for (const char *l = buf; l && *l; ) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		row(s, "%.*s", (int)n, l);
		l += n + (nl != NULL);
	}
	free(buf);
}

static void top_kernels_title(void *ctx, FILE *out, const char *group)
{
	(void)ctx, (void)group;
	fputs("Top kernels  kernel time  calls  category\n", out);
}

static void fmt_total_ms(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	fmt_ms(buf, n, (double)ts_text_cell(t, row, "total_us")->i);
}

static void fmt_category16(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *c = ts_text_cell(t, row, "category");
	snprintf(buf, n, "%.*s", (int)(c->len < 16 ? c->len : 16), c->s ? c->s : "");
}

/* The kernels table's first three rows. */
static void opportunity_text(const ts_result *res, const ts_opportunity *op, size_t i,
			     char *head, char *text);
static size_t pick_opportunities(screen *s);

/* The top kernels, three rows where the screen has room beside the
 * first opportunity whole (one at least). */
static void put_top_kernels(screen *s)
{
	int need = 0;
	if (pick_opportunities(s)) {
		char head[64], text[480];
		opportunity_text(s->res, &s->op[0], 0, head, text);
		need = 1 + wrap_lines(s, head, text, 6, false);
	}
	int rows = TS_BRIEF_LINES - s->lines - 1 - need;
	rows = rows > 3 ? 3 : rows < 1 ? 1 : rows;
	static const ts_text_col cols[] = {
		{ .col = "pct", .width = 6, .decimals = 1, .suffix = "%" },
		{ .col = "total_us", .width = 11, .decimals = -1, .fmt = fmt_total_ms },
		{ .col = "count", .width = 6, .decimals = -1 },
		{ .col = "category", .width = -16, .decimals = -1, .gap = 2, .fmt = fmt_category16 },
		{ .col = "short", .decimals = -1, .place = TS_TEXT_NAME },
	};
	put_table_lines(s, "kernels", (ts_text_table){ .cols = cols, .ncols = sizeof cols / sizeof *cols,
						       .group = "", .heading = top_kernels_title,
						       .bare = true, .max_rows = (size_t)rows });
}

/* An opportunity's head (" 1. 2.72 ms  prefill: ") and text (64 and 480
 * bytes): what it saves, else its time at stake, and the time at stake
 * beside a saving well under it. */
static void opportunity_text(const ts_result *res, const ts_opportunity *op, size_t i,
			     char *head, char *text)
{
	char t[32];
	fmt_ms(t, sizeof t, (double)(op->saves_ns >= 0 ? op->saves_ns : op->at_stake_ns));
	snprintf(text, 480, "%s", op->text);
	if (op->saves_ns >= 0 && op->saves_ns * 10 < op->at_stake_ns * 9) {
		char a[32];
		fmt_ms(a, sizeof a, (double)op->at_stake_ns);
		size_t k = strlen(text);
		snprintf(text + k, 480 - k, " (%s at stake)", a);
	}
	bool any_pass = res->layers && ts_layers_npasses(res->layers) > 0;
	if (!any_pass)
		snprintf(head, 64, " %zu. %s  ", i + 1, t);
	else
		snprintf(head, 64, " %zu. %s  %s: ", i + 1, t, ts_pstage_name((ts_pstage)op->stage));
}

/* The opportunities the screen may show, at most three (under --stage,
 * that stage's), in s->op; returns how many. Made once. */
static size_t pick_opportunities(screen *s)
{
	if (s->nop >= 0)
		return (size_t)s->nop;
	ts_opportunity all[TS_INSIGHT_MAX];
	size_t na = ts_insight_opportunities(s->res, all, TS_INSIGHT_MAX), n = 0;
	for (size_t i = 0; i < na && n < 3; i++)
		if (!s->o->filter_stage || (ts_pstage)all[i].stage == s->o->stage)
			s->op[n++] = all[i];
	s->nop = (int)n;
	return n;
}

static void put_opportunities(screen *s)
{
	const ts_result *res = s->res;
	const ts_opportunity *op = s->op;
	size_t n = pick_opportunities(s);
	if (!n)
		return;
	char head[3][64], text[3][480];
	/* each whole, wrapped (never cut); as many as the screen has room
	 * for, one at least */
	int room = TS_BRIEF_LINES - s->lines - 1;
	size_t shown = 0;
	for (size_t i = 0; i < n; i++) {
		opportunity_text(res, &op[i], i, head[i], text[i]);
		room -= wrap_lines(s, head[i], text[i], 6, false);
		if (room < 0 && i > 0)
			break;
		shown++;
	}
	bool saves = false;
	for (size_t i = 0; i < shown; i++)
		saves |= op[i].saves_ns >= 0;
	line(s, "%s", saves ? "Largest opportunities (what each saves the steps, replayed; else "
			      "time at stake)" : "Largest opportunities (time at stake)");
	for (size_t i = 0; i < shown; i++)
		wrap_all(s, head[i], text[i], 6);
}

/* Where collectives ran: the busy time split into computation,
 * communication and copies, and how much of each ran hidden under
 * another (agg.h: ts_agg_overlap). Only where collectives ran. */
static void put_overlap(screen *s)
{
	ts_overlap ov;
	ts_agg_overlap(s->res->agg, &ov);
	if (ov.comm_ns <= 0 || s->v->staged)
		return;
	char comp[32], comm[32], mem[64] = "";
	fmt_ms(comp, sizeof comp, (double)ov.compute_ns);
	fmt_ms(comm, sizeof comm, (double)ov.comm_ns);
	if (ov.mem_ns > 0) {
		char m[32];
		fmt_ms(m, sizeof m, (double)ov.mem_ns);
		snprintf(mem, sizeof mem, ", copies %s (%.0f%% hidden)", m,
			 100.0 * (double)ov.mem_hidden_ns / (double)ov.mem_ns);
	}
	line(s, "  overlap: compute %s, collectives %s (%.0f%% hidden under compute)%s", comp,
	     comm, 100.0 * (double)ov.comm_hidden_ns / (double)ov.comm_ns, mem);
}

/* The first screen, section by section, in this order. */
/* Device memory, where the trace has the allocator's events. */
static void put_memory(screen *s)
{
	char buf[512];
	if (ts_report_memory_brief(s->res, buf, sizeof buf))
		wrap_all(s, "  ", buf, 4);
}

static void (*const sections[])(screen *s) = {
	put_what,            /* the trace, GPU, model, passes and layers found */
	put_overlap,         /* computation, communication, copies: what hid what */
	put_memory,          /* device memory: peaks, cache, growth a pass */
	put_replays,         /* --capture: how much graph replay got its ops back */
	put_pass_times,      /* time per pass by stage, busy and idle */
	put_anatomy,         /* the typical layer of each stage taken apart */
	put_categories,      /* the top categories */
	put_top_kernels,     /* the kernels table's first rows */
	put_opportunities,   /* the largest opportunities (insight.h) */
};

int ts_report_brief(FILE *out, const ts_result *res, const ts_report_opts *o,
		    const ts_kview *v, const ts_breakdown *b)
{
	screen s = { .out = out, .width = o->width > 0 ? o->width : 80, .cut = o->width > 0,
		     .res = res, .o = o, .v = v, .b = b, .nop = -1 };
	if (s.width < 60)
		s.width = 60;
	row(&s, "tracestream %s: %s", TS_VERSION, ts_path_label(res->path, true));
	if (res->partial)
		line(&s, "PARTIAL REPORT: %s", res->err.msg);
	/* a folder of unrelated traces is said to be one before any figure */
	char why[96];
	if (o->ranks && ts_report_job_unrelated(o->ranks, why, sizeof why))
		line(&s, "NOT ONE JOB: %zu traces of other runs (%s): RANKS has each one's own "
		     "figures; the totals below add them up", o->ranks->n, why);
	for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
		sections[i](&s);
	return s.lines;
}

char *ts_report_first_screen(const ts_result *res, const ts_report_opts *o, size_t *len)
{
	char *buf = NULL;
	*len = 0;
	FILE *mem = open_memstream(&buf, len);
	if (!mem)
		return NULL;
	ts_report_opts bo = *o;
	bo.width = 0;   /* lines whole, laid out for 80 columns */
	ts_kview v = ts_report_view(res, &bo);
	ts_breakdown b;
	if (ts_kview_breakdown(res, &v, &b) == 0) {
		ts_report_brief(mem, res, &bo, &v, &b);
		ts_breakdown_free(&b);
	}
	if (fclose(mem) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
