/*
 * report_json_cmp.c - compare's JSON document ("mode": "compare", schema 1,
 * docs/compare.md): the two sides, the total, operation groups with their
 * kernels, layers, and the kernels of a typical layer aligned. Written
 * through yajl_gen (jsonw.h), laid out as the single-trace report is.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "analysis/views/aview.h"
#include "report/jsonw.h"
#include "report/report.h"

/* A ratio, or null when A has none. */
static void put_ratio(ts_jw *w, const char *k, double r)
{
	ts_jw_key(w, k);
	if (r < 0)
		ts_jw_null(w);
	else
		ts_jw_num(w, "%.4f", r);
}

/* "a_..." or "b_..." */
static const char *side_key(char *buf, size_t n, int s, const char *what)
{
	snprintf(buf, n, "%c_%s", s ? 'b' : 'a', what);
	return buf;
}

static void put_cmp_side(ts_jw *w, const ts_compare *c, int s)
{
	const ts_result *r = c->r[s];
	const ts_devprop *d = ts_report_devprop(r);
	ts_jw_member(w, 2, s ? "b" : "a");
	ts_jw_obj(w);
	ts_jw_member(w, 4, "name");
	ts_jw_str(w, c->name[s]);
	ts_jw_member(w, 4, "path");
	ts_jw_str(w, r->path);
	ts_jw_member(w, 4, "partial");
	ts_jw_bool(w, r->partial);
	ts_jw_member(w, 4, "error");
	ts_jw_str(w, r->err.status != TS_OK ? r->err.msg : NULL);
	ts_jw_member(w, 4, "platform");
	ts_jw_str(w, ts_platform_name(r->platform));
	ts_jw_member(w, 4, "gpu");
	ts_jw_str(w, d ? d->name : "");
	ts_jw_member(w, 4, "model");
	ts_jw_str(w, r->model.family ? r->model.family->name : NULL);
	ts_jw_member(w, 4, "kernels");
	ts_jw_uint(w, c->kernels[s]);
	ts_jw_member(w, 4, "kernel_time_us");
	ts_jw_us(w, c->kernel_ns[s]);
	ts_jw_member(w, 4, "busy_time_us");
	ts_jw_us(w, c->busy_ns[s]);
	int64_t mns = 0;
	uint64_t mn = 0;
	for (int k = 0; k < TS_MEM_COUNT; k++) {
		mns += r->agg->mem[k].total_ns;
		mn += r->agg->mem[k].count;
	}
	ts_jw_member(w, 4, "memory_ops");
	ts_jw_uint(w, mn);
	ts_jw_member(w, 4, "memory_ops_us");
	ts_jw_us(w, mns);
	ts_jw_member(w, 4, "passes");
	ts_jw_uint(w, c->passes[s]);
	ts_jw_member(w, 4, "complete_passes");
	ts_jw_uint(w, c->complete[s]);
	ts_jw_member(w, 4, "layers");
	ts_jw_uint(w, c->layers[s]);
	ts_jw_member(w, 4, "stages");
	ts_jw_obj(w);
	for (int st = 0; st < TS_PSTAGE_COUNT && c->stage[st][s]; st++) {
		if (c->o.staged && (ts_pstage)st != c->o.stage)
			continue;
		const ts_stage_total *t = c->stage[st][s];
		ts_jw_key(w, ts_pstage_name((ts_pstage)st));
		ts_jw_obj(w);
		ts_jw_kuint(w, "passes", t->passes);
		ts_jw_kuint(w, "complete_passes", t->complete_passes);
		ts_jw_kuint(w, "layers_per_pass", c->layer_count[st][s]);
		ts_jw_kus(w, "kernel_time_us", t->gpu_ns);
		ts_jw_end_obj(w);
	}
	ts_jw_end_obj(w);
	ts_jw_nl(w, 2);
	ts_jw_end_obj(w);
}

