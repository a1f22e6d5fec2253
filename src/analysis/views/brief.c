/*
 * brief.c - the first screen as a record (brief.h): its statements and
 * the helpers that add them, and the sections in their order: what the
 * trace is, the overlap of collectives, device memory, --capture's
 * replays, the time per pass by stage (brief_pass.c), the typical layer
 * of each stage, the top categories, the place of the top kernels and the
 * largest opportunities, built once from the result. The words are the
 * screen's; how they are laid out for a width is report_brief.c's.
 */
#include "analysis/views/brief.h"
#include "analysis/views/brief_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/aview.h"
#include "analysis/views/insight.h"
#include "analysis/views/memory.h"
#include "analysis/views/lview.h"
#include "input/base/satmath.h"

#define MAX_ANAT_STAGES 2      /* stages whose typical layer is shown */
#define MAX_OPPS 3             /* opportunities the screen may show */

/* A string made from fmt, malloc'd; NULL where memory runs out. */
static char *vfmt(const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static char *dup_s(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* A statement at the end of the record, its text from fmt; NULL where
 * memory ran out (b->nomem says so, and the helpers below take NULL). */
ts_brief_stmt *bf_add(bf_build *s, ts_brief_section sec, ts_brief_kind kind, const char *fmt, ...)
{
	ts_brief *b = s->b;
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 32;
		ts_brief_stmt *g = realloc(b->s, cap * sizeof *g);
		if (!g) {
			b->nomem = true;
			return NULL;
		}
		b->s = g;
		b->cap = cap;
	}
	ts_brief_stmt *st = &b->s[b->n];
	memset(st, 0, sizeof *st);
	va_list ap;
	va_start(ap, fmt);
	st->text = vfmt(fmt, ap);
	va_end(ap);
	if (!st->text) {
		b->nomem = true;
		return NULL;
	}
	st->section = sec;
	st->kind = kind;
	b->n++;
	return st;
}

/* head and text broken at the layout's width, the next lines indented ind. */
ts_brief_stmt *bf_wrap(bf_build *s, ts_brief_section sec, const char *head, const char *text,
			   int ind)
{
	ts_brief_stmt *st = bf_add(s, sec, TS_BRIEF_WRAP, "%s", text);
	if (st) {
		st->indent = ind;
		st->head = dup_s(head);
		s->b->nomem |= !st->head;
	}
	return st;
}

void bf_alt(bf_build *s, ts_brief_stmt *st, ts_brief_alt when, const char *text)
{
	if (!st)
		return;
	st->alt = dup_s(text);
	st->alt_when = st->alt ? when : TS_BRIEF_ALT_NONE;
	s->b->nomem |= !st->alt;
}

static void part(bf_build *s, ts_brief_stmt *st, const char *text, const char *rest)
{
	if (!st)
		return;
	ts_brief_part *g = realloc(st->parts, (st->nparts + 1) * sizeof *g);
	char *t = dup_s(text), *r = rest ? dup_s(rest) : NULL;
	if (!g || !t || (rest && !r)) {
		if (g)
			st->parts = g;
		free(t);
		free(r);
		s->b->nomem = true;
		return;
	}
	st->parts = g;
	g[st->nparts++] = (ts_brief_part){ t, r };
}

/* A figure the statement rests on: ns as microseconds where unit is "us". */
void bf_figure(ts_brief_stmt *st, double value, const char *unit, const char *fmt, ...)
{
	if (!st || st->nfig == TS_BRIEF_FIGURES)
		return;
	ts_brief_figure *f = &st->fig[st->nfig++];
	f->value = value;
	f->unit = unit;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->field, sizeof f->field, fmt, ap);
	va_end(ap);
}

/* Under --stage, only that stage's rows. */
bool bf_shown_stage(const ts_brief_opts *o, int st)
{
	return !o->filter_stage || (ts_pstage)st == o->stage;
}

/* What told the drafts from the target, as the first screen says it. */
static const char *draft_evidence(uint8_t by)
{
	switch (by) {
	case TS_DRAFT_ONCE: return ": the target verifies once a step beside them";
	case TS_DRAFT_ALONE: return ": the target has the count a step showed alone";
	case TS_DRAFT_DEEPER: return ": the deeper model is the target";
	case TS_DRAFT_CYCLE: return ": told by the cycle of the passes' layer counts";
	case TS_DRAFT_GRAPH: return ": several replayed from one graph, the target's alone";
	case TS_DRAFT_TOKENS: return ": the target verifies their tokens, k a sequence";
	default: return "";
	}
}

