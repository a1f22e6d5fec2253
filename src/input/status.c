#include "input/status.h"

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
