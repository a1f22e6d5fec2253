/*
 * order.c - the order watch and the sorter (see order.h).
 *
 * The sorter keeps each event as a record (evrec.h) in one buffer with an
 * index of sort keys. Past its memory it sorts the index and writes the
 * records in that order as a run to a temporary file; at the end the runs
 * are merged through a heap, each read through its own small buffer.
 */
#define _GNU_SOURCE
#include "input/order.h"
#include "input/evrec.h"
#include "input/base/grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_OF_ORDER 64           /* late or back events: the order is out */
#define WATCH_SLOTS 32

/* ---------------------------------------------------------------- watch */

static bool cpu_side(ts_cat c)
{
	return c == TS_CAT_CPU_OP || c == TS_CAT_PYTHON_FUNCTION || c == TS_CAT_USER_ANNOTATION;
}

static bool gpu_op(ts_cat c)
{
	return c == TS_CAT_KERNEL || c == TS_CAT_GPU_MEMCPY || c == TS_CAT_GPU_MEMSET;
}

/* The lane an event runs on: a GPU operation's device and stream, a CPU
 * event's process, thread and kind (Kineto writes a thread's ops and
 * its Python frames as two runs, each in start order). */
static int64_t lane_of(const ts_event *ev)
{
	bool gpu = gpu_op(ev->cat);
	int64_t a = gpu && (ev->has & TS_HAS_DEVICE) ? ev->device : (ev->has & TS_HAS_PID) ? ev->pid : -1;
	int64_t b = gpu && (ev->has & TS_HAS_STREAM) ? ev->stream : (ev->has & TS_HAS_TID) ? ev->tid : -1;
	return (int64_t)(((uint64_t)a * 1000003u ^ (uint64_t)b) * 31u + (uint64_t)ev->cat);
}

/* Whether ev starts before the last event seen on its lane (of the first
 * WATCH_SLOTS lanes), and it becomes the last. */
static bool went_back(ts_order_watch *w, const ts_event *ev)
{
	int64_t id = lane_of(ev);
	for (int i = 0; i < WATCH_SLOTS; i++) {
		if (!w->lane_used[i]) {
			w->lane_used[i] = true;
			w->lane_id[i] = id;
			w->lane_last[i] = ev->ts_ns;
			return false;
		}
		if (w->lane_id[i] == id) {
			bool back = ev->ts_ns < w->lane_last[i];
			w->lane_last[i] = ev->ts_ns;
			return back;
		}
	}
	return false;
}

bool ts_order_watch_event(ts_order_watch *w, const ts_event *ev)
{
	if (cpu_side(ev->cat)) {
		w->cpu++;
		w->late += w->gpu_began;
		if (ev->has & TS_HAS_TS)
			w->cpu_back += went_back(w, ev);
	}
	/* the GPU's side begins with its first operation: runtime calls may
	 * come among the CPU's ops (the analysis takes either) */
	if (gpu_op(ev->cat) && (ev->has & TS_HAS_TS)) {
		w->gpu_began = true;
		w->gpu++;
		w->back += went_back(w, ev);
	}
	return w->late >= OUT_OF_ORDER || w->back >= OUT_OF_ORDER || w->cpu_back >= OUT_OF_ORDER;
}

bool ts_order_watch_end(const ts_order_watch *w)
{
	return w->late >= OUT_OF_ORDER || w->back >= OUT_OF_ORDER || w->cpu_back >= OUT_OF_ORDER ||
	       (w->late >= 8 && w->late * 4 >= w->cpu) || (w->cpu_back >= 8 && w->cpu_back * 4 >= w->cpu) ||
	       (w->back >= 8 && w->back * 4 >= w->gpu);
}

/* ---------------------------------------------------------------- keys */

typedef struct {
	int64_t a, b, c;
	uint64_t seq;
	uint8_t group;
} okey;

typedef struct {
	okey k;
	size_t off;
	uint32_t len;
} ient;

static int64_t neg_dur(const ts_event *ev)
{
	return (ev->has & TS_HAS_DUR) && ev->dur_ns > 0 ? -ev->dur_ns : 0;
}

