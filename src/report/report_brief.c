/*
 * report_brief.c - the first screen (analysis/views/brief.h) laid out:
 * the title, then the record's statements, at most TS_BRIEF_LINES lines,
 * for the report width (80 columns when it has none). Where a width
 * applies (a terminal, -w N) a longer row is cut with "..." and a
 * statement breaks at spaces; elsewhere (a pipe, a file, the web page,
 * the workbook, -f md: each lays the record out here with no width) a
 * line is given whole, and only a paragraph breaks, at 80. Which of a
 * statement's two wordings and how many of its parts fit the width, how
 * many of the kernels table's rows (through the text sink) and of the
 * opportunities after the first the screen has room for, are decided
 * here. --brief prints only this.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/brief.h"
#include "input/base/label.h"
#include "input/base/timefmt.h"
#include "report/report.h"
#include "report/report_text_int.h"
#include "report/version.h"

typedef struct {
	ts_brief_put put;        /* where each line goes */
	void *ctx;
	int width;               /* the layout's columns */
	bool cut;                /* lines past it are cut (a terminal, -w) */
	int lines;
	const ts_result *res;
	const ts_report_opts *o;
	const ts_brief *b;
	bool *hidden;            /* per statement: no room for it */
} screen;

/* lead spaces, then n bytes of text: one line of the screen */
static void put_line(screen *s, size_t lead, const char *text, size_t n)
{
	char buf[2 * 1024 + 64];
	int k = snprintf(buf, sizeof buf, "%*s%.*s", (int)lead, "", (int)n, text);
	s->put(s->ctx, buf, k < 0 ? 0 : (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
	s->lines++;
}

/* A row of a table or the title: one line, cut with "..." to the width
 * where one is set (a name is cut; its row keeps its columns). */
static void row(screen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void row(screen *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (s->cut && strlen(buf) > (size_t)s->width && s->width > 3)
		memcpy(buf + s->width - 3, "...", 4);
	put_line(s, 0, buf, strlen(buf));
}

/* A statement: never cut; past the width it breaks at spaces, each line
 * after the first indented two past the first's indent. */
static void line(screen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(screen *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	size_t w = (size_t)s->width, ind = strspn(buf, " ") + 2, lead = 0;
	char *at = buf;
	while (s->cut && strlen(at) + lead > w && w > ind + 20) {
		size_t cut = w - lead;
		while (cut > 10 && at[cut] != ' ')
			cut--;
		if (at[cut] != ' ')
			cut = w - lead;
		put_line(s, lead, at, cut);
		at += cut;
		while (*at == ' ')
			at++;
		lead = ind;
	}
	put_line(s, lead, at, strlen(at));
}

/* head and text on as many lines as the width needs (a verdict is never
 * cut: each line breaks at a space, the next indented ind); printed
 * where print, and the lines it takes returned either way. */
static int wrap_lines(screen *s, const char *head, const char *text, int ind, bool print)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s%s", head, text);
	const char *at = buf;
	size_t w = (size_t)s->width, lead = 0;
	int n = 1;
	while (strlen(at) + lead > w && w > (size_t)ind + 20) {
		size_t cut = w - lead;
		while (cut > 10 && at[cut] != ' ')
			cut--;
		if (at[cut] != ' ')
			cut = w - lead;
		if (print)
			line(s, "%*s%.*s", (int)lead, "", (int)cut, at);
		n++;
		at += cut;
		while (*at == ' ')
			at++;
		lead = (size_t)ind;
	}
	if (print)
		line(s, "%*s%s", (int)lead, "", at);
	return n;
}

static void wrap_all(screen *s, const char *head, const char *text, int ind)
{
	wrap_lines(s, head, text, ind, true);
}

/* A table of the table view (tview.h) as text (report_textsink.c), a
 * line of the screen each. */
static void put_table_lines(screen *s, const char *name, ts_text_table t)
{
	char *buf = NULL;
	size_t len = 0;
	t.out = open_memstream(&buf, &len);
	if (!t.out)
		return;
	ts_table_sink k = ts_text_sink(&t);
	ts_report_table(s->res, s->o, name, &k);
	fclose(t.out);
	for (const char *l = buf; l && *l; ) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		row(s, "%.*s", (int)n, l);
		l += n + (nl != NULL);
	}
	free(buf);
}

static void top_kernels_title(void *ctx, FILE *out, const char *group)
{
	(void)ctx, (void)group;
	fputs("Top kernels  kernel time  calls  category\n", out);
}

static void fmt_total_ms(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	ts_fmt_ms(buf, n, (double)ts_text_cell(t, row, "total_us")->i);
}

static void fmt_category16(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *c = ts_text_cell(t, row, "category");
	snprintf(buf, n, "%.*s", (int)(c->len < 16 ? c->len : 16), c->s ? c->s : "");
}

/* The lines a statement takes where the screen counts its room: a
 * paragraph as it breaks at the width, any other one line. */
static int stmt_lines(screen *s, const ts_brief_stmt *st)
{
	return st->kind == TS_BRIEF_WRAP ? wrap_lines(s, st->head, st->text, st->indent, false) : 1;
}

/* At the first statement of a section: those if_room past the screen's
 * room, counted from here, are hidden, and every if_room one after. */
static void fit_section(screen *s, size_t i)
{
	const ts_brief *b = s->b;
	int room = TS_BRIEF_LINES - s->lines;
	bool full = false;
	for (size_t j = i; j < b->n && b->s[j].section == b->s[i].section; j++) {
		room -= stmt_lines(s, &b->s[j]);
		full |= room < 0 && b->s[j].if_room;
		s->hidden[j] = full && b->s[j].if_room;
	}
}

/* Does a statement of statement i's section that is shown say what a
 * change saves? */
static bool saving_shown(const screen *s, size_t i)
{
	const ts_brief *b = s->b;
	for (size_t j = 0; j < b->n; j++)
		if (b->s[j].section == b->s[i].section && !s->hidden[j] && b->s[j].saves)
			return true;
	return false;
}

/* Statement i's words for the width: its text or its alt, then as many
 * of its parts as fit (in buf where it has parts). */
static const char *words(const screen *s, size_t i, char *buf, size_t n)
{
	const ts_brief_stmt *st = &s->b->s[i];
	const char *t = st->text;
	if ((st->alt_when == TS_BRIEF_ALT_NARROW && strlen(t) > (size_t)s->width) ||
	    (st->alt_when == TS_BRIEF_ALT_NO_SAVING && !saving_shown(s, i)))
		t = st->alt;
	if (!st->nparts)
		return t;
	size_t k = (size_t)snprintf(buf, n, "%s", t);
	for (size_t j = 0; j < st->nparts && k < n; j++) {
		const ts_brief_part *p = &st->parts[j];
		if (k + strlen(p->text) + (size_t)st->margin > (size_t)s->width) {
			if (p->rest)
				snprintf(buf + k, n - k, "%s", p->rest);
			break;
		}
		k += (size_t)snprintf(buf + k, n - k, "%s", p->text);
	}
	return buf;
}

/* The top kernels, the kernels table's first rows: three where the
 * screen has room beside what follows that it must show (the
 * opportunities' heading and first one), one at least. */
static void put_top_kernels(screen *s, size_t i)
{
	const ts_brief *b = s->b;
	int need = 0;
	for (size_t j = i + 1; j < b->n; j++)
		if (!b->s[j].if_room)
			need += stmt_lines(s, &b->s[j]);
	int rows = TS_BRIEF_LINES - s->lines - 1 - need;
	int most = (int)b->s[i].rows;
	rows = rows > most ? most : rows < 1 ? 1 : rows;
	static const ts_text_col cols[] = {
		{ .col = "pct", .width = 6, .decimals = 1, .suffix = "%" },
		{ .col = "total_us", .width = 11, .decimals = -1, .fmt = fmt_total_ms },
		{ .col = "count", .width = 6, .decimals = -1 },
		{ .col = "category", .width = -16, .decimals = -1, .gap = 2, .fmt = fmt_category16 },
		{ .col = "short", .decimals = -1, .place = TS_TEXT_NAME },
	};
	put_table_lines(s, "kernels", (ts_text_table){ .cols = cols, .ncols = sizeof cols / sizeof *cols,
						       .group = "", .heading = top_kernels_title,
						       .bare = true, .max_rows = (size_t)rows });
}

static void put_stmt(screen *s, size_t i)
{
	const ts_brief_stmt *st = &s->b->s[i];
	char buf[1024];
	switch (st->kind) {
	case TS_BRIEF_ROW:
		row(s, "%s", words(s, i, buf, sizeof buf));
		break;
	case TS_BRIEF_LINE:
		line(s, "%s", words(s, i, buf, sizeof buf));
		break;
	case TS_BRIEF_WRAP:
		wrap_all(s, st->head, st->text, st->indent);
		break;
	case TS_BRIEF_TABLE:
		if (strcmp(st->text, "kernels") == 0)
			put_top_kernels(s, i);
		break;
	}
}

ts_brief_opts ts_report_brief_opts(const ts_report_opts *o)
{
	return (ts_brief_opts){ .filter_stage = o->filter_stage, .stage = o->stage,
				.ranks = o->ranks };
}

int ts_report_brief_lines(const ts_result *res, const ts_report_opts *o, const ts_brief *b,
			  ts_brief_put put, void *ctx)
{
	screen s = { .put = put, .ctx = ctx, .width = o->width > 0 ? o->width : 80,
		     .cut = o->width > 0, .res = res, .o = o, .b = b,
		     .hidden = calloc(b->n + 1, sizeof *s.hidden) };
	if (!s.hidden)
		return -1;
	if (s.width < 60)
		s.width = 60;
	row(&s, "tracestream %s: %s", TS_VERSION, ts_path_label(res->path, true));
	for (size_t i = 0; i < b->n; i++) {
		if (i == 0 || b->s[i].section != b->s[i - 1].section)
			fit_section(&s, i);
		if (!s.hidden[i])
			put_stmt(&s, i);
	}
	free(s.hidden);
	return s.lines;
}

static void put_file(void *ctx, const char *line, size_t n)
{
	fwrite(line, 1, n, ctx);
	fputc('\n', ctx);
}

int ts_report_brief(FILE *out, const ts_result *res, const ts_report_opts *o, const ts_brief *b)
{
	return ts_report_brief_lines(res, o, b, put_file, out);
}
