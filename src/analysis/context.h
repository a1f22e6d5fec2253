/*
 * context.h - a kernel's meaning from where it runs: the context rules of
 * the pattern tables (contexts: in patterns/context.yaml) give a kernel
 * another category when the CPU op that launched it matches, or when it
 * runs inside a window of the GPU timeline (after the MoE router, before
 * the combine). Positional windows follow the kernel stream; what each
 * kernel name and op name matches is decided once and kept.
 *
 * Memory: a few bytes per kernel row and per op row; nothing per event.
 */
#ifndef TS_CONTEXT_H
#define TS_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "tables/classify.h"
#include "tables/patterns.h"

/* Context categories kept per kernel name (the aggregate's rows, the
 * stages' rows): one generic collective kernel runs each kind its ops
 * say. A name in more is counted as a conflict, its class standing. */
#define TS_CTX_SLOTS 6

typedef struct ts_ctx ts_ctx;

ts_ctx *ts_ctx_new(const ts_patterns *p);
void ts_ctx_free(ts_ctx *c);

/* One kernel, in stream order: row (TS_INTERN_NONE past the name cap), its
 * class and name, the op that launched it (op_row TS_INTERN_NONE and op
 * NULL when none is known) and the op's call site (cs NULL: none known).
 * Returns the index of the context rule it runs in, or -1. */
int ts_ctx_kernel(ts_ctx *c, uint32_t row, const ts_kclass *cls,
		  const char *name, size_t len, uint32_t op_row,
		  const char *op, size_t oplen, const char *cs, size_t cslen);

#endif
