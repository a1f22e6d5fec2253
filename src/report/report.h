/*
 * report.h - reporters: read a finished ts_result, write one format.
 *
 * Reporters never see the parser; they read aggregates only. They return 0,
 * or -1 when writing failed (the caller checks the stream too).
 */
#ifndef TS_REPORT_H
#define TS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/views/brief.h"
#include "analysis/views/compare.h"
#include "analysis/views/kview.h"
#include "analysis/views/ranks.h"
#include "analysis/views/result.h"
#include "analysis/views/tables/tview.h"
#include "input/base/timefmt.h"

typedef struct {
	int top;     /* kernel rows in text (0 = all) */
	int width;   /* text: shorten names to fit this many columns (0 = never) */
	int full_names; /* text: full kernel names instead of short ones */
	int show_layers;  /* text: the per-layer table */
	int debug_layers; /* text: the kernels of the --debug-layers layers */
	bool filter_stage; /* --stage: only kernels, layers and passes of... */
	ts_pstage stage;   /* ...this stage */
	bool verify_ops;   /* the OPERATOR COVERAGE section */
	bool ops_only;     /* text: the ops command (workloads and ops only) */
	bool brief;        /* text: the first screen only */
	const ts_multi *ranks; /* a job over ranks: its rank table and skew
				* follow (text) or join (JSON) the report */
} ts_report_opts;

int ts_report_text(FILE *out, const ts_result *res, const ts_report_opts *o);
int ts_report_json(FILE *out, const ts_result *res, const ts_report_opts *o);

/* tracestream compare: two results side by side (compare.h). */
int ts_report_compare_text(FILE *out, const ts_compare *c, const ts_report_opts *o);
int ts_report_compare_json(FILE *out, const ts_compare *c, const ts_report_opts *o);

/* --- helpers shared by the reporters (report.c) --- */

/* The kernel view of a report's options (--stage). */
ts_kview ts_report_view(const ts_result *res, const ts_report_opts *o);

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0 when it is
 * not one: overlong forms, surrogates (ED A0 80 ..) and code points past
 * U+10FFFF are not. */
size_t ts_utf8_len(const unsigned char *s, size_t n);

/* Exact microseconds from nanoseconds: ts_fmt_us (input/base/timefmt.h). */

/* Short names told apart: ts_kview_short_names (kview.h). */

/* --- the report's tables (analysis/views/tables/tview.h), rendered --- */

/* A numeric cell as its text, the same in every format (integers, exact
 * microseconds with three decimals, fixed decimals, never an exponent):
 * its length, or 0 when the cell is not a number (text, null, not finite).
 * A boolean is "true" or "false". */
size_t ts_cell_number(const ts_cell *c, char *buf, size_t n);

/* ts_tview_applies and ts_tview_table with a report's options. */
bool ts_report_table_applies(const ts_result *res, const ts_report_opts *o, const char *name);
int ts_report_table(const ts_result *res, const ts_report_opts *o, const char *name,
		    const ts_table_sink *sink);

/* JSON documents are written through one writer (jsonw.h). */
typedef struct ts_jw ts_jw;

/* The replayed steps (report_whatif.c): JSON "whatif" and the text
 * report's section. */
void ts_report_whatif_json(ts_jw *w, const ts_result *res, const ts_report_opts *o);
/* Device memory (report_memory.c): the JSON member "device_memory" (null
 * without allocator events). */
void ts_report_memory_json(ts_jw *w, const ts_result *res);
void ts_report_whatif_text(FILE *out, const ts_result *res, const ts_report_opts *o);

/* The members every JSON document of ours starts with: schema, mode (when
 * not NULL), tool, version, stage_filter; the top-level object left open
 * (report_json.c). */
void ts_report_json_head(ts_jw *w, const char *mode, bool staged, ts_pstage stage);

/* One table as the JSON report's member key: an array of objects keyed by
 * the table's columns, one a line (report_tabfmt.c). 0, or -1 when the
 * table could not be written. */
