/*
 * vote.h - a forward pass's stage (prefill, decode, a mixed batch) from the
 * evidence it carries, in order of strength.
 *
 *   1. its step annotation's own words (step[DECODE], execute_..._context_N
 *      _generation_M, a mixed batch) outweigh everything inferred;
 *   2. its tokens: the rows of its GEMMs (the Input Dims of the ops that
 *      launched them) and the grid of its KV-cache writes (a block a
 *      token written): a decode step runs one token a sequence;
 *   3. the names of its attention kernels (a FlashInfer "Decode" kernel),
 *      where no count says otherwise (FlashInfer runs decode through its
 *      "Prefill" kernel);
 *   4. for a pass those leave open, the passes around it: its tokens
 *      against theirs, the kernels it shares with the passes of one stage
 *      only, its time per layer against theirs.
 *
 * Each is a signal with its own verdict and a weight; the stage is the one
 * with most votes, its share the confidence; a tie, or no evidence at all,
 * is unknown. Pure functions: the caller gathers the evidence.
 */
#ifndef TS_VOTE_H
#define TS_VOTE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/structure/pstage.h"

/* The stage signals of a pass, each with its own verdict. */
typedef enum {
	TS_SIG_ANNOTATION,   /* the step annotation (weight 8) */
	TS_SIG_KERNEL_HINTS, /* kernel-name stage hints of the tables (1) */
	TS_SIG_GEMM_M,       /* rows of the GEMM ops (2; relative: 1) */
	TS_SIG_KV_GRID,      /* grid x of token-counting kernels (KV-cache
			      * writes) (2; relative: 1) */
	TS_SIG_Q_GRID,       /* grid x of FlashAttention's forward: query
			      * blocks of a sequence (2) */
	TS_SIG_GRAPH,        /* its layers replayed from a CUDA/HIP graph:
			      * servers capture whole forwards for decode
			      * steps (1) */
	/* relative signals, for passes the ones above leave unknown: */
	TS_SIG_ONLY_IN,      /* kernels seen only in passes of one stage (1) */
	TS_SIG_DURATION,     /* time per layer against the passes of known
			      * stage (1) */
	TS_SIG_COUNT
} ts_signal;

const char *ts_signal_name(ts_signal s);

/* Tokens past which a pass is a prompt's whatever the passes around it:
 * a decode batch of more sequences is rare. */
#define TS_TOKENS_PREFILL 1024
#define TS_VOTE_PREV_RUNNING (-2)

/* What a pass says of its stage by itself. */
typedef struct {
	ts_pstage annotation;        /* what its step annotation names; unknown: none */
	bool generation;             /* something says the trace is LLM generation
				      * (else token rows say no stage: a diffusion
				      * transformer's steps have many rows) */
	uint32_t layers;
	uint32_t hint_prefill, hint_decode;  /* kernels whose names say a stage */
	uint64_t gemm_small, gemm_large;     /* GEMM kernels by their op's rows, at
					      * or below the threshold and above */
	int64_t gemm_m_min, gemm_m_max;      /* their rows; -1: none */
	int64_t layer_tokens;                /* the most rows one ran in every
					      * layer (the tokens); -1: none */
	int64_t layer_rows;                  /* of the rows run in every layer,
					      * the ones most GEMMs ran; -1: none */
	int64_t kv_grid;                     /* largest KV-write grid x; -1: none */
	int64_t q_grid;                      /* largest query-block grid x; -1: none */
	int64_t sampled;                     /* rows of the sampler's op: the
					      * sequences sampled; -1: none */
	int64_t sampled_grid;                /* the same by the grid of the
					      * sampler's row kernel (its softmax
					      * over the logits); -1: none */
	uint32_t replayed, launched;         /* attention kernels a graph replayed
					      * (no op) and an op launched; where no
					      * kernel is known to be attention, the
					      * pass's replayed kernels and the ones
					      * an op launched between them */
	bool replayed_layers;                /* the counts are the layers' */
	long threshold;                      /* tokens at or below: decode */
	bool continuous;                     /* a serving engine that batches
					      * continuously ran the passes (vLLM
					      * V1, TensorRT-LLM): every step
					      * schedules its running sequences */
	int64_t prev_sampled;                /* the sequences the pass before
					      * sampled; -1: none (the trace's
					      * first pass); 0 not known;
					      * TS_VOTE_PREV_RUNNING: a decode
					      * the capture's start cut, its
					      * batch running on */
} ts_vote_own_in;

