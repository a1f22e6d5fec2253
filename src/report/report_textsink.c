/*
 * report_textsink.c - a table of the table view (tview.h) as aligned text
 * columns: the text report's sections that are tables render the same definitions
 * (columns, figures, order, the --stage view) as CSV, JSON, the workbook
 * and the page, and say here only how each column looks (see
 * report_text_int.h).
 */
#include "report/report_text_int.h"

#include <math.h>
#include <string.h>

/*
 * Shorten a kernel name to at most w bytes for a terminal: drop a leading
 * "void ", replace the parameter list with "(...)", then cut with "...".
 * Deterministic; JSON always carries the full name.
 */
void ts_text_name(FILE *out, const char *s, size_t n, int w)
{
	if (w <= 0 || n <= (size_t)w) {
		fwrite(s, 1, n, out);
		return;
	}
	if (n > 5 && memcmp(s, "void ", 5) == 0)
		s += 5, n -= 5;
	size_t depth = 0, cut = n;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '<')
			depth++;
		else if (s[i] == '>' && depth)
			depth--;
		else if (s[i] == '(' && depth == 0 && i > 0) {
			cut = i;
			break;
		}
	}
	size_t keep = cut, tail = cut < n ? 5 : 0;     /* "(...)" */
	if (keep + tail > (size_t)w) {
		keep = (size_t)w > 3 ? (size_t)w - 3 : 0;
		fwrite(s, 1, keep, out);
		fputs("...", out);
		return;
	}
	fwrite(s, 1, keep, out);
	if (tail)
		fputs("(...)", out);
}


/* The column of the table that spec c shows (-1: none). */
static int col_index(const char *const *cols, size_t ncols, const char *name)
{
	for (size_t i = 0; name && i < ncols; i++)
		if (strcmp(cols[i], name) == 0)
			return (int)i;
	return -1;
}

static int t_begin(void *ctx, const char *table, const char *const *cols, size_t ncols)
{
	ts_text_table *t = ctx;
	(void)table;
	t->tcols = cols;
	t->ntcols = ncols;
	t->gidx = t->group ? col_index(cols, ncols, t->group) : -1;
	for (size_t i = 0; i < t->ncols && i < TS_TEXT_MAX_COLS; i++)
		t->idx[i] = col_index(cols, ncols, t->cols[i].col);
	t->rows = 0;
	t->group_at[0] = '\0';
	return 0;
}