void bf_stage_passes(const ts_layers *l, int st, bf_pass_sum *ps)
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

/* The GPU as the first line names it: "NVIDIA H100 (132 SMs)", a job's
 * GPUs with their ranks; the rank of the job beside it. */
static void what_gpu(bf_build *s, char *gpu, size_t gn, char *rank, size_t rn)
{
	const ts_result *res = s->res;
	const ts_devprop *d = ts_result_devprop(res);
	const ts_meta *m = &res->meta;
	size_t k = 0;
	const char *vendor = ts_platform_name(res->platform);
	const char *name = d && (d->has & TS_DEV_HAS_NAME) && d->name[0] ? d->name
			 : res->gpu ? res->gpu->name : "";
	gpu[0] = '\0';
	/* "AMD Instinct MI300X", not "AMD AMD Instinct MI300X" */
	if (strncmp(name, vendor, strlen(vendor)) != 0)
		k += (size_t)snprintf(gpu + k, gn - k, "%s%s", vendor, name[0] ? " " : "");
	k += (size_t)snprintf(gpu + k, gn - k, "%s", name);
	if (d && (d->has & TS_DEV_HAS_SMS) && k < gn)
		snprintf(gpu + k, gn - k, " (%" PRId64 " %s)", d->sm_count,
			 res->platform == TS_PLATFORM_AMD ? "CUs" : "SMs");
	rank[0] = '\0';
	if ((m->has & TS_META_HAS_WORLD) && (m->has & TS_META_HAS_RANK))
		snprintf(rank, rn, ", rank %" PRId64 "/%" PRId64, m->rank, m->world_size);
	/* a job: every distinct GPU with its ranks, not rank 0's alone */
	char job[512];
	if (ts_job_gpus(s->o->ranks, job, sizeof job) > 0) {
		snprintf(gpu, gn, "%s", job);
		rank[0] = '\0';
	}
}

/* The passes of each stage shown ("12 decode (+1 partial)"), in passes;
 * a speculative draft's forwards in drafts. Returns its length (0: none);
 * *complete whether any stage has a complete pass. */
static size_t what_passes(bf_build *s, char *passes, size_t pn, char *drafts, size_t dn,
			  bool *complete)
{
	const ts_result *res = s->res;
	size_t k = 0;
	passes[0] = drafts[0] = '\0';
	*complete = false;
	for (int st = 0; res->layers && st < TS_PSTAGE_COUNT; st++) {
		bf_pass_sum ps;
		bf_stage_passes(res->layers, st, &ps);
		if (!ps.n || !bf_shown_stage(s->o, st) || k >= pn)
			continue;
		*complete |= !ps.of_partials;
		if (ps.drafts && !drafts[0])
			snprintf(drafts, dn, "; and %" PRIu32 " forwards of a %" PRIu32
				 "-layer draft model (speculative decoding%s)", ps.drafts, ps.draft_layers,
				 draft_evidence(ps.draft_by));
		if (ps.of_partials)
			k += (size_t)snprintf(passes + k, pn - k, "%s%" PRIu32 " partial %s",
					      k ? ", " : "", ps.n, ts_pstage_name((ts_pstage)st));
		else if (ps.partial)
			k += (size_t)snprintf(passes + k, pn - k, "%s%" PRIu32 " %s (+%" PRIu32
					      " partial)", k ? ", " : "", ps.n,
					      ts_pstage_name((ts_pstage)st), ps.partial);
		else
			k += (size_t)snprintf(passes + k, pn - k, "%s%" PRIu32 " %s",
					      k ? ", " : "", ps.n, ts_pstage_name((ts_pstage)st));
	}
	return k;
}