static void put_cmp_kernel_list(ts_jw *w, const ts_compare *c, const ts_cmp_op *r, int s,
				char (*shorts)[TS_SHORT_MAX + 1])
{
	char k[32];
	ts_jw_key(w, side_key(k, sizeof k, s, "kernels"));
	ts_jw_arr(w);
	for (size_t i = 0; i < r->nk[s]; i++) {
		const ts_cmp_kernel *kn = &r->k[s][i];
		size_t len;
		const char *nm = ts_cmp_kernel_name(c, s, kn, &len);
		ts_jw_obj(w);
		ts_jw_kstrn(w, "name", nm, len);
		ts_jw_kstr(w, "short", kn->row == UINT32_MAX || !shorts
			   ? kn->cls->short_name : shorts[kn->row]);
		ts_jw_kstr(w, "category", ts_kclass_category(c->patterns, kn->cls));
		ts_jw_kuint(w, "count", kn->count);
		ts_jw_kus(w, "total_us", kn->ns);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	const ts_attrib *at = c->r[s]->attrib;
	ts_jw_key(w, side_key(k, sizeof k, s, "op"));
	if (r->op[s] >= 0 && at) {
		char lab[300];
		ts_aview_op_label(at, (size_t)r->op[s], lab, sizeof lab);
		ts_jw_str(w, lab);
	} else {
		ts_jw_null(w);
	}
	ts_jw_kstrn(w, side_key(k, sizeof k, s, "callsite"), r->callsite[s], r->callsite_len[s]);
}

static void put_cmp_op(ts_jw *w, const ts_compare *c, const ts_cmp_op *r,
		       char (*shorts[2])[TS_SHORT_MAX + 1])
{
	char k[32];
	ts_jw_nl(w, 4);
	ts_jw_obj(w);
	ts_jw_kstr(w, "op", r->name);
	ts_jw_kuint(w, "a_count", r->count[0]);
	ts_jw_kuint(w, "b_count", r->count[1]);
	for (int s = 0; s < 2; s++) {
		ts_jw_key(w, side_key(k, sizeof k, s, "per_layer"));
		if (r->per_layer[s] >= 0)
			ts_jw_num(w, "%.4f", r->per_layer[s]);
		else
			ts_jw_null(w);
	}
	for (int s = 0; s < 2; s++) {
		ts_jw_key(w, side_key(k, sizeof k, s, "avg_us"));
		if (r->count[s])
			ts_jw_us_f(w, (double)r->ns[s] / (double)r->count[s]);
		else
			ts_jw_null(w);
	}
	ts_jw_kus(w, "a_total_us", r->ns[0]);
	ts_jw_kus(w, "b_total_us", r->ns[1]);
	put_ratio(w, "ratio", r->ratio);
	ts_jw_kus_f(w, "gap_us", r->gap);
	ts_jw_kstr(w, "status", ts_cmp_status_name(r->status));
	ts_jw_key(w, "fused");
	if (r->fusion >= 0) {
		const ts_fusion *f = ts_patterns_fusion(c->patterns, (size_t)r->fusion);
		ts_jw_obj(w);
		ts_jw_kstr(w, "fusion", f->name);
		ts_jw_kstr(w, "side", r->fused_side ? "b" : "a");
		ts_jw_kstr(w, "description", f->description);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	/* a split group's rest with kernels on both sides: different work */
	ts_jw_kbool(w, "unpaired", r->unpaired);
	for (int s = 0; s < 2; s++)
		put_cmp_kernel_list(w, c, r, s, shorts[s]);
	ts_jw_end_obj(w);
}

static void put_cmp_ops(ts_jw *w, const ts_compare *c)
{
	char (*shorts[2])[TS_SHORT_MAX + 1];
	for (int s = 0; s < 2; s++)
		shorts[s] = ts_kview_short_names(c->r[s]->agg);
	ts_jw_member(w, 2, "ops");
	ts_jw_arr(w);
	for (size_t i = 0; i < c->nops; i++)
		put_cmp_op(w, c, &c->ops[i], shorts);
	ts_jw_end_rows(w, c->nops, 2);
	free(shorts[0]);
	free(shorts[1]);
}

/* Collectives per kind on both sides (comm.h). */
static void put_cmp_comm(ts_jw *w, const ts_compare *c)
{
	ts_jw_member(w, 2, "collectives");
	ts_jw_arr(w);
	size_t n = 0;
	for (int k = 0; k < TS_COMM_KINDS; k++) {
		const ts_comm_total *t = c->comm[k];
		if (!t[0].calls && !t[1].calls)
			continue;
		ts_jw_nl(w, 4);
		ts_jw_obj(w);
		ts_jw_kstr(w, "kind", ts_comm_kind_name((ts_comm_kind)k));
		char key[32];
		for (int s = 0; s < 2; s++) {
			ts_jw_kuint(w, side_key(key, sizeof key, s, "calls"), t[s].calls);
			ts_jw_kus(w, side_key(key, sizeof key, s, "total_us"), t[s].ns);
			ts_jw_kint(w, side_key(key, sizeof key, s, "bytes"), t[s].bytes);
			ts_jw_key(w, side_key(key, sizeof key, s, "busbw_gbps"));
			if (t[s].busbw >= 0)
				ts_jw_num(w, "%.2f", t[s].busbw);
			else
				ts_jw_null(w);
		}
		ts_jw_end_obj(w);
		n++;
	}
	ts_jw_end_rows(w, n, 2);
}

static void put_cmp_layers(ts_jw *w, const ts_compare *c)
{
	char k[32];
	ts_jw_member(w, 2, "layer_counts");
	ts_jw_arr(w);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		uint32_t na = c->layer_count[st][0], nb = c->layer_count[st][1];
		if (!na && !nb)
			continue;
		ts_jw_obj(w);
		ts_jw_kstr(w, "stage", ts_pstage_name((ts_pstage)st));
		ts_jw_kuint(w, "a", na);
		ts_jw_kuint(w, "b", nb);
		ts_jw_kuint(w, "matched", na < nb ? na : nb);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_member(w, 2, "layers");
	ts_jw_arr(w);
	for (size_t i = 0; i < c->nlayers; i++) {
		const ts_cmp_layer *L = &c->layers_rows[i];
		ts_jw_nl(w, 4);
		ts_jw_obj(w);
		ts_jw_kstr(w, "stage", ts_pstage_name(L->stage));
		ts_jw_kuint(w, "layer", L->layer);
		for (int s = 0; s < 2; s++) {
			ts_jw_key(w, side_key(k, sizeof k, s, "us"));
			if (L->has[s])
				ts_jw_us_f(w, L->mean[s]);
			else
				ts_jw_null(w);
			ts_jw_key(w, side_key(k, sizeof k, s, "p50_us"));
			if (L->has[s])
				ts_jw_us(w, L->p50[s]);
			else
				ts_jw_null(w);
			ts_jw_key(w, side_key(k, sizeof k, s, "kernels"));
			if (L->has[s])
				ts_jw_num(w, "%.2f", L->kernels[s]);
			else
				ts_jw_null(w);
		}
		put_ratio(w, "ratio", L->ratio);
		ts_jw_key(w, "gap_us");
		if (L->has[0] && L->has[1])
			ts_jw_us_f(w, L->gap);
		else
			ts_jw_null(w);
		ts_jw_kstr(w, "status", L->has[0] && L->has[1] ? ts_cmp_status_name(L->status)
			   : L->has[0] ? "a_only" : "b_only");
		ts_jw_end_obj(w);
	}
	ts_jw_end_rows(w, c->nlayers, 2);
}

static void put_pair_side(ts_jw *w, const ts_compare *c, const ts_layer_sample *smp,
			  uint32_t k0, uint32_t n, int s)
{
	ts_jw_arr(w);
	for (uint32_t k = 0; k < n; k++) {
		const ts_debug_kernel *d = &smp->k[k0 + k];
		size_t len;
		const char *nm = ts_kview_row_name(c->r[s]->agg,
						    d->row == TS_INTERN_NONE ? TS_ROW_OTHER : d->row, &len);
		ts_jw_obj(w);
		ts_jw_kstrn(w, "name", nm, len);
		ts_jw_kstr(w, "short", d->cls.short_name);
		ts_jw_kstr(w, "category", ts_kclass_category(c->patterns, &d->cls));
		ts_jw_kus_f(w, "avg_us", (double)d->dur / (double)(smp->instances ? smp->instances : 1));
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
}

static void put_cmp_align(ts_jw *w, const ts_compare *c)
{
	ts_jw_member(w, 2, "alignment");
	ts_jw_arr(w);
	size_t listed = 0;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		const ts_cmp_align *al = &c->align[st];
		if (!al->pairs)
			continue;
		ts_jw_nl(w, 4);
		ts_jw_obj(w);
		ts_jw_kstr(w, "stage", ts_pstage_name((ts_pstage)st));
		ts_jw_kuint(w, "a_layer", al->s[0]->layer);
		ts_jw_kuint(w, "b_layer", al->s[1]->layer);
		ts_jw_kuint(w, "a_instances", al->s[0]->instances);
		ts_jw_kuint(w, "b_instances", al->s[1]->instances);
		ts_jw_kint(w, "cost", al->cost);
		ts_jw_kbool(w, "truncated", al->truncated);
		ts_jw_key(w, "pairs");
		ts_jw_arr(w);
		for (size_t i = 0; i < al->npairs; i++) {
			const ts_cmp_pair *p = &al->pairs[i];
			ts_jw_nl(w, 6);
			ts_jw_obj(w);
			ts_jw_kstr(w, "kind", ts_pair_kind_name(p->kind));
			ts_jw_kstr(w, "fusion", p->fusion >= 0
				   ? ts_patterns_fusion(c->patterns, (size_t)p->fusion)->name : NULL);
			ts_jw_kus_f(w, "a_us", p->a_ns);
			ts_jw_kus_f(w, "b_us", p->b_ns);
			ts_jw_key(w, "a");
			put_pair_side(w, c, al->s[0], p->a0, p->na, 0);
			ts_jw_key(w, "b");
			put_pair_side(w, c, al->s[1], p->b0, p->nb, 1);
			ts_jw_end_obj(w);
		}
		ts_jw_end_arr(w);
		ts_jw_end_obj(w);
		listed++;
	}
	ts_jw_end_rows(w, listed, 2);
}

/* One side's steps of a stage: the mean step, its parts, per token. */
static void put_latency_side(ts_jw *w, const ts_cmp_latency *l, int s)
{
	const ts_step_split *x = &l->split[s];
	const ts_sview *p = &l->steps[s];
	ts_jw_obj(w);
	ts_jw_kuint(w, "steps", x->steps);
	ts_jw_kstr(w, "step_from", x->from == TS_TOKEN_STEPS ? "steps" : x->from == TS_TOKEN_WINDOW
				   ? "window" : "wall");
	ts_jw_kus_f(w, "step_mean_us", x->step_ns);
	ts_jw_kopt_us(w, "per_output_token_us", p->token_ns > 0, p->token_ns);
	ts_jw_key(w, "tokens_per_s");
	if (p->tokens_per_s > 0)
		ts_jw_num(w, "%.1f", p->tokens_per_s);
	else
		ts_jw_null(w);
	ts_jw_key(w, "by_cause_us");
	ts_jw_obj(w);
	for (int k = 0; k < TS_CAUSE_COUNT; k++)
		ts_jw_kus_f(w, ts_cause_key((ts_cause)k), x->part_ns[k]);
	ts_jw_end_obj(w);
	ts_jw_end_obj(w);
}

/* Both sides' steps replayed (whatif.h), the mean step along what each
 * start waited for: {cause: {a_us, b_us, gap_us}}; null where a side has
 * no replayed step. */
static void put_replayed(ts_jw *w, const ts_cmp_latency *l)
{
	ts_jw_key(w, "replayed_by_cause_us");
	if (!l->wi[0] || !l->wi[1]) {
		ts_jw_null(w);
		return;
	}
	ts_jw_obj(w);
	for (int k = 0; k < TS_CP_COUNT; k++) {
		double a = (double)l->wi[0]->cause_ns[k] / l->wi[0]->steps;
		double b = (double)l->wi[1]->cause_ns[k] / l->wi[1]->steps;
		if (a == 0 && b == 0)
			continue;
		ts_jw_key(w, ts_cp_key(k));
		ts_jw_obj(w);
		ts_jw_kus_f(w, "a_us", a);
		ts_jw_kus_f(w, "b_us", b);
		ts_jw_kus_f(w, "gap_us", b - a);
		ts_jw_end_obj(w);
	}
	ts_jw_end_obj(w);
}

/* "latency": per stage both sides have steps of, A and B and the
 * difference of the mean step by cause (docs/compare.md). */
static void put_cmp_latency(ts_jw *w, const ts_compare *c)
{
	ts_jw_member(w, 2, "latency");
	ts_jw_arr(w);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		const ts_cmp_latency *l = &c->latency[st];
		if (!l->has)
			continue;
		ts_jw_nl(w, 4);
		ts_jw_obj(w);
		ts_jw_kstr(w, "stage", ts_pstage_name((ts_pstage)st));
		ts_jw_key(w, "a");
		put_latency_side(w, l, 0);
		ts_jw_key(w, "b");
		put_latency_side(w, l, 1);
		put_ratio(w, "step_ratio", l->ratio);
		ts_jw_kus_f(w, "step_gap_us", l->gap_ns);
		ts_jw_kstr(w, "status", ts_cmp_status_name(l->status));
		put_ratio(w, "per_output_token_ratio", l->token_ratio);
		ts_jw_key(w, "gap_by_cause_us");
		ts_jw_obj(w);
		for (int k = 0; k < TS_CAUSE_COUNT; k++)
			ts_jw_kus_f(w, ts_cause_key((ts_cause)k),
				    l->split[1].part_ns[k] - l->split[0].part_ns[k]);
		ts_jw_end_obj(w);
		put_replayed(w, l);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
}

int ts_report_compare_json(FILE *out, const ts_compare *c, const ts_report_opts *o)
{
	(void)o;
	ts_jw w;
	if (!ts_jw_init(&w, out))
		return -1;
	ts_report_json_head(&w, "compare", c->o.staged, c->o.stage);
	ts_jw_member(&w, 2, "thresholds");
	ts_jw_obj(&w);
	ts_jw_knum(&w, "us", "%g", c->o.threshold_us);
	ts_jw_knum(&w, "pct", "%g", c->o.threshold_pct);
	ts_jw_end_obj(&w);
	ts_jw_member(&w, 2, "per_pass");
	ts_jw_bool(&w, c->per_pass);
	ts_jw_member(&w, 2, "stages_differ");
	ts_jw_bool(&w, c->stages_differ);
	/* fusions not claimed: the other side runs a kernel that may fuse
	 * the parts (its name cannot say) */
	ts_jw_member(&w, 2, "models_differ");
	if (c->models_differ[0])
		ts_jw_str(&w, c->models_differ);
	else
		ts_jw_null(&w);
	ts_jw_member(&w, 2, "fusions_not_claimed");
	ts_jw_uint(&w, c->fusions_unsure);
	ts_jw_member(&w, 2, "first_not_claimed");
	if (c->fusions_unsure) {
		ts_jw_obj(&w);
		ts_jw_kstr(&w, "fusion", ts_patterns_fusion(c->patterns, (size_t)c->unsure_fusion)->name);
		ts_jw_kstr(&w, "side", c->unsure_side ? "b" : "a");
		ts_jw_end_obj(&w);
	} else {
		ts_jw_null(&w);
	}
	put_cmp_side(&w, c, 0);
	put_cmp_side(&w, c, 1);
	put_cmp_latency(&w, c);
	ts_jw_member(&w, 2, "total");
	ts_jw_obj(&w);
	ts_jw_kus(&w, "a_us", c->kernel_ns[0]);
	ts_jw_kus(&w, "b_us", c->kernel_ns[1]);
	put_ratio(&w, "ratio", c->ratio);
	ts_jw_kus_f(&w, "gap_us", c->gap);
	ts_jw_kstr(&w, "status", ts_cmp_status_name(c->status));
	ts_jw_end_obj(&w);
	put_cmp_ops(&w, c);
	put_cmp_comm(&w, c);
	put_cmp_layers(&w, c);
	put_cmp_align(&w, c);
	ts_jw_nl(&w, 0);
	ts_jw_end_obj(&w);
	return ts_jw_finish(&w);
}
