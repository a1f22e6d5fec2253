/*
 * jsonw.h - JSON written through yajl_gen, laid out for people.
 *
 * yajl_gen writes every token, escape and separator; the writer adds only
 * whitespace: a space after each ':' and ',', and a line break with an
 * indent where the caller asks for one (ts_jw_nl) before the next member,
 * item or closing bracket. The JSON report, compare's and the ranks'
 * sections all write through one ts_jw, so what they write is always a
 * valid document, whatever the strings hold.
 *
 * Strings are bytes: a byte that starts no valid UTF-8 sequence is written
 * as the code point of the same value (what "\u00XX" would read as), so a
 * kernel name that is not UTF-8 still gives valid JSON and keeps its
 * bytes' values. Numbers are text written with printf formats chosen by the
 * caller (exact microseconds, fixed decimals); one that is not finite is
 * written as null.
 *
 * Errors stick: after the first failure (a token out of place, out of
 * memory, a write error) the rest is skipped and ts_jw_finish returns -1.
 */
#ifndef TS_JSONW_H
#define TS_JSONW_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <yajl/yajl_gen.h>

typedef struct ts_jw {
	FILE *out;
	yajl_gen g;
	int brk;               /* indent of a pending line break, or -1 */
	bool first;            /* the next chunk is the first of a token */
	bool failed;
	char *tmp;             /* a string made UTF-8 */
	size_t tmp_cap;
} ts_jw;

/* A writer to out; false when out of memory. */
bool ts_jw_init(ts_jw *w, FILE *out);
/* The document's last newline; frees the writer. 0, or -1 on failure. */
int ts_jw_finish(ts_jw *w);

/* The next member, item or closing bracket starts a line, indented. */
void ts_jw_nl(ts_jw *w, int indent);
/* A key on a line of its own, indented (2: a top-level section). */
void ts_jw_member(ts_jw *w, int indent, const char *k);
/* Close an array of n rows a line each: the bracket on its own line,
 * indented, unless the array is empty. */
void ts_jw_end_rows(ts_jw *w, size_t n, int indent);

void ts_jw_obj(ts_jw *w);
void ts_jw_end_obj(ts_jw *w);
void ts_jw_arr(ts_jw *w);
void ts_jw_end_arr(ts_jw *w);
void ts_jw_key(ts_jw *w, const char *k);

/* Values. ts_jw_str(NULL) and ts_jw_strn(NULL, ...) are null. */
void ts_jw_str(ts_jw *w, const char *s);
void ts_jw_strn(ts_jw *w, const char *s, size_t n);
void ts_jw_null(ts_jw *w);
void ts_jw_bool(ts_jw *w, bool b);
void ts_jw_int(ts_jw *w, int64_t v);
void ts_jw_uint(ts_jw *w, uint64_t v);
/* has ? v : null */
void ts_jw_opt_int(ts_jw *w, bool has, int64_t v);
/* A number already written as JSON text (n bytes). */
void ts_jw_numtext(ts_jw *w, const char *text, size_t n);
/* A number (one double) as printf(fmt) writes it; null when not finite. */
void ts_jw_num(ts_jw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ts_jw_vnum(ts_jw *w, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Exact microseconds from integer ns (ts_fmt_us); a mean in ns as
 * microseconds with three decimals. */
void ts_jw_us(ts_jw *w, int64_t ns);
void ts_jw_us_f(ts_jw *w, double ns);

/* A key and its value. */
void ts_jw_kstr(ts_jw *w, const char *k, const char *s);      /* null for a NULL s */
void ts_jw_kstrn(ts_jw *w, const char *k, const char *s, size_t n);
void ts_jw_knull(ts_jw *w, const char *k);
void ts_jw_kbool(ts_jw *w, const char *k, bool b);
void ts_jw_kint(ts_jw *w, const char *k, int64_t v);
void ts_jw_kuint(ts_jw *w, const char *k, uint64_t v);
void ts_jw_kopt_int(ts_jw *w, const char *k, bool has, int64_t v);
void ts_jw_knum(ts_jw *w, const char *k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ts_jw_kus(ts_jw *w, const char *k, int64_t ns);
void ts_jw_kopt_us(ts_jw *w, const char *k, bool has, int64_t ns);   /* null when !has */
void ts_jw_kus_f(ts_jw *w, const char *k, double ns);

#endif
