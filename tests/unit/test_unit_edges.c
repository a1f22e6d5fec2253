/* The unit finder (structure/unit.c) at a pass's edges, on passes built
 * with known layers: first-k dense layers before MoE ones (their MLP is
 * not the MoE block, so no walk of a MoE layer's kernels reaches their
 * start), and dense and MoE layers alternating, each with its attention,
 * where an eager MoE block's expert loop runs as many kernels as experts
 * got tokens (every MoE layer differs) and the pass ends on a MoE layer;
 * and a hybrid's linear and full attention layers alternating, one to
 * one or two to one, eager or compiled; a hybrid's one full-attention
 * layer at an edge, and a first dense layer with a norm of its own.
 * Each with and without marks (names), at several depths; every layer
 * must start where it was built to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/structure/unit.h"
#include "unit.h"

#define NMAX 8192

enum {
	HEAD = 900, HEAD2, SAMPLE,
	NORM0 = 20, QKV, ROPE, ATTN, OPROJ, ADDNORM,
	UP = 30, ACT, DOWN,
	ROUTER = 40, TOPK, PERMUTE, MOE_UP, MOE_ACT, MOE_DOWN, FINALIZE,
	SH_UP, SH_ACT, SH_DOWN, SH_GATE, SH_ADD,
	IDX = 50, EXP_UP, EXP_ACT, EXP_MUL, EXP_DOWN, EXP_ADD, RESID,
	LMHEAD = 60,
	INPROJ = 70, CONV, GATING, RECUR, GNORM, OUTPROJ,
	ACT_PIECE = 80,
	AR = 90,
	/* an HF eager layer: unfused norm and rotary chains, one kernel per
	 * elementwise op (MUL and ADD shared by every chain), an expert loop */
	POW = 100, MEAN, RSQRT, MUL, ADD, NEG, CAT, HQ, HK, HV, SDPA, HO, HROUTER, SOFTMAX,
	HTOPK, HSORT, HSUM, DIV, FILL, SCATTER, CINIT, SSWEEP, GATHER, HUP, HACT, HGATE, HDOWN,
	IDXADD
};

typedef struct {
	uint32_t key[NMAX];
	uint8_t mark[NMAX];
	size_t n;
	uint32_t start[512];     /* where each layer was built to start */
	size_t layers;
} pass;

static void put(pass *p, uint32_t k)
{
	uint8_t m = 0;
	if (k == NORM0 || k == ADDNORM)
		m = TS_UNIT_NORM;
	else if (k == QKV || k == OPROJ || k == UP || k == DOWN || k == LMHEAD || k == ROUTER ||
		 k == EXP_UP || k == EXP_DOWN || k == SH_UP || k == SH_DOWN || k == SH_GATE)
		m = TS_UNIT_GEMM;
	else if (k == ATTN)
		m = TS_UNIT_ATTN;
	else if (k == CONV || k == RECUR)
		m = TS_UNIT_ATTN | TS_UNIT_LINEAR;
	else if (k == INPROJ || k == OUTPROJ)
		m = TS_UNIT_GEMM;
	else if (k == POW)
		m = TS_UNIT_NORM;
	else if (k == HQ || k == HK || k == HV || k == HO || k == HROUTER || k == HUP || k == HGATE ||
		 k == HDOWN)
		m = TS_UNIT_GEMM;
	else if (k == SDPA)
		m = TS_UNIT_ATTN;
	else if (k == HACT)
		m = TS_UNIT_MLP;
	else if (k == ACT || k == ACT_PIECE || k == MOE_UP || k == MOE_ACT || k == MOE_DOWN || k == EXP_ACT ||
		 k == SH_ACT)
		m = TS_UNIT_MLP;
	p->mark[p->n] = m;
	p->key[p->n++] = k;
}

static void attention_block(pass *p, uint32_t norm)
{
	p->start[p->layers++] = (uint32_t)p->n;
	put(p, norm);
	put(p, QKV);
	put(p, ROPE);
	put(p, ATTN);
	put(p, OPROJ);
	put(p, ADDNORM);
}

static void dense_mlp(pass *p)
{
	put(p, UP);
	put(p, ACT);
	put(p, DOWN);
}

/* a fused MoE with a shared expert: the same kernels every layer, more
 * than an edge walk's band beyond the dense MLP's, none of its GEMMs the
 * dense MLP's (other shapes, other tiles) */
