/*
 * layers_results.c - what the layer machine found, as reports read it: the
 * names of stages, signals and layer types; passes, stages, layer
 * statistics, the expected count, notes, the self-check, outliers; and
 * whether the trace is a training step, whose passes are then undone
 * (layers_int.h).
 */
#include "analysis/layers/layers_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "input/base/satmath.h"
#include "input/numtext.h"

/* ------------------------------------------------------------ names */

static const char *const pstage_names[TS_PSTAGE_COUNT] = {
	"prefill", "decode", "mixed", "unknown",
};


const char *ts_pstage_name(ts_pstage s)
{
	return (unsigned)s < TS_PSTAGE_COUNT ? pstage_names[s] : "unknown";
}

const ts_layers_opts *ts_layers_options(const ts_layers *l)
{
	return &l->opts;
}

/* ---------------------------------------------------------- annotations */

const ts_layer_sample *ts_layers_sample(const ts_layers *l, ts_pstage s)
{
	return l->listing.samples[s].k ? &l->listing.samples[s] : NULL;
}

const ts_anatomy *ts_layers_anatomy(const ts_layers *l)
{
	return l->listing.anatomy;
}

size_t ts_layers_odd(const ts_layers *l, const ts_odd_layer **out, uint64_t *total)
{
	*out = l->check.odd;
	*total = l->check.odd_total;
	return l->check.nodd;
}

uint64_t ts_layers_once_units(const ts_layers *l)
{
	return l->online.once_units;
}

const ts_stat *ts_layers_stage_rows(const ts_layers *l, ts_pstage s,
				    const ts_stat **other, const ts_stat **all)
{
	*other = &l->staged.sother[s];
	*all = &l->staged.sall[s];
	return l->staged.srows[s];
}

const ts_ctx_stat *ts_layers_stage_ctx(const ts_layers *l, ts_pstage s)
{
	return l->staged.sctx[s];
}

uint64_t ts_layers_stage_overflow(const ts_layers *l)
{
	return l->staged.stage_overflow;
}

/* --------------------------------------------------------------- results */

size_t ts_layers_npasses(const ts_layers *l)
{
	return l->records.npasses;
}

const ts_pass *ts_layers_pass(const ts_layers *l, size_t i)
{
	return &l->records.passes[i];
}

uint64_t ts_layers_annotations_dropped(const ts_layers *l)
{
	return ts_steps_dropped(l->steps);
}

uint64_t ts_layers_passes_dropped(const ts_layers *l)
{
	return l->records.passes_dropped;
}

const ts_stage_total *ts_layers_stage(const ts_layers *l, ts_pstage s)
{
	return &l->stats.stages[s];
}

uint32_t ts_layers_per_pass(const ts_layers *l)
{
	uint32_t best = 0;
	for (uint32_t n = 1; n <= TS_MAX_LAYERS; n++)
		if (l->stats.count_hist[n] > l->stats.count_hist[best] ||
		    (best == 0 && l->stats.count_hist[n] > 0))
			best = n;
	return l->stats.count_hist[best] ? best : 0;
}

const ts_layer_doubt *ts_layers_doubt(const ts_layers *l)
{
	return &l->check.doubt;
}

void ts_layers_framework_seen(ts_layers *l)
{
	l->cpu.generation |= TS_GEN_FRAMEWORK;
}

void ts_layers_batching(ts_layers *l, int vote)
{
	if (l && ((vote > 0 && l->cpu.batching < INT32_MAX) || (vote < 0 && l->cpu.batching > INT32_MIN)))
		l->cpu.batching += vote;
}

void ts_layers_diffusion_seen(ts_layers *l, bool most)
{
	if (most)
		l->cpu.generation |= TS_GEN_DIFFUSION;
	else
		l->cpu.generation &= ~(unsigned)TS_GEN_DIFFUSION;
}

void ts_layers_attends(ts_layers *l, bool bidirectional)
{
	if (l)
		l->cpu.generation |= bidirectional ? TS_GEN_BIDIR : TS_GEN_CAUSAL;
}

