/* common.c - what the fuzz targets share: the built-in tables, loaded
 * once, and one analysis of a buffer. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "tables/patterns.h"
#include "pipeline.h"

const ts_patterns *fuzz_builtin_patterns(void)
{
	static ts_patterns *p;
	if (p)
		return p;
	const char *env = getenv("TRACESTREAM_PATTERNS");
	ts_patterns_source src = { .builtin_dir = env && *env ? env : TS_SOURCE_PATTERNS };
	ts_pattern_error errors[4];
	size_t nerr;
	if (ts_patterns_load(&src, &p, errors, 4, &nerr) != TS_OK) {
		fprintf(stderr, "fuzz: cannot load the built-in tables from %s: %s\n",
			src.builtin_dir, nerr ? errors[0].e.msg : "not found");
		exit(2);
	}
	return p;
}

/* res->path is borrowed: it points into path[], which must outlive res. */
int fuzz_run_bytes(const uint8_t *data, size_t size, const ts_pipeline_opts *po,
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

ts_pipeline_opts fuzz_opts(size_t size)
{
	ts_pipeline_opts po = { .limits = ts_limits_default(),
				.patterns = fuzz_builtin_patterns() };
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