static void fused_moe(pass *p)
{
	put(p, ROUTER);
	put(p, TOPK);
	put(p, PERMUTE);
	put(p, MOE_UP);
	put(p, MOE_ACT);
	put(p, MOE_DOWN);
	put(p, FINALIZE);
	put(p, SH_UP);
	put(p, SH_ACT);
	put(p, SH_DOWN);
	put(p, SH_GATE);
	put(p, SH_ADD);
}

/* HF eager MoE: a loop over the experts that got tokens */
static void expert_loop(pass *p, uint32_t experts)
{
	put(p, ROUTER);
	put(p, TOPK);
	for (uint32_t e = 0; e < experts; e++) {
		put(p, IDX);
		put(p, EXP_UP);
		put(p, EXP_ACT);
		put(p, EXP_MUL);
		put(p, EXP_DOWN);
		put(p, EXP_ADD);
	}
	put(p, RESID);
}

/* HF's unfused RMSNorm: pow, mean, add eps, rsqrt, mul, mul by weight */
static void hf_norm(pass *p)
{
	put(p, POW);
	put(p, MEAN);
	put(p, ADD);
	put(p, RSQRT);
	put(p, MUL);
	put(p, MUL);
}

/* an HF eager MoE layer (Mixtral's, Qwen-MoE's): norm, three projections,
 * rotary on q and k, attention, output projection and residual, norm,
 * router, softmax, top-k, the routing weights, the expert mask, then the
 * loop over the experts that got tokens (where, gather, up, act, gate,
 * mul, down, weight, index_add), and the residual */
static void hf_attention(pass *p)
{
	p->start[p->layers++] = (uint32_t)p->n;
	hf_norm(p);
	put(p, HQ);
	put(p, HK);
	put(p, HV);
	for (int r = 0; r < 2; r++) {
		put(p, MUL);
		put(p, NEG);
		put(p, CAT);
		put(p, MUL);
		put(p, ADD);
	}
	put(p, SDPA);
	put(p, HO);
	put(p, ADD);
	hf_norm(p);
}

/* an HF eager dense layer: the attention half, then up, act, gate, mul,
 * down and the residual */
static void hf_dense_layer(pass *p)
{
	hf_attention(p);
	put(p, HUP);
	put(p, HACT);
	put(p, HGATE);
	put(p, MUL);
	put(p, HDOWN);
	put(p, ADD);
}

static void hf_moe_layer(pass *p, uint32_t experts)
{
	hf_attention(p);
	put(p, HROUTER);
	put(p, SOFTMAX);
	put(p, HTOPK);
	put(p, HSORT);
	put(p, HSUM);
	put(p, DIV);
	put(p, FILL);
	put(p, SCATTER);
	for (uint32_t e = 0; e < experts; e++) {
		put(p, CINIT);
		put(p, SSWEEP);
		put(p, GATHER);
		put(p, HUP);
		put(p, HACT);
		put(p, HGATE);
		put(p, MUL);
		put(p, HDOWN);
		put(p, MUL);
		put(p, IDXADD);
	}
	put(p, ADD);
}

/* an HF eager linear-mixer (Mamba) block: norm, in-projection, its conv
 * and scan, a gated norm, out-projection, residual */
static void hf_linear(pass *p)
{
	p->start[p->layers++] = (uint32_t)p->n;
	hf_norm(p);
	put(p, INPROJ);
	put(p, CONV);
	put(p, RECUR);
	put(p, GNORM);
	put(p, OUTPROJ);
	put(p, ADD);
}

/* an HF eager dense MLP: norm, up, act, gate, mul, down, residual */
static void hf_mlp(pass *p)
{
	hf_norm(p);
	put(p, HUP);
	put(p, HACT);
	put(p, HGATE);
	put(p, MUL);
	put(p, HDOWN);
	put(p, ADD);
}

static void eager_moe(pass *p, unsigned long long *seed)
{
	expert_loop(p, 2 + (uint32_t)(unit_rand(seed) % 6));
}

/* a gated-delta-net layer: its conv and recurrence apart, the gating
 * between them (two runs of one linear mixer: one layer) */
