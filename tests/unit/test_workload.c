/* Workload templates: compile errors with their offsets, and names and
 * token counts from hand-made shapes. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "tables/workload.h"

/* the offset in the expression a compile error is at */
#define OFF(e) ((size_t)((e).byte - 1))

#define CX(t) (&(ts_wctx){ .T = (t), .world = 1 })

/* An op event with operands given as rank, dims...; -1 ends. */
static ts_event op(int n, const int64_t (*dims)[TS_MAX_RANK + 1])
{
	ts_event ev;
	memset(&ev, 0, sizeof ev);
	ev.has = TS_HAS_DIMS;
	ev.noperands = (uint8_t)n;
	for (int i = 0; i < n && i < TS_MAX_OPERANDS; i++) {
		ev.rank[i] = (uint8_t)dims[i][0];
		for (int k = 0; k < dims[i][0] && k < TS_MAX_RANK; k++)
			ev.dims[i][k] = dims[i][k + 1];
	}
	return ev;
}

static void name_is(const char *tmpl, const ts_event *ev, const char *want)
{
	ts_wtmpl t;
	size_t len = 0;
	ts_error er = { 0 };
	char out[128] = "";
	bool c = ts_wtmpl_compile(tmpl, &t, &er);
	bool e = c && ts_wtmpl_eval(&t, ev, CX(0), out, sizeof out, &len);
	if (want)
		CHECK(e && strcmp(out, want) == 0 && len == strlen(want),
		      "template '%s' gives '%s' (got '%s'%s)", tmpl, want, out, c ? "" : er.msg);
	else
		CHECK(c && !e, "template '%s' has no value for these shapes", tmpl);
}

static void bad(const char *tmpl, size_t want_off, const char *want_msg)
{
	ts_wtmpl t;
	ts_error er = { 0 };
	bool c = ts_wtmpl_compile(tmpl, &t, &er);
	CHECK(!c && OFF(er) == want_off && strstr(er.msg, want_msg),
	      "template '%s' is rejected at offset %zu: %s (got %s at %zu)", tmpl, want_off,
	      want_msg, er.msg, OFF(er));
}

