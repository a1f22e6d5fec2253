/*
 * kview.h - the kernel rows of a finished analysis, as every report and
 * the comparison read them: all kernels or one stage's, ordered by time,
 * cut into pieces by context, summed by type and category, the short
 * names that tell its rows apart, and the operator coverage of the model
 * family. Reads a ts_result only.
 */
#ifndef TS_KVIEW_H
#define TS_KVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/views/result.h"

typedef struct ts_breakdown ts_breakdown;
typedef struct ts_kview ts_kview;

#define TS_ROW_OTHER UINT32_MAX

/* The kernel rows a report shows: every kernel, or those of one stage
 * (kernels take the stage of their forward pass; see layers.h). */
struct ts_kview {
	const ts_agg *agg;
	const ts_stat *rows;       /* indexed by kernel row; NULL: none */
	const ts_stat *other;      /* the (other) row */
	const ts_stat *all;        /* every kernel of the view */
	bool staged;               /* false: every stage */
	ts_pstage stage;
};

/* The view of every kernel (staged false) or of one stage's. */
ts_kview ts_kview_of(const ts_result *res, bool staged, ts_pstage stage);

/* Kernel rows ordered by total time (desc), then name; the (other) row,
 * when used, takes its place by time. Caller frees. *n gets the count. */
uint32_t *ts_kview_kernel_order(const ts_kview *v, size_t *n);

const ts_stat *ts_kview_row(const ts_kview *v, uint32_t row);
const char *ts_kview_row_name(const ts_agg *a, uint32_t row, size_t *len);

const ts_kclass *ts_kview_row_class(const ts_agg *a, uint32_t row);

/* Time by type and by category over kernels and memory operations.
 * cats has ncategories + 1 entries; the last is "Other". */
typedef struct {
	uint64_t count;
	int64_t total_ns;
} ts_bucket;

struct ts_breakdown {
	ts_bucket types[TS_TYPE_COUNT];
	ts_bucket *cats;           /* ncats + 1 */
	size_t ncats;
	int64_t total_ns;          /* kernels + memory operations */
	int64_t classified_ns;     /* kernel time with a type other than other */
	int64_t words_ns;          /* of it, typed by the words of a name no
				    * rule knows (words: rules) */
};

/* A kernel view in pieces, each given to fn: a kernel row's time outside
 * any context with the row's own class, its time in a context with the
 * context's class, the (other) row, and, with with_mem and an unstaged
 * view, each kind of memory operation (mem: its ts_memkind; -1 for
 * kernels). Every timed launch of the view is in exactly one piece. */
typedef struct {
	uint32_t row;              /* TS_ROW_OTHER: the (other) row or memory */
	const ts_kclass *cls;
	uint64_t count;
	int64_t ns;
	int mem;
} ts_piece;

typedef void (*ts_piece_fn)(void *ctx, const ts_piece *p);
void ts_kview_pieces(const ts_result *res, const ts_kview *v, bool with_mem,
		      ts_piece_fn fn, void *ctx);

/* Memory operations are counted only in the unstaged view. */
int ts_kview_breakdown(const ts_result *res, const ts_kview *v, ts_breakdown *b);

/* Indices of the non-empty buckets of b[0..n), by time (desc); returns how
 * many were written to idx (room for n). */
size_t ts_sort_buckets(const ts_bucket *b, size_t n, size_t *idx);
void ts_breakdown_free(ts_breakdown *b);
const char *ts_breakdown_cat_name(const ts_result *res, size_t i);
ts_ktype ts_breakdown_cat_type(const ts_result *res, size_t i);

/* Short names for every kernel row of a (indexed by row; caller frees;
 * NULL when out of memory), told apart where several rows share one: each
 * gets the words of its full name that differ from the others' ("s6
 * ldgsts" against "s5 rgTma"), or " ~XXXX", four hex digits of a hash of
 * its full name, where words do not tell it apart, so the labels stay
 * stable across traces. Every report shows kernels by these. */
char (*ts_kview_short_names(const ts_agg *a))[TS_SHORT_MAX + 1];

/* Kernel rows no rule matched, by total time (desc). Caller frees. */
uint32_t *ts_kview_unclassified(const ts_kview *v, size_t *n);

/* The attribution view of a kernel view: TS_ATTRIB_ALL or its stage. */
int ts_kview_attrib_view(const ts_kview *v);
/* Attribution buckets a report lists: graph_op (the last) only with
 * --capture, or a merged result that has some. */
int ts_kview_nbuckets(const ts_result *res);


/* --verify-ops: each operator kind the model family declares, and what the
 * trace (view) holds of it. */
typedef struct {
	const char *kind;
	bool required;
	uint64_t calls;            /* op calls with a workload of this kind */
	size_t definitions;        /* distinct workload names among them */
} ts_opcov;

#define TS_MAX_OPCOV 64
/* Fills out (room for TS_MAX_OPCOV); returns the count, -1 when the model
 * family is unknown. *missing: required kinds with no call. */
int ts_kview_coverage(const ts_result *res, const ts_kview *v, ts_opcov *out,
		       int *missing);

#endif