/* The event's place (order.h's groups). */
static okey key_of(const ts_event *ev, uint64_t seq)
{
	okey k = { .seq = seq };
	if (ev->cat == TS_CAT_METADATA || !(ev->has & TS_HAS_TS))
		return k;
	int64_t kind;
	switch (ev->cat) {
	case TS_CAT_GPU_USER_ANNOTATION:
		return (okey){ ev->ts_ns, neg_dur(ev), 0, seq, 4 };
	case TS_CAT_CUDA_RUNTIME:
	case TS_CAT_CUDA_DRIVER:
		kind = 0;
		break;
	case TS_CAT_FLOW:
		kind = 1;
		break;
	case TS_CAT_KERNEL:
	case TS_CAT_GPU_MEMCPY:
	case TS_CAT_GPU_MEMSET:
		kind = 2;
		break;
	default:
		return (okey){ ev->ts_ns, neg_dur(ev), 0, seq, 1 };
	}
	/* a flow carries its launch's correlation as its id */
	bool flow = ev->cat == TS_CAT_FLOW;
	bool has_corr = ev->has & (flow ? TS_HAS_ID : TS_HAS_CORRELATION);
	int64_t corr = flow ? ev->id : ev->correlation;
	if (has_corr)
		return (okey){ corr, kind, ev->ts_ns, seq, 2 };
	return (okey){ ev->ts_ns, kind, 0, seq, 3 };
}

static int cmp_i64(int64_t x, int64_t y)
{
	return (x > y) - (x < y);
}

/* Keys in order; equal ones in the file's order, backwards where desc. */
static int key_cmp(const okey *x, const okey *y, bool desc)
{
	int c = (x->group > y->group) - (x->group < y->group);
	if (!c)
		c = cmp_i64(x->a, y->a);
	if (!c)
		c = cmp_i64(x->b, y->b);
	if (!c)
		c = cmp_i64(x->c, y->c);
	if (!c)
		c = desc ? (x->seq < y->seq) - (x->seq > y->seq) : (x->seq > y->seq) - (x->seq < y->seq);
	return c;
}

/* Merge sort of n entries (tmp: room for n). */
static void sort_index(ient *v, ient *tmp, size_t n, bool desc)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_index(v, tmp, h, desc);
	sort_index(v + h, tmp, n - h, desc);
	if (key_cmp(&v[h - 1].k, &v[h].k, desc) <= 0)
		return;
	memcpy(tmp, v, h * sizeof *v);
	size_t i = 0, j = h, o = 0;
	while (i < h && j < n)
		v[o++] = key_cmp(&tmp[i].k, &v[j].k, desc) <= 0 ? tmp[i++] : v[j++];
	while (i < h)
		v[o++] = tmp[i++];
}

/* --------------------------------------------------------------- sorter */

typedef struct {
	uint64_t pos, end;        /* its bytes left in the file */
	unsigned char *buf;
	size_t len, at, cap;      /* bytes in buf; the next record's */
	ts_event ev;
	okey k;
} run;

struct ts_sorter {
	unsigned char *buf;       /* records */
	size_t nbuf, cap;
	ient *idx, *tmp;
	size_t nidx, idx_cap;
	size_t mem;
	uint64_t seq;
	/* the GPU's operations forwards or backwards (ties go that way) */
	uint64_t fwd, bwd;
	int64_t last_op;
	bool desc, decided;
	char dir[256];
	int fd;
	uint64_t file_end;
	run *runs;
	size_t nruns, runs_cap;
	char err[400];
};

ts_sorter *ts_sorter_new(size_t mem_bytes, const char *tmpdir)
{
	ts_sorter *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->mem = mem_bytes < (1u << 20) ? (1u << 20) : mem_bytes;
	s->fd = -1;
	s->last_op = INT64_MIN;
	if (!tmpdir || !*tmpdir)
		tmpdir = getenv("TMPDIR");
	snprintf(s->dir, sizeof s->dir, "%s", tmpdir && *tmpdir ? tmpdir : "/tmp");
	return s;
}

void ts_sorter_free(ts_sorter *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nruns; i++)
		free(s->runs[i].buf);
	free(s->runs);
	free(s->buf);
	free(s->idx);
	free(s->tmp);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

const char *ts_sorter_error(const ts_sorter *s)
{
	return s->err;
}

uint64_t ts_sorter_events(const ts_sorter *s)
{
	return s->seq;
}

uint64_t ts_sorter_runs(const ts_sorter *s)
{
	return s->nruns;
}

uint64_t ts_sorter_file_bytes(const ts_sorter *s)
{
	return s->file_end;
}

static ts_status io_error(ts_sorter *s, const char *what)
{
	snprintf(s->err, sizeof s->err, "sorting the events through a temporary file in %s: %s: %s",
		 s->dir, what, strerror(errno ? errno : EIO));
	return TS_ERR_IO;
}

static ts_status write_all(ts_sorter *s, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = pwrite(s->fd, c, n, (off_t)s->file_end);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return io_error(s, "write");
		c += w;
		n -= (size_t)w;
		s->file_end += (uint64_t)w;
	}
	return TS_OK;
}

