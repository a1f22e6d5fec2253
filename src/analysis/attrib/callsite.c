/*
 * callsite.c - the Python frame index: the innermost python_function frame
 * in model or framework code active on a thread at a launch (see
 * callsite.h).
 */
#include "analysis/attrib/callsite.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/hash.h"
#include "input/base/intern.h"
#include "analysis/pack.h"

/*
 * Per thread, the call site as a step function of time: the innermost kept
 * frame open at t changes only where a kept frame starts or ends, so the
 * index holds those changes, (t, name), in time order, varint-coded: the
 * time as a delta from the change before, the name as its id + 1 (0: no
 * frame). About 2 changes of 2 to 5 bytes each per kept frame. Every 64
 * changes begin a block whose first time is kept whole, for a binary
 * search; lookups in time order (the usual case: launches come in time
 * order) walk forward from where the last one stopped.
 *
 * The frames still open at the latest start are held apart (open[]); a
 * frame's end is coded when a later start finds it over, so every change
 * up to the latest start is coded, and a lookup at or past it reads the
 * open frames, as the chain of enclosing frames the index kept before.
 *
 * Every CHUNK_BLOCKS blocks make a chunk. A full chunk is kept as it is
 * while RAW_KEEP newer ones fill: launches usually pass it by then and it
 * goes (retire) never deflated; else it is deflated, its names apart from
 * its times, which stay as they are (a thread's frames repeat every
 * layer: the names pack to little, the times' jitter shrinks a tenth for
 * most of deflate's work). A lookup inflates the chunk it reads into one of VIEWS
 * buffers, kept while used: a walk in time order inflates each chunk once.
 * Lookups in no order would inflate a chunk for nearly each: once chunks
 * were inflated more than THRASH times each, on average, a chunk inflated
 * stays whole (the index then costs what it did unpacked).
 */
#define BLOCK 64
#define CHUNK_BLOCKS 16
#define CHANGE_MAX 20            /* two varints */
#define CHUNK_CHANGES (BLOCK * CHUNK_BLOCKS)
#define CHUNK_RAW (CHUNK_CHANGES * CHANGE_MAX)
#define VIEWS 4
#define THRASH 4
#define RAW_KEEP 4               /* sealed chunks a thread keeps undeflated */
#define OPEN_MAX 256             /* kept frames open at once on a thread */
#define NONE_ID 0u

typedef struct {
	int64_t t;               /* time of the block's first change */
	size_t off;              /* its byte offset in its chunk */
} block;

typedef struct {
	uint8_t *z;              /* deflated; whole: the changes themselves */
	uint32_t zlen, len;      /* its size, and inflated */
	bool whole;
} chunk;

typedef struct {
	int64_t start, end;
	uint32_t name;
} open_frame;

typedef struct {
	int64_t pid, tid;
	uint8_t *b;              /* the coded changes of the chunk being written */
	size_t nb, bcap;
	/* the chunks before it, deflated: chunks ch_base .. nch - 1 (the
	 * ones before ch_base retired: no lookup will read them again) */
	chunk *ch;               /* ch[0] is chunk ch_base */
	size_t nch, chcap, ch_base;
	size_t raw_from;         /* chunks from here on: sealed, not deflated yet */
	block *blk;              /* blk[0] is block ch_base * CHUNK_BLOCKS */
	size_t nblk, blkcap;
	int64_t horizon;         /* the latest time looked up */
	unsigned in_last;        /* changes in the last block */
	int64_t last_t;          /* time of the last change coded */
	uint32_t last_name;      /* its name id + 1 */
	open_frame open[OPEN_MAX];
	int nopen;
	int64_t last_start;
	/* where the last lookup stopped: the change at or before its time */
	size_t cur_blk, cur_off; /* the next change to decode */
	unsigned cur_i;          /* changes of cur_blk decoded */
	int64_t cur_t;
	uint32_t cur_name;
	bool cur_set;
} thread_frames;

/* A direct-mapped cache of skip decisions by name hash: every frame name
 * is matched against the skip regexes once while it stays cached. */
#define SKIP_CACHE 16384

typedef struct {
	const thread_frames *t;  /* NULL: unused */
	size_t k;                /* chunk of t */
	uint64_t used;
	uint8_t *buf;            /* CHUNK_RAW bytes */
} view;

struct ts_callsites {
	const ts_patterns *patterns;
	size_t mem_cap, mem;
	ts_pack *pk;
	view views[VIEWS];
	uint64_t tick;
	uint64_t chunks, inflated;
	uint8_t *cols;           /* CHUNK_RAW bytes: a chunk as columns */
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
	c->pk = ts_pack_new();
	if (!c->names || !c->pk) {
		ts_callsites_free(c);
		return NULL;
	}
	return c;
}

