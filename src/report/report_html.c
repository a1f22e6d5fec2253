/*
 * report_html.c - the report as one self-contained web page.
 *
 * No network access at all: the styles and the few lines of script are
 * inline, the charts are SVG drawn here. The first screen of the text
 * report opens the page; then charts, each with a title that says what to
 * see (GPU time by stage, time by category per stage, the layer profile of
 * each stage, the pass timeline with busy and idle time, the top kernels,
 * the roofline of the workloads when the GPU's peaks are known), then the
 * tables of the table view (tview.h), sortable by clicking a header (the
 * page reads the same without script). Colours are the Okabe-Ito palette, which
 * colour-blind readers can tell apart. The page's size depends on the
 * distinct kernels, ops and layers, never on the number of events. A job
 * over several ranks adds a Job section after the first screen (notes,
 * the straggler, the ranks and skew tables with each rank's file): the rank
 * table, skew and straggler as the terminal shows them, and each rank's
 * kernel time (at most RANK_BARS drawn; the ranks table has them all).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/label.h"
#include "analysis/views/aview.h"
#include "analysis/views/lview.h"
#include "analysis/views/memory.h"
#include "report/report.h"
#include "report/version.h"

static const char *const palette[] = {
	"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000",
};
#define NPAL (sizeof palette / sizeof *palette)
#define GREY "#999999"

/* One colour per kernel type, the same in every chart (the Okabe-Ito
 * colours first, then Paul Tol's muted ones; other is grey). */
static const char *const type_colour[TS_TYPE_COUNT] = {
	[TS_TYPE_ATTENTION] = "#0072B2", [TS_TYPE_MOE] = "#E69F00", [TS_TYPE_GEMM] = "#009E73",
	[TS_TYPE_NORM] = "#CC79A7", [TS_TYPE_ACTIVATION] = "#F0E442", [TS_TYPE_ROPE] = "#56B4E9",
	[TS_TYPE_KV_CACHE] = "#D55E00", [TS_TYPE_QUANTIZATION] = "#882255",
	[TS_TYPE_COMMUNICATION] = "#332288", [TS_TYPE_MEMORY] = "#999933",
	[TS_TYPE_ELEMENTWISE] = "#44AA99", [TS_TYPE_REDUCE] = "#AA4499",
	[TS_TYPE_SORT_TOPK] = "#117733", [TS_TYPE_SAMPLING] = "#DDCC77",
	[TS_TYPE_EMBEDDING] = "#88CCEE", [TS_TYPE_OTHER] = GREY,
};

static const char *type_fill(ts_ktype t)
{
	return (unsigned)t < TS_TYPE_COUNT && type_colour[t] ? type_colour[t] : GREY;
}

/* One colour per layer type (ts_ltype): a pair per mixer (MoE, dense),
 * then mixer only, MoE only, dense only; unknown grey. */
static const char *layer_fill(int t)
{
	static const char *const c[TS_LT_UNKNOWN] = {
		"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#882255",
		"#44AA99", "#117733", "#DDCC77", "#88CCEE", "#661100", "#6699CC", "#AA4466",
		"#4477AA", "#CCBB44",
		[TS_LT_ATTN_ONLY] = "#332288", [TS_LT_MOE_ONLY] = "#AA4499", [TS_LT_FC_ONLY] = "#999933",
	};
	return t >= 0 && t < TS_LT_UNKNOWN ? c[t] : GREY;
}

#define RANK_BARS 64

/* ------------------------------------------------------------ escaping */

/* Text for HTML and SVG: & < > " ' escaped, bytes that are not UTF-8 as
 * U+FFFD, control characters as spaces. */
static void esc(FILE *out, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t k = ts_utf8_len(u + i, n - i);
		if (k == 0) {
			fputs("\xef\xbf\xbd", out);
			i++;
			continue;
		}
		if (k == 1) {
			switch (u[i]) {
			case '&': fputs("&amp;", out); break;
			case '<': fputs("&lt;", out); break;
			case '>': fputs("&gt;", out); break;
			case '"': fputs("&quot;", out); break;
			case '\'': fputs("&#39;", out); break;
			default: fputc(u[i] < 0x20 && u[i] != '\n' && u[i] != '\t' ? ' ' : u[i], out);
			}
		} else {
			fwrite(u + i, 1, k, out);
		}
		i += k;
	}
}

static void escs(FILE *out, const char *s)
{
	if (s)
		esc(out, s, strlen(s));
}

/* ------------------------------------------------------------- charts */

#define CW 760                   /* chart width */
#define MAX_PASSES 200           /* passes drawn in the timeline */
#define MAX_ROWS 300             /* rows of a table on the page */
#define LEFT 210                 /* room for labels */
/* the characters of a label that fit left of LEFT at 11px with room for
 * fonts wider than most (7.5px a character): a longer one is cut with
 * "..." rather than past the chart's left edge */
#define LEFT_CHARS ((LEFT - 12) * 2 / 15)
#define ROOF_LABELS 8            /* roofline points named on the chart */

static void chart_open(FILE *out, const char *id, int h, const char *title, const char *what)
{
	fprintf(out, "<figure><figcaption><b>");
	escs(out, title);
	fputs("</b> ", out);
	escs(out, what);
	fprintf(out, "</figcaption>\n<svg id=\"%s\" class=\"chart\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", id, CW, h, CW, h);
	escs(out, title);
	fputs("\">\n", out);
}

static void chart_close(FILE *out)
{
	fputs("</svg></figure>\n", out);
}

/* A chart's legend: a swatch and its name per key, in rows from y. */
typedef struct {
	const char *name;
	const char *fill;
} legend_key;

static void legend(FILE *out, const legend_key *k, size_t n, int y)
{
	fputs("<g class=\"legend\">", out);
	int x = LEFT;
	for (size_t i = 0; i < n; i++) {
		if (x + 100 > CW) {
			x = LEFT;
			y += 16;
		}
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\" "
			     "data-key=\"", x, y, k[i].fill);
		escs(out, k[i].name);
		fprintf(out, "\"/><text x=\"%d\" y=\"%d\" class=\"lab\">", x + 14, y + 9);
		escs(out, k[i].name);
		fputs("</text>", out);
		x += 24 + 7 * (int)strlen(k[i].name);
	}
	fputs("</g>\n", out);
}

/* A label cut to n characters (whole UTF-8 sequences). */
static void label(FILE *out, const char *s, size_t len, size_t n)
{
	size_t i = 0, chars = 0;
	while (i < len && chars < n) {
		size_t k = ts_utf8_len((const unsigned char *)s + i, len - i);
		i += k ? k : 1;
		chars++;
	}
	esc(out, s, i);
	if (i < len)
		fputs("\xe2\x80\xa6", out);
}