/* The held events, sorted, as one run in the file. */
static ts_status spill(ts_sorter *s)
{
	if (s->fd < 0) {
		char path[300];
		snprintf(path, sizeof path, "%s/tracestream-sort-XXXXXX", s->dir);
		errno = 0;
		s->fd = mkstemp(path);
		if (s->fd < 0)
			return io_error(s, "create");
		unlink(path);
	}
	if (!ts_grow((void **)&s->runs, &s->runs_cap, s->nruns + 1, sizeof *s->runs, 16, SIZE_MAX / 2, false))
		return TS_ERR_NOMEM;
	s->decided = true;
	sort_index(s->idx, s->tmp, s->nidx, s->desc);
	run *r = &s->runs[s->nruns];
	*r = (run){ .pos = s->file_end };
	/* the records go out through one buffer, not three writes each */
	enum { OUT = 256 * 1024 };
	unsigned char *out = malloc(OUT);
	size_t nout = 0;
	ts_status st = out ? TS_OK : TS_ERR_NOMEM;
	for (size_t i = 0; i < s->nidx && st == TS_OK; i++) {
		const ient *e = &s->idx[i];
		size_t need = sizeof e->len + sizeof e->k.seq + e->len;
		if (nout + need > OUT) {
			st = write_all(s, out, nout);
			nout = 0;
		}
		if (st != TS_OK)
			break;
		if (need > OUT) {         /* a record longer than the buffer */
			st = write_all(s, &e->len, sizeof e->len);
			if (st == TS_OK)
				st = write_all(s, &e->k.seq, sizeof e->k.seq);
			if (st == TS_OK)
				st = write_all(s, s->buf + e->off, e->len);
			continue;
		}
		memcpy(out + nout, &e->len, sizeof e->len);
		memcpy(out + nout + sizeof e->len, &e->k.seq, sizeof e->k.seq);
		memcpy(out + nout + sizeof e->len + sizeof e->k.seq, s->buf + e->off, e->len);
		nout += need;
	}
	if (st == TS_OK && nout)
		st = write_all(s, out, nout);
	free(out);
	if (st != TS_OK)
		return st;
	r->end = s->file_end;
	s->nruns++;
	s->nbuf = s->nidx = 0;
	return TS_OK;
}

/* Which way the GPU's operations run, from those seen so far. */
static void direction(ts_sorter *s, const ts_event *ev)
{
	if (s->decided || !gpu_op(ev->cat) || !(ev->has & TS_HAS_TS))
		return;
	if (s->last_op != INT64_MIN)
		s->fwd += ev->ts_ns >= s->last_op, s->bwd += ev->ts_ns < s->last_op;
	s->last_op = ev->ts_ns;
	s->desc = s->bwd > s->fwd;
}

/* Room for one more record of most bytes and its index entry. */
static bool room(ts_sorter *s, size_t most)
{
	if (!ts_grow((void **)&s->buf, &s->cap, s->nbuf + most, 1, 1u << 16, SIZE_MAX / 2, false))
		return false;
	size_t old = s->idx_cap;
	if (!ts_grow((void **)&s->idx, &s->idx_cap, s->nidx + 1, sizeof *s->idx, 1024, SIZE_MAX / 64, false))
		return false;
	if (s->idx_cap != old) {
		ient *t = realloc(s->tmp, s->idx_cap * sizeof *t);
		if (!t) {
			s->idx_cap = old;   /* the index stays as large as tmp */
			return false;
		}
		s->tmp = t;
	}
	return true;
}

ts_status ts_sorter_add(ts_sorter *s, const ts_event *ev)
{
	size_t most = ts_evrec_most(ev);
	size_t held = s->nbuf + most + (s->nidx + 1) * 2 * sizeof(ient);
	if (held > s->mem && s->nidx) {
		ts_status st = spill(s);
		if (st != TS_OK)
			return st;
	}
	if (!room(s, most)) {
		/* less memory than it was given (a limit on the process): what
		 * it holds goes to the file, and it holds no more from now on */
		if (!s->nidx)
			return TS_ERR_NOMEM;
		s->mem = held > (1u << 20) ? held / 2 : (1u << 20);
		ts_status st = spill(s);
		if (st != TS_OK)
			return st;
		if (!room(s, most))
			return TS_ERR_NOMEM;
	}
	direction(s, ev);
	unsigned char *w = ts_evrec_put(s->buf + s->nbuf, ev);
	size_t len = (size_t)(w - (s->buf + s->nbuf));
	s->idx[s->nidx++] = (ient){ key_of(ev, s->seq++), s->nbuf, (uint32_t)len };
	s->nbuf += len;
	return TS_OK;
}

/* ----------------------------------------------------------------- merge */

/* Bytes of the run's next record (its length and seq first) in its
 * buffer; false at its end. */
