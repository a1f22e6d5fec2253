/*
 * timefmt.c - a duration as the reports say it (timefmt.h).
 */
#include "input/base/timefmt.h"

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
