/*
 * fuzz_trace.c - the whole trace pipeline on one input: read (plain or
 * gzip, by magic) through the parser, classifier, layer machine,
 * attribution and aggregates, then the JSON report (which reads every
 * aggregate). The tables are loaded once per process. The input's size
 * picks the read size (chunk boundaries move) and, one time in four, tiny
 * caps (so the (other) row, the join's memory cap and the busy window's
 * clipping are reached). fuzz_report.c adds every other reporter.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pipeline.h"
#include "fuzz.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ts_pipeline_opts po = fuzz_opts(size);
	ts_result res;
	char path[64];
	if (fuzz_run_bytes(data, size, &po, &res, path) != 0)
		return 0;
	if (res.opened && res.agg) {
		ts_report_opts ro = { .verify_ops = true };
		ts_report_json(sink, &res, &ro);
	}
	ts_result_free(&res);
	return 0;
}
