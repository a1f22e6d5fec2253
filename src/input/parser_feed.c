/*
 * parser_feed.c - the parser's driver: bytes to yajl in spans (strings held
 * open across small chunks gathered, over-long strings cut), the lexical
 * guard over what yajl took, and every failure turned into a status, a
 * message and the byte it is at. What each key and value does is
 * parser.c's.
 */
#include "input/parser_int.h"
#include "input/base/grow.h"
#include "input/magic.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ts_parser *ts_parser_new(ts_event_fn fn, void *ud, ts_meta *meta)
{
	ts_parser *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->name = malloc(TS_NAME_MAX);
	p->kname = malloc(TS_NAME_MAX);
	p->h = yajl_alloc(&ts_prs_callbacks, NULL, p);
	if (!p->name || !p->kname || !p->h) {
		ts_parser_free(p);
		return NULL;
	}
	/* Names are bytes to us; UTF-8 checking costs time and rejects traces
	 * that tools happily wrote. */
	yajl_config(p->h, yajl_dont_validate_strings, 1);
	p->fn = fn;
	p->ud = ud;
	p->meta = meta;
	p->act = ts_prs_role_action(R_NONE);
	ts_prs_reset_event(p);
	return p;
}

void ts_parser_free(ts_parser *p)
{
	if (!p)
		return;
	if (p->h)
		yajl_free(p->h);
	free(p->held);
	free(p->fix);
	free(p->name);
	free(p->kname);
	free(p);
}

/* Where the parse stopped, in words, for truncation messages. */
static const char *where(const ts_parser *p)
{
	for (int d = p->depth < MAX_DEPTH ? p->depth : MAX_DEPTH; d > 0; d--) {
		if (p->roles[d - 1] == R_EVENTS)
			return "inside the traceEvents array";
	}
	if (p->depth > 0)
		return "inside the top-level object";
	return "before any JSON value";
}

static bool token_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '-' || c == '+' || c == '.';
}

/* A lexical error is named at the first byte of the bad token ("12x",
 * "tru", "-}"), not where yajl stopped inside it (a bad escape or byte
 * inside a string is named where it is): back from the byte yajl
 * stopped at (chunk[used - 1]) over the number or literal it is part of,
 * into the span before through the lexical guard. 1-based, like every
 * offset, and the same whatever the read size. */
static uint64_t token_start(const ts_parser *p, const char *chunk, size_t used)
{
	/* a number or literal open when this chunk began (the guard's state at
	 * the end of the span before): the token began there */
	bool open = p->lx.where == TS_LX_NUM || p->lx.where == TS_LX_WORD;
	uint64_t before = p->lx.start + 1;
	if (used == 0)
		return open ? before : p->fed + 1;
	size_t k = used - 1;
	if (!token_char(chunk[k])) {
		if (k > 0 && token_char(chunk[k - 1]))
			k--;
		else
			return k == 0 && open ? before : p->fed + k + 1;
	}
	while (k > 0 && token_char(chunk[k - 1]))
		k--;
	return k == 0 && open ? before : p->fed + k + 1;
}

/* What a writer put where yajl stopped, when it is a known way of
 * breaking JSON: NaN and Infinity (Python's json writes them unless told
 * not to), or an escape JSON has not ("\\q"); NULL otherwise. at is the
 * error's offset within chunk. */
static bool word_at(const char *s, size_t len, size_t at, const char *w)
{
	size_t n = strlen(w);
	return at + n <= len && memcmp(s + at, w, n) == 0;
}

static const char *nonjson_kind(const char *chunk, size_t len, size_t at, char *buf, size_t n)
{
	static const char *const words[] = { "NaN", "-Infinity", "Infinity", "nan", "-inf", "inf" };
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		/* yajl's offset is the token's first byte, or the one after it */
		if (word_at(chunk, len, at, words[i]) || (at && word_at(chunk, len, at - 1, words[i]))) {
			snprintf(buf, n, "%s is no JSON number (a writer's non-standard value; "
				 "Python's json.dump writes it unless allow_nan=False)", words[i]);
			return buf;
		}
	}
	/* an escape: the backslash just before where yajl stopped */
	for (size_t k = at < len ? at + 1 : len; k-- > 0 && k + 2 > at;)
		if (chunk[k] == '\\' && k + 1 < len) {
			unsigned char c = (unsigned char)chunk[k + 1];
			snprintf(buf, n, c >= 0x20 && c < 0x7f ? "an escape \"\\%c\" JSON has not "
				 "(only \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"
				 : "an escape of byte 0x%02x JSON has not", c);
			return buf;
		}
	return NULL;
}