/* A pass's verdict. */
typedef struct {
	ts_pstage signal[TS_SIG_COUNT];  /* each signal's; unknown: none */
	int votes[TS_PSTAGE_COUNT];      /* summed over the signals' weights */
	ts_pstage stage;
	double confidence;               /* share of the votes for the stage */
	int64_t gemm_tokens;             /* the tokens its GEMMs say; -1: their
					  * shapes recorded in too few layers */
	uint32_t only_prefill, only_decode;
	double duration_ratio;           /* time per layer / the reference stage's, 0 none */
	ts_pstage duration_ref;
	bool by_grid;                    /* the ratio is of kernel grids, not time */
	int64_t rows;                    /* the layers' rows (or the KV-cache
					  * writes' tokens) held against the
					  * sequences sampled; -1: none */
	int64_t seqs;                    /* those sequences; -1: none */
	bool continued;                  /* many tokens beside the sequences the
					  * pass before sampled, in an engine that
					  * batches continuously: mixed */
	bool open_first;                 /* the trace's first pass of many tokens
					  * in such an engine: the passes after it
					  * say prefill or mixed (relative) */
} ts_vote;

/* The pass's own signals, votes and stage. */
void ts_vote_own(const ts_vote_own_in *in, ts_vote *v);

/* What the trace knows of its passes, for the ones their own signals
 * leave open: the smallest and largest tokens of every pass with layers,
 * and the time and layers of the passes whose own signals decided them. */
typedef struct {
	int64_t lo, hi;              /* 0: none yet */
} ts_tok_range;

/* The complete passes of one layer count: their GPU time a layer and
 * their elementwise kernels' mean blocks, smallest and largest (0 none). */
typedef struct {
	uint32_t layers;
	ts_tok_range ns;
	double grid_lo, grid_hi;
} ts_vote_count;

#define TS_VOTE_COUNTS 8     /* layer counts kept (a model's, a draft's, fragments) */

typedef struct {
	ts_tok_range gemm, kv;
	ts_vote_count counts[TS_VOTE_COUNTS];  /* a pass is held against passes of
						* its own count only */
	uint32_t ncounts;
	int64_t known_ns[TS_PSTAGE_COUNT];
	uint64_t known_layers[TS_PSTAGE_COUNT];
	double known_grid_log[TS_PSTAGE_COUNT];  /* sum of log2 of their grids */
	uint32_t known_grids[TS_PSTAGE_COUNT];
	ts_tok_range known_tok[TS_PSTAGE_COUNT]; /* their tokens (kv grid, else
						   * GEMM rows), 0 none */
	uint32_t continued;                      /* passes mixed by their own evidence */
} ts_vote_trace;

/* A pass with layers seen (its tokens count in the ranges). */
void ts_vote_seen(ts_vote_trace *t, const ts_vote_own_in *in, const ts_vote *v);
/* A complete pass's GPU time and layers (any stage: the passes' time a
 * layer against each other, where no pass's stage is known). */
void ts_vote_timed(ts_vote_trace *t, int64_t gpu_ns, uint32_t layers, double grid);
/* A pass whose own signals gave it stage s (grid: its elementwise
 * kernels' mean blocks, 0 none; tokens: its token count, 0 none). */
void ts_vote_known(ts_vote_trace *t, ts_pstage s, int64_t gpu_ns, uint32_t layers, double grid,
		   int64_t tokens);

/* What a waiting pass adds for the relative signals. */
typedef struct {
	uint32_t only_prefill, only_decode;  /* its kernels staged so far in
					      * passes of one stage only */
	int64_t gpu_ns;
	uint32_t layers;
	int64_t kv_grid;
	double grid;                         /* its elementwise kernels' mean
					      * blocks (geometric), 0 none */
	bool generation;
	long threshold;
	bool open_first;                     /* its own vote left it to the passes
					      * after (ts_vote.open_first) */
} ts_vote_rel_in;

/* The relative signals of a pass its own left open, added to v. */
void ts_vote_relative(const ts_vote_trace *t, const ts_vote_rel_in *in, ts_vote *v);

#endif
