/*
 * aview.c - the attribution as a record, built once from a finished
 * result for the reporters: the buckets' and joins' totals, the op rows
 * and the workload rows of a view; and a workload held against its GPU's
 * peaks: achieved TFLOP/s and TB/s, intensity, the bound and its
 * percentage (see aview.h).
 */
#include "analysis/views/aview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/satmath.h"
#include "tables/gpu.h"

/* ------------------------------------------------------------ roofline */

const char *ts_bound_name(ts_bound b)
{
	return b == TS_BOUND_COMPUTE ? "compute" : b == TS_BOUND_MEMORY ? "memory" : "unknown";
}

/* The device's highest compute peak, any dtype: no rate is above it. */
static double max_peak(const ts_gpu *d)
{
	double m = 0;
	for (int c = 0; c < TS_DT_COUNT; c++)
		if (d->tflops[c] > m)
			m = d->tflops[c];
	return m > 0 ? m : 1e300;
}

void ts_roofline_of(const ts_wl_row *w, const char *dtype, const ts_gpu *d,
		    ts_roofline *r)
{
	*r = (ts_roofline){ .dtclass = ts_dtype_class(dtype), .pct_of_peak = -1 };
	r->has_flops = w->flops_calls > 0 && w->flops_ns > 0;
	r->has_bytes = w->bytes_calls > 0 && w->bytes_ns > 0;
	if (r->has_flops) {
		r->flops = (double)w->flops;
		r->tflops = r->flops / ((double)w->flops_ns * 1e-9) / 1e12;
	}
	if (r->has_bytes) {
		r->bytes = (double)w->bytes;
		r->tbps = r->bytes / ((double)w->bytes_ns * 1e-9) / 1e12;
	}
	/* intensity from the calls that have both (the same calls when the
	 * rule gives both, the usual case) */
	if (r->has_flops && r->has_bytes && w->flops_calls == w->bytes_calls)
		r->intensity = r->flops / r->bytes;
	if (!d)
		return;
	r->peak_tbps = d->hbm_tbps;
	if (r->dtclass >= 0)
		r->peak_tflops = d->tflops[r->dtclass];
	if (r->intensity > 0 && r->peak_tflops > 0) {
		double ridge = r->peak_tflops / r->peak_tbps;   /* FLOPs per byte */
		r->bound = r->intensity < ridge ? TS_BOUND_MEMORY : TS_BOUND_COMPUTE;
	} else if (r->has_flops && r->peak_tflops > 0 && !r->has_bytes) {
		r->bound = TS_BOUND_COMPUTE;
	} else if (r->has_bytes && (!r->has_flops || r->intensity == 0)) {
		r->bound = TS_BOUND_MEMORY;
	}
	if (r->bound == TS_BOUND_COMPUTE)
		r->pct_of_peak = 100.0 * r->tflops / r->peak_tflops;
	else if (r->bound == TS_BOUND_MEMORY)
		r->pct_of_peak = 100.0 * r->tbps / r->peak_tbps;
	/* either rate above its own peak is impossible too */
	if (r->pct_of_peak > 100.0 || (r->peak_tflops > 0 && r->tflops > r->peak_tflops) ||
	    r->tflops > max_peak(d) || r->tbps > r->peak_tbps) {
		r->exceeds_peak = true;
		r->pct_of_peak = -1;
		r->over_tflops = r->tflops;
		r->over_tbps = r->tbps;
		r->tflops = r->tbps = 0;
		r->has_flops = r->has_bytes = false;
		r->bound = TS_BOUND_UNKNOWN;
	}
}

void ts_roofline_warnings(const ts_attrib *a, const ts_gpu *gpu, ts_warns *w)
{
	size_t over = 0, n = ts_attrib_nworkloads(a);
	for (size_t i = 0; i < n; i++) {
		const ts_wl_row *row = ts_attrib_workload(a, TS_ATTRIB_ALL, i);
		size_t len;
		const char *dtype;
		ts_roofline rf;
		if (row->calls == 0)
			continue;
		ts_attrib_workload_name(a, i, &len, &dtype);
		ts_roofline_of(row, dtype, gpu, &rf);
		over += rf.exceeds_peak;
	}
	if (over)
		ts_warn(w, "%zu workloads ran faster than the %s peaks allow: their kernels are not the "
			"calls' own (mislinked) or a flops:/bytes: rule or the peak is wrong; no rate of "
			"theirs is printed (JSON workloads[].over_peak_tflops, over_peak_tbps)", over,
			gpu->name);
}

void ts_roofline_sum(const ts_result *res, const ts_anat_sum *s, ts_roofline *r)
{
	ts_wl_row w = { .flops = s->flops, .bytes = s->bytes, .flops_ns = s->flops_ns,
			.bytes_ns = s->bytes_ns, .flops_calls = s->flops_calls,
			.bytes_calls = s->bytes_calls };
	const char *dtype = NULL;
	if (s->wl != TS_INTERN_NONE && res->attrib) {
		size_t len;
		ts_attrib_workload_name(res->attrib, s->wl, &len, &dtype);
	}
	ts_roofline_of(&w, dtype, res->gpu, r);
}


/* ---------------------------------------------------------- the record */

void ts_aview_totals_of(const ts_result *res, ts_aview_totals *out)
{
	memset(out, 0, sizeof *out);
	const ts_attrib *a = res->attrib;
	if (!a)
		return;
	out->present = true;
	out->nbuckets = ts_kview_nbuckets(res);
	out->t = *ts_attrib_get_totals(a);
	out->cs = *ts_attrib_callsite_totals(a);
	for (int b = 0; b < TS_ATTR_COUNT; b++)
		out->all_ns = ts_sat_add(out->all_ns, out->t.ns[b]);
}

