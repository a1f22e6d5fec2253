/*
 * report_text_int.h - what the two text reports share (report_text.c,
 * report_text_cmp.c) and no one else.
 */
#ifndef TS_REPORT_TEXT_INT_H
#define TS_REPORT_TEXT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"

/* Exact microseconds from integer ns, in buf. */
const char *ts_text_us(char *buf, size_t n, int64_t ns);
/* A byte count as "512 B", "8.4 KB", "1.25 MB", "2.00 GB". */
void ts_text_bytes(char *buf, size_t n, double b);
/* A kernel name for a terminal, shortened to at most w bytes (0: whole). */
void ts_text_name(FILE *out, const char *s, size_t len, int w);

struct ts_text_table;

/*
 * A section of the text report that is a table of the table view
 * (tview.h): how each column it shows looks. The column col of the table (NULL: a blank
 * one), under title,
 * width columns wide (negative: left-aligned) after gap spaces (0: one,
 * negative: none);
 * a number with decimals places (-1: the cell's own) and suffix after it
 * (NULL: none);
 * place: TS_TEXT_CELL a column; TS_TEXT_NAME the kernel name column,
 * last, shortened to the report width (name_width) and not padded;
 * TS_TEXT_BELOW a line of its own under the row, indented width spaces,
 * where the cell has text (no title).
 */
#define TS_TEXT_MAX_COLS 16
#define TS_TEXT_BYTES (-2)      /* decimals: a byte count, as ts_text_bytes */

typedef enum { TS_TEXT_CELL, TS_TEXT_NAME, TS_TEXT_BELOW } ts_text_place;

typedef struct {
	const char *col;
	const char *title;
	int width;
	int decimals;
	const char *suffix;
	ts_text_place place;
	int gap;
	/* the text of a cell that needs more of its row (NULL: the cell's) */
	void (*fmt)(const struct ts_text_table *t, const ts_cell *row, char *buf, size_t n);
	/* a below line of no bounded length (full kernel names) printed by
	 * itself, indent included; nothing where it has none */
	void (*put)(const struct ts_text_table *t, const ts_cell *row, FILE *out);
} ts_text_col;

/* The width of a row before its name column (TS_TEXT_NAME), gaps
 * included: what a width leaves the names. */
int ts_text_lead_width(const ts_text_col *cols, size_t n);

/* Where a table goes as text. A change in the group column (a stage)
 * opens a section: heading prints its title lines, then the column titles
 * follow; a group that is no column ("") makes one section, opened at the
 * first row. At most max_rows rows (0: all); with none, the column titles
 * alone (nothing where there is a group). */
typedef struct ts_text_table {
	FILE *out;
	const ts_text_col *cols;
	size_t ncols;
	const char *group;
	void (*heading)(void *ctx, FILE *out, const char *group);
	void *ctx;
	size_t max_rows;
	int name_width;
	bool bare;              /* no column titles (the heading has its own) */
	/* a row to show (NULL: every one) */
	bool (*keep)(const struct ts_text_table *t, const ts_cell *row);
	/* the sink's own */
	const char *const *tcols;
	size_t ntcols;
	int idx[TS_TEXT_MAX_COLS], gidx;
	size_t rows;            /* rows shown so far: the index of the row in fmt */
	char group_at[64];
} ts_text_table;

ts_table_sink ts_text_sink(ts_text_table *t);
/* The cell of row under the table's column col (a null cell when none). */
const ts_cell *ts_text_cell(const ts_text_table *t, const ts_cell *row, const char *col);

#endif