bool ts_layers_encoder(const ts_layers *l)
{
	unsigned g = l->cpu.generation;
	return (g & (TS_GEN_BIDIR | TS_GEN_CAUSAL | TS_GEN_DIFFUSION)) == TS_GEN_BIDIR &&
	       !(g & TS_GEN_EVIDENCE & ~(unsigned)TS_GEN_EMBEDDING);
}

unsigned ts_layers_generation(const ts_layers *l)
{
	if ((l->cpu.generation & TS_GEN_DIFFUSION) || ts_layers_encoder(l))
		return 0;
	return l->cpu.generation & TS_GEN_EVIDENCE;
}

bool ts_layers_diffusion(const ts_layers *l)
{
	return (l->cpu.generation & TS_GEN_DIFFUSION) != 0;
}

uint32_t ts_layers_kinds(const ts_layers *l, uint32_t *kinds)
{
	uint32_t n = ts_layers_per_pass(l);
	memset(kinds, 0, TS_LT_COUNT * sizeof *kinds);
	for (uint32_t i = 0; i < n && i < TS_MAX_LAYERS; i++) {
		uint64_t c[TS_LT_COUNT] = { 0 };
		for (int s = 0; s < TS_PSTAGE_COUNT; s++)
			for (int t = 0; l->stats.lstat[s] && i < l->stats.lmax[s] && t < TS_LT_COUNT; t++)
				c[t] += l->stats.lstat[s][i].type_count[t];
		int best = TS_LT_UNKNOWN;
		for (int t = 0; t < TS_LT_COUNT; t++)
			if (c[t] > c[best])
				best = t;
		kinds[best]++;
	}
	return n;
}

uint64_t ts_layers_structural(const ts_layers *l)
{
	return l->online.structural;
}

uint64_t ts_layers_type_count(const ts_layers *l, ts_ltype t)
{
	return l->stats.type_count[t];
}

uint32_t ts_layers_max_index(const ts_layers *l, ts_pstage s)
{
	return l->stats.lmax[s];
}

const ts_layer_stat *ts_layers_stat(const ts_layers *l, ts_pstage s, uint32_t i)
{
	static const ts_layer_stat none;
	return l->stats.lstat[s] && i < TS_MAX_LAYERS ? &l->stats.lstat[s][i] : &none;
}

uint64_t ts_layers_outside(const ts_layers *l, int64_t *ns)
{
	*ns = l->stats.orphan_ns;
	return l->stats.orphan_kernels;
}

const ts_between *ts_layers_between(const ts_layers *l)
{
	return &l->stats.between;
}

