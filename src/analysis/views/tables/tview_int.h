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
 * 0, or -1 when the sink failed or memory ran out. */
/* tview_kernels.c: the kernel rows, by type and category, those no rule
 * knew, memory operations */
int ts_tview_kernels(const ts_result *res, const ts_kview *v, const ts_table_sink *k);
int ts_tview_buckets(const ts_result *res, const ts_kview *v, const ts_table_sink *k, bool cats);
int ts_tview_unclassified(const ts_kview *v, const ts_table_sink *k);
int ts_tview_memory(const ts_result *res, const ts_kview *v, const ts_table_sink *k);
/* tview_attrib.c: the attribution's ops and workloads, --capture's replays */
int ts_tview_ops(const ts_result *res, const ts_kview *v, const ts_table_sink *k);
int ts_tview_workloads(const ts_result *res, const ts_kview *v, const ts_table_sink *k);
int ts_tview_replays(const ts_result *res, const ts_table_sink *k);
/* tview_passes.c: the layer machine's layers, passes, stages and gaps,
 * and the opportunities */
int ts_tview_layers(const ts_result *res, const ts_kview *v, const ts_table_sink *k);
int ts_tview_passes(const ts_result *res, const ts_kview *v, const ts_table_sink *k);
int ts_tview_stages(const ts_result *res, const ts_table_sink *k);
int ts_tview_gaps(const ts_result *res, const ts_kview *v, const ts_table_sink *k);
int ts_tview_opportunities(const ts_result *res, const ts_kview *v, const ts_table_sink *k);
/* tview_calls.c: runtime calls and collectives */
int ts_tview_api(const ts_result *res, const ts_table_sink *k);
int ts_tview_collectives(const ts_result *res, const ts_kview *v, const ts_table_sink *k);
/* tview_memory.c: device memory (memory.h) */
int ts_tview_device_memory(const ts_result *res, const ts_table_sink *k);
int ts_tview_memory_passes(const ts_result *res, const ts_table_sink *k);
int ts_tview_memory_owners(const ts_result *res, const ts_table_sink *k);
/* tview_ranks.c: a job over ranks */
int ts_tview_ranks(const ts_multi *m, const ts_table_sink *k);
int ts_tview_skew(const ts_multi *m, const ts_table_sink *k);

#endif
