/*
 * insight.c - what a finished analysis says about making the run faster:
 * the largest opportunities, each with the GPU time at stake (see
 * insight.h).
 */
#include "analysis/views/insight.h"
#include "input/base/satmath.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "analysis/layers/layers.h"
#include "analysis/layers/position.h"
#include "analysis/views/kview.h"
#include "analysis/views/sview.h"
#include "analysis/views/whatif.h"

static const char *const opp_names[TS_OPP_COUNT] = {
	"roofline", "idle", "launch_bound", "slow_layer", "comm_exposed", "gpu_idle", "spread",
	"step_idle", "peer_wait",
};

const char *ts_opp_kind_name(ts_opp_kind k)
{
	return (unsigned)k < TS_OPP_COUNT ? opp_names[k] : "unknown";
}

void ts_insight_busy(const ts_result *res, ts_busy_summary *b)
{
	*b = (ts_busy_summary){ 0 };
	b->in_passes.largest_before = b->in_passes.largest_after = TS_INTERN_NONE;
	b->in_passes.largest_op = TS_INTERN_NONE;
	b->busy_ns = ts_agg_busy_ns(res->agg);
	ts_agg_overlap(res->agg, &b->overlap);
	if (!res->layers)
		return;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++)
		ts_idle_sum(&b->in_passes, &ts_layers_stage(res->layers, (ts_pstage)s)->idle);
	b->outside_kernels = ts_layers_outside(res->layers, &b->outside_ns);
	/* stray kernels cut off the ends of passes are outside them too */
	b->outside_kernels += b->in_passes.stray_kernels;
	b->outside_ns = ts_sat_add(b->outside_ns, b->in_passes.stray_ns);
	b->between = *ts_layers_between(res->layers);
}

int64_t ts_insight_comm_hidden(const ts_idle_pass *d)
{
	return ts_idle_hidden(d);
}

