/*
 * classify.h - kernel name -> type, category, stage hint and short name.
 *
 * The rules come from the pattern tables (patterns.h); the first rule whose
 * regex matches and whose event categories include the event's wins. Names
 * no rule matches get type other, category "Other". Callers classify each
 * distinct name once and keep the result (the aggregator stores it per
 * kernel row), so the cost never depends on the number of events.
 */
#ifndef TS_CLASSIFY_H
#define TS_CLASSIFY_H

#include <stddef.h>

#include "input/event.h"
#include "tables/patterns.h"

#define TS_SHORT_MAX 48

typedef struct {
	int rule;              /* index of the matching rule, -1 for none */
	int bound;             /* a bound that passed over a rule that matched
				* (index into the tables' bounds), -1: none */
	int passed;            /* the first rule it passed over, -1: none */
	bool words;            /* typed by the words of its name (a words:
				* rule): no rule knows the kernel */
	int category;          /* index into the tables' categories, -1: Other */
	ts_ktype type;
	ts_stage_hint stage;
	char short_name[TS_SHORT_MAX + 1];
} ts_kclass;

/* Classify one name. cat is TS_CAT_KERNEL, _GPU_MEMCPY or _GPU_MEMSET.
 * p may be NULL (everything is Other, short names are generic). */
void ts_classify(const ts_patterns *p, ts_cat cat, const char *name,
		 size_t len, ts_kclass *out);

/* The category name of a class ("Other" when it has none). */
const char *ts_kclass_category(const ts_patterns *p, const ts_kclass *c);
/* Its category, with what it means beside its type; NULL: Other. */
const ts_category *ts_kclass_cat(const ts_patterns *p, const ts_kclass *c);

/* The generic short name, used when a rule gives no template: demangles
 * the function's name out of C++ and Itanium-mangled names, names the
 * functor of ATen wrapper kernels, and cuts to TS_SHORT_MAX bytes. */
void ts_short_generic(const char *name, size_t len, char *out);

#endif