/* Horizontal bars: one per item, value in us, labelled. */
typedef struct {
	const char *name;
	size_t len;
	double us;
	const char *color;
	const char *tip;         /* extra tooltip text, or NULL */
} hbar;

static void hbars(FILE *out, const char *id, const char *title, const char *what,
		  const hbar *b, size_t n, const char *cls, const legend_key *keys, size_t nkeys)
{
	double max = 0;
	for (size_t i = 0; i < n; i++)
		if (b[i].us > max)
			max = b[i].us;
	int h = 30 + (int)n * 22 + (nkeys ? 16 * (1 + (int)nkeys / 8) + 8 : 0);
	chart_open(out, id, h, title, what);
	double span = CW - LEFT - 110;
	for (size_t i = 0; i < n; i++) {
		double w = max > 0 ? span * b[i].us / max : 0;
		int y = 10 + (int)i * 22;
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lab\">", LEFT - 6, y + 14);
		label(out, b[i].name, b[i].len, LEFT_CHARS);
		fprintf(out, "</text><rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"16\" "
			     "fill=\"%s\"><title>", cls, LEFT, y + 2, w < 0.5 && b[i].us > 0 ? 0.5 : w,
			b[i].color);
		esc(out, b[i].name, b[i].len);
		fprintf(out, ": %.3f us", b[i].us);
		if (b[i].tip) {
			fputs(", ", out);
			escs(out, b[i].tip);
		}
		fprintf(out, "</title></rect><text x=\"%.1f\" y=\"%d\" class=\"val\">%.1f ms</text>\n",
			LEFT + w + 6, y + 14, b[i].us / 1e3);
	}
	int axis_y = 30 + (int)n * 22 - 4;
	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"axis\">kernel time (ms)</text>\n", LEFT, axis_y);
	if (nkeys)
		legend(out, keys, nkeys, axis_y + 10);
	chart_close(out);
}

/* ------------------------------------------------------------ sections */

static int stage_count(const ts_lview *lv, ts_pstage s, int64_t *ns)
{
	const ts_stat *sall = lv->stage[s].all;
	*ns = sall->total;
	return sall->count > 0;
}

static void chart_stages(FILE *out, const ts_lview *lv)
{
	hbar b[TS_PSTAGE_COUNT];
	size_t n = 0;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		int64_t ns;
		/* a row that would read 0.0 ms is not drawn */
		if (!stage_count(lv, (ts_pstage)s, &ns) || ns < 50000)
			continue;
		const char *name = ts_pstage_name((ts_pstage)s);
		b[n++] = (hbar){ name, strlen(name), (double)ns / 1e3, palette[s % NPAL], NULL };
	}
	hbars(out, "chart-stages", "Kernel time by stage",
	      "Kernel time of the forward passes of each stage; unknown is time outside any pass.",
	      b, n, "bar stage", NULL, 0);
}

/* Device memory over the trace (the allocator's events): the allocated
 * bytes of the GPU with the most events, a point per stretch (its peak),
 * in GiB against ms from its first event. Only where the events exist. */
#define MEM_POINTS 300
static void chart_memory(FILE *out, const ts_result *res)
{
	const ts_memory *m = ts_memory_of(res);
	int64_t t[MEM_POINTS], a[MEM_POINTS];
	size_t n = ts_memory_series(m, t, a, MEM_POINTS);
	if (n < 2)
		return;
	int64_t hi = 1;
	for (size_t i = 0; i < n; i++)
		hi = a[i] > hi ? a[i] : hi;
	double span = (double)(t[n - 1] - t[0]), plot = 160, w = CW - 90;
	int h = 210;
	chart_open(out, "chart-memory", h, "Device memory over the trace",
		   "Allocated bytes on the GPU, each point the peak of its stretch of the trace (the "
		   "allocator's events of profile_memory=True); the axis from 0.");
	double gib = (double)hi / (1 << 30);
	fprintf(out, "<text x=\"56\" y=\"24\" text-anchor=\"end\" class=\"val\">%.2f GiB</text>"
		     "<text x=\"56\" y=\"%d\" text-anchor=\"end\" class=\"val\">0</text>"
		     "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"val\">%.1f ms</text>\n",
		gib, 20 + (int)plot, CW - 20, h - 12, span / 1e6);
	fputs("<polyline class=\"mem\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1.5\" points=\"", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", 60 + (span > 0 ? w * (double)(t[i] - t[0]) / span : 0),
			20 + plot - plot * (double)a[i] / (double)hi);
	fputs("\"/>\n", out);
	chart_close(out);
}

/* Stacked bars: per stage, its time by category (the 7 largest of the
 * trace, then the rest). */
static void chart_categories(FILE *out, const ts_result *res, const ts_lview *lv,
			     const ts_report_opts *o)
{
	ts_report_opts all = *o;
	all.filter_stage = false;
	ts_kview v = ts_report_view(res, &all);
	ts_breakdown b;
	if (ts_kview_breakdown(res, &v, &b) != 0)
		return;
	size_t nc = b.ncats + 1, top[NPAL - 1], ntop;
	size_t *idx = malloc(nc * sizeof *idx);
	if (!idx) {
		ts_breakdown_free(&b);
		return;
	}
	size_t k = ts_sort_buckets(b.cats, nc, idx);
	ntop = k < NPAL - 1 ? k : NPAL - 1;
	memcpy(top, idx, ntop * sizeof *top);
	int nstages = 0;
	int64_t max = 0;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		int64_t ns;
		if (stage_count(lv, (ts_pstage)s, &ns) && ns >= 50000) {
			nstages++;
			if (ns > max)
				max = ns;
		}
	}
	int h = 60 + nstages * 30 + (int)(ntop + 1) * 18;
	chart_open(out, "chart-categories", h, "Time by category per stage",
		   "Each bar is one stage's kernel time split by kernel category: the widest colour "
		   "is where that stage's time goes.");
	double span = CW - LEFT - 20;
	int row = 0;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		int64_t ns;
		if (!stage_count(lv, (ts_pstage)s, &ns) || ns < 50000)
			continue;       /* a bar that would read 0.0 ms, as in the stages chart */
		ts_report_opts so = *o;
		so.filter_stage = true;
		so.stage = (ts_pstage)s;
		ts_kview sv = ts_report_view(res, &so);
		ts_breakdown sb;
		if (ts_kview_breakdown(res, &sv, &sb) != 0)
			continue;
		int y = 10 + row++ * 30;
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lab\">%s</text>\n",
			LEFT - 6, y + 15, ts_pstage_name((ts_pstage)s));
		fprintf(out, "<g class=\"stack\" data-stage=\"%s\">", ts_pstage_name((ts_pstage)s));
		double x = LEFT;
		int64_t rest = sb.total_ns;
		for (size_t c = 0; c <= ntop; c++) {
			int64_t part;
			const char *name;
			if (c < ntop) {
				part = sb.cats[top[c]].total_ns;
				name = ts_breakdown_cat_name(res, top[c]);
				rest -= part;
			} else {
				part = rest;
				name = "other categories";
			}
			double w = max ? span * (double)part / (double)max : 0;
			if (part <= 0)
				continue;
			fprintf(out, "<rect class=\"seg\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"20\" "
				     "fill=\"%s\"><title>%s: ", x, y, w, c < ntop ? palette[c] : GREY,
				ts_pstage_name((ts_pstage)s));
			escs(out, name);
			fprintf(out, " %.3f ms (%.1f%%)</title></rect>", (double)part / 1e6,
				sb.total_ns ? 100.0 * (double)part / (double)sb.total_ns : 0.0);
			x += w;
		}
		fputs("</g>\n", out);
		ts_breakdown_free(&sb);
	}
	int ly = 20 + row * 30;
	fputs("<g class=\"legend\">", out);
	for (size_t c = 0; c <= ntop; c++) {
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" data-key=\"",
			LEFT, ly + (int)c * 18, c < ntop ? palette[c] : GREY);
		escs(out, c < ntop ? ts_breakdown_cat_name(res, top[c]) : "other categories");
		fprintf(out, "\"/><text x=\"%d\" y=\"%d\" class=\"lab\">", LEFT + 18, ly + (int)c * 18 + 11);
		escs(out, c < ntop ? ts_breakdown_cat_name(res, top[c]) : "other categories");
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
	chart_close(out);
	free(idx);
	ts_breakdown_free(&b);
}

