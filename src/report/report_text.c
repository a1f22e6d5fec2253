/*
 * report_text.c - the terminal report: a header with the trace facts, the
 * kernel summary shaped like `nsys stats` cuda_gpu_kern_sum, memory copies
 * and sets by kind, and event counts by category (compare's is
 * report_text_cmp.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/aview.h"
#include "analysis/views/insight.h"
#include "input/base/label.h"
#include "analysis/views/lview.h"
#include "input/base/satmath.h"
#include "report/report.h"
#include "report/report_text_int.h"
#include "report/version.h"

#define MIN_NAME 24

/* A table's columns, for a ts_text_table. */
#define TEXT_COLS(c) .cols = (c), .ncols = sizeof(c) / sizeof *(c)

/* A table of the table view (tview.h) as text, laid out as t says
 * (report_textsink.c). */
static void put_table(const ts_result *res, const ts_report_opts *o, const char *name,
		      ts_text_table t)
{
	ts_table_sink k = ts_text_sink(&t);
	ts_report_table(res, o, name, &k);
}

const char *ts_text_us(char *buf, size_t n, int64_t ns)
{
	ts_fmt_us(buf, n, ns);
	return buf;
}

static void put_header(FILE *out, const ts_result *res, const ts_report_opts *o,
		       const ts_lview *lv, const ts_kview *v, const ts_breakdown *b)
{
	const ts_agg *a = res->agg;
	const ts_meta *m = &res->meta;
	char b1[48], b2[48], b3[48];
	fputs("Trace\n", out);
	ts_text_bytes(b1, sizeof b1, (double)res->json_bytes);
	fprintf(out, "  input     %s of JSON", b1);
	if (res->gzip) {
		ts_text_bytes(b2, sizeof b2, (double)res->input_bytes);
		fprintf(out, " (%s gzip)", b2);
	}
	fprintf(out, ", %" PRIu64 " events\n", a->events);

	const ts_devprop *d = ts_report_devprop(res);
	fprintf(out, "  platform  %s (from %s)", ts_platform_name(res->platform),
		res->platform_source);
	char job[512];
	if (ts_job_gpus(o->ranks, job, sizeof job) > 0) {
		fprintf(out, "; GPUs %s", job);
		d = NULL;
	}
	if (d) {
		fprintf(out, "; GPU %s", (d->has & TS_DEV_HAS_NAME) && d->name[0] ? d->name : "(unnamed)");
		if (d->has & TS_DEV_HAS_SMS)
			fprintf(out, ", %" PRId64 " %s", d->sm_count,
				res->platform == TS_PLATFORM_AMD ? "CUs" : "SMs");
		if (d->has & TS_DEV_HAS_MEM)
			fprintf(out, ", %.1f GiB", (double)d->memory_bytes / (1024.0 * 1024 * 1024));
	}
	if ((m->has & TS_META_HAS_WORLD) && (m->has & TS_META_HAS_RANK) && !(o->ranks && o->ranks->n > 1))
		fprintf(out, "; rank %" PRId64 " of %" PRId64, m->rank, m->world_size);
	fputc('\n', out);

	fprintf(out, "  kernels   %" PRIu64 " launches, %" PRIu32 " distinct; kernel time %s us\n",
		a->kernels, ts_intern_count(a->names), ts_text_us(b1, sizeof b1, a->all.total));
	const ts_model *mo = &res->model;
	if (mo->family) {
		fprintf(out, "  model     %s (%s, score %ld:", mo->family->name, mo->source, mo->score);
		for (int i = 0; i < mo->nevidence; i++) {
			char desc[300];
			ts_selector_describe(res->patterns, mo->evidence[i], desc, sizeof desc);
			fprintf(out, "%s %s %+ld", i ? "," : "", desc, mo->evidence[i]->weight);
		}
		fputs(")\n", out);
		if (mo->described[0])
			fprintf(out, "  ran       %s\n", mo->described);
	} else if (res->patterns && mo->unlike) {
		fprintf(out, "  model     %s (family %s's detect rules match, score %ld, but %s)\n",
			mo->described[0] ? mo->described : "unknown", mo->unlike->name,
			mo->unlike_score, mo->unlike_why);
	} else if (res->patterns && mo->tie) {
		fprintf(out, "  model     %s (a tie: families %s and %s score %ld each, so neither is "
			     "named; --model NAME chooses)\n", mo->described[0] ? mo->described : "unknown",
			mo->tie->name, mo->runner_up ? mo->runner_up->name : "?", mo->score);
	} else if (res->patterns) {
		fprintf(out, "  model     %s (no family's detect rules match; --model NAME forces one)\n",
			mo->described[0] ? mo->described : "unknown");
	}
	if (res->patterns) {
		fprintf(out, "  classified %.1f%% of %skernel time has a known type",
			v->all->total ? 100.0 * (double)b->classified_ns / (double)v->all->total : 0.0,
			v->staged ? "the stage's " : "");
		if (b->words_ns)
			fprintf(out, " (%.1f%% only by the words of names no rule knows: "
				"tracestream patterns explain NAME)",
				v->all->total ? 100.0 * (double)b->words_ns / (double)v->all->total : 0.0);
		fputc('\n', out);
	}
	ts_busy_summary bs;
	ts_insight_busy(res, &bs);
	int64_t busy = bs.busy_ns;
	int64_t kspan = a->has_kspan ? a->k_last - a->k_first : 0;
	if (o->ranks && o->ranks->n > 1)
		/* each rank's times are on its own clock: a span across ranks
		 * means nothing; RANKS gives each rank's busy time */
		fprintf(out, "  GPU busy  %s us summed over %zu ranks (each rank's span is on its own "
			     "clock: see RANKS)\n", ts_text_us(b1, sizeof b1, busy), o->ranks->n);
	else if (a->ndev > 1)
		/* busy is each device's own: summed over several it is no share
		 * of one span */
		fprintf(out, "  GPU busy  %s us summed over %d GPUs (%.1f%% of %d x the kernel span %s "
			     "us; trace span %s us)\n",
			ts_text_us(b1, sizeof b1, busy), a->ndev,
			kspan ? 100.0 * (double)busy / ((double)kspan * a->ndev) : 0.0, a->ndev,
			ts_text_us(b2, sizeof b2, kspan),
			ts_text_us(b3, sizeof b3, a->has_span ? a->last_end - a->first_ts : 0));
	else
		fprintf(out, "  GPU busy  %s us (%.1f%% of the kernel span %s us; trace span %s us)\n",
			ts_text_us(b1, sizeof b1, busy), kspan ? 100.0 * (double)busy / (double)kspan : 0.0,
			ts_text_us(b2, sizeof b2, kspan),
			ts_text_us(b3, sizeof b3, a->has_span ? a->last_end - a->first_ts : 0));
	if (res->layers && lv->npasses) {
		const ts_idle_pass *ip = &bs.in_passes;
		fprintf(out, "  in passes %s us busy (%.1f%% of their span %s us); %" PRIu64
			     " kernels (%s us) outside any pass\n",
			ts_text_us(b1, sizeof b1, ip->busy_ns),
			ip->span_ns ? 100.0 * (double)ip->busy_ns / (double)ip->span_ns : 0.0,
			ts_text_us(b2, sizeof b2, ip->span_ns), bs.outside_kernels,
			ts_text_us(b3, sizeof b3, bs.outside_ns));
	}
}

