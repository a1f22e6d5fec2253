/*
 * report_md.c - the report for a reader that is a program (an LLM agent, a
 * script): the first screen as the terminal shows it, then the figures it
 * rests on in Markdown tables, each with its unit and the JSON field it
 * comes from (tracestream -f json; docs/agents.md). Short enough for a
 * prompt: the first screen, the trace, each stage's step, what to fix
 * first, the top kernels and categories, and whether the trace is whole.
 *
 * Every figure is read from the JSON report itself (rendered in memory and
 * parsed back), so a cited field holds exactly the value shown.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_tree.h>

#include "input/base/label.h"
#include "report/report.h"
#include "report/version.h"

#define MD_KERNELS 10          /* top kernels listed */
#define MD_CATEGORIES 8        /* top categories listed */
#define MD_OPPORTUNITIES 5     /* opportunities listed */
#define MD_DEVICES 8           /* GPUs whose memory is listed */

yajl_val ts_report_json_at(yajl_val v, const char *path)
{
	char seg[128];
	while (v && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof seg)
			return NULL;
		memcpy(seg, path, n);
		seg[n] = '\0';
		path += n + (path[n] == '.');
		if (YAJL_IS_ARRAY(v)) {
			char *end;
			unsigned long i = strtoul(seg, &end, 10);
			v = *end == '\0' && i < v->u.array.len ? v->u.array.values[i] : NULL;
		} else if (YAJL_IS_OBJECT(v)) {
			yajl_val next = NULL;
			for (size_t k = 0; k < v->u.object.len && !next; k++)
				if (strcmp(v->u.object.keys[k], seg) == 0)
					next = v->u.object.values[k];
			v = next;
		} else {
			return NULL;
		}
	}
	return v;
}

static yajl_val at(yajl_val v, const char *path)
{
	return ts_report_json_at(v, path);
}

