/*
 * report_brief.c - the first screen of the text report: what the trace is
 * (and, with --capture, how much graph replay got its ops back), the time
 * per pass by stage with its busy and idle share, the typical layer of
 * each stage taken apart, the top categories and kernels, and the largest
 * opportunities (insight.h). At most TS_BRIEF_LINES lines, none
 * wider than the report width (80 columns when it has none); --brief
 * prints only this.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/insight.h"
#include "analysis/satmath.h"
#include "report/report.h"
#include "report/version.h"

#define MAX_STAGE_ROWS 3       /* stages with passes shown per pass */
#define MAX_ANAT_STAGES 2      /* stages whose typical layer is shown */

typedef struct {
	FILE *out;
	int width;
	int lines;
} screen;

/* One line, cut to the width with "..." when longer. */
static void line(screen *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void line(screen *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	size_t n = strlen(buf);
	if (n > (size_t)s->width && s->width > 3) {
		memcpy(buf + s->width - 3, "...", 4);
	}
	fputs(buf, s->out);
	fputc('\n', s->out);
	s->lines++;
}

/* Text of at most two lines: the second indented by ind, broken at a space. */
static void wrap2(screen *s, const char *head, const char *text, int ind)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s%s", head, text);
	size_t n = strlen(buf), w = (size_t)s->width;
	if (n <= w) {
		line(s, "%s", buf);
		return;
	}
	size_t cut = w;
	while (cut > (size_t)ind + 10 && buf[cut] != ' ')
		cut--;
	if (buf[cut] != ' ')
		cut = w;
	char first[1024];
	memcpy(first, buf, cut);
	first[cut] = '\0';
	line(s, "%s", first);
	const char *rest = buf + cut;
	while (*rest == ' ')
		rest++;
	line(s, "%*s%s", ind, "", rest);
}