int main(void)
{
	/* aten::mm [[15360, 4096], [4096, 6144]] */
	const int64_t mm[][TS_MAX_RANK + 1] = { { 2, 15360, 4096 }, { 2, 4096, 6144 } };
	ts_event ev = op(2, mm);
	name_is("gemm_n{a1[1]}_k{a1[0]}", &ev, "gemm_n6144_k4096");
	name_is("gemm_n{a1[-1]}_k{a1[-2]}", &ev, "gemm_n6144_k4096");
	name_is("{a0.rows}", &ev, "15360");
	name_is("{a0.numel}", &ev, "62914560");
	name_is("x{ a1[1] / 2 * 3 }y", &ev, "x9216y");
	name_is("{a1[1] / 5}", &ev, NULL);          /* inexact */
	name_is("{a2[0]}", &ev, NULL);              /* no operand 2 */
	name_is("{a0[2]}", &ev, NULL);              /* no dimension 2 */
	name_is("{a0[-3]}", &ev, NULL);

	/* rotary_embedding [[T], [T, 4096], [T, 1024], [], [41216, 128], []] */
	const int64_t rope[][TS_MAX_RANK + 1] = {
		{ 1, 15360 }, { 2, 15360, 4096 }, { 2, 15360, 1024 }, { 0 }, { 2, 41216, 128 }, { 0 } };
	ev = op(6, rope);
	name_is("rope_h{a1[-1] / a4[-1]}_d{a4[-1]}", &ev, "rope_h32_d128");
	name_is("{a3[0]}", &ev, NULL);              /* a scalar has no dimensions */
	name_is("{a0.rows}", &ev, NULL);            /* rank 1 has no rows */

	/* an unusable shape (a negative or fractional dimension) */
	ev.rank[1] = TS_RANK_BAD;
	name_is("{a1[0]}", &ev, NULL);

	/* scalar arguments from Concrete Inputs: topk(x, k=8) */
	const int64_t topk[][TS_MAX_RANK + 1] = { { 2, 16, 128 }, { 0 } };
	ev = op(2, topk);
	ev.concrete[1] = 8;
	ev.nconcrete = 1u << 1;
	name_is("topk_d{a0[-1]}_k{c1}", &ev, "topk_d128_k8");
	ev.nconcrete = 0;
	name_is("topk_d{a0[-1]}_k{c1}", &ev, NULL);

	/* tokens: an expression alone */
	ts_wexpr e;
	ts_error er = { 0 };
	int64_t v = 0;
	ev = op(2, mm);
	CHECK(ts_wexpr_compile("a0[0] * 2", 9, &e, &er) &&
	      ts_wexpr_eval(&e, &ev, CX(0), &v) && v == 30720, "tokens 'a0[0] * 2' = 30720 (got %" PRId64 ")", v);

	bad("", 0, "empty");
	bad("gemm_{a1[1]", 5, "closing");
	bad("gemm_}", 5, "opening");
	bad("n{b1[0]}", 2, "expected an operand");
	bad("n{a9[0]}", 2, "a0 to a7");
	bad("n{a1[6]}", 5, "dimension index");
	bad("n{a1[-7]}", 5, "dimension index");
	bad("n{a1.cols}", 4, "after the operand");
	bad("n{a1[0] ^ 1}", 8, "expected *, /, + or -");
	bad("n{0}", 2, "whole number");
	bad("n{c16}", 2, "c0 to c15");
	bad("n{1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1*1}", 50, "at most 24");

	/* sums of products, and element sizes from "Input type": the bytes of
	 * a bf16 GEMM [15360, 4096] x [4096, 6144] -> [15360, 6144] */
	ev = op(2, mm);
	ev.has |= TS_HAS_DTYPE;
	ev.ntypes = 2;
	strcpy(ev.dtype[0], "c10::BFloat16");
	strcpy(ev.dtype[1], "c10::BFloat16");
	const char *bytes = "a0.numel * a0.esize + a1.numel * a1.esize + a0[0] * a1[1] * a0.esize";
	CHECK(ts_wexpr_compile(bytes, strlen(bytes), &e, &er) &&
	      ts_wexpr_eval(&e, &ev, CX(0), &v) && v == 2 * (15360LL * 4096 + 4096LL * 6144 + 15360LL * 6144),
	      "GEMM bytes = 2 x (MK + KN + MN) (got %" PRId64 ")", v);
	const char *flops = "2 * a0[0] * a1[1] * a1[0]";
	CHECK(ts_wexpr_compile(flops, strlen(flops), &e, &er) &&
	      ts_wexpr_eval(&e, &ev, CX(0), &v) && v == 2LL * 15360 * 6144 * 4096,
	      "GEMM flops = 2MNK (got %" PRId64 ")", v);
	CHECK(ts_wexpr_compile("a0[0] - a1[0] * 2 + 1", 21, &e, &er) &&
	      ts_wexpr_eval(&e, &ev, CX(0), &v) && v == 15360 - 4096 * 2 + 1,
	      "'*' binds tighter than '+' and '-' (got %" PRId64 ")", v);
	strcpy(ev.dtype[1], "c10::Float8_e4m3fn");
	CHECK(ts_wexpr_compile("a1.esize", 8, &e, &er) &&
	      ts_wexpr_eval(&e, &ev, CX(0), &v) && v == 1, "an FP8 operand has 1 byte per element");
	strcpy(ev.dtype[1], "ScalarList");
	CHECK(ts_wexpr_compile("a1.esize", 8, &e, &er) &&
	      !ts_wexpr_eval(&e, &ev, CX(0), &v), "a dtype of unknown size has no value");
	CHECK(ts_dtype_size("float") == 4 && ts_dtype_size("c10::Half") == 2 &&
	      ts_dtype_size("c10::Float4_e2m1fn_x2") == 1 && ts_dtype_size("") == 0,
	      "dtype sizes");
	/* T, the context's tokens, and conditions: a QK norm over [T*H, D] rows */
	const int64_t qk[][TS_MAX_RANK + 1] = { { 2, 491520, 128 }, { 1, 128 } };
	ev = op(2, qk);
	ts_wcond cond;
	CHECK(ts_wexpr_compile("a0[0] / T", 9, &e, &er) &&
	      ts_wexpr_eval(&e, &ev, CX(15360), &v) && v == 32, "a0[0] / T = 32 heads with T = 15360");
	CHECK(!ts_wexpr_eval(&e, &ev, CX(0), &v), "T has no value when the context gives none");
	CHECK(!ts_wexpr_eval(&e, &ev, CX(15361), &v), "an inexact a0[0] / T has no value");
	CHECK(ts_wcond_compile("a0[-1] <= 256", &cond, &er) &&
	      ts_wcond_eval(&cond, &ev, CX(0)), "a0[-1] <= 256 holds for a head dim of 128");
	CHECK(ts_wcond_compile("a0[0]>T", &cond, &er) &&
	      ts_wcond_eval(&cond, &ev, CX(15360)) && !ts_wcond_eval(&cond, &ev, CX(491520)) &&
	      !ts_wcond_eval(&cond, &ev, CX(0)), "a0[0] > T: true, false, and false without T");
	CHECK(ts_wcond_compile("a1[0] != 128", &cond, &er) &&
	      !ts_wcond_eval(&cond, &ev, CX(0)), "a1[0] != 128 does not hold");
	ev.concrete[9] = 1;
	ev.nconcrete = 1u << 9;
	CHECK(ts_wcond_compile("c9 = 1", &cond, &er) && ts_wcond_eval(&cond, &ev, CX(0)),
	      "c9 = 1 (is_causal True) holds");
	ev.concrete[9] = 0;
	CHECK(!ts_wcond_eval(&cond, &ev, CX(0)), "c9 = 1 does not hold for False");
	/* is_causal recorded False is 0, a value: c9 < 1 holds; True, or no
	 * Concrete Inputs at all, it does not (nothing says it is False) */
	CHECK(ts_wcond_compile("c9 < 1", &cond, &er) && ts_wcond_eval(&cond, &ev, CX(0)),
	      "c9 < 1 holds for a recorded False");
	ev.concrete[9] = 1;
	CHECK(!ts_wcond_eval(&cond, &ev, CX(0)), "c9 < 1 does not hold for True");
	ev.nconcrete = 0;
	CHECK(!ts_wcond_eval(&cond, &ev, CX(0)), "c9 < 1 does not hold where it is not recorded");
	ev.concrete[9] = -1;
	ev.nconcrete = 1u << 9;
	CHECK(!ts_wcond_eval(&cond, &ev, CX(0)), "a negative scalar has no value");
	CHECK(ts_wexpr_compile("a0[0] / c9", 10, &e, &er), "a0[0] / c9 compiles");
	ev.concrete[9] = 0;
	CHECK(!ts_wexpr_eval(&e, &ev, CX(0), &v), "a division by a scalar 0 has no value");
	CHECK(!ts_wcond_compile("a0[0]", &cond, &er) && OFF(er) == 5 &&
	      strstr(er.msg, "compares two expressions"), "a condition needs a comparison (at 5: %s)", er.msg);
	CHECK(!ts_wcond_compile("a0[0] ~ 2", &cond, &er) && OFF(er) == 6,
	      "an unknown operator is an error at its offset (%zu)", OFF(er));
	CHECK(!ts_wcond_compile("a0[0] = ", &cond, &er),
	      "a comparison without a right side is an error");

	/* W, moe.* and touched(): vLLM moe_forward(x [16, 2048], logits [16, 128])
	 * read with Qwen3-30B-A3B's sizes on 2 ranks */
	const int64_t mf[][TS_MAX_RANK + 1] = { { 2, 16, 2048 }, { 2, 16, 128 } };
	ts_event me = op(2, mf);
	const ts_moecfg q3 = { "Qwen3-30B-A3B", "qwen3-moe", 128, 8, 2048, 768, 0 };
	ts_wctx mc = { .T = 0, .world = 2, .moe = &q3 };
	double r;
	CHECK(ts_wexpr_compile("6 * a0[0] * moe.topk * moe.hidden * moe.intermediate / W", strlen("6 * a0[0] * moe.topk * moe.hidden * moe.intermediate / W"), &e, &er) && ts_wexpr_eval(&e, &me, &mc, &v) &&
	      v == 6LL * 16 * 8 * 2048 * 768 / 2, "moe_forward FLOPs from the configuration over W = 2");
	CHECK(!ts_wexpr_eval(&e, &me, CX(0), &v), "moe.* has no value without a configuration");
	CHECK(ts_wexpr_compile("touched(moe.experts, moe.topk, a0[0])", strlen("touched(moe.experts, moe.topk, a0[0])"), &e, &er) &&
	      ts_wexpr_eval_real(&e, &me, &mc, &r) && r > 82.41 && r < 82.43,
	      "touched(128, 8, 16) = 128 * (1 - (120/128)^16) = 82.42 (got %g)", r);
	CHECK(!ts_wexpr_eval(&e, &me, &mc, &v), "a fraction has no value as a whole number");
	const int64_t one[][TS_MAX_RANK + 1] = { { 2, 1, 2048 }, { 2, 1, 128 } };
	ts_event oe = op(2, one);
	CHECK(ts_wexpr_eval_real(&e, &oe, &mc, &r) && r == 8, "one token touches exactly top-k experts");
	const ts_moecfg mx = { "m", "f", 128, 4, 2880, 2880, 4.25 };
	ts_wctx xc = { .T = 0, .world = 8, .moe = &mx };
	CHECK(ts_wexpr_compile("moe.hidden * moe.intermediate / W * moe.weight_bits / 8", strlen("moe.hidden * moe.intermediate / W * moe.weight_bits / 8"), &e, &er) && ts_wexpr_eval_real(&e, &me, &xc, &r) &&
	      r == 2880.0 * 2880 / 8 * 4.25 / 8, "real division and 4.25-bit weights (got %g)", r);
	const int64_t huge[][TS_MAX_RANK + 1] = { { 2, 134217728, 134217729 } };
	ts_event he = op(1, huge);
	name_is("{a0.numel}", &he, "18014398643699712");   /* 2^54 + 2^27: past a double's */
	CHECK(ts_wcond_compile("a0[1] < moe.hidden + 512", &cond, &er) &&
	      ts_wcond_reads_moe(&cond) && ts_wcond_eval(&cond, &me, &mc), "conditions read moe.*");
	CHECK(ts_wexpr_compile("W", 1, &e, &er) && ts_wexpr_eval(&e, &me, CX(0), &v) && v == 1 &&
	      !ts_wexpr_reads_moe(&e), "W is 1 without a world size");
	CHECK(!ts_wexpr_compile("moe.top_k", strlen("moe.top_k"), &e, &er) && OFF(er) == 0 &&
	      strstr(er.msg, "moe.topk"), "an unknown moe field is an error naming the fields (%s)", er.msg);
	CHECK(!ts_wexpr_compile("touched(a0[0], 8)", strlen("touched(a0[0], 8)"), &e, &er) && OFF(er) == 16 &&
	      strstr(er.msg, "three single terms"), "touched() with two arguments is an error at 16 (%zu: %s)",
	      OFF(er), er.msg);
	CHECK(!ts_wexpr_compile("touched(a0[0] * 2, 8, 3)", strlen("touched(a0[0] * 2, 8, 3)"), &e, &er) && OFF(er) == 14,
	      "touched() takes single terms (%zu: %s)", OFF(er), er.msg);
	return unit_failed != 0;
}