/*
 * Offsets are 1-based byte positions in the JSON text (as cmp(1) counts):
 * the byte at which yajl stopped (for a lexical error, the first byte of
 * the bad token), or for a cut-short input the last byte.
 */
static ts_status yajl_failure(ts_parser *p, yajl_status ys, const char *chunk,
			      size_t len, bool at_end)
{
	p->e.byte = at_end ? p->fed : p->fed + yajl_get_bytes_consumed(p->h);
	if (ys == yajl_status_client_canceled) {
		if (p->cancel_off)
			p->e.byte = p->cancel_off;
		return p->e.status;
	}
	unsigned char *msg = yajl_get_error(p->h, 0, (const unsigned char *)chunk, len);
	const char *m = (const char *)msg;
	if (m && strncmp(m, "parse error: ", 13) == 0)
		m += 13;
	if (m && strncmp(m, "premature EOF", 13) == 0 && !p->top_seen) {
		snprintf(p->e.msg, sizeof p->e.msg,
			 "not a trace: the input is empty (no JSON value)");
		p->e.status = TS_ERR_NOT_TRACE;
	} else if ((m && strncmp(m, "premature EOF", 13) == 0) || (at_end && p->depth > 0)) {
		/* an error only at the end, inside a value, is a token the input
		 * cut in two ("1234." or "tru"): any bad byte would have failed
		 * while feeding */
		snprintf(p->e.msg, sizeof p->e.msg,
			 "trace cut short: the JSON ends %s", where(p));
		p->e.status = TS_ERR_TRUNCATED;
	} else {
		if (m && chunk && strncmp(m, "lexical error", 13) == 0 && !strstr(m, "inside"))
			p->e.byte = token_start(p, chunk, yajl_get_bytes_consumed(p->h));
		const char *kind = p->e.byte <= sizeof p->head ? ts_magic_kind(p->head, p->nhead) : NULL;
		if (kind) {
			snprintf(p->e.msg, sizeof p->e.msg, "not a trace: %s", kind);
			p->e.status = TS_ERR_NOT_TRACE;
			p->e.byte = 1;
			if (msg)
				yajl_free_error(p->h, msg);
			return p->e.status;
		}
		snprintf(p->e.msg, sizeof p->e.msg, "malformed JSON: %s", m ? m : "?");
		size_t n = strlen(p->e.msg);
		while (n > 0 && (p->e.msg[n - 1] == '\n' || p->e.msg[n - 1] == ' '))
			p->e.msg[--n] = '\0';
		char why[200];
		if (n > 0 && p->e.msg[n - 1] == '.')
			p->e.msg[--n] = '\0';
		const char *bad = chunk && p->e.byte >= p->fed && p->e.byte - p->fed <= len
				? nonjson_kind(chunk, len, (size_t)(p->e.byte - p->fed), why, sizeof why)
				: NULL;
		if (bad)
			snprintf(p->e.msg + n, sizeof p->e.msg - n, ": %s", bad);
		p->e.status = TS_ERR_JSON;
	}
	if (msg)
		yajl_free_error(p->h, msg);
	return p->e.status;
}

/* After bytes the guard has followed: a string past TS_STRING_KEEP is cut
 * from here on; a number past TS_NUMBER_MAX is an error at its start. */
static ts_status after_span(ts_parser *p)
{
	if (p->lx.where == TS_LX_STR && p->lx.len >= TS_STRING_KEEP) {
		p->cutting = true;
		p->cut_begun = false;
	} else if (p->lx.where == TS_LX_NUM && p->lx.len > TS_NUMBER_MAX) {
		ts_prs_number_too_long(p, p->lx.start);
		p->e.byte = p->cancel_off;
		return p->e.status;
	}
	return TS_OK;
}

