/*
 * report_xlsx.c - the report as an Excel workbook (libxlsxwriter).
 *
 * A summary sheet first (what the trace is, its totals, time per stage),
 * then one sheet per table of the table view (tview.h): kernels, types,
 * categories, ops (all stages, then ops_prefill / ops_decode / ... for
 * each stage that has kernels, like TraceLens' ops_summary sheets),
 * workloads, layers, passes, stages, unclassified, memory. Numbers are stored as numbers
 * (microseconds as us with their fraction), the header row is bold and
 * frozen, every sheet has an autofilter and columns as wide as their text
 * (at most 60). Text is made valid UTF-8 without control characters and
 * cut to Excel's 32,767 characters per cell.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include <xlsxwriter.h>

#include "input/base/label.h"
#include "analysis/views/lview.h"
#include "report/report.h"
#include "report/version.h"

#define XLSX_CELL_MAX 32767
#define XLSX_COLS 32
#define XLSX_WIDTH_MAX 60

typedef struct {
	lxw_workbook *wb;
	lxw_worksheet *ws;
	lxw_format *head;
	const char *sheet;       /* the next sheet's name */
	uint32_t row;
	size_t ncols;
	double width[XLSX_COLS];
	char *text;              /* cleaned text, XLSX_CELL_MAX * 3 + 4 bytes */
	int err;
} xlsx;

/* Valid UTF-8, no control characters but tab and line feed, at most
 * XLSX_CELL_MAX characters: s[0..n) into x->text. Returns its length in
 * characters. */
