/* The stage vote (analysis/structure/vote.c): each signal's verdict and
 * weight, a pass's own evidence, then the passes around it. */
#include <string.h>

#include "analysis/structure/vote.h"
#include "unit.h"

static ts_vote_own_in pass(uint32_t layers)
{
	return (ts_vote_own_in){ .annotation = TS_PSTAGE_UNKNOWN, .generation = true,
				 .layers = layers, .gemm_m_min = -1, .gemm_m_max = -1,
				 .kv_grid = -1, .q_grid = -1, .sampled = -1, .layer_tokens = -1,
				 .layer_rows = -1, .sampled_grid = -1, .threshold = 32 };
}

static ts_pstage own(const ts_vote_own_in *in)
{
	ts_vote v;
	ts_vote_own(in, &v);
	return v.stage;
}

static void own_signals(void)
{
	ts_vote_own_in in = pass(32);
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN, "no evidence at all: unknown");

	in.annotation = TS_PSTAGE_DECODE;
	in.gemm_large = 64, in.gemm_m_min = 2048, in.gemm_m_max = 2048, in.kv_grid = 2048;
	in.hint_prefill = 20;
	ts_vote v;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_DECODE && v.signal[TS_SIG_GEMM_M] == TS_PSTAGE_PREFILL &&
	      v.signal[TS_SIG_KERNEL_HINTS] == TS_PSTAGE_UNKNOWN &&
	      v.votes[TS_PSTAGE_DECODE] == 8 && v.votes[TS_PSTAGE_PREFILL] == 4,
	      "the annotation's words (8) outweigh the token counts (2 + 2); names it contradicts do not vote");

	in = pass(32);
	in.gemm_small = 64, in.gemm_m_min = 16, in.gemm_m_max = 16;
	CHECK(own(&in) == TS_PSTAGE_DECODE, "GEMMs of 16 rows in every layer: decode");

	in = pass(32);
	in.gemm_large = 64, in.gemm_m_min = 2048, in.gemm_m_max = 2048;
	CHECK(own(&in) == TS_PSTAGE_PREFILL, "GEMMs of 2,048 rows: a prompt");

	in = pass(32);
	in.gemm_large = 64, in.gemm_small = 1, in.gemm_m_min = 2, in.gemm_m_max = 192;
	CHECK(own(&in) == TS_PSTAGE_PREFILL,
	      "192 rows in the layers, 2 in the LM head (the last of each prompt): prefill");

	in = pass(6);
	in.gemm_small = 477, in.gemm_large = 54, in.gemm_m_min = 1, in.gemm_m_max = 210;
	in.layer_tokens = 210;
	ts_vote_own(&in, &v);
	CHECK(v.signal[TS_SIG_GEMM_M] == TS_PSTAGE_UNKNOWN && v.gemm_tokens == 210,
	      "an eager MoE loop's experts run most GEMMs on few rows, every layer's projections "
	      "on 210: no decode, 210 tokens for the passes around");
	in.layer_tokens = 1, in.gemm_m_max = 1, in.gemm_large = 0;
	CHECK(own(&in) == TS_PSTAGE_DECODE, "every layer's projections on one row: decode");

	in = pass(32);
	in.gemm_large = 64, in.gemm_m_min = 256, in.gemm_m_max = 256, in.layer_tokens = 256;
	in.sampled = 256;
	CHECK(own(&in) == TS_PSTAGE_DECODE, "256 rows, 256 sequences sampled: one token each, decode");
	in.sampled = 15, in.layer_tokens = in.layer_rows = in.gemm_m_max = 960;
	CHECK(own(&in) == TS_PSTAGE_PREFILL, "960 rows, 15 sequences sampled: prompts");
	in.sampled = 128, in.layer_tokens = in.layer_rows = in.gemm_m_max = 256;
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN, "256 rows, 128 sequences (two tokens each): open");

	/* two prompts of 16 tokens: few rows, under the decode threshold */
	in = pass(18);
	in.gemm_small = 72, in.gemm_m_min = 2, in.gemm_m_max = 32;
	in.layer_tokens = in.layer_rows = 32, in.sampled = 2;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_PREFILL && v.rows == 32 && v.gemm_tokens == 32,
	      "32 rows in every layer, 2 sequences sampled: prompts, however few the rows");
	/* a hybrid's decode step: its per-head batched GEMMs run 16 heads x 2
	 * sequences as rows in every layer, its projections 2 */
	in.layer_tokens = 2048, in.layer_rows = 2, in.gemm_m_max = 2048;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_DECODE && v.rows == 2,
	      "2 rows in most of every layer's GEMMs, 2 sequences: decode beside per-head GEMMs");
	/* a MoE decode step: its experts each run one of 2 rows */
	in.layer_tokens = 2, in.layer_rows = 1, in.gemm_m_max = 2;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_DECODE && v.rows == 2,
	      "every layer's projections on 2 rows, its experts on 1, 2 sequences: decode");

	in = pass(32);
	in.gemm_large = 64, in.gemm_m_min = 256, in.gemm_m_max = 256;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_UNKNOWN && v.gemm_tokens == 256,
	      "256 rows everywhere: a decode batch or a short prompt, left to the passes around");

	in = pass(64);
	in.gemm_small = 1, in.gemm_m_min = 1, in.gemm_m_max = 1, in.hint_prefill = 168;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_PREFILL && v.gemm_tokens == -1,
	      "a lone LM head of one row (graph-replayed layers) counts sequences: the names decide");

	in = pass(32);
	in.kv_grid = 16, in.hint_prefill = 32;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_DECODE && v.signal[TS_SIG_KERNEL_HINTS] == TS_PSTAGE_UNKNOWN,
	      "a FlashInfer \"Prefill\" kernel running decode: the token count overrules the name");

	in = pass(32);
	in.annotation = TS_PSTAGE_MIXED, in.gemm_large = 64, in.gemm_m_min = 46;
	in.gemm_m_max = 8192, in.kv_grid = 8192;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_MIXED && v.signal[TS_SIG_GEMM_M] == TS_PSTAGE_MIXED &&
	      v.signal[TS_SIG_KV_GRID] == TS_PSTAGE_MIXED, "many tokens in a batch the annotation calls mixed: mixed");

	in = pass(32);
	in.generation = false, in.gemm_large = 64, in.gemm_m_min = 4096, in.gemm_m_max = 4096;
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN, "not LLM generation (a diffusion transformer): rows say no stage");

	in = pass(32);
	in.hint_prefill = 4, in.hint_decode = 4;
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN, "names saying both as often: unknown");

	in = pass(45);
	in.replayed = 45;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_DECODE && v.signal[TS_SIG_GRAPH] == TS_PSTAGE_DECODE &&
	      v.votes[TS_PSTAGE_DECODE] == 1, "every layer kernel replayed from a graph: decode (1)");
	in.launched = 1;
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN,
	      "one layer kernel an op launched (a piecewise graph's eager attention): no vote");
	in = pass(32);
	in.replayed = 32, in.gemm_large = 64, in.gemm_m_min = 4096, in.gemm_m_max = 4096;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_PREFILL && v.signal[TS_SIG_GRAPH] == TS_PSTAGE_UNKNOWN,
	      "a whole forward replayed over 4,096 rows: the token count overrules the launch");
	/* a speculative verify of 2 tokens for 256 sequences on a MoE
	 * model: every layer's projections on 512 rows, its expert GEMMs on
	 * 512 x 7, the sampler on all 512 */
	in = pass(29);
	in.gemm_large = 116, in.gemm_m_min = 512, in.gemm_m_max = 3584;
	in.layer_tokens = 512, in.sampled = 512;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_DECODE && v.signal[TS_SIG_GEMM_M] == TS_PSTAGE_DECODE,
	      "expert GEMMs of 3,584 rows where every layer ran 512, all sampled: decode, no prompt");

	/* no shapes: the KV-cache writes' tokens against the sequences the
	 * sampler's softmax counts (a block a row) */
	in = pass(4);
	in.kv_grid = 64, in.sampled_grid = 64;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_DECODE && v.signal[TS_SIG_KV_GRID] == TS_PSTAGE_DECODE &&
	      v.rows == 64 && v.seqs == 64,
	      "64 tokens written, 64 sequences sampled, no shapes: decode, past the threshold");
	in.kv_grid = 200, in.sampled_grid = 2;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_PREFILL && v.rows == 200 && v.seqs == 2,
	      "200 tokens written, 2 sequences sampled: prompts");
	in.kv_grid = 8, in.sampled_grid = 2;
	CHECK(own(&in) == TS_PSTAGE_PREFILL, "8 tokens written for 2 sequences: prompts, under the threshold");
	in.kv_grid = 256, in.sampled_grid = 256, in.gemm_m_max = 512, in.gemm_m_min = 1;
	ts_vote_own(&in, &v);
	CHECK(v.signal[TS_SIG_KV_GRID] == TS_PSTAGE_UNKNOWN && v.seqs == -1,
	      "a GEMM of 512 rows beside 256 tokens written: the write grid is capped, no count");
	in = pass(4);
	in.kv_grid = 100, in.sampled_grid = 50;
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN, "100 tokens for 50 sequences: two each, nothing said");

	/* FlashAttention's grid x: query blocks of a sequence */
	in = pass(13);
	in.q_grid = 6;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_PREFILL && v.signal[TS_SIG_Q_GRID] == TS_PSTAGE_PREFILL &&
	      v.votes[TS_PSTAGE_PREFILL] == 2, "6 query blocks a sequence, no shapes: a prompt (2)");
	in.q_grid = 1;
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN,
	      "one query block: a decode step or a short prompt, no vote");
	in.q_grid = 6, in.generation = false;
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN,
	      "6 query blocks where nothing says LLM generation (a diffusion transformer): no vote");
	in.generation = true;
	in.q_grid = 6, in.annotation = TS_PSTAGE_MIXED;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_MIXED && v.signal[TS_SIG_Q_GRID] == TS_PSTAGE_MIXED,
	      "query blocks in a batch the annotation calls mixed: mixed");

	in = pass(45);
	in.replayed_layers = true, in.replayed = 455, in.launched = 19;
	CHECK(own(&in) == TS_PSTAGE_DECODE,
	      "no attention known: 455 layer kernels replayed, 19 launched after the graph: decode");
	in.launched = 45;
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN,
	      "no attention known: a kernel an op launched every layer (piecewise): no vote");
	in.launched = 0, in.replayed = 30;
	CHECK(own(&in) == TS_PSTAGE_UNKNOWN, "fewer replayed kernels than layers: no vote");
}

