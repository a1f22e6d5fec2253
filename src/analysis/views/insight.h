/*
 * insight.h - what a finished analysis says about making the run faster.
 *
 * Reads a ts_result (aggregates, passes, the layer anatomy, workloads and
 * the GPU's peaks) and finds the largest opportunities, each with the GPU
 * time at stake:
 *   - a workload well below the peak of what bounds it (the time it would
 *     save at the attainable share of that peak: the device's attainable:
 *     in the tables, or TS_ATTAINABLE_DEFAULT);
 *   - idle time between kernels inside the passes of a stage that has a
 *     complete pass (a window holding parts of passes only has gaps the
 *     profiler's as much as the model's), with the gaps where the GPU
 *     waited for the CPU to launch (launch-bound) as its cause, not a
 *     second opportunity;
 *   - a layer index slower than the stage's typical layer;
 *   - the GPU idle in a step's window before its pass (the CPU preparing
 *     the step's inputs, or sitting in a synchronizing call, named): time
 *     every token of the step waits, outside the pass's own idle; offered
 *     at 1% of the steps' time or more.
 * Kernels outside any pass are bookkeeping (busy.outside_passes), not an
 * opportunity.
 * The reporters render them; nothing here prints.
 */
#ifndef TS_INSIGHT_H
#define TS_INSIGHT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/layers/anatomy.h"
#include "analysis/views/aview.h"
#include "analysis/views/result.h"

#define TS_INSIGHT_MAX 16

typedef enum {
	TS_OPP_ROOFLINE,       /* a workload far below its peak */
	TS_OPP_IDLE,           /* idle gaps inside the passes of a stage */
	TS_OPP_LAUNCH,         /* the same, when launch-bound gaps are most of it */
	TS_OPP_LAYER,          /* a layer slower than the typical one */
	TS_OPP_COMM,           /* collectives with no computation beside them */
	TS_OPP_GPU_IDLE,       /* no pass: the GPU idle in the kernel span */
	TS_OPP_SPREAD,         /* a kernel whose slow calls run far above its median */
	TS_OPP_STEP_IDLE,      /* a step's GPU idle before its pass (sview.h) */
	TS_OPP_PEER,           /* collectives far above their median: waiting on a peer */
	TS_OPP_COUNT
} ts_opp_kind;

const char *ts_opp_kind_name(ts_opp_kind k);

typedef struct {
	ts_opp_kind kind;
	int stage;                 /* ts_pstage; TS_PSTAGE_UNKNOWN for none */
	int64_t at_stake_ns;       /* GPU time it could save (an estimate) */
	double pct_of_stage;       /* at stake over the stage's kernel time */
	double ceiling_pct;        /* roofline: the share of peak it is measured
				    * against; 0 for the other kinds */
	const char *ceiling_source;  /* where that share comes from (the device's
				      * attainable: source), or NULL: the default */
	char text[360];            /* one line, without the stage's own words */
	int16_t ktype;             /* spread: its kernel's type */
	/* what the replay of its stage's steps says the fix saves them
	 * (whatif.h: ts_wi_effect of its kind of time times the time at
	 * stake); -1 unknown: no trusted replay */
	int64_t saves_ns;
} ts_opportunity;

/* Opportunities, largest first: by what each saves the steps where the
 * replay of its stage says (saves_ns), else by time at stake; returns how
 * many (<= max). */
size_t ts_insight_opportunities(const ts_result *res, ts_opportunity *out, size_t max);


/* Busy time and span summed over every pass with layers, the kernels
 * outside them and the time between them; and the whole trace's busy
 * time (each device's, summed) and its split into computation,
 * collectives and copies, passes or none (agg.h's ts_overlap). */
typedef struct {
	ts_idle_pass in_passes;
	uint64_t outside_kernels;
	int64_t outside_ns;
	ts_between between;
	int64_t busy_ns;
	ts_overlap overlap;
} ts_busy_summary;

void ts_insight_busy(const ts_result *res, ts_busy_summary *b);

/* The communication time of d (a pass's, a stage's, the passes') that ran
 * while computation ran too (idle.h): hidden; the rest is exposed. */
int64_t ts_insight_comm_hidden(const ts_idle_pass *d);

#endif