/* Keep the max largest opportunities, by time at stake. */
static void offer(ts_opportunity *out, size_t *n, size_t max, const ts_opportunity *o)
{
	if (o->at_stake_ns <= 0)
		return;
	size_t j = *n < max ? (*n)++ : max;
	while (j > 0 && out[j - 1].at_stake_ns < o->at_stake_ns) {
		if (j < max)
			out[j] = out[j - 1];
		j--;
	}
	if (j < max)
		out[j] = *o;
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static void roofline_opps(const ts_result *res, int s, int64_t stage_ns,
			  ts_opportunity *out, size_t *n, size_t max)
{
	size_t k;
	size_t *order = ts_attrib_workload_order(res->attrib, s, &k);
	if (!order)
		return;
	for (size_t i = 0; i < k; i++) {
		const ts_wl_row *w = ts_attrib_workload(res->attrib, s, order[i]);
		size_t len;
		const char *dtype;
		const char *name = ts_attrib_workload_name(res->attrib, order[i], &len, &dtype);
		ts_roofline r;
		ts_roofline_of(w, dtype, res->gpu, &r);
		/* measured against what the part can attain, not its datasheet */
		const ts_gpu *g = res->gpu;
		if (!g || r.pct_of_peak < 0)
			continue;
		double target = 100.0 * (r.bound == TS_BOUND_COMPUTE ? g->attain_compute
								   : g->attain_memory);
		if (r.pct_of_peak >= target)
			continue;
		int64_t t = r.bound == TS_BOUND_COMPUTE ? w->flops_ns : w->bytes_ns;
		ts_opportunity o = { TS_OPP_ROOFLINE, s, 0, 0, 0, NULL, "", 0, -1 };
		o.at_stake_ns = (int64_t)((double)t * (1.0 - r.pct_of_peak / target));
		o.pct_of_stage = stage_ns ? 100.0 * (double)o.at_stake_ns / (double)stage_ns : 0;
		o.ceiling_pct = target;
		o.ceiling_source = g->attain_source;
		if (r.bound == TS_BOUND_COMPUTE)
			snprintf(o.text, sizeof o.text,
				 "%.*s at %.0f%% of %s peak (%.0f of %.0f TFLOP/s over %.1f ms "
				 "of its kernels); vs %.0f%% of peak%s",
				 (int)len, name, r.pct_of_peak, ts_dtclass_name(r.dtclass),
				 r.tflops, r.peak_tflops, ms(t), target,
				 g->attain_source ? " (attainable)" : " (default ceiling)");
		else
			snprintf(o.text, sizeof o.text,
				 "%.*s at %.0f%% of HBM bandwidth (%.2f of %.2f TB/s over %.1f ms "
				 "of its kernels); vs %.0f%% of it%s",
				 (int)len, name, r.pct_of_peak, r.tbps, r.peak_tbps, ms(t), target,
				 g->attain_source ? " (attainable)" : " (default ceiling)");
		offer(out, n, max, &o);
	}
	free(order);
}

static void kernel_label(const ts_result *res, uint32_t row, char *buf, size_t n)
{
	if (row == TS_INTERN_NONE || row >= ts_intern_count(res->agg->names)) {
		snprintf(buf, n, "(unknown)");
		return;
	}
	const ts_kclass *c = ts_kview_row_class(res->agg, row);
	snprintf(buf, n, "%s", c ? c->short_name : "(unknown)");
}

/*
 * A slow layer and a workload far below its peak can be the same kernels:
 * their times at stake overlap. So that the opportunities never add up to
 * more than a stage's kernel time, each one of those kinds, largest first,
 * is held to what the ones before it left of the stage's kernel time (and
 * says so); one with nothing left is dropped. Idle time and the kernels
 * outside the passes are other time: they keep theirs.
 */
static size_t cap_overlaps(const ts_result *res, ts_opportunity *out, size_t n)
{
	int64_t left[TS_PSTAGE_COUNT];
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_stat *other, *sall;
		ts_layers_stage_rows(res->layers, (ts_pstage)s, &other, &sall);
		left[s] = sall->total;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		ts_opportunity o = out[i];
		if ((o.kind == TS_OPP_ROOFLINE || o.kind == TS_OPP_LAYER || o.kind == TS_OPP_COMM ||
		     o.kind == TS_OPP_SPREAD || o.kind == TS_OPP_PEER) &&
		    o.stage >= 0 && o.stage < TS_PSTAGE_COUNT) {
			int64_t *l = &left[o.stage];
			if (*l <= 0)
				continue;
			if (o.at_stake_ns > *l) {
				double f = (double)*l / (double)o.at_stake_ns;
				o.pct_of_stage *= f;
				o.at_stake_ns = *l;
				size_t len = strlen(o.text);
				snprintf(o.text + len, sizeof o.text - len,
					 "; held to the %.1f ms of kernel time the ones above leave",
					 ms(o.at_stake_ns));
			}
			*l -= o.at_stake_ns;
		}
		out[k++] = o;
	}
	/* largest first again */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && out[j - 1].at_stake_ns < out[j].at_stake_ns; j--) {
			ts_opportunity t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return k;
}

/* A collective kernel row of a stage whose calls took TS_WI_PEER_X times
 * its median or more: the rank waited there for a slower one. The time
 * they took beyond the median (0: none, not a collective), their count and
 * the median. */
static int64_t peer_excess(const ts_result *res, uint32_t r, const ts_stat *x, uint64_t *calls,
			   int64_t *med)
{
	const ts_kclass *c = ts_agg_class(res->agg, r);
	*calls = 0;
	*med = 0;
	if (!c || c->type != TS_TYPE_COMMUNICATION || x->count < 4)
		return 0;
	*med = ts_stat_quantile(x, 0.5);
	if (*med <= 0 || x->max < TS_WI_PEER_X * *med)
		return 0;
	return ts_hist_excess(&x->hist, TS_WI_PEER_X * *med, *med, calls);
}

