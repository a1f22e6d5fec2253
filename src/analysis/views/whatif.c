/*
 * whatif.c - the replay module: records while reading, each step replayed
 * when the run is done, per-stage sums saved and merged, and why a stage
 * has no projection (whatif.h).
 */
#include "analysis/views/whatif.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "input/base/satmath.h"
#include "input/base/timefmt.h"
#include "analysis/views/insight.h"
#include "analysis/views/sview.h"
#include "analysis/views/whatif_int.h"

struct ts_whatif {
	ts_timeline *tl;             /* until finished */
	ts_wi_stage st[TS_PSTAGE_COUNT];
	uint64_t dropped;            /* records not kept */
};

static const char *const cp_names[TS_CP_COUNT - TS_TYPE_COUNT][2] = {
	[TS_CP_COPY - TS_TYPE_COUNT] = { "copy", "copies and fills" },
	[TS_CP_PEER - TS_TYPE_COUNT] = { "peer_wait", "a collective waiting on a peer" },
	[TS_CP_SWITCH - TS_TYPE_COUNT] = { "switch", "the switch between queued kernels" },
	[TS_CP_STREAM - TS_TYPE_COUNT] = { "other_stream", "waiting on another stream" },
	[TS_CP_LAUNCH - TS_TYPE_COUNT] = { "launch", "waiting for the CPU's launch" },
	[TS_CP_SYNC - TS_TYPE_COUNT] = { "sync", "idle, the CPU in a sync call" },
	[TS_CP_WAIT - TS_TYPE_COUNT] = { "unexplained", "queued, late with no cause shown" },
	[TS_CP_BEFORE - TS_TYPE_COUNT] = { "before_first", "before the step's first kernel" },
	[TS_CP_AFTER - TS_TYPE_COUNT] = { "after_last", "after the step's last kernel" },
};

static const char *const wi_names[TS_WI_COUNT - TS_WI_LAUNCH][2] = {
	[TS_WI_LAUNCH - TS_WI_LAUNCH] = { "launch_on_time", "the CPU launches every kernel on time" },
	[TS_WI_PREP - TS_WI_LAUNCH] = { "inputs_overlapped", "the step's inputs prepared during the last" },
	[TS_WI_PEER - TS_WI_LAUNCH] = { "no_peer_wait", "no collective waits on a peer" },
	[TS_WI_COPIES - TS_WI_LAUNCH] = { "copies_hidden", "copies and fills off the GPU's path" },
};

const char *ts_cp_name(int c)
{
	return c < 0 || c >= TS_CP_COUNT ? "?" : c < TS_TYPE_COUNT ? ts_ktype_name((ts_ktype)c)
								   : cp_names[c - TS_TYPE_COUNT][1];
}

const char *ts_cp_key(int c)
{
	return c < 0 || c >= TS_CP_COUNT ? "?" : c < TS_TYPE_COUNT ? ts_ktype_name((ts_ktype)c)
								   : cp_names[c - TS_TYPE_COUNT][0];
}

const char *ts_wi_name(int w)
{
	return w < TS_WI_LAUNCH || w >= TS_WI_COUNT ? "?" : wi_names[w - TS_WI_LAUNCH][1];
}

const char *ts_wi_key(int w)
{
	return w < TS_WI_LAUNCH || w >= TS_WI_COUNT ? "?" : wi_names[w - TS_WI_LAUNCH][0];
}

static void *wi_make(const ts_patterns *p)
{
	(void)p;
	ts_whatif *w = calloc(1, sizeof *w);
	if (w && !(w->tl = ts_timeline_new())) {
		free(w);
		return NULL;
	}
	return w;
}

static void wi_free(void *m)
{
	ts_whatif *w = m;
	if (w)
		ts_timeline_free(w->tl);
	free(w);
}

static void wi_event(void *m, const ts_event *ev)
{
	ts_whatif *w = m;
	if (ev->cat == TS_CAT_GPU_MEMCPY || ev->cat == TS_CAT_GPU_MEMSET)
		ts_timeline_op(w->tl, ev, UINT32_MAX, TS_TL_COPY, false);
	else
		ts_timeline_call(w->tl, ev);
}

static void wi_kernel(void *m, const ts_kernel_rec *k)
{
	ts_whatif *w = m;
	ts_timeline_op(w->tl, k->ev, k->row, k->cls->type, k->cls->type == TS_TYPE_COMMUNICATION);
}

/* The typical latency from a launch call's start to its operation's
 * start: the median over operations that began while their call ran or
 * within TS_WI_LAUNCH_TOL_NS after it returned. */