void ts_text_bytes(char *buf, size_t n, double b)
{
	if (b >= 1e9)
		snprintf(buf, n, "%.2f GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(buf, n, "%.2f MB", b / 1e6);
	else if (b >= 1e3)
		snprintf(buf, n, "%.1f KB", b / 1e3);
	else
		snprintf(buf, n, "%.0f B", b);
}

/* A cell as text: numbers with the spec's decimals (or the cell's), the
 * suffix after them; a byte count in B, KB, MB or GB; text as it is; none
 * as "-". */
static void cell_text(const ts_text_col *c, const ts_cell *x, char *buf, size_t n)
{
	const char *suffix = c->suffix ? c->suffix : "";
	if (x->kind == TS_CELL_STR) {
		snprintf(buf, n, "%.*s", (int)x->len, x->s);
		return;
	}
	if (c->decimals == TS_TEXT_BYTES && (x->kind == TS_CELL_INT || x->kind == TS_CELL_UINT)) {
		ts_text_bytes(buf, n, x->kind == TS_CELL_INT ? (double)x->i : (double)x->u);
		return;
	}
	if (x->kind == TS_CELL_NUM && c->decimals >= 0 && isfinite(x->d))
		snprintf(buf, n, "%.*f%s", c->decimals, x->d, suffix);
	else if (ts_cell_number(x, buf, n))
		snprintf(buf + strlen(buf), n - strlen(buf), "%s", suffix);
	else
		snprintf(buf, n, "-");
}

/* Spaces before a column: gap, one where unset, none where negative. */
static int col_gap(const ts_text_col *c)
{
	return c->gap > 0 ? c->gap : c->gap == 0;
}

int ts_text_lead_width(const ts_text_col *cols, size_t n)
{
	int w = 0;
	for (size_t i = 0; i < n; i++) {
		w += col_gap(&cols[i]);
		if (cols[i].place == TS_TEXT_NAME)
			break;
		w += cols[i].width < 0 ? -cols[i].width : cols[i].width;
	}
	return w;
}

static void put_titles(ts_text_table *t)
{
	for (size_t i = 0; i < t->ncols; i++) {
		const ts_text_col *c = &t->cols[i];
		int gap = col_gap(c);
		if (c->place == TS_TEXT_BELOW)
			continue;
		if (c->place == TS_TEXT_NAME)
			fprintf(t->out, "%*s%s", gap, "", c->title);
		else
			fprintf(t->out, "%*s%*s", gap, "", c->width, c->title);
	}
	fputc('\n', t->out);
}

/* The row's lines of their own (below columns) that have text. */
static void put_below(const ts_text_table *t, const ts_cell *cells, size_t ncells)
{
	for (size_t i = 0; i < t->ncols; i++) {
		const ts_text_col *c = &t->cols[i];
		int k = t->idx[i];
		if (c->place != TS_TEXT_BELOW)
			continue;
		if (c->put) {
			c->put(t, cells, t->out);
			continue;
		}
		char buf[1024] = "";
		if (c->fmt)
			c->fmt(t, cells, buf, sizeof buf);
		else if (k >= 0 && (size_t)k < ncells && cells[k].kind == TS_CELL_STR)
			cell_text(c, &cells[k], buf, sizeof buf);
		if (buf[0])
			fprintf(t->out, "%*s%s\n", c->width, "", buf);
	}
}

static int t_row(void *ctx, const ts_cell *cells, size_t ncells)
{
	ts_text_table *t = ctx;
	if ((t->max_rows && t->rows >= t->max_rows) || (t->keep && !t->keep(t, cells)))
		return 0;
	const ts_cell *g = t->gidx >= 0 && (size_t)t->gidx < ncells ? &cells[t->gidx] : NULL;
	char key[64] = "";
	if (g && g->kind == TS_CELL_STR)
		snprintf(key, sizeof key, "%.*s", (int)g->len, g->s);
	if (t->rows == 0 || strcmp(key, t->group_at) != 0) {
		if (t->heading)
			t->heading(t->ctx, t->out, key);
		if (!t->bare)
			put_titles(t);
		snprintf(t->group_at, sizeof t->group_at, "%s", key);
	}
	for (size_t i = 0; i < t->ncols; i++) {
		const ts_text_col *c = &t->cols[i];
		int k = t->idx[i];
		static const ts_cell none = { .kind = TS_CELL_NULL };
		const ts_cell *x = k >= 0 && (size_t)k < ncells ? &cells[k] : &none;
		int gap = col_gap(c);
		if (c->place == TS_TEXT_BELOW)
			continue;
		if (c->place == TS_TEXT_NAME) {
			fprintf(t->out, "%*s", gap, "");
			if (x->kind == TS_CELL_STR)
				ts_text_name(t->out, x->s, x->len, t->name_width);
			continue;
		}
		char buf[1024] = "";
		if (c->fmt)
			c->fmt(t, cells, buf, sizeof buf);
		else if (c->col)
			cell_text(c, x, buf, sizeof buf);
		fprintf(t->out, "%*s%*s", gap, "", c->width, buf);
	}
	fputc('\n', t->out);
	put_below(t, cells, ncells);
	t->rows++;
	return 0;
}

/* A table of no rows still shows its column titles (unless its sections
 * come from a group column: then there is no section). */
static int t_end(void *ctx)
{
	ts_text_table *t = ctx;
	if (t->rows == 0 && !t->group && !t->bare)
		put_titles(t);
	return 0;
}

const ts_cell *ts_text_cell(const ts_text_table *t, const ts_cell *row, const char *col)
{
	static const ts_cell none = { .kind = TS_CELL_NULL };
	int k = col_index(t->tcols, t->ntcols, col);
	return k >= 0 ? &row[k] : &none;
}

ts_table_sink ts_text_sink(ts_text_table *t)
{
	return (ts_table_sink){ .ctx = t, .begin = t_begin, .row = t_row, .end = t_end };
}
