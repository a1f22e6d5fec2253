#include "analysis/callsite.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/intern.h"

/* One kept frame: 24 bytes. */
typedef struct {
	int64_t start, end;
	uint32_t name;
	int32_t parent;          /* enclosing kept frame, -1 none */
} frame;

typedef struct {
	int64_t pid, tid;
	frame *f;
	size_t n, cap;
	int64_t last_start;
	int32_t top;             /* innermost frame open at last_start */
} thread_frames;

/* A direct-mapped cache of skip decisions by name hash: every frame name
 * is matched against the skip regexes once while it stays cached. */
#define SKIP_CACHE 16384

struct ts_callsites {
	const ts_patterns *patterns;
	size_t mem_cap, mem;
	thread_frames th[TS_CALLSITE_THREADS];
	size_t nth;
	ts_intern *names;
	uint64_t skip_key[SKIP_CACHE];
	uint8_t skip_val[SKIP_CACHE];   /* 1 skip, 2 keep */
	ts_callsite_totals t;
};

ts_callsites *ts_callsites_new(const ts_patterns *p, size_t mem_cap)
{
	ts_callsites *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->patterns = p;
	c->mem_cap = mem_cap;
	c->names = ts_intern_new(TS_CALLSITE_NAMES, 8u << 20);
	if (!c->names) {
		free(c);
		return NULL;
	}
	return c;
}

void ts_callsites_free(ts_callsites *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nth; i++)
		free(c->th[i].f);
	ts_intern_free(c->names);
	free(c);
}

static thread_frames *thread_of(ts_callsites *c, int64_t pid, int64_t tid, bool add)
{
	for (size_t i = 0; i < c->nth; i++)
		if (c->th[i].pid == pid && c->th[i].tid == tid)
			return &c->th[i];
	if (!add || c->nth == TS_CALLSITE_THREADS)
		return NULL;
	thread_frames *t = &c->th[c->nth++];
	*t = (thread_frames){ .pid = pid, .tid = tid, .last_start = INT64_MIN, .top = -1 };
	return t;
}

static bool skipped(ts_callsites *c, const char *s, size_t len)
{
	if (!c->patterns)
		return false;
	uint64_t h = ts_hash_bytes(s, len) | 1;
	size_t slot = (size_t)(h >> 40) & (SKIP_CACHE - 1);
	if (c->skip_key[slot] != h) {
		c->skip_key[slot] = h;
		c->skip_val[slot] = ts_patterns_callsite_skipped(c->patterns, s, len) ? 1 : 2;
	}
	return c->skip_val[slot] == 1;
}

void ts_callsites_frame(ts_callsites *c, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR) || ev->name_len == 0)
		return;
	c->t.frames++;
	if (skipped(c, ev->name, ev->name_len))
		return;
	int64_t pid = ev->has & TS_HAS_PID ? ev->pid : -1;
	int64_t tid = ev->has & TS_HAS_TID ? ev->tid : -1;
	thread_frames *t = thread_of(c, pid, tid, true);
	/* Kineto writes a thread's frames in start order; one out of order
	 * would need a re-sort per lookup: counted, not kept. */
	if (t && ev->ts_ns < t->last_start) {
		c->t.out_of_order++;
		return;
	}
	uint32_t name;
	if (!t || ts_intern_put(c->names, ev->name, ev->name_len, &name) != TS_OK) {
		c->t.dropped++;
		return;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		if (c->mem + (cap - t->cap) * sizeof(frame) > c->mem_cap) {
			c->t.dropped++;
			return;
		}
		frame *f = realloc(t->f, cap * sizeof *f);
		if (!f) {
			c->t.dropped++;
			return;
		}
		c->mem += (cap - t->cap) * sizeof *f;
		c->t.index_bytes = c->mem;
		t->f = f;
		t->cap = cap;
	}
	/* Link it to the innermost kept frame still open: the chain of open
	 * frames is walked through the parent links themselves. */
	frame f = { ev->ts_ns, ev->ts_ns + (ev->dur_ns > 0 ? ev->dur_ns : 0), name, -1 };
	int32_t top = t->top;
	while (top >= 0 && t->f[top].end < f.start)
		top = t->f[top].parent;
	f.parent = top;
	t->top = (int32_t)t->n;
	t->f[t->n++] = f;
	t->last_start = ev->ts_ns;
	c->t.kept++;
}

uint32_t ts_callsites_at(ts_callsites *c, int64_t pid, int64_t tid, int64_t ts)
{
	c->t.lookups++;
	thread_frames *t = thread_of(c, pid, tid, false);
	if (!t || t->n == 0)
		return TS_INTERN_NONE;
	/* the last frame starting at or before ts */
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->f[mid].start <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int32_t j = (int32_t)lo - 1; j >= 0; j = t->f[j].parent)
		if (t->f[j].end >= ts) {
			c->t.found++;
			return t->f[j].name;
		}
	return TS_INTERN_NONE;
}

const char *ts_callsites_name(const ts_callsites *c, uint32_t id, size_t *len)
{
	return ts_intern_str(c->names, id, len);
}

const ts_callsite_totals *ts_callsites_totals(const ts_callsites *c)
{
	return &c->t;
}

uint32_t ts_callsites_intern(ts_callsites *c, const char *name, size_t len)
{
	uint32_t id;
	return ts_intern_put(c->names, name, len, &id) == TS_OK ? id : TS_INTERN_NONE;
}

void ts_callsites_add_totals(ts_callsites *c, const ts_callsite_totals *t)
{
	c->t.frames += t->frames;
	c->t.kept += t->kept;
	c->t.dropped += t->dropped;
	c->t.out_of_order += t->out_of_order;
	c->t.lookups += t->lookups;
	c->t.found += t->found;
	c->t.index_bytes += t->index_bytes;
}
