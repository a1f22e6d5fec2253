/*
 * fuzz_partial.c - the saved-partial reader (partial.c and every module's
 * section reader) on one input, past the checksum (a crafted file can carry
 * a right one), merged into an empty result; what merges is then settled
 * and reported as JSON with its rank table. Seeds: partials of the trace
 * fixtures (tests/fuzz/corpus/partial).
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "multi.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ts_pipeline_opts po = fuzz_opts(size);
	ts_multi m = { 0 };
	if (ts_result_empty(&po, "fuzz", &m.job) != TS_OK)
		return 0;
	ts_partial_ranks pr = { 0 };
	ts_error err = { 0 };
	/* twice: merging into a result that already holds the same data */
	ts_status st = ts_partial_merge(&m.job, data, size, &pr, TS_PARTIAL_NO_CHECKSUM, &err);
	if (st == TS_OK)
		st = ts_partial_merge(&m.job, data, size, &pr, TS_PARTIAL_NO_CHECKSUM, &err);
	m.ranks = pr.r;
	m.n = pr.n;
	if (st == TS_OK) {
		ts_result_settle(&m.job, &po);
		if (ts_multi_finish(&m) == TS_OK) {
			ts_report_opts ro = { .ranks = &m };
			ts_report_json(sink, &m.job, &ro);
			ts_report_text(sink, &m.job, &ro);
		}
	}
	ts_multi_free(&m);
	return 0;
}
