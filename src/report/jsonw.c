/*
 * jsonw.c - JSON through yajl_gen, with a layout (see jsonw.h).
 *
 * yajl_gen hands its text to a print callback in pieces, and it writes the
 * separator before a member or item (',' or ':') as a piece of its own,
 * first, before the token. The writer marks the start of each call; the
 * callback then knows the first piece of a call is a separator or the
 * token itself, and adds the space, or the line break the caller asked
 * for, in the right place. Nothing else is ever added to what yajl wrote.
 */
#include "report/jsonw.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/grow.h"
#include "report/report.h"

static void jw_print(void *ctx, const char *s, size_t n)
{
	ts_jw *w = ctx;
	if (w->first && n > 0) {
		w->first = false;
		bool sep = n == 1 && (s[0] == ',' || s[0] == ':');
		if (sep) {
			fputc(s[0], w->out);
			if (s[0] == ':' || w->brk < 0)
				fputc(' ', w->out);
			if (s[0] == ':')
				return;
			s++;
			n--;
		}
		if (w->brk >= 0) {
			fprintf(w->out, "\n%*s", w->brk, "");
			w->brk = -1;
		}
		if (n == 0)
			return;
	}
	fwrite(s, 1, n, w->out);
}

bool ts_jw_init(ts_jw *w, FILE *out)
{
	memset(w, 0, sizeof *w);
	w->out = out;
	w->brk = -1;
	w->g = yajl_gen_alloc(NULL);
	if (!w->g)
		return false;
	yajl_gen_config(w->g, yajl_gen_print_callback, jw_print, w);
	yajl_gen_config(w->g, yajl_gen_validate_utf8, 0);
	return true;
}

int ts_jw_finish(ts_jw *w)
{
	fputc('\n', w->out);
	if (w->g)
		yajl_gen_free(w->g);
	free(w->tmp);
	w->g = NULL;
	w->tmp = NULL;
	return w->failed || ferror(w->out) ? -1 : 0;
}

void ts_jw_nl(ts_jw *w, int indent)
{
	w->brk = indent;
}

void ts_jw_member(ts_jw *w, int indent, const char *k)
{
	ts_jw_nl(w, indent);
	ts_jw_key(w, k);
}

void ts_jw_end_rows(ts_jw *w, size_t n, int indent)
{
	if (n)
		ts_jw_nl(w, indent);
	ts_jw_end_arr(w);
}

/* Each call to yajl_gen: its first piece may be a separator. */
static void done(ts_jw *w, yajl_gen_status st)
{
	w->first = false;
	if (st != yajl_gen_status_ok)
		w->failed = true;
}

#define GEN(w, call)                         \
	do {                                 \
		if ((w)->failed)             \
			return;              \
		(w)->first = true;           \
		done((w), (call));           \
	} while (0)

void ts_jw_obj(ts_jw *w)
{
	GEN(w, yajl_gen_map_open(w->g));
}

void ts_jw_end_obj(ts_jw *w)
{
	GEN(w, yajl_gen_map_close(w->g));
}

void ts_jw_arr(ts_jw *w)
{
	GEN(w, yajl_gen_array_open(w->g));
}

void ts_jw_end_arr(ts_jw *w)
{
	GEN(w, yajl_gen_array_close(w->g));
}

/* s[0..n) as valid UTF-8 in w->tmp: a byte that starts no valid sequence
 * becomes the two-byte form of the code point of its value. */
static const unsigned char *utf8(ts_jw *w, const char *s, size_t n, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	while (i < n && u[i] < 0x80)
		i++;
	if (i == n) {
		*len = n;
		return u;
	}
	if (n > (SIZE_MAX - 1) / 2)
		return NULL;
	if (!ts_grow((void **)&w->tmp, &w->tmp_cap, 2 * n + 1, 1, 256, SIZE_MAX, false))
		return NULL;
	size_t k = 0;
	for (i = 0; i < n;) {
		size_t m = u[i] < 0x80 ? 1 : ts_utf8_len(u + i, n - i);
		if (m == 0) {
			w->tmp[k++] = (char)(0xc0 | (u[i] >> 6));
			w->tmp[k++] = (char)(0x80 | (u[i] & 0x3f));
			i++;
		} else {
			memcpy(w->tmp + k, u + i, m);
			k += m;
			i += m;
		}
	}
	*len = k;
	return (const unsigned char *)w->tmp;
}

