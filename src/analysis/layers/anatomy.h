/*
 * anatomy.h - the typical transformer layer of each stage, taken apart.
 *
 * The layer machine hands over each complete pass as the list of its layer
 * kernels (layer index, kernel row, class, time, cost); the anatomy sums
 * them per stage by kernel type, by category and by kernel row, with the
 * number of layers they came from. Dividing by that number gives the mean
 * layer, and the parts add up to the mean layer time exactly, because they
 * are sums of the same kernels. Per type it also keeps the distribution of
 * the per-layer time (p50), and the FLOPs and bytes of the calls that have
 * them (the roofline of a layer). Kernel rows keep the earliest position
 * they took in a layer, and a kernel called again in a layer has a row for
 * each call, so a layer reads in its real order, repeats included.
 *
 * Memory: a few counters per stage and type, and per kernel row (bounded
 * by the name cap of the aggregate); nothing grows with passes or layers.
 */
#ifndef TS_ANATOMY_H
#define TS_ANATOMY_H

#include <stdbool.h>
#include <stdint.h>

#include "tables/patterns.h"
#include "analysis/stat.h"
#include "input/base/wire.h"

#define TS_ANAT_STAGES 4        /* = TS_PSTAGE_COUNT, checked in layers.c */

/* One kernel of a layer, as the layer machine lists it. */
typedef struct {
	uint32_t layer;          /* index within its pass */
	uint32_t row;            /* kernel row; TS_INTERN_NONE past the name cap */
	int64_t ts, dur;         /* trace ns */
	uint64_t flops, bytes;   /* of its op call, on the call's first kernel only */
	uint32_t wl;             /* workload row of the op, TS_INTERN_NONE none */
	bool has_flops, has_bytes; /* its call has them (every kernel of it) */
	int16_t category;        /* -1: Other */
	uint8_t type;            /* ts_ktype */
} ts_anat_kernel;

/* A sum of kernels: per type, per category, per row. */
typedef struct {
	uint64_t count;
	int64_t ns;
	uint64_t flops, bytes;
	int64_t flops_ns, bytes_ns;  /* time of the kernels of calls with them */
	uint64_t flops_calls, bytes_calls;
	uint32_t wl;             /* the first workload row with a cost, for its dtype */
} ts_anat_sum;

typedef struct {
	ts_anat_sum sum;
	ts_stat per_layer;       /* this type's time in each layer (zeros too) */
} ts_anat_type;

typedef struct {
	ts_anat_sum sum;
	uint32_t pos;            /* earliest position in a layer (0 first) */
	uint64_t first;          /* order of first sight, for ties */
} ts_anat_row;

typedef struct ts_anatomy ts_anatomy;

ts_anatomy *ts_anatomy_new(size_t ncategories);
void ts_anatomy_free(ts_anatomy *a);

/* Saved partials (docs/partial-format.md). Categories go by name (p: the
 * tables the anatomy was made with); ts_anatomy_load adds to a, sending
 * saved kernel rows through kmap and workload rows through wlmap (NULL:
 * none kept). TS_ERR_PARTIAL with r->err set, or TS_ERR_NOMEM. */
void ts_anatomy_save(const ts_anatomy *a, const ts_patterns *p, ts_wbuf *w);
ts_status ts_anatomy_load(ts_anatomy *a, const ts_patterns *p, ts_rbuf *r,
			  const uint32_t *kmap, uint32_t nk, const uint32_t *wlmap, uint32_t nwl);

/* Add one complete pass of stage s: its n layer kernels (layers nlayers). */
void ts_anatomy_add(ts_anatomy *a, int s, const ts_anat_kernel *k, size_t n,
		    uint32_t nlayers);
/* A complete pass whose kernels could not all be listed. */
void ts_anatomy_skip(ts_anatomy *a, int s);

/* --- results --- */
uint64_t ts_anatomy_layers(const ts_anatomy *a, int s);   /* layers summed */
uint32_t ts_anatomy_passes(const ts_anatomy *a, int s);
uint32_t ts_anatomy_skipped(const ts_anatomy *a, int s);
const ts_anat_sum *ts_anatomy_total(const ts_anatomy *a, int s);
const ts_stat *ts_anatomy_layer_time(const ts_anatomy *a, int s);   /* kernel time a layer */
/* A layer's wall: its first kernel's start to the next layer's (the last:
 * to its end); kernels on several streams at once make kernel time exceed it. */
const ts_stat *ts_anatomy_layer_wall(const ts_anatomy *a, int s);
const ts_anat_type *ts_anatomy_type(const ts_anatomy *a, int s, int type);
/* category -1 (Other) .. ncategories-1 */
const ts_anat_sum *ts_anatomy_category(const ts_anatomy *a, int s, int category);
size_t ts_anatomy_ncategories(const ts_anatomy *a);
/* A layer's kernels in layer order (earliest position, then first
 * sight), repeats included: a kernel called again in a layer has a row
 * per call (its second call, third, ...; REP_MAX a stage, the rest in
 * its first). Each is an id: a kernel row, or TS_ANAT_REPEAT + i for a
 * repeat. The caller frees. n: ids with time in the stage. */
#define TS_ANAT_REPEAT (1u << 31)
uint32_t *ts_anatomy_rows(const ts_anatomy *a, int s, size_t *n);
const ts_anat_row *ts_anatomy_row(const ts_anatomy *a, int s, uint32_t id);
/* The kernel row of an id, and in *call which call of it in a layer it is
 * (0 the first). */
uint32_t ts_anatomy_row_kernel(const ts_anatomy *a, int s, uint32_t id, uint32_t *call);
/* The same passes' layer positions: blocks of layers with a surcharge
 * (position.h). */
typedef struct ts_position ts_position;
const ts_position *ts_anatomy_position(const ts_anatomy *a);
/* Time of the layer kernels past the name cap. */
const ts_anat_sum *ts_anatomy_other_rows(const ts_anatomy *a, int s);

#endif