static int64_t launch_lag(const ts_timeline *tl)
{
	size_t n, m = 0;
	const ts_tl_op *o = ts_timeline_ops(tl, &n);
	int64_t *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const ts_tl_call *c = ts_timeline_launch(tl, o[i].corr);
		if (c && o[i].ts >= c->ts && o[i].ts - c->ts <= c->dur + TS_WI_LAUNCH_TOL_NS)
			v[m++] = o[i].ts - c->ts;
	}
	ts_sort_i64(v, m);
	int64_t lag = m ? v[m / 2] : 0;
	free(v);
	return lag;
}

/* The switch between queued kernels on this GPU: of the gaps between
 * consecutive operations of a stream where the second's launch returned
 * before the first ended (queued: nothing but the GPU held it), under
 * TS_WI_SWITCH_MAX_NS, the 95th percentile (at least TS_WI_SWITCH_NS: a
 * gap up to it is the switch) and in *typ the median (the switch a kernel
 * launched on time would take). */
static int64_t switch_of(const ts_timeline *tl, int64_t *typ)
{
	*typ = 0;
	size_t n, m = 0;
	const ts_tl_op *o = ts_timeline_ops(tl, &n);
	int64_t *v = malloc((n ? n : 1) * sizeof *v), last[TS_TL_STREAMS];
	if (!v)
		return TS_WI_SWITCH_NS;
	for (size_t i = 0; i < TS_TL_STREAMS; i++)
		last[i] = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		const ts_tl_call *c = ts_timeline_launch(tl, o[i].corr);
		int64_t pe = last[o[i].stream], g = o[i].ts - pe;
		if (c && pe != INT64_MIN && ts_sat_add(c->ts, c->dur) < pe && g >= 0 &&
		    g < TS_WI_SWITCH_MAX_NS)
			v[m++] = g;
		last[o[i].stream] = ts_sat_add(o[i].ts, o[i].dur);
	}
	ts_sort_i64(v, m);
	int64_t sw = m ? v[m * 95 / 100] : 0;
	*typ = m ? v[m / 2] : 0;
	free(v);
	return sw > TS_WI_SWITCH_NS ? sw : TS_WI_SWITCH_NS;
}

static bool counted(const ts_pass *p)
{
	return p->complete && !p->draft && p->source == 0;
}

/* Pass i's step: its window, else to the next counted pass of its stage
 * that follows it, else the pass; *prep the GPU idle before the pass in
 * its window. */
static void step_of(const ts_result *res, size_t i, int64_t *s0, int64_t *s1, int64_t *prep)
{
	const ts_layers *l = res->layers;
	const ts_pass *p = ts_layers_pass(l, i);
	ts_step_acct a;
	*prep = 0;
	if (ts_step_window(l, res->api, i, s0, s1) && ts_step_account(l, res->api, i, &a)) {
		*prep = a.before_ns - a.before_busy_ns;
		return;
	}
	*s0 = p->idle.start_ns;
	*s1 = ts_sat_add(p->idle.start_ns, p->idle.span_ns);
	for (size_t j = i + 1; j < ts_layers_npasses(l); j++) {
		const ts_pass *q = ts_layers_pass(l, j);
		if (q->draft)
			continue;
		if (counted(q) && q->stage == p->stage && q->idle.start_ns > p->idle.start_ns)
			*s1 = q->idle.start_ns;
		break;
	}
}

/* For each kernel type of stage st, what its kernels' time becomes at its
 * roofline ceiling: achieved over attainable, where the stage's typical
 * layer has the type's FLOPs or bytes and runs below it; else 1. */
static void ceilings(const ts_result *res, ts_pstage st, double *ceil)
{
	const ts_anatomy *a = ts_layers_anatomy(res->layers);
	for (int t = 0; t < TS_TYPE_COUNT; t++) {
		ceil[t] = 1;
		if (!a || !res->gpu || !ts_anatomy_layers(a, st))
			continue;
		ts_roofline r;
		ts_roofline_sum(res, &ts_anatomy_type(a, st, t)->sum, &r);
		double target = 100.0 * (r.bound == TS_BOUND_COMPUTE ? res->gpu->attain_compute
								     : res->gpu->attain_memory);
		if (r.pct_of_peak > 0 && target > 0 && r.pct_of_peak < target)
			ceil[t] = r.pct_of_peak / target;
	}
}

