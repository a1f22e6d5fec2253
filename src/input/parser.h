/*
 * parser.h - yajl event-driven parser: Kineto JSON in, ts_event records out.
 *
 * Bytes go in with ts_parser_feed in chunks of any size; each complete item of
 * the traceEvents array is handed to the event callback as it closes, with its
 * strings borrowed for that call. Nothing is allocated per event: the parser
 * holds one event under construction and one name buffer. Trace-level facts
 * (deviceProperties, distributedInfo, runtime versions, baseTimeNanoseconds)
 * are written into the caller's ts_meta wherever they appear in the file.
 *
 * On error the parser stops; ts_parser_error()
 * say what and where (byte offset in the JSON text). Events delivered before
 * the error stand: callers report them, marked partial.
 */
#ifndef TS_PARSER_H
#define TS_PARSER_H

/* Times a profiler can write: timestamps from -2^61 to 2^62 ns (the Unix
 * epoch to the year 2116; their differences fit in int64), durations of 0
 * to 2^40 ns (18 minutes). */
#define TS_MIN_TS_NS (-((int64_t)1 << 61))
#define TS_MAX_TS_NS ((int64_t)1 << 62)
#define TS_MAX_DUR_NS ((int64_t)1 << 40)

#include <stddef.h>
#include <stdint.h>

#include "input/event.h"
#include "input/base/status.h"
#include "input/base/warn.h"

/* Receives each event; a status other than TS_OK stops the parse. */
typedef ts_status (*ts_event_fn)(void *ud, const ts_event *ev);

typedef struct ts_parser ts_parser;

/* Longest event name kept; longer names are cut and flagged. */
#define TS_NAME_MAX (64 * 1024)

ts_parser *ts_parser_new(ts_event_fn fn, void *ud, ts_meta *meta);
void ts_parser_free(ts_parser *p);

/* TS_OK, or TS_ERR_JSON / TS_ERR_NOT_TRACE / a status from the callback. */
ts_status ts_parser_feed(ts_parser *p, const char *buf, size_t len);
/* The input's first bytes, before any is fed, where the caller feeds
 * them in small spans (the threaded parse's prologue): what a bad input
 * is (gzip, zstd, UTF-16, ...) is told from them. */
void ts_parser_head(ts_parser *p, const char *buf, size_t len);

/* End of input: TS_ERR_TRUNCATED when the JSON is incomplete. */
ts_status ts_parser_finish(ts_parser *p);

/* Why the parser stopped: status, message and the byte it is at. */
const ts_error *ts_parser_error(const ts_parser *p);


/* Counters for reports and warnings. */
typedef struct {
	uint64_t events;         /* traceEvents items delivered */
	uint64_t bad_items;      /* traceEvents items that are not objects */
	uint64_t bad_numbers;    /* ts/dur/ids that did not parse or fit */
	uint64_t bad_times;      /* ts or dur out of range: the event is untimed */
	uint64_t bad_time_byte;  /* where the first one was (1-based, about) */
	uint64_t long_names;     /* names longer than TS_NAME_MAX */
	/* raw control bytes (below 0x20, not tab, newline or return) inside
	 * strings, read as '?' (a writer that did not escape them), and
	 * where the first was (1-based) */
	uint64_t raw_ctrl, raw_ctrl_byte;
	/* GPU events (kernels, copies, sets) in begin/end or instant form (ph
	 * B, E, b, e, i, I: not the complete events Kineto writes), read as
	 * other events, and where the first was */
	uint64_t gpu_phase, gpu_phase_byte;
} ts_parser_stats;

const ts_parser_stats *ts_parser_get_stats(const ts_parser *p);

/* What the parser left out or cut, as warnings. */
void ts_parser_warnings(const ts_parser_stats *ps, ts_warns *w);

/*
 * Pieces of traceEvents parsed apart (pparse.h). A piece begins at an item
 * and ends just after the comma that follows an item: a fresh parser
 * begins inside the array before the item at input offset at (0-based);
 * ts_parser_between_items says whether a parser stands after such a comma
 * (no token open, the array never closed), where a piece may end; a
 * parser there skips n bytes parsed elsewhere (its offsets count them) and
 * takes their counters, and their items of the array (the meta's
 * events_in_array and last_event_end: items, and where the last one ended,
 * 0 for none). ts_parser_offset is the input offset just past
 * what yajl has taken: in the event callback, the end of the event.
 */
ts_status ts_parser_begin_items(ts_parser *p, uint64_t at);
bool ts_parser_between_items(const ts_parser *p);
void ts_parser_skip(ts_parser *p, uint64_t n, const ts_parser_stats *s, uint64_t items,
		    uint64_t last_item_end);
uint64_t ts_parser_offset(const ts_parser *p);
/* Stop the parser with st, msg and the 1-based byte (an event callback
 * that failed on a piece parsed apart). */
void ts_parser_fail(ts_parser *p, ts_status st, const char *msg, uint64_t byte);

/* buf[0..len) stays as it is while p lives (a piece parsed whole): an
 * event's name and kernel name that lie there are borrowed, not copied
 * (those yajl decoded elsewhere, with escapes, still are). */
void ts_parser_lend(ts_parser *p, const char *buf, size_t len);

#endif
