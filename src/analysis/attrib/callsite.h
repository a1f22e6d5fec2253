/*
 * callsite.h - the Python call site of a CPU event: the innermost
 * python_function frame, in model or framework code, active on the same
 * thread at that time.
 *
 * python_function events come before the GPU block in Kineto files, so
 * frames are indexed as they pass and looked up when runtime launches
 * arrive. Only frames that can be call sites are kept (not builtins, PyTorch
 * internals or the standard library: callsite_skip in the pattern tables),
 * per thread, as the step function of time they make: the innermost kept
 * frame changes where one starts or ends, and those changes are coded in
 * time order (a varint delta and a name id) in chunks of 1,024 changes,
 * a chunk's names deflated once four newer chunks have filled (about 4
 * bytes a frame in all).
 * A lookup is that of the last frame starting at or before the time and
 * the first of its enclosing frames still open then; in time order it
 * walks forward from the last one. A thread's launches come in time
 * order, so the chunks before its latest lookup go: the index holds the
 * frames between the launches and the latest frame, never more than
 * mem_cap bytes; frames past it, and lookups back before what is kept,
 * are counted.
 */
#ifndef TS_CALLSITE_H
#define TS_CALLSITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/event.h"
#include "tables/patterns.h"

#define TS_CALLSITE_THREADS 256      /* threads with frames kept */
#define TS_CALLSITE_NAMES 65536      /* distinct call-site names */

typedef struct ts_callsites ts_callsites;

typedef struct {
	uint64_t frames;          /* python_function events seen */
	uint64_t kept;            /* indexed as possible call sites */
	uint64_t dropped;         /* past the memory cap, the thread or name caps */
	uint64_t out_of_order;    /* frames starting before the thread's previous one */
	uint64_t lookups, found;
	uint64_t late;            /* lookups back before the frames still kept */
	size_t index_bytes;       /* the most the index held at once */
} ts_callsite_totals;

ts_callsites *ts_callsites_new(const ts_patterns *p, size_t mem_cap);
void ts_callsites_free(ts_callsites *c);

void ts_callsites_frame(ts_callsites *c, const ts_event *ev);
/* The call site active at ts on thread (pid, tid), or TS_INTERN_NONE. */
uint32_t ts_callsites_at(ts_callsites *c, int64_t pid, int64_t tid, int64_t ts);
const char *ts_callsites_name(const ts_callsites *c, uint32_t id, size_t *len);
const ts_callsite_totals *ts_callsites_totals(const ts_callsites *c);

/* A call-site name from elsewhere (a saved partial): its id here, or
 * TS_INTERN_NONE past the name cap. */
uint32_t ts_callsites_intern(ts_callsites *c, const char *name, size_t len);
/* Add another run's totals (a saved partial). */
void ts_callsites_add_totals(ts_callsites *c, const ts_callsite_totals *t);

#endif