/* The stage's time in collectives waiting on a peer, summed over its rows. */
static int64_t stage_peer_wait(const ts_result *res, int s)
{
	const ts_stat *other, *all;
	const ts_stat *rows = ts_layers_stage_rows(res->layers, (ts_pstage)s, &other, &all);
	uint32_t nrows = ts_intern_count(res->agg->names);
	int64_t sum = 0, med;
	uint64_t calls;
	for (uint32_t r = 0; rows && r < nrows; r++)
		sum = ts_sat_add(sum, peer_excess(res, r, &rows[r], &calls, &med));
	return sum;
}

/* Communication that ran with no computation beside it: of comm_ns,
 * hidden_ns ran under computation; of the rest, peer_ns was waiting on a
 * peer (an opportunity of its own, not the link's). */
static void comm_opp(int s, int64_t comm_ns, int64_t hidden_ns, int64_t peer_ns, int64_t whole_ns,
		     ts_opportunity *out, size_t *n, size_t max)
{
	int64_t exposed = comm_ns - hidden_ns;
	if (comm_ns <= 0 || exposed <= 0)
		return;
	peer_ns = peer_ns < exposed ? peer_ns : exposed;
	ts_opportunity o = { TS_OPP_COMM, s, exposed - peer_ns, 0, 0, NULL, "", 0, -1 };
	if (o.at_stake_ns <= 0)
		return;
	o.pct_of_stage = whole_ns ? 100.0 * (double)o.at_stake_ns / (double)whole_ns : 0;
	int k = snprintf(o.text, sizeof o.text, "communication exposed: %.1f of %.1f ms of "
			 "collectives ran with no computation beside them (%.0f%% hidden under "
			 "computation)", ms(exposed), ms(comm_ns),
			 100.0 * (double)hidden_ns / (double)comm_ns);
	if (peer_ns > 0 && k > 0 && (size_t)k < sizeof o.text)
		snprintf(o.text + k, sizeof o.text - (size_t)k, "; %.1f ms of it waiting on a peer, "
			 "apart", ms(peer_ns));
	offer(out, n, max, &o);
}

/* No pass, a training step (backward ops; not a graph capture, whose
 * kernels are no workload): the trace's exposed communication and the
 * GPU's idle time in its kernel span (one device). */
static void trace_opps(const ts_result *res, ts_opportunity *out, size_t *n, size_t max)
{
	ts_cpu_side cs;
	ts_layers_cpu_side(res->layers, &cs);
	if (cs.captures || !(cs.backward_ops || cs.backward_kernels))
		return;
	ts_overlap ov;
	ts_agg_overlap(res->agg, &ov);
	comm_opp(TS_PSTAGE_UNKNOWN, ov.comm_ns, ov.comm_hidden_ns, 0, res->agg->all.total, out, n,
		 max);
	const ts_agg *a = res->agg;
	int64_t span = a->has_kspan ? a->k_last - a->k_first : 0, idle = span - ov.all_ns;
	if (a->ndev != 1 || span <= 0 || idle <= 0)
		return;
	ts_opportunity o = { TS_OPP_GPU_IDLE, TS_PSTAGE_UNKNOWN, idle, 0, 0, NULL, "", 0, -1 };
	o.pct_of_stage = 100.0 * (double)idle / (double)span;
	snprintf(o.text, sizeof o.text, "the GPU is idle %.1f%% of its kernel span: %.1f of %.1f ms "
		 "with no kernel or copy running", o.pct_of_stage, ms(idle), ms(span));
	offer(out, n, max, &o);
}

/* A kernel's time above its median that follows the layer position, not
 * the kernel: two thirds of it or more in the stage's blocks of layers
 * with a fixed surcharge (position.h), where kernels of other types
 * carried a quarter of the blocks' surcharge or more (the surcharge
 * moved between kernels, or every kernel there was slower). Kernels of
 * one type alone slow in a block (their calls differ by layer, as a MoE
 * layer's expert GEMMs do with its routing) keep their own spread. */