/* Per stage: one bar per layer index, its mean time over the passes,
 * coloured by the layer's type (attention + MLP, attention only, ...). */
static void chart_layers(FILE *out, const ts_lview *lv)
{
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_layer_stat *index = lv->stage[s].index;
		uint32_t n = lv->stage[s].nindex, shown = 0;
		double max = 0;
		for (uint32_t i = 0; i < n; i++) {
			const ts_layer_stat *st = &index[i];
			if (!st->time.count)
				continue;
			shown = i + 1;
			double m = (double)st->time.total / (double)st->time.count;
			if (m > max)
				max = m;
		}
		if (!shown)
			continue;
		char id[64], title[96];
		snprintf(id, sizeof id, "chart-layers-%s", ts_pstage_name((ts_pstage)s));
		snprintf(title, sizeof title, "Layer profile, %s", ts_pstage_name((ts_pstage)s));
		int h = 230;
		chart_open(out, id, h, title,
			   "One bar per layer index: its mean kernel time over the passes. A bar that "
			   "stands out is a slow layer (or a layer of another kind, by its colour).");
		double step = (double)(CW - 70) / shown, bw = step > 3 ? step - 2 : step;
		bool type_seen[TS_LT_COUNT] = { false };
		for (uint32_t i = 0; i < shown; i++) {
			const ts_layer_stat *st = &index[i];
			double m = st->time.count ? (double)st->time.total / (double)st->time.count : 0;
			int bt = TS_LT_UNKNOWN;
			for (int t = 0; t < TS_LT_COUNT; t++)
				if (st->type_count[t] > st->type_count[bt])
					bt = t;
			type_seen[bt] = true;
			double bh = max > 0 ? 170.0 * m / max : 0;
			fprintf(out, "<rect class=\"bar layer\" data-layer=\"%" PRIu32 "\" x=\"%.1f\" "
				     "y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>layer %"
				     PRIu32 " (%s): %.3f us mean over %" PRIu64 " passes</title></rect>\n",
				i, 60 + i * step, 190 - bh, bw, bh, layer_fill(bt), i,
				ts_ltype_name(lv->tables, (ts_ltype)bt), m / 1e3, st->time.count);
		}
		fprintf(out, "<line x1=\"58\" y1=\"190\" x2=\"%d\" y2=\"190\" class=\"ax\"/>"
			     "<text x=\"56\" y=\"24\" text-anchor=\"end\" class=\"val\">%.0f us</text>"
			     "<text x=\"60\" y=\"206\" class=\"axis\">layer index 0 .. %" PRIu32
			     " (mean kernel time per layer, us)</text>\n", CW - 10, max / 1e3, shown - 1);
		legend_key keys[TS_LT_COUNT];
		size_t nk = 0;
		for (int t = 0; t < TS_LT_COUNT; t++)
			if (type_seen[t])
				keys[nk++] = (legend_key){ ts_ltype_name(lv->tables, (ts_ltype)t), layer_fill(t) };
		legend(out, keys, nk, 214);
		chart_close(out);
	}
}

/* The passes on a time axis, coloured by stage; each as tall as the
 * busy share of its span, so idle time shows as the empty part. */
static void chart_timeline(FILE *out, const ts_lview *lv)
{
	size_t n = lv->npasses;
	if (!n)
		return;
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		const ts_pass *p = lv->passes[i].p;
		int64_t a = p->idle.span_ns ? p->idle.start_ns : p->first_ts;
		int64_t b = a + (p->idle.span_ns ? p->idle.span_ns : p->last_end - p->first_ts);
		if (a < t0)
			t0 = a;
		if (b > t1)
			t1 = b;
	}
	double range = t1 > t0 ? (double)(t1 - t0) : 1;
	/* at most MAX_PASSES drawn, evenly spread, so the page stays small */
	size_t every = (n + MAX_PASSES - 1) / MAX_PASSES;
	char what[300];
	snprintf(what, sizeof what, "Each forward pass at its place in time, coloured by stage; the "
		 "filled height is the share of its span the GPU was busy, the rest is idle between "
		 "kernels.%s", every > 1 ? " One pass in every few is drawn; the passes table has them all." : "");
	chart_open(out, "chart-timeline", 140, "Pass timeline", what);
	double span = CW - 40;
	bool seen[TS_PSTAGE_COUNT] = { false };
	for (size_t i = 0; i < n; i += every) {
		const ts_pass *p = lv->passes[i].p;
		int64_t a = p->idle.span_ns ? p->idle.start_ns : p->first_ts;
		int64_t len = p->idle.span_ns ? p->idle.span_ns : p->last_end - p->first_ts;
		double x = 20 + span * (double)(a - t0) / range, w = span * (double)len / range;
		double busy = p->idle.span_ns ? (double)p->idle.busy_ns / (double)p->idle.span_ns : 1;
		const char *col = palette[p->stage % NPAL];
		seen[p->stage < TS_PSTAGE_COUNT ? p->stage : TS_PSTAGE_UNKNOWN] = true;
		fprintf(out, "<g class=\"pass\" data-stage=\"%s\"><rect x=\"%.2f\" y=\"20\" width=\"%.2f\" "
			     "height=\"70\" fill=\"none\" stroke=\"%s\"/><rect x=\"%.2f\" y=\"%.2f\" "
			     "width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>pass %" PRIu32 " (%s): span "
			     "%.3f ms, busy %.1f%%, %" PRIu64 " gaps, %" PRIu32 " layers</title></rect></g>\n",
			ts_pstage_name(p->stage), x, w < 1 ? 1 : w, col, x, 90 - 70 * busy, w < 1 ? 1 : w,
			70 * busy, col, p->index, ts_pstage_name(p->stage), (double)len / 1e6, 100 * busy,
			p->idle.gaps, p->layers);
	}
	fprintf(out, "<text x=\"20\" y=\"108\" class=\"axis\">time from the first pass (ms): 0 .. %.3f</text>\n",
		range / 1e6);
	legend_key keys[TS_PSTAGE_COUNT];
	size_t nk = 0;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++)
		if (seen[st])
			keys[nk++] = (legend_key){ ts_pstage_name((ts_pstage)st), palette[st % NPAL] };
	legend(out, keys, nk, 118);
	chart_close(out);
}

