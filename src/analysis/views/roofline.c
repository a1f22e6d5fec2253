/*
 * roofline.c - a workload held against its GPU's peaks: achieved TFLOP/s
 * and TB/s, intensity, the bound and its percentage (see roofline.h).
 */
#include "analysis/views/roofline.h"

#include "tables/gpu.h"

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