void ts_callsites_free(ts_callsites *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nth; i++) {
		thread_frames *t = &c->th[i];
		for (size_t k = 0; k < t->nch - t->ch_base; k++)
			free(t->ch[k].z);
		free(t->ch);
		free(t->b);
		free(t->blk);
	}
	for (int v = 0; v < VIEWS; v++)
		free(c->views[v].buf);
	free(c->cols);
	ts_pack_free(c->pk);
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
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->tid = tid;
	t->last_start = INT64_MIN;
	t->last_t = INT64_MIN;
	t->horizon = INT64_MIN;
	return t;
}

/* Chunk k and block b of t by their numbers from the thread's start. */
static chunk *chunk_at(thread_frames *t, size_t k)
{
	return &t->ch[k - t->ch_base];
}

static block *block_at(thread_frames *t, size_t b)
{
	return &t->blk[b - t->ch_base * CHUNK_BLOCKS];
}

/* hash: ts_hash_bytes of s, or 0 (made here) */
static bool skipped(ts_callsites *c, const char *s, size_t len, uint64_t hash)
{
	if (!c->patterns)
		return false;
	uint64_t h = (hash ? hash : ts_hash_bytes(s, len)) | 1;
	/* four slots a name may take (two names of one slot would push each
	 * other out at every frame): the first that holds it, else the
	 * first empty, else the first */
	size_t slot = (size_t)(h >> 40) & (SKIP_CACHE - 1), put = SIZE_MAX;
	for (size_t i = 0; i < 4; i++) {
		size_t k = (slot + i) & (SKIP_CACHE - 1);
		if (c->skip_key[k] == h)
			return c->skip_val[k] == 1;
		if (!c->skip_key[k] && put == SIZE_MAX)
			put = k;
	}
	if (put == SIZE_MAX)
		put = slot;
	c->skip_key[put] = h;
	c->skip_val[put] = ts_patterns_callsite_skipped(c->patterns, s, len) ? 1 : 2;
	return c->skip_val[put] == 1;
}

/* ------------------------------------------------------------- coding */

static size_t put_var(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static uint64_t get_var(const uint8_t *b, size_t *off)
{
	uint64_t v = 0;
	for (int s = 0; s < 64; s += 7) {
		uint8_t x = b[(*off)++];
		v |= (uint64_t)(x & 0x7f) << s;
		if (!(x & 0x80))
			break;
	}
	return v;
}

/* The index's bytes now: the most it held is reported. */
static void held(ts_callsites *c)
{
	if (c->mem > c->t.index_bytes)
		c->t.index_bytes = c->mem;
}

/* Grow *p (element size es, count cap) to hold need, within the index's
 * memory cap. Not ts_grow: it grows by a quarter, paid from the cap. */
static bool grow(ts_callsites *c, void **p, size_t *cap, size_t need, size_t es)
{
	if (need <= *cap)
		return true;
	/* by a quarter: the index is the one table that grows with the trace */
	size_t n = *cap ? *cap + *cap / 4 : 1024 / es;
	while (n < need)
		n += n / 4 + 1;
	if (c->mem + (n - *cap) * es > c->mem_cap)
		return false;
	void *q = realloc(*p, n * es);
	if (!q)
		return false;
	c->mem += (n - *cap) * es;
	held(c);
	*p = q;
	*cap = n;
	return true;
}

/* The length of the varint at p. */
static size_t var_len(const uint8_t *p)
{
	size_t n = 1;
	while (n < 10 && (p[n - 1] & 0x80))
		n++;
	return n;
}

/* The varint at src copied to dst; its length. */
static size_t copy_var(uint8_t *dst, const uint8_t *src)
{
	size_t n = 0;
	while (n < 9 && (src[n] & 0x80)) {
		dst[n] = src[n];
		n++;
	}
	dst[n] = src[n];
	return n + 1;
}

/* A full chunk's changes in[0..n), (time, name) varint pairs, as two
 * columns in out: every time, then every name; returns the times' bytes. */
static size_t to_columns(const uint8_t *in, size_t n, uint8_t *out)
{
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		size_t a = copy_var(out + o, in + i);
		o += a;
		i += a;
		i += var_len(in + i);
	}
	size_t times = o;
	for (size_t i = 0; i < n;) {
		i += var_len(in + i);
		size_t b = copy_var(out + o, in + i);
		o += b;
		i += b;
	}
	return times;
}

