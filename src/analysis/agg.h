/*
 * agg.h - rolling aggregates of one trace: the kernel table, memory copies,
 * event counts, spans and per-device busy time.
 *
 * Memory is fixed by ts_limits: the kernel table holds at most
 * max_kernel_names distinct names (past that, launches are folded into one
 * "(other)" row and counted), devices at most max_devices. Nothing grows with
 * the number of events. Events are borrowed for the call; names that are
 * kept are interned. The struct is read by reporters and written only through
 * ts_agg_* functions. Two ts_agg can live in one process; every figure here
 * is a sum, min/max or mergeable statistic, so results of several files can
 * be combined.
 */
#ifndef TS_AGG_H
#define TS_AGG_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/busy.h"
#include "analysis/limits.h"
#include "analysis/context.h"
#include "tables/classify.h"
#include "input/event.h"
#include "input/base/intern.h"
#include "analysis/stat.h"
#include "input/base/status.h"
#include "input/base/warn.h"
#include "input/base/wire.h"


typedef enum {
	TS_MEM_HTOD, TS_MEM_DTOH, TS_MEM_DTOD, TS_MEM_HTOH, TS_MEM_PTOP,
	TS_MEM_MEMSET, TS_MEM_OTHER, TS_MEM_COUNT
} ts_memkind;

const char *ts_memkind_name(ts_memkind k);

typedef struct {
	uint64_t count;
	int64_t total_ns;
	int64_t bytes;          /* sum of args.bytes where given */
	uint64_t with_bytes;    /* how many carried args.bytes */
} ts_memrow;

#define TS_MAX_DEVICES 64

/* A device's busy time split (overlap): the union of its computation
 * kernels, of its communication kernels, of its memory copies and sets,
 * and of every kernel and copy together. With the union of kernels
 * (busy), they give what ran hidden under what (ts_agg_overlap). Each is
 * made when first needed: computation and kernels-with-copies as copies of
 * busy at the first collective and the first copy (until then they are
 * busy), the others empty; NULL before. */
enum { TS_SPLIT_COMPUTE, TS_SPLIT_COMM, TS_SPLIT_MEM, TS_SPLIT_ALL, TS_SPLIT_COUNT };

typedef struct {
	int64_t id;
	ts_busy *busy;
	ts_busy *split[TS_SPLIT_COUNT];
	uint64_t kernels;
	int64_t kernel_ns;
} ts_device;

/* The trace's busy time split, summed over devices: computation,
 * communication, copies; of communication, the time computation ran too
 * (hidden); of copies, the time a kernel ran too; busy (kernels) and
 * busy with copies. */
typedef struct {
	int64_t compute_ns, comm_ns, mem_ns, busy_ns, all_ns;
	int64_t comm_hidden_ns, mem_hidden_ns;
} ts_overlap;

/* The time of one kernel name that ran in a context (context.h) and took
 * the context's category there. A name has TS_CTX_SLOTS of them (one
 * generic collective kernel runs all-reduces, all-gathers and
 * reduce-scatters, each its op's kind): ctx[row * TS_CTX_SLOTS + k]. */
typedef struct {
	int32_t category;           /* -1: never in a context */
	uint64_t count;
	int64_t ns;
	ts_kclass cls;              /* the name's class in the context */
} ts_ctxrow;

