/*
 * module.h - one interface for an analysis: what it takes from the events,
 * what it does with each kernel, what it computes when the run is done,
 * its part of a saved partial, its warnings, and its end.
 *
 * A module is a ts_module value in its own file and one line in the list
 * (views/modules.c); the pipeline, the saved partials, the warnings and the
 * result's end reach every module through the list, never by name. A
 * module's state is one object per analysis (ts_result.mods), made with
 * the run's tables; reporters read it through the module's own header
 * (ts_result_module finds it).
 *
 * Each kernel reaches a module once, as one enriched record: the event,
 * its kernel row, its class where it ran (a context's, or its own), and
 * what attribution linked it to.
 */
#ifndef TS_MODULE_H
#define TS_MODULE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/views/result.h"

typedef struct {
	const ts_event *ev;
	uint32_t row;                /* kernel row; TS_INTERN_NONE past the cap */
	const ts_kclass *cls;        /* where it ran; never NULL */
	const ts_kref *ref;          /* its op, call, workload */
} ts_kernel_rec;

typedef struct ts_module {
	const char *name;            /* its key in partials and JSON */
	uint32_t cats;               /* the event categories it takes: 1u << ts_cat */
	void *(*make)(const ts_patterns *p);           /* NULL: out of memory */
	void (*event)(void *m, const ts_event *ev);    /* an event of cats */
	void (*kernel)(void *m, const ts_kernel_rec *k);
	/* the run is done: every other machine finished, the result settled */
	void (*finish)(void *m, const ts_result *res);
	void (*save)(const void *m, ts_wbuf *w);
	/* add a saved part (after finish: the merge of finished parts) */
	ts_status (*load)(void *m, ts_rbuf *r);
	void (*warnings)(const void *m, ts_warns *w);
	void (*free)(void *m);
} ts_module;

/* The modules, in the order they run; NULL-terminated (modules.c). */
extern const ts_module *const ts_modules[];

/* Make every module of res (false: out of memory, the made ones kept for
 * ts_result_free). */
bool ts_modules_make(ts_result *res);
void ts_modules_event(ts_result *res, const ts_event *ev);
void ts_modules_kernel(ts_result *res, const ts_kernel_rec *k);
void ts_modules_finish(ts_result *res);

/* Saved partials: each module's name and its bytes, in list order; the
 * load finds each by name (TS_ERR_PARTIAL for one this build lacks). */
void ts_modules_save(const ts_result *res, ts_wbuf *w);
ts_status ts_modules_load(ts_result *res, ts_rbuf *r);

/* The state of module m in res, or NULL. */
void *ts_result_module(const ts_result *res, const ts_module *m);

#endif