/* A decode step of 256 sequences whose sampler counted them (decode by
 * its own signals), then steps of 256 tokens whose sampler ran elsewhere:
 * as many tokens as a known decode step, decode (more than the decode
 * threshold alone said prefill). */
/* Continuous batching: a decode batch beside a prompt's chunk */
static void mixed_batch(void)
{
	ts_vote_own_in in = pass(75);
	ts_vote v;
	in.gemm_large = 300, in.gemm_m_min = 257, in.gemm_m_max = 2172;
	in.layer_tokens = in.layer_rows = 2172, in.sampled = 257, in.kv_grid = 2172;
	ts_vote_own(&in, &v);
	CHECK(v.stage == TS_PSTAGE_MIXED && v.signal[TS_SIG_GEMM_M] == TS_PSTAGE_MIXED &&
	      v.signal[TS_SIG_KV_GRID] == TS_PSTAGE_MIXED,
	      "2,172 tokens written for 257 sequences: 8 each, too few for prompts: mixed");
	in.sampled = 263, in.layer_tokens = in.layer_rows = in.kv_grid = in.gemm_m_max = 6347;
	CHECK(own(&in) == TS_PSTAGE_MIXED, "6,347 tokens for 263 sequences: 24 each, mixed");
	in.sampled = 24, in.layer_tokens = in.layer_rows = in.kv_grid = in.gemm_m_max = 7291;
	CHECK(own(&in) == TS_PSTAGE_PREFILL, "7,291 tokens for 24 sequences: prompts (or mixed: no telling)");
	in.sampled = 4, in.layer_tokens = in.layer_rows = in.kv_grid = in.gemm_m_max = 24;
	in.gemm_large = 0, in.gemm_small = 300, in.gemm_m_min = 4;
	CHECK(own(&in) == TS_PSTAGE_PREFILL, "a quickstart's four prompts of 6 tokens: prefill");
	in = pass(12);
	in.gemm_large = 60, in.gemm_m_min = 160, in.gemm_m_max = 1280;
	in.layer_tokens = in.layer_rows = 1280, in.sampled = 160;
	CHECK(own(&in) == TS_PSTAGE_PREFILL,
	      "160 padded prompts of 8 tokens, no paged KV cache (HF generate): prefill");
}