static void wi_finish(void *m, const ts_result *res)
{
	ts_whatif *w = m;
	if (!w->tl || !res->layers)
		return;
	ts_timeline_seal(w->tl);
	const ts_device *dev = res->agg ? ts_agg_main_device(res->agg) : NULL;
	wi_ctx c = { .tl = w->tl, .api = res->api, .device = dev ? dev->id : INT64_MIN,
		     .lag = launch_lag(w->tl) };
	c.sw = switch_of(w->tl, &c.sw_typ);
	uint32_t nrows = res->agg ? ts_intern_count(res->agg->names) : 0;
	int64_t whole = ts_timeline_whole_until(w->tl);
	wi_scratch sc = { 0 };
	for (size_t i = 0; i < ts_layers_npasses(res->layers); i++) {
		const ts_pass *p = ts_layers_pass(res->layers, i);
		if (!counted(p) || p->stage >= TS_PSTAGE_COUNT)
			continue;
		ts_wi_stage *st = &w->st[p->stage];
		st->steps_listed++;
		int64_t s0, s1, prep;
		if (ts_sat_add(p->idle.start_ns, p->idle.span_ns) > whole) {
			st->steps_not_whole++;     /* its pass already past the records */
			continue;
		}
		step_of(res, i, &s0, &s1, &prep);
		if (s1 > whole) {
			st->steps_not_whole++;
			continue;
		}
		const ts_stat *other, *all;
		c.rows = ts_layers_stage_rows(res->layers, p->stage, &other, &all);
		c.nrows = nrows;
		ceilings(res, p->stage, c.ceil);
		wi_replay_step(&c, s0, s1, prep, &sc, st);
	}
	wi_scratch_free(&sc);
	w->dropped = ts_timeline_dropped(w->tl);
	ts_timeline_free(w->tl);
	w->tl = NULL;
}

static void wi_save(const void *m, ts_wbuf *b)
{
	const ts_whatif *w = m;
	ts_w_u64(b, w->dropped);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_wi_stage *x = &w->st[s];
		ts_w_u32(b, x->steps);
		ts_w_u32(b, x->steps_listed);
		ts_w_u32(b, x->steps_not_whole);
		ts_w_u64(b, x->ops);
		ts_w_u64(b, x->ops_reproduced);
		ts_w_i64(b, x->wall_ns);
		ts_w_i64(b, x->drift_ns);
		for (int k = 0; k < TS_TYPE_COUNT; k++)
			ts_w_i64(b, x->type_ns[k]);
		ts_w_i64(b, x->prep_ns);
		ts_w_i64(b, x->peer_ns);
		for (int k = 0; k < TS_CP_COUNT; k++)
			ts_w_i64(b, x->cause_ns[k]);
		for (int k = 0; k < TS_WI_COUNT; k++) {
			ts_w_i64(b, x->saving_ns[k]);
			ts_w_u32(b, x->tried[k]);
		}
	}
}

