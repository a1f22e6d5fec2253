/*
 * The attribution record's graph replays (ts_aview.rp, aview.h), checked
 * against two hand-made traces whose answers are known by construction
 * (CUDA's form: launches name no kernel; the kernels come before their
 * cudaGraphLaunch, as CUPTI writes them):
 *
 *   tests/capture/aview_capture.json: three capture windows, each
 *   aten::mm, aten::silu, aten::add launching one kernel: annotated
 *   capture_8_DECODE, capture_16_DECODE and capture_16_DECODE again,
 *   identical, so 3 graphs recorded, 2 kept (the size-16 one with 2
 *   copies), 9 launches, 6 kernel nodes kept;
 *
 *   tests/capture/aview_replay.json: five graph launches, each in a
 *   step[DECODE bs=N] annotation: bs=8 of 10 + 3 + 1 us, bs=16 of 20 + 6
 *   + 2, bs=8 of 11 + 4 + 1, bs=32 of four kernels of 5 us (no graph of
 *   32 was captured; the size below, 16, has 3 nodes: refused), bs=16 of
 *   20 + 6 + 2; then an eager kernel of its own op.
 *
 * So three kinds of replay in the order first seen: size 8 on the size-8
 * graph (2 replays, 6 kernels, 30 us), size 16 on the size-16 graph (2,
 * 6, 56 us), size 32 held against 16 and refused (1, 4, 20 us, with its
 * reason); in all 5 replays, 4 matched, 16 kernels, 12 matched, 106 us,
 * 86 matched. Without --capture the record has no replays.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/views/aview.h"
#include "pipeline.h"
#include "unit.h"
#include "unit_tables.h"

#define CAPTURE "tests/capture/aview_capture.json"
#define REPLAY "tests/capture/aview_replay.json"
#define US 1000   /* ns */

/* One kind of replay as it was built. */
typedef struct {
	int64_t size, matched_size;
	uint32_t nkernels;
	uint64_t replays, kernels;
	int64_t ns;
	long graph;
	uint32_t fits;
	const char *reason;   /* "" none */
} kind;

static const kind kinds[] = {
	{ 8, 8, 3, 2, 6, (10 + 3 + 1 + 11 + 4 + 1) * US, 0, 1, "" },
	{ 16, 16, 3, 2, 6, 2 * (20 + 6 + 2) * US, 1, 1, "" },
	{ 32, 16, 4, 1, 4, 4 * 5 * US, -1, 0,
	  "4 kernels replayed; the captured graphs of size 16 have 3" },
};
#define NKINDS (sizeof kinds / sizeof *kinds)

static bool str_is(const char *s, size_t len, const char *want)
{
	return s && len == strlen(want) && memcmp(s, want, len) == 0;
}

/* The capture's graphs: sizes, nodes, copies, names. */
static void graphs_are(const ts_aview_replays *rp)
{
	const ts_capture_totals *ct = rp->ct;
	CHECK(ct && ct->files == 1 && ct->windows == 3 && ct->graphs == 3 && ct->launches == 9 &&
	      ct->nodes_no_op == 0 && ct->empty == 0 && ct->unclosed == 0,
	      "capture: one file, 3 windows, 3 graphs, 9 launches, each with its op");
	CHECK(rp->ngraphs == 2 && rp->nnodes == 6 && rp->bytes > 0,
	      "capture: 2 distinct graphs kept, 6 kernel nodes (got %zu, %zu)", rp->ngraphs,
	      rp->nnodes);
	if (rp->ngraphs != 2)
		return;
	static const struct { int64_t size; uint32_t index, copies; const char *ann; } want[] = {
		{ 8, 1, 1, "capture_8_DECODE" }, { 16, 2, 2, "capture_16_DECODE" },
	};
	for (size_t i = 0; i < 2; i++) {
		const ts_aview_graph *g = &rp->graphs[i];
		CHECK(g->g && g->g->size == want[i].size && g->g->nnodes == 3 &&
		      g->g->index == want[i].index && g->g->copies == want[i].copies &&
		      str_is(g->ann, g->ann_len, want[i].ann) && str_is(g->file, g->file_len, CAPTURE),
		      "graph %zu: size %lld, 3 nodes, number %u of its file, %u cop%s, %s", i,
		      (long long)want[i].size, want[i].index, want[i].copies,
		      want[i].copies == 1 ? "y" : "ies", want[i].ann);
	}
}

