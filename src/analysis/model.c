#include "analysis/model.h"

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
	if (!out->family || out->score <= 0 ||
	    (out->runner_up && out->runner_up_score == out->score)) {
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