static uint32_t add32(uint32_t a, uint32_t b)
{
	return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

static ts_status wi_load(void *m, ts_rbuf *r)
{
	ts_whatif *w = m;
	w->dropped = ts_sat_addu(w->dropped, ts_r_u64(r));
	for (int s = 0; s < TS_PSTAGE_COUNT && !r->err; s++) {
		ts_wi_stage *x = &w->st[s];
		x->steps = add32(x->steps, ts_r_u32(r));
		x->steps_listed = add32(x->steps_listed, ts_r_u32(r));
		x->steps_not_whole = add32(x->steps_not_whole, ts_r_u32(r));
		x->ops = ts_sat_addu(x->ops, ts_r_u64(r));
		x->ops_reproduced = ts_sat_addu(x->ops_reproduced, ts_r_u64(r));
		x->wall_ns = ts_sat_add(x->wall_ns, ts_r_i64(r));
		x->drift_ns = ts_sat_add(x->drift_ns, ts_r_i64(r));
		for (int k = 0; k < TS_TYPE_COUNT; k++)
			x->type_ns[k] = ts_sat_add(x->type_ns[k], ts_r_i64(r));
		x->prep_ns = ts_sat_add(x->prep_ns, ts_r_i64(r));
		x->peer_ns = ts_sat_add(x->peer_ns, ts_r_i64(r));
		for (int k = 0; k < TS_CP_COUNT; k++)
			x->cause_ns[k] = ts_sat_add(x->cause_ns[k], ts_r_i64(r));
		for (int k = 0; k < TS_WI_COUNT; k++) {
			x->saving_ns[k] = ts_sat_add(x->saving_ns[k], ts_r_i64(r));
			x->tried[k] = add32(x->tried[k], ts_r_u32(r));
		}
		if (x->ops_reproduced > x->ops || x->steps > x->steps_listed)
			ts_r_fail(r, "the replay's counts do not add up");
	}
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

static void wi_warnings(const void *m, ts_warns *ws)
{
	const ts_whatif *w = m;
	uint32_t not_whole = 0, listed = 0;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		not_whole += w->st[s].steps_not_whole;
		listed += w->st[s].steps_listed;
	}
	if (not_whole)
		ts_warn(ws, "the replay of steps covers %" PRIu32 " of %" PRIu32 " steps: the others "
			"lie past the first %u GPU operations and %u launch calls it keeps",
			listed - not_whole, listed, TS_TL_MAX_OPS, TS_TL_MAX_CALLS);
}

const ts_module ts_whatif_module = {
	.name = "whatif",
	.cats = 1u << TS_CAT_GPU_MEMCPY | 1u << TS_CAT_GPU_MEMSET | 1u << TS_CAT_CUDA_RUNTIME |
		1u << TS_CAT_CUDA_DRIVER,
	.make = wi_make, .event = wi_event, .kernel = wi_kernel, .finish = wi_finish,
	.save = wi_save, .load = wi_load, .warnings = wi_warnings, .free = wi_free,
};

const ts_wi_stage *ts_whatif_stage(const ts_whatif *w, ts_pstage s)
{
	return w && s < TS_PSTAGE_COUNT ? &w->st[s] : NULL;
}

int64_t ts_wi_wait_ns(const ts_wi_stage *s)
{
	return s && s->steps ? s->cause_ns[TS_CP_WAIT] / (int64_t)s->steps : 0;
}

double ts_wi_fidelity(const ts_wi_stage *s)
{
	return s && s->ops ? (double)s->ops_reproduced / (double)s->ops : -1;
}

bool ts_wi_trusted(const ts_wi_stage *s)
{
	return s && s->steps && ts_wi_fidelity(s) >= TS_WI_FIDELITY_MIN &&
	       (double)s->drift_ns <= TS_WI_DRIFT_MAX * (double)s->wall_ns;
}

static double ratio(double saved, double of)
{
	if (of <= 0)
		return -1;
	double r = saved / of;
	return r < 0 ? 0 : r > 1 ? 1 : r;
}

double ts_wi_effect(const ts_wi_stage *s, int what)
{
	if (!ts_wi_trusted(s))
		return -1;
	if (what >= 0 && what < TS_TYPE_COUNT)
		return ratio((double)s->saving_ns[what], (double)s->type_ns[what] / 2);
	if (what == TS_WI_ALL) {
		double saved = 0, of = 0;
		for (int t = 0; t < TS_TYPE_COUNT; t++) {
			saved += (double)s->saving_ns[t];
			of += (double)s->type_ns[t] / 2;
		}
		return ratio(saved, of);
	}
	if (what == TS_WI_IDLE) {
		int64_t saved = s->saving_ns[TS_WI_LAUNCH] - s->saving_ns[TS_WI_PREP];
		const int64_t *c = s->cause_ns;
		return ratio((double)(saved > 0 ? saved : 0),
			     (double)(c[TS_CP_SWITCH] + c[TS_CP_STREAM] + c[TS_CP_LAUNCH] + c[TS_CP_SYNC] +
				      c[TS_CP_WAIT]));
	}
	if (what == TS_WI_BEFORE)
		return ratio((double)s->saving_ns[TS_WI_PREP], (double)s->prep_ns);
	if (what == TS_WI_PEERS)
		return ratio((double)s->saving_ns[TS_WI_PEER], (double)s->peer_ns);
	return -1;
}

size_t ts_wi_ranked(const ts_wi_stage *s, int *out, size_t max)
{
	size_t n = 0;
	if (!ts_wi_trusted(s))
		return 0;
	for (int k = 0; k < TS_WI_COUNT; k++) {
		if (s->saving_ns[k] <= 0 || !s->tried[k])
			continue;
		size_t at = n < max ? n++ : max;
		if (at == max && s->saving_ns[k] <= s->saving_ns[out[max - 1]])
			continue;
		if (at == max)
			at = max - 1;
		while (at > 0 && s->saving_ns[out[at - 1]] < s->saving_ns[k]) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = k;
	}
	return n;
}

const char *ts_wi_why_not(const ts_wi_stage *s, char *buf, size_t n)
{
	double f = ts_wi_fidelity(s);
	if (!s->steps)
		return "no step whose records were kept";
	char wait[32];
	ts_fmt_ms(wait, sizeof wait, (double)ts_wi_wait_ns(s));
	if (f < TS_WI_FIDELITY_MIN) {
		snprintf(buf, n, "the replay explains %.0f%% of kernel starts (under %.0f%%); queued "
			 "kernels waited %s a step with no cause in the trace", 100.0 * f,
			 100.0 * TS_WI_FIDELITY_MIN, wait);
		return buf;
	}
	if (!ts_wi_trusted(s)) {
		snprintf(buf, n, "queued kernels waited %s a step with no cause in the trace "
			 "(the replay ends %.0f%% of a step away from it)", wait,
			 100.0 * (double)s->drift_ns / (double)s->wall_ns);
		return buf;
	}
	return NULL;
}