static void put_what(bf_build *s)
{
	const ts_result *res = s->res;
	const ts_kview *v = s->v;
	const ts_brief_section W = TS_BRIEF_WHAT;
	char gpu[512], rank[48];
	what_gpu(s, gpu, sizeof gpu, rank, sizeof rank);
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
	bf_add(s, W, TS_BRIEF_LINE, "  %s%s; model %s%s%s", gpu, rank, fam,
	    res->framework ? "; " : "", res->framework ? res->framework : "");
	/* busy time leads (the union of kernel intervals); kernel time is
	 * named beside it when streams overlap (sview.h has the words) */
	char kt[96];
	int64_t kns = v->all->total, busy = v->staged ? kns : ts_agg_busy_ns(res->agg);
	ts_fmt_ms(kt, sizeof kt, (double)busy);
	if (busy < kns - kns / 100) {
		char k2[32];
		ts_fmt_ms(k2, sizeof k2, (double)kns);
		size_t kl = strlen(kt);
		snprintf(kt + kl, sizeof kt - kl, " busy (%s kernel time)", k2);
	} else {
		size_t kl = strlen(kt);
		snprintf(kt + kl, sizeof kt - kl, v->staged ? " kernel time" : " busy and kernel time");
	}
	char kn[64];
	if (v->staged)
		snprintf(kn, sizeof kn, "%s: %" PRIu64 " kernels", ts_pstage_name(s->o->stage),
			 v->all->count);
	else
		snprintf(kn, sizeof kn, "%" PRIu64 " kernels", res->agg->kernels);
	char passes[200], drafts[200];
	bool complete_any;
	size_t k = what_passes(s, passes, sizeof passes, drafts, sizeof drafts, &complete_any);
	uint32_t per = res->layers ? ts_layers_per_pass(res->layers) : 0;
	char note[300] = "no forward pass";
	bool none = res->layers && ts_note_passes(res, note, sizeof note);
	if (k && (none || !complete_any)) {   /* no complete pass: say so first */
		char *q;
		while ((q = strstr(passes, " partial")) != NULL)
			memmove(q, q + 8, strlen(q + 8) + 1);
		char all[1024];
		snprintf(all, sizeof all, "%s; partial passes %s; %s, %s", note, passes, kn, kt);
		bf_wrap(s, W, "  ", all, 4);
	} else if (k) {
		char lay[48] = "";
		if (per)
			snprintf(lay, sizeof lay, " of %" PRIu32 " layers", per);
		bf_add(s, W, TS_BRIEF_LINE, "  passes %s%s%s; %s, %s", passes, lay, drafts, kn, kt);
		if (ts_layers_diffusion(res->layers)) {
			char dif[200];
			snprintf(dif, sizeof dif, "diffusion, not LLM generation: %s runs the passes, each "
				 "a denoising step through the transformer's blocks; no tokens are "
				 "generated, so the passes have no stage",
				 res->framework ? res->framework : "a diffusion framework");
			bf_wrap(s, W, "  ", dif, 4);
		} else if (ts_layers_encoder(res->layers)) {
			bf_wrap(s, W, "  ", "an encoder's forward, not LLM generation: its attention "
			     "is bidirectional (every query sees the whole sequence, no causal mask, "
			     "no KV cache), so no token is generated and the passes have no stage", 4);
		} else if (!ts_layers_generation(res->layers)) {
			bf_wrap(s, W, "  ", "not LLM generation by what it holds: no step annotation, "
			     "token embedding, KV-cache write, stage-named attention or serving "
			     "framework; its repeating passes have no stage", 4);
		}
	} else {
		if (v->staged)
			snprintf(note, sizeof note, "no %s pass", ts_pstage_name(s->o->stage));
		char all[1024];
		snprintf(all, sizeof all, "%s, %s; %s", kn, kt, note);
		bf_wrap(s, W, "  ", all, 4);
	}
}

