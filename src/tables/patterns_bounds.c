/*
 * patterns_bounds.c - the bounds: entries of the kernel tables: a kernel's
 * origin (a regex on its name) and the types such a kernel never takes,
 * checked as they load (patterns_int.h). The classifier passes over a rule
 * whose category has one of those types (classify.c).
 */
#include "tables/patterns_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/grow.h"

static int type_of(const char *s)
{
	for (int t = 0; t < TS_TYPE_COUNT; t++)
		if (strcmp(ts_ktype_name((ts_ktype)t), s) == 0)
			return t;
	return -1;
}

/* Type names (at path, its last element the index) into a mask of
 * 1 << ts_ktype; false with an error at each unknown one (e.g. names
 * some types for the message). */
static bool type_mask(ts_patterns *p, const char *file, ts_ypath *path, char **names,
		      unsigned n, const char *eg, uint32_t *mask)
{
	bool ok = true;
	for (unsigned e = 0; e < n; e++) {
		int t = type_of(names[e]);
		if (t < 0) {
			path[3].index = (int)e;
			ts_pat_error_at(p, file, path, 4, 0,
				 "unknown type '%s' (a type of the categories: %s, ...)", names[e], eg);
			ok = false;
		} else {
			*mask |= 1u << t;
		}
	}
	return ok;
}

void ts_pat_add_bounds(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = ts_pat_item_lines(file, "bounds", k->bounds_count);
	for (unsigned i = 0; i < k->bounds_count; i++) {
		const y_bound *y = &k->bounds[i];
		ts_ypath path[] = { { "bounds", 0 }, { NULL, (int)i }, { "match", 0 },
				    { NULL, 0 } };
		ts_kbound b = { .name = y->name, .match = y->match, .file = file,
			       .line = lines ? lines[i] : 0 };
		b.re = ts_pat_compile(p, y->match, file, path, 3);
		bool ok = b.re != NULL;
		path[2].key = "never";
		ok &= type_mask(p, file, path, y->never, y->never_count,
				"communication, attention, gemm", &b.never);
		if (!ok)
			continue;
		if (!ts_grow((void **)&p->bounds, &p->bounds_cap, p->nbounds + 1, sizeof *p->bounds,
			     8, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		p->bounds[p->nbounds++] = b;
	}
	free(lines);
}

/* workload_kinds: the kernel types that do a kind's work. A kind defined
 * again (a later directory) keeps its first definition: the user's. */
void ts_pat_add_wkinds(ts_patterns *p, const char *file, y_kernels *k)
{
	for (unsigned i = 0; i < k->workload_kinds_count; i++) {
		const y_wkind *y = &k->workload_kinds[i];
		ts_ypath path[] = { { "workload_kinds", 0 }, { NULL, (int)i }, { "types", 0 },
				    { NULL, 0 } };
		uint32_t types = 0;
		bool ok = type_mask(p, file, path, y->types, y->types_count,
				    "gemm, attention, norm", &types);
		bool seen = false;
		for (size_t j = 0; j < p->nwkinds && !seen; j++)
			seen = strcmp(p->wkinds[j].kind, y->kind) == 0;
		if (!ok || seen)
			continue;
		if (!ts_grow((void **)&p->wkinds, &p->wkinds_cap, p->nwkinds + 1, sizeof *p->wkinds,
			     16, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		p->wkinds[p->nwkinds].kind = y->kind;
		p->wkinds[p->nwkinds++].types = types;
	}
}

void ts_pat_resolve_fit(ts_patterns *p)
{
	for (size_t i = 0; i < p->noprules; i++) {
		ts_oprule *r = &p->oprules[i];
		r->fit = 0;
		for (size_t j = 0; j < p->nwkinds; j++)
			if (r->kind && strcmp(p->wkinds[j].kind, r->kind) == 0)
				r->fit = p->wkinds[j].types;
	}
}
