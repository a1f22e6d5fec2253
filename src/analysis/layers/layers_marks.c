/*
 * layers_marks.c - what a kernel means to the layer machine: its marks
 * (attention, MLP, GEMM, norm, a layer's start, tokens in its grid, ...)
 * from its class, the tables' selectors and the model families' rules,
 * kept per name (and per context slot), demoted where a name ran once in
 * its unit; and a layer's type from the marks its kernels carried.
 */
#include "analysis/layers/layers_int.h"
#include "input/base/grow.h"

#include <stdint.h>
#include <string.h>

static lmark family_marks(const ts_family *f, const ts_kclass *c,
			     const char *name, size_t len)
{
	lmark m = 0;
	if (ts_selectors_any(&f->layer_start, c->category, c->type, name, len))
		m |= M_START;
	if (ts_selectors_any(&f->moe_markers, c->category, c->type, name, len))
		m |= M_MOE;
	if (ts_selectors_any(&f->fc_markers, c->category, c->type, name, len))
		m |= M_FC;
	if (ts_selectors_any(&f->attention_markers, c->category, c->type, name, len))
		m |= M_ATTN_SEL;
	return m;
}

/* Markers of one kernel name: from the forced family, else the union of
 * every family's selectors; attention kinds and pass edges from types. */
static lmark compute_marks(const ts_layers *l, const ts_kclass *c,
			      const char *name, size_t len)
{
	lmark m = 0;
	const ts_patterns *p = l->patterns;
	if (l->meaning.forced) {
		m = family_marks(l->meaning.forced, c, name, len);
	} else if (p) {
		for (size_t i = 0; i < ts_patterns_nfamilies(p); i++)
			m |= family_marks(ts_patterns_family(p, i), c, name, len);
	}
	/* what its category means (kernels.yaml): the mixer it is (a
	 * softmax alone is none: eager classifiers have one), a bookkeeping
	 * kernel, a class its op gave */
	const ts_category *cat = ts_kclass_cat(p, c);
	if (m & M_ATTN_SEL) {
		int mix = ts_patterns_category_mixer(p, cat);
		m &= (lmark)~M_ATTN_SEL;
		if (mix >= 0 && mix < TS_MIXERS_MAX)
			m |= M_MIX(mix) | (ts_patterns_mixer(p, (size_t)mix)->linear ? M_LINEAR : 0);
	}
	/* A kernel is one thing: a norm that starts a layer is not also MLP. */
	if (m & M_START)
		m &= (lmark)~(M_ATTN | M_MLP);
	if (c->type == TS_TYPE_EMBEDDING)
		m |= M_EMBED;
	if (c->type == TS_TYPE_SAMPLING)
		m |= M_SAMPLE;
	if (c->type == TS_TYPE_GEMM)
		m |= M_GEMM;
	if (c->type == TS_TYPE_MEMORY)
		m |= M_COPY;
	if (c->type == TS_TYPE_SORT_TOPK)
		m |= M_TOPK;
	if (cat && cat->bookkeeping)
		m |= M_META;
	/* typed by its name: a class its op gave (a context rule's by_op
	 * category, for a name no rule knows) says nothing of the names */
	if (c->type != TS_TYPE_OTHER && !(cat && cat->by_op))
		m |= M_TYPED;
	if (c->type == TS_TYPE_OTHER || c->type == TS_TYPE_COMMUNICATION)
		m |= M_ENDS;
	if (p && ts_selectors_any(ts_patterns_token_grids(p), c->category, c->type, name, len))
		m |= M_TOKENS;
	if (p && ts_selectors_any(ts_patterns_query_grids(p), c->category, c->type, name, len))
		m |= M_QBLOCKS;
	if (p && ts_selectors_any(ts_patterns_row_grids(p), c->category, c->type, name, len))
		m |= M_ROWS;
	if (p && ts_selectors_any(ts_patterns_training(p), c->category, c->type, name, len))
		m |= M_TRAIN;
	return (lmark)(m | M_KNOWN);
}

/* A kernel typed attention that runs once per pass: plain work. */
lmark ts_lay_demoted(lmark m)
{
	return (m & M_ATTN) ? (lmark)((m & ~M_ATTN) | M_ONCE) : m;
}

lmark ts_lay_marks_for(ts_layers *l, uint32_t row, const ts_kclass *c, const char *name, size_t len,
		       unsigned slot)
{
	if (row == TS_INTERN_NONE)
		return compute_marks(l, c, name, len);
	ts_grow_part parts[] = { { (void **)&l->meaning.marks, sizeof *l->meaning.marks },
				 { (void **)&l->meaning.ctx_marks, TS_CTX_SLOTS * sizeof *l->meaning.ctx_marks } };
	if (!ts_grow_each(parts, 2, &l->meaning.marks_cap, (size_t)row + 1, 64, SIZE_MAX, true))
		return compute_marks(l, c, name, len);
	/* a name has one class per context slot (see ts_agg_context) */
	lmark *at = slot && slot <= TS_CTX_SLOTS
		  ? &l->meaning.ctx_marks[(size_t)row * TS_CTX_SLOTS + slot - 1] : &l->meaning.marks[row];
	if (!(*at & M_KNOWN)) {
		*at = compute_marks(l, c, name, len);
		for (uint32_t i = 0; i < l->meaning.nonce; i++)
			if (l->meaning.once_rows[i] == row)
				*at = ts_lay_demoted(*at);
	}
	return *at;
}

/* ------------------------------------------------------------ the machine */

/* A layer's type: its mixer's (the highest rank's where it ran kernels
 * of two: a state-space layer runs the causal conv GDN runs too) with its
 * MLP work. */
ts_ltype ts_lay_layer_type(const ts_layers *l, lmark m)
{
	bool moe = m & M_MOE, fc = m & M_FC;
	int best = -1;
	long rank = 0;
	for (size_t k = 0; (m & M_MIXERS) && k < ts_patterns_nmixers(l->patterns); k++) {
		long r = ts_patterns_mixer(l->patterns, k)->rank;
		if ((m & M_MIX(k)) && (best < 0 || r > rank)) {
			best = (int)k;
			rank = r;
		}
	}
	if (best >= 0)
		return moe || fc ? ts_ltype_of_mixer(best, moe) : TS_LT_ATTN_ONLY;
	return moe ? TS_LT_MOE_ONLY : fc ? TS_LT_FC_ONLY : TS_LT_UNKNOWN;
}

/* Its row's marks as they are now (a row demoted since the kernel came
 * counts demoted); m where the name had no row. */
lmark ts_lay_marks_now(ts_layers *l, uint32_t row, const ts_kclass *c, unsigned slot, lmark m)
{
	return row == TS_INTERN_NONE ? m : ts_lay_marks_for(l, row, c, NULL, 0, slot);
}
