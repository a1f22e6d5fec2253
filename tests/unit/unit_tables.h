/*
 * unit_tables.h - the built-in pattern tables (patterns/) for a test that
 * runs the pipeline on a bundled trace: loaded once, or NULL with a "not
 * ok" line where they do not load (free with ts_patterns_free).
 */
#ifndef TS_TEST_UNIT_TABLES_H
#define TS_TEST_UNIT_TABLES_H

#include <stdio.h>

#include "tables/patterns.h"

static inline ts_patterns *unit_tables(void)
{
	ts_patterns_source src = { .builtin_dir = TS_SOURCE_PATTERNS };
	ts_patterns *pats;
	ts_pattern_error errs[2];
	size_t nerr;
	if (ts_patterns_load(&src, &pats, errs, 2, &nerr) != TS_OK) {
		printf("not ok - the built-in tables load\n");
		return NULL;
	}
	return pats;
}

#endif