typedef struct ts_agg {
	ts_limits lim;
	const ts_patterns *patterns; /* borrowed; NULL: no classification */
	ts_intern *names;           /* kernel names; id == row index */
	ts_stat *rows;              /* per kernel name */
	ts_kclass *classes;         /* per kernel name, classified once */
	ts_ctxrow *ctx;             /* per kernel name, TS_CTX_SLOTS: time in contexts */
	uint64_t ctx_conflicts;     /* kernels in a context category past the slots */
	size_t rows_cap;
	ts_stat other;              /* launches folded past the name cap */
	ts_stat all;                /* every timed kernel */
	uint64_t counts[TS_CAT_COUNT];
	uint64_t events;
	uint64_t kernels;           /* kernel events, timed or not */
	uint64_t untimed_kernels;   /* kernel events without ts or dur */
	ts_memrow mem[TS_MEM_COUNT];
	ts_kclass mem_class[TS_MEM_COUNT]; /* from the first name of each kind */
	const ts_kclass *last_mem_class;   /* the last copy's or fill's */
	ts_device dev[TS_MAX_DEVICES];
	int ndev;
	uint64_t dev_overflow;      /* kernels on devices past the cap */
	bool has_span, has_kspan;
	int64_t first_ts, last_end; /* all events but metadata */
	int64_t k_first, k_last;    /* kernels */
	uint32_t last_row;          /* the last kernel's row (TS_INTERN_NONE: (other)) */
	const ts_kclass *last_class; /* and class; valid until the next event */
	int nvidia_names, amd_names;        /* platform evidence from kernel names */
	uint64_t nvidia_runtime, amd_runtime; /* from runtime call names */
} ts_agg;

/* patterns (borrowed, may be NULL) classify each distinct name once. */
ts_agg *ts_agg_new(const ts_limits *lim, const ts_patterns *patterns);
/* The class of a kernel row (TS_INTERN_NONE: the (other) row's). */
const ts_kclass *ts_agg_class(const ts_agg *a, uint32_t row);
void ts_agg_free(ts_agg *a);

/* Account one event. TS_ERR_NOMEM is the only failure. */
ts_status ts_agg_event(ts_agg *a, const ts_event *ev);

void ts_agg_overlap(const ts_agg *a, ts_overlap *o);
int64_t ts_agg_busy_ns(const ts_agg *a);
uint64_t ts_agg_busy_late(const ts_agg *a);

/* The device with the most kernel time, or NULL without kernels. */
const ts_device *ts_agg_main_device(const ts_agg *a);

/* The class of the (other) row: everything folded past the name cap. */
extern const ts_kclass ts_other_class;

/* A kernel of row ran in a context giving it category: account it and
 * return its class there, *slot its slot + 1 (NULL and 0: not accounted,
 * the name's class stands). */
const ts_kclass *ts_agg_context(ts_agg *a, uint32_t row, int category, int64_t dur,
				unsigned *slot);
/* The contexts of row: TS_CTX_SLOTS of them, category -1 where unused. */
static inline const ts_ctxrow *ts_agg_ctx(const ts_agg *a, uint32_t row)
{
	return &a->ctx[(size_t)row * TS_CTX_SLOTS];
}

/* The launches and time of row in any context; returns how many context
 * slots hold some of them. */
int ts_agg_ctx_total(const ts_agg *a, uint32_t row, uint64_t *count, int64_t *ns);

/* Bytes held by the tables, for -v. */
size_t ts_agg_bytes(const ts_agg *a);

/* Saved partials (docs/partial-format.md). ts_agg_load merges the saved
 * aggregates into a (names interned again, classified by a's tables; rows
 * past a's cap fold into (other)) and gives the row each saved row became:
 * *map (free it) holds *nmap rows, TS_INTERN_NONE for (other), and *slots
 * (free it) the context slot + 1 each saved row's slots became
 * (slots[i * TS_CTX_SLOTS + k]; 0: none). TS_ERR_PARTIAL with r->err set,
 * or TS_ERR_NOMEM. */
void ts_agg_save(const ts_agg *a, ts_wbuf *w);
ts_status ts_agg_load(ts_agg *a, ts_rbuf *r, uint32_t **map, uint8_t **slots, uint32_t *nmap);

/* The kernels the aggregates could not hold or time, as warnings. */
void ts_agg_warnings(const ts_agg *a, ts_warns *w);

/* The class a name's row reports: the context's that holds most of its
 * time (see ts_agg_context), else its own. */
const ts_kclass *ts_agg_row_class(const ts_agg *a, uint32_t row);

#endif