/* --capture: how much of the graph replay got its ops back. */
static void put_replays(bf_build *s)
{
	const ts_result *res = s->res;
	ts_aview_totals tot;
	ts_aview_totals_of(res, &tot);
	if (!tot.present)
		return;
	const ts_attrib_totals *t = &tot.t;
	int64_t all = tot.all_ns;
	if (!res->replay) {
		/* graph replay with no op: what --capture would give back */
		if (all && t->ns[TS_ATTR_GRAPH] > all / 10)
			bf_add(s, TS_BRIEF_REPLAYS, TS_BRIEF_LINE, "  graph replay: %.1f%% of kernel time "
			    "without ops or shapes; --capture adds them",
			    100.0 * (double)t->ns[TS_ATTR_GRAPH] / (double)all);
		return;
	}
	const ts_replay_totals *rt = ts_replay_get_totals(res->replay);
	char none[48] = "";
	if (rt->refused)
		snprintf(none, sizeof none, " (%" PRIu64 " none)", rt->refused);
	bf_add(s, TS_BRIEF_REPLAYS, TS_BRIEF_LINE, "  --capture: %" PRIu64 " of %" PRIu64 " graph "
	    "replays matched%s; ops for %.1f%% of kernel time", rt->matched, rt->replays, none,
	    all ? 100.0 * (double)t->ns[TS_ATTR_GRAPH_OP] / (double)all : 0.0);
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
static void put_doubt(bf_build *s, const ts_layer_doubt *d)
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
			 ts_ltype_name(s->res->patterns, d->first.type), d->first.kernels, d->first.typical_kernels);
	if (d->thin)
		snprintf(c, sizeof c, "in %" PRIu32 " complete pass%s layers hold under %.0f%% of the "
			 "time from the first layer's start to the last's end (pass %" PRIu32 ": %.0f%%)", d->thin,
			 d->thin > 1 ? "es" : "", 100.0 * TS_LAYERS_HOLD, d->thin_pass,
			 100.0 * d->thin_share);
	if (!*a && !*b && !*c)
		return;
	snprintf(all, sizeof all, "%s%s%s%s%s", c, *c && (*a || *b) ? "; " : "", a,
		 *a && *b ? "; " : "", b);
	bf_wrap(s, TS_BRIEF_ANATOMY, "  layers in doubt: ", all, 4);
}

/* The typical layer of stage st: its wall (the p50 beside it where the
 * line fits), kernels, kernel time and rate. */
static void anatomy_head(bf_build *s, const ts_anatomy *a, int st, uint64_t nl)
{
	const ts_brief_section A = TS_BRIEF_ANATOMY;
	const ts_anat_sum *tot = ts_anatomy_total(a, st);
	char mean[32], p50[32];
	ts_fmt_ms(mean, sizeof mean, (double)tot->ns / (double)nl);
	ts_fmt_ms(p50, sizeof p50, (double)ts_stat_quantile(ts_anatomy_layer_time(a, st), 0.5));
	ts_roofline r;
	ts_roofline_sum(s->res, tot, &r);
	char rate[64] = "";
	if (r.has_flops)
		snprintf(rate, sizeof rate, r.tflops >= 10 ? ", %.0f TFLOP/s" : ", %.2g TFLOP/s",
			 r.tflops);
	const ts_stat *wall = ts_anatomy_layer_wall(a, st);
	const char *stn = ts_pstage_name((ts_pstage)st);
	if (!wall->count) {
		bf_add(s, A, TS_BRIEF_LINE, "Typical %s layer kernel time %s (p50 %s), %.0f kernels%s",
		    stn, mean, p50, (double)tot->count / (double)nl, rate);
		return;
	}
	char wm[32], wp[32], tail[128], narrow[300];
	ts_fmt_ms(wm, sizeof wm, (double)wall->total / (double)wall->count);
	ts_fmt_ms(wp, sizeof wp, (double)ts_stat_quantile(wall, 0.5));
	snprintf(tail, sizeof tail, "%.0f kernels, %s kernel time%s",
		 (double)tot->count / (double)nl, mean, rate);
	ts_brief_stmt *x = bf_add(s, A, TS_BRIEF_LINE, "Typical %s layer %s wall (p50 %s), %s", stn,
			       wm, wp, tail);
	snprintf(narrow, sizeof narrow, "Typical %s layer %s wall, %s", stn, wm, tail);
	bf_alt(s, x, TS_BRIEF_ALT_NARROW, narrow);
}

/* The typical layer's kernel types by their share of its time, largest
 * first; where the line would pass the width less 16, the rest summed. */
static void anatomy_types(bf_build *s, const ts_anatomy *a, int st)
{
	const ts_anat_sum *tot = ts_anatomy_total(a, st);
	tshare sh[TS_TYPE_COUNT];
	int n = 0;
	for (int t = 0; t < TS_TYPE_COUNT; t++) {
		const ts_anat_type *ty = ts_anatomy_type(a, st, t);
		if (ty->sum.ns > 0)
			sh[n++] = (tshare){ t, ty->sum.ns };
	}
	qsort(sh, (size_t)n, sizeof *sh, cmp_tshare);
	ts_brief_stmt *x = bf_add(s, TS_BRIEF_ANATOMY, TS_BRIEF_LINE, "  ");
	if (x)
		x->margin = 16;
	for (int i = 0; i < n; i++) {
		char text[64], rest[64];
		snprintf(text, sizeof text, "%s%s %.1f%%", i ? ", " : "",
			 ts_ktype_name((ts_ktype)sh[i].type), 100.0 * (double)sh[i].ns / (double)tot->ns);
		/* the last stands for itself */
		int64_t r = 0;
		for (int j = i; j < n; j++)
			r = ts_sat_add(r, sh[j].ns);
		snprintf(rest, sizeof rest, ", rest %.1f%%", 100.0 * (double)r / (double)tot->ns);
		part(s, x, text, i + 1 < n ? rest : text);
	}
}

