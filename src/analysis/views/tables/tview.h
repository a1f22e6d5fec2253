/*
 * tview.h - the report's tables as rows of typed cells: the one place that
 * says what each table holds (kernels, types, categories, ops, workloads,
 * layers, passes, stages, memory, collectives, runtime calls, ...; with
 * --capture the graph replays; for a job over ranks the rank table and
 * the skew; compare's tables), built from a finished result and sent to
 * a sink. Figures are those of the JSON report: the same views, the same
 * order. The formats (the text report's tables, CSV, the JSON tables, the
 * workbook, the page) are sinks: they render the cells and compute
 * nothing.
 *
 * A cell's string is borrowed for the row call: a sink that keeps it
 * copies it. Nothing here prints.
 */
#ifndef TS_TVIEW_H
#define TS_TVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/views/compare.h"
#include "analysis/views/ranks.h"
#include "analysis/views/result.h"

typedef enum { TS_CELL_NULL, TS_CELL_STR, TS_CELL_INT, TS_CELL_UINT, TS_CELL_US,
	       TS_CELL_NUM, TS_CELL_BOOL } ts_cell_kind;

typedef struct {
	ts_cell_kind kind;
	int decimals;              /* TS_CELL_NUM: digits after the point */
	const char *s;             /* TS_CELL_STR: s[0..len), any bytes */
	size_t len;
	int64_t i;                 /* TS_CELL_INT; TS_CELL_US: nanoseconds */
	uint64_t u;                /* TS_CELL_UINT; TS_CELL_BOOL: 0 or 1 */
	double d;                  /* TS_CELL_NUM */
} ts_cell;

/* Where a table goes: begin with its column names (units in the names:
 * total_us), one call per row, end. Each returns 0, or -1 to stop. */
typedef struct {
	void *ctx;
	int (*begin)(void *ctx, const char *table, const char *const *cols, size_t ncols);
	int (*row)(void *ctx, const ts_cell *cells, size_t ncells);
	int (*end)(void *ctx);
} ts_table_sink;

/* Which rows: every stage's or one stage's (--stage), and a job's ranks
 * (NULL: one trace; the ranks and skew tables have no rows). */
typedef struct {
	bool staged;
	ts_pstage stage;
	const ts_multi *ranks;
} ts_tview_opts;

/* The table names, NULL-terminated: kernels, types, categories, ... */
extern const char *const ts_tview_tables[];
bool ts_tview_known(const char *name);
/* Does the result have this table to show? replays: only with --capture;
 * ranks and skew: only for a job over ranks (o->ranks); the device memory
 * tables only with allocator events. --csv-dir, the workbook and the page
 * leave out those that do not apply; --table NAME gives their header
 * alone. */
bool ts_tview_applies(const ts_result *res, const ts_tview_opts *o, const char *name);
/* Send one table of the result (o's rows) to sink: 0, -1 when the sink
 * failed, -2 for an unknown name. */
int ts_tview_table(const ts_result *res, const ts_tview_opts *o, const char *name,
		   const ts_table_sink *sink);

/* The collectives table's rows of collectives kept by kind, message size
 * and group (the rows of calls past them, per kind, aside): what a
 * report that shows the table's first rows says the rest of. */
size_t ts_tview_collectives_kept(const ts_result *res);
/* The collectives of kind unknown: calls of a kernel whose name hides which
 * collective it ran (RCCL's generic kernel) that no op said. */
uint64_t ts_tview_collectives_unknown(const ts_result *res);
/* The api table's rows: the runtime and driver calls by name. */
size_t ts_tview_api_rows(const ts_result *res);

/* The launches table, streamed: its header, then a row per kernel as the
 * layer machine stages it (ts_layers_opts.launch), while the trace is
 * read. */
int ts_tview_launches_begin(const ts_table_sink *k);
int ts_tview_launch_row(const ts_result *res, const ts_launch *x, const ts_table_sink *k);

/* compare's tables: ops (operation groups A against B), layers,
 * alignment, collectives; as ts_tview_table. */
extern const char *const ts_tview_compare_tables[];
int ts_tview_compare_table(const ts_compare *c, const char *name, const ts_table_sink *sink);

#endif
