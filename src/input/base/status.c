/*
 * status.c - the status codes every stage returns, their exit codes and
 * messages, and ts_error, the one error type (see status.h).
 */
#include "input/base/status.h"

#include <inttypes.h>
#include <stdarg.h>

static const char *const messages[] = {
	[TS_OK] = "ok",
	[TS_ERR_NOMEM] = "out of memory",
	[TS_ERR_IO] = "I/O error",
	[TS_ERR_USAGE] = "bad usage",
	[TS_ERR_JSON] = "malformed JSON",
	[TS_ERR_TRUNCATED] = "input cut short",
	[TS_ERR_GZIP] = "corrupt gzip data",
	[TS_ERR_NOT_TRACE] = "not a Kineto trace",
	[TS_ERR_FULL] = "table full",
	[TS_ERR_RANGE] = "number out of range",
	[TS_ERR_PATTERNS] = "invalid pattern tables",
	[TS_ERR_PARTIAL] = "bad saved partial",
};

const char *ts_strerror(ts_status st)
{
	if ((unsigned)st >= sizeof messages / sizeof messages[0] || !messages[st])
		return "unknown error";
	return messages[st];
}

int ts_exit_code(ts_status st)
{
	switch (st) {
	case TS_OK:
		return TS_EXIT_OK;
	case TS_ERR_JSON:
	case TS_ERR_TRUNCATED:
	case TS_ERR_GZIP:
	case TS_ERR_NOT_TRACE:
	case TS_ERR_PARTIAL:
		return TS_EXIT_TRACE;
	case TS_ERR_PATTERNS:
		return TS_EXIT_PATTERNS;
	default:
		return TS_EXIT_USAGE_IO;
	}
}

ts_status ts_error_set(ts_error *e, ts_status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	e->status = st;
	return st;
}

void ts_error_print(FILE *out, const char *file, bool gzip, bool at_byte, const ts_error *e)
{
	if (e->line > 0)
		fprintf(out, "%s:%d:%d: %s\n", file, e->line, e->col, e->msg);
	else if (at_byte)
		fprintf(out, "tracestream: %s: byte %" PRIu64 "%s: %s\n", file, e->byte,
			e->compressed ? " (compressed)" : gzip ? " (decompressed)" : "", e->msg);
	else
		fprintf(out, "tracestream: %s: %s\n", file, e->msg);
}