/* The op rows of the view, by time, each with its name, how it was
 * reached, its call sites and the running sum of kernel time. */
static int av_ops(const ts_attrib *a, ts_aview *v)
{
	size_t n;
	size_t *order = ts_attrib_op_order(a, v->view, &n);
	if (!order)
		return -1;
	if (n && !(v->ops = calloc(n, sizeof *v->ops))) {
		free(order);
		return -1;
	}
	v->nops = n;
	int64_t cum = 0;
	for (size_t i = 0; i < n; i++) {
		ts_aview_op *o = &v->ops[i];
		size_t op = order[i];
		o->op = op;
		o->r = ts_attrib_op(a, v->view, op);
		o->all = ts_attrib_op(a, TS_ATTRIB_ALL, op);
		o->name = ts_attrib_op_name(a, op, &o->len);
		o->via = ts_attrib_op_via(a, op);
		o->site = ts_attrib_op_callsite(a, op, &o->site_len);
		if (!o->site)
			o->site_len = 0;
		o->nsites = ts_attrib_op_callsites(a, op, o->sites, o->site_lens, o->site_weights);
		cum = ts_sat_add(cum, o->r->ns);
		o->cum_ns = cum;
	}
	free(order);
	return 0;
}

/* The workload rows of the view in kind and name order, each with its
 * name, dtype, rule and roofline on the result's GPU. */
static int av_workloads(const ts_result *res, ts_aview *v)
{
	const ts_attrib *a = res->attrib;
	size_t n;
	size_t *order = ts_attrib_workload_order(a, v->view, &n);
	if (!order)
		return -1;
	if (n && !(v->wls = calloc(n, sizeof *v->wls))) {
		free(order);
		return -1;
	}
	v->nwls = n;
	for (size_t i = 0; i < n; i++) {
		ts_aview_wl *w = &v->wls[i];
		w->wl = order[i];
		w->r = ts_attrib_workload(a, v->view, w->wl);
		w->name = ts_attrib_workload_name(a, w->wl, &w->len, &w->dtype);
		w->rule = ts_attrib_workload_rule(a, w->wl);
		ts_roofline_of(w->r, w->dtype, res->gpu, &w->rf);
	}
	free(order);
	return 0;
}

/* --capture: the capture map's graphs and the replays' kinds. */
static int av_replays(const ts_replay *rp, ts_aview_replays *out)
{
	const ts_capmap *m = ts_replay_map(rp);
	out->present = true;
	out->t = ts_replay_get_totals(rp);
	out->ct = ts_capmap_totals(m);
	out->ngraphs = ts_capmap_ngraphs(m);
	out->nnodes = ts_capmap_nnodes(m);
	out->bytes = ts_capmap_bytes(m);
	out->nrows = ts_replay_nrows(rp);
	if (out->ngraphs && !(out->graphs = calloc(out->ngraphs, sizeof *out->graphs)))
		return -1;
	if (out->nrows && !(out->rows = calloc(out->nrows, sizeof *out->rows)))
		return -1;
	for (size_t i = 0; i < out->ngraphs; i++) {
		ts_aview_graph *g = &out->graphs[i];
		g->g = ts_capmap_graph(m, i);
		g->file = ts_capmap_str(m, g->g->file, &g->file_len);
		g->ann = ts_capmap_str(m, g->g->ann, &g->ann_len);
	}
	for (size_t i = 0; i < out->nrows; i++)
		out->rows[i] = ts_replay_row_at(rp, i);
	return 0;
}

int ts_aview_of(const ts_result *res, const ts_kview *v, ts_aview *out)
{
	memset(out, 0, sizeof *out);
	ts_aview_totals_of(res, &out->tot);
	out->view = ts_kview_attrib_view(v);
	if (res->replay && av_replays(res->replay, &out->rp) != 0)
		return -1;
	if (!res->attrib)
		return 0;
	if (av_ops(res->attrib, out) != 0 || av_workloads(res, out) != 0)
		return -1;
	return 0;
}

void ts_aview_free(ts_aview *v)
{
	free(v->ops);
	free(v->wls);
	free(v->rp.graphs);
	free(v->rp.rows);
	v->rp.graphs = NULL;
	v->rp.rows = NULL;
	v->rp.ngraphs = v->rp.nrows = 0;
	v->ops = NULL;
	v->wls = NULL;
	v->nops = v->nwls = 0;
}

const char *ts_aview_op_name(const ts_result *res, uint32_t op, size_t *len)
{
	*len = 0;
	if (op == TS_INTERN_NONE || !res->attrib)
		return NULL;
	return ts_attrib_op_name(res->attrib, op, len);
}

void ts_aview_op_label(const ts_attrib *a, size_t op, char *buf, size_t n)
{
	size_t len;
	const char *name = ts_attrib_op_name(a, op, &len);
	switch (ts_attrib_op_via(a, op)) {
	case TS_ATTR_GRAPH:
		snprintf(buf, n, "[graph] %.*s", (int)len, name);
		break;
	case TS_ATTR_LAUNCH:
		snprintf(buf, n, "[launch] %.*s", (int)len, name);
		break;
	default:
		snprintf(buf, n, "%.*s", (int)len, name);
	}
}