static void chart_kernels(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	ts_kview v = ts_report_view(res, o);
	size_t n;
	uint32_t *order = ts_kview_kernel_order(&v, &n);
	char (*shorts)[TS_SHORT_MAX + 1] = ts_kview_short_names(res->agg);
	hbar b[15];
	bool seen[TS_TYPE_COUNT] = { false };
	size_t k = 0;
	for (size_t i = 0; order && i < n && k < 15; i++) {
		const ts_stat *s = ts_kview_row(&v, order[i]);
		const ts_kclass *c = ts_kview_row_class(res->agg, order[i]);
		const char *name = order[i] == TS_ROW_OTHER || !shorts ? c->short_name : shorts[order[i]];
		b[k++] = (hbar){ name, strlen(name), (double)s->total / 1e3, type_fill(c->type),
				 ts_kclass_category(res->patterns, c) };
		seen[c->type < TS_TYPE_COUNT ? c->type : TS_TYPE_OTHER] = true;
	}
	legend_key keys[TS_TYPE_COUNT];
	size_t nk = 0;
	for (int t = 0; t < TS_TYPE_COUNT; t++)
		if (seen[t])
			keys[nk++] = (legend_key){ ts_ktype_name((ts_ktype)t), type_fill((ts_ktype)t) };
	hbars(out, "chart-kernels", "Top kernels",
	      "The 15 kernels with the most kernel time, coloured by type (hover for the category).",
	      b, k, "bar kernel", keys, nk);
	free(order);
	free(shorts);
}

/* Workloads on the device's roofline: achieved TFLOP/s against FLOPs per
 * byte, log-log, with the memory slope and the compute roof. */
static void chart_roofline(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	const ts_gpu *g = res->gpu;
	if (!res->attrib || !g)
		return;
	ts_kview v = ts_report_view(res, o);
	ts_aview av;
	if (ts_aview_of(res, &v, &av) != 0) {
		ts_aview_free(&av);
		return;
	}
	double peak = g->tflops[TS_DT_BF16] > 0 ? g->tflops[TS_DT_BF16] : g->tflops[TS_DT_FP32];
	size_t pts = 0;
	for (size_t i = 0; i < av.nwls; i++)
		pts += av.wls[i].rf.intensity > 0 && av.wls[i].rf.tflops > 0;
	if (!pts || peak <= 0 || g->hbm_tbps <= 0) {
		ts_aview_free(&av);
		return;
	}
	/* x: 10^-1 .. 10^4 FLOP/B; y: 10^-2 .. the roof */
	const double x0 = -1, x1 = 4, y0 = -2, y1 = ceil(log10(peak)) + 0.2;
	const int W = CW - 80, H = 260;
#define PX(v) (60 + W * (log10(v) - x0) / (x1 - x0))
#define PY(v) (20 + H - H * (log10(v) - y0) / (y1 - y0))
	char title[160];
	snprintf(title, sizeof title, "Roofline on %s", g->name);
	chart_open(out, "chart-roofline", H + 60, title,
		   "Each workload at its arithmetic intensity and achieved TFLOP/s; the lines are "
		   "the device's HBM bandwidth slope and dense BF16 (or FP32) peak. Far below the "
		   "lines is far from what the GPU can do.");
	double ridge = peak / g->hbm_tbps;     /* FLOP/B where the roofs meet */
	double xa = pow(10, x0), xr = ridge < pow(10, x1) ? ridge : pow(10, x1);
	fprintf(out, "<polyline class=\"roof\" fill=\"none\" stroke=\"#555\" stroke-width=\"1.5\" "
		     "points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n", PX(xa),
		PY(fmax(g->hbm_tbps * xa, pow(10, y0))), PX(xr), PY(g->hbm_tbps * xr), PX(pow(10, x1)),
		PY(peak));
	for (int d = (int)x0; d <= (int)x1; d++)
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" class=\"val\" text-anchor=\"middle\">%g</text>",
			PX(pow(10, d)), H + 36, pow(10, d));
	for (int d = (int)y0; d <= (int)floor(y1); d++)
		fprintf(out, "<text x=\"54\" y=\"%.1f\" class=\"val\" text-anchor=\"end\">%g</text>",
			PY(pow(10, d)) + 4, pow(10, d));
	fprintf(out, "\n<text x=\"60\" y=\"%d\" class=\"axis\">FLOPs per byte (log) &#8594; "
		     "achieved TFLOP/s (log, left)</text>\n", H + 54);
	/* the legend: what the colours and sizes say */
	fprintf(out, "<g class=\"legend\"><circle cx=\"%d\" cy=\"12\" r=\"5\" fill=\"%s\"/>"
		     "<text x=\"%d\" y=\"16\" class=\"val\">memory-bound</text>"
		     "<circle cx=\"%d\" cy=\"12\" r=\"5\" fill=\"%s\"/>"
		     "<text x=\"%d\" y=\"16\" class=\"val\">compute-bound</text>"
		     "<text x=\"%d\" y=\"16\" class=\"val\">size: kernel time; labels: the %d "
		     "largest</text></g>\n", 66, palette[1], 76, 176, palette[0], 186, 296, ROOF_LABELS);
	size_t labelled = 0;
	double placed[ROOF_LABELS][2];
	size_t nplaced = 0;
	for (size_t i = 0; i < av.nwls; i++) {
		const ts_wl_row *w = av.wls[i].r;
		const char *name = av.wls[i].name;
		size_t len = av.wls[i].len;
		const ts_roofline rf = av.wls[i].rf;
		if (!(rf.intensity > 0 && rf.tflops > 0))
			continue;
		/* the largest workloads (the order is by time) get their name */
		if (labelled++ < ROOF_LABELS) {
			double lx = PX(fmin(fmax(rf.intensity, pow(10, x0)), pow(10, x1))) + 9;
			double ly = PY(fmin(fmax(rf.tflops, pow(10, y0)), pow(10, y1)));
			/* beside its point, moved down or up where an earlier label
			 * is in the way; left out where all four places are taken */
			static const double dy[] = { -6, 12, -20, 26 };
			for (size_t t = 0; t < 4; t++) {
				bool free_ = true;
				for (size_t q = 0; q < nplaced && free_; q++)
					free_ = fabs(placed[q][1] - (ly + dy[t])) >= 12 ||
						fabs(placed[q][0] - lx) >= 140;
				if (!free_)
					continue;
				if (lx > CW - 150)
					lx = CW - 150;   /* the label stays on the chart */
				placed[nplaced][0] = lx;
				placed[nplaced++][1] = ly + dy[t];
				fprintf(out, "<text class=\"val point-label\" x=\"%.1f\" y=\"%.1f\">",
					lx, ly + dy[t]);
				label(out, name, len, 24);
				fputs("</text>\n", out);
				break;
			}
		}
		double x = fmin(fmax(rf.intensity, pow(10, x0)), pow(10, x1));
		double y = fmin(fmax(rf.tflops, pow(10, y0)), pow(10, y1));
		double r = 3 + fmin(8, log10(1 + (double)w->ns / 1e6) * 2);
		fprintf(out, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" "
			     "fill-opacity=\"0.8\"><title>", PX(x), PY(y), r,
			rf.bound == TS_BOUND_MEMORY ? palette[1] : palette[0]);
		esc(out, name, len);
		fprintf(out, ": %.1f FLOP/B, %.2f TFLOP/s, %.3f TB/s", rf.intensity, rf.tflops, rf.tbps);
		if (rf.pct_of_peak >= 0)
			fprintf(out, ", %.1f%% of the %s peak", rf.pct_of_peak, ts_bound_name(rf.bound));
		fprintf(out, ", %.3f ms</title></circle>\n", (double)w->ns / 1e6);
	}