static bool positional(const ts_result *res, const ts_pos_stage *ps, uint32_t r, int64_t excess)
{
	int64_t carried = ts_position_carried(ps, r), others = 0;
	if (ps->excess_ns <= 0 || carried <= 0 || 3 * carried < 2 * excess)
		return false;
	const ts_kclass *c = ts_agg_class(res->agg, r);
	for (uint32_t i = 0; i < ps->nrows; i++) {
		const ts_kclass *x = ts_agg_class(res->agg, ps->rows[i].row);
		if (!c || !x || x->type != c->type)
			others = ts_sat_add(others, ps->rows[i].ns);
	}
	return 4 * others >= ps->excess_ns;
}

/* The blocks' two largest carriers by name (rows of one short name
 * summed), as "NAME 50%, NAME 30%". */
static void carriers(const ts_result *res, const ts_pos_stage *ps, char *buf, size_t len)
{
	char name[TS_POS_ROWS][TS_SHORT_MAX + 1];
	int64_t ns[TS_POS_ROWS];
	uint32_t k = 0;
	for (uint32_t i = 0; i < ps->nrows; i++) {
		char x[TS_SHORT_MAX + 1];
		kernel_label(res, ps->rows[i].row, x, sizeof x);
		uint32_t j = 0;
		while (j < k && strcmp(name[j], x) != 0)
			j++;
		if (j == k) {
			memcpy(name[k], x, sizeof x);
			ns[k++] = 0;
		}
		ns[j] = ts_sat_add(ns[j], ps->rows[i].ns);
	}
	size_t at = 0;
	buf[0] = 0;
	for (int t = 0; t < 2 && k > 0 && at < len; t++) {
		uint32_t top = 0;
		for (uint32_t j = 1; j < k; j++)
			top = ns[j] > ns[top] ? j : top;
		if (ns[top] <= 0)
			break;
		int w = snprintf(buf + at, len - at, "%s%s %.0f%%", t ? ", " : "", name[top],
				 100.0 * (double)ns[top] / (double)ps->excess_ns);
		at += w > 0 ? (size_t)w : 0;
		ns[top] = 0;
	}
}

/* One opportunity for the stage's blocks of layers with a fixed
 * surcharge, which the spread of nexpl kernels (the largest: row first)
 * was. */
static void position_opp(const ts_result *res, int s, int64_t stage_ns, const ts_pos_stage *ps,
			 uint32_t first, uint32_t nexpl, ts_opportunity *out, size_t *n, size_t max)
{
	char where[96], who[2 * TS_SHORT_MAX + 16], name[TS_SHORT_MAX + 1], more[32] = "",
	     range[48] = "";
	if (ps->moved)
		snprintf(where, sizeof where, "%" PRIu64 " blocks of %.0f layers between layers %" PRIu32
			 " and %" PRIu32, ps->blocks, (double)ps->layers / (double)ps->blocks, ps->lo,
			 ps->hi);
	else
		snprintf(where, sizeof where, "layers %" PRIu32 "-%" PRIu32, ps->lo, ps->hi);
	if (ps->max_ns - ps->min_ns >= 100)
		snprintf(range, sizeof range, " (%.1f to %.1f)", (double)ps->min_ns / 1e3,
			 (double)ps->max_ns / 1e3);
	carriers(res, ps, who, sizeof who);
	kernel_label(res, first, name, sizeof name);
	if (nexpl > 1)
		snprintf(more, sizeof more, " (nor %" PRIu32 " more's)", nexpl - 1);
	ts_opportunity o = { TS_OPP_LAYER, s, ps->excess_ns, 0, 0, NULL, "", 0, -1 };
	o.pct_of_stage = 100.0 * (double)ps->excess_ns / (double)stage_ns;
	char t[720];   /* its parts at their longest; the text holds what fits */
	snprintf(t, sizeof t, "%s took %.1f us more a layer%s in %" PRIu32 " of %" PRIu32 " passes "
		 "(carried by %s): a surcharge of the position (a clock or power event, a memory "
		 "stall, a host hiccup), not %s's calls spread%s; %.1f us a step", where,
		 (double)ps->excess_ns / (double)ps->layers / 1e3, range, ps->block_passes,
		 ps->passes, who, name, more, (double)ps->excess_ns / (double)ps->passes / 1e3);
	size_t len = strnlen(t, sizeof o.text - 1);
	memcpy(o.text, t, len);
	o.text[len] = 0;
	offer(out, n, max, &o);
}