/* An engine that batches continuously schedules its running sequences
 * every step: prompts beside them are a mixed batch. */
static void continuous(void)
{
	ts_vote_trace t;
	memset(&t, 0, sizeof t);
	ts_vote_own_in in = pass(20);
	in.continuous = true, in.prev_sampled = -1;
	in.gemm_large = 80, in.gemm_m_min = 34, in.gemm_m_max = 1167;
	in.layer_tokens = in.layer_rows = in.kv_grid = 1167, in.sampled = 34;
	in.hint_prefill = 20;
	ts_vote first;
	ts_vote_own(&in, &first);
	ts_vote_seen(&t, &in, &first);
	CHECK(first.stage == TS_PSTAGE_UNKNOWN && first.open_first && !first.continued,
	      "the trace's first pass of 34 sequences, 1,167 tokens: the passes after say");
	in.prev_sampled = 34, in.sampled = 35, in.layer_tokens = in.layer_rows = in.kv_grid = 3770;
	ts_vote next;
	ts_vote_own(&in, &next);
	ts_vote_seen(&t, &in, &next);
	CHECK(next.stage == TS_PSTAGE_MIXED && next.continued && t.continued == 1,
	      "35 sequences beside the 34 the pass before sampled: mixed");
	ts_vote_rel_in r = { .gpu_ns = 3000000, .layers = 20, .kv_grid = 1167, .generation = true,
			     .threshold = 32, .open_first = true };
	ts_vote_relative(&t, &r, &first);
	CHECK(first.stage == TS_PSTAGE_MIXED && first.signal[TS_SIG_KERNEL_HINTS] == TS_PSTAGE_UNKNOWN,
	      "the first, as the passes after it: mixed (its prefill kernels say no other stage)");
	in.prev_sampled = 64, in.sampled = 8, in.layer_tokens = in.layer_rows = in.kv_grid = 4000;
	CHECK(own(&in) == TS_PSTAGE_PREFILL, "8 prompts after a decode batch of 64: a new batch's prefill");
	in.prev_sampled = 4, in.sampled = 4;
	CHECK(own(&in) == TS_PSTAGE_PREFILL, "4 prompts after 4 (one token out each): prefills");
	ts_vote_trace t2;
	memset(&t2, 0, sizeof t2);
	ts_vote again = first;
	memset(again.votes, 0, sizeof again.votes);
	again.signal[TS_SIG_GEMM_M] = TS_PSTAGE_UNKNOWN;
	again.votes[TS_PSTAGE_PREFILL] = 1, again.signal[TS_SIG_KERNEL_HINTS] = TS_PSTAGE_PREFILL;
	ts_vote_relative(&t2, &r, &again);
	CHECK(again.stage == TS_PSTAGE_PREFILL, "no pass after it mixed: the run began with it, prefill");
	in.prev_sampled = TS_VOTE_PREV_RUNNING, in.sampled = 23;
	CHECK(own(&in) == TS_PSTAGE_MIXED,
	      "23 sequences after a decode the capture's start cut (its batch running on): mixed");
	in.prev_sampled = -1, in.sampled = 257, in.layer_tokens = in.layer_rows = in.kv_grid = 918;
	in.gemm_m_min = 257, in.gemm_m_max = 918;
	CHECK(own(&in) == TS_PSTAGE_MIXED, "918 tokens for 257 sequences, no multiple: uneven, mixed");
	in.layer_tokens = in.layer_rows = in.kv_grid = in.gemm_m_max = 771;
	CHECK(own(&in) != TS_PSTAGE_MIXED, "771 for 257: three a sequence alike, a verify's: not mixed");
	in.gemm_m_min = 34, in.gemm_m_max = in.layer_tokens = in.layer_rows = in.kv_grid = 3770;
	in.continuous = false, in.prev_sampled = 34, in.sampled = 35;
	CHECK(own(&in) == TS_PSTAGE_PREFILL, "the same counts where the engine's batching is not known: prefill");
}

