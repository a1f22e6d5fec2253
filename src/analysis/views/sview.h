/*
 * sview.h - a stage's passes in the units a serving engineer reads: the
 * wall time of a pass (mean, p50, max), the step to step time where passes
 * follow each other, and per token where the batch or the tokens are
 * known.
 *
 * The words for time, used the same way in every view:
 *   wall         a pass from its first kernel's start to its last kernel's
 *                end on the GPU (kernels cut off its edges aside): what
 *                the pass took;
 *   busy         the part of the wall with at least one kernel running;
 *   idle         wall - busy: no kernel running; launch-bound idle is the
 *                gaps whose next kernel was launched only after the gap
 *                began (the GPU waited for the CPU);
 *   kernel time  the sum of kernel durations (kernels on several streams
 *                at once count each: it can exceed busy);
 *   step         start to start of consecutive passes of one stage: the
 *                pass and what runs between passes (sampling, scheduling,
 *                input preparation); a decode step is the inter-token
 *                latency (ITL / TPOT) of each sequence in its batch. A
 *                lone step is its window on the GPU where the profiler
 *                drew one (gpu_user_annotation: the annotation of the step
 *                that says most, SGLang's step[DECODE bs=16]), its wall:
 *                the pass and the time before and after it in the step.
 *
 * The passes are those the per-pass rows count: complete ones; when a
 * stage has none, its partial ones (marked so). (The step annotations
 * themselves, and which step a kernel belongs to, are the structure's:
 * analysis/structure/steps.h.)
 */
#ifndef TS_SVIEW_H
#define TS_SVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/api.h"
#include "analysis/layers/layers.h"

typedef struct {
	uint32_t passes;
	bool of_partials;            /* no complete pass: the partial ones */
	int64_t wall_mean_ns, wall_p50_ns, wall_max_ns;
	int64_t busy_ns, idle_ns;    /* summed over the passes */
	int64_t launch_ns;           /* of idle: launch-bound */
	int64_t kernel_ns;           /* kernel time, summed */
	uint32_t steps;              /* start-to-start intervals measured */
	int64_t step_p50_ns;         /* their median; 0: none */
	/* per token, of complete passes (a pass the window cut is no step),
	 * where every pass's count is known: decode, a token per sequence a
	 * step (tokens: the batches summed), its time the step p50 (the wall
	 * p50 with a single pass), tokens/s the mean batch over it; prefill,
	 * the tokens over the summed wall (its share of TTFT) */
	uint32_t windows;            /* passes with a step window of their own */
	int64_t window_p50_ns;       /* their step walls' median; 0: none */
	int64_t before_ns, before_busy_ns, after_ns; /* summed over them */
	int64_t before_sync_ns;      /* of before, the CPU in synchronizing calls */
	const char *before_sync;     /* the call with most of one pass's; NULL none */
	enum { TS_TOKEN_STEPS, TS_TOKEN_WINDOW, TS_TOKEN_WALL } token_from; /* the time a token is;
							 * prefill: the wall its tokens/s is over */
	int64_t tokens_wall_ns;      /* prefill: that wall, summed */
	int64_t batch;               /* decode, the same in every pass; -1 */
	int64_t tokens;              /* summed; -1 unknown */
	double tokens_per_s;         /* 0: unknown */
	int64_t token_ns;            /* decode: the time of one output token; 0 */
	/* calls that made the CPU wait for the GPU inside its passes (in a
	 * pass's CPU window: its step annotation's, else from its first
	 * kernel's launch to its last's), their time in it, the call with
	 * most; the windows' time, until each pass's GPU work ended (summed:
	 * what the waits are a part of) */
	uint64_t sync_calls;
	int64_t sync_ns;
	int64_t sync_window_ns;
	const char *sync_top;        /* NULL: none */
} ts_sview;

/* Pass i's step accounted in its window: the step's window on the GPU,
 * else its CPU window to the later of its end and the pass's GPU end.
 * The time before the pass's first kernel (the kernels cut off its start
 * running some of it: the step's input preparation), the pass, and after
 * its last kernel's end; before + pass + after == wall, each busy part no
 * longer than its part. The part of a pass outside the window is left out
 * (its busy time in proportion). */
typedef struct {
	int64_t wall_ns;
	int64_t before_ns, before_busy_ns;
	int64_t pass_ns, pass_busy_ns, pass_launch_ns;
	int64_t after_ns;
	int64_t before_sync_ns;      /* of before, the CPU in synchronizing calls */
	const char *before_sync;     /* the call with most of it; NULL none */
} ts_step_acct;

/* Pass i's step window in *s0, *s1 (trace ns), as ts_step_account takes
 * it; false where it has none. */
bool ts_step_window(const ts_layers *l, const ts_api *api, size_t i, int64_t *s0, int64_t *s1);

/* false: the pass has no step window, shares it with another pass (a
 * speculative draft's, a prompt's chunk), or lies outside it. */
bool ts_step_account(const ts_layers *l, const ts_api *api, size_t i, ts_step_acct *a);

/* A stage's step by cause, mean over its steps: where steps follow each
 * other (start to start), the pass and the time between passes; else in
 * each pass's step window (the time before its pass split into kernels
 * that ran then, the CPU in synchronizing calls and the rest of the CPU's
 * input preparation); else the pass wall alone. The parts add up to the
 * mean step. */
typedef enum {
	TS_CAUSE_KERNELS,        /* the pass: at least one kernel running */
	TS_CAUSE_LAUNCH,         /* the pass: GPU idle waiting for a launch */
	TS_CAUSE_PASS_IDLE,      /* the pass: the rest of its idle */
	TS_CAUSE_BEFORE_KERNELS, /* before the pass: kernels of the step ran */
	TS_CAUSE_BEFORE_SYNC,    /* before: GPU idle, the CPU in a sync call */
	TS_CAUSE_BEFORE_CPU,     /* before: GPU idle, the CPU preparing inputs */
	TS_CAUSE_AFTER,          /* after the pass's last kernel, in its step */
	TS_CAUSE_BETWEEN,        /* step to step: from the pass's end to the next */
	TS_CAUSE_COUNT
} ts_cause;

typedef struct {
	uint32_t steps;              /* steps the means are over; 0: none */
	int from;                    /* TS_TOKEN_*: what a step is */
	double step_ns;              /* the mean step */
	double part_ns[TS_CAUSE_COUNT];
} ts_step_split;

const char *ts_cause_name(ts_cause c);   /* "pass idle: waiting for launches" (34 at most) */
const char *ts_cause_key(ts_cause c);    /* "pass_launch_bound" */
bool ts_step_split_of(const ts_layers *l, const ts_api *api, ts_pstage st, ts_step_split *out);

/* The steps of stage st (l may be NULL: none; api NULL: no runtime calls).
 * false when it has no pass. */
bool ts_sview_of(const ts_layers *l, const ts_api *api, ts_pstage st, ts_sview *out);

/* The pass each kept synchronizing call of api fell in (pass[i], its
 * index in l, for call i; -1: in none), and its time inside that pass
 * (inside[i]: while the pass's CPU window was open, until the pass's GPU
 * work ended; a wait after that is not the pass's).
 * false: out of memory (nothing written). */
bool ts_syncs_place(const ts_layers *l, const ts_api *api, int32_t *pass, int64_t *inside);

#endif