static void put_anatomy(bf_build *s)
{
	const ts_result *res = s->res;
	const ts_anatomy *a = res->layers ? ts_layers_anatomy(res->layers) : NULL;
	int shown = 0;
	for (int st = 0; a && st < TS_PSTAGE_COUNT && shown < MAX_ANAT_STAGES; st++) {
		uint64_t nl = ts_anatomy_layers(a, st);
		if (!nl || !bf_shown_stage(s->o, st))
			continue;
		shown++;
		anatomy_head(s, a, st, nl);
		anatomy_types(s, a, st);
	}
	if (shown && res->layers)
		put_doubt(s, ts_layers_doubt(res->layers));
}

/* The top six categories by their share of kernel time, as many as fit
 * the width. */
static void put_categories(bf_build *s)
{
	const ts_result *res = s->res;
	const ts_breakdown *b = s->bd;
	if (!res->patterns || b->total_ns == 0)
		return;
	size_t *idx = malloc((b->ncats + 1) * sizeof *idx);
	if (!idx) {
		s->b->nomem = true;
		return;
	}
	size_t n = ts_sort_buckets(b->cats, b->ncats + 1, idx);
	ts_brief_stmt *x = bf_add(s, TS_BRIEF_CATEGORIES, TS_BRIEF_LINE, "Top categories");
	for (size_t i = 0; i < n && i < 6; i++) {
		char text[96];
		snprintf(text, sizeof text, "%s %s %.1f%%", i ? "," : "",
			 ts_breakdown_cat_name(res, idx[i]),
			 b->total_ns ? 100.0 * (double)b->cats[idx[i]].total_ns / (double)b->total_ns : 0.0);
		part(s, x, text, NULL);
	}
	free(idx);
}

/* The kernels table's first rows: three where the screen has room beside
 * the opportunities' heading and first one (one at least). */
static void put_top_kernels(bf_build *s)
{
	ts_brief_stmt *x = bf_add(s, TS_BRIEF_TOP_KERNELS, TS_BRIEF_TABLE, "kernels");
	if (x)
		x->rows = 3;
}

/* An opportunity: its head (" 1. 2.72 ms  prefill: ") and text: what it
 * saves, else its time at stake, and the time at stake beside a saving
 * well under it; j is its place in the JSON report's list. */
static void put_opportunity(bf_build *s, const ts_opportunity *op, size_t i, size_t j)
{
	char t[32], head[64], text[480];
	ts_fmt_ms(t, sizeof t, (double)(op->saves_ns >= 0 ? op->saves_ns : op->at_stake_ns));
	snprintf(text, sizeof text, "%s", op->text);
	bool beside = op->saves_ns >= 0 && op->saves_ns * 10 < op->at_stake_ns * 9;
	if (beside) {
		char a[32];
		ts_fmt_ms(a, sizeof a, (double)op->at_stake_ns);
		size_t k = strlen(text);
		snprintf(text + k, sizeof text - k, " (%s at stake)", a);
	}
	bool any_pass = s->res->layers && ts_layers_npasses(s->res->layers) > 0;
	if (!any_pass)
		snprintf(head, sizeof head, " %zu. %s  ", i + 1, t);
	else
		snprintf(head, sizeof head, " %zu. %s  %s: ", i + 1, t,
			 ts_pstage_name((ts_pstage)op->stage));
	ts_brief_stmt *x = bf_wrap(s, TS_BRIEF_OPPORTUNITIES, head, text, 6);
	if (!x)
		return;
	x->if_room = i > 0;
	x->saves = op->saves_ns >= 0;
	if (x->saves)
		bf_figure(x, (double)op->saves_ns / 1e3, "us", "opportunities.%zu.saves_us", j);
	if (!x->saves || beside)
		bf_figure(x, (double)op->at_stake_ns / 1e3, "us", "opportunities.%zu.at_stake_us", j);
}

