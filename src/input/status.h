/*
 * status.h - status codes shared by every module.
 *
 * Modules return a ts_status; only main.c prints and exits. The exit code a
 * status maps to is part of the documented CLI contract (see README.md).
 */
#ifndef TS_STATUS_H
#define TS_STATUS_H

typedef enum {
	TS_OK = 0,
	TS_ERR_NOMEM,      /* an allocation failed */
	TS_ERR_IO,         /* open/read/write failed */
	TS_ERR_USAGE,      /* bad option or argument */
	TS_ERR_JSON,       /* malformed JSON */
	TS_ERR_TRUNCATED,  /* input ends too early (JSON or gzip) */
	TS_ERR_GZIP,       /* corrupt gzip data */
	TS_ERR_NOT_TRACE,  /* valid JSON, but not a Kineto trace */
	TS_ERR_FULL,       /* a bounded table is full (callers degrade) */
	TS_ERR_RANGE,      /* a number does not fit */
	TS_ERR_PATTERNS,   /* pattern tables are invalid */
	TS_ERR_PARTIAL,    /* a saved partial is corrupt, cut short or of
			    * another version */
} ts_status;

/* Static, human-readable text for a status. Never NULL. */
const char *ts_strerror(ts_status st);

/* Documented process exit codes. */
enum {
	TS_EXIT_OK = 0,
	TS_EXIT_TRACE = 1,    /* bad or truncated trace (a partial report is printed) */
	TS_EXIT_USAGE_IO = 2, /* bad usage, unreadable input, failed output */
	TS_EXIT_PATTERNS = 3, /* pattern table error */
	TS_EXIT_VERIFY = 4,   /* --verify-ops: a required operator is missing */
	TS_EXIT_SLOWER = 5,   /* compare --fail-if-slower: B is slower than allowed */
};

/* The exit code for a status that ended a run. */
int ts_exit_code(ts_status st);

#endif
