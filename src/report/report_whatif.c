/*
 * report_whatif.c - the replayed steps (views/whatif.h) as JSON and as the
 * text report's section: each stage's mean step by cause, the replay's
 * fidelity, and the projections (the first screen's words: views/
 * brief_pass.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/views/whatif.h"
#include "report/jsonw.h"
#include "report/report.h"

#define MAX_PROJ 8

static const ts_whatif *module_of(const ts_result *res)
{
	return ts_result_module(res, &ts_whatif_module);
}

static bool shown(const ts_report_opts *o, int s)
{
	return !o->filter_stage || (ts_pstage)s == o->stage;
}

static void put_stage(ts_jw *w, const ts_wi_stage *x, int s)
{
	double n = x->steps ? (double)x->steps : 1;
	char why[200];
	const char *no = ts_wi_why_not(x, why, sizeof why);
	ts_jw_nl(w, 4);
	ts_jw_obj(w);
	ts_jw_kstr(w, "stage", ts_pstage_name((ts_pstage)s));
	ts_jw_kuint(w, "steps", x->steps);
	ts_jw_kuint(w, "steps_listed", x->steps_listed);
	ts_jw_kuint(w, "steps_not_kept", x->steps_not_whole);
	ts_jw_kuint(w, "operations", x->ops);
	ts_jw_key(w, "fidelity_pct");
	if (x->ops)
		ts_jw_num(w, "%.2f", 100.0 * ts_wi_fidelity(x));
	else
		ts_jw_null(w);
	ts_jw_key(w, "drift_pct");
	if (x->wall_ns)
		ts_jw_num(w, "%.2f", 100.0 * (double)x->drift_ns / (double)x->wall_ns);
	else
		ts_jw_null(w);
	ts_jw_kus_f(w, "step_mean_us", (double)x->wall_ns / n);
	ts_jw_key(w, "by_cause_us");
	ts_jw_obj(w);
	for (int k = 0; k < TS_CP_COUNT; k++)
		if (x->cause_ns[k] || k >= TS_TYPE_COUNT)
			ts_jw_kus_f(w, ts_cp_key(k), (double)x->cause_ns[k] / n);
	ts_jw_end_obj(w);
	ts_jw_kstr(w, "no_projection", no);
	ts_jw_key(w, "projections");
	ts_jw_arr(w);
	int r[TS_WI_COUNT];
	size_t nr = ts_wi_ranked(x, r, TS_WI_COUNT);
	for (size_t i = 0; i < nr; i++) {
		ts_jw_obj(w);
		char key[64];
		if (r[i] < TS_TYPE_COUNT)
			snprintf(key, sizeof key, "half:%s", ts_ktype_name((ts_ktype)r[i]));
		else if (r[i] < TS_WI_LAUNCH)
			snprintf(key, sizeof key, "ceiling:%s",
				 ts_ktype_name((ts_ktype)(r[i] - TS_WI_CEIL)));
		else
			snprintf(key, sizeof key, "%s", ts_wi_key(r[i]));
		ts_jw_kstr(w, "change", key);
		ts_jw_kus_f(w, "step_us", (double)(x->wall_ns - x->saving_ns[r[i]]) / n);
		ts_jw_kus_f(w, "saving_us", (double)x->saving_ns[r[i]] / n);
		ts_jw_knum(w, "saving_pct", "%.2f", x->wall_ns ? 100.0 * (double)x->saving_ns[r[i]] /
							 (double)x->wall_ns : 0.0);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_end_obj(w);
}

void ts_report_whatif_json(ts_jw *w, const ts_result *res, const ts_report_opts *o)
{
	const ts_whatif *m = module_of(res);
	ts_jw_member(w, 2, "whatif");
	ts_jw_arr(w);
	for (int s = 0; m && s < TS_PSTAGE_COUNT; s++) {
		const ts_wi_stage *x = ts_whatif_stage(m, (ts_pstage)s);
		if (x->steps_listed && shown(o, s))
			put_stage(w, x, s);
	}
	ts_jw_end_arr(w);
}

/* "gemm 2x faster", or the change's words. */
static void change_words(int k, char *buf, size_t n)
{
	if (k < TS_TYPE_COUNT)
		snprintf(buf, n, "%s kernels twice as fast", ts_ktype_name((ts_ktype)k));
	else if (k < TS_WI_LAUNCH)
		snprintf(buf, n, "%s kernels at their roofline ceiling",
			 ts_ktype_name((ts_ktype)(k - TS_WI_CEIL)));
	else
		snprintf(buf, n, "%s", ts_wi_name(k));
}


void ts_report_whatif_text(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	const ts_whatif *m = module_of(res);
	for (int s = 0; m && s < TS_PSTAGE_COUNT; s++) {
		const ts_wi_stage *x = ts_whatif_stage(m, (ts_pstage)s);
		if (!x->steps || !shown(o, s))
			continue;
		double n = (double)x->steps;
		fprintf(out, "\nThe %s step replayed (%" PRIu32 " of %" PRIu32 " steps, %.1f%% of "
			     "%" PRIu64 " operation starts within %.0f us): mean %.3f ms\n",
			ts_pstage_name((ts_pstage)s), x->steps, x->steps_listed,
			100.0 * ts_wi_fidelity(x), x->ops, TS_WI_FIDELITY_NS / 1e3,
			(double)x->wall_ns / n / 1e6);
		fprintf(out, " %-44s %12s %7s\n", "Cause (along what each start waited for)",
			"ms a step", "share");
		for (int k = 0; k < TS_CP_COUNT; k++) {
			if (!x->cause_ns[k])
				continue;
			char what[64];
			snprintf(what, sizeof what, k < TS_TYPE_COUNT ? "%s kernels" : "%s", ts_cp_name(k));
			fprintf(out, " %-44s %12.3f %6.1f%%\n", what, (double)x->cause_ns[k] / n / 1e6,
				100.0 * (double)x->cause_ns[k] / (double)x->wall_ns);
		}
		char why[200];
		const char *no = ts_wi_why_not(x, why, sizeof why);
		if (no) {
			fprintf(out, " no projection: %s\n", no);
			continue;
		}
		int r[MAX_PROJ];
		size_t nr = ts_wi_ranked(x, r, MAX_PROJ);
		fprintf(out, " %-44s %12s %12s\n", "What if (one change replayed)", "ms a step",
			"saves");
		for (size_t i = 0; i < nr; i++) {
			char what[96];
			change_words(r[i], what, sizeof what);
			fprintf(out, " %-44s %12.3f %11.1f%%\n", what,
				(double)(x->wall_ns - x->saving_ns[r[i]]) / n / 1e6,
				100.0 * (double)x->saving_ns[r[i]] / (double)x->wall_ns);
		}
	}
}