static void beside_known(void)
{
	ts_vote_trace t;
	memset(&t, 0, sizeof t);
	ts_vote_own_in first = pass(3);
	first.gemm_large = 12, first.gemm_m_min = 256, first.gemm_m_max = 256, first.kv_grid = 256;
	first.sampled = 256;
	ts_vote v0;
	ts_vote_own(&first, &v0);
	ts_vote_seen(&t, &first, &v0);
	CHECK(v0.stage == TS_PSTAGE_DECODE, "256 tokens, 256 sequences sampled: decode by its own");
	ts_vote_known(&t, v0.stage, 3 * 40000, 3, 0, 256);
	ts_vote_own_in next = first;
	next.sampled = -1;
	ts_vote v1;
	ts_vote_own(&next, &v1);
	ts_vote_seen(&t, &next, &v1);
	ts_vote_rel_in r = { .gpu_ns = 3 * 41000, .layers = 3, .kv_grid = 256, .generation = true,
			     .threshold = 32 };
	ts_vote_relative(&t, &r, &v1);
	CHECK(v1.stage == TS_PSTAGE_DECODE && v1.signal[TS_SIG_KV_GRID] == TS_PSTAGE_DECODE,
	      "256 tokens, no sampler, beside a decode step of 256: decode, not prefill");
	/* and a prompt known at 2,048 tokens: a pass of 1,500 beside it is one */
	ts_vote_known(&t, TS_PSTAGE_PREFILL, 3 * 400000, 3, 0, 2048);
	ts_vote_own_in far = next;
	far.gemm_m_min = far.gemm_m_max = far.kv_grid = 1500;
	ts_vote v2;
	ts_vote_own(&far, &v2);
	ts_vote_rel_in r2 = r;
	r2.kv_grid = 1500;
	ts_vote_relative(&t, &r2, &v2);
	CHECK(v2.signal[TS_SIG_KV_GRID] == TS_PSTAGE_PREFILL, "1,500 tokens beside a prompt of 2,048: prefill");
}

