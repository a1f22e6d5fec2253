/*
 * warn.c - a bounded list of warning lines, the rest counted (see warn.h).
 */
#include "input/base/warn.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

void ts_warn(ts_warns *w, const char *fmt, ...)
{
	if (w->n >= TS_WARN_MAX) {
		w->more++;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->line[w->n++], TS_WARN_LEN, fmt, ap);
	va_end(ap);
}

/* The last line kept gives its place to the count (so that up to
 * TS_WARN_MAX warnings print as they are). */
void ts_warns_close(ts_warns *w)
{
	if (w->more && w->n == TS_WARN_MAX)
		snprintf(w->line[TS_WARN_MAX - 1], TS_WARN_LEN,
			 "%" PRIu64 " more warnings past the first %d were not kept", w->more + 1,
			 TS_WARN_MAX - 1);
}
