/*
 * pparse.h - parse one trace on several cores, deliver its events in order.
 *
 * The bytes of traceEvents are cut into pieces of about 256 KB at item
 * boundaries and parsed by worker threads, each into compact records; the
 * caller's thread hands the records to the event callback in file order.
 * What reaches the callback, the counters, every error and every byte
 * offset are those of one parser reading the whole input (ts_parser_feed),
 * because the caller's parser decides everything a piece cannot:
 *
 *  - it parses the bytes before the array and after it, and any piece whose
 *    worker failed (malformed JSON, an odd cut), itself, from the piece's
 *    first byte, so that the error and its offset are its own;
 *  - a cut is taken where the bytes read `}`, a comma and `{` (whitespace
 *    between) and checked twice: the parser of the piece before must end
 *    it between two items of the array, and the next piece must parse from
 *    there; a cut inside a string or a nested value fails the check and
 *    that piece is parsed again in order, so a bad guess costs time only.
 *
 * Memory is bounded: at most 2 x workers + 1 pieces are held, each of the
 * piece's bytes (a piece grows past 256 KB only to its first cut, and
 * past 8 pieces' bytes it is parsed in order, up to the next cut) and its
 * records (past a bound the piece is parsed in order instead).
 */
#ifndef TS_PPARSE_H
#define TS_PPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/parser.h"
#include "input/reader.h"
#include "input/base/status.h"

/* Called now and then with the reader's raw and JSON bytes so far. */
typedef void (*ts_pparse_progress_fn)(void *ud, uint64_t in_bytes, uint64_t out_bytes);

typedef struct {
	int workers;                 /* parse threads, at least 1 */
	size_t piece;                /* bytes per piece (0: 256 KB) */
	ts_event_fn fn;              /* the events, in order, on this thread */
	void *ud;
	ts_pparse_progress_fn progress;
	void *progress_ud;
} ts_pparse_opts;

typedef struct {
	bool unavailable;   /* no thread could be had: nothing was read (parse
			     * in order instead) */
	bool read_failed;   /* the status is the reader's (ts_reader_error) */
	bool shrank;        /* ...a mapped file cut shorter while it was read */
	int threads;        /* workers that ran */
	uint64_t pieces;    /* pieces cut and handed to them */
	uint64_t in_order;  /* of them, parsed again by the caller's parser */
} ts_pparse_out;

/*
 * Read r to its end through p (a new parser whose callback is o->fn), as
 * ts_parser_feed would in chunks and ts_parser_finish at the end. Returns
 * TS_OK; the parser's error (ts_parser_error(p)); or, with read_failed,
 * the reader's: every byte read before it was parsed.
 */
ts_status ts_pparse_run(ts_reader *r, ts_parser *p, const ts_pparse_opts *o,
			ts_pparse_out *out);

/* The cores this process may run on: its CPU affinity, within its cgroup's
 * CPU quota (1 when unknown). */
int ts_cores(void);

/* Parse threads by default: the cores, at most this many (past it the
 * analysis on the caller's thread is the limit, and each thread holds two
 * pieces). */
#define TS_PPARSE_DEFAULT_MAX 8

#endif
