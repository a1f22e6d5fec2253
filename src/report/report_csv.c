/*
 * report_csv.c - a table of the report as CSV (RFC 4180).
 *
 * A header row of column names with their units (total_us), then one line
 * per row, CRLF-terminated. Text fields are quoted when they hold a comma,
 * a double quote, CR or LF (quotes doubled); NUL bytes are dropped.
 * Numbers are plain decimal, never exponents; microseconds are exact
 * (nanoseconds / 1000 with three decimals); an unknown value is empty.
 */
#include <string.h>

#include "report/report.h"

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

static void put_cell(FILE *out, const ts_cell *c)
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
		put_cell(out, &cells[i]);
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
	return ts_report_compare_table(c, table, &sink) == 0 ? 0 : -1;
}
