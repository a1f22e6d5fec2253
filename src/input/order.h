/*
 * order.h - events put back in the order the analysis reads them.
 *
 * The analysis reads a trace in the order Kineto writes it: the CPU's ops,
 * Python frames and annotations first, each thread in time order; then
 * the runtime's calls with the GPU's operations, each stream in time
 * order; the GPU's annotations last. Other tools re-save traces sorted by
 * time (CPU and GPU interleaved), reversed, or concatenated. A watch sees
 * such a trace as it is read (ts_order_watch); the sorter then puts its
 * events in the order above, in bounded memory:
 *
 *  - group 0: metadata events and events without a time;
 *  - group 1: the CPU's side, by start (a parent before its children:
 *    the longer first at one start);
 *  - group 2: runtime and driver calls, flows and the GPU's operations, by
 *    correlation (launch order), the call before its flow and its
 *    kernels, then by start (a graph's kernels share its launch's);
 *  - group 3: GPU operations and calls with no correlation, by start;
 *  - group 4: the GPU's annotations, by start.
 * Events equal in all of that keep their order in the file (reversed, for
 * a file whose GPU operations run backwards).
 *
 * The sorter keeps up to mem_bytes of events in memory; past that it
 * writes sorted runs to one unlinked temporary file and merges them.
 */
#ifndef TS_ORDER_H
#define TS_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/event.h"
#include "input/parser.h"
#include "input/base/status.h"

/* What the watch has seen. */
typedef struct {
	uint64_t cpu, late;      /* CPU-side events; of them, after the GPU's first operation */
	uint64_t gpu, back;      /* GPU operations; of them, before the last on their stream */
	uint64_t cpu_back;       /* CPU-side events before the last of their kind on their thread */
	bool gpu_began;
	/* the last start on each of the first 32 streams and threads */
	int64_t lane_id[32], lane_last[32];
	bool lane_used[32];
} ts_order_watch;

/* Watch one event; true once the order is out past any doubt (64 CPU
 * events after the GPU's first operation, 64 GPU operations earlier than the one
 * before on their stream, or 64 CPU events earlier than the one before
 * of their kind on their thread: Kineto does none of these). */
bool ts_order_watch_event(ts_order_watch *w, const ts_event *ev);

/* At the end of the input: true when the order is out (the rule above, or
 * a small trace with a quarter of its CPU events late or back, or of its
 * GPU operations back, 8 or more). */
bool ts_order_watch_end(const ts_order_watch *w);

typedef struct ts_sorter ts_sorter;

/* A sorter keeping up to mem_bytes in memory, its runs in a temporary
 * file in tmpdir (NULL: $TMPDIR, else /tmp). NULL: out of memory. */
ts_sorter *ts_sorter_new(size_t mem_bytes, const char *tmpdir);
void ts_sorter_free(ts_sorter *s);

/* Keep one event (the parser's callback). TS_ERR_IO when a run could not
 * be written (ts_sorter_error says why), TS_ERR_NOMEM. */
ts_status ts_sorter_add(ts_sorter *s, const ts_event *ev);

/* Every event kept, in order, to fn; stops at the first status fn gives
 * that is not TS_OK, or at a failed read of the runs (TS_ERR_IO). */
ts_status ts_sorter_emit(ts_sorter *s, ts_event_fn fn, void *ud);

const char *ts_sorter_error(const ts_sorter *s);
uint64_t ts_sorter_events(const ts_sorter *s);
uint64_t ts_sorter_runs(const ts_sorter *s);   /* runs written (0: in memory) */
uint64_t ts_sorter_file_bytes(const ts_sorter *s);   /* bytes of the temporary file */

#endif