uint64_t ts_layers_orphans(const ts_layers *l, int64_t *ns)
{
	uint64_t k = l->stats.orphan_kernels;
	int64_t t = l->stats.orphan_ns;
	/* saturating: a merged partial may carry any figures */
	for (size_t i = 0; i < l->records.npasses; i++) {
		k = ts_sat_addu(k, l->records.passes[i].orphan_kernels);
		t = ts_sat_add(t, l->records.passes[i].orphan_ns);
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
	if (p->verify)
		append(buf, n, &k, "verify=%u_tokens_a_draft_token", (unsigned)p->verify);
	if (p->q_grid > 1 && p->signal[TS_SIG_Q_GRID] != TS_PSTAGE_UNKNOWN)
		append(buf, n, &k, "q_blocks=%" PRId64, p->q_grid);
	if (p->sampled > 0 && p->layer_tokens > 0)
		append(buf, n, &k, "sampled=%" PRId64 "_of_%" PRId64, p->sampled, p->layer_tokens);
	if (p->batching)
		append(buf, n, &k, "batching=%s", p->batching == 1 ? "beside_running"
			  : p->stage == TS_PSTAGE_MIXED ? "as_later_passes" : "run_began");
	if (p->signal[TS_SIG_GRAPH] != TS_PSTAGE_UNKNOWN || (p->replayed && !p->replayed_layers && !p->launched))
		append(buf, n, &k, "graph_%s=%" PRIu32 "/%" PRIu32, p->replayed_layers ? "layers" : "attn",
		       p->replayed, p->replayed + p->launched);
	if (p->only_prefill || p->only_decode)
		append(buf, n, &k, "only_in=%" PRIu32 "p/%" PRIu32 "d", p->only_prefill, p->only_decode);
	if (p->duration_ratio > 0 && p->by_grid)
		append(buf, n, &k, "grid=x%.2g_%s", p->duration_ratio,
		       p->duration_ref != TS_PSTAGE_UNKNOWN ? ts_pstage_name(p->duration_ref)
		       : p->duration_ratio > 1 ? "smallest_pass" : "largest_pass");
	else if (p->duration_ratio > 0 && p->duration_ref == TS_PSTAGE_UNKNOWN)
		append(buf, n, &k, "layer_time=x%.2g_%s", p->duration_ratio,
		       p->duration_ratio > 1 ? "fastest_pass" : "slowest_pass");
	else if (p->duration_ratio > 0)
		append(buf, n, &k, "layer_time=x%.2g_%s", p->duration_ratio,
		       ts_pstage_name(p->duration_ref));
}

/* Why there is no complete pass, when the input was read whole. */
static void note_whole(const ts_layers *l, uint64_t partial, uint64_t layers, uint64_t cut_start,
		       uint64_t cut_end, char *buf, size_t n)
{
	if (l->cpu.captures && l->cpu.capture_calls)
		snprintf(buf, n, "a CUDA/HIP graph capture (%" PRIu64 " capture%s begun): its kernels "
			 "ran while graphs were recorded, not as forward passes", l->cpu.capture_calls,
			 l->cpu.capture_calls == 1 ? "" : "s");
	else if (l->cpu.captures)
		snprintf(buf, n, "a CUDA/HIP graph capture (a capture step annotation, no capture call "
			 "recorded): its kernels ran while graphs were recorded, not as forward passes");
	else if (l->cpu.backward_ops)
		snprintf(buf, n, "a training step (%" PRIu64 " autograd backward ops), not inference: "
			 "no inference pass, layer or stage is reported", l->cpu.backward_ops);
	else if (ts_lay_training(l))
		snprintf(buf, n, "a training step (%" PRIu64 " of %" PRIu64 " kernels are backward or "
			 "optimizer kernels by name; no CPU op says so), not inference: no inference "
			 "pass, layer or stage is reported", l->cpu.backward_kernels, l->cpu.kernels_seen);
	else if (l->cpu.kernels_seen == 0)
		snprintf(buf, n, "no timed kernel in the trace (kernel events without ts or dur)");
	else if (l->online.attn_units == 0 && l->cpu.attn_typed)
		snprintf(buf, n, "%" PRIu64 " of %" PRIu64 " kernels are typed attention, but none "
			 "ran as a layer's mixer (projections before it, more work after), so no "
			 "transformer layer", l->cpu.attn_typed, l->cpu.kernels_seen);
	else if (l->online.attn_units == 0)
		snprintf(buf, n, "no attention kernel among %" PRIu64 " kernels, so no transformer "
			 "layer (see the unclassified kernels: an attention kernel no rule types?)",
			 l->cpu.kernels_seen);
	else if (partial && layers <= 2 && l->records.npasses == 1)
		snprintf(buf, n, "no complete pass: the window holds %" PRIu64 " kernels, %s",
			 l->cpu.kernels_seen, layers <= 1 ? "part of a layer" : "parts of two layers");
	else if (partial)
		snprintf(buf, n, "the profile window cuts every pass (%" PRIu64 " partial: %" PRIu64
			 " began inside a layer, %" PRIu64 " ended inside one)",
			 partial, cut_start, cut_end);
	else
		snprintf(buf, n, "%" PRIu64 " attention kernels but no pass with a layer",
			 l->online.attn_units);
}

/* Why there is no complete pass in the part of a cut input that was read:
 * the profiler writes the GPU events after the CPU ones, so what is
 * missing is most likely kernels. Only what the cut cannot explain is
 * said as a finding (a capture, a training step). */
static void note_cut(const ts_layers *l, char *buf, size_t n)
{
	if (l->cpu.captures || ts_lay_training(l))
		return;
	if (l->cpu.kernels_seen == 0)
		snprintf(buf, n, "no GPU kernels in the part read (%" PRIu64 " CPU ops, %" PRIu64
			 " kernel launches): the trace was cut short, and the profiler writes the "
			 "GPU events after the CPU ones, so its kernels are in the missing part",
			 l->cpu.cpu_ops, l->cpu.launches);
	else
		snprintf(buf, n, "no complete pass in the part read (%" PRIu64 " kernels): the trace "
			 "was cut short inside its GPU events, so the rest of its kernels are in the "
			 "missing part", l->cpu.kernels_seen);
}

bool ts_lay_training(const ts_layers *l)
{
	return l->cpu.backward_ops ||
	       (l->cpu.backward_names >= 2 && l->cpu.backward_kernels >= l->cpu.kernels_seen / 50);
}

/* A training step: its forward kernels are no inference pass. Every pass
 * found is undone: its kernels are outside any pass, stage unknown. */
void ts_lay_training_reset(ts_layers *l)
{
	for (size_t i = 0; i < l->records.npasses; i++) {
		l->stats.orphan_kernels += l->records.passes[i].kernels;
		l->stats.orphan_ns = ts_sat_add(l->stats.orphan_ns, l->records.passes[i].gpu_ns);
	}
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		if (s != TS_PSTAGE_UNKNOWN) {   /* dropped records' kernels */
			l->stats.orphan_kernels += l->stats.stages[s].kernels;
			l->stats.orphan_ns = ts_sat_add(l->stats.orphan_ns, l->stats.stages[s].gpu_ns);
		}
		l->stats.stages[s] = (ts_stage_total){ 0 };
		for (uint32_t i = 0; l->stats.lstat[s] && i < l->stats.lmax[s]; i++)
			ts_stat_clear(&l->stats.lstat[s][i].time);
		if (l->stats.lstat[s])
			memset(l->stats.lstat[s], 0, l->stats.lmax[s] * sizeof *l->stats.lstat[s]);
		l->stats.lmax[s] = 0;
		free(l->listing.samples[s].k);
		l->listing.samples[s] = (ts_layer_sample){ 0 };
		if (s == TS_PSTAGE_UNKNOWN)
			continue;
		for (uint32_t i = 0; l->staged.srows[s] && i < l->staged.srows_cap; i++) {
			ts_stat_merge(&l->staged.srows[TS_PSTAGE_UNKNOWN][i], &l->staged.srows[s][i]);
			ts_stat_clear(&l->staged.srows[s][i]);
			for (size_t k = (size_t)i * TS_CTX_SLOTS; k < (size_t)(i + 1) * TS_CTX_SLOTS; k++) {
				ts_ctx_stat *u = &l->staged.sctx[TS_PSTAGE_UNKNOWN][k];
				u->count += l->staged.sctx[s][k].count;
				u->ns = ts_sat_add(u->ns, l->staged.sctx[s][k].ns);
				l->staged.sctx[s][k] = (ts_ctx_stat){ 0 };
			}
		}
		ts_stat_merge(&l->staged.sother[TS_PSTAGE_UNKNOWN], &l->staged.sother[s]);
		ts_stat_clear(&l->staged.sother[s]);
		ts_stat_merge(&l->staged.sall[TS_PSTAGE_UNKNOWN], &l->staged.sall[s]);
		ts_stat_clear(&l->staged.sall[s]);
	}
	l->records.npasses = 0;
	l->records.passes_dropped = 0;
	l->records.pass_count = 0;
	memset(l->stats.type_count, 0, sizeof l->stats.type_count);
	memset(l->stats.count_hist, 0, sizeof l->stats.count_hist);
	memset(l->stats.all_hist, 0, sizeof l->stats.all_hist);
	memset(l->stats.whole_hist, 0, sizeof l->stats.whole_hist);
	l->check.nodd = 0;
	l->check.odd_total = 0;
	l->online.structural = 0;
	l->online.once_units = 0;
	l->listing.ndbg_kept = 0;
	if (l->listing.anatomy) {
		ts_anatomy_free(l->listing.anatomy);
		l->listing.anatomy = ts_anatomy_new(ts_patterns_ncategories(l->patterns));
	}
}

