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
 *     W           the job's ranks (distributedInfo's world size; 1 without)
 *     moe.experts moe.topk moe.hidden moe.intermediate moe.weight_bits
 *                 a field of the model's MoE configuration the caller
 *                 passes (moe: in a family file), when it has one
 *     touched(N, K, D)  the experts of N that D draws of K distinct ones
 *                 each touch, expected under uniform routing:
 *                 N * (1 - (1 - K/N)^D); its arguments are single terms
 *     64          a whole number
 *
 * left to right: a1[-1] / a4[-1] * 2, and adds and subtracts such products:
 * a0.numel * a0.esize + a1.numel * a1.esize. An expression that names a missing
 * operand or dimension, meets a dimension that is not positive, divides
 * inexactly or overflows has no value, and the rule does not apply to that
 * call. Names, tokens and conditions are whole numbers; FLOPs and bytes
 * (ts_wexpr_eval_real) are real numbers, where / divides and touched() and
 * moe.weight_bits need not be whole. Compiled templates are plain values (no pointers into the source
 * but lit, which points into the template text the caller keeps).
 */
#ifndef TS_WORKLOAD_H
#define TS_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/event.h"
#include "input/base/status.h"

enum { TS_WT_DIM, TS_WT_ROWS, TS_WT_NUMEL, TS_WT_ESIZE, TS_WT_SCALAR, TS_WT_CONST, TS_WT_CTX,
       TS_WT_WORLD, TS_WT_MOE, TS_WT_TOUCHED };

/* The fields of a MoE configuration (TS_WT_MOE's index). */
enum { TS_MOE_EXPERTS, TS_MOE_TOPK, TS_MOE_HIDDEN, TS_MOE_INTERMEDIATE, TS_MOE_WEIGHT_BITS,
       TS_MOE_FIELDS };

/* How a term joins what comes before it; TS_WOP_ARG: an argument of the
 * touched() before it. */
enum { TS_WOP_MUL, TS_WOP_DIV, TS_WOP_ADD, TS_WOP_SUB, TS_WOP_ARG };

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
	/* TS_WP_HEADS: {heads(Q, KV)}, e the query heads and the next part's
	 * e the KV heads, written mha (as many), mqa (one KV head) or gqa */
	uint8_t fn;
	ts_wexpr e;              /* when lit is NULL */
} ts_wpart;

enum { TS_WP_VALUE, TS_WP_HEADS, TS_WP_HEADS_KV };

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

/* A model's MoE configuration (moe: in a family file), read by moe.*. */
typedef struct {
	const char *name;        /* the model it describes: gpt-oss-120b */
	const char *family;
	int64_t experts, topk, hidden, intermediate;
	double weight_bits;      /* bits per expert weight; 0: not given */
} ts_moecfg;

/* What an expression reads besides the op's shapes. */
typedef struct {
	int64_t T;               /* the value of T, 0 unknown */
	int64_t world;           /* the value of W */
	const ts_moecfg *moe;    /* moe.* fields; NULL: none */
} ts_wctx;

/* Whether an expression reads moe.* fields. */
bool ts_wexpr_reads_moe(const ts_wexpr *e);

/* Compile an expression of len bytes; false with the problem in *err
 * (TS_ERR_PATTERNS, its message, and in err->byte its 1-based offset in
 * src). */
bool ts_wexpr_compile(const char *src, size_t len, ts_wexpr *e, ts_error *err);
/* Compile a condition (NUL-terminated), like ts_wexpr_compile. */
bool ts_wcond_compile(const char *src, ts_wcond *c, ts_error *err);
/* Compile a template (NUL-terminated; it must outlive t). */
bool ts_wtmpl_compile(const char *src, ts_wtmpl *t, ts_error *err);

/* Bytes per element of a dtype as written in "Input type" (c10::BFloat16
 * 2, float 4, c10::Float8_e4m3fn 1, ...); 0 when unknown. */
int ts_dtype_size(const char *dtype);

/* The value of an expression for one op's shapes in context cx; false:
 * none. */
bool ts_wexpr_eval(const ts_wexpr *e, const ts_event *ev, const ts_wctx *cx, int64_t *out);
/* The same in real numbers (FLOPs, bytes): false when a term has no value
 * or the result is not finite. */
bool ts_wexpr_eval_real(const ts_wexpr *e, const ts_event *ev, const ts_wctx *cx, double *out);
/* Whether a condition holds: both sides have a value and compare true. */
bool ts_wcond_eval(const ts_wcond *c, const ts_event *ev, const ts_wctx *cx);
/* The name a template gives one op's shapes, NUL-terminated in out;
 * false when a hole has no value or the name does not fit. */
bool ts_wtmpl_eval(const ts_wtmpl *t, const ts_event *ev, const ts_wctx *cx, char *out,
		   size_t cap, size_t *len);
/* Whether a template or condition reads moe.* fields. */
bool ts_wtmpl_reads_moe(const ts_wtmpl *t);
bool ts_wcond_reads_moe(const ts_wcond *c);

#endif
