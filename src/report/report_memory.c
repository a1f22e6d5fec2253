/*
 * report_memory.c - device memory over the step (analysis/views/memory.h)
 * as the JSON member "device_memory" (null where the trace has no
 * allocator events; the first screen's line: views/brief.c). Sizes are
 * bytes; times are the trace's microseconds.
 */
#include <inttypes.h>
#include <stdio.h>

#include "analysis/views/memory.h"
#include "report/jsonw.h"
#include "report/report.h"

static const char *const owner_kind[] = { "op", "no_op", "op_not_kept", "other_ops" };

/* Who held the device's memory at its peak allocated (memory_ops.h). */
static void put_holders(ts_jw *w, const ts_mem_peak *pk)
{
	bool known = pk->status == TS_MEMPEAK_DONE;
	ts_jw_key(w, "at_peak");
	ts_jw_obj(w);
	ts_jw_kbool(w, "known", known);
	/* why not: the events carry no address, or merged records */
	if (known)
		ts_jw_knull(w, "unknown_because");
	else
		ts_jw_kstr(w, "unknown_because",
			   pk->status == TS_MEMPEAK_NO_ADDR ? "the events carry no Addr"
			   : pk->status == TS_MEMPEAK_UNEVEN ? "the events' blocks exceed their totals"
			   : pk->status == TS_MEMPEAK_MERGED ? "allocator events were merged"
							      : "no peak");
	/* what was allocated before the capture's first event and still
	 * held; the capture's own allocations live then; by the outermost
	 * CPU op of the thread that made each */
	ts_jw_kopt_int(w, "before_capture_bytes", known, pk->before_bytes);
	ts_jw_kopt_int(w, "capture_bytes", known, pk->live_bytes);
	ts_jw_kopt_int(w, "capture_allocations", known, pk->live_allocations);
	ts_jw_key(w, "owners");
	ts_jw_arr(w);
	for (size_t i = 0; known && i < pk->nrows; i++) {
		const ts_memop_row *r = &pk->rows[i];
		ts_jw_obj(w);
		/* "op" (op names it), "no_op" (made outside every CPU op),
		 * "op_not_kept" (past the kept ops), "other_ops" (the rest) */
		ts_jw_kstr(w, "owner", owner_kind[r->kind]);
		if (r->kind == TS_MEMOP_OP)
			ts_jw_kstr(w, "op", r->name);
		else
			ts_jw_knull(w, "op");
		ts_jw_kint(w, "bytes", r->bytes);
		ts_jw_kuint(w, "allocations", r->allocations);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_end_obj(w);
}

static void put_device(ts_jw *w, const ts_mem_device *d, const ts_mem_peak *pk)
{
	bool res = !d->relative;   /* totals known: the reserve too */
	ts_jw_obj(w);
	ts_jw_kint(w, "device", d->device);
	/* true: the events carry no totals; allocated counts from the
	 * capture's start */
	ts_jw_kbool(w, "relative", d->relative);
	ts_jw_kuint(w, "events", d->events);
	ts_jw_kuint(w, "allocs", d->allocs);
	ts_jw_kuint(w, "frees", d->frees);
	ts_jw_kint(w, "bytes_allocated", d->bytes_allocated);
	ts_jw_kint(w, "bytes_freed", d->bytes_freed);
	ts_jw_kint(w, "peak_allocated_bytes", d->peak_allocated);
	ts_jw_kus(w, "peak_allocated_at_us", d->peak_allocated_ns);
	/* the reserve then: what the allocator held beyond it is its cache
	 * and fragmentation at the peak */
	ts_jw_kopt_int(w, "reserved_at_peak_allocated_bytes", res, d->reserved_at_peak_allocated);
	ts_jw_kopt_int(w, "cached_at_peak_allocated_bytes", res,
		       d->reserved_at_peak_allocated - d->peak_allocated);
	ts_jw_kopt_int(w, "peak_reserved_bytes", res, d->peak_reserved);
	if (res)
		ts_jw_kus(w, "peak_reserved_at_us", d->peak_reserved_ns);
	else
		ts_jw_knull(w, "peak_reserved_at_us");
	ts_jw_kopt_int(w, "allocated_at_peak_reserved_bytes", res, d->allocated_at_peak_reserved);
	ts_jw_kus(w, "first_at_us", d->first_ns);
	ts_jw_kint(w, "first_allocated_bytes", d->first_allocated);
	ts_jw_kus(w, "last_at_us", d->last_ns);
	ts_jw_kint(w, "last_allocated_bytes", d->last_allocated);
	ts_jw_kopt_int(w, "last_reserved_bytes", res, d->last_reserved);
	ts_jw_kint(w, "growth_bytes", d->last_allocated - d->first_allocated);
	put_holders(w, pk);
	ts_jw_end_obj(w);
}

static void put_pass(ts_jw *w, const ts_mem_pass *x)
{
	ts_jw_obj(w);
	ts_jw_kuint(w, "pass", x->pass);
	ts_jw_kint(w, "device", x->device);
	ts_jw_kstr(w, "window", x->window);
	ts_jw_kus(w, "start_us", x->from_ns);
	ts_jw_kus(w, "end_us", x->to_ns);
	ts_jw_kuint(w, "events", x->events);
	ts_jw_kopt_int(w, "peak_allocated_bytes", x->events > 0, x->peak_allocated);
	ts_jw_kopt_int(w, "peak_reserved_bytes", x->events > 0 && x->peak_reserved >= 0, x->peak_reserved);
	ts_jw_kopt_int(w, "growth_bytes", x->growth != INT64_MIN, x->growth);
	ts_jw_end_obj(w);
}

void ts_report_memory_json(ts_jw *w, const ts_result *res)
{
	const ts_memory *m = ts_memory_of(res);
	ts_jw_member(w, 1, "device_memory");
	if (ts_memory_ndevices(m) == 0) {
		ts_jw_null(w);
		return;
	}
	ts_jw_obj(w);
	ts_jw_kbool(w, "exact", ts_memory_exact(m));
	ts_jw_kuint(w, "cpu_events", ts_memory_cpu_events(m));
	ts_jw_key(w, "devices");
	ts_jw_arr(w);
	for (size_t i = 0; i < ts_memory_ndevices(m); i++)
		put_device(w, ts_memory_device(m, i), ts_memory_peak(m, i));
	ts_jw_end_arr(w);
	ts_jw_key(w, "stages");
	ts_jw_obj(w);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_mem_stage *x = ts_memory_stage(m, s);
		if (!x->passes)
			continue;
		ts_jw_key(w, ts_pstage_name((ts_pstage)s));
		ts_jw_obj(w);
		ts_jw_kuint(w, "passes", x->passes);
		ts_jw_kint(w, "peak_allocated_bytes", x->peak_allocated);
		ts_jw_kopt_int(w, "peak_reserved_bytes", x->peak_reserved >= 0, x->peak_reserved);
		ts_jw_kopt_int(w, "growth_per_pass_bytes", x->grown > 0,
			       x->grown ? x->growth_sum / (int64_t)x->grown : 0);
		ts_jw_end_obj(w);
	}
	ts_jw_end_obj(w);
	ts_jw_key(w, "passes");
	ts_jw_arr(w);
	for (size_t i = 0; i < ts_memory_npasses(m); i++)
		put_pass(w, ts_memory_pass(m, i));
	ts_jw_end_arr(w);
	ts_jw_end_obj(w);
}
