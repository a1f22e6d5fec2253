/*
 * patterns.c - the kernel and model pattern tables: the YAML loader
 * (libcyaml), strict validation, FILE:LINE:COLUMN errors, table
 * directories (see patterns.h; the parts in patterns_*.c, through
 * patterns_int.h).
 */
#include "tables/patterns_int.h"
#include "input/base/grow.h"
#include "input/base/hash.h"

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>

#include <cyaml/cyaml.h>
#include <dirent.h>
#include <limits.h>
#include <pcre2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/numtext.h"
#include "tables/workload.h"
#include "tables/yamlpos.h"

#ifndef TS_DATADIR
#define TS_DATADIR "/usr/local/share/tracestream"
#endif
#ifndef TS_SOURCE_PATTERNS
#define TS_SOURCE_PATTERNS "patterns"
#endif

/* ---------------------------------------------------------------- names */

static const char *const type_names[TS_TYPE_COUNT] = {
	"attention", "moe", "gemm", "norm", "activation", "rope", "kv_cache",
	"quantization", "communication", "memory", "elementwise", "reduce",
	"sort_topk", "sampling", "embedding", "other",
};

const char *ts_ktype_name(ts_ktype t)
{
	return (unsigned)t < TS_TYPE_COUNT ? type_names[t] : "other";
}

const char *ts_stage_hint_name(ts_stage_hint s)
{
	return s == TS_STAGE_PREFILL ? "prefill" : s == TS_STAGE_DECODE ? "decode" : "none";
}

static const char *const attn_names[] = { "mha", "mla", "gdn", "hybrid" };
static const char *const mlp_names[] = { "fc", "moe", "mixed" };

const char *ts_attn_kind_name(ts_attn_kind k)
{
	return (unsigned)k < 4 ? attn_names[k] : "mha";
}

const char *ts_mlp_kind_name(ts_mlp_kind k)
{
	return (unsigned)k < 3 ? mlp_names[k] : "fc";
}

static int lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

void ts_pat_fail(ts_patterns *p, const char *file, int line, int col, const char *fmt, ...)
{
	if (p->nerrors < p->max_errors) {
		ts_pattern_error *x = &p->errors[p->nerrors];
		snprintf(x->file, sizeof x->file, "%s", file);
		x->e = (ts_error){ .status = TS_ERR_PATTERNS, .line = line, .col = col };
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(x->e.msg, sizeof x->e.msg, fmt, ap);
		va_end(ap);
	}
	p->nerrors++;
}

/* Is the byte at 1-based line:col of file a quote? */
static bool quoted_at(const char *file, int line, int col)
{
	FILE *fp = fopen(file, "rb");
	if (!fp)
		return false;
	int c, l = 1, k = 1;
	bool q = false;
	while ((c = fgetc(fp)) != EOF) {
		if (l == line && k == col) {
			q = c == '\'' || c == '"';
			break;
		}
		if (c == '\n')
			l++, k = 1;
		else
			k++;
	}
	fclose(fp);
	return q;
}

