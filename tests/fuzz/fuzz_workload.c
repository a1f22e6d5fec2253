/*
 * fuzz_workload.c - the workload template language: the input's first
 * three lines are compiled as a template, a condition and an expression,
 * and whatever compiles is evaluated against a fixed op (a bf16 GEMM) and
 * an op whose shapes, dtypes and scalars come from the rest of the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tables/workload.h"

/* a context of T, with 4 ranks and a MoE configuration */
static const ts_moecfg moe = { "m", "f", 128, 8, 2048, 768, 4.25 };
#define CX(t) (&(ts_wctx){ .T = (t), .world = 4, .moe = &moe })

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* The next line of [*at, end) as a NUL-terminated copy. */
static char *line(const uint8_t **at, const uint8_t *end)
{
	const uint8_t *s = *at;
	const uint8_t *nl = memchr(s, '\n', (size_t)(end - s));
	size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
	*at = nl ? nl + 1 : end;
	char *out = malloc(len + 1);
	memcpy(out, s, len);
	out[len] = '\0';
	return out;
}

static void gemm(ts_event *ev)
{
	memset(ev, 0, sizeof *ev);
	ev->noperands = 3;
	ev->rank[0] = 2;
	ev->dims[0][0] = 16;
	ev->dims[0][1] = 4096;
	ev->rank[1] = 2;
	ev->dims[1][0] = 1024;
	ev->dims[1][1] = 4096;
	ev->rank[2] = 1;
	ev->dims[2][0] = 1024;
	ev->ntypes = 3;
	for (int i = 0; i < 3; i++)
		strcpy(ev->dtype[i], "c10::BFloat16");
	ev->nconcrete = 1u << 2;
	ev->concrete[2] = 1;
}

/* Shapes from bytes: any rank (TS_RANK_BAD included), any dimension. */
static void from_bytes(ts_event *ev, const uint8_t *b, size_t n)
{
	static const char *const dtypes[] = { "float", "c10::BFloat16", "c10::Half",
		"c10::Float8_e4m3fn", "long int", "bool", "", "unknown" };
	memset(ev, 0, sizeof *ev);
	size_t i = 0;
#define NEXT (i < n ? b[i++] : 0)
	ev->noperands = NEXT % (TS_MAX_OPERANDS + 2);
	for (int o = 0; o < TS_MAX_OPERANDS; o++) {
		uint8_t r = NEXT;
		ev->rank[o] = r == 0xff ? TS_RANK_BAD : r % (TS_MAX_RANK + 1);
		for (int d = 0; d < TS_MAX_RANK; d++) {
			int64_t v = 0;
			for (int k = 0; k < 8; k++)
				v = (int64_t)((uint64_t)v << 8 | NEXT);
			ev->dims[o][d] = (NEXT & 1) ? v : v % 70000;
		}
		strcpy(ev->dtype[o], dtypes[NEXT % 8]);
	}
	ev->ntypes = NEXT % (TS_MAX_OPERANDS + 1);
	uint8_t hi = NEXT;
	ev->nconcrete = (uint16_t)(hi << 8 | NEXT);
	for (int c = 0; c < TS_MAX_CONCRETE; c++) {
		int64_t v = 0;
		for (int k = 0; k < 8; k++)
			v = (int64_t)((uint64_t)v << 8 | NEXT);
		ev->concrete[c] = v;
	}
#undef NEXT
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *at = data, *end = data + size;
	char *tsrc = line(&at, end), *csrc = line(&at, end), *esrc = line(&at, end);
	ts_event evs[2];
	gemm(&evs[0]);
	from_bytes(&evs[1], at, (size_t)(end - at));
	char name[256];
	size_t len;
	ts_error err;
	ts_wtmpl t;
	ts_wcond c;
	ts_wexpr e;
	bool tok = ts_wtmpl_compile(tsrc, &t, &err);
	bool cok = ts_wcond_compile(csrc, &c, &err);
	bool eok = ts_wexpr_compile(esrc, strlen(esrc), &e, &err);
	static const int64_t ctx[] = { 0, 16, INT64_MAX, -1 };
	for (int k = 0; k < 2; k++)
		for (size_t x = 0; x < sizeof ctx / sizeof *ctx; x++) {
			int64_t v;
			if (tok)
				(void)ts_wtmpl_eval(&t, &evs[k], CX(ctx[x]), name, sizeof name, &len);
			if (cok)
				(void)ts_wcond_eval(&c, &evs[k], CX(ctx[x]));
			double r;
			if (eok) {
				(void)ts_wexpr_eval(&e, &evs[k], CX(ctx[x]), &v);
				(void)ts_wexpr_eval_real(&e, &evs[k], CX(ctx[x]), &r);
				(void)ts_wexpr_eval_real(&e, &evs[k], &(ts_wctx){ .T = ctx[x] }, &r);
			}
		}
	(void)ts_dtype_size(esrc);
	free(tsrc);
	free(csrc);
	free(esrc);
	return 0;
}
