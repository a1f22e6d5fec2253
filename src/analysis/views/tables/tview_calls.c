/*
 * tview_calls.c - the tables of calls (tview.h): runtime and driver calls
 * by name, with the synchronizing ones placed in their passes; and the
 * collectives by kind, message size and group.
 */
#include <stdlib.h>

#include "analysis/views/sview.h"
#include "analysis/views/tables/tview_int.h"
#include "input/base/satmath.h"

/* The runtime and driver calls by name, by total time (nsys stats'
 * cuda_api_sum): calls, total, share, mean, median, min, max; whether a
 * call makes the CPU wait for the GPU, and how many of those calls (and
 * their time) fell inside a pass's CPU window. All stages. */
int ts_tview_api(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		 const ts_table_sink *k)
{
	(void)o, (void)v;
	static const char *const cols[] = { "name", "calls", "total_us", "pct", "avg_us", "p50_us",
					    "min_us", "max_us", "sync", "in_passes", "in_passes_us" };
	int rc = BEGIN(k, "api", cols);
	size_t n = 0, ns = 0;
	uint64_t unkept;
	size_t *order = res->api ? ts_api_order(res->api, &n) : NULL;
	const ts_api_sync *sy = res->api ? ts_api_syncs(res->api, &ns, &unkept) : NULL;
	int32_t *at = ns ? malloc(ns * sizeof *at) : NULL;
	int64_t *in = ns ? malloc(ns * sizeof *in) : NULL;
	if (ns && (!at || !in || !ts_syncs_place(res->layers, res->api, at, in)))
		ns = 0;
	int64_t all = ts_api_total_ns(res->api);
	for (size_t i = 0; order && i < n && rc == 0; i++) {
		const ts_api_row *r = ts_api_row_at(res->api, order[i]);
		const ts_stat *s = &r->stat;
		uint64_t inside = 0;
		int64_t inside_ns = 0;
		for (size_t j = 0; j < ns; j++)
			if (sy[j].row == order[i] && at[j] >= 0) {
				inside++;
				inside_ns = ts_sat_add(inside_ns, in[j]);
			}
		ts_cell row[] = {
			c_cstr(r->name), c_uint(s->count), c_us(s->total), c_num(share(s->total, all), 2),
			c_num((double)s->total / (double)s->count / 1e3, 3), c_us(ts_stat_quantile(s, 0.5)),
			c_us(s->min), c_us(s->max), c_bool(r->sync),
			r->sync ? c_uint(inside) : c_null(), r->sync ? c_us(inside_ns) : c_null(),
		};
		rc = ROW(k, row);
	}
	free(order);
	free(at);
	free(in);
	return rc;
}

/* Collectives by kind, message size and group (comm.h), then per kind the
 * calls past the rows kept, unsized. All stages: none under --stage. */
int ts_tview_collectives(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			 const ts_table_sink *k)
{
	(void)o;
	static const char *const cols[] = { "kind", "msg_bytes", "group_size", "calls", "total_us",
					    "avg_us", "min_us", "max_us", "algbw_gbps", "busbw_gbps",
					    "pct_of_link" };
	/* held to the GPU's link (devices.yaml links:); a figure beyond it
	 * is no fact: null */
	double link = res->gpu ? res->gpu->link_gbps : 0;
	int rc = BEGIN(k, "collectives", cols);
	size_t n = 0;
	const ts_comm_row *rows = res->comm && !v->staged ? ts_comm_rows(res->comm, &n) : NULL;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const ts_comm_row *r = &rows[i];
		double alg = ts_comm_algbw(r), bus = ts_comm_busbw(r);
		ts_cell row[] = { c_cstr(ts_comm_kind_name(r->kind)),
				  c_opt_int(r->msg_bytes >= 0, r->msg_bytes),
				  c_opt_int(r->group > 0, r->group), c_uint(r->calls), c_us(r->ns),
				  c_num((double)r->ns / 1e3 / (double)r->calls, 3), c_us(r->min_ns),
				  c_us(r->max_ns), c_opt_num(alg >= 0, alg, 2),
				  c_opt_num(bus >= 0, bus, 2),
				  c_opt_num(bus >= 0 && link > 0 && bus <= link, 100.0 * bus / link, 2) };
		rc = ROW(k, row);
	}
	for (int kd = 0; res->comm && !v->staged && kd < TS_COMM_KINDS && rc == 0; kd++) {
		int64_t ns;
		uint64_t c = ts_comm_unkept(res->comm, (ts_comm_kind)kd, &ns);
		if (!c)
			continue;
		ts_cell row[] = { c_cstr(ts_comm_kind_name((ts_comm_kind)kd)), c_null(), c_null(),
				  c_uint(c), c_us(ns), c_num((double)ns / 1e3 / (double)c, 3),
				  c_null(), c_null(), c_null(), c_null(), c_null() };
		rc = ROW(k, row);
	}
	return rc;
}

size_t ts_tview_collectives_kept(const ts_result *res)
{
	size_t n = 0;
	const ts_comm_row *rows = res->comm ? ts_comm_rows(res->comm, &n) : NULL;
	return rows ? n : 0;
}

uint64_t ts_tview_collectives_unknown(const ts_result *res)
{
	ts_comm_total t = { 0 };
	if (res->comm)
		ts_comm_kind_total(res->comm, TS_COMM_UNKNOWN, &t);
	return t.calls;
}

size_t ts_tview_api_rows(const ts_result *res)
{
	size_t n = 0;
	free(res->api ? ts_api_order(res->api, &n) : NULL);
	return n;
}
