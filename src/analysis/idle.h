/*
 * idle.h - busy time, idle gaps and launch-bound gaps of one forward pass.
 *
 * The layer machine opens a pass, feeds it its kernels and closes it. The
 * kernels go through a small reorder window (kernels arrive nearly in start
 * order; a few are written out of order across streams), then a frontier
 * walk: a kernel that starts after every earlier kernel has ended leaves an
 * idle gap before it. Busy time is the union of the kernel intervals, so
 * span = busy + idle exactly.
 *
 * A gap is launch-bound when the CPU called the launch of the kernel after
 * it only once the GPU had gone idle: the GPU waited for the CPU. Launch
 * times come from the runtime calls (cudaLaunchKernel, hipLaunchKernel,
 * cudaGraphLaunch...) by correlation id; NVIDIA writes a launch just after
 * its kernel, so the check is made when the pass closes. Gaps inside a
 * replayed graph share the graph launch, which precedes them: never
 * launch-bound.
 *
 * One rule for where a pass begins and ends. A few kernels (at most an
 * eighth of the pass, none doing layer work) at its start are not the
 * pass's when a gap cuts them from the rest that is
 *   - launch-bound and longer than every gap after it (the GPU waited for
 *     the CPU to start the forward: the step's input preparation ran, then
 *     the CPU was late with the embedding), or
 *   - longer than all the GPU work after it (a kernel of an earlier step
 *     that ran 460 ms before the pass);
 * at its end, the same second rule after its last layer work. Kernels at
 * its ends launched outside its step's window on the CPU (ts_idle_window;
 * the profiler draws the step's GPU window around the kernels launched in
 * it) are not the pass's either. Those kernels and their gaps
 * are left out of its span, busy and idle time, and counted as stray; the
 * wait is time between passes (layers.h), measured the same way for every
 * pass, whether or not a preparation kernel happened to run before it.
 *
 * Memory is fixed: the window, two generations of recent launches, and
 * at most TS_IDLE_GAPS gaps of the open pass held for the launch check
 * (the rest are counted, unchecked).
 */
#ifndef TS_IDLE_H
#define TS_IDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "input/event.h"

#define TS_IDLE_GAPS 4096

typedef struct {
	int64_t start_ns;             /* the pass's first kernel, strays cut */
	int64_t span_ns, busy_ns, idle_ns;
	uint64_t gaps;
	int64_t largest_ns;           /* the largest gap, and where: */
	int64_t largest_at;           /* its start (trace ns) */
	uint32_t largest_before;      /* kernel row after it (TS_INTERN_NONE unknown) */
	uint32_t largest_after;       /* kernel row before it */
	uint32_t largest_op;          /* op row of the kernel after it, or TS_INTERN_NONE */
	uint64_t launch_gaps;         /* launch-bound gaps */
	int64_t launch_ns;
	uint64_t launch_checked;      /* gaps whose kernel's launch time was known */
	uint64_t stray_kernels;       /* cut off the pass: see below */
	int64_t stray_ns;
	int64_t lead_ns;              /* of stray_ns, the busy time of the
				       * kernels cut off its start (a step's
				       * input preparation) */
	int64_t first_launch_ns;      /* launch of its first kernel and of the
				       * one that ends it; INT64_MIN unknown */
	int64_t last_launch_ns;
	int64_t idle_from_ns;         /* the GPU idle since, before its first
				       * kernel: the end of the kernels cut off
				       * its start; INT64_MIN none (not saved) */
	/* busy split: the union of its communication kernels' intervals and
	 * of the others' (computation); comm + compute - busy of it is the
	 * communication hidden under computation (ts_idle_hidden) */
	int64_t comm_ns, compute_ns;
} ts_idle_pass;

/* Communication time of p that ran while computation ran too. */
int64_t ts_idle_hidden(const ts_idle_pass *p);

typedef struct ts_idle ts_idle;

ts_idle *ts_idle_new(void);
void ts_idle_free(ts_idle *d);

/* A runtime call: its start is the launch time of the kernels that carry
 * its correlation id. */
void ts_idle_runtime(ts_idle *d, const ts_event *ev);
/* The launch time of correlation corr, when its runtime call was among the
 * recent ones seen. */
bool ts_idle_launch(const ts_idle *d, int64_t corr, int64_t *ts);
/* Whether correlation corr comes before every runtime call read so far:
 * (ids rise with each call) a kernel launched before the capture began. */
bool ts_idle_before_capture(const ts_idle *d, int64_t corr);

void ts_idle_begin(ts_idle *d);
/* What a kernel is to the pass's edges: attention or MLP work of a layer
 * (stray kernels never are), or a layer's input norm (no kernel after it
 * is input preparation, but the work may end before it: a final norm). */
enum { TS_IDLE_WORK = 1, TS_IDLE_NORM = 2, TS_IDLE_COMM = 4 /* a collective */ };

/* A timed kernel of the open pass; op: its op row (TS_INTERN_NONE none);
 * work: TS_IDLE_* bits. */
void ts_idle_kernel(ts_idle *d, const ts_event *ev, uint32_t row, uint32_t op,
		    unsigned work);
/* The CPU window of the pass's step: kernels at its ends launched before
 * from or after to are not the pass's. Reset by ts_idle_begin. */
void ts_idle_window(ts_idle *d, int64_t from, int64_t to);
/* Close the pass: its figures in *out. */
void ts_idle_end(ts_idle *d, ts_idle_pass *out);

/* Told of every gap of a pass as the pass closes (annotate's tracks):
 * where, how long, whether the GPU waited for the kernel's launch, and the
 * kernel rows around it. */
typedef void (*ts_idle_gap_fn)(void *ctx, int64_t start, int64_t len, bool launch_bound,
			       uint32_t after, uint32_t before);
void ts_idle_on_gap(ts_idle *d, ts_idle_gap_fn fn, void *ctx);

/* Add one pass's figures to a sum (the largest gap kept with its place). */
void ts_idle_sum(ts_idle_pass *dst, const ts_idle_pass *src);

#endif