/* The kinds of replay, in the order first seen, and the totals. */
static void replays_are(const ts_aview_replays *rp)
{
	CHECK(rp->nrows == NKINDS && rp->rows, "replays: %zu kinds (got %zu)", NKINDS, rp->nrows);
	for (size_t i = 0; i < rp->nrows && i < NKINDS; i++) {
		const ts_replay_row *r = rp->rows[i];
		const kind *k = &kinds[i];
		CHECK(r && r->size == k->size && r->matched_size == k->matched_size &&
		      r->nkernels == k->nkernels && r->replays == k->replays &&
		      r->kernels == k->kernels && r->ns == k->ns && r->graph == k->graph &&
		      r->fits == k->fits && !r->reordered && strcmp(r->reason, k->reason) == 0 &&
		      strcmp(r->first, "gemm_kernel") == 0,
		      "kind %zu: size %lld against %lld, %u kernels, %llu replays, %lld us, graph %ld%s%s",
		      i, (long long)k->size, (long long)k->matched_size, k->nkernels,
		      (unsigned long long)k->replays, (long long)(k->ns / US), k->graph,
		      *k->reason ? ": " : "", k->reason);
	}
	const ts_replay_totals *t = rp->t;
	CHECK(t && t->replays == 5 && t->matched == 4 && t->refused == 1 && t->kernels == 16 &&
	      t->kernels_matched == 12 && t->ns == 106 * US && t->ns_matched == 86 * US &&
	      t->late == 0 && t->forced == 0 && t->rows_dropped == 0,
	      "replays: 5, 4 matched, 1 refused; 16 kernels, 12 matched; 106 us, 86 matched");
}

static int analyse(const char *path, ts_pipeline_opts *po, ts_result *res)
{
	ts_status st = ts_pipeline_run(path, po, res);
	CHECK(st == TS_OK, "%s analyses", path);
	return st == TS_OK ? 0 : -1;
}

/* The record of res in all kernels' view, its replays checked by check. */
static void record(const ts_result *res, void (*check)(const ts_aview *v))
{
	ts_kview kv = ts_kview_of(res, false, TS_PSTAGE_UNKNOWN);
	ts_aview v;
	int rc = ts_aview_of(res, &kv, &v);   /* CHECK reads its condition twice */
	CHECK(rc == 0, "the record builds");
	if (rc == 0)
		check(&v);
	ts_aview_free(&v);
	CHECK(!v.rp.graphs && !v.rp.rows && v.rp.ngraphs == 0 && v.rp.nrows == 0,
	      "freed, the record holds no graph or replay row");
}

static void captured(const ts_aview *v)
{
	CHECK(v->rp.present && v->rp.t && v->rp.ct, "with --capture: the replays are present");
	if (!v->rp.present || !v->rp.t || !v->rp.ct)
		return;
	graphs_are(&v->rp);
	replays_are(&v->rp);
}

static void uncaptured(const ts_aview *v)
{
	CHECK(!v->rp.present && !v->rp.t && !v->rp.ct && v->rp.nrows == 0 && v->rp.ngraphs == 0 &&
	      !v->rp.rows && !v->rp.graphs,
	      "without --capture: no replays, no graphs");
}

int main(void)
{
	ts_patterns *pats = unit_tables();
	ts_capmap *map = ts_capmap_new();
	CHECK(pats && map, "the tables load, a capture map");
	if (!pats || !map) {
		ts_capmap_free(map);
		ts_patterns_free(pats);
		return 1;
	}
	ts_pipeline_opts po = { .limits = ts_limits_default(), .patterns = pats, .record = map };
	ts_result res;
	int rc = analyse(CAPTURE, &po, &res);
	ts_result_free(&res);
	if (rc == 0) {
		po.record = NULL;
		po.captures = map;
		if (analyse(REPLAY, &po, &res) == 0)
			record(&res, captured);
		ts_result_free(&res);
		po.captures = NULL;
		if (analyse(REPLAY, &po, &res) == 0)
			record(&res, uncaptured);
		ts_result_free(&res);
	}
	ts_capmap_free(map);
	ts_patterns_free(pats);
	return unit_failed != 0;
}
