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

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * An error as it travels from where it happened to the one line that
 * prints it: what (the status and a message) and where (the byte of the
 * input it is at, counted in the gzip file or in its JSON; or a table's
 * line and column). The file it is about is the caller's: one error type
 * from the parser, the reader and the saved partials up to the report.
 */
typedef struct {
	ts_status status;
	char msg[512];          /* what went wrong, without where */
	uint64_t byte;          /* 1-based offset; 0: none */
	bool compressed;        /* byte counts the gzip file, not its JSON */
	int line, col;          /* 1-based position in a table; 0: none */
} ts_error;

/* Set status and message (printf); returns st. */
ts_status ts_error_set(ts_error *e, ts_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The one line an error prints as, about file (already shown as the user
 * named it): "FILE:LINE:COL: msg" for a table, as a compiler writes it
 * (editors jump to it); otherwise after "tracestream: ", with at_byte (an
 * input that was opened) "FILE: byte N: msg", with " (compressed)" or,
 * for a gzip input, " (decompressed)" after N; else "FILE: msg".
 */
void ts_error_print(FILE *out, const char *file, bool gzip, bool at_byte, const ts_error *e);

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
