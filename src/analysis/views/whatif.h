/*
 * whatif.h - each step replayed from the trace's own dependencies: where
 * every microsecond of it went, how well the replay explains the trace,
 * and what one change at a time would save the step.
 *
 * The first module on the one interface (module.h). While the trace is
 * read it keeps the GPU's operations and the CPU's launches
 * (analysis/timeline.h, bounded); when the run is done it replays each
 * step of a counted pass (its step window, else pass start to the next
 * pass's start, else the pass) whose records are whole:
 *
 *   an operation starts at the latest of its launch, the end of the one
 *   before it on its stream (plus the switch between them, at most the
 *   trace's: the 95th percentile of the gaps between queued kernels under
 *   TS_WI_SWITCH_MAX_NS, TS_WI_SWITCH_NS at least; below 0 where a kernel began before the one before
 *   it ended, a programmatic dependent launch), and the end of an
 *   operation on another stream that ended as it began (within
 *   TS_WI_DEP_NS: a cross-stream wait the trace implies). An operation
 *   that began while its launch call ran, or within TS_WI_LAUNCH_TOL_NS
 *   after it returned, with its stream free, waited for its launch: its
 *   latency from the call's start is its own (a graph's kernels are
 *   queued while the launch call runs, a graph upload holds its first);
 *   the others take the trace's median latency. A CPU blocked in a
 *   synchronizing call until the GPU finished goes on when the replayed
 *   GPU does, and its later launches move with it.
 *
 * Fidelity is the share of operations whose recorded start follows, within
 * TS_WI_FIDELITY_NS, from the recorded ends and launch it waited for (one
 * step of the replay from the record: each start explained or not); drift
 * is how far the whole replay (durations as recorded, the waits nothing
 * explains left out) ends from the recorded last end. Projections are
 * given where fidelity is at least TS_WI_FIDELITY_MIN and drift at most
 * TS_WI_DRIFT_MAX of the walls. An operation that waited with no cause in
 * the trace is held at its wait when one change is replayed, so a
 * projection changes only what its change changes: the step's saving is
 * the replay's last end as recorded minus its last end with the change.
 *
 * Accounting walks back from the step's last operation along what each
 * start waited for: kernels by type (a collective's time above its
 * median, where it took four times that, a wait on a peer), copies,
 * the switch, another stream, the CPU's launch (and of it, the CPU in a
 * synchronizing call), a wait the trace does not explain, and the time
 * before the first operation and after the last: one cause a
 * microsecond, adding up to the step's wall.
 *
 * Memory: the timeline's records while reading; after the run, the
 * per-stage sums below (a step's scratch while it is replayed).
 */
#ifndef TS_WHATIF_H
#define TS_WHATIF_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/views/module.h"

#define TS_WI_SWITCH_NS 2000        /* a gap this short between queued kernels: the switch */
#define TS_WI_SWITCH_MAX_NS 20000   /* ... or the trace's own, measured under this */
#define TS_WI_FIDELITY_NS 5000      /* a start reproduced within this */
#define TS_WI_LAUNCH_TOL_NS 10000   /* a start this long after its launch returned: the launch's */
#define TS_WI_DEP_NS 10000          /* another stream's end this near a start: what it waited for */
#define TS_WI_FIDELITY_MIN 0.9      /* below it no projection is given */
#define TS_WI_DRIFT_MAX 0.1         /* nor above this share of the walls */
#define TS_WI_PEER_X 4              /* a collective this many times its median waited */

/* One cause a microsecond: kernels by type first (TS_TYPE_COUNT of them). */
enum {
	TS_CP_COPY = TS_TYPE_COUNT, /* copies and fills */
	TS_CP_PEER,                 /* a collective waiting on a peer */
	TS_CP_SWITCH,               /* between back-to-back queued kernels */
	TS_CP_STREAM,               /* waiting on another stream */
	TS_CP_LAUNCH,               /* the GPU idle, waiting for the CPU's launch */
	TS_CP_SYNC,                 /* of that, the CPU in a synchronizing call */
	TS_CP_WAIT,                 /* a queued kernel late with no cause in the trace */
	TS_CP_BEFORE,               /* before the step's first operation */
	TS_CP_AFTER,                /* after its last */
	TS_CP_COUNT
};

