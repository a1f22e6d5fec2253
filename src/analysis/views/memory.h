/*
 * memory.h - device memory over the step: the caching allocator's
 * "[memory]" events (profile_memory=True: "Total Allocated", "Total
 * Reserved", "Bytes", "Device Id") per device, joined to the passes.
 *
 * A module on the one interface (module.h). Per device: the peak
 * allocated and reserved and when, allocated where reserved peaked (the
 * rest of the reserve is the allocator's cache and fragmentation), the
 * first and last figures (growth over the trace), allocations, frees and
 * their bytes, and who held it at the peak allocated: what was allocated
 * before the capture and the CPU ops whose allocations were still live
 * (memory_ops.h). Per pass, a row of the device with the most events (the
 * main one), then one of each other device with events in the pass's
 * window (a process running its model over several GPUs): the peak
 * allocated inside the pass's window (its step's CPU window, else the
 * CPU window of its launches, else its GPU span: allocations happen as
 * the CPU runs the ops) and its growth (allocated at the window's end
 * less at its start); per stage the main device's peak and mean growth
 * a pass.
 *
 * Memory: the events as records of a timeline, at most TS_MEM_RECORDS;
 * past that, neighbours are merged in pairs (a record then spans several
 * events: its peak is theirs, its window theirs), and the per-pass
 * figures are exact to a record (ts_memory_exact says whether every
 * record is one event). The CPU's allocator (Device Type 0) is counted,
 * not tracked.
 */
#ifndef TS_MEMORY_H
#define TS_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/views/memory_ops.h"
#include "analysis/views/module.h"

#define TS_MEM_DEVICES 16
#define TS_MEM_RECORDS (1u << 18)

typedef struct {
	int64_t device;              /* "Device Id" */
	bool relative;               /* the events carry no totals (PyTorch
				      * before 1.10: "Bytes" alone): allocated
				      * counts from the capture's start, its sum;
				      * nothing is known of the reserve (-1) */
	int64_t sum;                 /* relative: the bytes so far */
	uint64_t events, allocs, frees;
	int64_t bytes_allocated, bytes_freed;
	int64_t peak_allocated, peak_allocated_ns;
	int64_t reserved_at_peak_allocated;
	int64_t peak_reserved, peak_reserved_ns;
	int64_t allocated_at_peak_reserved;
	int64_t first_ns, first_allocated, last_ns, last_allocated, last_reserved;
} ts_mem_device;

typedef struct {
	uint32_t pass;               /* index in passes[] */
	int64_t device;
	int64_t from_ns, to_ns;      /* its window */
	const char *window;          /* "step", "launches" or "gpu" */
	int64_t peak_allocated;      /* -1: no event in the window */
	int64_t peak_reserved;
	int64_t growth;              /* INT64_MIN: unknown (no event before) */
	uint32_t events;
} ts_mem_pass;

typedef struct {
	uint32_t passes;             /* with a figure */
	int64_t peak_allocated, peak_reserved;
	uint32_t grown;              /* passes with a growth */
	int64_t growth_sum;
} ts_mem_stage;

typedef struct ts_memory ts_memory;

extern const ts_module ts_memory_module;

/* The module's state in res, NULL where it has none; its figures. */
const ts_memory *ts_memory_of(const ts_result *res);
size_t ts_memory_ndevices(const ts_memory *m);
const ts_mem_device *ts_memory_device(const ts_memory *m, size_t i);
size_t ts_memory_npasses(const ts_memory *m);
const ts_mem_pass *ts_memory_pass(const ts_memory *m, size_t i);
/* Device i's owners of its peak (memory_ops.h). */
const ts_mem_peak *ts_memory_peak(const ts_memory *m, size_t i);
const ts_mem_stage *ts_memory_stage(const ts_memory *m, int stage);
uint64_t ts_memory_cpu_events(const ts_memory *m);
/* The allocated bytes of the device with the most events over time, in
 * at most max points (each the peak of its stretch of the trace, at the
 * stretch's start); after the run. Returns the points written. */
size_t ts_memory_series(const ts_memory *m, int64_t *t_ns, int64_t *allocated, size_t max);
bool ts_memory_exact(const ts_memory *m);

#endif