/* The largest opportunities (under --stage, that stage's), at most three,
 * each whole; those after the first where the screen has room. */
static void put_opportunities(bf_build *s)
{
	ts_opportunity all[TS_INSIGHT_MAX];
	size_t na = ts_insight_opportunities(s->res, all, TS_INSIGHT_MAX), n = 0;
	ts_brief_stmt *x = NULL;
	for (size_t j = 0; j < na && n < MAX_OPPS; j++) {
		if (s->o->filter_stage && (ts_pstage)all[j].stage != s->o->stage)
			continue;
		if (!n) {
			x = bf_add(s, TS_BRIEF_OPPORTUNITIES, TS_BRIEF_LINE, "Largest opportunities (what "
				"each saves the steps, replayed; else time at stake)");
			bf_alt(s, x, TS_BRIEF_ALT_NO_SAVING, "Largest opportunities (time at stake)");
		}
		put_opportunity(s, &all[j], n++, j);
	}
}

/* Where collectives ran: the busy time split into computation,
 * communication and copies, and how much of each ran hidden under
 * another (agg.h: ts_agg_overlap). Only where collectives ran. */
static void put_overlap(bf_build *s)
{
	ts_overlap ov;
	ts_agg_overlap(s->res->agg, &ov);
	if (ov.comm_ns <= 0 || s->v->staged)
		return;
	char comp[32], comm[32], mem[64] = "";
	ts_fmt_ms(comp, sizeof comp, (double)ov.compute_ns);
	ts_fmt_ms(comm, sizeof comm, (double)ov.comm_ns);
	if (ov.mem_ns > 0) {
		char m[32];
		ts_fmt_ms(m, sizeof m, (double)ov.mem_ns);
		snprintf(mem, sizeof mem, ", copies %s (%.0f%% hidden)", m,
			 100.0 * (double)ov.mem_hidden_ns / (double)ov.mem_ns);
	}
	bf_add(s, TS_BRIEF_OVERLAP, TS_BRIEF_LINE, "  overlap: compute %s, collectives %s (%.0f%% "
	    "hidden under compute)%s", comp, comm,
	    100.0 * (double)ov.comm_hidden_ns / (double)ov.comm_ns, mem);
}

/* A size for people: GiB past one, else MiB, else bytes. */
static void bytes_text(char *buf, size_t n, int64_t b)
{
	int64_t a = b < 0 ? -b : b;
	if (a >= (1LL << 30))
		snprintf(buf, n, "%.2f GiB", (double)b / (1LL << 30));
	else if (a >= (1LL << 20))
		snprintf(buf, n, "%.1f MiB", (double)b / (1LL << 20));
	else
		snprintf(buf, n, "%" PRId64 " B", b);
}

/* Who held the peak, in words: from before the capture, and the owner
 * that held the most of the rest. */
static int holders_text(const ts_mem_peak *pk, char *buf, size_t n)
{
	if (pk->status != TS_MEMPEAK_DONE || n == 0) {
		if (n)
			*buf = '\0';
		return 0;
	}
	char b[32], o[32];
	bytes_text(b, sizeof b, pk->before_bytes);
	if (!pk->nrows)
		return snprintf(buf, n, " (%s from before the capture)", b);
	const ts_memop_row *r = &pk->rows[0];
	bytes_text(o, sizeof o, r->bytes);
	return snprintf(buf, n, " (%s from before the capture, %s %s the most)", b,
			r->kind == TS_MEMOP_OP ? r->name
			: r->kind == TS_MEMOP_NONE ? "outside CPU ops"
			: r->kind == TS_MEMOP_LOST ? "ops not kept" : "other ops", o);
}

/* Device memory, where the trace has the allocator's events: the device
 * that peaked highest, what was reserved then, each stage's growth a
 * pass. */