static ts_status fill(ts_sorter *s, run *r, size_t need, bool *ok)
{
	*ok = false;
	if (r->len - r->at >= need) {
		*ok = true;
		return TS_OK;
	}
	memmove(r->buf, r->buf + r->at, r->len - r->at);
	r->len -= r->at;
	r->at = 0;
	if (need > r->cap) {
		unsigned char *b = realloc(r->buf, need);
		if (!b)
			return TS_ERR_NOMEM;
		r->buf = b;
		r->cap = need;
	}
	while (r->len < need && r->pos < r->end) {
		size_t want = r->cap - r->len;
		if (want > r->end - r->pos)
			want = (size_t)(r->end - r->pos);
		ssize_t n = pread(s->fd, r->buf + r->len, want, (off_t)r->pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return io_error(s, "read");
		r->len += (size_t)n;
		r->pos += (uint64_t)n;
	}
	*ok = r->len >= need;
	return TS_OK;
}

/* The run's next event into r->ev and r->k; *live false at its end. */
static ts_status next_of(ts_sorter *s, run *r, bool *live)
{
	uint32_t len;
	uint64_t seq;
	ts_status st = fill(s, r, sizeof len + sizeof seq, live);
	if (st != TS_OK || !*live)
		return st;
	memcpy(&len, r->buf + r->at, sizeof len);
	memcpy(&seq, r->buf + r->at + sizeof len, sizeof seq);
	st = fill(s, r, sizeof len + sizeof seq + len, live);
	if (st != TS_OK || !*live) {
		*live = false;
		return st == TS_OK ? io_error(s, "a run ends inside a record") : st;
	}
	const unsigned char *p = r->buf + r->at + sizeof len + sizeof seq;
	memset(&r->ev, 0, sizeof r->ev);
	ts_evrec_get(p, &r->ev);
	r->k = key_of(&r->ev, seq);
	r->at += sizeof len + sizeof seq + len;
	return TS_OK;
}

static bool run_less(const ts_sorter *s, const run *x, const run *y)
{
	return key_cmp(&x->k, &y->k, s->desc) < 0;
}

static void sift_down(const ts_sorter *s, run **h, size_t n, size_t i)
{
	for (;;) {
		size_t m = i, l = 2 * i + 1, r = l + 1;
		if (l < n && run_less(s, h[l], h[m]))
			m = l;
		if (r < n && run_less(s, h[r], h[m]))
			m = r;
		if (m == i)
			return;
		run *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static ts_status merge(ts_sorter *s, ts_event_fn fn, void *ud)
{
	size_t bufsz = (16u << 20) / s->nruns;
	bufsz = bufsz < 8192 ? 8192 : bufsz > 65536 ? 65536 : bufsz;
	run **heap = malloc(s->nruns * sizeof *heap);
	if (!heap)
		return TS_ERR_NOMEM;
	size_t n = 0;
	ts_status st = TS_OK;
	for (size_t i = 0; i < s->nruns && st == TS_OK; i++) {
		run *r = &s->runs[i];
		bool live;
		if (!(r->buf = malloc(bufsz))) {
			st = TS_ERR_NOMEM;
			break;
		}
		r->cap = bufsz;
		st = next_of(s, r, &live);
		if (st == TS_OK && live)
			heap[n++] = r;
	}
	for (size_t i = n / 2; i-- > 0;)
		sift_down(s, heap, n, i);
	while (st == TS_OK && n) {
		run *r = heap[0];
		st = fn(ud, &r->ev);
		bool live = false;
		if (st == TS_OK)
			st = next_of(s, r, &live);
		if (!live)
			heap[0] = heap[--n];
		sift_down(s, heap, n, 0);
	}
	free(heap);
	return st;
}

/* Held in memory and emitted from there, at most: past it, what the
 * sorter holds goes to the file and its memory is let go before the
 * analysis reads the events (which needs its own). */
#define EMIT_IN_MEMORY ((size_t)1 << 20)

ts_status ts_sorter_emit(ts_sorter *s, ts_event_fn fn, void *ud)
{
	if (!s->nruns && s->nbuf <= EMIT_IN_MEMORY) {
		s->decided = true;
		sort_index(s->idx, s->tmp, s->nidx, s->desc);
		ts_event ev;
		for (size_t i = 0; i < s->nidx; i++) {
			memset(&ev, 0, sizeof ev);
			ts_evrec_get(s->buf + s->idx[i].off, &ev);
			ts_status st = fn(ud, &ev);
			if (st != TS_OK)
				return st;
		}
		return TS_OK;
	}
	if (s->nidx) {
		ts_status st = spill(s);
		if (st != TS_OK)
			return st;
	}
	free(s->buf);
	free(s->idx);
	free(s->tmp);
	s->buf = NULL;
	s->idx = s->tmp = NULL;
	s->cap = s->idx_cap = 0;
	return merge(s, fn, ud);
}