#undef PX
#undef PY
	chart_close(out);
	ts_aview_free(&av);
}

/* ------------------------------------------------------------- tables */

#define MAX_COLS 64

/* A table on the page: a table that has a kernel's full name and its short
 * one leads with the short name (the full one on hover over it) and keeps
 * the full name as its last column. */
typedef struct {
	FILE *out;
	size_t rows, ncols;
	const char *table;
	size_t order[MAX_COLS];    /* the columns in the order shown */
	long full;                 /* the full name's column, or -1 */
	long brief;                /* the short name's column, or -1 */
} html_tab;

static int h_begin(void *ctx, const char *table, const char *const *cols, size_t n)
{
	html_tab *t = ctx;
	if (n > MAX_COLS)
		n = MAX_COLS;
	t->full = t->brief = -1;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(cols[i], "name") == 0)
			t->full = (long)i;
		else if (strcmp(cols[i], "short") == 0)
			t->brief = (long)i;
	}
	size_t k = 0;
	bool lead = t->full >= 0 && t->brief >= 0;
	if (lead)
		t->order[k++] = (size_t)t->brief;
	for (size_t i = 0; i < n; i++)
		if (!lead || ((long)i != t->full && (long)i != t->brief))
			t->order[k++] = i;
	if (lead)
		t->order[k++] = (size_t)t->full;
	else
		t->full = t->brief = -1;
	fprintf(t->out, "<h3 id=\"t-%s\">%s</h3>\n<div class=\"scroll\"><table class=\"sortable\" "
			"data-table=\"%s\"><thead><tr>", table, table, table);
	for (size_t i = 0; i < n; i++) {
		fputs("<th>", t->out);
		escs(t->out, cols[t->order[i]]);
		fputs("</th>", t->out);
	}
	fputs("</tr></thead><tbody>\n", t->out);
	t->rows = 0;
	t->ncols = n;
	t->table = table;
	return 0;
}

static int h_row(void *ctx, const ts_cell *cells, size_t n)
{
	html_tab *t = ctx;
	char buf[64];
	if (t->rows++ >= MAX_ROWS)
		return 0;                /* counted, not shown: the page stays small */
	fputs("<tr>", t->out);
	if (n > t->ncols)
		n = t->ncols;
	for (size_t j = 0; j < n; j++) {
		size_t i = t->order[j];
		const ts_cell *c = &cells[i];
		switch (c->kind) {
		case TS_CELL_STR:
			if ((long)i == t->brief && cells[t->full].kind == TS_CELL_STR) {
				fputs("<td title=\"", t->out);
				esc(t->out, cells[t->full].s, cells[t->full].len);
				fputs("\">", t->out);
			} else {
				fputs("<td>", t->out);
			}
			esc(t->out, c->s, c->len);
			break;
		case TS_CELL_INT:
			fprintf(t->out, "<td class=\"n\">%" PRId64, c->i);
			break;
		case TS_CELL_UINT:
			fprintf(t->out, "<td class=\"n\">%" PRIu64, c->u);
			break;
		case TS_CELL_US:
			ts_fmt_us(buf, sizeof buf, c->i);
			fprintf(t->out, "<td class=\"n\">%s", buf);
			break;
		case TS_CELL_NUM:
			if (isfinite(c->d))
				fprintf(t->out, "<td class=\"n\">%.*f", c->decimals, c->d);
			else
				fputs("<td>", t->out);
			break;
		case TS_CELL_BOOL:
			fputs(c->u ? "<td>true" : "<td>false", t->out);
			break;
		default:
			fputs("<td>", t->out);
		}
		fputs("</td>", t->out);
	}
	fputs("</tr>\n", t->out);
	return ferror(t->out) ? -1 : 0;
}