int ts_report_json_table(ts_jw *w, const ts_result *res, const ts_report_opts *o,
			 const char *key, const char *name);

/* One table as CSV (RFC 4180: a header row, CRLF line ends, fields quoted
 * when they hold a comma, quote, CR or LF; numbers in plain decimal). */
/* A sink writing CSV to out. */
ts_table_sink ts_csv_sink(FILE *out);
int ts_report_csv(FILE *out, const ts_result *res, const ts_report_opts *o, const char *table);
int ts_report_compare_csv(FILE *out, const ts_compare *c, const char *table);

/* The report as one self-contained web page (report_html.c): the first
 * screen, charts as inline SVG, every table sortable. */
int ts_report_html(FILE *out, const ts_result *res, const ts_report_opts *o);
/* compare as a web page: totals, op groups and layers side by side, the
 * gap waterfall, the tables. */
int ts_report_compare_html(FILE *out, const ts_compare *c, const ts_report_opts *o);

/* The JSON Schema of the JSON report: docs/report.schema.json, built in
 * (the Makefile writes it as a C string). */
extern const char ts_report_schema[];

/* The report for an agent (report_md.c): the first screen, then its
 * figures in Markdown tables, each with its unit and JSON field. */
int ts_report_md(FILE *out, const ts_result *res, const ts_report_opts *o);

/* The JSON report rendered in memory and parsed back (yajl's tree: free
 * it with yajl_tree_free), NULL where it cannot be; and the value at a
 * dotted path of such a tree ("stages.decode.steps.wall_p50_us",
 * "kernels.0.total_us": a number is an array index), NULL where none
 * (report_md.c: every figure -f md cites is read there, so a cited field
 * holds exactly the value shown). */
struct yajl_val_s;
struct yajl_val_s *ts_report_json_tree(const ts_result *res, const ts_report_opts *o);
struct yajl_val_s *ts_report_json_at(struct yajl_val_s *v, const char *path);

/* The report as an Excel workbook written to path (report_xlsx.c): a
 * summary sheet, then every table, ops per stage too. */
int ts_report_xlsx(const char *path, const ts_result *res, const ts_report_opts *o);

/* The first screen (analysis/views/brief.h) laid out for o's width
 * (report_brief.c): each line, without its newline, to put; returns the
 * lines, -1 where memory ran out. The page, the workbook and -f md lay it
 * out with no width (o->width 0: lines whole, as on a pipe). */
typedef void (*ts_brief_put)(void *ctx, const char *line, size_t n);
int ts_report_brief_lines(const ts_result *res, const ts_report_opts *o, const ts_brief *b,
			  ts_brief_put put, void *ctx);
/* The same to out, a line each. */
int ts_report_brief(FILE *out, const ts_result *res, const ts_report_opts *o, const ts_brief *b);
/* The record's options of a report's (--stage, a job's ranks). */
ts_brief_opts ts_report_brief_opts(const ts_report_opts *o);

/* A job over many ranks (multi.h): the rank table, skew, straggler, as a
 * text section, and as the JSON members "ranks" and "skew" of the open
 * top-level object. */
int ts_report_ranks_text(FILE *out, const ts_multi *m);
/* What makes the traces look like more or less than one job (world sizes
 * differ, ranks missing, different GPUs): one line each, at most max. */
size_t ts_report_job_notes(const ts_multi *m, char (*notes)[160], size_t max);
/* The straggler as one sentence, with its evidence (no trailing period). */
void ts_report_straggler(const ts_multi *m, char *buf, size_t n);
/* How a job's ranks were numbered, as every format says it. */
const char *ts_report_job_numbering(const ts_multi *m);
void ts_report_ranks_json(ts_jw *w, const ts_multi *m);

/* The devprop that describes the device the kernels ran on, or NULL. */
const ts_devprop *ts_report_devprop(const ts_result *res);

#endif
