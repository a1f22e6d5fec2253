/*
 * unit.h - the repeating unit of a forward pass: its layers, found from the
 * structure of the kernel stream.
 *
 * A pass is a head (metadata, the embedding), N layers and a tail (final
 * norm, LM head, sampler). A layer is the block a model repeats, so the
 * kernels it launches repeat: the finder looks for an anchor, a kernel
 * that runs once per layer at the same spacing, with a block of kernels
 * repeating beside it, takes the largest such layer count whose segments
 * between anchors are alike (a hybrid's layer kinds alike enough, half
 * layers not: two kinds that never repeat back to back must be nearly the
 * same), then places the boundary between layers (the phase) and the
 * edges of the first and last layer. Kernel identities are all it needs;
 * names refine where they are known (marks: a norm, a GEMM, attention, MLP
 * work, a copy), choosing the phase at the input norm: after the
 * attention, its output projection, the post-attention norm and MLP work,
 * the last norm before the next GEMM. With no marks the phase comes from
 * where the periodic run begins before the first anchor and how far the
 * tail repeats a layer's start.
 *
 * Keys are the caller's kernel identities (equal key, same kernel); the
 * finder borrows the arrays for the call and keeps its scratch in the
 * handle, so one handle serves every pass of a trace. Work is bounded:
 * at most TS_UNIT_MAX_TRIES candidate grids and a cap on alignment cells.
 */
#ifndef TS_UNIT_H
#define TS_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a kernel is by name, for the phase; 0: nothing known. */
enum {
	TS_UNIT_NORM = 1u << 0,  /* a norm that can start a layer */
	TS_UNIT_GEMM = 1u << 1,
	TS_UNIT_ATTN = 1u << 2,  /* the mixer: attention, linear attention */
	TS_UNIT_MLP = 1u << 3,   /* an activation or MoE kernel */
	TS_UNIT_COPY = 1u << 4,  /* a copy or cast (one before a norm belongs to it) */
	TS_UNIT_META = 1u << 5,  /* serving bookkeeping (a planner): no layer's work */
	TS_UNIT_LINEAR = 1u << 6, /* with ATTN: a linear-attention or state-space mixer */
};

#define TS_UNIT_MAX_TRIES 256

typedef struct ts_unit ts_unit;

typedef struct {
	size_t n;                /* layers */
	const uint32_t *start;   /* n: index of each layer's first kernel */
	const uint32_t *end;     /* n: one past its last */
	bool cut_start;          /* the pass begins inside a layer */
	bool cut_end;            /* ... ends inside one */
	bool by_names;           /* the phase came from marks */
	uint32_t period;         /* kernels between two anchors, the reference */
	uint32_t anchors;        /* anchors of the grid */
	double worst;            /* lowest likeness of a segment kind (1: one kind) */
} ts_unit_result;

ts_unit *ts_unit_new(void);
void ts_unit_free(ts_unit *u);

/* The layers of one pass of n kernels: key[i] its identity, mark[i] (NULL,
 * or TS_UNIT_* bits; all zero when no name is known), dur[i] its duration
 * (NULL: unknown; it tells a tail kernel from a layer's on the same
 * kernel). False when no unit repeats (a fragment, one layer) or out of
 * memory; out is valid until the next call. */
bool ts_unit_find(ts_unit *u, const uint32_t *key, const uint8_t *mark, const int64_t *dur,
		  size_t n, ts_unit_result *out);

#endif
