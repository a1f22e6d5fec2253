/*
 * patterns_query.c - what the loaded tables answer: their categories, rules, families, operator rules,
 * contexts, devices, groups and fusions, and selector matching
 * (patterns_int.h).
 */
#include "tables/patterns_int.h"

#include <stdio.h>
#include <string.h>

size_t ts_patterns_ncategories(const ts_patterns *p) { return p->ncats; }
const ts_category *ts_patterns_category(const ts_patterns *p, size_t i) { return &p->cats[i]; }
size_t ts_patterns_nrules(const ts_patterns *p) { return p->nrules; }
const ts_rule *ts_patterns_rule(const ts_patterns *p, size_t i) { return &p->rules[i]; }
size_t ts_patterns_nbounds(const ts_patterns *p) { return p->nbounds; }
const ts_kbound *ts_patterns_bound(const ts_patterns *p, size_t i) { return &p->bounds[i]; }
size_t ts_patterns_nfamilies(const ts_patterns *p) { return p->nfams; }
const ts_family *ts_patterns_family(const ts_patterns *p, size_t i) { return &p->fams[i]; }
size_t ts_patterns_ndirs(const ts_patterns *p) { return p->ndirs; }
const char *ts_patterns_dir(const ts_patterns *p, size_t i) { return p->dirs[i]; }

size_t ts_patterns_noprules(const ts_patterns *p) { return p->noprules; }
const ts_oprule *ts_patterns_oprule(const ts_patterns *p, size_t i) { return &p->oprules[i]; }

static bool oprule_is(const ts_oprule *r, const char *kind, size_t kn, const char *tmpl, size_t tn)
{
	return strlen(r->kind) == kn && memcmp(r->kind, kind, kn) == 0 &&
	       strlen(r->workload) == tn && memcmp(r->workload, tmpl, tn) == 0;
}

long ts_patterns_oprule_find(const ts_patterns *p, uint32_t at, const char *kind, size_t kn,
			     const char *tmpl, size_t tn)
{
	size_t n = p ? p->noprules : 0;
	if (at < n && oprule_is(&p->oprules[at], kind, kn, tmpl, tn))
		return (long)at;
	for (size_t i = 0; i < n; i++)
		if (oprule_is(&p->oprules[i], kind, kn, tmpl, tn))
			return (long)i;
	return -1;
}
size_t ts_patterns_nskips(const ts_patterns *p) { return p->nskips; }

const ts_selectors *ts_patterns_token_grids(const ts_patterns *p)
{
	return &p->token_grids;
}

const ts_selectors *ts_patterns_query_grids(const ts_patterns *p)
{
	return &p->query_grids;
}

const ts_selectors *ts_patterns_row_grids(const ts_patterns *p)
{
	return &p->row_grids;
}

const ts_selectors *ts_patterns_step_inputs(const ts_patterns *p)
{
	return &p->step_inputs;
}

const ts_selectors *ts_patterns_training(const ts_patterns *p)
{
	return &p->training;
}

size_t ts_patterns_ngroups(const ts_patterns *p)
{
	return p->ngroups;
}

size_t ts_patterns_ngpus(const ts_patterns *p)
{
	return p->ngpus;
}

const ts_gpu *ts_patterns_gpu(const ts_patterns *p, size_t i)
{
	return &p->gpus[i];
}

const ts_group *ts_patterns_group(const ts_patterns *p, size_t i)
{
	return &p->groups[i];
}

size_t ts_patterns_nfusions(const ts_patterns *p)
{
	return p->nfusions;
}

const ts_fusion *ts_patterns_fusion(const ts_patterns *p, size_t i)
{
	return &p->fusions[i];
}

const ts_align_costs *ts_patterns_align_costs(const ts_patterns *p)
{
	return &p->align;
}

size_t ts_patterns_ncontexts(const ts_patterns *p)
{
	return p->ncontexts;
}

const ts_context *ts_patterns_context(const ts_patterns *p, size_t i)
{
	return &p->contexts[i];
}

bool ts_patterns_callsite_skipped(const ts_patterns *p, const char *name, size_t len)
{
	for (size_t i = 0; i < p->nskips; i++) {
		size_t ov[2];
		if (ts_regex_match(p->skips[i], name, len, ov, 1) > 0)
			return true;
	}
	return false;
}

const ts_family *ts_patterns_find_family(const ts_patterns *p, const char *name)
{
	for (size_t i = 0; i < p->nfams; i++)
		if (strcmp(p->fams[i].name, name) == 0)
			return &p->fams[i];
	return NULL;
}

bool ts_selector_matches(const ts_selector *sel, int category, ts_ktype type,
			 const char *name, size_t len)
{
	switch (sel->kind) {
	case TS_SEL_CATEGORY:
		return sel->category == category;
	case TS_SEL_TYPE:
		return sel->type == type;
	case TS_SEL_MATCH: {
		size_t ov[2];
		return ts_regex_match(sel->re, name, len, ov, 1) > 0;
	}
	}
	return false;
}

bool ts_selectors_any(const ts_selectors *s, int category, ts_ktype type,
		      const char *name, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (ts_selector_matches(&s->v[i], category, type, name, len))
			return true;
	return false;
}

size_t ts_patterns_regex_limits(const ts_patterns *p, char (*lines)[TS_PATTERN_ERR_LEN],
				size_t max)
{
	size_t n = 0;
	for (size_t i = 0; p && i < p->nregexes && n < max; i++) {
		ts_regex *r = p->regexes[i];
		if (!atomic_load(&r->limit_hits))
			continue;
		int line = 1, col = 1;
		ts_yaml_locate(r->file, r->path, r->depth, false, &line, &col);
		snprintf(lines[n++], TS_PATTERN_ERR_LEN,
			 "%s:%d:%d: regex '%.80s' gave up on a name of %zu bytes (PCRE2's match "
			 "limit: it backtracks without end); it matches nothing from then on",
			 r->file, line, col, r->src, (size_t)atomic_load(&r->limit_len));
	}
	return n;
}

const char *ts_dtclass_name(ts_dtclass c)
{
	static const char *const names[TS_DT_COUNT] = {
		"fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp6", "fp4",
	};
	return (unsigned)c < TS_DT_COUNT ? names[c] : "?";
}
