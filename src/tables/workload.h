/*
 * workload.h - operator workload names computed from recorded shapes.
 *
 * A CPU op traced with record_shapes carries "Input Dims", one list of
 * dimensions per operand. The operator rules of the pattern tables turn
 * them into definition names like gemm_n6144_k4096 with templates: literal
 * text and {EXPR} holes, where EXPR multiplies and divides
 *
 *     a1[0]       operand 1, dimension 0 (a1[-1]: its last dimension)
 *     a0.rows     the product of all dimensions of operand 0 but the last
 *     a0.numel    the product of all its dimensions
 *     a0.esize    bytes per element of operand 0, from its "Input type"
 *     c2          scalar argument 2 ("Concrete Inputs"), when a whole number
 *                 (True is 1; False and 0 have no value)
 *     T           the context's tokens: what the caller passes (the M of
 *                 the latest GEMM on the op's thread), when known
 *     64          a whole number
 *
 * left to right: a1[-1] / a4[-1] * 2, and adds and subtracts such products:
 * a0.numel * a0.esize + a1.numel * a1.esize. An expression that names a missing
 * operand or dimension, meets a dimension that is not positive, divides
 * inexactly or overflows has no value, and the rule does not apply to that
 * call. Compiled templates are plain values (no pointers into the source
 * but lit, which points into the template text the caller keeps).
 */
#ifndef TS_WORKLOAD_H
#define TS_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/event.h"

enum { TS_WT_DIM, TS_WT_ROWS, TS_WT_NUMEL, TS_WT_ESIZE, TS_WT_SCALAR, TS_WT_CONST, TS_WT_CTX };

/* How a term joins what comes before it. */
enum { TS_WOP_MUL, TS_WOP_DIV, TS_WOP_ADD, TS_WOP_SUB };

typedef struct {
	uint8_t kind;            /* TS_WT_* */
	uint8_t operand;
	int8_t index;            /* TS_WT_DIM: negative counts from the end */
	uint8_t op;              /* TS_WOP_*: ADD and SUB start a new product */
	int64_t k;               /* TS_WT_CONST */
} ts_wterm;

#define TS_WEXPR_TERMS 24
#define TS_WTMPL_PARTS 16

typedef struct {
	ts_wterm t[TS_WEXPR_TERMS];
	uint8_t n;
} ts_wexpr;

typedef struct {
	const char *lit;         /* literal text (not NUL-terminated), or NULL */
	uint16_t len;
	ts_wexpr e;              /* when lit is NULL */
} ts_wpart;

typedef struct {
	ts_wpart p[TS_WTMPL_PARTS];
	uint8_t n;
} ts_wtmpl;

/* A condition: EXPR CMP EXPR, CMP one of = != < <= > >=. */
enum { TS_WC_EQ, TS_WC_NE, TS_WC_LT, TS_WC_LE, TS_WC_GT, TS_WC_GE };

typedef struct {
	ts_wexpr l, r;
	uint8_t cmp;             /* TS_WC_* */
} ts_wcond;

/* Compile an expression of len bytes; false with the byte offset of the
 * problem in *err_off and a message in err. */
bool ts_wexpr_compile(const char *src, size_t len, ts_wexpr *e, size_t *err_off,
		      char *err, size_t errlen);
/* Compile a condition (NUL-terminated), like ts_wexpr_compile. */
bool ts_wcond_compile(const char *src, ts_wcond *c, size_t *err_off, char *err,
		      size_t errlen);
/* Compile a template (NUL-terminated; it must outlive t). */
bool ts_wtmpl_compile(const char *src, ts_wtmpl *t, size_t *err_off, char *err,
		      size_t errlen);

/* Bytes per element of a dtype as written in "Input type" (c10::BFloat16
 * 2, float 4, c10::Float8_e4m3fn 1, ...); 0 when unknown. */
int ts_dtype_size(const char *dtype);

/* The value of an expression for one op's shapes, with ctx the value of
 * T (0: unknown); false: none. */
bool ts_wexpr_eval(const ts_wexpr *e, const ts_event *ev, int64_t ctx, int64_t *out);
/* Whether a condition holds: both sides have a value and compare true. */
bool ts_wcond_eval(const ts_wcond *c, const ts_event *ev, int64_t ctx);
/* The name a template gives one op's shapes, NUL-terminated in out;
 * false when a hole has no value or the name does not fit. */
bool ts_wtmpl_eval(const ts_wtmpl *t, const ts_event *ev, int64_t ctx, char *out,
		   size_t cap, size_t *len);

#endif
