/*
 * fuzz_capture.c - --capture on one input: the bytes are read as a capture
 * trace (graph windows recorded, resolved against its attribution), then
 * again as the trace whose graph replays are matched to that map (kernels
 * held and given back in order), then the text and JSON reports, which
 * print the replay kinds and the captured graphs. One input holds both
 * sides: capture windows and graph launches.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pipeline.h"
#include "fuzz.h"
#include "report.h"

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
		}
		ts_result_free(&res);
	}
	ts_capmap_free(map);
	return 0;
}