static void gdn_block(pass *p, uint32_t norm)
{
	p->start[p->layers++] = (uint32_t)p->n;
	put(p, norm);
	put(p, INPROJ);
	put(p, CONV);
	put(p, GATING);
	put(p, RECUR);
	put(p, GNORM);
	put(p, OUTPROJ);
	put(p, ADDNORM);
}

static void gdn_layer(pass *p, uint32_t norm)
{
	gdn_block(p, norm);
	dense_mlp(p);
}

static void head(pass *p)
{
	p->n = p->layers = 0;
	put(p, HEAD);
	put(p, HEAD2);
}

static void tail(pass *p)
{
	put(p, ADDNORM);          /* the final norm */
	put(p, LMHEAD);
	put(p, SAMPLE);
}

/* Did the finder lay out exactly the layers p was built with? */
static bool exact(ts_unit *u, const pass *p, bool marks, char *why, size_t cap)
{
	ts_unit_result r;
	if (!ts_unit_find(u, p->key, marks ? p->mark : NULL, NULL, p->n, &r)) {
		snprintf(why, cap, "no layers found");
		return false;
	}
	if (r.n != p->layers) {
		snprintf(why, cap, "%zu layers, built %zu", r.n, p->layers);
		return false;
	}
	for (size_t i = 0; i < r.n; i++)
		if (r.start[i] != p->start[i]) {
			snprintf(why, cap, "layer %zu starts at %u, built at %u", i, r.start[i],
				 p->start[i]);
			return false;
		}
	snprintf(why, cap, "%zu layers", r.n);
	return true;
}

/* Did the finder find as many layers as p was built with, each holding
 * one mixer run? (Where only the attention is marked, nothing tells
 * layer 0's own input norm from the head's last kernel: the count and the
 * mixers are what the structure can promise.) */
static bool one_mixer_each(ts_unit *u, const pass *p, char *why, size_t cap)
{
	ts_unit_result r;
	if (!ts_unit_find(u, p->key, p->mark, NULL, p->n, &r)) {
		snprintf(why, cap, "no layers found");
		return false;
	}
	size_t in = 0;
	for (size_t i = 0; i < r.n; i++) {
		size_t a = 0;
		for (uint32_t j = r.start[i]; j < r.end[i]; j++)
			a += (p->mark[j] & TS_UNIT_ATTN) && (j == r.start[i] || !(p->mark[j - 1] & TS_UNIT_ATTN));
		in += a == 1;
	}
	snprintf(why, cap, "%zu layers (built %zu), %zu with one mixer run", r.n, p->layers, in);
	return r.n == p->layers && in == r.n;
}

/* Did the finder find as many layers as p was built with (no names)? */
static bool counted(ts_unit *u, const pass *p, char *why, size_t cap)
{
	ts_unit_result r;
	bool ok = ts_unit_find(u, p->key, NULL, NULL, p->n, &r) && r.n == p->layers;
	snprintf(why, cap, "%zu layers, built %zu", ok ? r.n : 0, p->layers);
	return ok;
}

static pass P;