/* The same kernel far from its own median across its calls of a stage
 * (layers and passes alike; no shapes needed): the time its calls took
 * above the median (what it would save if every call took the median),
 * where the slowest took at least twice the median and the excess is at
 * least 1% of the stage's kernel time. For a MoE expert GEMM that is the
 * experts' uneven share of the tokens. Where that time follows the layer
 * position (positional), the blocks of layers are the opportunity
 * instead: true when it was offered. */
static bool spread_opps(const ts_result *res, int s, int64_t stage_ns, ts_opportunity *out,
			size_t *n, size_t max)
{
	const ts_stat *other, *all;
	const ts_stat *rows = ts_layers_stage_rows(res->layers, (ts_pstage)s, &other, &all);
	uint32_t nrows = ts_intern_count(res->agg->names), nexpl = 0, first = TS_INTERN_NONE;
	int64_t most = 0;   /* the largest spread the blocks explain */
	const ts_pos_stage *ps = ts_position_stage(ts_anatomy_position(ts_layers_anatomy(res->layers)), s);
	for (uint32_t r = 0; rows && r < nrows; r++) {
		const ts_stat *x = &rows[r];
		uint64_t calls;
		int64_t med, peer = peer_excess(res, r, x, &calls, &med);
		if (peer > 0 && peer * 100 >= stage_ns) {
			char name[TS_SHORT_MAX + 1];
			kernel_label(res, r, name, sizeof name);
			ts_opportunity o = { TS_OPP_PEER, s, peer, 0, 0, NULL, "", 0, -1 };
			o.pct_of_stage = 100.0 * (double)peer / (double)stage_ns;
			snprintf(o.text, sizeof o.text, "waiting on a peer: %" PRIu64 " of %" PRIu64
				 " calls of %s took %dx its median (%.1f us) or more, up to %.1f us: "
				 "%.2f ms beyond the median, the rank waiting for a slower one (a "
				 "straggler, or uneven work before the collective), not the link",
				 calls, x->count, name, TS_WI_PEER_X, (double)med / 1e3,
				 (double)x->max / 1e3, ms(peer));
			offer(out, n, max, &o);
			continue;
		}
		if (peer > 0 || x->count < 8)
			continue;
		int64_t p50 = ts_stat_quantile(x, 0.5);
		int64_t excess = x->total - (int64_t)x->count * p50;
		if (p50 <= 0 || x->max < 2 * p50 || excess * 100 < stage_ns)
			continue;
		if (positional(res, ps, r, excess)) {
			if (!nexpl++ || excess > most) {
				first = r;
				most = excess;
			}
			continue;
		}
		char name[TS_SHORT_MAX + 1];
		kernel_label(res, r, name, sizeof name);
		const ts_kclass *c = ts_agg_class(res->agg, r);
		bool moe = c && c->type == TS_TYPE_MOE;
		ts_opportunity o = { TS_OPP_SPREAD, s, excess, 0, 0, NULL, "", 0, -1 };
		o.ktype = (int16_t)(c ? c->type : TS_TYPE_OTHER);
		o.pct_of_stage = 100.0 * (double)excess / (double)stage_ns;
		snprintf(o.text, sizeof o.text, "%s: its calls spread, p50 %.1f us, max %.1f us (%.1fx) "
			 "over %" PRIu64 " calls; %.2f ms above its median%s", name, (double)p50 / 1e3,
			 (double)x->max / 1e3, (double)x->max / (double)p50, x->count, ms(excess),
			 moe ? " (a MoE expert GEMM: the experts got uneven shares of the tokens)" : "");
		offer(out, n, max, &o);
	}
	if (nexpl && ps->excess_ns * 100 >= stage_ns)
		position_opp(res, s, stage_ns, ps, first, nexpl, out, n, max);
	return nexpl && ps->excess_ns * 100 >= stage_ns;
}