static size_t clean(xlsx *x, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, chars = 0;
	for (size_t i = 0; i < n && chars < XLSX_CELL_MAX;) {
		unsigned c = p[i];
		size_t len = ts_utf8_len(p + i, n - i);
		/* U+FFFE and U+FFFF are not XML characters */
		bool okc = len > 0 && !(len == 3 && c == 0xef && p[i + 1] == 0xbf && p[i + 2] >= 0xbe);
		if (!okc) {
			memcpy(x->text + o, "\xef\xbf\xbd", 3);      /* U+FFFD */
			o += 3;
			i++;
		} else if (len == 1 && (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n') {
			x->text[o++] = ' ';
			i++;
		} else {
			memcpy(x->text + o, p + i, len);
			o += len;
			i += len;
		}
		chars++;
	}
	x->text[o] = '\0';
	return chars;
}

static void widen(xlsx *x, size_t col, double w)
{
	if (col < XLSX_COLS && w > x->width[col])
		x->width[col] = w > XLSX_WIDTH_MAX ? XLSX_WIDTH_MAX : w;
}

static void text_at(xlsx *x, uint32_t row, size_t col, const char *s, size_t n, lxw_format *f)
{
	size_t chars = clean(x, s, n);
	if (worksheet_write_string(x->ws, row, (lxw_col_t)col, x->text, f) != LXW_NO_ERROR)
		x->err = 1;
	widen(x, col, (double)chars + 2);
}

static void number_at(xlsx *x, uint32_t row, size_t col, double v)
{
	if (!isfinite(v))
		return;
	if (worksheet_write_number(x->ws, row, (lxw_col_t)col, v, NULL) != LXW_NO_ERROR)
		x->err = 1;
	char buf[32];
	widen(x, col, (double)snprintf(buf, sizeof buf, "%.6g", v) + 2);
}

static void bool_at(xlsx *x, uint32_t row, size_t col, bool v)
{
	if (worksheet_write_boolean(x->ws, row, (lxw_col_t)col, v, NULL) != LXW_NO_ERROR)
		x->err = 1;
	widen(x, col, 7);
}

static void sheet_end(xlsx *x)
{
	if (!x->ws)
		return;
	for (size_t c = 0; c < x->ncols && c < XLSX_COLS; c++)
		worksheet_set_column(x->ws, (lxw_col_t)c, (lxw_col_t)c, x->width[c], NULL);
	worksheet_freeze_panes(x->ws, 1, 0);
	if (x->ncols)
		worksheet_autofilter(x->ws, 0, 0, x->row ? x->row - 1 : 0, (lxw_col_t)(x->ncols - 1));
	x->ws = NULL;
}

static int x_begin(void *ctx, const char *table, const char *const *cols, size_t n)
{
	xlsx *x = ctx;
	x->ws = workbook_add_worksheet(x->wb, x->sheet ? x->sheet : table);
	if (!x->ws)
		return -1;
	x->row = 1;
	x->ncols = n;
	memset(x->width, 0, sizeof x->width);
	for (size_t c = 0; c < n; c++)
		text_at(x, 0, c, cols[c], strlen(cols[c]), x->head);
	return x->err ? -1 : 0;
}

static int x_row(void *ctx, const ts_cell *cells, size_t n)
{
	xlsx *x = ctx;
	if (x->row >= LXW_ROW_MAX)
		return 0;                /* Excel's last row: the rest is left out */
	for (size_t c = 0; c < n; c++) {
		const ts_cell *v = &cells[c];
		switch (v->kind) {
		case TS_CELL_STR:
			text_at(x, x->row, c, v->s, v->len, NULL);
			break;
		case TS_CELL_INT:
			number_at(x, x->row, c, (double)v->i);
			break;
		case TS_CELL_UINT:
			number_at(x, x->row, c, (double)v->u);
			break;
		case TS_CELL_US:
			number_at(x, x->row, c, (double)v->i / 1e3);
			break;
		case TS_CELL_NUM:
			number_at(x, x->row, c, v->d);
			break;
		case TS_CELL_BOOL:
			bool_at(x, x->row, c, v->u != 0);
			break;
		default:
			break;
		}
	}
	x->row++;
	return x->err ? -1 : 0;
}

static int x_end(void *ctx)
{
	xlsx *x = ctx;
	sheet_end(x);
	return x->err ? -1 : 0;
}

static void fact_s(xlsx *x, const char *k, const char *v)
{
	text_at(x, x->row, 0, k, strlen(k), NULL);
	if (v)
		text_at(x, x->row, 1, v, strlen(v), NULL);
	x->row++;
}

static void fact_n(xlsx *x, const char *k, double v)
{
	text_at(x, x->row, 0, k, strlen(k), NULL);
	number_at(x, x->row, 1, v);
	x->row++;
}

/* A line of the first screen a row (item "first_screen"); a line that
 * holds a newline, a row each side of it. */
static void first_line(void *ctx, const char *line, size_t n)
{
	xlsx *x = ctx;
	const char *end = line + n;
	for (const char *l = line;;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		size_t k = nl ? (size_t)(nl - l) : (size_t)(end - l);
		text_at(x, x->row, 0, "first_screen", 12, NULL);
		text_at(x, x->row, 1, l, k, NULL);
		x->row++;
		if (!nl)
			break;
		l = nl + 1;
	}
}

/* The first screen (views/brief.h): every figure it gives, in its words,
 * laid out with no width (whole lines, as on a pipe). */
static void first_screen(xlsx *x, const ts_result *res, const ts_report_opts *o)
{
	ts_report_opts bo = *o;
	bo.width = 0;
	ts_brief_opts fo = ts_report_brief_opts(o);
	ts_brief fb;
	if (ts_brief_of(res, &fo, &fb) == 0)
		ts_report_brief_lines(res, &bo, &fb, first_line, x);
	ts_brief_free(&fb);
}

/* The summary sheet: one fact per row, then the first screen. */
static void summary(xlsx *x, const ts_result *res, const ts_lview *lv, const ts_report_opts *o)
{
	static const char *const cols[] = { "item", "value" };
	x->sheet = "summary";
	x_begin(x, "summary", cols, 2);
	x->sheet = NULL;
	fact_s(x, "tool", "tracestream " TS_VERSION);
	fact_s(x, "trace", ts_path_label(res->path, false));
	fact_s(x, "partial", res->partial ? "yes: the report covers the part that was read" : "no");
	if (res->partial)
		fact_s(x, "error", res->err.msg);
	fact_n(x, "json_bytes", (double)res->json_bytes);
	const ts_devprop *dp = ts_result_devprop(res);
	fact_s(x, "gpu", dp && dp->name[0] ? dp->name : NULL);
	fact_s(x, "roofline_device", res->gpu ? res->gpu->name : NULL);
	fact_s(x, "framework", res->framework);
	fact_s(x, "model_family", res->model.family ? res->model.family->name : NULL);
	fact_s(x, "model", res->model.described[0] ? res->model.described : NULL);
	fact_n(x, "kernels", (double)res->agg->all.count);
	fact_n(x, "kernel_time_us", (double)res->agg->all.total / 1e3);
	for (int s = 0; res->layers && s < TS_PSTAGE_COUNT; s++) {
		const ts_stage_total *t = &lv->stage[s].total;
		const ts_stat *sall = lv->stage[s].all;
		if (!t->passes && !sall->count)
			continue;
		char k[64];
		snprintf(k, sizeof k, "%s_passes", ts_pstage_name((ts_pstage)s));
		fact_n(x, k, t->passes);
		snprintf(k, sizeof k, "%s_gpu_time_us", ts_pstage_name((ts_pstage)s));
		fact_n(x, k, (double)sall->total / 1e3);
	}
	ts_warns w;
	ts_result_warnings(res, &w);
	for (size_t i = 0; i < w.n; i++)
		fact_s(x, "warning", w.line[i]);
	first_screen(x, res, o);
	sheet_end(x);
}

/* libxlsxwriter prints its own errors on stderr, naming the temporary
 * file it writes ("[ERROR] workbook_close(): ... '.r.xlsx.7N7Vc3'"); the
 * writer's one line names the report's own file and why: the library's
 * lines are held back while it closes the workbook. */
static lxw_error close_workbook(lxw_workbook *wb)
{
	fflush(stderr);
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	bool quiet = saved >= 0 && null >= 0 && dup2(null, STDERR_FILENO) >= 0;
	lxw_error e = workbook_close(wb);
	if (quiet) {
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
	}
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	return e;
}

int ts_report_xlsx(const char *path, const ts_result *res, const ts_report_opts *o)
{
	ts_lview lv;
	if (ts_lview_of(res, &lv) != 0) {
		ts_lview_free(&lv);
		return -1;
	}
	xlsx x = { .text = malloc(XLSX_CELL_MAX * 3 + 4) };
	lxw_workbook_options wo = { .constant_memory = LXW_FALSE };
	x.wb = x.text ? workbook_new_opt(path, &wo) : NULL;
	if (!x.wb) {
		free(x.text);
		ts_lview_free(&lv);
		return -1;
	}
	x.head = workbook_add_format(x.wb);
	format_set_bold(x.head);
	ts_table_sink sink = { &x, x_begin, x_row, x_end };
	summary(&x, res, &lv, o);
	int rc = 0;
	for (size_t i = 0; ts_tview_tables[i] && rc == 0; i++) {
		const char *t = ts_tview_tables[i];
		if (!ts_report_table_applies(res, o, t))
			continue;
		rc = ts_report_table(res, o, t, &sink);
		/* the ops of each stage that has kernels, after all ops */
		for (int s = 0; strcmp(t, "ops") == 0 && !o->filter_stage && res->layers &&
				s < TS_PSTAGE_COUNT && rc == 0; s++) {
			if (!lv.stage[s].all->count)
				continue;
			char name[32];
			snprintf(name, sizeof name, "ops_%s", ts_pstage_name((ts_pstage)s));
			ts_report_opts so = *o;
			so.filter_stage = true;
			so.stage = (ts_pstage)s;
			x.sheet = name;
			rc = ts_report_table(res, &so, "ops", &sink);
			x.sheet = NULL;
		}
	}
	lxw_error e = close_workbook(x.wb);
	free(x.text);
	ts_lview_free(&lv);
	return rc == 0 && !x.err && e == LXW_NO_ERROR ? 0 : -1;
}
