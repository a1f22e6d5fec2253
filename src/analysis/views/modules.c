/*
 * modules.c - the list of analyses on the one interface (module.h), and
 * what reaches each of them through it.
 */
#include "analysis/views/module.h"

#include <string.h>

#include "analysis/views/memory.h"
#include "analysis/views/whatif.h"

/* One line a module. */
const ts_module *const ts_modules[] = {
	&ts_whatif_module,
	&ts_memory_module,
	NULL,
};

_Static_assert(sizeof ts_modules / sizeof *ts_modules - 1 <= TS_MODULES_MAX,
	       "ts_result.mods holds every module");

bool ts_modules_make(ts_result *res)
{
	for (size_t i = 0; ts_modules[i]; i++)
		if (!res->mods[i] && !(res->mods[i] = ts_modules[i]->make(res->patterns)))
			return false;
	return true;
}

void ts_modules_event(ts_result *res, const ts_event *ev)
{
	for (size_t i = 0; ts_modules[i]; i++)
		if (res->mods[i] && ts_modules[i]->event && (ts_modules[i]->cats & (1u << ev->cat)))
			ts_modules[i]->event(res->mods[i], ev);
}

void ts_modules_kernel(ts_result *res, const ts_kernel_rec *k)
{
	for (size_t i = 0; ts_modules[i]; i++)
		if (res->mods[i] && ts_modules[i]->kernel)
			ts_modules[i]->kernel(res->mods[i], k);
}

void ts_modules_finish(ts_result *res)
{
	for (size_t i = 0; ts_modules[i]; i++)
		if (res->mods[i] && ts_modules[i]->finish)
			ts_modules[i]->finish(res->mods[i], res);
}

void ts_modules_save(const ts_result *res, ts_wbuf *w)
{
	uint64_t n = 0;
	for (size_t i = 0; ts_modules[i]; i++)
		n += res->mods[i] != NULL;
	ts_w_u64(w, n);
	for (size_t i = 0; ts_modules[i]; i++) {
		if (!res->mods[i])
			continue;
		ts_w_str(w, ts_modules[i]->name, strlen(ts_modules[i]->name));
		ts_modules[i]->save(res->mods[i], w);
	}
}

ts_status ts_modules_load(ts_result *res, ts_rbuf *r)
{
	uint64_t n = ts_r_count(r, 4);
	for (uint64_t k = 0; k < n && !r->err; k++) {
		size_t len;
		const char *name = ts_r_str(r, &len);
		size_t i = 0;
		while (ts_modules[i] && !(strlen(ts_modules[i]->name) == len &&
					  memcmp(ts_modules[i]->name, name, len) == 0))
			i++;
		if (!ts_modules[i] || !res->mods[i]) {
			ts_r_fail(r, "a module this build does not have");
			return TS_ERR_PARTIAL;
		}
		ts_status st = ts_modules[i]->load(res->mods[i], r);
		if (st != TS_OK)
			return st;
	}
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

void *ts_result_module(const ts_result *res, const ts_module *m)
{
	for (size_t i = 0; ts_modules[i]; i++)
		if (ts_modules[i] == m)
			return res->mods[i];
	return NULL;
}
