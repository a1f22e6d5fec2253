/*
 * patterns_cmd.c - tracestream patterns list|check|explain: the tables as
 * loaded, what each rule and family selects, and how a name is classified.
 */
#include "patterns_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/layers/model.h"
#include "tables/classify.h"
#include "tables/gpu.h"

/* Load the tables; on failure print every error and return NULL. */
ts_patterns *ts_patterns_cmd_load(const char *const *dirs, size_t ndirs,
				  ts_status *st)
{
	ts_pattern_error errors[20];
	size_t n;
	ts_patterns *p = NULL;
	ts_patterns_source src = { .user_dirs = dirs, .nuser_dirs = ndirs };
	*st = ts_patterns_load(&src, &p, errors, 20, &n);
	for (size_t i = 0; i < n && i < 20; i++)
		ts_error_print(stderr, errors[i].file, false, false, &errors[i].e);
	if (n > 20)
		fprintf(stderr, "tracestream: ... and %zu more pattern errors\n", n - 20);
	if (*st != TS_OK)
		fprintf(stderr, "tracestream: pattern tables are not valid%s\n",
			*st == TS_ERR_IO ? "" : " (see the errors above; patterns/README.md has the schema)");
	return p;
}

static void describe_sels(const ts_patterns *p, const char *what, const ts_selectors *s)
{
	if (!s->n)
		return;
	printf("    %-10s", what);
	for (size_t i = 0; i < s->n; i++) {
		char d[300];
		ts_selector_describe(p, &s->v[i], d, sizeof d);
		printf("%s%s", i ? ", " : "", d);
		if (s->v[i].weight && strcmp(what, "detect") == 0)
			printf(" (%+ld)", s->v[i].weight);
	}
	putchar('\n');
}

static int patterns_list(const ts_patterns *p)
{
	printf("Pattern tables from:");
	for (size_t i = 0; i < ts_patterns_ndirs(p); i++)
		printf(" %s", ts_patterns_dir(p, i));
	printf("\n\nModel families (%zu)\n", ts_patterns_nfamilies(p));
	for (size_t i = 0; i < ts_patterns_nfamilies(p); i++) {
		const ts_family *f = ts_patterns_family(p, i);
		printf("  %-12s %s\n", f->name, f->description);
		printf("    %-10sattention %s, mlp %s%s; layers", "shape",
		       ts_attn_kind_name(f->attention), ts_mlp_kind_name(f->mlp),
		       f->half_layers ? ", half-layers" : "");
		for (size_t k = 0; k < f->nnum_layers; k++)
			printf("%s%ld", k ? ", " : " ", f->num_layers[k]);
		printf(" (%s)\n", f->file);
		describe_sels(p, "start", &f->layer_start);
		describe_sels(p, "detect", &f->detect);
	}
	printf("\nKernel categories (%zu) and the rules that lead to them\n",
	       ts_patterns_ncategories(p));
	for (size_t c = 0; c < ts_patterns_ncategories(p); c++) {
		const ts_category *cat = ts_patterns_category(p, c);
		printf("  %-26s %-14s %s\n", cat->name, ts_ktype_name(cat->type), cat->description);
		for (size_t r = 0; r < ts_patterns_nrules(p); r++) {
			const ts_rule *rule = ts_patterns_rule(p, r);
			if (rule->category == (int)c)
				printf("      %-24s %s\n", rule->name, rule->match);
		}
	}
	printf("\nContexts (a kernel's category where it runs; the first that applies wins)\n");
	for (size_t i = 0; i < ts_patterns_ncontexts(p); i++) {
		const ts_context *c = ts_patterns_context(p, i);
		printf("  %-30s -> %-18s %s\n", c->name, ts_patterns_category(p, (size_t)c->category)->name,
		       c->description);
		if (c->op)
			printf("      launched by an op matching %s\n", c->op);
		else
			printf("      between a kernel of after: and one of until: (%zu and %zu selectors)\n",
			       c->after.n, c->until.n);
	}
	return TS_EXIT_OK;
}

/* "explain -": one name per line on stdin, optionally "EVENT<TAB>NAME";
 * one TSV line out per name: type, category, stage, rule, short, name. */
static int explain_batch(const ts_patterns *p)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) > 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		const char *name = line;
		ts_cat cat = TS_CAT_KERNEL;
		char *tab = strchr(line, '\t');
		if (tab) {
			*tab = '\0';
			cat = strcmp(line, "gpu_memcpy") == 0 ? TS_CAT_GPU_MEMCPY
			    : strcmp(line, "gpu_memset") == 0 ? TS_CAT_GPU_MEMSET : TS_CAT_KERNEL;
			name = tab + 1;
		}
		ts_kclass c;
		ts_classify(p, cat, name, strlen(name), &c);
		printf("%s\t%s\t%s\t%s\t%s\t%s\n", ts_ktype_name(c.type),
		       ts_kclass_category(p, &c), ts_stage_hint_name(c.stage),
		       c.rule >= 0 ? ts_patterns_rule(p, (size_t)c.rule)->name : "-",
		       c.short_name, name);
	}
	free(line);
	return TS_EXIT_OK;
}

