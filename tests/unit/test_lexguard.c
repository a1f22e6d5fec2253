/*
 * Over-long strings and numbers through the parser, at many chunk sizes:
 * the name arrives cut and flagged, every event after it is intact, and the
 * byte offset of an error after the cut is that of the input (dropped bytes
 * counted). The dropped part is checked as yajl checks strings.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/lexguard.h"
#include "input/parser.h"
#include "unit.h"

typedef struct {
	int events;
	int truncated;
	size_t name_len;
	char head[64];        /* first bytes of the long name */
	char last[32];        /* name of the last event */
	int64_t last_ts;
} seen;

static ts_status on_event(void *ud, const ts_event *ev)
{
	seen *s = ud;
	s->events++;
	if (ev->has & TS_NAME_TRUNCATED) {
		s->truncated++;
		s->name_len = ev->name_len;
		memcpy(s->head, ev->name, sizeof s->head);
	} else if (ev->name_len < sizeof s->last) {
		memcpy(s->last, ev->name, ev->name_len);
		s->last[ev->name_len] = '\0';
		s->last_ts = ev->ts_ns;
	}
	return TS_OK;
}

typedef struct {
	ts_status st;
	uint64_t off;
	char err[512];
	seen s;
} outcome;

static outcome run(const char *doc, size_t len, size_t chunk)
{
	outcome o;
	memset(&o, 0, sizeof o);
	ts_meta meta;
	memset(&meta, 0, sizeof meta);
	ts_parser *p = ts_parser_new(on_event, &o.s, &meta);
	ts_status st = TS_OK;
	for (size_t at = 0; at < len && st == TS_OK; at += chunk)
		st = ts_parser_feed(p, doc + at, len - at < chunk ? len - at : chunk);
	if (st == TS_OK)
		st = ts_parser_finish(p);
	o.st = st;
	o.off = ts_parser_error(p)->byte;
	snprintf(o.err, sizeof o.err, "%s", ts_parser_error(p)->msg);
	ts_parser_free(p);
	return o;
}

/* {"traceEvents": [{"name": "<body>", "ph": "X", "ts": 1},
 *                  {"name": "after", "ph": "X", "ts": 7}<tail>]} */
static char *doc_with(const char *body, size_t body_len, const char *tail, size_t *len)
{
	const char *a = "{\"traceEvents\": [{\"name\": \"";
	char b[200];
	snprintf(b, sizeof b, "\", \"ph\": \"X\", \"ts\": 1}, {\"name\": \"after\", \"ph\": \"X\", \"ts\": 7}%s]}", tail);
	*len = strlen(a) + body_len + strlen(b);
	char *d = malloc(*len + 1);
	memcpy(d, a, strlen(a));
	memcpy(d + strlen(a), body, body_len);
	memcpy(d + strlen(a) + body_len, b, strlen(b) + 1);
	return d;
}

/* A name of n bytes: 'k's, with escapes (\n, \u0041) every 997 bytes, so
 * that chunk boundaries and the cut fall inside escapes. */
static char *long_body(size_t n)
{
	char *b = malloc(n);
	for (size_t i = 0; i < n; i++)
		b[i] = 'k';
	for (size_t i = 100; i + 6 < n; i += 997) {
		if ((i / 997) % 2)
			memcpy(b + i, "\\n", 2);
		else
			memcpy(b + i, "\\u0041", 6);
	}
	return b;
}

static void long_names(void)
{
	size_t n = 3 * TS_STRING_KEEP + 12345;
	char *body = long_body(n);
	size_t len;
	char *doc = doc_with(body, n, "", &len);
	static const size_t chunks[] = {4093, 65536, 262144, 1048576, 5 * 1024 * 1024};
	for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
		outcome o = run(doc, len, chunks[c]);
		CHECK(o.st == TS_OK && o.s.events == 2 && o.s.truncated == 1 &&
		      o.s.name_len == TS_NAME_MAX && strcmp(o.s.last, "after") == 0 &&
		      o.s.last_ts == 7000,
		      "a %zu-byte name in %zu-byte chunks: cut to %d bytes and flagged, the next event intact (st %d, events %d, len %zu: %s)",
		      n, chunks[c], TS_NAME_MAX, o.st, o.s.events, o.s.name_len, o.err);
		CHECK(memcmp(o.s.head, "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", 64) == 0,
		      "  and its first bytes are the input's");
	}
	free(doc);

	/* a name of escapes only, in chunks that end inside escapes: the
	 * escape open when the cut begins is finished once (found by the
	 * fuzzer: every chunk fed its escape tail to yajl, which lexed the
	 * kept half megabyte again each time) */
	size_t m = 3 * TS_STRING_KEEP;
	char *esc = malloc(m);
	for (size_t i = 0; i < m; i += 8)
		memcpy(esc + i, "\\u0041\\n", 8);
	char *edoc = doc_with(esc, m, "", &len);
	static const size_t odd[] = {1, 7, 687, 4093};
	for (size_t c = 0; c < sizeof odd / sizeof *odd; c++) {
		outcome o = run(edoc, len, odd[c]);
		CHECK(o.st == TS_OK && o.s.truncated == 1 && o.s.name_len == TS_NAME_MAX &&
		      o.s.head[0] == 'A' && o.s.head[1] == '\n' && strcmp(o.s.last, "after") == 0,
		      "a %zu-byte name of escapes in %zu-byte chunks: decoded, cut and flagged, the next event intact (%s)",
		      m, odd[c], o.err);
	}
	free(edoc);
	free(esc);

	/* an error after the cut string: the offset counts the dropped bytes */
	char *bad = doc_with(body, n, ", @", &len);
	size_t at = (size_t)(strchr(bad + len - 10, '@') - bad) + 1;
	for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
		outcome o = run(bad, len, chunks[c]);
		CHECK(o.st == TS_ERR_JSON && o.off == at && o.s.events == 2,
		      "a bad byte after a cut string, %zu-byte chunks: error at byte %zu (got %llu: %s)",
		      chunks[c], at, (unsigned long long)o.off, o.err);
	}
	free(bad);
	free(body);
}

