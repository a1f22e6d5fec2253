/*
 * model.c - what model a trace comes from: described from what ran (dense
 * or MoE, hybrid or not, its layers), and a family of the tables named
 * only where its detect rules and the structure agree (see model.h).
 */
#include "analysis/layers/model.h"
#include "analysis/attrib/attrib.h"

#include "analysis/layers/layers.h"

#include <stdio.h>
#include <string.h>

/* Does any distinct kernel (or memory kind) of the trace match sel? */
static bool trace_has(const ts_agg *a, const ts_selector *sel)
{
	uint32_t rows = ts_intern_count(a->names);
	for (uint32_t i = 0; i < rows; i++) {
		const ts_kclass *c = &a->classes[i];
		size_t len;
		const char *name = ts_intern_str(a->names, i, &len);
		if (a->rows[i].count && ts_selector_matches(sel, c->category, c->type, name, len))
			return true;
	}
	return false;
}

static long score(const ts_family *f, const ts_agg *a, const ts_selector **ev,
		  int *nev)
{
	long s = 0;
	*nev = 0;
	for (size_t i = 0; i < f->detect.n; i++) {
		const ts_selector *sel = &f->detect.v[i];
		if (!trace_has(a, sel))
			continue;
		s += sel->weight;
		if (ev && *nev < TS_EVIDENCE_MAX)
			ev[(*nev)++] = sel;
	}
	return s;
}

ts_status ts_model_choose(const ts_patterns *p, const ts_agg *a,
			  const char *forced, ts_model *out)
{
	memset(out, 0, sizeof *out);
	out->source = "none";
	if (!p)
		return TS_OK;
	if (forced) {
		out->family = ts_patterns_find_family(p, forced);
		if (!out->family)
			return TS_ERR_USAGE;
		out->source = "forced";
		out->score = score(out->family, a, out->evidence, &out->nevidence);
		return TS_OK;
	}
	for (size_t i = 0; i < ts_patterns_nfamilies(p); i++) {
		const ts_family *f = ts_patterns_family(p, i);
		int nev;
		long s = score(f, a, NULL, &nev);
		if (!out->family || s > out->score) {
			out->runner_up = out->family;
			out->runner_up_score = out->score;
			out->family = f;
			out->score = s;
		} else if (!out->runner_up || s > out->runner_up_score) {
			out->runner_up = f;
			out->runner_up_score = s;
		}
	}
	if (out->family && out->score > 0 && out->runner_up &&
	    out->runner_up_score == out->score) {
		out->tie = out->family;   /* a tie: both named, neither chosen */
		out->family = NULL;
		out->source = "tie";
		return TS_OK;
	}
	if (!out->family || out->score <= 0) {
		out->family = NULL;
		return TS_OK;
	}
	out->source = "detected";
	score(out->family, a, out->evidence, &out->nevidence);
	return TS_OK;
}

void ts_selector_describe(const ts_patterns *p, const ts_selector *s, char *buf,
			  size_t len)
{
	switch (s->kind) {
	case TS_SEL_CATEGORY:
		snprintf(buf, len, "category %s", ts_patterns_category(p, (size_t)s->category)->name);
		break;
	case TS_SEL_TYPE:
		snprintf(buf, len, "type %s", ts_ktype_name(s->type));
		break;
	case TS_SEL_MATCH:
		snprintf(buf, len, "match '%s'", s->match);
		break;
	}
}

/* ------------------------------------------------------------ what ran */

/* A kernel of a category whose collective: is k ran. */
static bool ran_collective(const ts_patterns *p, const ts_agg *a, ts_collective k)
{
	uint32_t rows = ts_intern_count(a->names);
	for (uint32_t i = 0; i < rows; i++) {
		const ts_category *c = ts_kclass_cat(p, &a->classes[i]);
		if (a->rows[i].count && c && c->collective == k)
			return true;
	}
	return false;
}

static bool ran_type(const ts_agg *a, ts_ktype t)
{
	uint32_t rows = ts_intern_count(a->names);
	for (uint32_t i = 0; i < rows; i++)
		if (a->rows[i].count && a->classes[i].type == t)
			return true;
	return false;
}

/* The mixers in the model line's order: linear ones first, each group
 * from the highest rank down (declared order between equals). */
