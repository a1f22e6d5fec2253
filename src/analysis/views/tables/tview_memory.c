/*
 * tview_memory.c - device memory's tables (tview.h, memory.h): a row per
 * GPU, each pass's window, and who held the memory at its peak.
 */
#include "analysis/views/memory.h"
#include "analysis/views/tables/tview_int.h"

/* Device memory (memory.h), a row per GPU: its peaks, the reserve at
 * the peak allocated, its allocations and growth, as JSON device_memory
 * has them (relative: no totals in the events, no reserve). */
int ts_tview_device_memory(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			   const ts_table_sink *k)
{
	(void)o, (void)v;
	static const char *const cols[] = {
		"device", "relative", "events", "allocs", "frees", "bytes_allocated", "bytes_freed",
		"peak_allocated_bytes", "peak_allocated_at_us", "reserved_at_peak_allocated_bytes",
		"peak_reserved_bytes", "first_allocated_bytes", "last_allocated_bytes", "growth_bytes",
	};
	const ts_memory *m = ts_memory_of(res);
	int rc = BEGIN(k, "device_memory", cols);
	for (size_t i = 0; i < ts_memory_ndevices(m) && rc == 0; i++) {
		const ts_mem_device *d = ts_memory_device(m, i);
		bool tot = !d->relative;
		ts_cell row[] = { c_int(d->device), c_bool(d->relative), c_uint(d->events),
				  c_uint(d->allocs), c_uint(d->frees), c_int(d->bytes_allocated),
				  c_int(d->bytes_freed), c_int(d->peak_allocated), c_us(d->peak_allocated_ns),
				  c_opt_int(tot, d->reserved_at_peak_allocated),
				  c_opt_int(tot, d->peak_reserved), c_int(d->first_allocated),
				  c_int(d->last_allocated), c_int(d->last_allocated - d->first_allocated) };
		rc = ROW(k, row);
	}
	return rc;
}

/* Each pass's device memory (memory.h): its window, events, peak, growth. */
int ts_tview_memory_passes(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			   const ts_table_sink *k)
{
	(void)o, (void)v;
	static const char *const cols[] = { "pass", "device", "window", "start_us", "end_us",
					    "events", "peak_allocated_bytes", "peak_reserved_bytes",
					    "growth_bytes" };
	const ts_memory *m = ts_memory_of(res);
	int rc = BEGIN(k, "memory_passes", cols);
	for (size_t i = 0; i < ts_memory_npasses(m) && rc == 0; i++) {
		const ts_mem_pass *x = ts_memory_pass(m, i);
		ts_cell row[] = { c_uint(x->pass), c_int(x->device), c_cstr(x->window),
				  c_us(x->from_ns), c_us(x->to_ns), c_uint(x->events),
				  c_opt_int(x->events > 0, x->peak_allocated),
				  c_opt_int(x->events > 0 && x->peak_reserved >= 0, x->peak_reserved),
				  c_opt_int(x->growth != INT64_MIN, x->growth) };
		rc = ROW(k, row);
	}
	return rc;
}

/* Who held each GPU's memory at its peak allocated (memory_ops.h), as
 * JSON device_memory.devices[].at_peak: a row for what was allocated
 * before the capture, then the owners of the capture's live blocks. A
 * device whose owners are unknown has no rows. */
int ts_tview_memory_owners(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			   const ts_table_sink *k)
{
	(void)o, (void)v;
	static const char *const owner[] = { "op", "no_op", "op_not_kept", "other_ops" };
	static const char *const cols[] = { "device", "owner", "op", "bytes", "allocations" };
	const ts_memory *m = ts_memory_of(res);
	int rc = BEGIN(k, "memory_owners", cols);
	for (size_t i = 0; i < ts_memory_ndevices(m) && rc == 0; i++) {
		const ts_mem_device *d = ts_memory_device(m, i);
		const ts_mem_peak *pk = ts_memory_peak(m, i);
		if (pk->status != TS_MEMPEAK_DONE)
			continue;
		ts_cell first[] = { c_int(d->device), c_cstr("before_capture"), c_null(),
				    c_int(pk->before_bytes), c_null() };
		rc = ROW(k, first);
		for (size_t j = 0; j < pk->nrows && rc == 0; j++) {
			const ts_memop_row *r = &pk->rows[j];
			ts_cell row[] = { c_int(d->device), c_cstr(owner[r->kind]),
					  r->kind == TS_MEMOP_OP ? c_cstr(r->name) : c_null(),
					  c_int(r->bytes), c_uint(r->allocations) };
			rc = ROW(k, row);
		}
	}
	return rc;
}