/* The GPU idle in the stage's step windows before their passes, with its
 * cause: the CPU in a synchronizing call for most of it (by name), else
 * the step's input preparation on the CPU. */
static void step_opp(const ts_result *res, int s, int64_t stage_ns, ts_opportunity *out,
		     size_t *n, size_t max)
{
	ts_sview st;
	if (!ts_sview_of(res->layers, res->api, (ts_pstage)s, &st) || !st.windows || st.of_partials)
		return;
	int64_t idle = st.before_ns - st.before_busy_ns, wall = st.window_p50_ns * (int64_t)st.windows;
	if (idle <= 0 || idle * 100 < wall)
		return;   /* under 1% of the steps: no fix is worth it */
	ts_opportunity o = { TS_OPP_STEP_IDLE, s, idle, 0, 0, NULL, "", 0, -1 };
	o.pct_of_stage = stage_ns ? 100.0 * (double)idle / (double)stage_ns : 0;
	char why[160] = "the CPU preparing the step's inputs";
	const ts_whatif *w = ts_result_module(res, &ts_whatif_module);
	const ts_wi_stage *x = w ? ts_whatif_stage(w, (ts_pstage)s) : NULL;
	bool held = 2 * ts_wi_wait_ns(x) * st.windows >= idle && idle > 0;
	if (held)
		snprintf(why, sizeof why, "kernels queued, held by a wait the trace does not show%s%s",
			 st.before_sync ? "; the CPU in " : "", st.before_sync ? st.before_sync : "");
	else if (st.before_sync && 2 * st.before_sync_ns >= idle)
		snprintf(why, sizeof why, "the CPU %.1f ms in %s", ms(st.before_sync_ns), st.before_sync);
	snprintf(o.text, sizeof o.text,
		 "the GPU idle %.1f ms in its step%s before the pass began (%s): %.0f%% of "
		 "the step's %.1f ms", ms(idle), st.windows > 1 ? "s" : "", why,
		 100.0 * (double)idle / (double)wall, ms(st.window_p50_ns));
	offer(out, n, max, &o);
}

/* What the replay says each fix saves its stage's steps: the time at
 * stake times what a fix of its kind of time saves a step a ns of it
 * (ts_wi_effect); then largest first, by that where known. */