/* The pairs back from the columns in[0..n) of CHUNK_CHANGES changes. */
static void from_columns(const uint8_t *in, size_t n, uint8_t *out)
{
	size_t t = 0, nm = 0, o = 0;
	for (int i = 0; i < CHUNK_CHANGES && nm < n; i++)
		nm += var_len(in + nm);
	for (int i = 0; i < CHUNK_CHANGES && nm < n; i++) {
		size_t a = copy_var(out + o, in + t);
		t += a;
		o += a;
		size_t b = copy_var(out + o, in + nm);
		nm += b;
		o += b;
	}
}

/* Chunk ch, kept as it is since it was sealed, deflated: the names as
 * one column, the times as another kept as they are (jitter over a step,
 * they would shrink by a tenth for more than half of deflate's work). */
static bool pack(ts_callsites *c, chunk *ch)
{
	if (!c->cols && !(c->cols = malloc(CHUNK_RAW)))
		return false;
	size_t times = to_columns(ch->z, ch->len, c->cols);
	size_t zlen;
	uint8_t *z = ts_pack_deflate(c->pk, c->cols, ch->len, times, &zlen);
	if (!z)
		return false;
	c->mem = c->mem - ch->zlen + zlen;
	held(c);
	free(ch->z);
	*ch = (chunk){ z, (uint32_t)zlen, ch->len, false };
	return true;
}

/* The oldest chunk of t sealed and not deflated yet, deflated; false when
 * none is left (or memory ran out). */
static bool pack_oldest(ts_callsites *c, thread_frames *t)
{
	while (t->raw_from < t->nch) {
		chunk *ch = chunk_at(t, t->raw_from++);
		if (ch->whole)
			return pack(c, ch);
	}
	return false;
}

/* The chunk being written, sealed: it holds CHUNK_BLOCKS blocks. It is
 * kept as it is while RAW_KEEP newer ones are not sealed: launches
 * usually pass it by then, and it goes undeflated (see retire); else the
 * oldest is deflated. */
static bool seal(ts_callsites *c, thread_frames *t)
{
	if (!grow(c, (void **)&t->ch, &t->chcap, t->nch - t->ch_base + 1, sizeof *t->ch))
		return false;
	size_t n = t->nb;
	while (c->mem + n > c->mem_cap && pack_oldest(c, t))
		;
	uint8_t *raw = c->mem + n <= c->mem_cap ? malloc(n ? n : 1) : NULL;
	if (!raw)
		return false;
	memcpy(raw, t->b, n);
	c->mem += n;
	held(c);
	t->ch[t->nch++ - t->ch_base] = (chunk){ raw, (uint32_t)n, (uint32_t)n, true };
	c->chunks++;
	t->nb = 0;
	while (t->nch - t->raw_from > RAW_KEEP && pack_oldest(c, t))
		;
	return true;
}

/* Code a change at time t to name id + 1 (nondecreasing times); a change
 * to the name already in force is none. */
static bool change(ts_callsites *c, thread_frames *t, int64_t at, uint32_t name1)
{
	if (t->nblk > 0 && name1 == t->last_name)
		return true;
	bool new_blk = t->nblk == 0 || t->in_last == BLOCK;
	if (new_blk && t->nblk - t->nch * CHUNK_BLOCKS == CHUNK_BLOCKS && !seal(c, t))
		return false;
	if (!grow(c, (void **)&t->b, &t->bcap, t->nb + CHANGE_MAX, 1))
		return false;
	int64_t prev = t->last_t;
	if (new_blk) {
		size_t live = t->nblk - t->ch_base * CHUNK_BLOCKS;
		if (!grow(c, (void **)&t->blk, &t->blkcap, live + 1, sizeof *t->blk))
			return false;
		t->blk[live] = (block){ at, t->nb };
		t->nblk++;
		t->in_last = 0;
		prev = at;
	}
	t->nb += put_var(t->b + t->nb, (uint64_t)(at - prev));
	t->nb += put_var(t->b + t->nb, name1);
	t->in_last++;
	t->last_t = at;
	t->last_name = name1;
	return true;
}