/* A byte JSON allows nowhere raw but between tokens (tab, newline, return). */
static bool raw_ctrl(char c)
{
	return (unsigned char)c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

#define LOW7 0x7f7f7f7f7f7f7f7full
#define HIGH 0x8080808080808080ull

/* The high bit of each byte of w that is zero (exact: no carry crosses a
 * byte). */
static inline uint64_t zero_bytes(uint64_t w)
{
	return ~(((w & LOW7) + LOW7) | w) & HIGH;
}

/* Whether n bytes hold a raw control byte: eight at a time, each word's
 * bytes below 0x20 less its tabs, newlines and returns found at once. */
static bool has_raw_ctrl(const char *b, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, b + i, 8);
		uint64_t low = ~(((w & LOW7) + 0x6060606060606060ull) | w) & HIGH;
		if (low && (low & ~(zero_bytes(w ^ 0x0a0a0a0a0a0a0a0aull) |
				    zero_bytes(w ^ 0x0909090909090909ull) |
				    zero_bytes(w ^ 0x0d0d0d0d0d0d0d0dull))))
			return true;
	}
	for (; i < n; i++)
		if (raw_ctrl(b[i]))
			return true;
	return false;
}

/*
 * Real writers put raw control bytes in names (PyTorch issue 130622);
 * yajl refuses them, and the rest of the trace would be lost. A span
 * holding one inside a string (as the guard, from where the span begins,
 * says) goes to yajl as a copy with each such byte read as '?', counted;
 * one outside strings stays, for yajl to refuse: that is malformed JSON.
 * The offsets of everything are kept (one byte for one).
 */
static const char *repair_ctrl(ts_parser *p, const char *b, size_t n)
{
	if (!has_raw_ctrl(b, n))
		return b;
	ts_lexguard g = p->lx;
	char *out = NULL;
	size_t at = 0;
	for (size_t j = 0; j < n; j++) {
		if (!raw_ctrl(b[j]))
			continue;
		ts_lexguard_scan(&g, b + at, j - at, p->fed + at);
		at = j;
		if (g.where != TS_LX_STR || g.esc != 0)
			continue;            /* outside a string, or in an escape: yajl says */
		if (!out) {
			if (!ts_grow((void **)&p->fix, &p->fix_cap, n, 1, 1u << 16, SIZE_MAX / 2, false))
				return b;    /* no memory to repair: yajl says */
			out = p->fix;
			memcpy(out, b, n);
		}
		out[j] = '?';
		if (!p->stats.raw_ctrl++)
			p->stats.raw_ctrl_byte = p->fed + j + 1;
		ts_lexguard_scan(&g, "?", 1, p->fed + j);
		at = j + 1;
	}
	return out ? out : b;
}

/* Give yajl n bytes; with scan, follow them with the guard from the last
 * event close in them (a known point outside any token) or from their
 * start. */
static ts_status feed_yajl(ts_parser *p, const char *b, size_t n, bool scan)
{
	if (scan)
		b = repair_ctrl(p, b, n);
	p->closed = false;
	yajl_status ys = yajl_parse(p->h, (const unsigned char *)b, n);
	if (ys != yajl_status_ok)
		return yajl_failure(p, ys, b, n, false);
	if (scan) {
		size_t from = 0;
		if (p->closed) {
			from = p->close_at;
			p->lx.where = TS_LX_OUT;
		}
		ts_lexguard_scan(&p->lx, b + from, n - from, p->fed + from);
	}
	p->fed += n;
	return scan ? after_span(p) : TS_OK;
}

static ts_status flush_held(ts_parser *p)
{
	size_t n = p->nheld;
	p->nheld = 0;
	return n ? feed_yajl(p, p->held, n, true) : TS_OK;
}

static ts_status lex_failure(ts_parser *p, ts_status st, uint64_t off, const char *msg)
{
	p->e.status = st;
	p->e.byte = off + 1;
	snprintf(p->e.msg, sizeof p->e.msg, "malformed JSON: %s", msg);
	return st;
}