static void replayed_savings(const ts_result *res, ts_opportunity *out, size_t n)
{
	const ts_whatif *w = ts_result_module(res, &ts_whatif_module);
	for (size_t i = 0; i < n; i++) {
		ts_opportunity *o = &out[i];
		const ts_wi_stage *x = w && o->stage >= 0 && o->stage < TS_PSTAGE_COUNT
			? ts_whatif_stage(w, (ts_pstage)o->stage) : NULL;
		int what = TS_WI_ALL;
		switch (o->kind) {
		case TS_OPP_IDLE:
		case TS_OPP_LAUNCH:
			what = TS_WI_IDLE;
			break;
		case TS_OPP_STEP_IDLE:
			what = TS_WI_BEFORE;
			break;
		case TS_OPP_PEER:
			what = TS_WI_PEERS;
			break;
		case TS_OPP_COMM:
			what = TS_TYPE_COMMUNICATION;
			break;
		case TS_OPP_SPREAD:
			what = o->ktype;
			break;
		default:
			break;
		}
		double e = o->kind == TS_OPP_GPU_IDLE || !x ? -1 : ts_wi_effect(x, what);
		o->saves_ns = e < 0 ? -1 : (int64_t)((double)o->at_stake_ns * e + 0.5);
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			int64_t a = out[j - 1].saves_ns >= 0 ? out[j - 1].saves_ns : out[j - 1].at_stake_ns;
			int64_t b = out[j].saves_ns >= 0 ? out[j].saves_ns : out[j].at_stake_ns;
			if (a >= b)
				break;
			ts_opportunity t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
}

size_t ts_insight_opportunities(const ts_result *res, ts_opportunity *out, size_t max)
{
	size_t n = 0;
	if (!res->layers || !res->agg)
		return 0;
	if (ts_layers_npasses(res->layers) == 0)
		trace_opps(res, out, &n, max);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_stage_total *t = ts_layers_stage(res->layers, (ts_pstage)s);
		const ts_stat *other, *sall;
		ts_layers_stage_rows(res->layers, (ts_pstage)s, &other, &sall);
		int64_t stage_ns = sall->total;
		if (res->attrib && stage_ns > 0)
			roofline_opps(res, s, stage_ns, out, &n, max);
		const ts_idle_pass *d = &t->idle;
		/* Idle time is one opportunity; launch-bound gaps are a cause of
		 * it, named inside it (and its kind when they are most of it), so
		 * the same gap is never counted twice. */
		if (t->complete_passes && d->idle_ns > 0) {
			char before[TS_SHORT_MAX + 1], after[TS_SHORT_MAX + 1];
			kernel_label(res, d->largest_before, before, sizeof before);
			kernel_label(res, d->largest_after, after, sizeof after);
			bool launch = d->launch_ns > 0 && 2 * d->launch_ns >= d->idle_ns;
			ts_opportunity o = { launch ? TS_OPP_LAUNCH : TS_OPP_IDLE, s, d->idle_ns, 0, 0, NULL, "", 0, -1 };
			o.pct_of_stage = d->span_ns ? 100.0 * (double)d->idle_ns / (double)d->span_ns : 0;
			char cause[96] = "";
			if (d->launch_ns > 0)
				snprintf(cause, sizeof cause, " (launch-bound, the CPU late: %" PRIu64
					 " gaps, %.1f ms)", d->launch_gaps, ms(d->launch_ns));
			snprintf(o.text, sizeof o.text,
				 "%.1f%% of the pass time is idle: %" PRIu64 " gaps, %.1f ms%s; "
				 "largest %.0f us, after %s before %s",
				 o.pct_of_stage, d->gaps, ms(d->idle_ns), cause,
				 (double)d->largest_ns / 1e3, after, before);
			offer(out, &n, max, &o);
		}
		bool blocks = false;
		if (t->complete_passes) {
			step_opp(res, s, stage_ns, out, &n, max);
			comm_opp(s, d->comm_ns, ts_idle_hidden(d), stage_peer_wait(res, s), stage_ns, out,
				 &n, max);
			blocks = spread_opps(res, s, stage_ns, out, &n, max);
		}
		ts_layer_outlier lo[4];
		int64_t typical;
		size_t no = ts_layers_outliers(res->layers, (ts_pstage)s, lo, 4, &typical);
		const ts_pos_stage *ps = ts_position_stage(ts_anatomy_position(ts_layers_anatomy(res->layers)), s);
		for (size_t i = 0; i < no; i++) {
			/* a layer of the blocks is said with them */
			if (lo[i].ratio <= 1.0 || (blocks && lo[i].index >= ps->lo && lo[i].index <= ps->hi))
				continue;
			const ts_layer_stat *ls = ts_layers_stat(res->layers, (ts_pstage)s, lo[i].index);
			ts_opportunity o = { TS_OPP_LAYER, s, 0, 0, 0, NULL, "", 0, -1 };
			o.at_stake_ns = (lo[i].mean_ns - typical) * (int64_t)ls->time.count;
			o.pct_of_stage = stage_ns ? 100.0 * (double)o.at_stake_ns / (double)stage_ns : 0;
			snprintf(o.text, sizeof o.text,
				 "layer %" PRIu32 " (%s): its kernels take %.2fx the typical layer's: "
				 "%.1f vs %.1f us of kernel time",
				 lo[i].index, ts_ltype_name(res->patterns, lo[i].type), lo[i].ratio,
				 (double)lo[i].mean_ns / 1e3, (double)typical / 1e3);
			offer(out, &n, max, &o);
		}
	}
	n = cap_overlaps(res, out, n);
	replayed_savings(res, out, n);
	return n;
}