static void put_memory(bf_build *s)
{
	const ts_memory *m = ts_memory_of(s->res);
	size_t nd = ts_memory_ndevices(m);
	if (nd == 0)
		return;
	size_t top = 0;
	for (size_t i = 1; i < nd; i++)
		if (ts_memory_device(m, i)->peak_allocated > ts_memory_device(m, top)->peak_allocated)
			top = i;
	const ts_mem_device *d = ts_memory_device(m, top);
	char pa[32], rs[32], cache[32], pr[32], buf[512];
	size_t n = sizeof buf;
	bytes_text(pa, sizeof pa, d->peak_allocated);
	bytes_text(rs, sizeof rs, d->reserved_at_peak_allocated);
	bytes_text(cache, sizeof cache, d->reserved_at_peak_allocated - d->peak_allocated);
	bytes_text(pr, sizeof pr, d->peak_reserved);
	char held[256];
	holders_text(ts_memory_peak(m, top), held, sizeof held);
	int k = d->relative
		? snprintf(buf, n, "memory: GPU %" PRId64 " peak %s allocated above the capture's start "
			   "(its events carry no totals)", d->device, pa)
		: snprintf(buf, n, "memory: GPU %" PRId64 " peak %s allocated%s, %s reserved then (%s "
			   "cached or fragmented)", d->device, pa, held, rs, cache);
	if (!d->relative && d->peak_reserved != d->reserved_at_peak_allocated && k > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, "; reserved peak %s", pr);
	for (int st = 0; st < TS_PSTAGE_COUNT && k > 0 && (size_t)k < n; st++) {
		const ts_mem_stage *x = ts_memory_stage(m, st);
		if (!x->grown)
			continue;
		char g[32];
		bytes_text(g, sizeof g, x->growth_sum / (int64_t)x->grown);
		k += snprintf(buf + k, n - (size_t)k, "; %s %s%s a pass", ts_pstage_name((ts_pstage)st),
			      x->growth_sum >= 0 ? "+" : "", g);
	}
	if (nd > 1 && k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "; %zu devices", nd);
	bf_wrap(s, TS_BRIEF_MEMORY, "  ", buf, 4);
}

/* What comes before any figure: a partial report, traces that are not
 * one job (RANKS has each one's own figures). */
static void put_head(bf_build *s)
{
	if (s->res->partial)
		bf_add(s, TS_BRIEF_HEAD, TS_BRIEF_LINE, "PARTIAL REPORT: %s", s->res->err.msg);
	char why[96];
	if (s->o->ranks && ts_job_unrelated(s->o->ranks, why, sizeof why))
		bf_add(s, TS_BRIEF_HEAD, TS_BRIEF_LINE, "NOT ONE JOB: %zu traces of other runs (%s): "
		    "RANKS has each one's own figures; the totals below add them up",
		    s->o->ranks->n, why);
}

/* The first screen, section by section, in this order. */
static void (*const sections[])(bf_build *s) = {
	put_head,            /* a partial report; traces not of one job */
	put_what,            /* the trace, GPU, model, passes and layers found */
	put_overlap,         /* computation, communication, copies: what hid what */
	put_memory,          /* device memory: peaks, cache, growth a pass */
	put_replays,         /* --capture: how much graph replay got its ops back */
	bf_pass_times,       /* time per pass by stage, busy and idle */
	put_anatomy,         /* the typical layer of each stage taken apart */
	put_categories,      /* the top categories */
	put_top_kernels,     /* the kernels table's first rows */
	put_opportunities,   /* the largest opportunities (insight.h) */
};

int ts_brief_build(const ts_result *res, const ts_brief_opts *o, const ts_kview *v,
		   const ts_breakdown *b, ts_brief *out)
{
	memset(out, 0, sizeof *out);
	bf_build s = { .b = out, .res = res, .o = o, .v = v, .bd = b };
	for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
		sections[i](&s);
	return out->nomem ? -1 : 0;
}

int ts_brief_of(const ts_result *res, const ts_brief_opts *o, ts_brief *out)
{
	memset(out, 0, sizeof *out);
	ts_kview v = ts_kview_of(res, o->filter_stage, o->stage);
	ts_breakdown b;
	if (ts_kview_breakdown(res, &v, &b) != 0)
		return -1;
	int rc = ts_brief_build(res, o, &v, &b, out);
	ts_breakdown_free(&b);
	return rc;
}

void ts_brief_free(ts_brief *b)
{
	for (size_t i = 0; i < b->n; i++) {
		ts_brief_stmt *st = &b->s[i];
		free(st->head);
		free(st->text);
		free(st->alt);
		for (size_t j = 0; j < st->nparts; j++) {
			free(st->parts[j].text);
			free(st->parts[j].rest);
		}
		free(st->parts);
	}
	free(b->s);
	memset(b, 0, sizeof *b);
}