void ts_parser_head(ts_parser *p, const char *buf, size_t len)
{
	if (p->fed != 0 || p->nhead != 0 || len == 0)
		return;
	p->nhead = len < sizeof p->head ? len : sizeof p->head;
	memcpy(p->head, buf, p->nhead);
}

/*
 * A chunk goes to yajl whole, with two exceptions for a string that is
 * still open at a chunk boundary (yajl lexes it again from its first byte
 * with every chunk):
 *  - past HOLD_AT bytes, small chunks are gathered into HOLD_BUF-byte spans
 *    first, so that the string is lexed again once per span, not per chunk;
 *  - past TS_STRING_KEEP bytes, the rest of it, up to the closing quote, is
 *    dropped (see lexguard.h).
 * Offsets count the input, dropped bytes included.
 */
ts_status ts_parser_feed(ts_parser *p, const char *buf, size_t len)
{
	if (p->e.status != TS_OK)
		return p->e.status;
	if (p->fed == 0 && p->nhead < sizeof p->head) {
		size_t k = len < sizeof p->head - p->nhead ? len : sizeof p->head - p->nhead;
		memcpy(p->head + p->nhead, buf, k);
		p->nhead += k;
	}
	ts_status st;
	while (len > 0) {
		size_t k;
		if (p->cutting) {
			/* an escape yajl has begun is finished by yajl, once;
			 * escapes in the dropped part are checked by the guard */
			k = p->cut_begun ? 0 : ts_lexguard_escape_tail(&p->lx, buf, len);
			p->cut_begun = true;
			if (k > 0) {
				if ((st = feed_yajl(p, buf, k, false)) != TS_OK)
					return st;
			} else {
				k = ts_lexguard_drop(&p->lx, buf, len, p->fed);
				p->fed += k;
				if (p->lx.bad)
					return lex_failure(p, TS_ERR_JSON, p->lx.bad_off,
							   p->lx.bad == TS_LX_CTRL
							   ? "a control character inside a string"
							   : "an invalid escape inside a string");
				if (k < len)
					p->cutting = false;   /* at the closing quote */
			}
		} else if (p->nheld > 0 ||
			   (p->lx.where == TS_LX_STR && p->lx.len >= HOLD_AT && len < HOLD_BUF)) {
			if (!p->held && !(p->held = malloc(HOLD_BUF))) {
				p->e.byte = p->fed;
				return ts_prs_cancel(p, TS_ERR_NOMEM, "out of memory"), p->e.status;
			}
			k = len < HOLD_BUF - p->nheld ? len : HOLD_BUF - p->nheld;
			memcpy(p->held + p->nheld, buf, k);
			p->nheld += k;
			if (p->nheld == HOLD_BUF && (st = flush_held(p)) != TS_OK)
				return st;
		} else {
			if ((st = feed_yajl(p, buf, len, true)) != TS_OK)
				return st;
			k = len;
		}
		buf += k;
		len -= k;
	}
	return TS_OK;
}

ts_status ts_parser_finish(ts_parser *p)
{
	if (p->e.status != TS_OK)
		return p->e.status;
	if (flush_held(p) != TS_OK)
		return p->e.status;
	yajl_status ys = yajl_complete_parse(p->h);
	if (ys != yajl_status_ok)
		return yajl_failure(p, ys, NULL, 0, true);
	p->e.byte = p->fed;
	if (!p->top_seen) {
		p->e.status = TS_ERR_NOT_TRACE;
		snprintf(p->e.msg, sizeof p->e.msg,
			 "not a trace: the input is empty (no JSON value)");
	} else if (!p->meta->saw_trace_events) {
		p->e.status = TS_ERR_NOT_TRACE;
		snprintf(p->e.msg, sizeof p->e.msg,
			 "not a trace: no traceEvents array in the top-level object");
	}
	return p->e.status;
}

const ts_error *ts_parser_error(const ts_parser *p)
{
	return &p->e;
}

ts_status ts_parser_begin_items(ts_parser *p, uint64_t at)
{
	/* the array opened as a trace's would: offsets wrap back over the
	 * bytes we make up (an offset before 0 is never reported: they parse) */
	static const char pre[] = "{\"traceEvents\":[";
	p->fed = at - (sizeof pre - 1);
	return ts_parser_feed(p, pre, sizeof pre - 1);
}

