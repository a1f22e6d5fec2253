/*
 * tview_int.h - what the table view's files share: a cell of each kind
 * (c_str, c_us, c_opt_num: null where the figure is not known), a share
 * in percent, a table begun and a row sent with its columns counted, and
 * the tables each file builds (tview.c dispatches by name). Private to
 * analysis/views/tables.
 */
#ifndef TS_TVIEW_INT_H
#define TS_TVIEW_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "analysis/views/kview.h"
#include "analysis/views/tables/tview.h"

static inline ts_cell c_str(const char *s, size_t len)
{
	return (ts_cell){ .kind = s ? TS_CELL_STR : TS_CELL_NULL, .s = s, .len = len };
}

static inline ts_cell c_cstr(const char *s)
{
	return c_str(s, s ? strlen(s) : 0);
}

static inline ts_cell c_int(int64_t v)
{
	return (ts_cell){ .kind = TS_CELL_INT, .i = v };
}

static inline ts_cell c_uint(uint64_t v)
{
	return (ts_cell){ .kind = TS_CELL_UINT, .u = v };
}

static inline ts_cell c_bool(bool b)
{
	return (ts_cell){ .kind = TS_CELL_BOOL, .u = b };
}

static inline ts_cell c_us(int64_t ns)
{
	return (ts_cell){ .kind = TS_CELL_US, .i = ns };
}

static inline ts_cell c_num(double v, int decimals)
{
	return (ts_cell){ .kind = TS_CELL_NUM, .d = v, .decimals = decimals };
}

static inline ts_cell c_null(void)
{
	return (ts_cell){ .kind = TS_CELL_NULL };
}

static inline ts_cell c_opt_int(bool known, int64_t v)
{
	return known ? c_int(v) : c_null();
}

static inline ts_cell c_opt_num(bool known, double v, int decimals)
{
	return known ? c_num(v, decimals) : c_null();
}

static inline ts_cell c_ratio(double r)
{
	return r >= 0 ? c_num(r, 3) : c_null();
}

static inline double share(int64_t part, int64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

#define BEGIN(sink, name, cols) \
	(sink)->begin((sink)->ctx, (name), (cols), sizeof(cols) / sizeof *(cols))
#define ROW(sink, cells) (sink)->row((sink)->ctx, (cells), sizeof(cells) / sizeof *(cells))

/* Each table of a result to k (begun, rows, not ended: tview.c ends it);
 * 0, or -1 when the sink failed or memory ran out. One shape for every
 * table: what it reads of the result, the options (the ranks of a job)
 * and the kernel view (the stage it is restricted to). */
typedef int ts_tview_fn(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			const ts_table_sink *k);
/* tview_kernels.c: the kernel rows, by type and category, those no rule
 * knew, memory operations */
ts_tview_fn ts_tview_kernels;
ts_tview_fn ts_tview_types, ts_tview_categories;
ts_tview_fn ts_tview_unclassified;
ts_tview_fn ts_tview_memory;
/* tview_attrib.c: the attribution's ops and workloads, --capture's replays */
ts_tview_fn ts_tview_ops;
ts_tview_fn ts_tview_workloads;
ts_tview_fn ts_tview_replays;
/* tview_passes.c: the layer machine's layers, passes, stages and gaps,
 * and the opportunities */
ts_tview_fn ts_tview_layers;
ts_tview_fn ts_tview_passes;
ts_tview_fn ts_tview_stages;
ts_tview_fn ts_tview_gaps;
ts_tview_fn ts_tview_opportunities;
/* tview_calls.c: runtime calls and collectives */
ts_tview_fn ts_tview_api;
ts_tview_fn ts_tview_collectives;
/* tview_memory.c: device memory (memory.h) */
ts_tview_fn ts_tview_device_memory;
ts_tview_fn ts_tview_memory_passes;
ts_tview_fn ts_tview_memory_owners;
/* tview_ranks.c: a job over ranks */
ts_tview_fn ts_tview_ranks;
ts_tview_fn ts_tview_skew;

#endif
