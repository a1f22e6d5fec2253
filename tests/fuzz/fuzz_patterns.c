/*
 * fuzz_patterns.c - the YAML pattern loader on one file. The first byte
 * picks where the rest goes: a top-level table (kernels, operators, context,
 * compare, devices: one schema) or a model family in models/. The directory
 * holds nothing else, so each input is loaded alone, fast. Tables that load
 * are then used: a small trace runs through the pipeline with them and the
 * regex-limit report is drawn.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "tables/patterns.h"
#include "pipeline.h"

static char dir[64], models[80], top[96], fam[96], trace[96];

static const char small_trace[] =
	"{\"traceEvents\": ["
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 5,"
	" \"args\": {\"External id\": 7, \"Input Dims\": [[16, 4096], [1024, 4096], [1024]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"], \"Concrete Inputs\": [\"\", \"\", \"\"]}},"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"nvjet_tst_128x64_64x4_1x1_v_bz_coopA_NNT\", \"pid\": 0, \"tid\": 7, \"ts\": 110, \"dur\": 10,"
	" \"args\": {\"device\": 0, \"stream\": 7, \"External id\": 7, \"grid\": [8, 1, 1], \"block\": [384, 1, 1]}},"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128>>\", \"pid\": 0, \"tid\": 7,"
	" \"ts\": 125, \"dur\": 3, \"args\": {\"device\": 0, \"stream\": 7}},"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllReduce_Sum_bf16_RING_LL\", \"pid\": 0, \"tid\": 7,"
	" \"ts\": 130, \"dur\": 3, \"args\": {\"device\": 0, \"stream\": 7}}]}";

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

static void cleanup(void)
{
	unlink(top);
	unlink(fam);
	unlink(trace);
	rmdir(models);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof dir, "/tmp/ts-fuzz-patterns-%ld", (long)getpid());
	snprintf(models, sizeof models, "%s/models", dir);
	snprintf(top, sizeof top, "%s/t.yaml", dir);
	snprintf(fam, sizeof fam, "%s/f.yaml", models);
	snprintf(trace, sizeof trace, "%s/trace.json", dir);
	if ((mkdir(dir, 0700) != 0 && access(dir, W_OK) != 0) ||
	    (mkdir(models, 0700) != 0 && access(models, W_OK) != 0))
		abort();
	write_file(trace, (const uint8_t *)small_trace, sizeof small_trace - 1);
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool family = size > 0 && (data[0] & 1);
	if (size > 0) {
		data++;
		size--;
	}
	unlink(top);
	unlink(fam);
	write_file(family ? fam : top, data, size);
	ts_patterns_source src = { .builtin_dir = dir };
	ts_patterns *p;
	ts_pattern_error errors[8];
	size_t nerr;
	if (ts_patterns_load(&src, &p, errors, 8, &nerr) == TS_OK) {
		ts_pipeline_opts po = { .limits = ts_limits_default(), .patterns = p };
		ts_result res;
		ts_pipeline_run(trace, &po, &res);
		char lines[4][TS_PATTERN_ERR_LEN];
		(void)ts_patterns_regex_limits(p, lines, 4);
		ts_result_free(&res);
		ts_patterns_free(p);
	}
	return 0;
}
