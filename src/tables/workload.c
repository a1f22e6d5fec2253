#include "workload.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- compile */

static bool fail(size_t *err_off, size_t at, char *err, size_t errlen,
		 const char *msg)
{
	*err_off = at;
	snprintf(err, errlen, "%s", msg);
	return false;
}

static size_t skip_space(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* A whole number of at most 9 digits at s[*i]; false when none. */
static bool read_int(const char *s, size_t *i, size_t len, int64_t *v)
{
	size_t start = *i;
	*v = 0;
	while (*i < len && s[*i] >= '0' && s[*i] <= '9' && *i - start < 9)
		*v = *v * 10 + (s[(*i)++] - '0');
	return *i > start && !(*i < len && s[*i] >= '0' && s[*i] <= '9');
}

/* One factor at s[*i]: aN[I], aN.rows, aN.numel or a whole number. */
static bool read_term(const char *s, size_t *i, size_t len, ts_wterm *t,
		      size_t *err_off, char *err, size_t errlen)
{
	size_t at = *i;
	int64_t v;
	if (at < len && s[at] >= '0' && s[at] <= '9') {
		if (!read_int(s, i, len, &v) || v == 0)
			return fail(err_off, at, err, errlen,
				    "expected a whole number from 1 to 999999999");
		*t = (ts_wterm){ .kind = TS_WT_CONST, .k = v };
		return true;
	}
	if (at < len && s[at] == 'c') {
		(*i)++;
		if (!read_int(s, i, len, &v) || v >= TS_MAX_OPERANDS)
			return fail(err_off, at, err, errlen,
				    "a scalar argument is c0 to c7 (the first 8 Concrete Inputs)");
		*t = (ts_wterm){ .kind = TS_WT_SCALAR, .operand = (uint8_t)v };
		return true;
	}
	if (at >= len || s[at] != 'a')
		return fail(err_off, at, err, errlen,
			    "expected an operand (a0, a1[-1], a0.rows, a0.numel), a scalar (c2) or a number");
	(*i)++;
	if (!read_int(s, i, len, &v) || v >= TS_MAX_OPERANDS)
		return fail(err_off, at, err, errlen,
			    "an operand is a0 to a7 (the first 8 Input Dims entries)");
	t->operand = (uint8_t)v;
	t->k = 0;
	if (*i < len && s[*i] == '[') {
		size_t ia = ++*i;
		bool neg = *i < len && s[*i] == '-';
		if (neg)
			(*i)++;
		if (!read_int(s, i, len, &v) || *i >= len || s[*i] != ']' ||
		    v >= TS_MAX_RANK + (neg ? 1 : 0) || (neg && v == 0))
			return fail(err_off, ia, err, errlen,
				    "a dimension index is 0 to 5, or -1 to -6 from the end");
		(*i)++;
		t->kind = TS_WT_DIM;
		t->index = (int8_t)(neg ? -v : v);
		return true;
	}
	if (*i + 5 <= len && memcmp(s + *i, ".rows", 5) == 0) {
		*i += 5;
		t->kind = TS_WT_ROWS;
		return true;
	}
	if (*i + 6 <= len && memcmp(s + *i, ".numel", 6) == 0) {
		*i += 6;
		t->kind = TS_WT_NUMEL;
		return true;
	}
	return fail(err_off, *i, err, errlen,
		    "expected [INDEX], .rows or .numel after the operand");
}

bool ts_wexpr_compile(const char *src, size_t len, ts_wexpr *e, size_t *err_off,
		      char *err, size_t errlen)
{
	memset(e, 0, sizeof *e);
	size_t i = skip_space(src, 0, len);
	bool div = false;
	for (;;) {
		if (e->n == TS_WEXPR_TERMS)
			return fail(err_off, i, err, errlen,
				    "an expression has at most 8 factors");
		ts_wterm t;
		if (!read_term(src, &i, len, &t, err_off, err, errlen))
			return false;
		t.div = div;
		e->t[e->n++] = t;
		i = skip_space(src, i, len);
		if (i == len)
			return true;
		if (src[i] != '*' && src[i] != '/')
			return fail(err_off, i, err, errlen, "expected * or / between factors");
		div = src[i] == '/';
		i = skip_space(src, i + 1, len);
	}
}

bool ts_wtmpl_compile(const char *src, ts_wtmpl *t, size_t *err_off, char *err,
		      size_t errlen)
{
	memset(t, 0, sizeof *t);
	size_t len = strlen(src), i = 0;
	if (len == 0)
		return fail(err_off, 0, err, errlen, "a workload name cannot be empty");
	while (i < len) {
		if (t->n == TS_WTMPL_PARTS)
			return fail(err_off, i, err, errlen,
				    "a workload name has at most 16 parts");
		ts_wpart *p = &t->p[t->n];
		if (src[i] == '{') {
			const char *close = memchr(src + i, '}', len - i);
			if (!close)
				return fail(err_off, i, err, errlen, "'{' without a closing '}'");
			size_t n = (size_t)(close - (src + i + 1)), off;
			if (!ts_wexpr_compile(src + i + 1, n, &p->e, &off, err, errlen)) {
				*err_off = i + 1 + off;
				return false;
			}
			p->lit = NULL;
			i += n + 2;
		} else {
			size_t n = 0;
			while (i + n < len && src[i + n] != '{') {
				if (src[i + n] == '}')
					return fail(err_off, i + n, err, errlen, "'}' without an opening '{'");
				n++;
			}
			if (n > UINT16_MAX)
				return fail(err_off, i, err, errlen, "literal text too long");
			p->lit = src + i;
			p->len = (uint16_t)n;
			i += n;
		}
		t->n++;
	}
	return true;
}

/* ------------------------------------------------------------------- eval */

#define WMAX ((int64_t)1 << 53)

static bool term_value(const ts_wterm *t, const ts_event *ev, int64_t *v)
{
	if (t->kind == TS_WT_CONST) {
		*v = t->k;
		return true;
	}
	unsigned op = t->operand;
	if (t->kind == TS_WT_SCALAR) {
		if (op >= TS_MAX_OPERANDS || !(ev->nconcrete & (1u << op)))
			return false;
		*v = ev->concrete[op];
		return *v > 0;
	}
	if (!(ev->has & TS_HAS_DIMS) || op >= ev->noperands || op >= TS_MAX_OPERANDS)
		return false;
	unsigned rank = ev->rank[op];
	if (rank == TS_RANK_BAD || rank == 0)
		return false;
	const int64_t *d = ev->dims[op];
	if (t->kind == TS_WT_DIM) {
		int idx = t->index < 0 ? (int)rank + t->index : t->index;
		if (idx < 0 || idx >= (int)rank)
			return false;
		*v = d[idx];
		return *v > 0;
	}
	unsigned end = t->kind == TS_WT_ROWS ? rank - 1 : rank;
	if (t->kind == TS_WT_ROWS && rank < 2)
		return false;
	int64_t p = 1;
	for (unsigned i = 0; i < end; i++) {
		if (d[i] <= 0 || p > WMAX / d[i])
			return false;
		p *= d[i];
	}
	*v = p;
	return true;
}

bool ts_wexpr_eval(const ts_wexpr *e, const ts_event *ev, int64_t *out)
{
	int64_t acc = 1;
	for (unsigned i = 0; i < e->n; i++) {
		int64_t v;
		if (!term_value(&e->t[i], ev, &v))
			return false;
		if (e->t[i].div) {
			if (acc % v)
				return false;
			acc /= v;
		} else {
			if (acc > WMAX / v)
				return false;
			acc *= v;
		}
	}
	*out = acc;
	return e->n > 0;
}

bool ts_wtmpl_eval(const ts_wtmpl *t, const ts_event *ev, char *out, size_t cap,
		   size_t *len)
{
	size_t n = 0;
	for (unsigned i = 0; i < t->n; i++) {
		const ts_wpart *p = &t->p[i];
		if (p->lit) {
			if (n + p->len >= cap)
				return false;
			memcpy(out + n, p->lit, p->len);
			n += p->len;
			continue;
		}
		int64_t v;
		if (!ts_wexpr_eval(&p->e, ev, &v))
			return false;
		char num[24];
		int k = snprintf(num, sizeof num, "%lld", (long long)v);
		if (k < 0 || n + (size_t)k >= cap)
			return false;
		memcpy(out + n, num, (size_t)k);
		n += (size_t)k;
	}
	out[n] = '\0';
	*len = n;
	return true;
}