static void relative(void)
{
	ts_vote_trace t;
	memset(&t, 0, sizeof t);
	/* a prefill of 2,048 tokens, decided by its own rows */
	ts_vote_own_in pre = pass(14);
	pre.gemm_large = 56, pre.gemm_m_min = 2048, pre.gemm_m_max = 2048, pre.kv_grid = 1024;
	ts_vote vp;
	ts_vote_own(&pre, &vp);
	ts_vote_seen(&t, &pre, &vp);
	ts_vote_known(&t, vp.stage, 14000000, 14, 0, 2048);
	/* a decode batch of 128: open by itself */
	ts_vote_own_in dec = pass(14);
	dec.gemm_large = 56, dec.gemm_m_min = 128, dec.gemm_m_max = 128, dec.kv_grid = 64;
	ts_vote vd;
	ts_vote_own(&dec, &vd);
	ts_vote_seen(&t, &dec, &vd);
	CHECK(vp.stage == TS_PSTAGE_PREFILL && vd.stage == TS_PSTAGE_UNKNOWN,
	      "2,048 rows: prefill by themselves; 128: open");
	ts_vote_rel_in r = { .gpu_ns = 3000000, .layers = 14, .kv_grid = 64, .generation = true,
			     .threshold = 32 };
	ts_vote_relative(&t, &r, &vd);
	CHECK(vd.stage == TS_PSTAGE_DECODE && vd.signal[TS_SIG_GEMM_M] == TS_PSTAGE_DECODE &&
	      vd.signal[TS_SIG_KV_GRID] == TS_PSTAGE_DECODE,
	      "128 rows beside a pass of 2,048 (16x): decode, by rows and grid");
	CHECK(vd.signal[TS_SIG_DURATION] == TS_PSTAGE_UNKNOWN && vd.duration_ratio == 0,
	      "its tokens spoke: its time per layer against the prefill's is not held");
	/* a decode batch of 256 beside a prompt of 8,076 tokens, no shapes:
	 * its time a layer is the prompt's (1.1x), its KV-write grid 1/32 */
	ts_vote_trace kt;
	memset(&kt, 0, sizeof kt);
	ts_vote_own_in kp = pass(18);
	kp.kv_grid = 8076;
	ts_vote vkp;
	ts_vote_own(&kp, &vkp);
	ts_vote_seen(&kt, &kp, &vkp);
	ts_vote_known(&kt, vkp.stage, 18 * 860000, 18, 0, 8076);
	ts_vote_own_in kd = pass(18);
	kd.kv_grid = 256;
	ts_vote vkd;
	ts_vote_own(&kd, &vkd);
	ts_vote_seen(&kt, &kd, &vkd);
	ts_vote_rel_in rk = { .gpu_ns = 18 * 960000, .layers = 18, .kv_grid = 256, .generation = true,
			      .threshold = 32 };
	ts_vote_relative(&kt, &rk, &vkd);
	CHECK(vkp.stage == TS_PSTAGE_PREFILL && vkd.stage == TS_PSTAGE_DECODE &&
	      vkd.signal[TS_SIG_DURATION] == TS_PSTAGE_UNKNOWN,
	      "256 KV writes beside 8,076 (32x): decode, though its time a layer is the prompt's");

	/* a lone pass of 300 tokens: nothing to hold it against */
	ts_vote_trace one;
	memset(&one, 0, sizeof one);
	ts_vote_own_in lone = pass(7);
	lone.gemm_large = 28, lone.gemm_m_min = 300, lone.gemm_m_max = 300, lone.kv_grid = 300;
	ts_vote vl;
	ts_vote_own(&lone, &vl);
	ts_vote_seen(&one, &lone, &vl);
	ts_vote_rel_in rl = { .layers = 7, .kv_grid = 300, .generation = true, .threshold = 32 };
	ts_vote_relative(&one, &rl, &vl);
	CHECK(vl.stage == TS_PSTAGE_PREFILL && vl.confidence == 1.0,
	      "a lone pass of 300 tokens: more than a decode batch usually has, a prompt");

	/* kernels seen only in decode passes */
	ts_vote vo;
	ts_vote_own_in blank = pass(7);
	ts_vote_own(&blank, &vo);
	ts_vote_rel_in ro = { .only_decode = 7, .layers = 7, .generation = true, .threshold = 32 };
	ts_vote_trace none;
	memset(&none, 0, sizeof none);
	ts_vote_relative(&none, &ro, &vo);
	CHECK(vo.stage == TS_PSTAGE_DECODE && vo.only_decode == 7,
	      "kernels only decode passes ran: decode");
	/* no stage known anywhere: the passes' time a layer against each
	 * other (a prompt of many tokens, then decode steps, no shapes) */
	ts_vote_trace un;
	memset(&un, 0, sizeof un);
	ts_vote_timed(&un, 5 * 2400000, 5, 0);
	ts_vote_timed(&un, 5 * 500000, 5, 0);
	ts_vote_timed(&un, 5 * 510000, 5, 0);
	ts_vote vs, vf, vm;
	ts_vote_own(&blank, &vs);
	ts_vote_own(&blank, &vf);
	ts_vote_own(&blank, &vm);
	ts_vote_rel_in rs = { .gpu_ns = 5 * 2400000, .layers = 5, .generation = true, .threshold = 32 };
	ts_vote_rel_in rf = { .gpu_ns = 5 * 500000, .layers = 5, .generation = true, .threshold = 32 };
	ts_vote_rel_in rm = { .gpu_ns = 5 * 1200000, .layers = 5, .generation = true, .threshold = 32 };
	ts_vote_relative(&un, &rs, &vs);
	ts_vote_relative(&un, &rf, &vf);
	ts_vote_relative(&un, &rm, &vm);
	CHECK(vs.stage == TS_PSTAGE_PREFILL && vf.stage == TS_PSTAGE_DECODE &&
	      vs.duration_ref == TS_PSTAGE_UNKNOWN && vs.duration_ratio > 4.7 && vs.duration_ratio < 4.9,
	      "no stage known: 4.8x the fastest pass's time a layer is prefill, the fastest decode");
	CHECK(vm.stage == TS_PSTAGE_UNKNOWN, "2.4x the fastest, half the slowest: no vote");
	ts_vote_trace flat;
	memset(&flat, 0, sizeof flat);
	ts_vote_timed(&flat, 5 * 500000, 5, 0);
	ts_vote_timed(&flat, 5 * 560000, 5, 0);
	ts_vote_own(&blank, &vf);
	ts_vote_relative(&flat, &rf, &vf);
	CHECK(vf.stage == TS_PSTAGE_UNKNOWN, "passes alike (decode only, or prefill only): no vote");
	ts_vote vh;
	ts_vote_own_in hinted = pass(5);
	hinted.hint_prefill = 3;
	ts_vote_own(&hinted, &vh);
	ts_vote_relative(&un, &rf, &vh);
	CHECK(vh.stage == TS_PSTAGE_PREFILL, "a pass with evidence of its own is not held against the others");
	/* no shapes, layers alike in time (launch-bound eager kernels), but
	 * a prompt's elementwise kernels launch 600x the blocks */
	ts_vote_trace gr;
	memset(&gr, 0, sizeof gr);
	ts_vote_timed(&gr, 5 * 800000, 5, 2480.0);
	ts_vote_timed(&gr, 5 * 400000, 5, 4.0);
	ts_vote vg1, vg2;
	ts_vote_own(&blank, &vg1);
	ts_vote_own(&blank, &vg2);
	ts_vote_rel_in g1 = { .gpu_ns = 5 * 800000, .layers = 5, .grid = 2480.0, .generation = true,
			      .threshold = 32 };
	ts_vote_rel_in g2 = { .gpu_ns = 5 * 400000, .layers = 5, .grid = 4.0, .generation = true,
			      .threshold = 32 };
	ts_vote_relative(&gr, &g1, &vg1);
	ts_vote_relative(&gr, &g2, &vg2);
	CHECK(vg1.stage == TS_PSTAGE_PREFILL && vg1.by_grid && vg2.stage == TS_PSTAGE_DECODE && vg2.by_grid,
	      "2x the time a layer, 620x the elementwise blocks: prompt, then decode step");
	/* a prompt known by its query blocks; a decode step of a small
	 * model takes 0.42x its time a layer (launches bound both), and
	 * launches 1/150 of its elementwise blocks */
	ts_vote_trace kg;
	memset(&kg, 0, sizeof kg);
	ts_vote_known(&kg, TS_PSTAGE_PREFILL, 21 * 310000, 21, 1800.0, 0);
	ts_vote vk;
	ts_vote_own(&blank, &vk);
	ts_vote_rel_in k1 = { .gpu_ns = 21 * 130000, .layers = 21, .grid = 12.0, .generation = true,
			      .threshold = 32 };
	ts_vote_relative(&kg, &k1, &vk);
	CHECK(vk.stage == TS_PSTAGE_DECODE && vk.by_grid && vk.duration_ref == TS_PSTAGE_PREFILL &&
	      vk.duration_ratio < 0.01,
	      "1/150 of a known prompt's elementwise blocks: decode (its time, 0.42x, says nothing)");
	k1.grid = 0;
	ts_vote_own(&blank, &vk);
	ts_vote_relative(&kg, &k1, &vk);
	CHECK(vk.stage == TS_PSTAGE_UNKNOWN && !vk.by_grid,
	      "no grids: 0.42x a known prompt's time a layer says nothing");
	CHECK(strcmp(ts_signal_name(TS_SIG_KV_GRID), "kv_grid") == 0 &&
	      strcmp(ts_signal_name(TS_SIG_Q_GRID), "q_grid") == 0 &&
	      strcmp(ts_signal_name(TS_SIG_GRAPH), "graph") == 0 &&
	      strcmp(ts_signal_name(TS_SIG_COUNT), "unknown") == 0, "signal names");
}

int main(void)
{
	own_signals();
	relative();
	beside_known();
	mixed_batch();
	continuous();
	return unit_failed ? 1 : 0;
}
