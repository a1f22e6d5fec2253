/*
 * context.c - a kernel's meaning from where it runs: the context rules of
 * the pattern tables give a kernel another category by the CPU op that
 * launched it or by its place between YAML-selected kernels (see
 * context.h).
 */
#include "analysis/context.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "input/base/grow.h"

/* What one kernel name is to every context rule (bit i: rule i). */
typedef struct {
	uint32_t kernels, after, until;
	bool known;
} row_bits;

struct ts_ctx {
	const ts_patterns *p;
	size_t n;                /* rules (at most TS_MAX_CONTEXTS) */
	uint32_t op_rules;       /* rules that look at the op */
	bool callsite_rules;     /* some look at its call site too */
	uint32_t open;           /* positional windows open now */
	row_bits *rows;
	size_t rows_cap;
	uint32_t *ops;           /* per op row: matching rules | OP_KNOWN */
	size_t ops_cap;
};

#define OP_KNOWN 0x80000000u

ts_ctx *ts_ctx_new(const ts_patterns *p)
{
	ts_ctx *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->p = p;
	c->n = p ? ts_patterns_ncontexts(p) : 0;
	if (c->n > TS_MAX_CONTEXTS)
		c->n = TS_MAX_CONTEXTS;
	for (size_t i = 0; i < c->n; i++)
		if (ts_patterns_context(p, i)->op_re)
			c->op_rules |= 1u << i;
	for (size_t i = 0; i < c->n; i++)
		c->callsite_rules |= ts_patterns_context(p, i)->callsite_re != NULL;
	return c;
}

void ts_ctx_free(ts_ctx *c)
{
	if (!c)
		return;
	free(c->rows);
	free(c->ops);
	free(c);
}

static row_bits compute_row(const ts_ctx *c, const ts_kclass *cls,
			    const char *name, size_t len)
{
	row_bits b = { .known = true };
	for (size_t i = 0; i < c->n; i++) {
		const ts_context *r = ts_patterns_context(c->p, i);
		if (ts_selectors_any(&r->kernels, cls->category, cls->type, name, len))
			b.kernels |= 1u << i;
		if (ts_selectors_any(&r->after, cls->category, cls->type, name, len))
			b.after |= 1u << i;
		if (ts_selectors_any(&r->until, cls->category, cls->type, name, len))
			b.until |= 1u << i;
	}
	return b;
}

static row_bits row_of(ts_ctx *c, uint32_t row, const ts_kclass *cls,
		       const char *name, size_t len)
{
	if (row == TS_INTERN_NONE)
		return compute_row(c, cls, name, len);
	if (!ts_grow((void **)&c->rows, &c->rows_cap, (size_t)row + 1, sizeof *c->rows, 64,
		     SIZE_MAX, true))
		return compute_row(c, cls, name, len);
	if (!c->rows[row].known)
		c->rows[row] = compute_row(c, cls, name, len);
	return c->rows[row];
}

static uint32_t op_match(const ts_ctx *c, const char *op, size_t oplen, const char *cs, size_t cslen)
{
	uint32_t m = 0;
	size_t ov[2];
	for (size_t i = 0; i < c->n; i++) {
		const ts_context *r = ts_patterns_context(c->p, i);
		if ((c->op_rules >> i & 1u) && ts_regex_match(r->op_re, op, oplen, ov, 1) > 0 &&
		    (!r->callsite_re || (cs && ts_regex_match(r->callsite_re, cs, cslen, ov, 1) > 0)))
			m |= 1u << i;
	}
	return m;
}

/* The op rules an op row matches, with its call site (known once for the
 * row: the CPU side is read before the kernels, as Kineto writes it). */
static uint32_t op_of(ts_ctx *c, uint32_t op_row, const char *op, size_t oplen, const char *cs,
		      size_t cslen)
{
	if (!op)
		return 0;
	if (op_row == TS_INTERN_NONE)
		return op_match(c, op, oplen, cs, cslen);
	if (!ts_grow((void **)&c->ops, &c->ops_cap, (size_t)op_row + 1, sizeof *c->ops, 64,
		     SIZE_MAX, true))
		return op_match(c, op, oplen, cs, cslen);
	if (c->ops[op_row] & OP_KNOWN)
		return c->ops[op_row] & ~OP_KNOWN;
	uint32_t m = op_match(c, op, oplen, cs, cslen);
	/* an op whose call site is not known yet (its kernel came before its
	 * launch) is looked at again */
	if (cs || !c->callsite_rules)
		c->ops[op_row] = m | OP_KNOWN;
	return m;
}

int ts_ctx_kernel(ts_ctx *c, uint32_t row, const ts_kclass *cls,
		  const char *name, size_t len, uint32_t op_row,
		  const char *op, size_t oplen, const char *cs, size_t cslen)
{
	if (!c->n)
		return -1;
	row_bits b = row_of(c, row, cls, name, len);
	/* a closing kernel ends the window before it is looked at; an
	 * opening one opens it for the kernels after it */
	c->open &= ~b.until;
	int found = -1;
	if (b.kernels) {
		uint32_t ops = (b.kernels & c->op_rules) ? op_of(c, op_row, op, oplen, cs, cslen) : 0;
		uint32_t hit = b.kernels & ((ops & c->op_rules) | (c->open & ~c->op_rules));
		if (hit)
			found = __builtin_ctz(hit);
	}
	c->open |= b.after;
	return found;
}
