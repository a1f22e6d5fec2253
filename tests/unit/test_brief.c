/*
 * The first screen's record (analysis/views/brief.h), built from the
 * bundled sample (tests/data/sample_trace.json.gz: its generator's
 * truth, sample_trace.truth.json, has the answers): the GPU, rank, pass
 * and kernel counts and busy time in its words; sections in order; each
 * figure it cites holding the value at that field of the JSON report;
 * what it leaves to the layout (the kernels table's place, the narrow
 * wordings, the parts, the opportunities after the first); and its
 * layout: in at most TS_BRIEF_LINES lines with no width, within the
 * columns of one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_tree.h>

#include "pipeline.h"
#include "report/report.h"
#include "unit.h"
#include "unit_tables.h"

/* The number at a dotted path of the JSON report ("opportunities.0.
 * saves_us"); NAN where none. */
static double json_at(yajl_val root, const char *path)
{
	yajl_val v = ts_report_json_at(root, path);
	return v && YAJL_IS_NUMBER(v) ? YAJL_GET_DOUBLE(v) : NAN;
}

/* The first statement of a section, or NULL. */
static const ts_brief_stmt *first_of(const ts_brief *b, ts_brief_section sec)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->s[i].section == sec)
			return &b->s[i];
	return NULL;
}

static void what(const ts_brief *b)
{
	const ts_brief_stmt *w = first_of(b, TS_BRIEF_WHAT);
	CHECK(w && w->kind == TS_BRIEF_LINE && strstr(w->text, "NVIDIA B300 SXM6 AC (148 SMs), rank 0/4"),
	      "the GPU, its 148 SMs and rank 0 of 4, as the truth has them: %s", w ? w->text : "-");
	/* 3 steps of 48 layers; 2199 kernels; busy 21945385 ns of 21951834:
	 * within 1%, so one time, 21.95 ms */
	CHECK(w && w + 1 < b->s + b->n && strcmp(w[1].text, "  passes 3 decode of 48 layers; 2199 "
						  "kernels, 21.95 ms busy and kernel time") == 0,
	      "3 decode passes of 48 layers, 2199 kernels, 21.95 ms busy: %s",
	      w && w + 1 < b->s + b->n ? w[1].text : "-");
}

static void order(const ts_brief *b)
{
	int bad = 0;
	for (size_t i = 1; i < b->n; i++)
		bad += b->s[i].section < b->s[i - 1].section;
	CHECK(b->n > 10 && bad == 0 && !b->nomem, "%zu statements, their sections in the screen's order",
	      b->n);
	const ts_brief_stmt *k = first_of(b, TS_BRIEF_TOP_KERNELS);
	CHECK(k && k->kind == TS_BRIEF_TABLE && strcmp(k->text, "kernels") == 0 && k->rows == 3,
	      "the top kernels: the place of the kernels table's first three rows");
	const ts_brief_stmt *c = first_of(b, TS_BRIEF_CATEGORIES);
	CHECK(c && strcmp(c->text, "Top categories") == 0 && c->nparts >= 3 &&
	      strncmp(c->parts[0].text, " MoE-GEMM ", 10) == 0 && !c->parts[0].rest,
	      "the categories as parts for the layout to fit, the largest (MoE-GEMM) first");
	const ts_brief_stmt *a = first_of(b, TS_BRIEF_ANATOMY);
	CHECK(a && a->alt_when == TS_BRIEF_ALT_NARROW && strstr(a->text, "(p50 ") && !strstr(a->alt, "(p50 "),
	      "the typical layer's line, and without its p50 where it would not fit");
	const ts_brief_stmt *t = a && a + 1 < b->s + b->n ? a + 1 : NULL;
	CHECK(t && t->section == TS_BRIEF_ANATOMY && t->nparts > 1 && t->margin == 16 &&
	      strncmp(t->parts[0].text, "moe ", 4) == 0 && strncmp(t->parts[1].rest, ", rest ", 7) == 0 &&
	      strcmp(t->parts[t->nparts - 1].rest, t->parts[t->nparts - 1].text) == 0,
	      "the typical layer's kernel types, moe first, each with the rest it stands for");
}

