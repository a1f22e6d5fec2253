/*
 * fuzz_trace.c - the whole trace pipeline on one input: read (plain or
 * gzip, by magic) through the parser, classifier, layer machine, attribution
 * and aggregates, then every reporter that writes a stream (text, brief,
 * JSON, HTML, each CSV table) and a comparison against a fixed trace both
 * ways. The tables are loaded once per process. The input's size picks the
 * read size (chunk boundaries move) and, one time in four, tiny caps (so
 * the (other) row, the join's memory cap and the busy window's clipping are
 * reached).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compare.h"
#include "fuzz.h"
#include "pipeline.h"
#include "report.h"

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

/* res->path is borrowed: it points into path[], which must outlive res. */
static int run_bytes(const uint8_t *data, size_t size, const ts_pipeline_opts *po,
		     ts_result *res, char path[static 64])
{
	int fd = memfd_create("fuzz-trace", 0);
	if (fd < 0)
		return -1;
	size_t off = 0;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	lseek(fd, 0, SEEK_SET);
	snprintf(path, 64, "/proc/self/fd/%d", fd);
	ts_pipeline_run(path, po, res);
	close(fd);
	return 0;
}

static ts_pipeline_opts opts(size_t size)
{
	ts_pipeline_opts po = { .limits = ts_limits_default(),
				.patterns = (const ts_patterns *)fuzz_builtin_patterns() };
	if (size % 2)
		po.read_size = 1 + size % 4093;
	if (size % 4 == 2) {
		po.limits.max_kernel_names = 3;
		po.limits.max_name_bytes = 256;
		po.limits.busy_window = 2;
		po.join_mem = 4096;
	}
	return po;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sink = fopen("/dev/null", "w");
	if (!sink)
		abort();

	ts_pipeline_opts po = opts(0);
	if (run_bytes((const uint8_t *)ref_trace, sizeof ref_trace - 1, &po, &ref, ref_path) == 0 &&
	    ref.status == TS_OK)
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
	for (size_t i = 0; ts_report_tables[i]; i++)
		ts_report_csv(sink, res, &ro, ts_report_tables[i]);
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
	for (size_t i = 0; ts_report_compare_tables[i]; i++)
		ts_report_compare_csv(sink, c, ts_report_compare_tables[i]);
	ts_compare_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ts_pipeline_opts po = opts(size);
	ts_result res;
	char path[64];
	if (run_bytes(data, size, &po, &res, path) != 0)
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
