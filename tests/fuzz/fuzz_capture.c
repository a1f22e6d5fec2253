/*
 * fuzz_capture.c - --capture on one input: the bytes are read as a capture
 * trace (graph windows recorded, resolved against its attribution), then
 * again as the trace whose graph replays are matched to that map (kernels
 * held and given back in order), then the text and JSON reports, which
 * print the replay kinds and the captured graphs; then that analysis saved
 * as a partial, merged twice into an empty result and reported (the
 * captures and replays sections), and its capture map taken back as
 * --capture PARTIAL takes it. One input holds both sides: capture windows
 * and graph launches.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pipeline.h"
#include "fuzz.h"
#include "partial.h"
#include "report/report.h"

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sink = fopen("/dev/null", "w");
	if (!sink)
		abort();
	(void)fuzz_builtin_patterns();
	return 0;
}

/* The analysis through a saved partial: merged twice, reported; its map
 * taken back into a new one. */
static void through_partial(const ts_result *res, ts_pipeline_opts po)
{
	ts_wbuf w = { 0 };
	ts_rank_summary sum;
	if (ts_rank_summarize(res, 0, &sum) != TS_OK)
		return;
	ts_status st = ts_partial_save(res, &sum, 1, &w);
	ts_rank_summary_free(&sum);
	if (st != TS_OK) {
		ts_wbuf_free(&w);
		return;
	}
	po.captures = NULL;
	ts_result job;
	ts_partial_ranks pr = { 0 };
	ts_error err = { 0 };
	if (ts_result_empty(&po, "fuzz", &job) == TS_OK) {
		st = ts_partial_merge(&job, w.p, w.n, &pr, 0, &err);
		if (st == TS_OK)
			st = ts_partial_merge(&job, w.p, w.n, &pr, 0, &err);
		if (st == TS_ERR_PARTIAL)
			abort();   /* what was just saved must merge */
		ts_result_settle(&job, &po);
		ts_report_opts ro = { .top = 5 };
		ts_report_json(sink, &job, &ro);
		ts_report_text(sink, &job, &ro);
	}
	ts_result_free(&job);
	ts_partial_ranks_free(&pr);
	ts_capmap *again = ts_capmap_new();
	bool present;
	if (again && ts_partial_captures(again, po.patterns, w.p, w.n, &present, &err) == TS_ERR_PARTIAL)
		abort();
	ts_capmap_free(again);
	ts_wbuf_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ts_capmap *map = ts_capmap_new();
	if (!map)
		return 0;
	ts_pipeline_opts po = fuzz_opts(size);
	po.record = map;
	ts_result res;
	char path[64];
	if (fuzz_run_bytes(data, size, &po, &res, path) != 0) {
		ts_capmap_free(map);
		return 0;
	}
	ts_result_free(&res);
	po.record = NULL;
	po.captures = map;
	if (fuzz_run_bytes(data, size, &po, &res, path) == 0) {
		if (res.opened && res.agg) {
			ts_report_opts ro = { .top = 5 };
			ts_report_json(sink, &res, &ro);
			ts_report_text(sink, &res, &ro);
			through_partial(&res, po);
		}
		ts_result_free(&res);
	}
	ts_capmap_free(map);
	return 0;
}
