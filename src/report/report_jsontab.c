/*
 * report_jsontab.c - a table of the report (report_table.c, the one place
 * that says what each table holds) as a JSON member: an array of objects
 * keyed by its column names, one object a line.
 *
 * The JSON report takes the sections whose JSON is exactly their table
 * from here, so the table's definition is the only one: CSV, the
 * workbook, the page and JSON render the same rows. Numbers are written
 * as text, so they read exactly as in CSV (microseconds with three
 * decimals, no exponent); an empty number cell is null.
 */
#include <string.h>

#include "report/jsonw.h"
#include "report/report.h"

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

static void put_cell(ts_jw *w, const ts_cell *c)
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
		put_cell(t->w, &cells[i]);
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