static int h_end(void *ctx)
{
	html_tab *t = ctx;
	if (t->rows > MAX_ROWS)
		fprintf(t->out, "<tr class=\"more\"><td colspan=\"%zu\">&#8230; %zu more rows: "
				"<code>--format csv --table %s</code> has them all</td></tr>\n", t->ncols,
			t->rows - MAX_ROWS, t->table);
	fputs("</tbody></table></div>\n", t->out);
	return ferror(t->out) ? -1 : 0;
}

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd}"
	"h3{font-size:15px;margin:20px 0 6px}pre.first{background:#f6f6f6;padding:12px;"
	"overflow-x:auto;font-size:12.5px}figure{margin:18px 0}figcaption{margin-bottom:4px}"
	"svg.chart{width:100%;height:auto;background:#fff}.lab{font-size:11px}"
	".val{font-size:10px;fill:#444}.axis{font-size:11px;fill:#444}.ax{stroke:#888}"
	"div.scroll{max-height:420px;overflow:auto;border:1px solid #ddd}"
	"table{border-collapse:collapse;font-size:12px}th,td{padding:3px 8px;border-bottom:1px solid #eee;"
	"text-align:left;white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"th{position:sticky;top:0;background:#f0f0f0;cursor:pointer}ul.warn li{color:#8a4b00}";

/* Sorting by a click on a header: numbers as numbers, empty cells last. */
static const char script[] =
	"document.querySelectorAll('table.sortable th').forEach(function(th){"
	"th.addEventListener('click',function(){var t=th.closest('table'),b=t.tBodies[0],"
	"i=Array.prototype.indexOf.call(th.parentNode.children,th),d=th.dataset.dir==='a'?'d':'a';"
	"th.dataset.dir=d;var r=Array.prototype.slice.call(b.rows);r.sort(function(x,y){"
	"var p=x.cells[i].textContent,q=y.cells[i].textContent;if(p===''||q==='')return p===''?1:-1;"
	"var m=Number(p),n=Number(q),c=(!isNaN(m)&&!isNaN(n))"
	"?m-n:p.localeCompare(q);return d==='a'?c:-c;});r.forEach(function(e){b.appendChild(e);});});});";

static void page_head(FILE *out, const char *title, const char *h1a, const char *h1b)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\">"
	      "<meta name=\"generator\" content=\"tracestream " TS_VERSION "\"><title>tracestream: ", out);
	escs(out, title);
	fprintf(out, "</title><style>%s</style></head><body>\n<h1>", style);
	escs(out, h1a);
	escs(out, h1b);
	fputs("</h1>\n", out);
}

static void page_foot(FILE *out)
{
	fprintf(out, "<p><small>tracestream %s</small></p>\n<script>%s</script>\n"
		     "</body></html>\n", TS_VERSION, script);
}

static void warnings(FILE *out, const ts_result *res, const char *side)
{
	ts_warns w;
	ts_result_warnings(res, &w);
	for (size_t i = 0; i < w.n; i++) {
		fputs("<li>", out);
		if (side) {
			escs(out, side);
			fputs(": ", out);
		}
		escs(out, w.line[i]);
		fputs("</li>", out);
	}
}

/* Each rank's kernel time, the straggler in another colour. */
static void chart_ranks(FILE *out, const ts_multi *m)
{
	size_t n = m->n < RANK_BARS ? m->n : RANK_BARS;
	hbar *b = calloc(n ? n : 1, sizeof *b);
	char (*names)[32] = calloc(n ? n : 1, sizeof *names);
	char (*tips)[96] = calloc(n ? n : 1, sizeof *tips);
	if (!b || !names || !tips) {
		free(b);
		free(names);
		free(tips);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const ts_rank_summary *r = &m->ranks[i];
		const ts_rank_wait *w = &m->skew->wait[i];
		bool slow = m->skew->straggler >= 0 && (size_t)m->skew->straggler == i;
		snprintf(names[i], sizeof names[i], "rank %" PRId64 "%s", r->rank, slow ? " (straggler)" : "");
		snprintf(tips[i], sizeof tips[i], "collectives %.3f ms, of it waiting %.3f ms",
			 (double)w->comm_ns / 1e6, (double)w->wait_ns / 1e6);
		b[i] = (hbar){ names[i], strlen(names[i]), (double)r->kernel_ns / 1e3,
			       slow ? palette[3] : palette[0], tips[i] };
	}
	char what[160];
	snprintf(what, sizeof what, "Kernel time of each rank%s; hover for its collectives and "
		 "the time it waited in them.", m->n > n ? " (the first 64)" : "");
	legend_key keys[] = { { "rank", palette[0] }, { "straggler", palette[3] } };
	hbars(out, "chart-ranks", "Kernel time by rank", what, b, n, "bar rank", keys, 2);
	free(b);
	free(names);
	free(tips);
}

/* A job: how its ranks were numbered, the notes, the straggler, then the
 * ranks and skew tables (each rank's file in full) and the chart. */
static int job_section(FILE *out, const ts_result *res, const ts_report_opts *o,
		       const ts_table_sink *sink)
{
	const ts_multi *m = o->ranks;
	fprintf(out, "<h2>Job</h2>\n<p>%zu traces, one per rank (ranks %s).</p>\n", m->n,
		ts_report_job_numbering(m));
	char notes[4][160];
	size_t nn = ts_report_job_notes(m, notes, 4);
	if (nn) {
		fputs("<ul class=\"warn\">", out);
		for (size_t i = 0; i < nn; i++) {
			fputs("<li>", out);
			escs(out, notes[i]);
			fputs("</li>", out);
		}
		fputs("</ul>\n", out);
	}
	char st[400];
	ts_report_straggler(m, st, sizeof st);
	fputs("<p><b>Straggler:</b> ", out);
	escs(out, st);
	fputs(".</p>\n", out);
	chart_ranks(out, m);
	static const char *const job_tables[] = { "ranks", "skew" };
	for (size_t i = 0; i < 2; i++)
		if (ts_report_table(res, o, job_tables[i], sink) != 0)
			return -1;
	return 0;
}

static void first_line(void *ctx, const char *line, size_t n)
{
	esc(ctx, line, n);
	fputc('\n', ctx);
}

/* The first screen (views/brief.h) as the terminal shows it on a pipe:
 * laid out with no width, its lines whole (the page wraps). */
static void first_screen(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	ts_report_opts bo = *o;
	bo.width = 0;
	ts_brief_opts fo = ts_report_brief_opts(o);
	ts_brief fb;
	fputs("<pre class=\"first\">", out);
	if (ts_brief_of(res, &fo, &fb) == 0)
		ts_report_brief_lines(res, &bo, &fb, first_line, out);
	ts_brief_free(&fb);
	fputs("</pre>\n", out);
}

