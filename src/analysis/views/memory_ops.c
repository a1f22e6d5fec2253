/*
 * memory_ops.c - the CPU ops that hold a device's memory at its peak
 * (memory_ops.h): the outermost ops of each thread kept in a ring, the
 * live allocations found by address, each given to the op it was made in.
 */
#include "analysis/views/memory_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"

#define NAME_BYTES (256u << 10)
#define NO_NAME UINT16_MAX

/* 16 bytes: an op longer than 4.29 s is kept as that long */
typedef struct {
	int64_t t0;
	uint32_t dur;
	uint16_t name;
	uint8_t thread;
} op;

static int64_t end_of(const op *m)
{
	return m->t0 + (int64_t)m->dur;
}

typedef struct {
	int64_t tid;
	int64_t outer_start, outer_end; /* the last op kept */
	int64_t lost_end;            /* the latest end of an op the ring dropped */
} thread;

struct ts_mem_ops {
	op *ring;
	size_t cap, n, next;         /* next: the slot the next op takes */
	bool sorted;
	thread th[TS_MEMOP_THREADS];
	size_t nth;
	ts_intern *names;
};

ts_mem_ops *ts_mem_ops_new(void)
{
	ts_mem_ops *o = calloc(1, sizeof *o);
	if (o && !(o->names = ts_intern_new(TS_MEMOP_NAMES, NAME_BYTES))) {
		free(o);
		return NULL;
	}
	return o;
}

void ts_mem_ops_free(ts_mem_ops *o)
{
	if (!o)
		return;
	free(o->ring);
	ts_intern_free(o->names);
	free(o);
}

uint16_t ts_mem_ops_thread(ts_mem_ops *o, int64_t tid)
{
	for (size_t i = 0; i < o->nth; i++)
		if (o->th[i].tid == tid)
			return (uint16_t)i;
	if (o->nth == TS_MEMOP_THREADS)
		return TS_MEMOP_NO_THREAD;
	o->th[o->nth] = (thread){ tid, INT64_MAX, INT64_MIN, INT64_MIN };
	return (uint16_t)o->nth++;
}

void ts_mem_ops_add(ts_mem_ops *o, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_TS) || ev->ph != 'X' || ev->dur_ns < 0 || o->sorted)
		return;
	uint16_t t = ts_mem_ops_thread(o, ev->tid);
	if (t == TS_MEMOP_NO_THREAD)
		return;
	thread *th = &o->th[t];
	int64_t t1 = ev->ts_ns + ev->dur_ns;
	/* inside the op that holds it: not the outermost */
	if (ev->ts_ns >= th->outer_start && t1 <= th->outer_end)
		return;
	th->outer_start = ev->ts_ns;
	th->outer_end = t1;
	uint32_t id;
	if (ts_intern_put_hashed(o->names, ev->name, ev->name_len, ev->name_hash, &id) != TS_OK)
		id = NO_NAME;
	uint32_t dur = ev->dur_ns > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)ev->dur_ns;
	op x = { ev->ts_ns, dur, (uint16_t)id, (uint8_t)t };
	if (o->n < TS_MEMOP_RING) {
		size_t cap = o->cap;
		if (o->n == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			op *r = realloc(o->ring, ncap * sizeof *r);
			if (!r)
				return;
			o->ring = r;
			o->cap = ncap;
		}
		o->next = ++o->n % TS_MEMOP_RING;
		o->ring[o->n - 1] = x;
		return;
	}
	op *old = &o->ring[o->next];
	if (end_of(old) > o->th[old->thread].lost_end)
		o->th[old->thread].lost_end = end_of(old);
	*old = x;
	o->next = (o->next + 1) % TS_MEMOP_RING;
}

