/*
 * warn.h - the warnings of one run: what the numbers do not cover (caps
 * reached, values ignored, joins that missed). Each module adds its own
 * (ts_agg_warnings, ts_parser_warnings, ...); views/result.c asks them in
 * order and the reporters print the lines. At most TS_WARN_MAX lines are
 * kept; past them, the last line says how many more there were.
 */
#ifndef TS_WARN_H
#define TS_WARN_H

#include <stddef.h>
#include <stdint.h>

#define TS_WARN_LEN 400
#define TS_WARN_MAX 16

typedef struct {
	char line[TS_WARN_MAX][TS_WARN_LEN];
	size_t n;               /* lines kept, the count of the rest included */
	uint64_t more;          /* warnings past the lines kept */
} ts_warns;

/* Add a warning (printf); past TS_WARN_MAX lines, only counted. */
void ts_warn(ts_warns *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After the last warning: when some were not kept, the last line says
 * how many. */
void ts_warns_close(ts_warns *w);

#endif