/* One change at a time: kernels of a type twice as fast first, then a
 * type at its roofline ceiling (the attainable share of its bound's peak,
 * where the stage's typical layer has that type's FLOPs or bytes and runs
 * below it: its kernels' time scaled by achieved over ceiling). */
enum {
	TS_WI_CEIL = TS_TYPE_COUNT,   /* + type */
	TS_WI_LAUNCH = 2 * TS_TYPE_COUNT, /* every kernel launched on time (the step one graph) */
	TS_WI_PREP,                   /* the input preparation before the pass overlapped */
	TS_WI_PEER,                   /* no wait on a peer: each such collective at its median */
	TS_WI_COPIES,                 /* copies and fills off the GPU's path */
	TS_WI_COUNT
};

const char *ts_cp_name(int cause);      /* "waiting for the CPU's launch" (34 at most) */
const char *ts_cp_key(int cause);       /* "launch" ("kernel:gemm" for types) */
const char *ts_wi_name(int change);     /* "the CPU launches every kernel on time" */
const char *ts_wi_key(int change);      /* "launch_on_time" (not for types) */

typedef struct {
	uint32_t steps;              /* replayed */
	uint32_t steps_listed;       /* counted passes of the stage */
	uint32_t steps_not_whole;    /* beyond the records kept */
	uint64_t ops, ops_reproduced; /* ops_reproduced: explained (fidelity) */
	int64_t wall_ns;             /* the replayed steps' walls, summed */
	int64_t drift_ns;            /* |the replay's last end - the record's|, summed */
	int64_t cause_ns[TS_CP_COUNT];
	int64_t saving_ns[TS_WI_COUNT];
	uint32_t tried[TS_WI_COUNT]; /* steps the change applied to */
	/* what the changes act on, in the replayed steps: each type's kernel
	 * time, the GPU idle before the passes, the collectives' time beyond
	 * their median where they waited on a peer */
	int64_t type_ns[TS_TYPE_COUNT];
	int64_t prep_ns, peer_ns;
} ts_wi_stage;

/* What the replay says a fix of one kind of time saves the step, for each
 * ns of that time (0 to 1; -1 unknown: no trusted replay, none of it):
 * a kernel type's (what twice as fast saves, over half its time), every
 * kernel's (TS_WI_ALL: the types weighed by their time), the idle inside
 * the passes (TS_WI_IDLE: launches on time, beyond the time before the
 * passes, over the idle on the path), the GPU idle before the passes
 * (TS_WI_BEFORE), a wait on a peer (TS_WI_PEERS). */
enum { TS_WI_ALL = -1, TS_WI_IDLE = -2, TS_WI_BEFORE = -3, TS_WI_PEERS = -4 };
double ts_wi_effect(const ts_wi_stage *s, int what);

typedef struct ts_whatif ts_whatif;

extern const ts_module ts_whatif_module;

/* The stage's sums (NULL: no module); fidelity as a share, -1 none;
 * whether projections are given (fidelity and drift within bounds). */
const ts_wi_stage *ts_whatif_stage(const ts_whatif *w, ts_pstage s);
double ts_wi_fidelity(const ts_wi_stage *s);
/* The time a step's queued kernels waited with no cause in the trace, on
 * its path (mean a step; 0: none, or no replayed step). */
int64_t ts_wi_wait_ns(const ts_wi_stage *s);
bool ts_wi_trusted(const ts_wi_stage *s);
/* Why the stage has no projection, in buf (n bytes: 200 hold it); NULL
 * where it has them. */
const char *ts_wi_why_not(const ts_wi_stage *s, char *buf, size_t n);

/* The changes of stage s by saving, largest first, those that save
 * anything (at most max); none where the fidelity is under
 * TS_WI_FIDELITY_MIN. */
size_t ts_wi_ranked(const ts_wi_stage *s, int *out, size_t max);

#endif