static const char *base_name(const char *path)
{
	const char *p = strrchr(path, '/');
	return p && p[1] ? p + 1 : path;
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

static void put_what(screen *s, const ts_result *res)
{
	const ts_devprop *d = ts_report_devprop(res);
	const ts_meta *m = &res->meta;
	char gpu[200] = "";
	size_t k = 0;
	const char *vendor = ts_platform_name(res->platform);
	const char *name = d && (d->has & 2) && d->name[0] ? d->name
			 : res->gpu ? res->gpu->name : "";
	/* "AMD Instinct MI300X", not "AMD AMD Instinct MI300X" */
	if (strncmp(name, vendor, strlen(vendor)) != 0)
		k += (size_t)snprintf(gpu + k, sizeof gpu - k, "%s%s", vendor, name[0] ? " " : "");
	k += (size_t)snprintf(gpu + k, sizeof gpu - k, "%s", name);
	if (d && (d->has & 4) && k < sizeof gpu)
		snprintf(gpu + k, sizeof gpu - k, " (%" PRId64 " %s)", d->sm_count,
			 res->platform == TS_PLATFORM_AMD ? "CUs" : "SMs");
	char rank[48] = "";
	if ((m->has & 3) == 3)
		snprintf(rank, sizeof rank, ", rank %" PRId64 "/%" PRId64, m->rank, m->world_size);
	const char *fam = res->model.family ? res->model.family->name : "unknown";
	line(s, "  %s%s; model %s%s%s", gpu, rank, fam,
	     res->framework ? "; " : "", res->framework ? res->framework : "");
	char kt[32];
	fmt_ms(kt, sizeof kt, (double)res->agg->all.total);
	char passes[160] = "";
	k = 0;
	for (int st = 0; res->layers && st < TS_PSTAGE_COUNT; st++) {
		const ts_stage_total *t = ts_layers_stage(res->layers, (ts_pstage)st);
		if (!t->passes || k >= sizeof passes)
			continue;
		k += (size_t)snprintf(passes + k, sizeof passes - k, "%s%" PRIu32 " %s", k ? ", " : "",
				      t->passes, ts_pstage_name((ts_pstage)st));
	}
	uint32_t per = res->layers ? ts_layers_per_pass(res->layers) : 0;
	char note[300] = "no forward pass";
	bool none = res->layers && ts_layers_note(res->layers, note, sizeof note);
	if (k && none) {   /* passes, none of them complete: say so first */
		line(s, "  %s; partial passes %s; %" PRIu64 " kernels, %s of GPU time", note, passes,
		     res->agg->kernels, kt);
	} else if (k) {
		char lay[48] = "";
		if (per)
			snprintf(lay, sizeof lay, " of %" PRIu32 " layers", per);
		line(s, "  passes %s%s; %" PRIu64 " kernels, %s of GPU time", passes, lay,
		     res->agg->kernels, kt);
	} else {
		line(s, "  %" PRIu64 " kernels, %s of GPU time; %s", res->agg->kernels, kt, note);
	}
}

/* --capture: how much of the graph replay got its ops back. */
static void put_replays(screen *s, const ts_result *res)
{
	if (!res->replay || !res->attrib)
		return;
	const ts_replay_totals *rt = ts_replay_get_totals(res->replay);
	const ts_attrib_totals *t = ts_attrib_get_totals(res->attrib);
	int64_t all = 0;
	for (int b = 0; b < TS_ATTR_COUNT; b++)
		all = ts_sat_add(all, t->ns[b]);
	char none[48] = "";
	if (rt->refused)
		snprintf(none, sizeof none, " (%" PRIu64 " none)", rt->refused);
	line(s, "  --capture: %" PRIu64 " of %" PRIu64 " graph replays matched%s; ops for %.1f%% of GPU time",
	     rt->matched, rt->replays, none,
	     all ? 100.0 * (double)t->ns[TS_ATTR_GRAPH_OP] / (double)all : 0.0);
}

static void put_pass_times(screen *s, const ts_result *res)
{
	if (!res->layers)
		return;
	int shown = 0;
	for (int st = 0; st < TS_PSTAGE_COUNT && shown < MAX_STAGE_ROWS; st++) {
		const ts_stage_total *t = ts_layers_stage(res->layers, (ts_pstage)st);
		if (!t->passes)
			continue;
		if (!shown++)
			line(s, "Per pass     GPU time   busy  idle    gaps  largest gap");
		const ts_idle_pass *d = &t->idle;
		char gt[32], lg[32] = "-";
		fmt_ms(gt, sizeof gt, (double)t->gpu_ns / t->passes);
		if (d->gaps)
			fmt_ms(lg, sizeof lg, (double)d->largest_ns);
		const ts_kclass *c = d->gaps && d->largest_before != TS_INTERN_NONE
				   ? ts_kview_row_class(res->agg, d->largest_before) : NULL;
		double span = (double)d->span_ns;
		line(s, " %-9s %11s %5.1f%% %4.1f%% %7.0f  %s%s%s", ts_pstage_name((ts_pstage)st), gt,
		     span > 0 ? 100.0 * (double)d->busy_ns / span : 0.0,
		     span > 0 ? 100.0 * (double)d->idle_ns / span : 0.0,
		     (double)d->gaps / t->passes, lg, c ? " before " : "", c ? c->short_name : "");
	}
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

static void put_anatomy(screen *s, const ts_result *res)
{
	const ts_anatomy *a = res->layers ? ts_layers_anatomy(res->layers) : NULL;
	int shown = 0;
	for (int st = 0; a && st < TS_PSTAGE_COUNT && shown < MAX_ANAT_STAGES; st++) {
		uint64_t nl = ts_anatomy_layers(a, st);
		if (!nl)
			continue;
		shown++;
		const ts_anat_sum *tot = ts_anatomy_total(a, st);
		char mean[32], p50[32];
		fmt_ms(mean, sizeof mean, (double)tot->ns / (double)nl);
		fmt_ms(p50, sizeof p50, (double)ts_stat_quantile(ts_anatomy_layer_time(a, st), 0.5));
		ts_roofline r;
		ts_insight_roofline(res, tot, &r);
		char rate[64] = "";
		if (r.has_flops)
			snprintf(rate, sizeof rate, ", %.0f TFLOP/s", r.tflops);
		line(s, "Typical %s layer %s (p50 %s), %.0f kernels%s", ts_pstage_name((ts_pstage)st),
		     mean, p50, (double)tot->count / (double)nl, rate);
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
}

static void put_categories(screen *s, const ts_result *res, const ts_breakdown *b)
{
	if (!res->patterns)
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

static void put_top_kernels(screen *s, const ts_result *res, const ts_kview *v)
{
	size_t n;
	uint32_t *order = ts_kview_kernel_order(v, &n);
	char (*shorts)[TS_SHORT_MAX + 1] = ts_report_short_names(res->agg);
	if (!order || !shorts) {
		free(order);
		free(shorts);
		return;
	}
	if (n)
		line(s, "Top kernels     GPU time  calls  category");
	for (size_t i = 0; i < n && i < 3; i++) {
		const ts_stat *st = ts_kview_row(v, order[i]);
		const ts_kclass *c = order[i] == TS_ROW_OTHER ? NULL
				   : ts_kview_row_class(res->agg, order[i]);
		char t[32];
		fmt_ms(t, sizeof t, (double)st->total);
		const char *name = order[i] == TS_ROW_OTHER ? "(other)" : shorts[order[i]];
		line(s, " %5.1f%% %11s %6" PRIu64 "  %-16.16s %s",
		     v->all->total ? 100.0 * (double)st->total / (double)v->all->total : 0.0,
		     t, st->count, c ? ts_kclass_category(res->patterns, c) : "", name);
	}
	free(order);
	free(shorts);
}

static void put_opportunities(screen *s, const ts_result *res)
{
	ts_opportunity op[3];
	size_t n = ts_insight_opportunities(res, op, 3);
	if (!n)
		return;
	line(s, "Largest opportunities (GPU time at stake)");
	for (size_t i = 0; i < n; i++) {
		char head[64], t[32];
		fmt_ms(t, sizeof t, (double)op[i].at_stake_ns);
		bool any_pass = res->layers && ts_layers_npasses(res->layers) > 0;
		if (op[i].kind == TS_OPP_OUTSIDE || !any_pass)
			snprintf(head, sizeof head, " %zu. %s  ", i + 1, t);
		else
			snprintf(head, sizeof head, " %zu. %s  %s: ", i + 1, t,
				 ts_pstage_name((ts_pstage)op[i].stage));
		wrap2(s, head, op[i].text, 6);
	}
}

int ts_report_brief(FILE *out, const ts_result *res, const ts_report_opts *o,
		    const ts_kview *v, const ts_breakdown *b)
{
	screen s = { out, o->width > 0 ? o->width : 80, 0 };
	if (s.width < 60)
		s.width = 60;
	line(&s, "tracestream %s: %s", TS_VERSION, base_name(res->path));
	if (res->partial)
		line(&s, "PARTIAL REPORT: %s", res->error);
	put_what(&s, res);
	put_replays(&s, res);
	put_pass_times(&s, res);
	put_anatomy(&s, res);
	put_categories(&s, res, b);
	put_top_kernels(&s, res, v);
	put_opportunities(&s, res);
	return s.lines;
}
