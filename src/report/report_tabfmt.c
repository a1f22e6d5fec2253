/*
 * report_tabfmt.c - a table of the report (the table view, tview.h, the
 * one place that says what each table holds) as CSV and as a JSON member.
 *
 * CSV (RFC 4180): a header row of column names with their units
 * (total_us), then one line per row, CRLF-terminated. Text fields are
 * quoted when they hold a comma, a double quote, CR or LF (quotes
 * doubled); NUL bytes are dropped. Numbers are plain decimal, never
 * exponents; microseconds are exact (nanoseconds / 1000 with three
 * decimals); an unknown value is empty.
 *
 * JSON: an array of objects keyed by the column names, one object a line.
 * The JSON report takes the sections whose JSON is exactly their table
 * from here, so the table's definition is the only one: CSV, the
 * workbook, the page and JSON render the same rows. Numbers are written
 * as text, so they read exactly as in CSV; an empty number cell is null.
 */
#include <string.h>

#include "report/jsonw.h"
#include "report/report.h"

/* ------------------------------------------------------------ CSV */

static void put_field(FILE *out, const char *s, size_t n)
{
	bool quote = false;
	for (size_t i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (quote)
		fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\0')
			continue;
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	if (quote)
		fputc('"', out);
}

static void csv_cell(FILE *out, const ts_cell *c)
{
	char buf[64];
	if (c->kind == TS_CELL_STR) {
		put_field(out, c->s, c->len);
		return;
	}
	size_t n = ts_cell_number(c, buf, sizeof buf);
	fwrite(buf, 1, n, out);
}

static int csv_begin(void *ctx, const char *table, const char *const *cols, size_t n)
{
	FILE *out = ctx;
	(void)table;
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		put_field(out, cols[i], strlen(cols[i]));
	}
	fputs("\r\n", out);
	return ferror(out) ? -1 : 0;
}

static int csv_row(void *ctx, const ts_cell *cells, size_t n)
{
	FILE *out = ctx;
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		csv_cell(out, &cells[i]);
	}
	fputs("\r\n", out);
	return ferror(out) ? -1 : 0;
}

static int csv_end(void *ctx)
{
	return ferror((FILE *)ctx) ? -1 : 0;
}

ts_table_sink ts_csv_sink(FILE *out)
{
	return (ts_table_sink){ out, csv_begin, csv_row, csv_end };
}

int ts_report_csv(FILE *out, const ts_result *res, const ts_report_opts *o, const char *table)
{
	ts_table_sink sink = { out, csv_begin, csv_row, csv_end };
	return ts_report_table(res, o, table, &sink) == 0 ? 0 : -1;
}

int ts_report_compare_csv(FILE *out, const ts_compare *c, const char *table)
{
	ts_table_sink sink = { out, csv_begin, csv_row, csv_end };
	return ts_tview_compare_table(c, table, &sink) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------ JSON */

/* Columns JSON leaves out of a row where they are null, as the JSON
 * report always has: they apply to some rows only (a kernel's own class
 * where a context rule gave it another), and readers test for the key. */
static const char *const absent_when_null[][2] = {
	{ "kernels", "name_type" }, { "kernels", "name_category" }, { "kernels", "context_pct" },
};

static bool omit_null(const char *table, const char *col)
{
	for (size_t i = 0; i < sizeof absent_when_null / sizeof *absent_when_null; i++)
		if (strcmp(absent_when_null[i][0], table) == 0 && strcmp(absent_when_null[i][1], col) == 0)
			return true;
	return false;
}

typedef struct {
	ts_jw *w;
	const char *table;
	const char *key;
	const char *const *cols;
	size_t ncols;
	size_t rows;
} jsontab;

static void json_cell(ts_jw *w, const ts_cell *c)
{
	if (c->kind == TS_CELL_STR) {
		ts_jw_strn(w, c->s, c->len);
		return;
	}
	if (c->kind == TS_CELL_BOOL) {
		ts_jw_bool(w, c->u != 0);
		return;
	}
	char buf[64];
	size_t n = ts_cell_number(c, buf, sizeof buf);
	if (n)
		ts_jw_numtext(w, buf, n);
	else
		ts_jw_null(w);
}

static int jt_begin(void *ctx, const char *table, const char *const *cols, size_t ncols)
{
	jsontab *t = ctx;
	t->table = table;
	t->cols = cols;
	t->ncols = ncols;
	t->rows = 0;
	ts_jw_member(t->w, 2, t->key);
	ts_jw_arr(t->w);
	return t->w->failed ? -1 : 0;
}

static int jt_row(void *ctx, const ts_cell *cells, size_t ncells)
{
	jsontab *t = ctx;
	ts_jw_nl(t->w, 4);
	ts_jw_obj(t->w);
	for (size_t i = 0; i < ncells && i < t->ncols; i++) {
		if (cells[i].kind == TS_CELL_NULL && omit_null(t->table, t->cols[i]))
			continue;
		ts_jw_key(t->w, t->cols[i]);
		json_cell(t->w, &cells[i]);
	}
	ts_jw_end_obj(t->w);
	t->rows++;
	return t->w->failed ? -1 : 0;
}

static int jt_end(void *ctx)
{
	jsontab *t = ctx;
	ts_jw_end_rows(t->w, t->rows, 2);
	return t->w->failed ? -1 : 0;
}

int ts_report_json_table(ts_jw *w, const ts_result *res, const ts_report_opts *o,
			 const char *key, const char *name)
{
	jsontab t = { .w = w, .key = key };
	const ts_table_sink sink = { .ctx = &t, .begin = jt_begin, .row = jt_row, .end = jt_end };
	return ts_report_table(res, o, name, &sink);
}
