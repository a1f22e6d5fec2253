/*
 * brief.h - the first screen as a record: what the trace is, how much
 * graph replay got its ops back (--capture), the time per pass by stage
 * with its busy and idle share, the typical layer of each stage taken
 * apart, the top categories, where the top kernels go, and the largest
 * opportunities (insight.h), as an ordered list of statements.
 *
 * Built once from a finished result (ts_brief_build) and read by every
 * reporter that shows the first screen: the text report lays it out for
 * its width (report_brief.c), the page, the workbook and -f md the same
 * way for 80 columns. A statement holds its words whole; nothing here
 * knows a width: cutting a row with "...", breaking a statement at
 * spaces, which of two wordings fits and how many statements the screen
 * has room for are the layout's, from what each statement says of itself
 * (its kind, narrow, parts, if_room). A new analysis reaches the first
 * screen by adding its statements to ts_brief_build, in its section.
 *
 * A statement resting on figures carries them (value, unit and the field
 * of the JSON report that holds it, where one does: bf_figure), as the
 * pass times and the opportunities do; a new statement with a figure of
 * the JSON report cites it so.
 */
#ifndef TS_BRIEF_H
#define TS_BRIEF_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/views/kview.h"
#include "analysis/views/ranks.h"
#include "analysis/views/result.h"

typedef enum {
	TS_BRIEF_HEAD,           /* a partial report; traces not of one job */
	TS_BRIEF_WHAT,           /* the trace, GPU, model, passes and layers found */
	TS_BRIEF_OVERLAP,        /* computation, communication, copies: what hid what */
	TS_BRIEF_MEMORY,         /* device memory: peaks, cache, growth a pass */
	TS_BRIEF_REPLAYS,        /* --capture: how much graph replay got its ops back */
	TS_BRIEF_PASS_TIMES,     /* time per pass by stage, busy and idle */
	TS_BRIEF_ANATOMY,        /* the typical layer of each stage taken apart */
	TS_BRIEF_CATEGORIES,     /* the top categories */
	TS_BRIEF_TOP_KERNELS,    /* the kernels table's first rows */
	TS_BRIEF_OPPORTUNITIES,  /* the largest opportunities (insight.h) */
	TS_BRIEF_SECTIONS
} ts_brief_section;

typedef enum {
	TS_BRIEF_ROW,    /* a row of a table: one line, cut with "..." where a
			  * width applies (a terminal, -w N) */
	TS_BRIEF_LINE,   /* a statement: never cut; past a width that applies
			  * it breaks at spaces, each line after the first
			  * indented two past its own indent */
	TS_BRIEF_WRAP,   /* head then text, broken at spaces at the layout's
			  * width (80 columns where none applies), the lines
			  * after the first indented `indent` */
	TS_BRIEF_TABLE   /* the place of a table's first rows (table, at most
			  * rows of them, fewer where the statements after it
			  * that are not if_room need the room) */
} ts_brief_kind;

/* When a statement says alt instead of text. */
typedef enum {
	TS_BRIEF_ALT_NONE,
	TS_BRIEF_ALT_NARROW,     /* text is longer than the layout's width */
	TS_BRIEF_ALT_NO_SAVING   /* no statement of its section shown has saves */
} ts_brief_alt;

/* One of the words a statement lists (a category and its share): where
 * the line with it would pass the layout's width less the statement's
 * margin, rest stands for it and every part after it, and the line ends
 * there (NULL: the line just ends). */
typedef struct {
	char *text;
	char *rest;
} ts_brief_part;

#define TS_BRIEF_FIGURES 4

typedef struct {
	double value;
	const char *unit;            /* "us", "%", "tokens/s" */
	char field[96];              /* in the JSON report ("stages.decode.
				      * steps.wall_p50_us"); "" none */
} ts_brief_figure;

typedef struct {
	ts_brief_section section;
	ts_brief_kind kind;
	char *head;                  /* TS_BRIEF_WRAP: its first line's lead */
	char *text;                  /* TS_BRIEF_TABLE: the table's name */
	int indent;                  /* TS_BRIEF_WRAP */
	ts_brief_alt alt_when;
	char *alt;
	ts_brief_part *parts;        /* after text, as many as fit */
	size_t nparts;
	int margin;
	bool if_room;                /* shown where the screen (TS_BRIEF_LINES)
				      * has room for it after what comes
				      * before it in its section */
	bool saves;                  /* says what a change saves (replayed),
				      * not the time at stake */
	size_t rows;                 /* TS_BRIEF_TABLE: at most */
	ts_brief_figure fig[TS_BRIEF_FIGURES];
	size_t nfig;
} ts_brief_stmt;

typedef struct {
	ts_brief_stmt *s;
	size_t n, cap;
	bool nomem;                  /* a statement was lost to memory */
} ts_brief;

/* The lines a first screen takes at most: the layout fits the kernels'
 * rows and the opportunities after the first to it. */
#define TS_BRIEF_LINES 25

typedef struct {
	bool filter_stage;           /* --stage: only this stage's */
	ts_pstage stage;
	const ts_multi *ranks;       /* a job over ranks, or NULL */
} ts_brief_opts;

/* The first screen of res under o; v and b are the report's kernel view
 * and its breakdown (kview.h). *out is written over, not freed. 0, or -1
 * when memory ran out (what was built stays in *out). Free with
 * ts_brief_free either way. */
int ts_brief_build(const ts_result *res, const ts_brief_opts *o, const ts_kview *v,
		   const ts_breakdown *b, ts_brief *out);
/* The same, making the view and breakdown of o itself. */
int ts_brief_of(const ts_result *res, const ts_brief_opts *o, ts_brief *out);
void ts_brief_free(ts_brief *b);

#endif
