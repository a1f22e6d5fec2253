/*
 * capture.h - the CUDA/HIP graphs a capture run recorded, and the CPU op,
 * call site and workload that launched each of their kernel nodes.
 *
 * A framework profiles its graph capture separately (vLLM writes
 * graph_capture_rank_N.*.pt.trace.json.gz per captured size). In such a
 * trace each captured graph is a window on one CPU thread, from
 * cudaStreamBeginCapture (hipStreamBeginCapture) to its EndCapture; every
 * kernel launch on that thread inside the window is a kernel node of the
 * graph, in launch order. HIP launches carry the kernel's name and grid
 * (args "kernel", "grid"); CUDA's carry neither. The launch's External id
 * gives its CPU op (with shapes, so its workload), the Python frame active
 * at the launch its call site. The graph's size is the number in the
 * capture annotation around the window (vLLM capture_8192_PIECEWISE,
 * SGLang capture_<bs>_...: see ts_capture_size).
 *
 * The map is built while a capture trace goes through the usual pipeline
 * (attribution calls ts_capmap_runtime for every runtime call, the
 * pipeline ts_capmap_annotation for annotations), resolved against that
 * trace's attribution at its end, then only read: by the replay matcher of
 * every trace analysed after it (replay.h), from any thread.
 *
 * Memory: 64 bytes per kernel node while recording (plus 8 for its op's
 * id), and 64 bytes per node of each distinct graph after: identical
 * graphs (same size, same nodes, same attribution; the 23 middle pieces of
 * a piecewise capture) are kept once with a count. Strings (op names, call
 * sites, workloads, kernel names) once each, at most 64 MB. Nodes past
 * TS_CAPTURE_MAX_NODES and graphs past TS_CAPTURE_MAX_GRAPHS are counted,
 * their graphs dropped whole, never cut; windows with no kernel launch are
 * counted, not kept.
 */
#ifndef TS_CAPTURE_H
#define TS_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/event.h"
#include "tables/patterns.h"
#include "input/base/status.h"
#include "input/base/wire.h"

#define TS_CAPTURE_MAX_NODES (1u << 20)   /* kernel nodes recorded, all files */
#define TS_CAPTURE_MAX_GRAPHS 16384       /* graphs kept, all files */
#define TS_CAPTURE_THREADS 64             /* threads with a capture open at once */
#define TS_CAPTURE_ANNOTATIONS 65536      /* capture annotations per file */

/* One kernel node of a captured graph. */
typedef struct {
	uint64_t khash;          /* hash of the kernel name; 0: not given (CUDA) */
	uint64_t flops, bytes;   /* of its op call by its workload rule; 0 unknown */
	int32_t grid[3];         /* grid[0] 0: not given */
	uint32_t kname;          /* kernel name (string id), TS_INTERN_NONE */
	uint32_t op;             /* CPU op name (string id), TS_INTERN_NONE: no op */
	uint32_t cs;             /* call site (string id), TS_INTERN_NONE */
	uint32_t wl;             /* workload "NAME\x1fDTYPE" (string id), TS_INTERN_NONE */
	uint32_t rule;           /* the operator rule that named the workload */
	uint32_t m;              /* tokens (M) of the op, 0 unknown */
	uint16_t heads;
	uint8_t first;           /* the first kernel node of its op call */
	uint8_t cont;            /* the op continues a sequence call */
} ts_capnode;

typedef struct {
	int64_t size;            /* from the capture annotation; -1 unknown */
	uint32_t node0, nnodes;  /* its nodes in ts_capmap_node */
	uint32_t file;           /* capture trace (string id) */
	uint32_t index;          /* its number among the file's graphs, from 1 */
	uint32_t ann;            /* the capture annotation (string id), TS_INTERN_NONE */
	uint32_t copies;         /* identical graphs folded into this one */
	uint64_t attr;           /* hash of what its nodes attribute (ops, sites, workloads) */
} ts_capgraph;

typedef struct {
	uint64_t windows;        /* BeginCapture .. EndCapture windows closed */
	uint64_t unclosed;       /* windows with no EndCapture (dropped) */
	uint64_t overlapping;    /* windows begun while another thread's was open (dropped) */
	uint64_t launches;       /* kernel launches inside windows */
	uint64_t nodes_no_op;    /* of them, with no CPU op found */
	uint64_t nodes_dropped;  /* past TS_CAPTURE_MAX_NODES, or memory */
	uint64_t graphs;         /* graphs recorded (before folding) */
	uint64_t graphs_dropped; /* past TS_CAPTURE_MAX_GRAPHS (their nodes too) */
	uint64_t empty;          /* windows with no kernel launch */
	uint64_t annotations_dropped;
	uint32_t files;
} ts_capture_totals;

typedef struct ts_capmap ts_capmap;

ts_capmap *ts_capmap_new(void);
void ts_capmap_free(ts_capmap *m);

/* Recording one capture trace: start, feed, then resolve (the attribution
 * of that trace: ts_attrib_op_info). */
ts_status ts_capmap_begin_file(ts_capmap *m, const char *path);
/* Every runtime call, with the call site attribution found for it. */
void ts_capmap_runtime(ts_capmap *m, const ts_event *ev, const char *site, size_t site_len);
void ts_capmap_annotation(ts_capmap *m, const ts_event *ev);

/* What the capture trace's attribution knows of the op of an External id. */
typedef struct {
	const char *op;          /* NULL: no op */
	size_t op_len;
	const char *wl;          /* workload key, NULL none */
	size_t wl_len;
	uint32_t rule, m;
	uint16_t heads;
	uint8_t cont;
	uint64_t flops, bytes;
} ts_opinfo;

typedef bool (*ts_opinfo_fn)(void *ctx, int64_t ext, ts_opinfo *out);
ts_status ts_capmap_end_file(ts_capmap *m, ts_opinfo_fn info, void *ctx);

/* The size a capture annotation names: the number after "bs=" if it says
 * one, else the first number after "capture" (case aside); -1 when the
 * name is not a capture annotation. */
int64_t ts_capture_size(const char *s, size_t n);

size_t ts_capmap_ngraphs(const ts_capmap *m);
const ts_capgraph *ts_capmap_graph(const ts_capmap *m, size_t i);
const ts_capnode *ts_capmap_node(const ts_capmap *m, size_t i);
size_t ts_capmap_nnodes(const ts_capmap *m);
const char *ts_capmap_str(const ts_capmap *m, uint32_t id, size_t *len);
const ts_capture_totals *ts_capmap_totals(const ts_capmap *m);
size_t ts_capmap_bytes(const ts_capmap *m);

/*
 * Saved partials (docs/partial-format.md, captures section): the map's
 * strings, the operator rules its workloads name (by kind and template),
 * and per capture file its counts, graphs and their kernel nodes.
 * ts_capmap_merge adds a saved map to m: a file that m already has (the
 * same path, counts, graphs and nodes: one capture given to several ranks
 * of a run) is not added twice; graphs past the limits are left out whole
 * and counted. *gmap (free it) sends each saved graph, in order, to its
 * index in m, -1 left out. TS_ERR_PARTIAL with r's error; TS_ERR_NOMEM.
 */
void ts_capmap_save(const ts_capmap *m, const ts_patterns *p, ts_wbuf *w);
ts_status ts_capmap_merge(ts_capmap *m, const ts_patterns *p, ts_rbuf *r, long **gmap,
			  size_t *ngmap);

#endif