static void bad_bytes_in_dropped_part(void)
{
	static const struct {
		const char *what, *bytes, *msg;
	} cases[] = {
		{"a control character", "\x01", "a control character inside a string"},
		{"an invalid escape", "\\q", "an invalid escape inside a string"},
		{"a \\u escape with a bad digit", "\\u12G4", "an invalid escape inside a string"},
	};
	size_t n = 2 * TS_STRING_KEEP;
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		char *body = long_body(n);
		size_t pos = TS_STRING_KEEP + 300000;   /* well inside the dropped part */
		memcpy(body + pos, cases[k].bytes, strlen(cases[k].bytes));
		size_t len;
		char *doc = doc_with(body, n, "", &len);
		size_t want = strlen("{\"traceEvents\": [{\"name\": \"") + pos + 1;
		if (cases[k].bytes[0] == '\\')
			want += cases[k].bytes[1] == 'u' ? 4 : 1;  /* the offending byte */
		outcome o = run(doc, len, 65536);
		CHECK(o.st == TS_ERR_JSON && o.off == want && strstr(o.err, cases[k].msg),
		      "%s in the dropped part of a long name: malformed JSON at byte %zu (got %llu: %s)",
		      cases[k].what, want, (unsigned long long)o.off, o.err);
		free(doc);
		free(body);
	}
}

static void long_numbers(void)
{
	const char *a = "{\"traceEvents\": [{\"name\": \"x\", \"ph\": \"X\", \"ts\": ";
	size_t digits = 3 * 1024 * 1024;
	size_t len = strlen(a) + digits + 2;
	char *doc = malloc(len + 1);
	memcpy(doc, a, strlen(a));
	memset(doc + strlen(a), '7', digits);
	memcpy(doc + strlen(a) + digits, "}]", 3);
	static const size_t chunks[] = {1000, 65536, 8 * 1024 * 1024};
	for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
		outcome o = run(doc, len, chunks[c]);
		CHECK(o.st == TS_ERR_JSON && o.off == strlen(a) + 1 && strstr(o.err, "a number longer than"),
		      "a %zu-digit number in %zu-byte chunks: malformed JSON at its first byte, %zu (got %llu: %s)",
		      digits, chunks[c], strlen(a) + 1, (unsigned long long)o.off, o.err);
	}
	/* TS_NUMBER_MAX digits are a number like any other */
	char ok[2048];
	snprintf(ok, sizeof ok, "%s", a);
	size_t at = strlen(ok);
	ok[at] = '5';
	ok[at + 1] = '.';
	memset(ok + at + 2, '0', TS_NUMBER_MAX - 2);
	snprintf(ok + at + TS_NUMBER_MAX, sizeof ok - at - TS_NUMBER_MAX, "}]}");
	outcome o = run(ok, strlen(ok), 100);
	CHECK(o.st == TS_OK && o.s.events == 1 && o.s.last_ts == 5000,
	      "a number of exactly %d bytes is read (st %d: %s)", TS_NUMBER_MAX, o.st, o.err);
	free(doc);
}

/* The guard's scan split anywhere gives the state of scanning in one go. */
static void scan_split_anywhere(void)
{
	const char *t = "{\"a\\\"b\": [-12.5e+3, \"x\\u00e9\\\\\", true, 7]}";
	size_t n = strlen(t);
	int bad = 0;
	for (size_t cut = 0; cut <= n; cut++) {
		ts_lexguard whole = {0}, split = {0};
		ts_lexguard_scan(&whole, t, cut, 0);
		ts_lexguard_scan(&split, t, cut / 2, 0);
		ts_lexguard_scan(&split, t + cut / 2, cut - cut / 2, cut / 2);
		if (whole.where != split.where || whole.esc != split.esc ||
		    whole.len != split.len || whole.start != split.start)
			bad++;
	}
	ts_lexguard g = {0};
	ts_lexguard_scan(&g, t, n, 0);
	CHECK(bad == 0 && g.where == TS_LX_OUT, "the guard's state does not depend on where the text is split (%d differ)", bad);
	ts_lexguard h = {0};
	ts_lexguard_scan(&h, t, 26, 0);   /* inside "x\u00e9\\" after \u00 */
	CHECK(h.where == TS_LX_STR && h.esc == 2 && h.start == 20,
	      "inside a \\u escape: two hex digits to come (where %d esc %d start %llu)",
	      h.where, h.esc, (unsigned long long)h.start);
}

int main(void)
{
	scan_split_anywhere();
	long_names();
	bad_bytes_in_dropped_part();
	long_numbers();
	return unit_failed ? 1 : 0;
}
