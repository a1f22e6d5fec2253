/*
 * report_jsontab.c - a table of the report (report_table.c, the one place
 * that says what each table holds) as a JSON array of objects keyed by its
 * column names, one object a line, each written by yajl_gen.
 *
 * The JSON report takes the sections whose JSON is exactly their table
 * from here, so the table's definition is the only one: CSV, the
 * workbook, the page and JSON render the same rows. Strings that are not
 * UTF-8 keep each stray byte as the code point of the same value (what
 * ts_json_str writes as \u00XX); numbers are written as text, so they
 * read exactly as in CSV (microseconds with three decimals, no exponent).
 */
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>

#include "report/report.h"

typedef struct {
	FILE *out;
	yajl_gen g;
	const char *key;
	const char *const *cols;
	size_t ncols;
	size_t rows;
	char *tmp;                 /* a string made UTF-8 */
	size_t tmp_cap;
} jsontab;

/* s[0..n) as valid UTF-8: a byte that starts no valid sequence becomes
 * the two-byte form of the code point of its value. */
static bool utf8_string(jsontab *t, const char *s, size_t n, const unsigned char **out,
			size_t *len)
{
	size_t need = 2 * n + 1;
	if (need > t->tmp_cap) {
		char *p = realloc(t->tmp, need);
		if (!p)
			return false;
		t->tmp = p;
		t->tmp_cap = need;
	}
	const unsigned char *u = (const unsigned char *)s;
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		size_t m = u[i] < 0x80 ? 1 : ts_utf8_len(u + i, n - i);
		if (m == 0) {
			t->tmp[k++] = (char)(0xc0 | (u[i] >> 6));
			t->tmp[k++] = (char)(0x80 | (u[i] & 0x3f));
			i++;
		} else {
			memcpy(t->tmp + k, u + i, m);
			k += m;
			i += m;
		}
	}
	*out = (const unsigned char *)t->tmp;
	*len = k;
	return true;
}

static bool gen_text(yajl_gen g, const char *s)
{
	return yajl_gen_string(g, (const unsigned char *)s, strlen(s)) == yajl_gen_status_ok;
}

static bool gen_cell(jsontab *t, const ts_cell *c)
{
	if (c->kind == TS_CELL_STR) {
		const unsigned char *s;
		size_t len;
		return utf8_string(t, c->s, c->len, &s, &len) &&
		       yajl_gen_string(t->g, s, len) == yajl_gen_status_ok;
	}
	char buf[64];
	size_t n = ts_cell_number(c, buf, sizeof buf);
	return (n ? yajl_gen_number(t->g, buf, n) : yajl_gen_null(t->g)) == yajl_gen_status_ok;
}

static int jt_begin(void *ctx, const char *table, const char *const *cols, size_t ncols)
{
	jsontab *t = ctx;
	(void)table;
	t->cols = cols;
	t->ncols = ncols;
	t->rows = 0;
	fprintf(t->out, "  \"%s\": [", t->key);
	return ferror(t->out) ? -1 : 0;
}

static int jt_row(void *ctx, const ts_cell *cells, size_t ncells)
{
	jsontab *t = ctx;
	yajl_gen_reset(t->g, NULL);
	yajl_gen_clear(t->g);
	bool ok = yajl_gen_map_open(t->g) == yajl_gen_status_ok;
	for (size_t i = 0; ok && i < ncells && i < t->ncols; i++)
		ok = gen_text(t->g, t->cols[i]) && gen_cell(t, &cells[i]);
	ok = ok && yajl_gen_map_close(t->g) == yajl_gen_status_ok;
	const unsigned char *buf;
	size_t len;
	if (!ok || yajl_gen_get_buf(t->g, &buf, &len) != yajl_gen_status_ok)
		return -1;
	fputs(t->rows++ ? ",\n    " : "\n    ", t->out);
	fwrite(buf, 1, len, t->out);
	return ferror(t->out) ? -1 : 0;
}

static int jt_end(void *ctx)
{
	jsontab *t = ctx;
	fputs(t->rows ? "\n  ],\n" : "],\n", t->out);
	return ferror(t->out) ? -1 : 0;
}

int ts_report_json_table(FILE *out, const ts_result *res, const ts_report_opts *o,
			 const char *key, const char *name)
{
	jsontab t = { .out = out, .key = key };
	t.g = yajl_gen_alloc(NULL);
	if (!t.g)
		return -1;
	yajl_gen_config(t.g, yajl_gen_validate_utf8, 0);
	const ts_table_sink sink = { .ctx = &t, .begin = jt_begin, .row = jt_row, .end = jt_end };
	int rc = ts_report_table(res, o, name, &sink);
	yajl_gen_free(t.g);
	free(t.tmp);
	return rc;
}