static void explain_one(const ts_patterns *p, ts_cat cat, const char *name)
{
	ts_kclass c;
	ts_classify(p, cat, name, strlen(name), &c);
	printf("name      %s\n", name);
	if (c.rule >= 0) {
		const ts_rule *r = ts_patterns_rule(p, (size_t)c.rule);
		printf("rule      %s (%s:%d)\n", r->name, r->file, r->line);
		printf("match     %s\n", r->match);
	} else {
		printf("rule      none: no rule matches (add one to patterns/kernels.yaml)\n");
	}
	if (c.passed >= 0 && c.bound >= 0) {
		const ts_kbound *b = ts_patterns_bound(p, (size_t)c.bound);
		const ts_rule *r = ts_patterns_rule(p, (size_t)c.passed);
		const ts_category *pc = ts_patterns_category(p, (size_t)r->category);
		printf("bound     %s (%s:%d): rule %s (%s) passed over: %s kernels are "
		       "never %s\n", b->name, b->file, b->line, r->name, pc->name, b->name,
		       ts_ktype_name(pc->type));
	}
	printf("type      %s\n", ts_ktype_name(c.type));
	printf("category  %s\n", ts_kclass_category(p, &c));
	/* what the category means beside its type (kernels.yaml) */
	const ts_category *k = ts_kclass_cat(p, &c);
	if (k && (k->mixer != TS_MIXER_BY_TYPE || c.type == TS_TYPE_ATTENTION)) {
		int mix = ts_patterns_category_mixer(p, k);
		printf("mixer     %s\n", mix >= 0 ? ts_patterns_mixer(p, (size_t)mix)->name : "none");
	}
	if (k && k->collective != TS_COLL_NONE)
		printf("collective %s\n", ts_collective_names[k->collective]);
	if (k && (k->bookkeeping || k->by_op))
		printf("meaning   %s\n", k->bookkeeping ? "bookkeeping (no layer's work)"
						  : "typed by its launching op (a context rule)");
	printf("stage     %s\n", ts_stage_hint_name(c.stage));
	printf("short     %s\n", c.short_name);
}

static int patterns_explain(const ts_patterns *p, const options *o)
{
	if (o->nargs < 3)
		ts_usage_error("%s", "patterns explain takes kernel names (quote each), or - to read "
			    "them from standard input");
	ts_cat cat = TS_CAT_KERNEL;
	if (o->event_cat) {
		if (strcmp(o->event_cat, "gpu_memcpy") == 0)
			cat = TS_CAT_GPU_MEMCPY;
		else if (strcmp(o->event_cat, "gpu_memset") == 0)
			cat = TS_CAT_GPU_MEMSET;
		else if (strcmp(o->event_cat, "kernel") != 0)
			ts_usage_error("--event: '%s' is not kernel, gpu_memcpy or gpu_memset", o->event_cat);
	}
	if (o->nargs == 3 && strcmp(o->args[2], "-") == 0)
		return explain_batch(p);
	/* one block per name, a blank line between */
	for (int i = 2; i < o->nargs; i++) {
		if (i > 2)
			putchar('\n');
		explain_one(p, cat, o->args[i]);
	}
	return TS_EXIT_OK;
}

/* tracestream patterns list|check|explain */
int ts_patterns_cmd(const options *o)
{
	if (o->nargs < 2)
		ts_usage_error("%s", "patterns needs a command: list, check or explain");
	const char *cmd = o->args[1];
	const char *dirs[32];
	size_t ndirs = 0;
	for (size_t i = 0; i < o->npattern_dirs; i++)
		dirs[ndirs++] = o->pattern_dirs[i];
	bool check = strcmp(cmd, "check") == 0;
	if (check)
		for (int i = 2; i < o->nargs && ndirs < 15; i++)
			dirs[ndirs++] = o->args[i];
	else if (strcmp(cmd, "list") != 0 && strcmp(cmd, "explain") != 0)
		ts_usage_error("unknown patterns command '%s' (list, check or explain)", cmd);
	else if (strcmp(cmd, "list") == 0 && o->nargs > 2)
		ts_usage_error("patterns list takes no arguments; unexpected '%s'", o->args[2]);
	ts_status st;
	ts_patterns *p = ts_patterns_cmd_load(dirs, ndirs, &st);
	if (!p)
		return st == TS_ERR_IO ? TS_EXIT_USAGE_IO : TS_EXIT_PATTERNS;
	int rc;
	if (check) {
		printf("ok: %zu categories, %zu rules, %zu operator rules, %zu call-site skips,"
		       " %zu model families, %zu contexts, %zu token-grid selectors from",
		       ts_patterns_ncategories(p), ts_patterns_nrules(p),
		       ts_patterns_noprules(p), ts_patterns_nskips(p), ts_patterns_nfamilies(p),
		       ts_patterns_ncontexts(p), ts_patterns_token_grids(p)->n);
		for (size_t i = 0; i < ts_patterns_ndirs(p); i++)
			printf(" %s", ts_patterns_dir(p, i));
		putchar('\n');
		rc = TS_EXIT_OK;
	} else if (strcmp(cmd, "list") == 0) {
		rc = patterns_list(p);
	} else {
		rc = patterns_explain(p, o);
	}
	ts_patterns_free(p);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "tracestream: <stdout>: write error: %s\n", strerror(errno));
		return TS_EXIT_USAGE_IO;
	}
	return rc;
}