void ts_layers_cpu_side(const ts_layers *l, ts_cpu_side *out)
{
	*out = (ts_cpu_side){ l->cpu.cpu_ops, l->cpu.compute_ops, l->cpu.launches, l->cpu.backward_ops,
			      l->cpu.capture_calls ? l->cpu.capture_calls : l->cpu.captures, l->cpu.py_events, l->cpu.py_server,
			      ts_lay_training(l) ? l->cpu.backward_kernels : 0, l->cpu.kernels_seen };
}

bool ts_layers_note(const ts_layers *l, bool cut, char *buf, size_t n)
{
	uint64_t complete = 0, partial = 0, cut_start = 0, cut_end = 0, layers = 0;
	for (size_t i = 0; i < l->records.npasses; i++) {
		const ts_pass *p = &l->records.passes[i];
		layers += p->layers;
		complete += p->complete;
		partial += !p->complete;
		cut_start += p->cut_start;
		cut_end += p->cut_end;
	}
	if (complete)
		return false;
	note_whole(l, partial, layers, cut_start, cut_end, buf, n);
	if (cut)
		note_cut(l, buf, n);
	return true;
}

bool ts_layers_debug_pass(const ts_layers *l, uint32_t *index, ts_pstage *stage, bool *complete)
{
	if (!l->listing.dbg_done)
		return false;
	*index = l->listing.dbg_index;
	*stage = l->listing.dbg_stage;
	*complete = l->listing.dbg_complete;
	return true;
}