/* The open frames ended before s: their ends coded, in time order. */
static bool close_before(ts_callsites *c, thread_frames *t, int64_t s)
{
	while (t->nopen > 0 && t->open[t->nopen - 1].end < s) {
		int64_t e = t->open[--t->nopen].end;
		/* frames under it already over by then end with it */
		while (t->nopen > 0 && t->open[t->nopen - 1].end <= e)
			t->nopen--;
		if (!change(c, t, e + 1, t->nopen ? t->open[t->nopen - 1].name + 1 : NONE_ID))
			return false;
	}
	if (t->nopen == OPEN_MAX) {
		/* frames over under one still open (a child outliving its
		 * parent) are never the innermost again: out */
		int k = 0;
		for (int j = 0; j < t->nopen; j++)
			if (t->open[j].end >= s)
				t->open[k++] = t->open[j];
		t->nopen = k;
	}
	return true;
}

void ts_callsites_frame(ts_callsites *c, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR) || ev->name_len == 0)
		return;
	c->t.frames++;
	if (skipped(c, ev->name, ev->name_len, ev->name_hash))
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
	if (!t || ts_intern_put_hashed(c->names, ev->name, ev->name_len, ev->name_hash, &name) != TS_OK ||
	    !close_before(c, t, ev->ts_ns) || t->nopen == OPEN_MAX ||
	    !change(c, t, ev->ts_ns, name + 1)) {
		c->t.dropped++;
		return;
	}
	t->open[t->nopen++] = (open_frame){ ev->ts_ns,
		ev->ts_ns + (ev->dur_ns > 0 ? ev->dur_ns : 0), name };
	t->last_start = ev->ts_ns;
	c->t.kept++;
}

/* ------------------------------------------------------------- lookup */

/* Chunk ch, kept whole from now on (bytes: it inflated); false past the
 * memory cap. */
static bool keep_whole(ts_callsites *c, chunk *ch, const uint8_t *bytes)
{
	if (c->mem - ch->zlen + ch->len > c->mem_cap)
		return false;
	uint8_t *w = malloc(ch->len ? ch->len : 1);
	if (!w)
		return false;
	memcpy(w, bytes, ch->len);
	c->mem = c->mem - ch->zlen + ch->len;
	held(c);
	free(ch->z);
	ch->z = w;
	ch->zlen = ch->len;
	ch->whole = true;
	return true;
}

/* The bytes of chunk k of t (*len of them): the chunk being written, one
 * kept whole, or a view of a deflated one; NULL when memory ran out. */
static const uint8_t *chunk_bytes(ts_callsites *c, thread_frames *t, size_t k, size_t *len)
{
	if (k == t->nch) {
		*len = t->nb;
		return t->b;
	}
	chunk *ch = chunk_at(t, k);
	*len = ch->len;
	if (ch->whole)
		return ch->z;
	view *v = &c->views[0];
	for (int j = 0; j < VIEWS; j++) {
		view *w = &c->views[j];
		if (w->t == t && w->k == k) {
			w->used = ++c->tick;
			return w->buf;
		}
		if (w->used < v->used)
			v = w;
	}
	if (!v->buf && !(v->buf = malloc(CHUNK_RAW)))
		return NULL;
	if (!c->cols && !(c->cols = malloc(CHUNK_RAW)))
		return NULL;
	v->t = NULL;
	if (!ts_pack_inflate(c->pk, ch->z, ch->zlen, c->cols, *len))
		return NULL;
	from_columns(c->cols, *len, v->buf);
	if (++c->inflated > THRASH * c->chunks + 64 && keep_whole(c, ch, v->buf))
		return ch->z;
	v->t = t;
	v->k = k;
	v->used = ++c->tick;
	return v->buf;
}

/* The bytes of the chunk a walk reads, fetched once per chunk (not per
 * change: a view is looked up, a chunk inflated, only where it turns). */
typedef struct {
	size_t k;                /* SIZE_MAX: none yet */
	const uint8_t *p;
	size_t len;
} walk_chunk;

/* Decode the change after (*blk, *off, *i) into *at, *name1 and step past
 * it; false past the last. */
static bool peek(ts_callsites *c, thread_frames *t, walk_chunk *w, size_t *blk, size_t *off,
		 unsigned *i, int64_t prev, int64_t *at, uint32_t *name1)
{
	size_t b = *blk, o = *off;
	unsigned n = *i;
	if (n == BLOCK) {            /* every block but the last holds BLOCK */
		b++;
		n = 0;
		if (b % CHUNK_BLOCKS == 0)
			o = 0;
	}
	if (b >= t->nblk)
		return false;
	size_t k = b / CHUNK_BLOCKS;
	/* the chunk being written grows: fetched again at each change */
	if (w->k != k || k == t->nch) {
		w->p = chunk_bytes(c, t, k, &w->len);
		w->k = w->p ? k : SIZE_MAX;
	}
	if (!w->p || o >= w->len)
		return false;
	if (n == 0)
		prev = block_at(t, b)->t;
	*at = prev + (int64_t)get_var(w->p, &o);
	*name1 = (uint32_t)get_var(w->p, &o);
	*blk = b;
	*off = o;
	*i = n + 1;
	return true;
}