/* Text in a table cell: no newline, "|" escaped, at most max bytes. */
static void cell(FILE *out, const char *s, size_t max)
{
	size_t n = 0;
	for (; *s && n < max; s++, n++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
	if (*s)
		fputs("...", out);
}

/* A value as the JSON wrote it (a number's own text). False where it is
 * missing or null. */
static bool value(FILE *out, yajl_val v)
{
	if (!v || YAJL_IS_NULL(v))
		return false;
	if (YAJL_IS_NUMBER(v))
		fputs(YAJL_GET_NUMBER(v), out);
	else if (YAJL_IS_STRING(v))
		cell(out, YAJL_GET_STRING(v), 400);
	else if (YAJL_IS_TRUE(v))
		fputs("true", out);
	else if (YAJL_IS_FALSE(v))
		fputs("false", out);
	else
		return false;
	return true;
}

/* A row's cell after its bar: the value, "-" where there is none. */
static void cell_of(FILE *out, yajl_val v)
{
	fputs(" | ", out);
	if (!value(out, v))
		fputs("-", out);
}

/* One figure's row: label, value, unit, JSON field; none where the field
 * is missing or null. The path is built from fmt. */
static void figure(FILE *out, yajl_val root, const char *label, const char *unit,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void figure(FILE *out, yajl_val root, const char *label, const char *unit,
		   const char *fmt, ...)
{
	char path[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(path, sizeof path, fmt, ap);
	va_end(ap);
	yajl_val v = at(root, path);
	if (!v || YAJL_IS_NULL(v) || YAJL_IS_OBJECT(v) || YAJL_IS_ARRAY(v))
		return;
	fprintf(out, "| %s | ", label);
	value(out, v);
	fprintf(out, " | %s | `%s` |\n", unit, path);
}

static void table_head(FILE *out)
{
	fputs("| Figure | Value | Unit | JSON field |\n|---|---|---|---|\n", out);
}

static void trace_section(FILE *out, yajl_val r)
{
	fputs("\n## The trace\n\n", out);
	table_head(out);
	figure(out, r, "GPU", "", "trace.gpu");
	figure(out, r, "platform", "", "trace.platform");
	figure(out, r, "framework", "", "trace.framework");
	figure(out, r, "model family", "", "model.family");
	figure(out, r, "model", "", "model.described");
	figure(out, r, "rank", "", "trace.rank");
	figure(out, r, "world size", "ranks", "trace.world_size");
	figure(out, r, "kernels", "launches", "trace.kernels");
	figure(out, r, "kernel time", "us", "trace.kernel_time_us");
	figure(out, r, "GPU busy", "us", "trace.busy_time_us");
	figure(out, r, "trace span", "us", "trace.span_us");
	figure(out, r, "layers per pass", "layers", "layers.per_pass");
	figure(out, r, "complete passes", "passes", "layers.complete_passes");
}

/* Each stage's passes and step: where the step's time goes. */
static void stage_section(FILE *out, yajl_val r)
{
	yajl_val st = at(r, "stages");
	if (!st || !YAJL_IS_OBJECT(st) || st->u.object.len == 0)
		return;
	fputs("\n## Where the step's time goes, per stage\n", out);
	for (size_t i = 0; i < st->u.object.len; i++) {
		const char *s = st->u.object.keys[i];
		yajl_val n = at(st->u.object.values[i], "passes");
		if (!n || !YAJL_IS_INTEGER(n) || YAJL_GET_INTEGER(n) == 0)
			continue;   /* a stage no pass had */
		fprintf(out, "\n### %s\n\n", s);
		table_head(out);
		figure(out, r, "passes", "passes", "stages.%s.passes", s);
		figure(out, r, "complete passes", "passes", "stages.%s.complete_passes", s);
		figure(out, r, "kernel time", "us", "stages.%s.gpu_time_us", s);
		figure(out, r, "share of kernel time", "%", "stages.%s.share_pct", s);
		figure(out, r, "pass wall, mean", "us", "stages.%s.steps.wall_mean_us", s);
		figure(out, r, "pass wall, p50", "us", "stages.%s.steps.wall_p50_us", s);
		figure(out, r, "step to step, p50", "us", "stages.%s.steps.step_p50_us", s);
		figure(out, r, "per output token", "us", "stages.%s.steps.per_output_token_us", s);
		figure(out, r, "per output token, measured as", "", "stages.%s.steps.per_output_token_from", s);
		figure(out, r, "batch", "sequences", "stages.%s.steps.batch", s);
		figure(out, r, "tokens per second", "tokens/s", "stages.%s.steps.tokens_per_s", s);
		figure(out, r, "GPU busy in passes", "%", "stages.%s.idle.busy_pct", s);
		figure(out, r, "GPU idle in passes", "%", "stages.%s.idle.idle_pct", s);
		figure(out, r, "idle: the CPU late (launch-bound)", "us", "stages.%s.steps.launch_bound_us", s);
		figure(out, r, "GPU idle before the pass, in its step", "us", "stages.%s.steps.before_pass_us", s);
	}
}

/* Device memory (profile_memory=True): each GPU's peaks and who held
 * the peak allocated. */
static void memory_section(FILE *out, yajl_val r)
{
	yajl_val d = at(r, "device_memory.devices");
	if (!d || !YAJL_IS_ARRAY(d) || d->u.array.len == 0)
		return;
	fputs("\n## Device memory\n", out);
	for (size_t i = 0; i < d->u.array.len && i < MD_DEVICES; i++) {
		yajl_val dev = d->u.array.values[i];
		fputs("\n### GPU ", out);
		value(out, at(dev, "device"));
		fputs("\n\n", out);
		table_head(out);
		const char *P = "device_memory.devices";
		figure(out, r, "peak allocated", "bytes", "%s.%zu.peak_allocated_bytes", P, i);
		figure(out, r, "reserved at the peak allocated", "bytes",
		       "%s.%zu.reserved_at_peak_allocated_bytes", P, i);
		figure(out, r, "cached or fragmented then", "bytes", "%s.%zu.cached_at_peak_allocated_bytes", P, i);
		figure(out, r, "peak reserved", "bytes", "%s.%zu.peak_reserved_bytes", P, i);
		figure(out, r, "growth over the trace", "bytes", "%s.%zu.growth_bytes", P, i);
		figure(out, r, "held at the peak from before the capture", "bytes",
		       "%s.%zu.at_peak.before_capture_bytes", P, i);
		figure(out, r, "held at the peak by the capture's allocations", "bytes",
		       "%s.%zu.at_peak.capture_bytes", P, i);
		yajl_val own = at(dev, "at_peak.owners");
		for (size_t j = 0; own && YAJL_IS_ARRAY(own) && j < own->u.array.len; j++) {
			yajl_val o = own->u.array.values[j];
			yajl_val op = at(o, "op");
			fputs("| held at the peak by ", out);
			if (!value(out, op))
				value(out, at(o, "owner"));
			fputs(" | ", out);
			value(out, at(o, "bytes"));
			fprintf(out, " | bytes | `%s.%zu.at_peak.owners.%zu.bytes` |\n", P, i, j);
		}
	}
}

static void opportunities_section(FILE *out, yajl_val r)
{
	yajl_val ops = at(r, "opportunities");
	if (!ops || !YAJL_IS_ARRAY(ops) || ops->u.array.len == 0)
		return;
	fputs("\n## What to fix first\n\n"
	      "What each saves the step where replayed (`saves_us`), else the time at stake "
	      "(`at_stake_us`), largest first.\n\n"
	      "| # | Stage | Saves (us) | At stake (us) | What | JSON |\n|---|---|---|---|---|---|\n", out);
	for (size_t i = 0; i < ops->u.array.len && i < MD_OPPORTUNITIES; i++) {
		yajl_val o = ops->u.array.values[i];
		fprintf(out, "| %zu", i + 1);
		cell_of(out, at(o, "stage"));
		cell_of(out, at(o, "saves_us"));
		cell_of(out, at(o, "at_stake_us"));
		cell_of(out, at(o, "text"));
		fprintf(out, " | `opportunities.%zu` |\n", i);
	}
}

/* The first rows of a table of the report: name, category, time, share. */
static void rows_section(FILE *out, yajl_val r, const char *title, const char *table,
			 const char *name_key, size_t max)
{
	yajl_val t = at(r, table);
	if (!t || !YAJL_IS_ARRAY(t) || t->u.array.len == 0)
		return;
	fprintf(out, "\n## %s\n\n| # | Name | Type | Calls | Time (us) | Share (%%) | JSON |\n"
		     "|---|---|---|---|---|---|---|\n", title);
	for (size_t i = 0; i < t->u.array.len && i < max; i++) {
		yajl_val k = t->u.array.values[i];
		fprintf(out, "| %zu", i + 1);
		cell_of(out, at(k, name_key));
		cell_of(out, at(k, "type"));
		cell_of(out, at(k, "count"));
		cell_of(out, at(k, "total_us"));
		cell_of(out, at(k, "pct"));
		fprintf(out, " | `%s.%zu` |\n", table, i);
	}
	if (t->u.array.len > max)
		fprintf(out, "\n%zu more rows: `%s` in the JSON report.\n", t->u.array.len - max, table);
}

/* Whether the trace was read whole, and what was not. */
static void complete_section(FILE *out, yajl_val r)
{
	fputs("\n## Is this trace complete\n\n", out);
	table_head(out);
	figure(out, r, "read partially (cut or bad)", "", "trace.partial");
	figure(out, r, "error", "", "trace.error");
	figure(out, r, "kernels outside any pass", "kernels", "layers.orphan_kernels");
	yajl_val w = at(r, "warnings");
	if (!w || !YAJL_IS_ARRAY(w) || w->u.array.len == 0) {
		fputs("\nNo warnings (`warnings`).\n", out);
	} else {
		fprintf(out, "\nWarnings (`warnings`, %zu):\n\n", w->u.array.len);
		for (size_t i = 0; i < w->u.array.len && i < 8; i++) {
			fputs("- ", out);
			value(out, w->u.array.values[i]);
			fputc('\n', out);
		}
	}
}

yajl_val ts_report_json_tree(const ts_result *res, const ts_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return NULL;
	int rc = ts_report_json(mem, res, o);
	if (fclose(mem) != 0 || rc != 0) {
		free(buf);
		return NULL;
	}
	char err[256];
	yajl_val root = yajl_tree_parse(buf, err, sizeof err);
	free(buf);
	return root;
}

/* A line of the first screen (views/brief.h), laid out by report_brief.c. */
static void first_line(void *ctx, const char *line, size_t n)
{
	fwrite(line, 1, n, ctx);
	fputc('\n', ctx);
}

int ts_report_md(FILE *out, const ts_result *res, const ts_report_opts *o)
{
	fprintf(out, "# tracestream %s report: %s\n\n", TS_VERSION, ts_path_label(res->path, false));
	fputs("The first screen, as the terminal shows it; then the figures it rests on, "
	      "each with its unit and its field in `tracestream -f json` (docs/agents.md).\n\n"
	      "```text\n", out);
	ts_report_opts bo = *o;
	bo.width = 0;   /* lines whole, as on a pipe */
	ts_brief_opts fo = ts_report_brief_opts(o);
	ts_brief fb;
	if (ts_brief_of(res, &fo, &fb) == 0)
		ts_report_brief_lines(res, &bo, &fb, first_line, out);
	ts_brief_free(&fb);
	fputs("```\n", out);
	yajl_val root = ts_report_json_tree(res, o);
	if (!root) {
		fputs("\n(The JSON report could not be made: the figures are in the text above.)\n", out);
		return ferror(out) ? -1 : 0;
	}
	trace_section(out, root);
	stage_section(out, root);
	memory_section(out, root);
	opportunities_section(out, root);
	rows_section(out, root, "Top kernels", "kernels", "short", MD_KERNELS);
	rows_section(out, root, "Top categories", "categories", "category", MD_CATEGORIES);
	complete_section(out, root);
	yajl_tree_free(root);
	return ferror(out) ? -1 : 0;
}