int ts_report_html(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	const char *trace = ts_path_label(res->path, false);
	page_head(out, trace, "Where the GPU time went: ", trace);
	if (res->partial) {
		fputs("<p class=\"partial\"><b>Partial report:</b> ", out);
		escs(out, res->err.msg);
		fputs("</p>\n", out);
	}
	first_screen(out, res, o);
	html_tab t = { .out = out };
	ts_table_sink sink = { &t, h_begin, h_row, h_end };
	if (o->ranks && job_section(out, res, o, &sink) != 0)
		return -1;
	fputs("<h2>Charts</h2>\n", out);
	if (res->layers) {
		ts_lview lv;
		if (ts_lview_of(res, &lv) != 0) {
			ts_lview_free(&lv);
			return -1;
		}
		chart_stages(out, &lv);
		chart_categories(out, res, &lv, o);
		chart_layers(out, &lv);
		chart_timeline(out, &lv);
		ts_lview_free(&lv);
	}
	chart_memory(out, res);
	chart_kernels(out, res, o);
	chart_roofline(out, res, o);
	fputs("<h2>Tables</h2>\n<p>Click a column header to sort. Times in microseconds.</p>\n", out);
	for (size_t i = 0; ts_tview_tables[i]; i++)
		if (ts_report_table_applies(res, o, ts_tview_tables[i]) &&
		    !(o->ranks && (strcmp(ts_tview_tables[i], "ranks") == 0 ||
				   strcmp(ts_tview_tables[i], "skew") == 0)) &&
		    ts_report_table(res, o, ts_tview_tables[i], &sink) != 0)
			return -1;
	fputs("<h3 id=\"t-warnings\">warnings</h3>\n<ul class=\"warn\">", out);
	warnings(out, res, NULL);
	fputs("</ul>\n", out);
	page_foot(out);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------ compare */

#define NCMP 15                  /* op groups in the compare charts */

/* The NCMP groups with the largest gaps either way, in compare's order
 * (B's worst first): their indexes in pick; returns how many. */
static size_t pick_ops(const ts_compare *c, size_t *pick)
{
	/* a group is picked when fewer than NCMP groups have a larger gap
	 * (ties: the earlier one is larger) */
	size_t n = 0;
	for (size_t i = 0; i < c->nops && n < NCMP; i++) {
		size_t larger = 0;
		double g = fabs(c->ops[i].gap);
		for (size_t j = 0; j < c->nops && larger < NCMP; j++) {
			double h = fabs(c->ops[j].gap);
			larger += h > g || (h == g && j < i);
		}
		if (larger < NCMP)
			pick[n++] = i;
	}
	return n;
}

/* Per op group, A's and B's compared time side by side. */
static void chart_cmp_ops(FILE *out, const ts_compare *c)
{
	size_t pick[NCMP], n = pick_ops(c, pick);
	double max = 0;
	for (size_t i = 0; i < n; i++)
		for (int s = 0; s < 2; s++)
			if (c->ops[pick[i]].cmp[s] > max)
				max = c->ops[pick[i]].cmp[s];
	int h = 66 + (int)n * 30;
	chart_open(out, "chart-cmp-ops", h, "Operation groups, A and B side by side",
		   c->per_pass ? "The groups with the largest gaps first; time per pass (the pass "
				 "counts differ), A on top, B below."
			       : "The groups with the largest gaps first; A on top, B below.");
	double span = CW - LEFT - 110;
	for (size_t i = 0; i < n; i++) {
		const ts_cmp_op *r = &c->ops[pick[i]];
		int y = 10 + (int)i * 30;
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lab\">", LEFT - 6, y + 15);
		label(out, r->name, strlen(r->name), LEFT_CHARS);
		fputs("</text>", out);
		for (int s = 0; s < 2; s++) {
			double w = max > 0 ? span * r->cmp[s] / max : 0;
			fprintf(out, "<rect class=\"bar cmp-op\" data-side=\"%c\" x=\"%d\" y=\"%d\" "
				     "width=\"%.1f\" height=\"12\" fill=\"%s\"><title>%s: ", s ? 'b' : 'a',
				LEFT, y + 2 + s * 13, w, palette[s], s ? "B" : "A");
			escs(out, c->name[s]);
			fputs(", ", out);
			escs(out, r->name);
			fprintf(out, " %.3f us</title></rect>", r->cmp[s] / 1e3);
		}
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" class=\"val\">%+.1f us</text>\n",
			LEFT + span + 8, y + 15, r->gap / 1e3);
	}
	fputs("<g class=\"legend\">", out);
	for (int s = 0; s < 2; s++) {
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\" data-key=\"%c\"/>"
			     "<text x=\"%d\" y=\"%d\" class=\"lab\">%c: ", LEFT, h - 38 + 18 * s, palette[s],
			s ? 'B' : 'A', LEFT + 14, h - 29 + 18 * s, s ? 'B' : 'A');
		escs(out, c->name[s]);
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
	chart_close(out);
}

/* From A's total to B's: each group's gap as a step up (B slower, red)
 * or down (B faster, blue), the rest in one step. */
static void chart_waterfall(FILE *out, const ts_compare *c)
{
	size_t pick[NCMP], n = pick_ops(c, pick);
	double shown = 0, lo = fmin(c->cmp_total[0], c->cmp_total[1]), hi = fmax(c->cmp_total[0], c->cmp_total[1]);
	double level = c->cmp_total[0];
	for (size_t i = 0; i < n; i++) {
		level += c->ops[pick[i]].gap;
		shown += c->ops[pick[i]].gap;
		lo = fmin(lo, level);
		hi = fmax(hi, level);
	}
	double rest = (c->cmp_total[1] - c->cmp_total[0]) - shown;
	lo = fmin(lo, 0);
	size_t bars = n + 3;
	int h = 320;
	chart_open(out, "chart-waterfall", h, "Gap waterfall",
		   "From A's kernel time (left) to B's (right): each step is one operation group's "
		   "gap, up where B is slower, down where it is faster.");
	double step = (double)(CW - 80) / (double)bars, bw = step * 0.7, plot = 220;
	double scale = hi > lo ? plot / (hi - lo) : 0;
#define WY(v) (20 + plot - ((v) - lo) * scale)
	/* the axis: kernel time in ms, at its ends and at zero */
	fprintf(out, "<g class=\"yaxis\"><line x1=\"56\" y1=\"20\" x2=\"56\" y2=\"%.1f\" class=\"ax\"/>",
		20 + plot);
	double ticks[3] = { lo, hi, 0 };
	for (int t = 0; t < (lo < 0 ? 3 : 2); t++)
		fprintf(out, "<line x1=\"52\" y1=\"%.1f\" x2=\"56\" y2=\"%.1f\" class=\"ax\"/>"
			     "<text x=\"50\" y=\"%.1f\" text-anchor=\"end\" class=\"axis\">%.2f</text>",
			WY(ticks[t]), WY(ticks[t]), WY(ticks[t]) + 4, ticks[t] / 1e6);
	fputs("<text x=\"4\" y=\"12\" class=\"axis\">ms</text></g>\n", out);
	level = c->cmp_total[0];
	for (size_t b = 0; b < bars; b++) {
		double from, to;
		const char *name, *col;
		if (b == 0) {
			from = 0, to = c->cmp_total[0], name = "A", col = palette[0];
		} else if (b == bars - 1) {
			from = 0, to = c->cmp_total[1], name = "B", col = palette[1];
		} else {
			double g = b <= n ? c->ops[pick[b - 1]].gap : rest;
			name = b <= n ? c->ops[pick[b - 1]].name : "other groups";
			from = level;
			to = level + g;
			level = to;
			col = g > 0 ? palette[3] : palette[5];
		}
		double y = WY(fmax(from, to)), hh = fabs(to - from) * scale;
		double x = 60 + b * step;
		fprintf(out, "<rect class=\"bar wf\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			     "fill=\"%s\"><title>", x, y, bw, hh < 0.5 ? 0.5 : hh, col);
		escs(out, name);
		fprintf(out, ": %+.3f us</title></rect>", (to - from) / 1e3);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" class=\"val\" transform=\"rotate(40 %.1f %d)\">",
			x, h - 52, x, h - 52);
		label(out, name, strlen(name), 14);
		fputs("</text>\n", out);
	}