/* The name + 1 in force at ts < t->last_start, from the coded changes. */
static uint32_t coded_at(ts_callsites *c, thread_frames *t, int64_t ts)
{
	size_t first = t->ch_base * CHUNK_BLOCKS;
	if (t->nblk == first)
		return NONE_ID;
	if (ts < t->blk[0].t) {
		/* before the frames kept: none, or none any more (a lookup
		 * back past a retired chunk: counted) */
		c->t.late += t->ch_base > 0;
		return NONE_ID;
	}
	if (!t->cur_set || ts < t->cur_t) {
		/* the last block starting at or before ts, from its start */
		size_t lo = first, hi = t->nblk;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (block_at(t, mid)->t <= ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		t->cur_blk = lo - 1;
		t->cur_off = block_at(t, lo - 1)->off;
		t->cur_i = 0;
		t->cur_t = block_at(t, lo - 1)->t;
		t->cur_name = NONE_ID;
		t->cur_set = false;
	}
	/* forward over the changes at or before ts */
	walk_chunk w = { .k = SIZE_MAX };
	for (;;) {
		size_t blk = t->cur_blk, off = t->cur_off;
		unsigned i = t->cur_i;
		int64_t at;
		uint32_t name1;
		if (!peek(c, t, &w, &blk, &off, &i, t->cur_t, &at, &name1) || at > ts)
			break;
		t->cur_blk = blk;
		t->cur_off = off;
		t->cur_i = i;
		t->cur_t = at;
		t->cur_name = name1;
		t->cur_set = true;
	}
	return t->cur_set ? t->cur_name : NONE_ID;
}

/*
 * A thread's launches come in time order (every shared trace: not one
 * lookup earlier than the one before on its thread), so a sealed chunk
 * whose next chunk starts at or before the latest time looked up is read
 * no more: it goes, and the index holds the frames between the launches
 * and the latest frame, not the whole trace. A lookup back before the
 * first chunk kept finds none and is counted (late).
 */
static void retire(ts_callsites *c, thread_frames *t, int64_t ts)
{
	if (ts <= t->horizon)
		return;
	t->horizon = ts;
	size_t gone = 0;
	while (t->ch_base + gone < t->nch) {
		size_t next = (t->ch_base + gone + 1) * CHUNK_BLOCKS;
		if (next >= t->nblk || block_at(t, next)->t > ts)
			break;
		chunk *ch = &t->ch[gone++];
		c->mem -= ch->zlen;
		free(ch->z);
	}
	if (!gone)
		return;
	size_t nch = t->nch - t->ch_base, nblk = t->nblk - t->ch_base * CHUNK_BLOCKS;
	memmove(t->ch, t->ch + gone, (nch - gone) * sizeof *t->ch);
	memmove(t->blk, t->blk + gone * CHUNK_BLOCKS, (nblk - gone * CHUNK_BLOCKS) * sizeof *t->blk);
	t->ch_base += gone;
	if (t->raw_from < t->ch_base)
		t->raw_from = t->ch_base;
	for (int v = 0; v < VIEWS; v++)
		if (c->views[v].t == t && c->views[v].k < t->ch_base)
			c->views[v].t = NULL;
	if (t->cur_blk < t->ch_base * CHUNK_BLOCKS)
		t->cur_set = false;   /* a lookup from the open frames left it there */
}

uint32_t ts_callsites_at(ts_callsites *c, int64_t pid, int64_t tid, int64_t ts)
{
	c->t.lookups++;
	thread_frames *t = thread_of(c, pid, tid, false);
	if (!t || t->nblk == 0)
		return TS_INTERN_NONE;
	retire(c, t, ts);
	uint32_t name1 = NONE_ID;
	if (ts >= t->last_start) {
		/* the open frames: the innermost not over at ts */
		for (int j = t->nopen - 1; j >= 0; j--)
			if (t->open[j].end >= ts) {
				name1 = t->open[j].name + 1;
				break;
			}
	} else {
		name1 = coded_at(c, t, ts);
	}
	if (name1 == NONE_ID)
		return TS_INTERN_NONE;
	c->t.found++;
	return name1 - 1;
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
	c->t.late += t->late;
	c->t.index_bytes += t->index_bytes;
}