static void put_kernels(FILE *out, const ts_result *res, const ts_kview *v,
			const ts_report_opts *o)
{
	const ts_agg *a = res->agg;
	int64_t all = v->all->total;
	size_t n;
	uint32_t *order = ts_kview_kernel_order(v, &n);
	char (*shorts)[TS_SHORT_MAX + 1] = ts_kview_short_names(a);
	size_t shown = o->top > 0 && (size_t)o->top < n ? (size_t)o->top : n;
	fprintf(out, "\nKernel summary (%zu of %zu kernel names, by total time%s%s)\n", shown, n,
		v->staged ? "; stage " : "", v->staged ? ts_pstage_name(v->stage) : "");
	/* the kernels table (tview.h), its first rows */
	bool full = o->full_names || !shorts;
	const ts_text_col cols[] = {
		{ .col = "pct", .title = "Time %", .width = 6, .decimals = 1 },
		{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
		{ .col = "count", .title = "Instances", .width = 9, .decimals = -1 },
		{ .col = "avg_us", .title = "Avg (us)", .width = 11, .decimals = 3 },
		{ .col = "p50_us", .title = "Med (us)", .width = 11, .decimals = -1 },
		{ .col = "min_us", .title = "Min (us)", .width = 11, .decimals = -1 },
		{ .col = "max_us", .title = "Max (us)", .width = 11, .decimals = -1 },
		{ .col = "stddev_us", .title = "StdDev (us)", .width = 11, .decimals = 3 },
		{ .col = "category", .title = "Category", .width = -24, .decimals = -1, .gap = 2 },
		{ .col = full ? "name" : "short", .title = "Name", .width = 0, .decimals = -1,
		  .place = TS_TEXT_NAME, .gap = 1 },
	};
	/* the name takes what the columns before it leave of the width */
	int lead = ts_text_lead_width(cols, sizeof cols / sizeof *cols), name_w = 0;
	if (o->width > 0)
		name_w = o->width - lead > MIN_NAME ? o->width - lead : MIN_NAME;
	put_table(res, o, "kernels", (ts_text_table){ .out = out, TEXT_COLS(cols),
			    .max_rows = shown, .name_width = full ? name_w : 0 });
	int64_t rest = 0;
	for (size_t i = shown; i < n; i++)
		rest = ts_sat_add(rest, ts_kview_row(v, order[i])->total);
	if (shown < n)
		fprintf(out, "  ... %zu more kernel names, %.1f%% of kernel time (--top 0 lists all)\n",
			n - shown, all ? 100.0 * (double)rest / (double)all : 0.0);
	/* where a few slow calls make the mean: say so, the median is the
	 * typical call */
	size_t noisy = 0;
	for (size_t i = 0; i < shown; i++) {
		const ts_stat *s = ts_kview_row(v, order[i]);
		if (order[i] == TS_ROW_OTHER || !ts_stat_noisy(s))
			continue;
		if (!noisy++)
			fputs("  noisy (the mean is over twice the median: a few slow calls make most of "
			      "the time; the median is the typical call):\n", out);
		if (noisy > 5)
			continue;
		size_t len;
		const char *name = shorts ? shorts[order[i]] : ts_kview_row_name(a, order[i], &len);
		fprintf(out, "    %s: median %.1f us, mean %.1f us, max %.1f us over %" PRIu64 " calls\n",
			name, (double)ts_stat_quantile(s, 0.5) / 1e3,
			(double)s->total / (double)s->count / 1e3, (double)s->max / 1e3, s->count);
	}
	if (noisy > 5)
		fprintf(out, "    ... and %zu more\n", noisy - 5);
	free(order);
	free(shorts);
}

/* The types and categories tables (tview.h). */
static void put_breakdown(FILE *out, const ts_result *res, const ts_kview *v,
			  const ts_report_opts *o)
{
	static const ts_text_col types[] = {
		{ .col = "type", .title = "Type", .width = -26, .decimals = -1 },
		{ .col = NULL, .title = "", .width = -14, .decimals = -1 },
		{ .col = "count", .title = "Count", .width = 9, .decimals = -1 },
		{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
		{ .col = "pct", .title = "%", .width = 7, .decimals = 1 },
		{ .col = "cum_pct", .title = "Cum %", .width = 7, .decimals = 1 },
	}, cats[] = {
		{ .col = "category", .title = "Category", .width = -26, .decimals = -1 },
		{ .col = "type", .title = "Type", .width = -14, .decimals = -1 },
		{ .col = "count", .title = "Count", .width = 9, .decimals = -1 },
		{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
		{ .col = "pct", .title = "%", .width = 7, .decimals = 1 },
		{ .col = "cum_pct", .title = "Cum %", .width = 7, .decimals = 1 },
	};
	fprintf(out, "\nTime by type (%s)\n", v->staged ? "kernel time of the stage" : "kernel time and memory operations");
	put_table(res, o, "types", (ts_text_table){ .out = out, TEXT_COLS(types) });
	fputs("\nKernel time by category\n", out);
	put_table(res, o, "categories", (ts_text_table){ .out = out, TEXT_COLS(cats) });
}

/* The unclassified table (tview.h): its first ten rows. */
static void put_unclassified(FILE *out, const ts_result *res, const ts_kview *v,
			     const ts_report_opts *o)
{
	static const ts_text_col cols[] = {
		{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
		{ .col = "count", .title = "Count", .width = 9, .decimals = -1 },
		{ .col = "pct", .title = "%", .width = 6, .decimals = 1 },
		{ .col = "name", .title = "Name", .width = 0, .decimals = -1,
		  .place = TS_TEXT_NAME, .gap = 2 },
	};
	size_t n;
	uint32_t *rows = ts_kview_unclassified(v, &n);
	bool none = !rows || n == 0;
	free(rows);
	if (none) {
		fputs("\nUnclassified kernels: none\n", out);
		return;
	}
	size_t shown = n < 10 ? n : 10;
	fprintf(out, "\nUnclassified kernels (%zu of %zu, by time; add rules to patterns/kernels.yaml)\n",
		shown, n);
	put_table(res, o, "unclassified", (ts_text_table){ .out = out, TEXT_COLS(cols),
			    .max_rows = shown,
			    .name_width = o->width > 0 ? (o->width - 35 > MIN_NAME ? o->width - 35
							 : MIN_NAME) : 0 });
}

/* A stage that ran passes or kernels. */
static bool stage_ran(const ts_text_table *t, const ts_cell *row)
{
	return ts_text_cell(t, row, "passes")->u || ts_text_cell(t, row, "kernels")->u;
}

static const ts_text_col stage_cols[] = {
	{ .col = "stage", .title = "Stage", .width = -8, .decimals = -1 },
	{ .col = "passes", .title = "Passes", .width = 7, .decimals = -1 },
	{ .col = "complete_passes", .title = "Complete", .width = 9, .decimals = -1 },
	{ .col = "layers", .title = "Layers", .width = 7, .decimals = -1 },
	{ .col = "kernels", .title = "Kernels", .width = 9, .decimals = -1 },
	{ .col = "gpu_time_us", .title = "Kernel time (us)", .width = 16, .decimals = -1 },
	{ .col = "share_pct", .title = "Share", .width = 7, .decimals = 1, .suffix = "%" },
};

/* "yes", "draft" (a speculative draft model's forward), or where the
 * pass was cut. */
static void fmt_complete(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *c = ts_text_cell(t, row, "cut");
	snprintf(buf, n, "%s", c->kind == TS_CELL_STR
			       ? (c->len == 5 && !memcmp(c->s, "start", 5) ? "no (start)" : "no (end)")
			       : ts_text_cell(t, row, "draft")->u ? "draft" : "yes");
}

/* The step annotation, at most 60 bytes of it. */
static void fmt_annotation(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *c = ts_text_cell(t, row, "annotation");
	if (c->kind == TS_CELL_STR)
		snprintf(buf, n, "%.*s", (int)(c->len < 60 ? c->len : 60), c->s);
	else
		snprintf(buf, n, "-");
}

static void fmt_evidence(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *c = ts_text_cell(t, row, "evidence");
	if (c->kind == TS_CELL_STR && c->len)
		snprintf(buf, n, "%.*s", (int)c->len, c->s);
	else
		snprintf(buf, n, "no evidence");
}

static const ts_text_col pass_cols[] = {
	{ .col = "index", .title = "Pass", .width = 5, .decimals = -1 },
	{ .col = "stage", .title = "Stage", .width = -8, .decimals = -1 },
	{ .col = "confidence", .title = "Conf", .width = 5, .decimals = 2 },
	{ .col = "cut", .title = "Complete", .width = -9, .decimals = -1,
	  .fmt = fmt_complete },
	{ .col = "layers", .title = "Layers", .width = 6, .decimals = -1 },
	{ .col = "kernels", .title = "Kernels", .width = 8, .decimals = -1 },
	{ .col = "gpu_time_us", .title = "Kernel time (us)", .width = 16, .decimals = -1 },
	{ .col = "batch", .title = "Batch", .width = 6, .decimals = -1 },
	{ .col = "tokens", .title = "Tokens", .width = 7, .decimals = -1 },
	{ .col = "annotation", .title = "Annotation", .width = -28, .decimals = -1,
	  .gap = 2, .fmt = fmt_annotation },
	{ .col = "evidence", .title = "Evidence", .width = 0, .decimals = -1,
	  .fmt = fmt_evidence },
};

static void put_passes(FILE *out, const ts_result *res, const ts_lview *lv, const ts_kview *v,
		       const ts_report_opts *o)
{
	size_t n = lv->npasses;
	if (n == 0) {
		fprintf(out, "\nForward passes: none: %s\n", lv->note);
		return;
	}
	if (lv->has_note)
		fprintf(out, "\nNo complete forward pass: %s\n", lv->note);
	/* every timed kernel is in one stage: its pass's, or unknown */
	fputs("\nStages\n", out);
	put_table(res, o, "stages", (ts_text_table){ .out = out, TEXT_COLS(stage_cols),
						     .keep = stage_ran });
	int64_t all = res->agg->all.total;
	char b[32];
	const ts_stat *uall = lv->stage[TS_PSTAGE_UNKNOWN].all;
	fprintf(out, " %" PRIu32 " layers per complete pass; %" PRIu64 " kernels (%s us) outside any layer;"
		     " stage unknown for %.1f%% of kernel time\n",
		lv->per_pass, lv->orphans, ts_text_us(b, sizeof b, lv->orphan_ns),
		all ? 100.0 * (double)uall->total / (double)all : 0.0);
	if (lv->expected > 0)
		fprintf(out, " expected %ld layers per pass: %s\n", lv->expected, lv->expected_from);
	else
		fprintf(out, " no expected layer count: %s\n", lv->expected_from);
	size_t listed = 0;
	for (size_t i = 0; i < n; i++)
		listed += !v->staged || lv->passes[i].p->stage == v->stage;
	size_t shown = listed < 20 ? listed : 20;
	fprintf(out, "\nForward passes (%zu of %zu%s%s)\n", shown, listed,
		v->staged ? ", stage " : "", v->staged ? ts_pstage_name(v->stage) : "");
	put_table(res, o, "passes", (ts_text_table){ .out = out, TEXT_COLS(pass_cols),
						     .max_rows = shown });
}

/* The typical layer of each stage, kernel by kernel in order (anatomy.h):
 * the rows add up to the mean layer time. */
static void put_layer_anatomy(FILE *out, const ts_result *res, const ts_lview *lv,
			      const ts_kview *v, const ts_report_opts *o)
{
	bool any = lv->anatomy != NULL;
	char (*shorts)[TS_SHORT_MAX + 1] = any ? ts_kview_short_names(res->agg) : NULL;
	for (int s = 0; any && shorts && s < TS_PSTAGE_COUNT; s++) {
		const ts_lview_anat *an = &lv->stage[s].anat;
		uint64_t nl = an->layers;
		if ((v->staged && (ts_pstage)s != v->stage) || !nl)
			continue;
		const ts_anat_sum *tot = an->total;
		double L = (double)nl;
		char m[32], p[32];
		fprintf(out, "\nTypical %s layer (mean over %" PRIu64 " layers of %" PRIu32
			     " complete passes): kernel time %s us, p50 %s us, %.1f kernels",
			ts_pstage_name((ts_pstage)s), nl, an->passes,
			ts_text_us(m, sizeof m, (int64_t)((double)tot->ns / L)),
			ts_text_us(p, sizeof p, ts_stat_quantile(an->layer_time, 0.5)),
			(double)tot->count / L);
		const ts_stat *wall = an->layer_wall;
		if (wall->count)
			fprintf(out, "; wall %s us, p50 %s us",
				ts_text_us(m, sizeof m, wall->total / (int64_t)wall->count),
				ts_text_us(p, sizeof p, ts_stat_quantile(wall, 0.5)));
		fputc('\n', out);
		fprintf(out, " %-13s %10s %10s %6s %8s %8s %7s\n", "Type", "Mean (us)", "p50 (us)",
			"Share", "TFLOP/s", "TB/s", "% peak");
		for (int t = 0; t < TS_TYPE_COUNT; t++) {
			const ts_anat_type *ty = an->type[t];
			if (!ty->sum.count)
				continue;
			ts_roofline r;
			ts_roofline_sum(res, &ty->sum, &r);
			char tf[16] = "-", tb[16] = "-", pk[16] = "-";
			if (r.has_flops)
				snprintf(tf, sizeof tf, "%.1f", r.tflops);
			if (r.has_bytes)
				snprintf(tb, sizeof tb, "%.2f", r.tbps);
			if (r.pct_of_peak >= 0)
				snprintf(pk, sizeof pk, "%.1f", r.pct_of_peak);
			else if (r.exceeds_peak)
				snprintf(pk, sizeof pk, "beyond");
			fprintf(out, " %-13s %10.3f %10s %5.1f%% %8s %8s %7s\n",
				ts_ktype_name((ts_ktype)t), (double)ty->sum.ns / L / 1000.0,
				ts_text_us(p, sizeof p, ts_stat_quantile(&ty->per_layer, 0.5)),
				100.0 * (double)ty->sum.ns / (double)tot->ns, tf, tb, pk);
		}
		fprintf(out, " %4s %10s %6s %6s  %-24s %s\n", "Pos", "Mean (us)", "Share", "Calls",
			"Category", "Kernel");
		int w = o->width > 0 ? o->width - 57 : 0;
		if (w > 0 && w < 20)
			w = 20;
		for (size_t i = 0; i < an->nrows; i++) {
			const ts_anat_row *r = an->rows[i].r;
			uint32_t call = an->rows[i].call, kr = an->rows[i].kernel;
			const ts_kclass *c = ts_kview_row_class(res->agg, kr);
			fprintf(out, " %4" PRIu32 " %10.3f %5.1f%% %6.2f  %-24.24s ", r->pos,
				(double)r->sum.ns / L / 1000.0, 100.0 * (double)r->sum.ns / (double)tot->ns,
				(double)r->sum.count / L, c ? ts_kclass_category(res->patterns, c) : "Other");
			const char *nm = shorts[kr];
			size_t len = strlen(nm);
			if (o->full_names)
				nm = ts_kview_row_name(res->agg, kr, &len);
			ts_text_name(out, nm, len, w);
			if (call)      /* its call after the first in the layer */
				fprintf(out, " #%" PRIu32, call + 1);
			fputc('\n', out);
		}
		/* the first 8 of those off the typical one */
		const ts_layer_outlier *lo = lv->stage[s].outliers;
		size_t no = lv->stage[s].noutliers < 8 ? lv->stage[s].noutliers : 8;
		if (no) {
			fprintf(out, " Layers off the typical one (median of the per-index means, %s us) by more than %.0f%%:",
				ts_text_us(m, sizeof m, lv->stage[s].typical_ns), TS_OUTLIER_PCT);
			for (size_t i = 0; i < no; i++)
				fprintf(out, "%s layer %" PRIu32 " %.2fx (%s)", i ? "," : "", lo[i].index,
					lo[i].ratio, ts_ltype_name(res->patterns, lo[i].type));
			fputc('\n', out);
		}
	}
	free(shorts);
}

/* The heading of one stage's layer table: how many passes it is over. */
static void layer_heading(void *ctx, FILE *out, const char *stage)
{
	const ts_lview *lv = ctx;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++)
		if (strcmp(stage, ts_pstage_name((ts_pstage)s)) == 0)
			fprintf(out, "\nLayers, %s (per layer index, across %" PRIu32 " complete passes)\n",
				stage, lv->stage[s].total.complete_passes);
}

/* The layers table (tview.h), a section per stage. */
static void put_layer_table(FILE *out, const ts_result *res, const ts_lview *lv,
			    const ts_report_opts *o)
{
	static const ts_text_col cols[] = {
		{ .col = "layer", .title = "Layer", .width = 5, .decimals = -1 },
		{ .col = "type", .title = "Type", .width = -10, .decimals = -1 },
		{ .col = "kernels", .title = "Kernels", .width = 8, .decimals = 1 },
		{ .col = "mean_us", .title = "Mean (us)", .width = 12, .decimals = 3 },
		{ .col = "p50_us", .title = "p50 (us)", .width = 12, .decimals = -1 },
		{ .col = "p90_us", .title = "p90 (us)", .width = 12, .decimals = -1 },
		{ .col = "pass_pct", .title = "% pass", .width = 7, .decimals = 1, .suffix = "%" },
	};
	put_table(res, o, "layers", (ts_text_table){ .out = out, TEXT_COLS(cols),
			    .group = "stage", .heading = layer_heading, .ctx = (void *)lv });
}

static void put_debug_layers(FILE *out, const ts_result *res, const ts_lview *lv)
{
	const ts_debug_kernel *k = lv->debug.k;
	size_t n = lv->debug.n;
	if (!lv->debug.listed) {
		fputs("\nKernels of the requested layers\n", out);
		if (lv->debug.want_pass >= 0)
			fprintf(out, " none: the trace has no pass %ld\n", lv->debug.want_pass);
		else
			fprintf(out, " none: no complete%s%s pass\n", lv->debug.want_stage >= 0 ? " " : "",
				lv->debug.want_stage >= 0 ? ts_pstage_name((ts_pstage)lv->debug.want_stage) : "");
		return;
	}
	fprintf(out, "\nKernels of the requested layers (pass %" PRIu32 ", %s%s)\n", lv->debug.index,
		ts_pstage_name(lv->debug.stage), lv->debug.complete ? "" : ", partial");
	if (n == 0) {
		fputs(" none: that pass has none of those layers\n", out);
		return;
	}
	fprintf(out, " %5s %14s %11s  %-14s %-26s %s\n", "Layer", "Start (us)", "Dur (us)",
		"Type", "Category", "Name");
	for (size_t i = 0; i < n; i++) {
		char t[32], d[32];
		fprintf(out, " %5" PRIu32 " %14s %11s  %-14s %-26s %s\n", k[i].layer,
			ts_text_us(t, sizeof t, k[i].ts - k[0].ts), ts_text_us(d, sizeof d, k[i].dur),
			ts_ktype_name(k[i].cls.type), ts_kclass_category(res->patterns, &k[i].cls),
			k[i].cls.short_name);
	}
}

static void put_buckets(FILE *out, const ts_aview_totals *tot)
{
	const ts_callsite_totals *cs = &tot->cs;
	int64_t all = tot->all_ns;
	fputs("\nAttribution (kernel time by what launched it)\n", out);
	for (int b = 0; b < tot->nbuckets; b++) {
		static const char *const what[TS_ATTR_COUNT] = {
			"linked to a CPU op (External id)",
			"replayed from a CUDA/HIP graph, no op",
			"a runtime launch, no op",
			"linked to nothing",
			"replayed from a graph, its op from the capture (--capture)",
		};
		char us_buf[32];
		fprintf(out, " %-9s %6.1f%% %9" PRIu64 " kernels %15s us  %s\n",
			ts_attr_bucket_name((ts_attr_bucket)b),
			all ? 100.0 * (double)tot->t.ns[b] / (double)all : 0.0, tot->t.kernels[b],
			ts_text_us(us_buf, sizeof us_buf, tot->t.ns[b]), what[b]);
	}
	if (cs->frames)
		fprintf(out, " python    %" PRIu64 " frames, %" PRIu64 " indexed as call sites; %"
			     PRIu64 " of %" PRIu64 " CPU calls looked up have one\n",
			cs->frames, cs->kept, cs->found, cs->lookups);
	else
		fputs(" python    no python_function events (capture with with_stack=True for call sites)\n",
		      out);
}

/* --capture: what each kind of replay took, or why it took nothing. */
/* The captured graph a kind of replay took (its file, annotation, how it
 * fit), or why none. */
static void fmt_taken(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *idx = ts_text_cell(t, row, "graph_index");
	if (idx->kind == TS_CELL_NULL) {
		const ts_cell *r = ts_text_cell(t, row, "reason");
		snprintf(buf, n, "none: %.*s", r->kind == TS_CELL_STR ? (int)r->len : 0,
			 r->kind == TS_CELL_STR ? r->s : "");
		return;
	}
	const ts_cell *f = ts_text_cell(t, row, "graph_file"), *an = ts_text_cell(t, row, "graph_annotation");
	char file[256] = "?";
	if (f->kind == TS_CELL_STR)
		snprintf(file, sizeof file, "%.*s", (int)f->len, f->s);
	size_t k = (size_t)snprintf(buf, n, "graph %" PRIu64 " of %s", idx->u,
				    f->kind == TS_CELL_STR ? ts_path_label(file, true) : "?");
	if (an->kind == TS_CELL_STR && k < n)
		k += (size_t)snprintf(buf + k, n - k, " (%.*s)", (int)(an->len < 60 ? an->len : 60), an->s);
	uint64_t copies = ts_text_cell(t, row, "graph_copies")->u, fits = ts_text_cell(t, row, "fits")->u;
	if (copies > 1 && k < n)
		k += (size_t)snprintf(buf + k, n - k, ", captured %" PRIu64 " times alike", copies);
	if (fits > 1 && k < n)
		k += (size_t)snprintf(buf + k, n - k, ", one of %" PRIu64 " that fit alike", fits);
	if (ts_text_cell(t, row, "reordered")->u && k < n)
		k += (size_t)snprintf(buf + k, n - k, ", its kernels in another order (paired by name and grid)");
	const ts_cell *sz = ts_text_cell(t, row, "size"), *ms = ts_text_cell(t, row, "matched_size");
	int64_t size = sz->kind == TS_CELL_INT ? sz->i : -1, msize = ms->kind == TS_CELL_INT ? ms->i : -1;
	if (msize > size && size >= 0 && k < n)
		snprintf(buf + k, n - k, ", padded up to the captured size %lld", (long long)msize);
	else if (msize != size && msize >= 0 && k < n)
		snprintf(buf + k, n - k, ", the captured size below, %lld", (long long)msize);
}

static const ts_text_col replay_cols[] = {
	{ .col = "replays", .title = "Replays", .width = 7, .decimals = -1 },
	{ .col = "kernels", .title = "Kernels", .width = 7, .decimals = -1 },
	{ .col = "size", .title = "Size", .width = 8, .decimals = -1 },
	{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
	{ .col = "graph_index", .title = "Captured graph taken, or why none", .width = 0,
	  .decimals = -1, .gap = 2, .fmt = fmt_taken },
};

static void put_replays(FILE *out, const ts_result *res, const ts_aview_replays *rp,
			const ts_report_opts *o)
{
	const ts_replay_totals *t = rp->t;
	const ts_capture_totals *ct = rp->ct;
	int64_t all = res->agg->all.total;
	char a[32], b[32];
	fprintf(out, "\nGraph replays (--capture: %" PRIu64 " graph%s captured in %u file%s, %zu distinct,"
		     " %zu kernel nodes)\n", ct->graphs, ct->graphs == 1 ? "" : "s", ct->files, ct->files == 1 ? "" : "s",
		rp->ngraphs, rp->nnodes);
	fprintf(out, " %" PRIu64 " replays: %" PRIu64 " matched a captured graph (%" PRIu64
		     " kernels, %s us, %.1f%% of kernel time), %" PRIu64 " matched none (%s us)\n",
		t->replays, t->matched, t->kernels_matched, ts_text_us(a, sizeof a, t->ns_matched),
		all ? 100.0 * (double)t->ns_matched / (double)all : 0.0, t->refused,
		ts_text_us(b, sizeof b, t->ns - t->ns_matched));
	size_t n = rp->nrows;
	if (!n)
		return;
	size_t shown = o->top > 0 && (size_t)o->top < n ? (size_t)o->top : n;
	put_table(res, o, "replays", (ts_text_table){ .out = out, TEXT_COLS(replay_cols),
						      .max_rows = shown });
	if (shown < n)
		fprintf(out, " (%zu more kinds: --top)\n", n - shown);
}

/* An op's name, "[graph] " or "[launch] " before a graph or kernel launch
 * that reached no op. */
static void fmt_op(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *via = ts_text_cell(t, row, "via"), *op = ts_text_cell(t, row, "op");
	const char *pre = "";
	if (via->kind == TS_CELL_STR && via->len == 5 && memcmp(via->s, "graph", 5) == 0)
		pre = "[graph] ";
	else if (via->kind == TS_CELL_STR && via->len == 6 && memcmp(via->s, "launch", 6) == 0)
		pre = "[launch] ";
	snprintf(buf, n, "%s%.*s", pre, (int)op->len, op->s ? op->s : "");
}

/* " a, b; 3 memcpy/memset, 1.2 us": its kernels' categories and its
 * memory operations. */
static void fmt_op_cats(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *c = ts_text_cell(t, row, "categories");
	const ts_cell *m = ts_text_cell(t, row, "memops");
	bool cats = c->kind == TS_CELL_STR && c->len > 0;
	int k = cats ? snprintf(buf, n, " %.*s", (int)c->len, c->s) : 0;
	if (m->kind == TS_CELL_UINT && m->u && k >= 0 && (size_t)k < n) {
		char us[32];
		snprintf(buf + k, n - (size_t)k, "%s%" PRIu64 " memcpy/memset, %s us",
			 cats ? "; " : " ", m->u,
			 ts_text_us(us, sizeof us, ts_text_cell(t, row, "memops_us")->i));
	}
}

/* "at file.py:12 fn [graph]": where the op was called from (the first
 * 160 bytes), [graph] where its kernels came from graph replays. */
static void fmt_op_site(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *site = ts_text_cell(t, row, "callsite");
	bool graph = ts_text_cell(t, row, "graph")->u != 0;
	if (site->kind == TS_CELL_STR)
		snprintf(buf, n, "at %.*s%s", (int)(site->len < 160 ? site->len : 160), site->s,
			 graph ? " [graph]" : "");
	else if (graph && ts_text_cell(t, row, "graph_op_kernels")->u > 0)
		snprintf(buf, n, "at [graph]");
}

static const ts_text_col op_cols[] = {
	{ .col = "calls", .title = "Calls", .width = 6, .decimals = -1 },
	{ .col = "kernels", .title = "Kern.", .width = 6, .decimals = -1 },
	{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
	{ .col = "pct", .title = "%", .width = 7, .decimals = 1 },
	{ .col = "cum_pct", .title = "Cum %", .width = 7, .decimals = 1 },
	{ .col = "op", .title = "Op", .width = -40, .decimals = -1, .gap = 2,
	  .fmt = fmt_op },
	{ .col = "categories", .title = " Kernel categories", .width = 0, .decimals = -1, .gap = -1,
	  .fmt = fmt_op_cats },
	{ .col = "callsite", .width = 46, .decimals = -1, .fmt = fmt_op_site,
	  .place = TS_TEXT_BELOW },
};

static void put_ops(FILE *out, const ts_result *res, const ts_aview *av, const ts_kview *v,
		    const ts_report_opts *o)
{
	size_t n = av->nops;
	if (n == 0)
		return;
	size_t shown = o->top > 0 && (size_t)o->top < n ? (size_t)o->top : n;
	fprintf(out, "\nCPU ops (%zu of %zu, by the time of their kernels and memcpy / memset%s)\n",
		shown, n, v->staged ? "; kernels that reached no op are not staged" : "");
	put_table(res, o, "ops", (ts_text_table){ .out = out, TEXT_COLS(op_cols),
						  .max_rows = shown });
}

/* Achieved rates of the workloads whose rules give FLOPs or bytes, against
 * the GPU's peaks. */
/* The roofline's rows: of the first n workloads, those with a cost rule
 * (FLOPs or bytes) that ran. */
typedef struct {
	size_t n, seen;
} roof_seen;

static bool roof_row(const ts_text_table *t, const ts_cell *row)
{
	roof_seen *rs = t->ctx;
	return rs->seen++ < rs->n && ts_text_cell(t, row, "rated_calls")->u > 0;
}

/* Its share of the peak, "beyond" a peak, or none. */
static void fmt_peak(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *p = ts_text_cell(t, row, "pct_of_peak");
	if (p->kind == TS_CELL_NUM)
		snprintf(buf, n, "%.1f", p->d);
	else
		snprintf(buf, n, "%s", ts_text_cell(t, row, "over_peak_tflops")->kind == TS_CELL_NUM ||
				       ts_text_cell(t, row, "over_peak_tbps")->kind == TS_CELL_NUM
				       ? "beyond" : "-");
}

static const ts_text_col roof_cols[] = {
	{ .col = "name", .title = "Definition", .width = -44, .decimals = -1 },
	{ .col = "dtype", .title = "dtype", .width = -10, .decimals = -1 },
	{ .col = "tflops", .title = "TFLOP/s", .width = 9, .decimals = 1 },
	{ .col = "tbps", .title = "TB/s", .width = 8, .decimals = 2 },
	{ .col = "intensity_flop_per_byte", .title = "FLOP/B", .width = 8, .decimals = 1 },
	{ .col = "pct_of_peak", .title = "% peak", .width = 7, .decimals = -1,
	  .fmt = fmt_peak },
	{ .col = "bound", .title = "Bound", .width = 0, .decimals = -1 },
};

static void put_roofline(FILE *out, const ts_result *res, const ts_report_opts *o,
			 const ts_aview_wl *wls, size_t n)
{
	size_t with = 0;
	for (size_t i = 0; i < n; i++)
		with += wls[i].r->flops_calls || wls[i].r->bytes_calls;
	if (!with)
		return;
	const ts_gpu *g = res->gpu;
	if (g) {
		fprintf(out, "\nRoofline on %s (%s: %.4g TB/s", g->name,
			res->gpu_how && strcmp(res->gpu_how, "--device") == 0 ? "--device" : "peaks",
			g->hbm_tbps);
		for (int c = 0; c < TS_DT_COUNT; c++)
			if (g->tflops[c] > 0 && (c == TS_DT_BF16 || c == TS_DT_FP8 || c == TS_DT_FP32))
				fprintf(out, ", %s %.5g TFLOP/s", ts_dtclass_name((ts_dtclass)c), g->tflops[c]);
		fprintf(out, "; dense, from %s)\n", g->source);
	} else {
		fputs("\nRoofline: achieved rates only (the GPU is not in the devices: table; name one with --device)\n", out);
	}
	roof_seen rs = { .n = n };
	put_table(res, o, "workloads", (ts_text_table){ .out = out, TEXT_COLS(roof_cols),
			    .keep = roof_row, .ctx = &rs });
	/* the large workloads the roofline cannot place, and why */
	int64_t all = res->agg->all.total;
	for (size_t i = 0; i < n; i++) {
		const ts_wl_row *w = wls[i].r;
		const ts_oprule *rule = wls[i].rule;
		if (w->flops_calls || w->bytes_calls || !all || w->ns < all / 20 ||
		    !rule->description || !*rule->description)
			continue;
		fprintf(out, " not placed: %.*s (%.1f%% of kernel time): %s\n", (int)wls[i].len,
			wls[i].name, 100.0 * (double)w->ns / (double)all, rule->description);
	}
}

/* A workload's definition: its name, per head where the rule counts heads. */
static void fmt_definition(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *name = ts_text_cell(t, row, "name");
	const ts_cell *lo = ts_text_cell(t, row, "heads_min"), *hi = ts_text_cell(t, row, "heads_max");
	int len = name->kind == TS_CELL_STR ? (int)name->len : 0;
	const char *s = len ? name->s : "";
	if (hi->kind == TS_CELL_INT && lo->kind == TS_CELL_INT && hi->i > lo->i)
		snprintf(buf, n, "%.*s per head x%" PRId64 "-%" PRId64, len, s, lo->i, hi->i);
	else if (hi->kind == TS_CELL_INT && hi->i)
		snprintf(buf, n, "%.*s per head x%" PRId64, len, s, hi->i);
	else
		snprintf(buf, n, "%.*s", len, s);
}

/* Tokens min/p50/max, where the calls' shapes give them. */
static void fmt_tokens(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *lo = ts_text_cell(t, row, "tokens_min"), *mid = ts_text_cell(t, row, "tokens_p50"),
		      *hi = ts_text_cell(t, row, "tokens_max");
	if (lo->kind == TS_CELL_INT)
		snprintf(buf, n, "%" PRId64 "/%" PRId64 "/%" PRId64, lo->i, mid->i, hi->i);
	else
		snprintf(buf, n, "-");
}

static const ts_text_col wl_cols[] = {
	{ .col = "kind", .title = "Kind", .width = -18, .decimals = -1 },
	{ .col = "name", .title = "Definition", .width = -44, .decimals = -1,
	  .fmt = fmt_definition },
	{ .col = "dtype", .title = "dtype", .width = -10, .decimals = -1 },
	{ .col = "calls", .title = "Calls", .width = 7, .decimals = -1 },
	{ .col = "tokens_min", .title = "Tokens min/p50/max", .width = 23, .decimals = -1, .fmt = fmt_tokens },
	{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
};

static void put_workloads(FILE *out, const ts_result *res, const ts_aview *av,
			  const ts_kview *v, const ts_report_opts *o)
{
	size_t n = av->nwls;
	if (n == 0) {
		if (o->ops_only && av->tot.t.ops_with_shapes == 0)
			fprintf(out, "\nOperator workloads: none (none of %" PRIu64
				     " indexed CPU ops carries Input Dims; capture with record_shapes=True)\n",
				av->tot.t.ops_indexed);
		else if (o->ops_only)
			fprintf(out, "\nOperator workloads: none (no CPU op that launched a kernel%s matches"
				     " an operator rule; see operators: in the pattern tables)\n",
				v->staged ? " in this stage" : "");
		return;
	}
	size_t shown = o->ops_only || o->top <= 0 || (size_t)o->top >= n ? n : (size_t)o->top;
	fprintf(out, "\nOperator workloads (%zu of %zu definitions, from recorded shapes)\n", shown, n);
	put_table(res, o, "workloads", (ts_text_table){ .out = out, TEXT_COLS(wl_cols),
			     .max_rows = shown });
	put_roofline(out, res, o, av->wls, shown);
}

static void put_coverage(FILE *out, const ts_result *res, const ts_aview_totals *tot,
			 const ts_kview *v)
{
	ts_opcov c[TS_MAX_OPCOV];
	int missing;
	int n = ts_kview_coverage(res, v, c, &missing);
	fputs("\nOPERATOR COVERAGE", out);
	if (n < 0) {
		fputs(": no model family (detected or --model), so nothing to check against\n", out);
		return;
	}
	fprintf(out, " (family %s)\n", res->model.family->name);
	if (n == 0)
		fputs(" the family declares no operators (operators: in its YAML)\n", out);
	for (int i = 0; i < n; i++)
		fprintf(out, " %s %-20s %-8s %8" PRIu64 " calls %4zu definitions\n",
			c[i].calls ? "\u2713" : "\u2717", c[i].kind,
			c[i].required ? "required" : "optional", c[i].calls, c[i].definitions);
	if (missing)
		fprintf(out, " %d required operator%s missing%s\n", missing, missing == 1 ? "" : "s",
			tot->t.ops_with_shapes == 0
			? " (no CPU op carries Input Dims: capture with record_shapes=True)"
			: tot->t.ns[TS_ATTR_GRAPH] > tot->t.ns[TS_ATTR_OP]
			? " (most kernel time is graph replay, which records no ops)" : "");
	else
		fputs(" every required operator is present\n", out);
}

/* The memory table (tview.h), when a copy or set ran. */
static void put_memory(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	static const ts_text_col cols[] = {
		{ .col = "kind", .title = "Kind", .width = -7, .decimals = -1 },
		{ .col = "count", .title = "Count", .width = 9, .decimals = -1 },
		{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
		{ .col = "bytes", .title = "Bytes", .width = 14, .decimals = TS_TEXT_BYTES },
	};
	int any = 0;
	for (int k = 0; k < TS_MEM_COUNT; k++)
		any |= res->agg->mem[k].count != 0;
	if (!any)
		return;
	fputs("\nMemory operations\n", out);
	put_table(res, o, "memory", (ts_text_table){ .out = out, TEXT_COLS(cols) });
}

/* The runtime and driver calls (the api table), as nsys stats'
 * cuda_api_sum; a call that makes the CPU wait for the GPU shows how many
 * of its calls fell inside a pass, and their time there. */
static void fmt_api_sync(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	if (!ts_text_cell(t, row, "sync")->u) {
		snprintf(buf, n, "-");
		return;
	}
	char us[32];
	snprintf(buf, n, "%" PRIu64 ", %s us", ts_text_cell(t, row, "in_passes")->u,
		 ts_text_us(us, sizeof us, ts_text_cell(t, row, "in_passes_us")->i));
}

static void put_api(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	static const ts_text_col cols[] = {
		{ .col = "pct", .title = "Time %", .width = 6, .decimals = 1 },
		{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
		{ .col = "calls", .title = "Calls", .width = 9, .decimals = -1 },
		{ .col = "avg_us", .title = "Avg (us)", .width = 11, .decimals = 3 },
		{ .col = "p50_us", .title = "Med (us)", .width = 11, .decimals = -1 },
		{ .col = "min_us", .title = "Min (us)", .width = 11, .decimals = -1 },
		{ .col = "max_us", .title = "Max (us)", .width = 11, .decimals = -1 },
		{ .col = "in_passes", .title = "Sync in passes", .width = 20, .decimals = -1,
		  .fmt = fmt_api_sync },
		{ .col = "name", .title = "Name", .width = 0, .decimals = -1, .place = TS_TEXT_NAME,
		  .gap = 2 },
	};
	size_t n = ts_tview_api_rows(res);
	if (!n)
		return;
	size_t shown = o->top > 0 && (size_t)o->top < n ? (size_t)o->top : n;
	fprintf(out, "\n%s API (%zu of %zu runtime and driver calls, by total time; sync in "
		"passes: calls that make the CPU wait for the GPU inside a pass, and their time "
		"there)\n", res->platform == TS_PLATFORM_AMD ? "HIP" : "CUDA", shown, n);
	put_table(res, o, "api", (ts_text_table){ .out = out, TEXT_COLS(cols), .max_rows = shown });
}

#define COMM_ROWS_SHOWN 12

/* A collective's message size, as bytes. */
static void fmt_msg(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *c = ts_text_cell(t, row, "msg_bytes");
	if (c->kind == TS_CELL_INT)
		ts_text_bytes(buf, n, (double)c->i);
	else
		snprintf(buf, n, "-");
}

/* The bus bandwidth against the link: a share, or beyond it (no fact). */
static void fmt_link(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *p = ts_text_cell(t, row, "pct_of_link");
	if (p->kind == TS_CELL_NUM)
		snprintf(buf, n, "%.1f%%", p->d);
	else
		snprintf(buf, n, "%s", ts_text_cell(t, row, "busbw_gbps")->kind == TS_CELL_NUM
				       ? "beyond" : "-");
}

/* The rows of the collectives table sized by kind, message and group; the
 * calls past the rows kept (no minimum) are counted in JSON and CSV. */
static bool comm_kept(const ts_text_table *t, const ts_cell *row)
{
	return ts_text_cell(t, row, "min_us")->kind != TS_CELL_NULL;
}

/* Collectives by kind, message and group, with their bandwidth (comm.h):
 * the collectives table (tview.h), its first rows. */
static void put_collectives(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	static const ts_text_col cols[] = {
		{ .col = "kind", .title = "Kind", .width = -15, .decimals = -1 },
		{ .col = "msg_bytes", .title = "Message", .width = 11, .decimals = -1,
		  .fmt = fmt_msg },
		{ .col = "group_size", .title = "Group", .width = 6, .decimals = -1 },
		{ .col = "calls", .title = "Calls", .width = 7, .decimals = -1 },
		{ .col = "total_us", .title = "Total (us)", .width = 14, .decimals = -1 },
		{ .col = "avg_us", .title = "Avg (us)", .width = 11, .decimals = 3 },
		{ .col = "algbw_gbps", .title = "algbw GB/s", .width = 11, .decimals = 2 },
		{ .col = "busbw_gbps", .title = "busbw GB/s", .width = 11, .decimals = 2 },
		{ .col = "pct_of_link", .title = "% of link", .width = 9, .decimals = -1,
		  .gap = 2, .fmt = fmt_link },
	};
	size_t n = ts_tview_collectives_kept(res);
	if (!n)
		return;
	const ts_gpu *g = res->gpu;
	double link = g ? g->link_gbps : 0;
	fprintf(out, "\nCollectives (bus bandwidth by NCCL-tests' factor for the kind and group");
	if (link > 0)
		fprintf(out, "; against %s, %.0f GB/s per GPU and direction, from %s", g->link_fabric,
			link, g->link_source);
	fputs(")\n", out);
	put_table(res, o, "collectives", (ts_text_table){ .out = out, .cols = cols,
			    .ncols = sizeof cols / sizeof *cols - (link > 0 ? 0 : 1),
			    .max_rows = COMM_ROWS_SHOWN, .keep = comm_kept });
	if (n > COMM_ROWS_SHOWN)
		fprintf(out, " ... %zu more rows (--format csv --table collectives lists all)\n",
			n - COMM_ROWS_SHOWN);
	uint64_t unknown = ts_tview_collectives_unknown(res);
	if (unknown)
		fprintf(out, " unknown: %" PRIu64 " call%s of a kernel that runs every collective "
			"(RCCL's generic kernel); no op that launched %s says which\n", unknown,
			unknown == 1 ? "" : "s", unknown == 1 ? "it" : "them");
}

static void put_events(FILE *out, const ts_agg *a)
{
	fputs("\nEvents by category\n", out);
	int col = 0;
	for (int c = 0; c < TS_CAT_COUNT; c++) {
		if (!a->counts[c])
			continue;
		fprintf(out, "%s%s %" PRIu64, col ? "   " : " ", ts_cat_name((ts_cat)c),
			a->counts[c]);
		if (++col == 6) {
			fputc('\n', out);
			col = 0;
		}
	}
	if (col)
		fputc('\n', out);
}

/* The attribution's sections, from its record (aview.h); tracestream
 * ops: the workloads first, then the ops. */
static int put_attribution(FILE *out, const ts_result *res, const ts_kview *v,
			   const ts_report_opts *o)
{
	ts_aview av;
	if (ts_aview_of(res, v, &av) != 0) {
		ts_aview_free(&av);
		return -1;
	}
	if (o->ops_only) {
		put_workloads(out, res, &av, v, o);
		put_ops(out, res, &av, v, o);
	} else {
		if (!v->staged)
			put_buckets(out, &av.tot);
		if (av.rp.present && !v->staged)
			put_replays(out, res, &av.rp, o);
		put_ops(out, res, &av, v, o);
		put_workloads(out, res, &av, v, o);
	}
	if (o->verify_ops)
		put_coverage(out, res, &av.tot, v);
	ts_aview_free(&av);
	return 0;
}

int ts_report_text(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	ts_kview v = ts_report_view(res, o);
	if (o->ops_only) {
		if (res->attrib && put_attribution(out, res, &v, o) != 0)
			return -1;
		return ferror(out) ? -1 : 0;
	}
	ts_breakdown b;
	if (ts_kview_breakdown(res, &v, &b) != 0)
		return -1;
	ts_brief fb;
	ts_brief_opts bo = ts_report_brief_opts(o);
	int rc = ts_brief_build(res, &bo, &v, &b, &fb);
	if (rc == 0)
		rc = ts_report_brief(out, res, o, &fb);
	ts_brief_free(&fb);
	if (rc < 0) {
		ts_breakdown_free(&b);
		return -1;
	}
	if (o->ranks)           /* a job: which rank is slow, right after the summary */
		ts_report_ranks_text(out, o->ranks);
	if (o->brief) {
		ts_breakdown_free(&b);
		return ferror(out) ? -1 : 0;
	}
	ts_lview lv;
	if (ts_lview_of(res, &lv) != 0) {
		ts_lview_free(&lv);
		ts_breakdown_free(&b);
		return -1;
	}
	fputc('\n', out);
	put_header(out, res, o, &lv, &v, &b);
	if (v.staged) {
		char t[32];
		fprintf(out, "  stage     %s only: %" PRIu64 " kernels, %s us, %.1f%% of kernel time\n",
			ts_pstage_name(v.stage), v.all->count, ts_text_us(t, sizeof t, v.all->total),
			res->agg->all.total ? 100.0 * (double)v.all->total / (double)res->agg->all.total : 0.0);
	}
	put_kernels(out, res, &v, o);
	if (res->patterns) {
		put_breakdown(out, res, &v, o);
		put_unclassified(out, res, &v, o);
	}
	if (res->layers) {
		put_passes(out, res, &lv, &v, o);
		ts_report_whatif_text(out, res, o);
		if (o->show_layers) {
			put_layer_anatomy(out, res, &lv, &v, o);
			put_layer_table(out, res, &lv, o);
		}
		if (o->debug_layers)
			put_debug_layers(out, res, &lv);
	}
	if (res->attrib && put_attribution(out, res, &v, o) != 0) {
		ts_lview_free(&lv);
		ts_breakdown_free(&b);
		return -1;
	}
	if (!v.staged) {
		put_memory(out, res, o);
		put_collectives(out, res, o);
	}
	put_api(out, res, o);
	put_events(out, res->agg);
	ts_lview_free(&lv);
	ts_breakdown_free(&b);
	return ferror(out) ? -1 : 0;
}