/* An error at a YAML path of file: FILE:LINE:COLUMN: message. */
void ts_pat_error_at(ts_patterns *p, const char *file, const ts_ypath *path,
		     int depth, int col_offset, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

void ts_pat_error_at(ts_patterns *p, const char *file, const ts_ypath *path,
		     int depth, int col_offset, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	int line, col;
	ts_yaml_locate(file, path, depth, false, &line, &col);
	/* An offset into a quoted scalar starts after the quote. */
	if (col_offset > 0 && quoted_at(file, line, col))
		col_offset++;
	ts_pat_fail(p, file, line, col + col_offset, "%s", msg);
}

static void *own(ts_patterns *p, void *mem)
{
	if (mem && ts_grow((void **)&p->allocs, &p->allocs_cap, p->nallocs + 1, sizeof(void *), 32, SIZE_MAX, false))
		p->allocs[p->nallocs++] = mem;
	return mem;
}

/* ----------------------------------------------------- validation helpers */

static int find_category(const ts_patterns *p, const char *name)
{
	for (size_t i = 0; i < p->ncats; i++)
		if (strcmp(p->cats[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool ts_pat_parse_long(const char *s, long lo, long hi, long *out)
{
	int64_t v;
	if (ts_num_int64(s, strlen(s), &v) != TS_OK || strchr(s, '.') || strchr(s, 'e') ||
	    strchr(s, 'E') || v < lo || v > hi)
		return false;
	*out = (long)v;
	return true;
}

/* ------------------------------------------------------ kernel rule files */

/* Lines of the items of a top-level sequence, read in one pass (rules and
 * categories remember where they were defined, for explain and list).
 * Caller frees; NULL (lines unknown) when memory runs out. */
int *ts_pat_item_lines(const char *file, const char *key, unsigned n)
{
	int *lines = calloc(n ? n : 1, sizeof *lines);
	if (lines && n)
		ts_yaml_seq_lines(file, key, lines, (int)n);
	return lines;
}

const char *const ts_collective_names[TS_COLL_COUNT] = {
	"none", "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "unknown",
};

/* A category's mixer: and collective: words (0 where not given); false
 * with an error at the word where it is none of them. */
static bool category_attrs(ts_patterns *p, const char *file, const y_category *c, int i,
			   ts_category *out)
{
	ts_ypath path[] = { { "categories", 0 }, { NULL, i }, { "collective", 0 } };
	if (!ts_pat_category_mixer(p, file, c->mixer, i, &out->mixer))
		return false;
	int k = c->collective ? lookup(ts_collective_names, TS_COLL_COUNT, c->collective) : 0;
	if (k < 0) {
		ts_pat_error_at(p, file, path, 3, 0, "unknown collective '%s' (one of none, all_reduce, "
				"all_gather, reduce_scatter, all_to_all, broadcast, unknown)", c->collective);
		return false;
	}
	out->collective = (ts_collective)k;
	out->bookkeeping = c->bookkeeping;
	out->by_op = c->by_op;
	return true;
}

static void add_categories(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = ts_pat_item_lines(file, "categories", k->categories_count);
	for (unsigned i = 0; i < k->categories_count; i++) {
		y_category *c = &k->categories[i];
		ts_ypath path[] = { { "categories", 0 }, { NULL, (int)i }, { "type", 0 } };
		int t = lookup(type_names, TS_TYPE_COUNT, c->type);
		if (t < 0) {
			ts_pat_error_at(p, file, path, 3, 0,
				 "unknown type '%s' (one of attention, moe, gemm, norm, activation, rope, kv_cache, quantization, communication, memory, elementwise, reduce, sort_topk, sampling, embedding, other)",
				 c->type);
			continue;
		}
		int existing = find_category(p, c->name);
		if (existing >= 0) {
			/* Same file or directory: a mistake. Earlier directory
			 * (user's): it overrides this built-in definition. */
			if (strcmp(p->cats[existing].file, file) == 0) {
				path[2].key = "name";
				ts_pat_error_at(p, file, path, 3, 0, "category '%s' is defined twice",
					 c->name);
			}
			continue;
		}
		if (!ts_grow((void **)&p->cats, &p->cats_cap, p->ncats + 1, sizeof *p->cats, 32, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		ts_category x = { .name = c->name, .type = (ts_ktype)t,
			.description = c->description ? c->description : "",
			.file = file, .line = lines ? lines[i] : 0 };
		if (!category_attrs(p, file, c, (int)i, &x))
			continue;
		p->cats[p->ncats++] = x;
	}
	free(lines);
}

/* A set of names (open addressing, at most half full): true when name
 * was there already. slots is a power of two. */
static bool name_seen(const char **set, size_t slots, const char *name)
{
	uint64_t h = ts_hash_bytes(name, strlen(name));
	for (size_t i = (size_t)h & (slots - 1);; i = (i + 1) & (slots - 1)) {
		if (!set[i]) {
			set[i] = name;
			return false;
		}
		if (strcmp(set[i], name) == 0)
			return true;
	}
}

static void add_rules(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = ts_pat_item_lines(file, "rules", k->rules_count);
	/* rule names of this file, for the used-twice check in linear time */
	size_t slots = 16;
	while (slots < 2 * (size_t)k->rules_count)
		slots *= 2;
	const char **names = calloc(slots, sizeof *names);
	for (unsigned i = 0; i < k->rules_count; i++) {
		y_rule *r = &k->rules[i];
		ts_ypath path[] = { { "rules", 0 }, { NULL, (int)i }, { "match", 0 } };
		ts_rule rule = { .name = r->name, .match = r->match, .file = file,
				 .short_tmpl = r->short_tmpl, .events = TS_RULE_KERNEL,
				 .words = r->words };
		bool ok = true;
		if (names && name_seen(names, slots, r->name)) {
			path[2].key = "name";
			ts_pat_error_at(p, file, path, 3, 0, "rule name '%s' is used twice", r->name);
			ok = false;
		}
		path[2].key = "match";
		rule.re = ts_pat_compile(p, r->match, file, path, 3);
		ok &= rule.re != NULL;
		rule.category = find_category(p, r->category);
		if (rule.category < 0) {
			path[2].key = "category";
			ts_pat_error_at(p, file, path, 3, 0,
				 "unknown category '%s' (declare it under categories:)",
				 r->category);
			ok = false;
		}
		if (r->stage) {
			static const char *const stages[] = { "none", "prefill", "decode" };
			int s = lookup(stages, 3, r->stage);
			if (s < 0) {
				path[2].key = "stage";
				ts_pat_error_at(p, file, path, 3, 0,
					 "unknown stage '%s' (prefill, decode or none)", r->stage);
				ok = false;
			} else {
				rule.stage = (ts_stage_hint)s;
			}
		}
		if (r->events_count) {
			static const char *const evs[] = { "kernel", "gpu_memcpy", "gpu_memset" };
			rule.events = 0;
			for (unsigned e = 0; e < r->events_count; e++) {
				int b = lookup(evs, 3, r->events[e]);
				if (b < 0) {
					ts_ypath ep[] = { { "rules", 0 }, { NULL, (int)i },
							  { "events", 0 }, { NULL, (int)e } };
					ts_pat_error_at(p, file, ep, 4, 0,
						 "unknown event category '%s' (kernel, gpu_memcpy or gpu_memset)",
						 r->events[e]);
					ok = false;
				} else {
					rule.events |= 1u << b;
				}
			}
		}
		if (r->short_tmpl && rule.re) {
			int groups = ts_pat_capture_count(rule.re);
			for (const char *s = r->short_tmpl; *s; s++) {
				if (s[0] == '$' && s[1] >= '0' && s[1] <= '9' && s[1] - '0' > groups) {
					path[2].key = "short";
					ts_pat_error_at(p, file, path, 3, (int)(s - r->short_tmpl),
						 "short name uses $%c but the regex has %d capture group%s",
						 s[1], groups, groups == 1 ? "" : "s");
					ok = false;
					break;
				}
			}
		}
		if (!ok)
			continue;
		if (!ts_grow((void **)&p->rules, &p->rules_cap, p->nrules + 1, sizeof *p->rules, 32, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		rule.line = lines ? lines[i] : 0;
		p->rules[p->nrules++] = rule;
	}
	free(lines);
	free(names);
}

/* ------------------------------------------------------ operator rules */

/* An expression of an operator rule that did not compile: at its value,
 * the column moved to the problem's offset in it. */
static void expr_error(ts_patterns *p, const char *file, const ts_ypath *path, int depth,
		       const char *key, const char *src, const ts_error *e)
{
	ts_pat_error_at(p, file, path, depth, (int)(e->byte ? e->byte - 1 : 0), "%s '%s': %s", key,
			src, e->msg);
}

/* The expressions of operator rule i: its conditions (where), heads, the
 * workload's name, tokens, and the roofline's FLOPs and bytes (without
 * a value the call still has its workload). False when one fails. */
static bool compile_exprs(ts_patterns *p, const char *file, const y_operator *o, unsigned i,
			  ts_oprule *r)
{
	bool ok = true;
	ts_error e;
	for (unsigned j = 0; j < o->where_count; j++) {
		ts_ypath wp[] = { { "operators", 0 }, { NULL, (int)i }, { "where", 0 },
				  { NULL, (int)j } };
		if (!ts_wcond_compile(o->where[j], &r->cond[j], &e)) {
			expr_error(p, file, wp, 4, "where", o->where[j], &e);
			ok = false;
		}
	}
	r->ncond = (int)o->where_count;
	struct {
		const char *key, *src;
		ts_wexpr *e;
		bool *has;
	} x[] = { { "heads", o->heads, &r->heads, &r->has_heads },
		  { "workload", o->workload, NULL, NULL },
		  { "tokens", o->tokens, &r->tokens, &r->has_tokens },
		  { "flops", o->flops, &r->flops, &r->has_flops },
		  { "bytes", o->bytes, &r->bytes, &r->has_bytes } };
	for (size_t c = 0; c < sizeof x / sizeof *x; c++) {
		if (!x[c].src)
			continue;
		bool done = x[c].e ? ts_wexpr_compile(x[c].src, strlen(x[c].src), x[c].e, &e)
				   : ts_wtmpl_compile(x[c].src, &r->name, &e);
		if (!done) {
			ts_ypath path[] = { { "operators", 0 }, { NULL, (int)i }, { x[c].key, 0 } };
			expr_error(p, file, path, 3, x[c].key, x[c].src, &e);
			ok = false;
		}
		if (x[c].has)
			*x[c].has = true;
	}
	return ok;
}

static void add_operators(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = ts_pat_item_lines(file, "operators", k->operators_count);
	for (unsigned i = 0; i < k->operators_count; i++) {
		y_operator *o = &k->operators[i];
		ts_ypath path[] = { { "operators", 0 }, { NULL, (int)i }, { "op", 0 } };
		ts_oprule r = { .kind = o->kind, .op = o->op, .workload = o->workload,
				.description = o->description ? o->description : "",
				.file = file, .line = lines ? lines[i] : 0,
				.sets_context = strcmp(o->kind, "gemm") == 0 };
		bool ok = true;
		if (!o->op == !o->steps) {
			path[2].key = o->op ? "steps" : "op";
			ts_pat_error_at(p, file, path, 2, 0, "an operator rule has either op (one op) "
				 "or steps (a sequence of ops), not %s", o->op ? "both" : "neither");
			ok = false;
		} else if (o->op) {
			r.re = ts_pat_compile(p, o->op, file, path, 3);
			ok &= r.re != NULL;
			if (o->skip || o->shapes) {
				path[2].key = o->skip ? "skip" : "shapes";
				ts_pat_error_at(p, file, path, 3, 0, "%s belongs to a sequence rule (steps)",
					 path[2].key);
				ok = false;
			}
		} else {
			size_t nseq = 0;
			for (size_t j = 0; j < p->noprules; j++)
				nseq += p->oprules[j].nsteps > 0;
			if (nseq >= TS_SEQ_RULES) {
				path[2].key = "steps";
				ts_pat_error_at(p, file, path, 3, 0, "at most %d sequence rules", TS_SEQ_RULES);
				ok = false;
			}
			for (unsigned j = 0; j < o->steps_count; j++) {
				ts_ypath sp[] = { { "operators", 0 }, { NULL, (int)i }, { "steps", 0 },
						  { NULL, (int)j } };
				r.step[j] = ts_pat_compile(p, o->steps[j], file, sp, 4);
				ok &= r.step[j] != NULL;
			}
			r.nsteps = (int)o->steps_count;
			if (o->skip) {
				path[2].key = "skip";
				r.skip = ts_pat_compile(p, o->skip, file, path, 3);
				ok &= r.skip != NULL;
			}
			long v = 0;
			if (o->shapes && !ts_pat_parse_long(o->shapes, 0, (long)o->steps_count - 1, &v)) {
				path[2].key = "shapes";
				ts_pat_error_at(p, file, path, 3, 0, "shapes '%s' is not a step, 0 to %u",
					 o->shapes, o->steps_count - 1);
				ok = false;
			}
			r.shapes = (int)v;
		}
		ok &= compile_exprs(p, file, o, i, &r);
		for (unsigned j = 0; j < o->ranks_count; j++) {
			long v;
			if (strcmp(o->ranks[j], "any") == 0) {
				r.ranks[j] = -1;
			} else if (ts_pat_parse_long(o->ranks[j], 0, TS_MAX_RANK, &v)) {
				r.ranks[j] = (int8_t)v;
			} else {
				ts_ypath rp[] = { { "operators", 0 }, { NULL, (int)i }, { "ranks", 0 },
						  { NULL, (int)j } };
				ts_pat_error_at(p, file, rp, 4, 0,
					 "rank '%s' is not a whole number from 0 to %d, or any",
					 o->ranks[j], TS_MAX_RANK);
				ok = false;
			}
		}
		r.nranks = (int)o->ranks_count;
		static const char *const attends[] = { "none", "causal", "bidirectional" };
		int at = o->attends ? lookup(attends, 3, o->attends) : 0;
		if (at < 0) {
			path[2].key = "attends";
			ts_pat_error_at(p, file, path, 3, 0, "attends '%s' is none of none, causal, "
					"bidirectional", o->attends);
			ok = false;
		}
		r.attends = (ts_attends)(at > 0 ? at : 0);
		r.dtype_operand = -1;
		if (o->dtype) {
			long v;
			if (o->dtype[0] == 'a' && ts_pat_parse_long(o->dtype + 1, 0, TS_MAX_OPERANDS - 1, &v)) {
				r.dtype_operand = (int)v;
			} else {
				path[2].key = "dtype";
				ts_pat_error_at(p, file, path, 3, 0,
					 "dtype '%s' is not an operand a0 to a%d", o->dtype,
					 TS_MAX_OPERANDS - 1);
				ok = false;
			}
		}
		if (!ok)
			continue;
		r.reads_moe = ts_wtmpl_reads_moe(&r.name) ||
			      (r.has_tokens && ts_wexpr_reads_moe(&r.tokens)) ||
			      (r.has_heads && ts_wexpr_reads_moe(&r.heads)) ||
			      (r.has_flops && ts_wexpr_reads_moe(&r.flops)) ||
			      (r.has_bytes && ts_wexpr_reads_moe(&r.bytes));
		for (int j = 0; j < r.ncond; j++)
			r.reads_moe |= ts_wcond_reads_moe(&r.cond[j]);
		if (!ts_grow((void **)&p->oprules, &p->oprules_cap, p->noprules + 1,
			  sizeof *p->oprules, 32, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		p->oprules[p->noprules++] = r;
	}
	free(lines);
}

static bool convert_sels_at(ts_patterns *p, const char *file, const ts_ypath *pre,
			    int npre, const y_sel *in, unsigned n, bool weighted,
			    ts_selectors *out);
static void add_context_rules(ts_patterns *p, const char *file, y_kernels *k);

static void add_skips(ts_patterns *p, const char *file, y_kernels *k)
{
	for (unsigned i = 0; i < k->callsite_skip_count; i++) {
		ts_ypath path[] = { { "callsite_skip", 0 }, { NULL, (int)i }, { "match", 0 } };
		ts_regex *re = ts_pat_compile(p, k->callsite_skip[i].match, file, path, 3);
		if (!re)
			continue;
		if (!ts_grow((void **)&p->skips, &p->skips_cap, p->nskips + 1, sizeof *p->skips, 32, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		p->skips[p->nskips++] = re;
	}
}

static bool has_opkind(const ts_patterns *p, const char *kind)
{
	for (size_t i = 0; i < p->noprules; i++)
		if (strcmp(p->oprules[i].kind, kind) == 0)
			return true;
	return false;
}

static bool convert_opset(ts_patterns *p, const char *file, const char *key,
			  char **in, unsigned n)
{
	bool ok = true;
	for (unsigned i = 0; i < n; i++) {
		if (has_opkind(p, in[i]))
			continue;
		ts_ypath path[] = { { "operators", 0 }, { key, 0 }, { NULL, (int)i } };
		ts_pat_error_at(p, file, path, 3, 0,
			 "no operator rule has kind '%s' (see operators: in the kernel tables)",
			 in[i]);
		ok = false;
	}
	return ok;
}

/* ---------------------------------------------------------- model files */

static bool convert_sels_at(ts_patterns *p, const char *file, const ts_ypath *pre,
			    int npre, const y_sel *in, unsigned n, bool weighted,
			    ts_selectors *out)
{
	bool ok = true;
	out->n = 0;
	out->v = n ? own(p, calloc(n, sizeof *out->v)) : NULL;
	if (n && !out->v) {
		ts_pat_fail(p, file, 0, 0, "out of memory");
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		const y_sel *s = &in[i];
		ts_selector *d = &out->v[out->n];
		ts_ypath path[8];
		int depth = 0;
		for (int j = 0; j < npre && j < 6; j++)
			path[depth++] = pre[j];
		path[depth++] = (ts_ypath){ NULL, (int)i };
		int given = (s->category != NULL) + (s->type != NULL) + (s->match != NULL);
		if (given != 1) {
			ts_pat_error_at(p, file, path, depth, 0,
				 "a selector needs exactly one of category, type or match (found %d)",
				 given);
			ok = false;
			continue;
		}
		bool this_ok = true;
		if (s->category) {
			d->kind = TS_SEL_CATEGORY;
			d->category = find_category(p, s->category);
			if (d->category < 0) {
				path[depth] = (ts_ypath){ "category", 0 };
				ts_pat_error_at(p, file, path, depth + 1, 0, "unknown category '%s'",
					 s->category);
				this_ok = false;
			}
		} else if (s->type) {
			d->kind = TS_SEL_TYPE;
			int t = lookup(type_names, TS_TYPE_COUNT, s->type);
			if (t < 0) {
				path[depth] = (ts_ypath){ "type", 0 };
				ts_pat_error_at(p, file, path, depth + 1, 0, "unknown type '%s'", s->type);
				this_ok = false;
			}
			d->type = (ts_ktype)(t < 0 ? TS_TYPE_OTHER : t);
		} else {
			d->kind = TS_SEL_MATCH;
			d->match = s->match;
			path[depth] = (ts_ypath){ "match", 0 };
			d->re = ts_pat_compile(p, s->match, file, path, depth + 1);
			this_ok = d->re != NULL;
		}
		if (s->weight) {
			path[depth] = (ts_ypath){ "weight", 0 };
			if (!weighted) {
				ts_pat_error_at(p, file, path, depth + 1, 0,
					 "weight is only used in detect rules");
				this_ok = false;
			} else if (!ts_pat_parse_long(s->weight, -1000, 1000, &d->weight)) {
				ts_pat_error_at(p, file, path, depth + 1, 0,
					 "weight '%s' is not a whole number from -1000 to 1000",
					 s->weight);
				this_ok = false;
			}
		} else if (weighted) {
			d->weight = 1;
		}
		if (this_ok)
			out->n++;
		ok &= this_ok;
	}
	return ok;
}

static bool convert_sels(ts_patterns *p, const char *file, const char *k1,
			 const char *k2, const y_sel *in, unsigned n, bool weighted,
			 ts_selectors *out)
{
	ts_ypath pre[2] = { { k1, 0 }, { k2, 0 } };
	return convert_sels_at(p, file, pre, k2 ? 2 : 1, in, n, weighted, out);
}

/* A top-level selector list of a kernel table (key), added to *into. */
static bool add_selector_list(ts_patterns *p, const char *file, const char *key,
			      const y_sel *sels, unsigned n, ts_selectors *into)
{
	if (!n)
		return true;
	ts_selectors t;
	ts_ypath pre[] = { { key, 0 } };
	if (convert_sels_at(p, file, pre, 1, sels, n, false, &t) && t.n) {
		ts_selector *v = own(p, calloc(into->n + t.n, sizeof *v));
		if (!v) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			return false;
		}
		if (into->n)
			memcpy(v, into->v, into->n * sizeof *v);
		memcpy(v + into->n, t.v, t.n * sizeof *v);
		into->v = v;
		into->n += t.n;
	}
	return true;
}

/* token_grids:, query_grids:, row_grids:, step_inputs:, training_kernels: and contexts:
 * of a kernel table. */
static void add_context_rules(ts_patterns *p, const char *file, y_kernels *k)
{
	if (!add_selector_list(p, file, "token_grids", k->token_grids, k->token_grids_count,
			       &p->token_grids) ||
	    !add_selector_list(p, file, "query_grids", k->query_grids, k->query_grids_count,
			       &p->query_grids) ||
	    !add_selector_list(p, file, "row_grids", k->row_grids, k->row_grids_count,
			       &p->row_grids) ||
	    !add_selector_list(p, file, "step_inputs", k->step_inputs, k->step_inputs_count,
			       &p->step_inputs) ||
	    !add_selector_list(p, file, "training_kernels", k->training_kernels,
			       k->training_kernels_count, &p->training))
		return;
	int *lines = ts_pat_item_lines(file, "contexts", k->contexts_count);
	for (unsigned i = 0; i < k->contexts_count; i++) {
		const y_context *y = &k->contexts[i];
		ts_context c = { .name = y->name, .op = y->op,
				 .description = y->description ? y->description : "",
				 .file = file, .line = lines ? lines[i] : 0 };
		ts_ypath path[] = { { "contexts", 0 }, { NULL, (int)i }, { "category", 0 } };
		bool ok = true;
		c.category = find_category(p, y->category);
		if (c.category < 0) {
			ts_pat_error_at(p, file, path, 3, 0,
				 "unknown category '%s' (declare it under categories:)", y->category);
			ok = false;
		}
		path[2].key = "kernels";
		if (!y->kernels_count) {
			ts_pat_error_at(p, file, path + 0, 2, 0,
				 "a context needs kernels: (the kernels it gives the category)");
			ok = false;
		}
		ok &= convert_sels_at(p, file, path, 3, y->kernels, y->kernels_count,
				      false, &c.kernels);
		if ((y->op != NULL) == (y->after_count != 0)) {
			ts_pat_error_at(p, file, path, 2, 0,
				 "a context needs exactly one of op: (the launching CPU op) "
				 "or after: (the kernels that open it)");
			ok = false;
		}
		if (y->after_count && !y->until_count) {
			ts_pat_error_at(p, file, path, 2, 0,
				 "a context with after: needs until: (the kernels that close it)");
			ok = false;
		}
		if (y->op) {
			path[2].key = "op";
			c.op_re = ts_pat_compile(p, y->op, file, path, 3);
			ok &= c.op_re != NULL;
		}
		if (y->callsite && !y->op) {
			ts_pat_error_at(p, file, path, 2, 0,
				 "callsite: narrows op: (the call site of the launching op); a context "
				 "with callsite: needs op:");
			ok = false;
		} else if (y->callsite) {
			path[2].key = "callsite";
			c.callsite_re = ts_pat_compile(p, y->callsite, file, path, 3);
			ok &= c.callsite_re != NULL;
		}
		path[2].key = "after";
		ok &= convert_sels_at(p, file, path, 3, y->after, y->after_count, false, &c.after);
		path[2].key = "until";
		ok &= convert_sels_at(p, file, path, 3, y->until, y->until_count, false, &c.until);
		if (ok && p->ncontexts >= TS_MAX_CONTEXTS) {
			ts_pat_error_at(p, file, path, 2, 0, "more than %d contexts", TS_MAX_CONTEXTS);
			ok = false;
		}
		if (!ok)
			continue;
		if (!ts_grow((void **)&p->contexts, &p->contexts_cap, p->ncontexts + 1,
			  sizeof *p->contexts, 32, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		p->contexts[p->ncontexts++] = c;
	}
	free(lines);
}

/* groups: of a kernel table (compare). A name defined in an earlier
 * directory (the user's) hides this one; twice in one file is an error. */
static void add_groups(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = ts_pat_item_lines(file, "groups", k->groups_count);
	for (unsigned i = 0; i < k->groups_count; i++) {
		const y_group *y = &k->groups[i];
		ts_ypath path[] = { { "groups", 0 }, { NULL, (int)i }, { "name", 0 } };
		ts_group g = { .name = y->name, .description = y->description ? y->description : "",
			       .file = file, .line = lines ? lines[i] : 0 };
		bool ok = true, hidden = false;
		for (size_t j = 0; j < p->ngroups; j++)
			if (strcmp(p->groups[j].name, y->name) == 0) {
				if (strcmp(p->groups[j].file, file) == 0) {
					ts_pat_error_at(p, file, path, 3, 0, "group '%s' is defined twice (first at line %d)",
						 y->name, p->groups[j].line);
					ok = false;
				}
				hidden = true;
			}
		if (y->split) {
			if (strcmp(y->split, "category") == 0) {
				g.split = true;
			} else if (strcmp(y->split, "none") != 0) {
				path[2].key = "split";
				ts_pat_error_at(p, file, path, 3, 0, "split '%s' is not category or none", y->split);
				ok = false;
			}
		}
		path[2].key = "kernels";
		if (!y->kernels_count) {
			ts_pat_error_at(p, file, path, 2, 0, "a group needs kernels: (the selectors that pick its kernels)");
			ok = false;
		}
		ok &= convert_sels_at(p, file, path, 3, y->kernels, y->kernels_count, false, &g.kernels);
		if (!ok || hidden)
			continue;
		if (p->ngroups >= TS_MAX_GROUPS) {
			ts_pat_error_at(p, file, path, 2, 0, "more than %d groups", TS_MAX_GROUPS);
			break;
		}
		if (!ts_grow((void **)&p->groups, &p->groups_cap, p->ngroups + 1, sizeof *p->groups, 32, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		p->groups[p->ngroups++] = g;
	}
	free(lines);
}

static bool align_cost(ts_patterns *p, const char *file, const char *key,
		       const char *v, long *out)
{
	if (!v)
		return true;
	if (ts_pat_parse_long(v, 0, 1000, out))
		return true;
	ts_ypath path[] = { { "align", 0 }, { key, 0 } };
	ts_pat_error_at(p, file, path, 2, 0, "%s '%s' is not a whole number from 0 to 1000", key, v);
	return false;
}

/* fusions: and align: of a kernel table; after every file's groups. */
static void add_fusions(ts_patterns *p, const char *file, y_kernels *k)
{
	if (k->align && !p->align_set) {
		ts_align_costs c = p->align;
		const y_align *y = k->align;
		bool ok = align_cost(p, file, "same_category", y->same_category, &c.same_category);
		ok &= align_cost(p, file, "same_group", y->same_group, &c.same_group);
		ok &= align_cost(p, file, "fused", y->fused, &c.fused);
		ok &= align_cost(p, file, "join", y->join, &c.join);
		ok &= align_cost(p, file, "gap", y->gap, &c.gap);
		ok &= align_cost(p, file, "different", y->different, &c.different);
		if (ok) {
			p->align = c;
			p->align_set = true;
		}
	}
	int *lines = ts_pat_item_lines(file, "fusions", k->fusions_count);
	for (unsigned i = 0; i < k->fusions_count; i++) {
		const y_fusion *y = &k->fusions[i];
		ts_ypath path[] = { { "fusions", 0 }, { NULL, (int)i }, { "fused", 0 }, { NULL, 0 } };
		ts_fusion f = { .name = y->name, .description = y->description ? y->description : "",
				.file = file, .line = lines ? lines[i] : 0 };
		bool ok = true;
		if (!y->fused_count) {
			ts_pat_error_at(p, file, path, 2, 0, "a fusion needs fused: (the kernels that do the parts' work)");
			ok = false;
		}
		ok &= convert_sels_at(p, file, path, 3, y->fused, y->fused_count, false, &f.fused);
		path[2].key = "maybe";
		ok &= convert_sels_at(p, file, path, 3, y->maybe, y->maybe_count, false, &f.maybe);
		path[2].key = "parts";
		if (y->parts_count < 2 || y->parts_count > TS_MAX_FUSION_PARTS) {
			ts_pat_error_at(p, file, path, 2, 0, "a fusion needs parts: 2 to %d group names",
				 TS_MAX_FUSION_PARTS);
			ok = false;
		}
		for (unsigned j = 0; j < y->parts_count && j < TS_MAX_FUSION_PARTS; j++) {
			int g = -1;
			for (size_t q = 0; q < p->ngroups; q++)
				if (strcmp(p->groups[q].name, y->parts[j]) == 0)
					g = (int)q;
			if (g < 0) {
				path[3].index = (int)j;
				ts_pat_error_at(p, file, path, 4, 0, "unknown group '%s' (declare it under groups:)",
					 y->parts[j]);
				ok = false;
			}
			f.parts[f.nparts++] = g;
		}
		if (!ok)
			continue;
		if (p->nfusions >= TS_MAX_FUSIONS) {
			ts_pat_error_at(p, file, path, 2, 0, "more than %d fusions", TS_MAX_FUSIONS);
			break;
		}
		if (!ts_grow((void **)&p->fusions, &p->fusions_cap, p->nfusions + 1, sizeof *p->fusions, 32, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		p->fusions[p->nfusions++] = f;
	}
	free(lines);
}

/* moe_configs: whole sizes, weight_bits a positive decimal. */
static bool convert_moecfgs(ts_patterns *p, const char *file, const y_family *f, ts_family *fam)
{
	if (!f->moe_configs_count)
		return true;
	fam->moe = own(p, calloc(f->moe_configs_count, sizeof *fam->moe));
	if (!fam->moe)
		return false;
	bool ok = true;
	for (unsigned i = 0; i < f->moe_configs_count; i++) {
		const y_moecfg *y = &f->moe_configs[i];
		ts_moecfg *c = &fam->moe[i];
		c->name = y->name;
		c->family = f->family;
		struct {
			const char *key, *src;
			int64_t *v;
		} sizes[] = { { "experts", y->experts, &c->experts }, { "topk", y->topk, &c->topk },
			      { "hidden", y->hidden, &c->hidden },
			      { "intermediate", y->intermediate, &c->intermediate } };
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
			long v;
			if (ts_pat_parse_long(sizes[k].src, 1, 100000000, &v)) {
				*sizes[k].v = v;
				continue;
			}
			ts_ypath mp[] = { { "moe_configs", 0 }, { NULL, (int)i }, { sizes[k].key, 0 } };
			ts_pat_error_at(p, file, mp, 3, 0, "%s '%s' is not a whole number from 1 to 100000000",
				 sizes[k].key, sizes[k].src);
			ok = false;
		}
		if (ok && c->topk > c->experts) {
			ts_ypath mp[] = { { "moe_configs", 0 }, { NULL, (int)i }, { "topk", 0 } };
			ts_pat_error_at(p, file, mp, 3, 0, "topk %" PRId64 " is more than the %" PRId64 " experts",
				 c->topk, c->experts);
			ok = false;
		}
		if (y->weight_bits) {
			char *end;
			errno = 0;
			c->weight_bits = strtod(y->weight_bits, &end);
			if (errno || end == y->weight_bits || *end || !(c->weight_bits > 0) ||
			    c->weight_bits > 64) {
				ts_ypath mp[] = { { "moe_configs", 0 }, { NULL, (int)i },
						  { "weight_bits", 0 } };
				ts_pat_error_at(p, file, mp, 3, 0,
					 "weight_bits '%s' is not a number of bits above 0, at most 64",
					 y->weight_bits);
				ok = false;
			}
		}
	}
	fam->nmoe = f->moe_configs_count;
	return ok;
}

static void add_family(ts_patterns *p, const char *file, y_family *f)
{
	ts_family fam = { .name = f->family, .file = file,
			  .description = f->description ? f->description : "" };
	bool ok = true;
	ts_ypath path[] = { { "attention", 0 } };
	if (f->sure_score && !ts_pat_parse_long(f->sure_score, 1, 100000, &fam.sure_score)) {
		path[0].key = "sure_score";
		ts_pat_error_at(p, file, path, 1, 0, "sure_score '%s' is not a whole number from 1 to 100000",
			 f->sure_score);
		ok = false;
	}
	if (f->half_layers) {
		/* libcyaml takes any word for a bool; be strict. */
		static const char *const yes[] = { "true", "yes" }, *const no[] = { "false", "no" };
		if (lookup(yes, 2, f->half_layers) >= 0) {
			fam.half_layers = true;
		} else if (lookup(no, 2, f->half_layers) < 0) {
			path[0].key = "half_layers";
			ts_pat_error_at(p, file, path, 1, 0, "half_layers '%s' is not true or false",
				 f->half_layers);
			ok = false;
		}
		path[0].key = "attention";
	}
	int a = lookup(attn_names, 4, f->attention);
	if (a < 0) {
		ts_pat_error_at(p, file, path, 1, 0, "unknown attention '%s' (mha, mla, gdn or hybrid)",
			 f->attention);
		ok = false;
	}
	fam.attention = (ts_attn_kind)(a < 0 ? 0 : a);
	int m = lookup(mlp_names, 3, f->mlp);
	if (m < 0) {
		path[0].key = "mlp";
		ts_pat_error_at(p, file, path, 1, 0, "unknown mlp '%s' (fc, moe or mixed)", f->mlp);
		ok = false;
	}
	fam.mlp = (ts_mlp_kind)(m < 0 ? 0 : m);
	fam.examples = (const char **)f->examples;
	fam.nexamples = f->examples_count;
	if (f->num_hidden_layers_count) {
		fam.num_layers = own(p, calloc(f->num_hidden_layers_count, sizeof(long)));
		for (unsigned i = 0; fam.num_layers && i < f->num_hidden_layers_count; i++) {
			if (!ts_pat_parse_long(f->num_hidden_layers[i], 1, 100000, &fam.num_layers[i])) {
				ts_ypath np[] = { { "num_hidden_layers", 0 }, { NULL, (int)i } };
				ts_pat_error_at(p, file, np, 2, 0,
					 "num_hidden_layers entry '%s' is not a whole number from 1 to 100000",
					 f->num_hidden_layers[i]);
				ok = false;
			}
		}
		fam.nnum_layers = f->num_hidden_layers_count;
	}
	const y_layer *l = f->layer;
	if (l) {
		ok &= convert_sels(p, file, "layer", "start", l->start, l->start_count, false, &fam.layer_start);
		ok &= convert_sels(p, file, "layer", "attention", l->attention, l->attention_count, false, &fam.attention_markers);
		ok &= convert_sels(p, file, "layer", "moe", l->moe, l->moe_count, false, &fam.moe_markers);
		ok &= convert_sels(p, file, "layer", "fc", l->fc, l->fc_count, false, &fam.fc_markers);
	}
	if (f->stage) {
		ok &= convert_sels(p, file, "stage", "prefill", f->stage->prefill, f->stage->prefill_count, false, &fam.prefill);
		ok &= convert_sels(p, file, "stage", "decode", f->stage->decode, f->stage->decode_count, false, &fam.decode);
	}
	ok &= convert_sels(p, file, "detect", NULL, f->detect, f->detect_count, true, &fam.detect);
	ok &= convert_moecfgs(p, file, f, &fam);
	if (f->operators) {
		const y_opset *os = f->operators;
		ok &= convert_opset(p, file, "required", os->required, os->required_count);
		ok &= convert_opset(p, file, "optional", os->optional, os->optional_count);
		fam.ops_required = (const char **)os->required;
		fam.nops_required = os->required_count;
		fam.ops_optional = (const char **)os->optional;
		fam.nops_optional = os->optional_count;
	}
	for (size_t i = 0; i < p->nfams; i++) {
		if (strcmp(p->fams[i].name, fam.name) != 0)
			continue;
		/* Same directory: a mistake; an earlier (user) directory
		 * overrides the built-in family of the same name. */
		char da[PATH_MAX], db[PATH_MAX];
		snprintf(da, sizeof da, "%s", p->fams[i].file);
		snprintf(db, sizeof db, "%s", file);
		char *sa = strrchr(da, '/'), *sb = strrchr(db, '/');
		if (sa)
			*sa = '\0';
		if (sb)
			*sb = '\0';
		if (strcmp(da, db) == 0) {
			path[0].key = "family";
			ts_pat_error_at(p, file, path, 1, 0, "family '%s' is also defined in %s",
				 fam.name, p->fams[i].file);
		}
		return;
	}
	if (!ok)
		return;
	if (!ts_grow((void **)&p->fams, &p->fams_cap, p->nfams + 1, sizeof *p->fams, 32, SIZE_MAX, false)) {
		ts_pat_fail(p, file, 0, 0, "out of memory");
		return;
	}
	p->fams[p->nfams++] = fam;
}

/* ------------------------------------------------------------ directories */

static loaded_file *new_file(ts_patterns *p, char *path, bool family)
{
	if (p->nfiles == MAX_FILES) {
		ts_pat_fail(p, path, 0, 0, "too many pattern files (at most %d)", MAX_FILES);
		free(path);
		return NULL;
	}
	loaded_file *f = &p->files[p->nfiles++];
	*f = (loaded_file){ .path = path, .is_family = family };
	return f;
}

/* Load the categories of every directory first (rules may refer to a
 * category declared in another file), then rules, then families. */
static void load_dirs(ts_patterns *p)
{
	size_t first_kernel_file = p->nfiles;
	for (size_t d = 0; d < p->ndirs; d++) {
		char *names[MAX_FILES];
		size_t n = ts_pat_list_yaml(p, p->dirs[d], names, MAX_FILES);
		for (size_t i = 0; i < n; i++) {
			loaded_file *f = new_file(p, names[i], false);
			if (f)
				f->doc = ts_pat_load_doc(p, f->path, &ts_pat_kernels_schema);
		}
	}
	size_t end_kernel_files = p->nfiles;
	ts_pat_add_mixers(p, first_kernel_file, end_kernel_files);
	for (size_t i = first_kernel_file; i < end_kernel_files; i++)
		if (p->files[i].doc)
			add_categories(p, p->files[i].path, p->files[i].doc);
	for (size_t i = first_kernel_file; i < end_kernel_files; i++)
		if (p->files[i].doc) {
			add_rules(p, p->files[i].path, p->files[i].doc);
			ts_pat_add_bounds(p, p->files[i].path, p->files[i].doc);
			ts_pat_add_wkinds(p, p->files[i].path, p->files[i].doc);
			add_operators(p, p->files[i].path, p->files[i].doc);
			add_skips(p, p->files[i].path, p->files[i].doc);
			add_context_rules(p, p->files[i].path, p->files[i].doc);
			add_groups(p, p->files[i].path, p->files[i].doc);
			ts_pat_add_devices(p, p->files[i].path, p->files[i].doc);
		}
	for (size_t i = first_kernel_file; i < end_kernel_files; i++)
		if (p->files[i].doc)
			add_fusions(p, p->files[i].path, p->files[i].doc);
	ts_pat_resolve_fit(p);
	for (size_t d = 0; d < p->ndirs; d++) {
		char models[PATH_MAX];
		snprintf(models, sizeof models, "%s/models", p->dirs[d]);
		char *names[MAX_FILES];
		size_t n = ts_pat_list_yaml(p, models, names, MAX_FILES);
		for (size_t i = 0; i < n; i++) {
			loaded_file *f = new_file(p, names[i], true);
			if (!f)
				continue;
			f->doc = ts_pat_load_doc(p, f->path, &ts_pat_family_schema);
			if (f->doc)
				add_family(p, f->path, f->doc);
		}
	}
}

/* The built-in tables: $TRACESTREAM_PATTERNS, the installed data directory,
 * then the source tree this binary was built from (or beside the binary). */
static const char *find_builtin(char *buf, size_t len)
{
	const char *env = getenv("TRACESTREAM_PATTERNS");
	if (env && *env)
		return env;   /* explicit: used even if missing, so errors say so */
	snprintf(buf, len, "%s/patterns", TS_DATADIR);
	if (ts_pat_is_dir(buf))
		return buf;
	if (ts_pat_is_dir(TS_SOURCE_PATTERNS)) {
		snprintf(buf, len, "%s", TS_SOURCE_PATTERNS);
		return buf;
	}
	char exe[PATH_MAX - 16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/patterns", exe);
			if (ts_pat_is_dir(buf))
				return buf;
		}
	}
	return NULL;
}

ts_status ts_patterns_load(const ts_patterns_source *src, ts_patterns **out,
			   ts_pattern_error *errors, size_t max_errors, size_t *nerrors)
{
	*out = NULL;
	*nerrors = 0;
	ts_patterns *p = calloc(1, sizeof *p);
	if (!p)
		return TS_ERR_NOMEM;
	p->align = (ts_align_costs){ .same_category = 0, .same_group = 3, .fused = 3,
				     .join = 1, .gap = 2, .different = 5 };
	p->errors = errors;
	p->max_errors = max_errors;
	p->cyaml = (cyaml_config_t){ .log_fn = ts_pat_cyaml_log, .log_ctx = p,
				     .mem_fn = cyaml_mem, .log_level = CYAML_LOG_ERROR,
				     /* aliases would let a small file stand for a huge
				      * document ("billion laughs"): refused */
				     .flags = CYAML_CFG_NO_ALIAS };
	char buf[PATH_MAX];
	for (size_t i = 0; i < src->nuser_dirs && p->ndirs < 15; i++) {
		if (!ts_pat_is_dir(src->user_dirs[i])) {
			ts_pat_fail(p, src->user_dirs[i], 0, 0, "not a directory of pattern tables");
			continue;
		}
		p->dirs[p->ndirs++] = strdup(src->user_dirs[i]);
	}
	const char *builtin = src->builtin_dir ? src->builtin_dir : find_builtin(buf, sizeof buf);
	if (!builtin || !ts_pat_is_dir(builtin)) {
		ts_pat_fail(p, builtin ? builtin : "patterns", 0, 0, "built-in pattern tables not found%s",
			    builtin ? "" : " (set TRACESTREAM_PATTERNS or use --patterns DIR)");
		*nerrors = p->nerrors;
		ts_patterns_free(p);
		return TS_ERR_IO;
	}
	p->dirs[p->ndirs++] = strdup(builtin);
	load_dirs(p);
	*nerrors = p->nerrors;
	if (p->nerrors) {
		ts_patterns_free(p);
		return TS_ERR_PATTERNS;
	}
	p->errors = NULL;
	*out = p;
	return TS_OK;
}

void ts_patterns_free(ts_patterns *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nregexes; i++) {
		pcre2_code_free(p->regexes[i]->code);
		free(p->regexes[i]);
	}
	for (size_t i = 0; i < p->nfiles; i++) {
		if (p->files[i].doc)
			cyaml_free(&p->cyaml, p->files[i].is_family ? &ts_pat_family_schema
								  : &ts_pat_kernels_schema,
				   p->files[i].doc, 0);
		free(p->files[i].path);
	}
	for (size_t i = 0; i < p->nallocs; i++)
		free(p->allocs[i]);
	for (size_t i = 0; i < p->ndirs; i++)
		free(p->dirs[i]);
	free(p->allocs);
	free(p->regexes);
	free(p->cats);
	free(p->rules);
	free(p->fams);
	free(p->oprules);
	free(p->skips);
	free(p->bounds);
	free(p->wkinds);
	free(p->contexts);
	free(p->groups);
	free(p->fusions);
	free(p->gpus);
	free(p);
}