int main(void)
{
	ts_unit *u = ts_unit_new();
	unsigned long long seed = 0x51ed2705c0ffee11ull;
	char why[128];
	for (int marks = 0; marks < 2; marks++) {
		for (uint32_t k = 1; k <= 3; k++)
			for (uint32_t moe = 3; moe <= 40; moe += moe < 6 ? 3 : 17)
			for (int alike = 0; alike < 2; alike++) {
				/* alike: the first layer's norm is every layer's (HF
				 * eager runs the residual add apart), so the dense
				 * layers run the MoE layers' block equally long */
				head(&P);
				for (uint32_t i = 0; i < k; i++) {
					attention_block(&P, i || alike ? ADDNORM : NORM0);
					dense_mlp(&P);
				}
				for (uint32_t i = 0; i < moe; i++) {
					attention_block(&P, ADDNORM);
					fused_moe(&P);
				}
				tail(&P);
				bool ok = exact(u, &P, marks, why, sizeof why);
				CHECK(ok, "first %u dense%s then %u MoE layers, %s: %s", k,
				      alike ? " (every norm alike)" : "", moe, marks ? "names" : "no names", why);
			}
	}
	/* a few layers, the last of another kind (first-k dense, then a
	 * MoE layer), and only the attention known by name (the
	 * kernels' names random, the attention's op recorded): the tail
	 * stops repeating after the last attention, which the structure
	 * reads two ways; every attention must stay inside a layer */
	for (uint32_t k = 2; k <= 4; k++)
		for (uint32_t moe = 1; moe <= 1; moe++) {
			head(&P);
			for (uint32_t i = 0; i < k; i++) {
				attention_block(&P, i ? ADDNORM : NORM0);
				dense_mlp(&P);
			}
			for (uint32_t i = 0; i < moe; i++) {
				attention_block(&P, ADDNORM);
				fused_moe(&P);
			}
			tail(&P);
			for (size_t i = 0; i < P.n; i++)
				P.mark[i] &= TS_UNIT_ATTN;
			bool ok = one_mixer_each(u, &P, why, sizeof why);
			CHECK(ok, "first %u dense then %u MoE layers, attention alone by name: %s", k,
			      moe, why);
		}
	/* an HF eager hybrid (unfused norms, rotary chains, expert loops):
	 * its first k layers dense (a linear mixer, a dense MLP), then its one
	 * attention layer and linear ones, all MoE: the walk back from the
	 * anchors (the linear layers' mixer) stops at the attention (its
	 * projections are not the linear layers'), so that layer begins at
	 * its input norm, and the dense layers before it, by name, each are a
	 * layer */
	for (uint32_t k = 1; k <= 3; k++) {
		head(&P);
		for (uint32_t i = 0; i < k; i++) {
			hf_linear(&P);
			hf_mlp(&P);
		}
		hf_moe_layer(&P, 3);
		for (uint32_t i = 0; i < 3; i++) {
			hf_linear(&P);
			hf_norm(&P);
			put(&P, HROUTER);
			put(&P, SOFTMAX);
			put(&P, HTOPK);
			for (uint32_t e = 0; e < 2 + i; e++) {
				put(&P, GATHER);
				put(&P, HUP);
				put(&P, HACT);
				put(&P, HDOWN);
				put(&P, IDXADD);
			}
			put(&P, ADD);
		}
		tail(&P);
		bool ok = one_mixer_each(u, &P, why, sizeof why);
		CHECK(ok, "HF eager: %u dense linear layers, an attention layer, 3 linear ones, MoE after the dense, names: %s",
		      k, why);
	}
	/* a TP hybrid under a graph replay (no names, no ops), as vLLM runs
	 * it: an all-reduce after each mixer and each MLP, so twice a layer;
	 * GEMM tiles shared between projections (the input projection's and
	 * the down projection's, the output's and the gate-up's); its first k
	 * layers dense (linear mixer, dense MLP), then MoE layers, full
	 * attention every third. A walk back from the MoE layers with their
	 * kind reaches over two dense ones (holding the all-reduce more often
	 * than the kind does): each dense layer is one */
	for (uint32_t k = 1; k <= 3; k++)
		for (uint32_t moe = 30; moe <= 84; moe += 54) {
			head(&P);
			for (uint32_t i = 0; i < k + moe; i++) {
				P.start[P.layers++] = (uint32_t)P.n;
				put(&P, i ? ADDNORM : NORM0);
				if (i >= k && (i - k) % 3 == 2) {
					put(&P, QKV);
					put(&P, GNORM);
					put(&P, GNORM);
					put(&P, ROPE);
					put(&P, IDX);
					put(&P, ATTN);
					put(&P, QKV);
				} else {
					put(&P, INPROJ);
					put(&P, GATING);
					put(&P, CONV);
					put(&P, RECUR);
					put(&P, NEG);
					put(&P, OUTPROJ);
				}
				put(&P, AR);
				put(&P, ADDNORM);
				put(&P, OUTPROJ);
				put(&P, ACT);
				if (i >= k) {
					put(&P, GATING);
					put(&P, OUTPROJ);
					put(&P, SH_GATE);
					put(&P, INPROJ);
					put(&P, TOPK);
					put(&P, PERMUTE);
					put(&P, MOE_UP);
					put(&P, ACT);
					put(&P, MOE_UP);
					put(&P, FINALIZE);
				} else {
					put(&P, INPROJ);
				}
				put(&P, AR);
			}
			tail(&P);
			bool ok = counted(u, &P, why, sizeof why);
			CHECK(ok, "TP all-reduce twice a layer, %u dense then %u MoE layers, no names: %s", k,
			      moe, why);
		}
	/* alternating dense and eager MoE layers: by name only (without
	 * names, nothing tells a period of two layers from one of two
	 * halves) */
	for (uint32_t pairs = 4; pairs <= 16; pairs += 4) {
		head(&P);
		for (uint32_t i = 0; i < pairs; i++) {
			attention_block(&P, i ? ADDNORM : NORM0);
			dense_mlp(&P);
			attention_block(&P, ADDNORM);
			eager_moe(&P, &seed);
		}
		tail(&P);
		bool ok = exact(u, &P, true, why, sizeof why);
		CHECK(ok, "%u dense and %u eager MoE layers alternating, names: %s", pairs, pairs,
		      why);
	}
	/* a hybrid whose linear and full attention layers alternate one to
	 * one: no kernel runs once in each layer of both kinds, so the
	 * repeating unit is the pair; each holds both mixers by name, so it
	 * is two layers, never one: exact, or left to the online machine's
	 * mixer units (no layers found). And linear layers only: a layer
	 * each, its mixer's two runs notwithstanding. */
	for (uint32_t pairs = 3; pairs <= 12; pairs += 3) {
		head(&P);
		for (uint32_t i = 0; i < pairs; i++) {
			gdn_layer(&P, i ? ADDNORM : NORM0);
			attention_block(&P, ADDNORM);
			dense_mlp(&P);
		}
		tail(&P);
		bool ok = exact(u, &P, true, why, sizeof why) || !strcmp(why, "no layers found");
		CHECK(ok, "%u linear and %u full attention layers alternating, names: %s", pairs, pairs,
		      why);
		/* two linear layers to one full one: the linear mixer's
		 * kernels, once in each linear layer, are no anchor (the full
		 * layer would ride in a linear one's unit) */
		head(&P);
		for (uint32_t i = 0; i < pairs; i++) {
			gdn_layer(&P, i ? ADDNORM : NORM0);
			gdn_layer(&P, ADDNORM);
			attention_block(&P, ADDNORM);
			dense_mlp(&P);
		}
		tail(&P);
		ok = exact(u, &P, true, why, sizeof why);
		CHECK(ok, "%u linear and %u full attention layers, two to one, names: %s", 2 * pairs,
		      pairs, why);
		/* the same compiled piecewise: every projection one GEMM, and
		 * the full layers' activation named apart (Inductor names a
		 * fused kernel by its graph piece), so only the linear mixer
		 * runs once in a layer, and only in the linear ones: exact,
		 * or left to the online machine, never a full layer inside a
		 * linear one */
		head(&P);
		for (uint32_t i = 0; i < pairs; i++) {
			for (int l = 0; l < 2; l++) {
				P.start[P.layers++] = (uint32_t)P.n;
				put(&P, l || i ? ADDNORM : NORM0);
				put(&P, UP);
				put(&P, CONV);
				put(&P, GATING);
				put(&P, RECUR);
				put(&P, GNORM);
				put(&P, UP);
				put(&P, ADDNORM);
				put(&P, UP);
				put(&P, ACT);
				put(&P, DOWN);
			}
			P.start[P.layers++] = (uint32_t)P.n;
			put(&P, ADDNORM);
			put(&P, UP);
			put(&P, ROPE);
			put(&P, ATTN);
			put(&P, DOWN);
			put(&P, ADDNORM);
			put(&P, UP);
			put(&P, ACT_PIECE);
			put(&P, DOWN);
		}
		tail(&P);
		ok = exact(u, &P, true, why, sizeof why) || !strcmp(why, "no layers found");
		CHECK(ok, "%u linear and %u full attention layers, two to one, compiled, names: %s",
		      2 * pairs, pairs, why);
		head(&P);
		for (uint32_t i = 0; i < 2 * pairs; i++)
			gdn_layer(&P, i ? ADDNORM : NORM0);
		tail(&P);
		ok = exact(u, &P, true, why, sizeof why);
		CHECK(ok, "%u linear attention layers, names: %s", 2 * pairs, why);
	}
	/* a hybrid whose one full-attention layer is its last (or its
	 * first), or the one before its last: no anchor reaches a layer of
	 * a kind that runs once, so only names say it is a whole layer
	 * (norm, projection, mixer, MLP work up to the next norm) */
	for (uint32_t lin = 2; lin <= 12; lin += 5)
		for (int where = 0; where < 3; where++) {
			head(&P);
			if (where == 1) {
				attention_block(&P, NORM0);
				dense_mlp(&P);
			}
			for (uint32_t i = 0; i < lin; i++) {
				gdn_layer(&P, i || where == 1 ? ADDNORM : NORM0);
				if (where == 2 && i + 2 == lin) {
					attention_block(&P, ADDNORM);
					dense_mlp(&P);
				}
			}
			if (where == 0) {
				attention_block(&P, ADDNORM);
				dense_mlp(&P);
			}
			tail(&P);
			/* two linear layers apart: no anchor repeats a layer */
			bool ok = exact(u, &P, true, why, sizeof why) ||
				  (where == 2 && lin == 2 && !strcmp(why, "no layers found"));
			CHECK(ok, "%u linear layers and one full attention layer %s, names: %s", lin,
			      where == 0 ? "last" : where == 1 ? "first" : "before the last", why);
		}
	/* a first dense layer with its own input norm and a copy after its
	 * attention (no five kernels in a row of a MoE layer's block): by
	 * name, a whole layer before the first MoE one */
	for (uint32_t moe = 4; moe <= 40; moe += 12) {
		head(&P);
		P.start[P.layers++] = (uint32_t)P.n;
		put(&P, NORM0);
		put(&P, QKV);
		put(&P, ROPE);
		put(&P, ATTN);
		put(&P, HEAD2);
		put(&P, OPROJ);
		put(&P, ADDNORM);
		dense_mlp(&P);
		for (uint32_t i = 0; i < moe; i++) {
			attention_block(&P, ADDNORM);
			fused_moe(&P);
		}
		tail(&P);
		bool ok = exact(u, &P, true, why, sizeof why);
		CHECK(ok, "a dense layer of its own norm, then %u MoE layers, names: %s", moe, why);
	}
	/* every layer an eager MoE block whose loop ran as often as the
	 * others' but in one edge layer (a decode step's few tokens reached
	 * more or fewer experts there): no anchor or edge walk reaches that
	 * layer, a loop body or more longer or shorter than the others; the
	 * pass with its loops folded has it. With and without names; without
	 * names and the odd layer last, the count only: the phase then comes
	 * from how far the tail repeats a layer's start, and HF runs the same
	 * norm kernels mid-layer, so a layer may be read from either norm. */
	for (int marks = 0; marks < 2; marks++)
		for (uint32_t layers = 4; layers <= 24; layers += 10)
			for (uint32_t odd = 1; odd <= 8; odd += 2)
				for (int last = 0; last < 2; last++) {
					head(&P);
					for (uint32_t i = 0; i < layers; i++) {
						bool edge = last ? i + 1 == layers : i == 0;
						hf_moe_layer(&P, edge ? odd : 4);
					}
					hf_norm(&P);
					put(&P, LMHEAD);
					put(&P, SAMPLE);
					bool ok = marks || !last ? exact(u, &P, marks, why, sizeof why)
							       : counted(u, &P, why, sizeof why);
					CHECK(ok, "%u eager MoE layers, the %s one's loop %u times, the others' 4, %s: %s",
					      layers, last ? "last" : "first", odd, marks ? "names" : "no names", why);
				}
	/* HF eager dense and MoE layers alternating, in a prefill whose
	 * tokens reach every expert: each MoE layer's loop makes it four to
	 * six times the dense layer's length, one expert fewer in one of
	 * them. The two kinds share the attention half, mixer and all, so
	 * the pair is two layers however little of the MoE layer the dense
	 * one is (by name; without names a period of two layers looks like
	 * one of two halves). */
	for (uint32_t pairs = 3; pairs <= 12; pairs += pairs < 4 ? 1 : 4)
		for (uint32_t experts = 8; experts <= 16; experts += 8) {
			head(&P);
			for (uint32_t i = 0; i < pairs; i++) {
				hf_dense_layer(&P);
				hf_moe_layer(&P, i + 1 == pairs ? experts - 1 : experts);
			}
			hf_norm(&P);
			put(&P, LMHEAD);
			put(&P, SAMPLE);
			bool ok = exact(u, &P, true, why, sizeof why);
			CHECK(ok, "%u HF dense and %u MoE layers alternating, %u experts a loop, names: %s",
			      pairs, pairs, experts, why);
		}
	ts_unit_free(u);
	return unit_failed ? 1 : 0;
}
