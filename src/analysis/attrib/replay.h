/*
 * replay.h - graph replays matched to the graphs a capture trace recorded
 * (--capture), so that replayed kernels get back the op, call site and
 * workload that launched them at capture.
 *
 * A replay is the kernels that share one graph launch's correlation. Which
 * graph was launched the trace does not say, so a replay is matched by what
 * it holds: its size (the step annotation open at the launch: vLLM
 * execute_<tokens>_..., SGLang step[... bs=N]) picks the captured graphs of
 * that size, else of the next captured size above (frameworks pad a batch
 * up to a captured size; vLLM's annotation counts the tokens before
 * padding), else of the size below; of those, the ones with as many
 * kernel nodes as the replay has kernels, each node agreeing with the
 * kernel at its place (the name and grid where the capture has them: HIP
 * launches name their kernel, CUDA's do not); on HIP a graph also fits a
 * replay of its kernels in another order (a graph on several streams),
 * each kernel paired with a node of its name and grid in turn. When every graph that fits
 * attributes the same (the identical layer pieces of a piecewise capture),
 * the replay takes it; when none fits, or several that disagree, the
 * replay keeps no op and its kind says why. Nothing is guessed.
 *
 * The kernels of a replay must wait until the replay is complete (the
 * next kernel on its stream is another's, or the input ends) and, on
 * NVIDIA, until their launch is seen
 * (written after them). So while a capture map is in use the pipeline
 * hands every kernel here and takes them back in the same order, each
 * with its node; a kernel that needs no waiting (an op of its own, a
 * plain launch) goes straight on unless older ones wait. At most
 * TS_REPLAY_HOLD kernels wait: past that the oldest replay is decided on
 * what it has (counted as forced) and kernels still waiting for their
 * launch go on as they are (the attribution's own look-ahead takes them).
 */
#ifndef TS_REPLAY_H
#define TS_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/attrib/attrib.h"
#include "analysis/attrib/capture.h"
#include "input/event.h"
#include "input/base/warn.h"
#include "input/base/wire.h"

#define TS_REPLAY_HOLD 65536   /* kernels held back at most */
#define TS_REPLAY_ROWS 256     /* kinds of replay reported */

/* One kind of replay: size, kernel count and kernel sequence. */
typedef struct {
	int64_t size;            /* its step annotation's; -1 unknown */
	int64_t matched_size;    /* the captured size it was held against; -1 any */
	uint32_t nkernels;
	uint64_t seq;            /* hash of its kernel names in order */
	uint64_t replays, kernels;
	int64_t ns;
	long graph;              /* the captured graph it took (ts_capmap_graph), -1 none */
	uint32_t fits;           /* graphs that fit (identical attribution when it took one) */
	bool reordered;          /* its kernels ran in another order than the
				  * graph's launches (several streams): paired
				  * by name and grid */
	char first[80];          /* its first kernel's name, cut */
	char reason[240];        /* why it took none */
} ts_replay_row;

typedef struct {
	uint64_t replays, matched, refused;
	uint64_t kernels, kernels_matched;
	int64_t ns, ns_matched;
	uint64_t late;           /* kernels of a replay already decided */
	uint64_t forced;         /* replays decided early: the hold was full */
	uint64_t held_max;       /* most kernels held at once */
	uint64_t rows_dropped;   /* replays of kinds past TS_REPLAY_ROWS */
} ts_replay_totals;

typedef struct ts_replay ts_replay;

ts_replay *ts_replay_new(const ts_capmap *map);
void ts_replay_free(ts_replay *r);

/* Hold a kernel, with what attribution links it to so far. false: memory
 * ran out; the caller lets it go on as it is. */
bool ts_replay_kernel(ts_replay *r, const ts_event *ev, uint32_t row, ts_link link);
/* A runtime call of correlation corr: a graph launch, with the size its
 * step names, or another launch. */
void ts_replay_launch(ts_replay *r, int64_t corr, bool graph, int64_t size);
/* The next kernel that may go on, in the order they came: *ev (its name
 * valid until the next call), its kernel row, and *node, the captured node
 * it replays (SIZE_MAX: attribute it as usual). flush: the input is over,
 * decide everything. false: none may go yet. */
bool ts_replay_next(ts_replay *r, bool flush, ts_event *ev, uint32_t *row, size_t *node);

const ts_replay_totals *ts_replay_get_totals(const ts_replay *r);
size_t ts_replay_nrows(const ts_replay *r);
const ts_replay_row *ts_replay_row_at(const ts_replay *r, size_t i);
const ts_capmap *ts_replay_map(const ts_replay *r);

/*
 * Saved partials (docs/partial-format.md, replays section): the totals and
 * each kind of replay, its graph an index of the partial's captures.
 * ts_replay_merge adds them to r (whose map the captures were merged into:
 * gmap, from ts_capmap_merge, sends each saved graph to its index there):
 * the same kind decided the same way adds to one row. TS_ERR_PARTIAL with
 * rb's error (nothing added), TS_ERR_NOMEM.
 */
void ts_replay_save(const ts_replay *r, ts_wbuf *w);
ts_status ts_replay_merge(ts_replay *r, ts_rbuf *rb, const long *gmap, size_t ngmap);

/* Replays that kept no op or were decided early, and the capture windows
 * and nodes left out, as warnings. */
void ts_replay_warnings(const ts_replay *r, ts_warns *w);

#endif