bool ts_parser_between_items(const ts_parser *p)
{
	return p->e.status == TS_OK && p->depth == 2 && p->roles[0] == R_TOP &&
	       p->roles[1] == R_EVENTS && p->lx.where == TS_LX_OUT && !p->cutting &&
	       p->nheld == 0 && p->meta->events_close == 0;
}

void ts_parser_skip(ts_parser *p, uint64_t n, const ts_parser_stats *s, uint64_t items,
		    uint64_t last_item_end)
{
	p->fed += n;
	p->meta->events_in_array += items;
	if (last_item_end)
		p->meta->last_event_end = last_item_end;
	p->stats.events += s->events;
	p->stats.bad_items += s->bad_items;
	p->stats.bad_numbers += s->bad_numbers;
	p->stats.bad_times += s->bad_times;
	if (!p->stats.bad_time_byte)
		p->stats.bad_time_byte = s->bad_time_byte;
	p->stats.long_names += s->long_names;
	if (!p->stats.raw_ctrl)
		p->stats.raw_ctrl_byte = s->raw_ctrl_byte;
	p->stats.raw_ctrl += s->raw_ctrl;
	if (!p->stats.gpu_phase)
		p->stats.gpu_phase_byte = s->gpu_phase_byte;
	p->stats.gpu_phase += s->gpu_phase;
}

uint64_t ts_parser_offset(const ts_parser *p)
{
	return p->fed + yajl_get_bytes_consumed(p->h);
}

void ts_parser_fail(ts_parser *p, ts_status st, const char *msg, uint64_t byte)
{
	p->e.status = st;
	p->e.byte = byte;
	snprintf(p->e.msg, sizeof p->e.msg, "%s", msg);
}

const ts_parser_stats *ts_parser_get_stats(const ts_parser *p)
{
	return &p->stats;
}

void ts_parser_warnings(const ts_parser_stats *ps, ts_warns *w)
{
	if (ps->long_names)
		ts_warn(w, "%" PRIu64 " event names longer than %d bytes were cut", ps->long_names,
			TS_NAME_MAX);
	if (ps->bad_numbers)
		ts_warn(w, "%" PRIu64 " ts/dur/id values were not numbers in range and were ignored",
			ps->bad_numbers);
	if (ps->bad_times)
		ts_warn(w, "%" PRIu64 " events have a ts outside -2^61 .. 2^62 ns or a dur that is "
			"negative or over 2^40 ns (18 minutes), the first near byte %" PRIu64 "; they "
			"are left untimed", ps->bad_times, ps->bad_time_byte);
	if (ps->bad_items)
		ts_warn(w, "%" PRIu64 " traceEvents items were not objects", ps->bad_items);
	if (ps->gpu_phase)
		ts_warn(w, "%" PRIu64 " kernel, copy or set event%s in begin/end or instant form (ph B, "
			"E, b, e, i; the first near byte %" PRIu64 ") %s not read: tracestream reads GPU "
			"work as complete events (ph X) with a ts and dur, as Kineto writes it",
			ps->gpu_phase, ps->gpu_phase == 1 ? "" : "s", ps->gpu_phase_byte,
			ps->gpu_phase == 1 ? "was" : "were");
	if (ps->raw_ctrl)
		ts_warn(w, "%" PRIu64 " raw control byte%s inside strings (the first at byte %" PRIu64
			") %s read as '?': the trace's writer did not escape %s (JSON wants \\u00XX), "
			"and the names holding %s show '?'", ps->raw_ctrl, ps->raw_ctrl == 1 ? "" : "s",
			ps->raw_ctrl_byte, ps->raw_ctrl == 1 ? "was" : "were",
			ps->raw_ctrl == 1 ? "it" : "them", ps->raw_ctrl == 1 ? "it" : "them");
}

void ts_parser_lend(ts_parser *p, const char *buf, size_t len)
{
	p->lent_lo = (uintptr_t)buf;
	p->lent_hi = (uintptr_t)buf + len;
}