static size_t said_order(const ts_patterns *p, int *order)
{
	size_t n = 0;
	for (int lin = 1; lin >= 0; lin--) {
		size_t from = n;
		for (size_t k = 0; k < ts_patterns_nmixers(p); k++) {
			if (ts_patterns_mixer(p, k)->linear != (lin == 1))
				continue;
			size_t j = n++;
			long r = ts_patterns_mixer(p, k)->rank;
			while (j > from && ts_patterns_mixer(p, (size_t)order[j - 1])->rank < r) {
				order[j] = order[j - 1];
				j--;
			}
			order[j] = (int)k;
		}
	}
	return n;
}

/* Layers of mixer k in a pass's kinds (the default mixer's with the
 * layers of a mixer and no MLP). */
static uint32_t mixer_layers(const ts_patterns *p, const uint32_t *k, int mix)
{
	uint32_t c = k[ts_ltype_of_mixer(mix, true)] + k[ts_ltype_of_mixer(mix, false)];
	return c + (mix == ts_patterns_default_mixer(p) ? k[TS_LT_ATTN_ONLY] : 0);
}

static void kinds_part(char *buf, size_t len, size_t *n, size_t *parts, uint32_t c,
		       const char *what)
{
	if (!c || *n >= len)
		return;
	/* layers no name types, beside typed ones: the rest */
	what = what[0] || !*parts ? what : "other";
	*n += (size_t)snprintf(buf + *n, len - *n, "%s%u%s%s", (*parts)++ ? " + " : "", c,
			       what[0] ? " " : "", what);
}

/* "48 linear-attention (GDN) + 16 attention layers" from a pass's kinds. */
static void kinds_text(const ts_patterns *p, const uint32_t *k, char *buf, size_t len)
{
	int order[TS_MIXERS_MAX];
	size_t nm = said_order(p, order), n = 0, parts = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < nm; i++)
		kinds_part(buf, len, &n, &parts, mixer_layers(p, k, order[i]),
			   ts_patterns_mixer(p, (size_t)order[i])->says);
	if (ts_patterns_default_mixer(p) < 0)
		kinds_part(buf, len, &n, &parts, k[TS_LT_ATTN_ONLY], "attention-only");
	kinds_part(buf, len, &n, &parts, k[TS_LT_MOE_ONLY] + k[TS_LT_FC_ONLY] + k[TS_LT_UNKNOWN], "");
	if (n < len)
		snprintf(buf + n, len - n, " layer%s", parts == 1 && k[TS_LT_UNKNOWN] == 1 ? "" : "s");
}

/* Why family f does not fit what ran, or "" when it does. */
static void unlike(const ts_family *f, uint32_t per_pass, bool moe, uint32_t linear,
		   char *why, size_t len)
{
	why[0] = '\0';
	if (f->nnum_layers && per_pass) {
		bool listed = false;
		for (size_t i = 0; i < f->nnum_layers; i++)
			listed |= f->num_layers[i] == (long)per_pass;
		if (!listed) {
			size_t n = (size_t)snprintf(why, len, "every complete pass has %u layers; its "
						    "num_hidden_layers are", per_pass);
			for (size_t i = 0; i < f->nnum_layers && n < len; i++)
				n += (size_t)snprintf(why + n, len - n, "%s %ld", i ? "," : "",
						      f->num_layers[i]);
			return;
		}
	}
	if (f->mlp == TS_MLP_MOE && !moe)
		snprintf(why, len, "it is MoE, and no MoE kernel ran");
	else if (f->mlp == TS_MLP_FC && moe)
		snprintf(why, len, "it is dense, and MoE kernels ran");
	else if ((f->attention == TS_ATTN_HYBRID || f->attention == TS_ATTN_GDN) && per_pass &&
		 !linear)
		snprintf(why, len, "it has linear-attention layers, and none ran");
	else if ((f->attention == TS_ATTN_MHA || f->attention == TS_ATTN_MLA) && linear)
		snprintf(why, len, "it has no linear-attention layers, and %u ran in a pass", linear);
}

