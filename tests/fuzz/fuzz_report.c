/*
 * fuzz_report.c - what the reporters make of any analysis: one input runs
 * through the pipeline as in fuzz_trace.c, then through every reporter that
 * writes a stream (text, first screen, ops, JSON, HTML, each CSV table) and
 * a comparison against a fixed trace both ways (text, JSON, HTML, CSV).
 * Slower per input than fuzz_trace, so a target of its own.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/compare.h"
#include "fuzz.h"
#include "pipeline.h"
#include "report/report.h"

static FILE *sink;
static ts_result ref;          /* the fixed side of the comparisons */
static char ref_path[64];
static bool have_ref;

static const char ref_trace[] =
	"{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", \"numSms\": 132}],"
	" \"traceEvents\": ["
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 5,"
	" \"args\": {\"External id\": 7, \"Input Dims\": [[16, 4096], [4096, 4096]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"]}},"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 101, \"dur\": 2,"
	" \"args\": {\"External id\": 7, \"correlation\": 1}},"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_xmma_gemm_bf16bf16_bf16f32\", \"pid\": 0, \"tid\": 7, \"ts\": 110, \"dur\": 10,"
	" \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 1, \"External id\": 7, \"grid\": [132, 1, 1], \"block\": [128, 1, 1]}},"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void at::native::vectorized_elementwise_kernel<4>\", \"pid\": 0, \"tid\": 7,"
	" \"ts\": 125, \"dur\": 3, \"args\": {\"device\": 0, \"stream\": 7}}]}";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sink = fopen("/dev/null", "w");
	if (!sink)
		abort();

	ts_pipeline_opts po = fuzz_opts(0);
	if (fuzz_run_bytes((const uint8_t *)ref_trace, sizeof ref_trace - 1, &po, &ref, ref_path) == 0 &&
	    ref.err.status == TS_OK)
		have_ref = true;
	else
		abort();
	return 0;
}

static void reports(const ts_result *res)
{
	ts_report_opts ro = { .top = 20, .width = 100, .show_layers = 1, .verify_ops = true };
	ts_report_text(sink, res, &ro);
	ts_report_json(sink, res, &ro);
	ts_report_html(sink, res, &ro);
	for (size_t i = 0; ts_tview_tables[i]; i++)
		ts_report_csv(sink, res, &ro, ts_tview_tables[i]);
	ts_report_opts brief = { .brief = true, .width = 80 };
	ts_report_text(sink, res, &brief);
	ts_report_opts ops = { .ops_only = true };
	ts_report_text(sink, res, &ops);
}

static void compare(const ts_result *a, const ts_result *b)
{
	ts_cmp_opts co = { .threshold_us = 1, .threshold_pct = 1 };
	ts_compare *c = ts_compare_new(a, b, "a", "b", &co);
	if (!c)
		return;
	ts_report_opts ro = { .top = 20, .width = 100 };
	ts_report_compare_text(sink, c, &ro);
	ts_report_compare_json(sink, c, &ro);
	ts_report_compare_html(sink, c, &ro);
	for (size_t i = 0; ts_tview_compare_tables[i]; i++)
		ts_report_compare_csv(sink, c, ts_tview_compare_tables[i]);
	ts_compare_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ts_pipeline_opts po = fuzz_opts(size);
	ts_result res;
	char path[64];
	if (fuzz_run_bytes(data, size, &po, &res, path) != 0)
		return 0;
	if (res.opened && res.agg) {
		reports(&res);
		if (have_ref) {
			compare(&ref, &res);
			compare(&res, &ref);
		}
	}
	ts_result_free(&res);
	return 0;
}
