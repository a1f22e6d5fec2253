/*
 * timefmt.c - a duration as the reports say it (timefmt.h).
 */
#include "input/base/timefmt.h"

#include <inttypes.h>
#include <stdio.h>

void ts_fmt_ms(char *buf, size_t n, double ns)
{
	double ms = ns / 1e6;
	if (ms >= 100)
		snprintf(buf, n, "%.0f ms", ms);
	else if (ms >= 1)
		snprintf(buf, n, "%.2f ms", ms);
	else
		snprintf(buf, n, "%.1f us", ns / 1e3);
}

void ts_fmt_us(char *buf, size_t n, int64_t ns)
{
	uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	snprintf(buf, n, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", u / 1000,
		 (unsigned)(u % 1000));
}
