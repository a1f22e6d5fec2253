/*
 * ranks.h - one job over many ranks: what each rank's analysis says in a
 * few kilobytes, and how the ranks differ (skew).
 *
 * A ts_rank_summary is taken from a finished ts_result, which can then be
 * freed: a run over many ranks holds a summary per rank and at most -j
 * analyses at a time. Summaries own their memory (ts_rank_summary_free).
 * ts_skew reads an array of summaries and owns nothing of theirs.
 *
 * Collective waits: ranks of one job run the same collectives; the fastest
 * rank's time in a collective is the work, and what a rank spends beyond
 * it is waiting for the others (the slowest rank to arrive). Collectives
 * are matched across ranks by kernel name.
 */
#ifndef TS_RANKS_H
#define TS_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/layers/layers.h"
#include "analysis/views/result.h"
#include "input/base/wire.h"

#define TS_RANK_COLLS 64        /* collective kernel names kept per rank */
#define TS_RANK_NAME 160        /* bytes of a collective's name kept */

typedef struct {
	char name[TS_RANK_NAME];     /* NUL-terminated, cut at TS_RANK_NAME - 1 */
	uint64_t hash;               /* of the name as kept (collectives match
				      * across ranks by their first
				      * TS_RANK_NAME - 1 bytes) */
	uint64_t count;
	int64_t ns;
} ts_rank_coll;

typedef struct {
	const char *path;            /* as given (borrowed), or path_buf */
	char *path_buf;              /* owned, for a summary read from a partial */
	int64_t order;               /* position on the command line */
	int64_t trace_rank;          /* distributedInfo rank, -1 none */
	int64_t world_size;          /* distributedInfo world size, -1 none */
	int64_t rank;                /* the rank used (see ts_ranks_number) */
	ts_error err;                /* err.status: of its analysis; what and where */
	bool partial, opened, gzip;
	int open_errno;
	char gpu[TS_DEVNAME_MAX];
	uint64_t kernels;
	int64_t kernel_ns, busy_ns, span_ns;
	int64_t comm_ns;             /* kernels of type communication */
	uint64_t passes;             /* forward passes found */
	uint32_t layers_per_pass;
	int64_t stage_ns[TS_PSTAGE_COUNT];
	uint64_t stage_passes[TS_PSTAGE_COUNT];
	uint32_t nlayer[TS_PSTAGE_COUNT];      /* layer positions measured */
	int64_t *layer_ns[TS_PSTAGE_COUNT];    /* mean time at each position,
						* 0: none there */
	ts_rank_coll coll[TS_RANK_COLLS];      /* by time, most first */
	size_t ncoll;
	int64_t coll_rest_ns;                  /* collectives past TS_RANK_COLLS */
} ts_rank_summary;

/* Fill *s from a finished analysis (res may be partial or failed). Returns
 * TS_ERR_NOMEM when the per-position arrays cannot be had. */
ts_status ts_rank_summarize(const ts_result *res, int64_t order, ts_rank_summary *s);
void ts_rank_summary_free(ts_rank_summary *s);

/* Saved partials (docs/partial-format.md): a summary's bytes; the loaded
 * one owns its path and arrays. TS_ERR_PARTIAL with r->err set, or
 * TS_ERR_NOMEM. */
void ts_rank_summary_save(const ts_rank_summary *s, ts_wbuf *w);
ts_status ts_rank_summary_load(ts_rank_summary *s, ts_rbuf *r);

/* Number the ranks: their distributedInfo ranks when every one has one and
 * no two are equal, else their order. Returns true when the trace's own
 * ranks were used. */
bool ts_ranks_number(ts_rank_summary *r, size_t n);

/* min / median / max of one figure over the ranks that have it. */
typedef struct {
	int64_t min, median, max;
	size_t slowest;              /* index (into the summaries) of the max */
	size_t n;                    /* ranks with the figure */
} ts_spread;

typedef struct {
	int64_t comm_ns, wait_ns;    /* per rank: collectives, and beyond the
				      * fastest rank's time in each */
} ts_rank_wait;

typedef struct {
	size_t nranks;
	ts_spread kernel, busy;
	ts_spread stage[TS_PSTAGE_COUNT];        /* n 0: no rank has it */
	uint32_t npos[TS_PSTAGE_COUNT];
	ts_spread *pos[TS_PSTAGE_COUNT];         /* per layer position */
	ts_rank_wait *wait;                      /* per rank */
	/* the straggler: one rank slowest at two thirds or more of the layer
	 * positions (of every stage) where the ranks differ, three at least;
	 * -1 none */
	long straggler;
	uint32_t straggler_slowest, straggler_positions;
	double straggler_over_median;            /* its mean excess, 0.12: 12% */
	/* else, by the collective waits: with two ranks or more, the rank that
	 * waits least, where its wait is at most a quarter of the others'
	 * median and that median at least a twentieth of their collective
	 * time (the rank the others wait for) */
	bool straggler_by_waits;
	int64_t straggler_wait_ns, others_wait_ns; /* its wait, the others' median */
} ts_skew;

/* NULL when out of memory. */
ts_skew *ts_skew_new(const ts_rank_summary *r, size_t n);
void ts_skew_free(ts_skew *k);

/* A job over ranks once analysed: each rank's summary, the skew between
 * them, and every rank merged into one result (multi.h runs it). */
typedef struct {
	ts_rank_summary *ranks;     /* in command-line order */
	size_t n;
	bool own_ranks;             /* numbered by their distributedInfo ranks */
	ts_skew *skew;
	ts_result job;              /* every rank merged; job.agg NULL: none */
} ts_multi;

/* A job's GPUs, each distinct name once with its ranks ("NVIDIA H100 80GB
 * HBM3 (ranks 0-7)", "B300 (rank 0), MI300X (rank 1)"); "" for one rank or
 * none. Returns how many distinct GPUs (0 when m is NULL or has one rank). */
size_t ts_job_gpus(const ts_multi *m, char *buf, size_t n);
/* Whether the traces are plainly not the ranks of one run: they ran on
 * different GPUs, or their complete passes have different layer counts;
 * why in buf ("4 GPU kinds, 3 layer counts a pass"). */
bool ts_job_unrelated(const ts_multi *m, char *buf, size_t n);

#endif