#undef WY
	legend_key keys[] = { { "A", palette[0] }, { "B", palette[1] }, { "B slower", palette[3] },
			      { "B faster", palette[5] } };
	legend(out, keys, 4, h - 14);
	chart_close(out);
}

/* Per stage, per layer index: A's and B's mean layer time. */
static void chart_cmp_layers(FILE *out, const ts_compare *c)
{
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		uint32_t n = 0;
		double max = 0;
		for (size_t i = 0; i < c->nlayers; i++) {
			const ts_cmp_layer *L = &c->layers_rows[i];
			if (L->stage != (ts_pstage)st)
				continue;
			n = L->layer + 1 > n ? L->layer + 1 : n;
			for (int s = 0; s < 2; s++)
				if (L->has[s] && L->mean[s] > max)
					max = L->mean[s];
		}
		if (!n)
			continue;
		char id[64], title[96];
		snprintf(id, sizeof id, "chart-cmp-layers-%s", ts_pstage_name((ts_pstage)st));
		snprintf(title, sizeof title, "Layers, A and B side by side, %s", ts_pstage_name((ts_pstage)st));
		chart_open(out, id, 230, title, "Each layer index's mean kernel time, A (left) and B (right).");
		double step = (double)(CW - 70) / n, bw = step / 2 > 1.5 ? step / 2 - 0.5 : step / 2;
		for (size_t i = 0; i < c->nlayers; i++) {
			const ts_cmp_layer *L = &c->layers_rows[i];
			if (L->stage != (ts_pstage)st)
				continue;
			for (int s = 0; s < 2; s++) {
				if (!L->has[s])
					continue;
				double bh = max > 0 ? 170 * L->mean[s] / max : 0;
				fprintf(out, "<rect class=\"bar cmp-layer\" data-side=\"%c\" data-layer=\"%" PRIu32
					     "\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
					     "<title>%s layer %" PRIu32 ": %.3f us</title></rect>\n", s ? 'b' : 'a',
					L->layer, 60 + L->layer * step + s * step / 2, 190 - bh, bw, bh, palette[s],
					s ? "B" : "A", L->layer, L->mean[s] / 1e3);
			}
		}
		fprintf(out, "<line x1=\"58\" y1=\"190\" x2=\"%d\" y2=\"190\" class=\"ax\"/>"
			     "<text x=\"56\" y=\"24\" text-anchor=\"end\" class=\"val\">%.0f us</text>"
			     "<text x=\"60\" y=\"206\" class=\"axis\">layer index 0 .. %" PRIu32
			     " (mean kernel time per layer, us)</text>\n", CW - 10, max / 1e3, n - 1);
		legend_key keys[] = { { "A", palette[0] }, { "B", palette[1] } };
		legend(out, keys, 2, 214);
		chart_close(out);
	}
}

int ts_report_compare_html(FILE *out, const ts_compare *c, const ts_report_opts *o)
{
	(void)o;
	char title[600];
	snprintf(title, sizeof title, "%s vs %s", c->name[0], c->name[1]);
	page_head(out, title, "Where B spends more GPU time than A: ", title);
	fputs("<table class=\"sum\"><tr><th></th><th>trace</th><th>kernel time (us)</th><th>kernels</th>"
	      "<th>passes</th><th>layers</th></tr>\n", out);
	for (int s = 0; s < 2; s++) {
		char us[32];
		ts_fmt_us(us, sizeof us, c->kernel_ns[s]);
		fprintf(out, "<tr><td>%c</td><td>", s ? 'B' : 'A');
		escs(out, c->name[s]);
		fprintf(out, "</td><td class=\"n\">%s</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%"
			     PRIu64 "</td><td class=\"n\">%" PRIu64 "</td></tr>\n", us, c->kernels[s],
			c->passes[s], c->layers[s]);
	}
	fprintf(out, "</table>\n<p>B %s A by %.3f us%s (%s).</p>\n",
		c->gap >= 0 ? "is slower than" : "is faster than", fabs(c->gap) / 1e3,
		c->per_pass ? " per pass" : "", ts_cmp_status_name(c->status));
	fputs("<h2>Charts</h2>\n", out);
	hbar tot[2];
	for (int s = 0; s < 2; s++)
		tot[s] = (hbar){ s ? "B" : "A", 1, c->cmp_total[s] / 1e3, palette[s], c->name[s] };
	hbars(out, "chart-cmp-total", "Kernel time, A and B",
	      c->per_pass ? "Per pass: the traces have different pass counts." : "Kernel time of each trace.",
	      tot, 2, "bar cmp-total", NULL, 0);
	chart_waterfall(out, c);
	chart_cmp_ops(out, c);
	chart_cmp_layers(out, c);
	fputs("<h2>Tables</h2>\n<p>Click a column header to sort. Times in microseconds.</p>\n", out);
	html_tab t = { .out = out };
	ts_table_sink sink = { &t, h_begin, h_row, h_end };
	for (size_t i = 0; ts_tview_compare_tables[i]; i++)
		if (ts_tview_compare_table(c, ts_tview_compare_tables[i], &sink) != 0)
			return -1;
	fputs("<h3 id=\"t-warnings\">warnings</h3>\n<ul class=\"warn\">", out);
	warnings(out, c->r[0], "A");
	warnings(out, c->r[1], "B");
	fputs("</ul>\n", out);
	page_foot(out);
	return ferror(out) ? -1 : 0;
}