static int by_thread_start(const void *a, const void *b)
{
	const op *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* The owner of an allocation at t on thread th: a kept op's name id, or
 * a kind. */
static ts_memop_kind owner(const ts_mem_ops *o, uint16_t th, int64_t t, uint16_t *name)
{
	if (th == TS_MEMOP_NO_THREAD)
		return TS_MEMOP_LOST;
	/* the last op of the thread starting at or before t */
	size_t i = 0, j = o->n;
	while (i < j) {
		size_t mid = i + (j - i) / 2;
		const op *m = &o->ring[mid];
		if (m->thread < th || (m->thread == th && m->t0 <= t))
			i = mid + 1;
		else
			j = mid;
	}
	/* the kept ops of a thread do not overlap but for a child that
	 * outlives its parent, or ops that came in no order: of the few
	 * before, the one covering t that starts first (the longer at one
	 * start) */
	const op *best = NULL;
	for (size_t k = i, back = 0; k > 0 && back < 8; k--, back++) {
		const op *m = &o->ring[k - 1];
		if (m->thread != th)
			break;
		if (t <= end_of(m) && (!best || m->t0 < best->t0 || (m->t0 == best->t0 && m->dur > best->dur)))
			best = m;
	}
	if (best) {
		*name = best->name;
		return best->name == NO_NAME ? TS_MEMOP_OTHER : TS_MEMOP_OP;
	}
	return t <= o->th[th].lost_end ? TS_MEMOP_LOST : TS_MEMOP_NONE;
}

typedef struct {
	uint64_t addr;
	uint32_t at;                 /* index in pts */
} by_addr;

static int cmp_addr(const void *a, const void *b)
{
	const by_addr *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* A group of live bytes: an op's name id, or a kind past the names. */
typedef struct {
	int64_t bytes;
	uint32_t allocations;
	uint32_t key;
} group;

static int by_bytes(const void *a, const void *b)
{
	const group *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* The groups as rows, biggest first; past the rows (and the ops whose
 * names were not kept), one "other ops" row last. */
static void put_rows(const ts_mem_ops *o, group *g, size_t ng, ts_mem_peak *pk)
{
	uint32_t nnames = ts_intern_count(o->names);
	uint32_t other = nnames + TS_MEMOP_OTHER;
	qsort(g, ng, sizeof *g, by_bytes);
	size_t used = 0, own = 0;
	while (used < ng && g[used].allocations)
		own += g[used++].key != other;
	bool fold = own < used || own > TS_MEMOP_ROWS;
	size_t room = fold ? TS_MEMOP_ROWS - 1 : TS_MEMOP_ROWS;
	ts_memop_row rest = { .kind = TS_MEMOP_OTHER };
	pk->nrows = 0;
	for (size_t i = 0; i < used; i++) {
		if (g[i].key == other || pk->nrows == room) {
			rest.bytes += g[i].bytes;
			rest.allocations += g[i].allocations;
			continue;
		}
		ts_memop_row *r = &pk->rows[pk->nrows++];
		*r = (ts_memop_row){ .bytes = g[i].bytes, .allocations = g[i].allocations };
		if (g[i].key < nnames) {
			r->kind = TS_MEMOP_OP;
			snprintf(r->name, sizeof r->name, "%s", ts_intern_str(o->names, g[i].key, NULL));
		} else {
			r->kind = (ts_memop_kind)(g[i].key - nnames);
		}
	}
	if (rest.allocations)
		pk->rows[pk->nrows++] = rest;
}

bool ts_mem_ops_peak(ts_mem_ops *o, const ts_mem_point *pts, size_t n, int64_t peak_allocated,
		     ts_mem_peak *pk)
{
	if (!o->sorted) {
		if (o->n > 1)
			qsort(o->ring, o->n, sizeof *o->ring, by_thread_start);
		o->sorted = true;
	}
	uint32_t nnames = ts_intern_count(o->names);
	size_t ng = (size_t)nnames + TS_MEMOP_OTHER + 1;
	by_addr *ix = malloc((n ? n : 1) * sizeof *ix);
	group *g = calloc(ng, sizeof *g);
	if (!ix || !g) {
		free(ix);
		free(g);
		return false;
	}
	for (size_t k = 0; k < ng; k++)
		g[k].key = (uint32_t)k;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (pts[i].bytes != 0)
			ix[m++] = (by_addr){ pts[i].addr, (uint32_t)i };
	qsort(ix, m, sizeof *ix, cmp_addr);
	pk->live_bytes = 0;
	pk->live_allocations = 0;
	/* an address's last event, if an allocation, is live at the peak */
	for (size_t i = 0; i < m; i++) {
		if (i + 1 < m && ix[i + 1].addr == ix[i].addr)
			continue;
		const ts_mem_point *p = &pts[ix[i].at];
		if (p->bytes <= 0)
			continue;
		uint16_t name = NO_NAME;
		ts_memop_kind k = owner(o, p->thread, p->t, &name);
		group *x = &g[k == TS_MEMOP_OP ? name : nnames + (uint32_t)k];
		x->bytes += p->bytes;
		x->allocations++;
		pk->live_bytes += p->bytes;
		pk->live_allocations++;
	}
	pk->before_bytes = peak_allocated - pk->live_bytes;
	put_rows(o, g, ng, pk);
	/* more live than the allocator held: no figure of it stands */
	pk->status = pk->before_bytes < 0 ? TS_MEMPEAK_UNEVEN : TS_MEMPEAK_DONE;
	free(ix);
	free(g);
	return true;
}
