/*
 * comm.h - collectives with their sizes and bandwidth.
 *
 * Kineto puts a collective's message on its kernel (args "In msg nelems",
 * "Out msg nelems", "Group size", "dtype"; input/event.h). Each collective
 * kernel (type communication, of the kind its category says where it ran:
 * RCCL's generic kernel takes its op's, and is of kind unknown where no op
 * said, with no message size) is counted per kind, message size
 * and group: calls, time, and bytes, from which the algorithm bandwidth
 * (message bytes over time) and the bus bandwidth (NCCL-tests' factor per
 * kind: all-reduce 2(n-1)/n; all-gather, reduce-scatter, all-to-all
 * (n-1)/n; broadcast and point-to-point 1) follow. The message is what
 * NCCL-tests call the size: all-reduce and broadcast their buffer,
 * all-gather the gathered output, reduce-scatter and all-to-all the whole
 * input.
 *
 * Fixed memory: TS_COMM_ROWS rows of (kind, bytes, group); calls of sizes
 * past them are counted per kind, unsized.
 */
#ifndef TS_COMM_H
#define TS_COMM_H

#include <stdbool.h>
#include <stdint.h>

#include "input/base/wire.h"
#include "input/base/status.h"
#include "input/event.h"
#include "tables/patterns.h"

typedef enum {
	TS_COMM_ALLREDUCE, TS_COMM_ALLGATHER, TS_COMM_REDUCE_SCATTER, TS_COMM_ALLTOALL,
	TS_COMM_BROADCAST, TS_COMM_OTHER, TS_COMM_UNKNOWN, TS_COMM_KINDS
} ts_comm_kind;

const char *ts_comm_kind_name(ts_comm_kind k);

#define TS_COMM_ROWS 256

typedef struct {
	ts_comm_kind kind;
	int64_t msg_bytes;       /* one call's message; -1: not given */
	int32_t group;           /* ranks in the group; 0: not given */
	uint64_t calls;
	int64_t ns, min_ns, max_ns;
} ts_comm_row;

typedef struct ts_comm ts_comm;

ts_comm *ts_comm_new(void);
void ts_comm_free(ts_comm *c);

/* A collective kernel of category cat (its collective: says the kind). */
void ts_comm_kernel(ts_comm *c, const ts_event *ev, const ts_category *cat);

/* Rows by kind, then size; n rows. */
const ts_comm_row *ts_comm_rows(const ts_comm *c, size_t *n);
/* Calls past TS_COMM_ROWS, per kind (counted with no size). */
uint64_t ts_comm_unkept(const ts_comm *c, ts_comm_kind k, int64_t *ns);

/* GB/s of a row (1e9 bytes per second): the algorithm bandwidth, and the
 * bus bandwidth (-1: no size or no group size). */
double ts_comm_algbw(const ts_comm_row *r);
double ts_comm_busbw(const ts_comm_row *r);

/* One kind summed over its rows (compare): calls, time, message bytes of
 * the sized calls, and the bus bandwidth weighted by their time (-1: no
 * sized call with a group). */
typedef struct {
	uint64_t calls, sized_calls;
	int64_t ns, bytes;
	double busbw;
} ts_comm_total;
void ts_comm_kind_total(const ts_comm *c, ts_comm_kind k, ts_comm_total *out);

void ts_comm_save(const ts_comm *c, ts_wbuf *w);
ts_status ts_comm_load(ts_comm *c, ts_rbuf *r);

#endif
