/* common.c - what the fuzz targets share: the built-in tables, loaded once. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "patterns.h"

const struct ts_patterns *fuzz_builtin_patterns(void)
{
	static ts_patterns *p;
	if (p)
		return p;
	const char *env = getenv("TRACESTREAM_PATTERNS");
	ts_patterns_source src = { .builtin_dir = env && *env ? env : TS_SOURCE_PATTERNS };
	char errors[4][512];
	size_t nerr;
	if (ts_patterns_load(&src, &p, errors, 4, &nerr) != TS_OK) {
		fprintf(stderr, "fuzz: cannot load the built-in tables from %s: %s\n",
			src.builtin_dir, nerr ? errors[0] : "not found");
		exit(2);
	}
	return p;
}