/* Every figure cited holds what the JSON report has at its field. */
static void figures(const ts_brief *b, yajl_val root)
{
	size_t cited = 0, bad = 0;
	bool wall = false, opp = false;
	for (size_t i = 0; i < b->n; i++)
		for (size_t j = 0; j < b->s[i].nfig; j++) {
			const ts_brief_figure *f = &b->s[i].fig[j];
			if (!f->field[0])
				continue;
			double v = json_at(root, f->field);
			cited++;
			bad += !(fabs(v - f->value) <= 5e-4 * fmax(1.0, fabs(v)));
			wall |= strcmp(f->field, "stages.decode.steps.wall_p50_us") == 0 &&
				b->s[i].kind == TS_BRIEF_ROW;
			opp |= strcmp(f->field, "opportunities.0.saves_us") == 0 && b->s[i].saves;
		}
	CHECK(root && cited >= 5 && bad == 0, "%zu figures cited, each the JSON report's value at its field",
	      cited);
	CHECK(wall, "the decode row cites stages.decode.steps.wall_p50_us");
	CHECK(opp, "the first opportunity cites what it saves, opportunities.0.saves_us");
}

static void opportunities(const ts_brief *b)
{
	const ts_brief_stmt *h = first_of(b, TS_BRIEF_OPPORTUNITIES);
	size_t n = 0, room = 0;
	for (size_t i = 0; h && i < b->n; i++)
		if (b->s[i].section == TS_BRIEF_OPPORTUNITIES && b->s[i].kind == TS_BRIEF_WRAP) {
			room += b->s[i].if_room;
			n++;
		}
	CHECK(h && h->alt_when == TS_BRIEF_ALT_NO_SAVING && strstr(h->alt, "time at stake") &&
	      n >= 1 && n <= 3 && room == n - 1 && strncmp(h[1].head, " 1. ", 4) == 0,
	      "the opportunities' heading, then %zu, those after the first where there is room", n);
}

static int lines;
static size_t widest;

static void count(void *ctx, const char *line, size_t n)
{
	(void)ctx, (void)line;
	lines++;
	widest = n > widest ? n : widest;
}

int main(void)
{
	ts_patterns *pats = unit_tables();
	if (!pats)
		return 1;
	ts_pipeline_opts po = { .limits = ts_limits_default(), .patterns = pats };
	ts_result res;
	ts_status st = ts_pipeline_run("tests/data/sample_trace.json.gz", &po, &res);
	CHECK(st == TS_OK, "the sample analyses");
	if (st != TS_OK)
		return 1;
	ts_report_opts o = { 0 };
	ts_brief b;
	ts_brief_opts bo = ts_report_brief_opts(&o);
	int rc = ts_brief_of(&res, &bo, &b);   /* CHECK reads its condition twice */
	CHECK(rc == 0, "the record builds");
	what(&b);
	order(&b);
	yajl_val root = ts_report_json_tree(&res, &o);
	figures(&b, root);
	yajl_tree_free(root);
	opportunities(&b);
	int n = ts_report_brief_lines(&res, &o, &b, count, NULL);
	CHECK(n == lines && n > 15 && n <= TS_BRIEF_LINES, "laid out with no width: %d lines, at most %d",
	      n, TS_BRIEF_LINES);
	lines = 0;
	widest = 0;
	o.width = 60;
	n = ts_report_brief_lines(&res, &o, &b, count, NULL);
	CHECK(n == lines && widest <= 60, "laid out for 60 columns: no line past them (%d lines, the "
	      "widest %zu: rows cut, statements broken at spaces)", n, widest);
	ts_brief_free(&b);
	CHECK(b.n == 0 && b.s == NULL, "freed, the record is empty");
	ts_result_free(&res);
	ts_patterns_free(pats);
	return unit_failed != 0;
}
