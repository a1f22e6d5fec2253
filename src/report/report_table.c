/*
 * report_table.c - the report's tables through a report's options: the
 * table view's rows (analysis/views/tables/tview.h) for its --stage and
 * its job's ranks, and a numeric cell as every format writes it. What a
 * table holds is said there; the formats here only render cells.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"

static ts_tview_opts tview_opts(const ts_report_opts *o)
{
	return (ts_tview_opts){ .staged = o->filter_stage, .stage = o->stage, .ranks = o->ranks };
}

bool ts_report_table_applies(const ts_result *res, const ts_report_opts *o, const char *name)
{
	ts_tview_opts t = tview_opts(o);
	return ts_tview_applies(res, &t, name);
}

int ts_report_table(const ts_result *res, const ts_report_opts *o, const char *name,
		    const ts_table_sink *sink)
{
	ts_tview_opts t = tview_opts(o);
	return ts_tview_table(res, &t, name, sink);
}

size_t ts_cell_number(const ts_cell *c, char *buf, size_t n)
{
	int k = -1;
	switch (c->kind) {
	case TS_CELL_INT:
		k = snprintf(buf, n, "%" PRId64, c->i);
		break;
	case TS_CELL_UINT:
		k = snprintf(buf, n, "%" PRIu64, c->u);
		break;
	case TS_CELL_US:
		ts_fmt_us(buf, n, c->i);
		k = (int)strlen(buf);
		break;
	case TS_CELL_NUM:
		if (isfinite(c->d))
			k = snprintf(buf, n, "%.*f", c->decimals, c->d);
		break;
	case TS_CELL_BOOL:
		k = snprintf(buf, n, "%s", c->u ? "true" : "false");
		break;
	default:
		break;
	}
	return k > 0 && (size_t)k < n ? (size_t)k : 0;
}