size_t ts_layers_debug(const ts_layers *l, const ts_debug_kernel **out)
{
	*out = l->listing.dbg_kept;
	return l->listing.ndbg_kept;
}

static double deviation(double r)
{
	return r >= 1 ? r - 1 : 1 / r - 1;
}

size_t ts_layers_outliers(const ts_layers *l, ts_pstage s, ts_layer_outlier *out,
			  size_t max, int64_t *typical_ns)
{
	*typical_ns = 0;
	uint32_t n = l->stats.lmax[s];
	int64_t *means = malloc((n ? n : 1) * sizeof *means);
	if (!means)
		return 0;
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		const ts_stat *t = &l->stats.lstat[s][i].time;
		if (t->count)
			means[k++] = t->total / (int64_t)t->count;
	}
	if (k < 3) {      /* too few layers to say which is typical */
		free(means);
		return 0;
	}
	ts_sort_i64(means, k);
	int64_t typ = means[(k - 1) / 2];
	free(means);
	*typical_ns = typ;
	if (typ <= 0)
		return 0;
	size_t m = 0;
	for (uint32_t i = 0; i < n; i++) {
		const ts_layer_stat *st = &l->stats.lstat[s][i];
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

const char *ts_draft_by_name(ts_draft_by b)
{
	static const char *const names[TS_DRAFT_BY_COUNT] = {
		[TS_DRAFT_NOT] = NULL, [TS_DRAFT_UNKNOWN] = "unknown",
		[TS_DRAFT_ONCE] = "target_verified_once", [TS_DRAFT_ALONE] = "target_count_seen_alone",
		[TS_DRAFT_DEEPER] = "target_deeper", [TS_DRAFT_CYCLE] = "layer_count_cycle",
		[TS_DRAFT_STRAY] = "drafts_count_outside_steps",
		[TS_DRAFT_GRAPH] = "drafts_share_one_graph",
		[TS_DRAFT_TOKENS] = "target_verifies_their_tokens",
	};
	return (unsigned)b < TS_DRAFT_BY_COUNT ? names[b] : NULL;
}