void ts_jw_strn(ts_jw *w, const char *s, size_t n)
{
	if (!s) {
		ts_jw_null(w);
		return;
	}
	size_t len;
	const unsigned char *u = utf8(w, s, n, &len);
	if (!u) {
		w->failed = true;
		return;
	}
	GEN(w, yajl_gen_string(w->g, u, len));
}

void ts_jw_str(ts_jw *w, const char *s)
{
	ts_jw_strn(w, s, s ? strlen(s) : 0);
}

void ts_jw_key(ts_jw *w, const char *k)
{
	ts_jw_str(w, k);
}

void ts_jw_null(ts_jw *w)
{
	GEN(w, yajl_gen_null(w->g));
}

void ts_jw_bool(ts_jw *w, bool b)
{
	GEN(w, yajl_gen_bool(w->g, b));
}

static void number_text(ts_jw *w, const char *buf, int n)
{
	if (n <= 0) {
		w->failed = true;
		return;
	}
	GEN(w, yajl_gen_number(w->g, buf, (size_t)n));
}

void ts_jw_numtext(ts_jw *w, const char *text, size_t n)
{
	number_text(w, text, n > 0 && n < 64 ? (int)n : -1);
}

void ts_jw_int(ts_jw *w, int64_t v)
{
	char b[32];
	number_text(w, b, snprintf(b, sizeof b, "%" PRId64, v));
}

void ts_jw_uint(ts_jw *w, uint64_t v)
{
	char b[32];
	number_text(w, b, snprintf(b, sizeof b, "%" PRIu64, v));
}

void ts_jw_opt_int(ts_jw *w, bool has, int64_t v)
{
	if (has)
		ts_jw_int(w, v);
	else
		ts_jw_null(w);
}

void ts_jw_vnum(ts_jw *w, const char *fmt, va_list ap)
{
	va_list a2;
	va_copy(a2, ap);
	double v = va_arg(a2, double);
	va_end(a2);
	if (!isfinite(v)) {
		ts_jw_null(w);
		return;
	}
	char b[64];
	int n = vsnprintf(b, sizeof b, fmt, ap);
	number_text(w, b, n < (int)sizeof b ? n : -1);
}

void ts_jw_num(ts_jw *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ts_jw_vnum(w, fmt, ap);
	va_end(ap);
}

void ts_jw_us(ts_jw *w, int64_t ns)
{
	char b[40];
	ts_fmt_us(b, sizeof b, ns);
	number_text(w, b, (int)strlen(b));
}

void ts_jw_us_f(ts_jw *w, double ns)
{
	ts_jw_num(w, "%.3f", ns / 1000.0);
}

void ts_jw_kstr(ts_jw *w, const char *k, const char *s)
{
	ts_jw_key(w, k);
	ts_jw_str(w, s);
}

void ts_jw_kstrn(ts_jw *w, const char *k, const char *s, size_t n)
{
	ts_jw_key(w, k);
	ts_jw_strn(w, s, n);
}

void ts_jw_knull(ts_jw *w, const char *k)
{
	ts_jw_key(w, k);
	ts_jw_null(w);
}

void ts_jw_kbool(ts_jw *w, const char *k, bool b)
{
	ts_jw_key(w, k);
	ts_jw_bool(w, b);
}

void ts_jw_kint(ts_jw *w, const char *k, int64_t v)
{
	ts_jw_key(w, k);
	ts_jw_int(w, v);
}

void ts_jw_kuint(ts_jw *w, const char *k, uint64_t v)
{
	ts_jw_key(w, k);
	ts_jw_uint(w, v);
}

void ts_jw_kopt_int(ts_jw *w, const char *k, bool has, int64_t v)
{
	ts_jw_key(w, k);
	ts_jw_opt_int(w, has, v);
}

void ts_jw_kopt_us(ts_jw *w, const char *k, bool has, int64_t ns)
{
	if (has)
		ts_jw_kus(w, k, ns);
	else
		ts_jw_knull(w, k);
}

void ts_jw_knum(ts_jw *w, const char *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ts_jw_key(w, k);
	ts_jw_vnum(w, fmt, ap);
	va_end(ap);
}

void ts_jw_kus(ts_jw *w, const char *k, int64_t ns)
{
	ts_jw_key(w, k);
	ts_jw_us(w, ns);
}

void ts_jw_kus_f(ts_jw *w, const char *k, double ns)
{
	ts_jw_key(w, k);
	ts_jw_us_f(w, ns);
}
