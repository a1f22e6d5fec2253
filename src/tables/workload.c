/*
 * workload.c - operator workload names and cost expressions over recorded
 * shapes (gemm_n{a1[1]}_k{a1[0]}, 2 * a0[0] * a1[1] * a1[0]) (see
 * workload.h).
 */
#include "tables/workload.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- compile */

/* The problem and where it is: err->byte is its 1-based offset in the
 * expression's text. */
static bool fail(ts_error *err, size_t at, const char *msg)
{
	ts_error_set(err, TS_ERR_PATTERNS, "%s", msg);
	err->byte = at + 1;
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
		      ts_error *err)
{
	size_t at = *i;
	int64_t v;
	if (at < len && s[at] >= '0' && s[at] <= '9') {
		if (!read_int(s, i, len, &v) || v == 0)
			return fail(err, at, "expected a whole number from 1 to 999999999");
		*t = (ts_wterm){ .kind = TS_WT_CONST, .k = v };
		return true;
	}
	if (at < len && (s[at] == 'T' || s[at] == 'W') &&
	    !(at + 1 < len && isalnum((unsigned char)s[at + 1]))) {
		(*i)++;
		*t = (ts_wterm){ .kind = s[at] == 'T' ? TS_WT_CTX : TS_WT_WORLD };
		return true;
	}
	if (len - at >= 4 && memcmp(s + at, "moe.", 4) == 0) {
		static const char *const fields[TS_MOE_FIELDS] = {
			"experts", "topk", "hidden", "intermediate", "weight_bits"
		};
		size_t n = 0;
		while (at + 4 + n < len && (isalnum((unsigned char)s[at + 4 + n]) || s[at + 4 + n] == '_'))
			n++;
		for (int f = 0; f < TS_MOE_FIELDS; f++)
			if (strlen(fields[f]) == n && memcmp(s + at + 4, fields[f], n) == 0) {
				*i = at + 4 + n;
				*t = (ts_wterm){ .kind = TS_WT_MOE, .index = (int8_t)f };
				return true;
			}
		return fail(err, at, "a MoE field is moe.experts, moe.topk, moe.hidden, moe.intermediate or moe.weight_bits");
	}
	if (len - at >= 8 && memcmp(s + at, "touched(", 8) == 0) {
		*t = (ts_wterm){ .kind = TS_WT_TOUCHED };
		return true;    /* its arguments: compile_expr */
	}
	if (at < len && s[at] == 'c') {
		(*i)++;
		if (!read_int(s, i, len, &v) || v >= TS_MAX_CONCRETE)
			return fail(err, at, "a scalar argument is c0 to c15 (the first 16 Concrete Inputs)");
		*t = (ts_wterm){ .kind = TS_WT_SCALAR, .operand = (uint8_t)v };
		return true;
	}
	if (at >= len || s[at] != 'a')
		return fail(err, at, "expected an operand (a0, a1[-1], a0.rows, a0.numel), a scalar (c2), T, W, moe.FIELD, touched(N, K, D) or a number");
	(*i)++;
	if (!read_int(s, i, len, &v) || v >= TS_MAX_OPERANDS)
		return fail(err, at, "an operand is a0 to a7 (the first 8 Input Dims entries)");
	t->operand = (uint8_t)v;
	t->k = 0;
	if (*i < len && s[*i] == '[') {
		size_t ia = ++*i;
		bool neg = *i < len && s[*i] == '-';
		if (neg)
			(*i)++;
		if (!read_int(s, i, len, &v) || *i >= len || s[*i] != ']' ||
		    v >= TS_MAX_RANK + (neg ? 1 : 0) || (neg && v == 0))
			return fail(err, ia, "a dimension index is 0 to 5, or -1 to -6 from the end");
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
	if (*i + 6 <= len && memcmp(s + *i, ".esize", 6) == 0) {
		*i += 6;
		t->kind = TS_WT_ESIZE;
		return true;
	}
	return fail(err, *i, "expected [INDEX], .rows, .numel or .esize after the operand");
}

/* The three arguments of touched( at src[*i], each a single term, after
 * the touched term in e; *i left past the ')'. */
static bool touched_args(const char *src, size_t *i, size_t len, ts_wexpr *e,
			 ts_error *err)
{
	*i += 8;
	for (int a = 0; a < 3; a++) {
		*i = skip_space(src, *i, len);
		if (e->n == TS_WEXPR_TERMS)
			return fail(err, *i, "an expression has at most 24 terms");
		ts_wterm t;
		if (!read_term(src, i, len, &t, err))
			return false;
		if (t.kind == TS_WT_TOUCHED)
			return fail(err, *i, "touched() takes single terms, not touched()");
		t.op = TS_WOP_ARG;
		e->t[e->n++] = t;
		*i = skip_space(src, *i, len);
		if (*i >= len || src[*i] != (a < 2 ? ',' : ')'))
			return fail(err, *i, "touched(N, K, D) takes three single terms: experts, picks per draw, draws");
		(*i)++;
	}
	return true;
}

/* Compile src[*i..len) up to its end, or with stop_cmp up to a comparison
 * operator, left at *i. */
static bool compile_expr(const char *src, size_t *pi, size_t len, bool stop_cmp, ts_wexpr *e,
			 ts_error *err)
{
	memset(e, 0, sizeof *e);
	size_t i = skip_space(src, *pi, len);
	uint8_t op = TS_WOP_ADD;
	for (;;) {
		if (e->n == TS_WEXPR_TERMS)
			return fail(err, i, "an expression has at most 24 terms");
		ts_wterm t;
		if (!read_term(src, &i, len, &t, err))
			return false;
		t.op = op;
		e->t[e->n++] = t;
		if (t.kind == TS_WT_TOUCHED && !touched_args(src, &i, len, e, err))
			return false;
		i = skip_space(src, i, len);
		*pi = i;
		if (i == len || (stop_cmp && strchr("=!<>", src[i])))
			return true;
		switch (src[i]) {
		case '*':
			op = TS_WOP_MUL;
			break;
		case '/':
			op = TS_WOP_DIV;
			break;
		case '+':
			op = TS_WOP_ADD;
			break;
		case '-':
			op = TS_WOP_SUB;
			break;
		default:
			return fail(err, i, stop_cmp
				    ? "expected *, /, + or - between terms, or a comparison (= != < <= > >=)"
				    : "expected *, /, + or - between terms");
		}
		i = skip_space(src, i + 1, len);
	}
}

bool ts_wexpr_compile(const char *src, size_t len, ts_wexpr *e, ts_error *err)
{
	size_t i = 0;
	return compile_expr(src, &i, len, false, e, err);
}

bool ts_wcond_compile(const char *src, ts_wcond *c, ts_error *err)
{
	static const struct {
		const char *s;
		uint8_t cmp;
	} ops[] = { { "==", TS_WC_EQ }, { "!=", TS_WC_NE }, { "<=", TS_WC_LE },
		    { ">=", TS_WC_GE }, { "=", TS_WC_EQ }, { "<", TS_WC_LT }, { ">", TS_WC_GT } };
	size_t len = strlen(src), i = 0;
	memset(c, 0, sizeof *c);
	if (!compile_expr(src, &i, len, true, &c->l, err))
		return false;
	size_t k = 0;
	while (k < sizeof ops / sizeof *ops && strncmp(src + i, ops[k].s, strlen(ops[k].s)) != 0)
		k++;
	if (i == len || k == sizeof ops / sizeof *ops)
		return fail(err, i, "a condition compares two expressions: = != < <= > >=");
	c->cmp = ops[k].cmp;
	i += strlen(ops[k].s);
	if (!ts_wexpr_compile(src + i, len - i, &c->r, err)) {
		err->byte += i;
		return false;
	}
	return true;
}

/* {heads(Q, KV)} at src[at], n bytes inside the braces: two parts, the
 * query heads' expression and the KV heads'. */
static bool heads_part(ts_wtmpl *t, const char *src, size_t at, size_t n, ts_error *err)
{
	const char *in = src + at + 6, *end = src + at + n;
	const char *comma = memchr(in, ',', (size_t)(end - in));
	if (!comma || end[-1] != ')')
		return fail(err, at, "heads(Q, KV) takes two expressions: the query heads, the KV heads");
	if (t->n + 2 > TS_WTMPL_PARTS)
		return fail(err, at, "a workload name has at most 16 parts");
	ts_wpart *q = &t->p[t->n], *kv = &t->p[t->n + 1];
	*q = (ts_wpart){ .fn = TS_WP_HEADS };
	*kv = (ts_wpart){ .fn = TS_WP_HEADS_KV };
	if (!ts_wexpr_compile(in, (size_t)(comma - in), &q->e, err)) {
		err->byte += (size_t)(in - src);
		return false;
	}
	if (!ts_wexpr_compile(comma + 1, (size_t)(end - 1 - (comma + 1)), &kv->e, err)) {
		err->byte += (size_t)(comma + 1 - src);
		return false;
	}
	t->n += 2;
	return true;
}

bool ts_wtmpl_compile(const char *src, ts_wtmpl *t, ts_error *err)
{
	memset(t, 0, sizeof *t);
	size_t len = strlen(src), i = 0;
	if (len == 0)
		return fail(err, 0, "a workload name cannot be empty");
	while (i < len) {
		if (t->n == TS_WTMPL_PARTS)
			return fail(err, i, "a workload name has at most 16 parts");
		ts_wpart *p = &t->p[t->n];
		if (src[i] == '{') {
			const char *close = memchr(src + i, '}', len - i);
			if (!close)
				return fail(err, i, "'{' without a closing '}'");
			size_t n = (size_t)(close - (src + i + 1));
			p->lit = NULL;
			if (n > 6 && memcmp(src + i + 1, "heads(", 6) == 0) {
				if (!heads_part(t, src, i + 1, n, err))
					return false;
				i += n + 2;
				continue;
			}
			if (!ts_wexpr_compile(src + i + 1, n, &p->e, err)) {
				err->byte += i + 1;
				return false;
			}
			i += n + 2;
		} else {
			size_t n = 0;
			while (i + n < len && src[i + n] != '{') {
				if (src[i + n] == '}')
					return fail(err, i + n, "'}' without an opening '{'");
				n++;
			}
			if (n > UINT16_MAX)
				return fail(err, i, "literal text too long");
			p->lit = src + i;
			p->len = (uint16_t)n;
			i += n;
		}
		t->n++;
	}
	return true;
}

/* ------------------------------------------------------------------- eval */

/* Values past this are not shapes but garbage (and sums stay in int64). */
#define WMAX ((int64_t)1 << 60)

int ts_dtype_size(const char *t)
{
	static const struct {
		const char *name;
		int size;
	} sizes[] = {
		{ "c10::BFloat16", 2 }, { "c10::Half", 2 }, { "float", 4 },
		{ "double", 8 }, { "long int", 8 }, { "int", 4 }, { "short int", 2 },
		{ "signed char", 1 }, { "unsigned char", 1 }, { "bool", 1 },
		{ "c10::complex<float>", 8 }, { "c10::complex<double>", 16 },
		{ "c10::complex<c10::Half>", 4 }, { "unsigned int", 4 },
		{ "unsigned long", 8 }, { "unsigned short", 2 },
	};
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		if (strcmp(t, sizes[i].name) == 0)
			return sizes[i].size;
	/* c10::Float8_e4m3fn, _e5m2, _e4m3fnuz, _e5m2fnuz, _e8m0fnu; packed
	 * c10::Float4_e2m1fn_x2 (two values per byte, dims count bytes) */
	if (strncmp(t, "c10::Float8_", 12) == 0 || strncmp(t, "c10::Float4_", 12) == 0)
		return 1;
	return 0;
}

/* A term's value: whole (w, exact to WMAX) or, for moe.weight_bits and
 * touched(), real (r; whole only when it has no fraction). */
typedef struct {
	int64_t w;
	double r;
	bool whole;
} value;

static bool whole(int64_t w, value *v)
{
	*v = (value){ w, (double)w, true };
	return true;
}

static bool real(double r, value *v)
{
	bool w = r == floor(r) && r <= (double)WMAX;
	*v = (value){ w ? (int64_t)r : 0, r, w };
	return true;
}

/* The value of one term that is not touched(). */
static bool term_value(const ts_wterm *t, const ts_event *ev, const ts_wctx *cx, value *v)
{
	switch (t->kind) {
	case TS_WT_CONST:
		return whole(t->k, v);
	case TS_WT_CTX:
		return cx->T > 0 && cx->T <= WMAX && whole(cx->T, v);
	case TS_WT_WORLD:
		return whole(cx->world > 0 && cx->world <= WMAX ? cx->world : 1, v);
	case TS_WT_MOE:
		if (!cx->moe)
			return false;
		switch (t->index) {
		case TS_MOE_EXPERTS: return whole(cx->moe->experts, v);
		case TS_MOE_TOPK: return whole(cx->moe->topk, v);
		case TS_MOE_HIDDEN: return whole(cx->moe->hidden, v);
		case TS_MOE_INTERMEDIATE: return whole(cx->moe->intermediate, v);
		default: return cx->moe->weight_bits > 0 && real(cx->moe->weight_bits, v);
		}
	default:
		break;
	}
	unsigned op = t->operand;
	if (t->kind == TS_WT_SCALAR) {
		if (op >= TS_MAX_CONCRETE || !(ev->nconcrete & (1u << op)))
			return false;
		return ev->concrete[op] >= 0 && whole(ev->concrete[op], v);
	}
	if (t->kind == TS_WT_ESIZE) {
		if (!(ev->has & TS_HAS_DTYPE) || op >= ev->ntypes || op >= TS_MAX_OPERANDS)
			return false;
		int size = ts_dtype_size(ev->dtype[op]);
		return size > 0 && whole(size, v);
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
		return d[idx] > 0 && whole(d[idx], v);
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
	return whole(p, v);
}

/* The value of term i of e (touched() with its arguments, *i left on the
 * last of them). */
static bool factor(const ts_wexpr *e, unsigned *i, const ts_event *ev, const ts_wctx *cx,
		   value *v)
{
	const ts_wterm *t = &e->t[*i];
	if (t->kind != TS_WT_TOUCHED)
		return term_value(t, ev, cx, v);
	value a[3];
	for (int k = 0; k < 3; k++) {
		if (*i + 1 >= e->n || e->t[*i + 1].op != TS_WOP_ARG ||
		    !term_value(&e->t[++*i], ev, cx, &a[k]))
			return false;
	}
	double n = a[0].r, k = a[1].r, d = a[2].r;
	if (k > n)
		return false;
	/* N * (1 - (1 - K/N)^D), exactly K for one draw */
	double r = d == 1 ? k : n * -expm1(d * log1p(-k / n));
	return isfinite(r) && r > 0 && real(r, v);
}

bool ts_wexpr_eval_real(const ts_wexpr *e, const ts_event *ev, const ts_wctx *cx, double *out)
{
	double sum = 0, prod = 0;
	for (unsigned i = 0; i < e->n; i++) {
		uint8_t op = e->t[i].op;
		value x;
		if (!factor(e, &i, ev, cx, &x))
			return false;
		double v = x.r;
		switch (op) {
		case TS_WOP_ADD:
		case TS_WOP_SUB:
			sum += prod;
			prod = op == TS_WOP_SUB ? -v : v;
			break;
		case TS_WOP_DIV:
			prod /= v;
			break;
		default:
			prod *= v;
			break;
		}
	}
	sum += prod;
	if (!isfinite(sum) || e->n == 0)
		return false;
	*out = sum;
	return true;
}

bool ts_wexpr_eval(const ts_wexpr *e, const ts_event *ev, const ts_wctx *cx, int64_t *out)
{
	int64_t sum = 0, prod = 0;
	for (unsigned i = 0; i < e->n; i++) {
		uint8_t op = e->t[i].op;
		value x;
		if (!factor(e, &i, ev, cx, &x) || !x.whole)
			return false;    /* whole numbers only */
		int64_t v = x.w;
		switch (op) {
		case TS_WOP_ADD:
		case TS_WOP_SUB:
			/* the product so far is done: into the sum */
			sum += prod;
			prod = op == TS_WOP_SUB ? -v : v;
			break;
		case TS_WOP_DIV:
			if (v == 0 || prod % v)
				return false;
			prod /= v;
			break;
		default:
			if (v != 0 && (prod > WMAX / v || prod < -WMAX / v))
				return false;
			prod *= v;
			break;
		}
		if (sum > WMAX || sum < -WMAX)
			return false;
	}
	sum += prod;
	if (sum > WMAX || sum < -WMAX)
		return false;
	*out = sum;
	return e->n > 0;
}

bool ts_wexpr_reads_moe(const ts_wexpr *e)
{
	for (unsigned i = 0; i < e->n; i++)
		if (e->t[i].kind == TS_WT_MOE)
			return true;
	return false;
}

bool ts_wcond_reads_moe(const ts_wcond *c)
{
	return ts_wexpr_reads_moe(&c->l) || ts_wexpr_reads_moe(&c->r);
}

bool ts_wtmpl_reads_moe(const ts_wtmpl *t)
{
	for (unsigned i = 0; i < t->n; i++)
		if (!t->p[i].lit && ts_wexpr_reads_moe(&t->p[i].e))
			return true;
	return false;
}

bool ts_wcond_eval(const ts_wcond *c, const ts_event *ev, const ts_wctx *cx)
{
	int64_t l, r;
	if (!ts_wexpr_eval(&c->l, ev, cx, &l) || !ts_wexpr_eval(&c->r, ev, cx, &r))
		return false;
	switch (c->cmp) {
	case TS_WC_EQ: return l == r;
	case TS_WC_NE: return l != r;
	case TS_WC_LT: return l < r;
	case TS_WC_LE: return l <= r;
	case TS_WC_GT: return l > r;
	default: return l >= r;
	}
}

bool ts_wtmpl_eval(const ts_wtmpl *t, const ts_event *ev, const ts_wctx *cx, char *out, size_t cap,
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
		if (!ts_wexpr_eval(&p->e, ev, cx, &v))
			return false;
		char num[24];
		int k;
		if (p->fn == TS_WP_HEADS) {
			/* the attention's kind from its heads: as many KV heads as
			 * query heads is MHA, one is MQA, a few GQA */
			int64_t kv;
			if (i + 1 >= t->n || !ts_wexpr_eval(&t->p[i + 1].e, ev, cx, &kv) || kv < 1 || kv > v)
				return false;
			k = snprintf(num, sizeof num, "%s", kv == v ? "mha" : kv == 1 ? "mqa" : "gqa");
			i++;
		} else {
			k = snprintf(num, sizeof num, "%lld", (long long)v);
		}
		if (k < 0 || n + (size_t)k >= cap)
			return false;
		memcpy(out + n, num, (size_t)k);
		n += (size_t)k;
	}
	out[n] = '\0';
	*len = n;
	return true;
}