void ts_model_check(ts_model *m, const ts_patterns *p, const ts_agg *a,
		    const struct ts_layers *l)
{
	m->described[0] = '\0';
	if (!p || !l)
		return;
	uint32_t k[TS_LT_COUNT] = { 0 };
	uint32_t per_pass = ts_layers_kinds(l, k);
	uint32_t linear = 0, moe_layers = k[TS_LT_MOE_ONLY], mixers = k[TS_LT_ATTN_ONLY];
	for (size_t i = 0; i < ts_patterns_nmixers(p); i++) {
		uint32_t moe = k[ts_ltype_of_mixer((int)i, true)], fc = k[ts_ltype_of_mixer((int)i, false)];
		linear += ts_patterns_mixer(p, i)->linear ? moe + fc : 0;
		moe_layers += moe;
		mixers += moe + fc;
	}
	m->moe = moe_layers || ran_type(a, TS_TYPE_MOE) || ran_collective(p, a, TS_COLL_ALL_TO_ALL);
	if (per_pass) {
		char kinds[160];
		kinds_text(p, k, kinds, sizeof kinds);
		if (!mixers)
			snprintf(m->described, sizeof m->described,
				 "%s (no kernel name says what they hold)", kinds);
		else
			snprintf(m->described, sizeof m->described, "a %s %s: %s",
				 !m->moe ? "dense" : moe_layers == per_pass ? "MoE" : "partly MoE",
				 linear && linear < mixers ? "hybrid" : "model", kinds);
	}
	if (!m->family || strcmp(m->source, "detected") != 0)
		return;
	char why[200];
	unlike(m->family, per_pass, m->moe, linear, why, sizeof why);
	if (!why[0])
		return;
	m->unlike = m->family;
	m->unlike_score = m->score;
	snprintf(m->unlike_why, sizeof m->unlike_why, "%s", why);
	m->family = NULL;
	m->source = "unlike";
}

/* Query and KV heads from an attention workload's name (..._h32_kv8_...). */
static bool heads_of(const char *s, size_t n, long *h, long *kv)
{
	for (size_t i = 0; i + 2 < n; i++) {
		if (s[i] != '_' || s[i + 1] != 'h' || s[i + 2] < '0' || s[i + 2] > '9')
			continue;
		char buf[64];
		size_t k = n - i < sizeof buf - 1 ? n - i : sizeof buf - 1;
		memcpy(buf, s + i, k);
		buf[k] = '\0';
		if (sscanf(buf, "_h%ld_kv%ld", h, kv) == 2 && *h > 0 && *kv > 0)
			return true;
	}
	return false;
}

void ts_model_attention(ts_model *m, const struct ts_attrib *at, int64_t world)
{
	m->attn_kind = NULL;
	size_t n = at ? ts_attrib_nworkloads(at) : 0;
	int64_t best = 0;
	for (size_t i = 0; i < n; i++) {
		const ts_wl_row *w = ts_attrib_workload(at, TS_ATTRIB_ALL, i);
		const ts_oprule *r = ts_attrib_workload_rule(at, i);
		size_t len;
		const char *dt, *name = ts_attrib_workload_name(at, i, &len, &dt);
		long h, kv;
		if (!w || !r || !r->kind || strcmp(r->kind, "gqa") != 0 || w->ns <= best ||
		    !name || !heads_of(name, len, &h, &kv) || kv > h)
			continue;
		best = w->ns;
		m->attn_heads = h;
		m->attn_kv = kv;
		/* a rank of a sharded model (tensor parallel) sees its share of
		 * the heads: one KV head there is an MQA model's, or a GQA
		 * model's with as many ranks as KV heads */
		m->attn_kind = kv == h ? "MHA" : kv > 1 ? "GQA" : world > 1 ? "GQA or MQA" : "MQA";
	}
	m->attn_per_rank = world > 1;
	size_t k = strlen(m->described);
	if (m->attn_kind && k && k < sizeof m->described)
		snprintf(m->described + k, sizeof m->described - k, "; attention %s, %ld query / %ld KV heads%s",
			 m->attn_kind, m->attn_heads, m->attn_kv, m->attn_per_rank ? " a rank" : "");
}

long ts_model_expected_layers(const ts_layers *l, const ts_model *m, char *why, size_t n)
{
	return ts_layers_expected(l, m->family, strcmp(m->source, "forced") == 0, m->score, why, n);
}
