/*
 * pparse.c - traceEvents parsed in pieces on worker threads, delivered in
 * order (see pparse.h).
 *
 * The caller's thread reads, cuts and delivers; a ring of pieces carries
 * the bytes to the workers and their records back. Piece k is used as its
 * worker parsed it only when it began between two items (the piece before
 * ended there, as its worker or the caller's parser found) and its worker
 * ended it there too; otherwise the caller's parser reads it, from the
 * byte where it stands, exactly as a serial run would.
 */
#define _GNU_SOURCE
#include "input/pparse.h"
#include "input/evrec.h"
#include "input/base/grow.h"

#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PIECE_DEFAULT (256u * 1024)
#define LONG_PIECE 8               /* no cut in 8 pieces' bytes: in order to the next */
#define CONTEXT 64                 /* bytes kept before a piece's first byte */
#define WS_MAX 32                  /* whitespace a cut's pattern may hold */
#define REC_FACTOR 8               /* records past 8x a piece's bytes: in order */
#define READ_SIZE (64u * 1024)     /* bytes asked of the reader at a time */

enum { FREE, QUEUED, DONE };

typedef struct {
	char *buf;                 /* CONTEXT bytes of room, then the piece */
	size_t len, cap;           /* piece bytes at buf + CONTEXT */
	/* non-NULL: the piece's bytes lie in the file's mapping here (with
	 * CONTEXT bytes before them), not in buf: its worker parses them
	 * where they lie; the main thread copies them only to parse them
	 * itself */
	const char *src;
	uint64_t start;            /* input offset of the piece's first byte */
	unsigned char *rec;        /* its events, encoded */
	size_t nrec, rec_cap;
	ts_parser_stats stats;
	uint64_t items, last_item_end;   /* of the array, as its meta counts them */
	int state;
	bool ok;                   /* parsed whole and ended between items */
} piece;

typedef struct {
	const ts_pparse_opts *o;
	ts_reader *r;
	ts_parser *p;              /* the caller's parser: in order */
	piece *ring;
	int nring;
	size_t piece_size;
	size_t read_size;          /* bytes asked of the reader at a time */
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	bool stop;
	int next_job;              /* ring index the next worker takes */
	int njobs;                 /* queued, not yet taken */
	pthread_t *threads;
	int nthreads;
	/* reading */
	bool eof;
	ts_status rs;              /* the reader's status, sticky */
	bool shrank;
	bool nomem;                /* x->rs is ours: no memory for a piece */
	uint64_t pieces, in_order;
} pp;

/* ------------------------------------------------------------- records */

/* Room for n more record bytes. Not ts_grow: the records grow by a
 * quarter, not double, and never past REC_FACTOR times the piece (a
 * piece of tiny events must not take more than its share of memory). */
static bool rec_room(piece *s, size_t n)
{
	if (s->nrec + n <= s->rec_cap)
		return true;
	size_t cap = s->rec_cap ? s->rec_cap + s->rec_cap / 4 : 64 * 1024;
	while (cap < s->nrec + n)
		cap += cap / 4;
	if (cap > REC_FACTOR * s->len + (256u << 10))
		return false;
	unsigned char *b = realloc(s->rec, cap);
	if (!b)
		return false;
	s->rec = b;
	s->rec_cap = cap;
	return true;
}

typedef struct {
	piece *s;
	bool full;
} enc_ctx;

/* The worker's event callback: the event as a record (evrec.h). */
static ts_status encode(void *ud, const ts_event *e)
{
	enc_ctx *c = ud;
	if (!rec_room(c->s, ts_evrec_most(e))) {
		c->full = true;
		return TS_ERR_NOMEM;     /* stops the worker; the piece goes in order */
	}
	unsigned char *w = ts_evrec_put(c->s->rec + c->s->nrec, e);
	c->s->nrec = (size_t)(w - c->s->rec);
	return TS_OK;
}

/* ------------------------------------------------------------- workers */


/* The piece's bytes through a worker's parser, from where they lie: the
 * file's mapping (guarded: a file cut shorter meanwhile faults on its
 * lost bytes, and the piece is left not ok for the main thread to take in
 * order and say what happened) or the piece's buffer. */
static void parse_piece(piece *s)
{
	ts_meta meta;
	memset(&meta, 0, sizeof meta);
	enc_ctx c = { .s = s };
	s->nrec = 0;
	s->ok = false;
	memset(&s->stats, 0, sizeof s->stats);
	ts_parser *p = ts_parser_new(encode, &c, &meta);
	if (!p)
		return;
	const char *bytes = s->src ? s->src : s->buf + CONTEXT;
	ts_parser_lend(p, bytes, s->len);   /* the piece outlives its parser */
	sigjmp_buf jb;
	if (s->src) {
		if (sigsetjmp(jb, 1)) {
			ts_reader_unguard();
			ts_parser_free(p);
			return;
		}
		ts_reader_guard(&jb);
	}
	bool ok = ts_parser_begin_items(p, s->start) == TS_OK &&
		  ts_parser_feed(p, bytes, s->len) == TS_OK && !c.full &&
		  ts_parser_between_items(p);
	if (s->src)
		ts_reader_unguard();
	if (ok) {
		s->ok = true;
		s->stats = *ts_parser_get_stats(p);
		s->items = meta.events_in_array;
		s->last_item_end = meta.last_event_end;
	}
	ts_parser_free(p);
}

static void *worker(void *arg)
{
	pp *x = arg;
	pthread_mutex_lock(&x->lock);
	for (;;) {
		while (!x->stop && x->njobs == 0)
			pthread_cond_wait(&x->work, &x->lock);
		if (x->stop)
			break;
		piece *s = &x->ring[x->next_job];
		x->next_job = (x->next_job + 1) % x->nring;
		x->njobs--;
		pthread_mutex_unlock(&x->lock);
		parse_piece(s);
		pthread_mutex_lock(&x->lock);
		s->state = DONE;
		pthread_cond_broadcast(&x->done);
	}
	pthread_mutex_unlock(&x->lock);
	return NULL;
}

/* ------------------------------------------------------------- reading */

static bool room(piece *s, size_t need)
{
	return ts_grow((void **)&s->buf, &s->cap, CONTEXT + need, 1,
		       CONTEXT + PIECE_DEFAULT + READ_SIZE, SIZE_MAX, false);
}

/* Append the reader's next bytes to s; false when none came: the end of
 * the input, a read failure (x->rs) or no memory. */
/* Copy a mapped piece's bytes (and the CONTEXT before them) into its
 * buffer, in the calling thread, guarded: a file cut shorter meanwhile
 * faults on its lost bytes; then only the bytes still in the file are
 * kept (*cut: true). false: no memory, or a second fault. */
static bool materialize(ts_reader *r, piece *s, bool *cut)
{
	*cut = false;
	if (!s->src)
		return true;
	if (!room(s, s->len))
		return false;
	sigjmp_buf jb;
	volatile int tries = 0;
	if (sigsetjmp(jb, 1)) {
		ts_reader_unguard();
		*cut = true;
		if (++tries > 1)
			return false;
		int64_t now = ts_reader_size_now(r);
		uint64_t have = now > 0 ? (uint64_t)now : 0;
		s->len = have > s->start ? (size_t)(have - s->start < s->len ? have - s->start : s->len) : 0;
	}
	ts_reader_guard(&jb);
	memcpy(s->buf, s->src - CONTEXT, CONTEXT + s->len);
	ts_reader_unguard();
	s->src = NULL;
	return true;
}

/* The file was cut shorter while it was read: the reader's failure. */
static void file_shrank(pp *x)
{
	x->shrank = true;
	x->rs = TS_ERR_TRUNCATED;
}

/* The main thread's copy of a mapped piece: a cut file is reported as
 * the reader's failure, what was still there kept. */
static bool own_bytes(pp *x, piece *s)
{
	bool cut;
	bool ok = materialize(x->r, s, &cut);
	if (cut)
		file_shrank(x);
	if (!ok && !cut) {
		x->rs = TS_ERR_NOMEM;
		x->nomem = true;
	}
	return ok;
}

static bool read_more(pp *x, piece *s)
{
	if (x->eof || x->rs != TS_OK)
		return false;
	const char *bytes;
	size_t n;
	ts_status rs;
	if (!ts_reader_mapped(x->r)) {
		if (!room(s, s->len + x->read_size)) {
			x->rs = TS_ERR_NOMEM;
			x->nomem = true;
			return false;
		}
		rs = ts_reader_read(x->r, s->buf + CONTEXT + s->len, x->read_size, &n);
	} else {
		/* a file cut shorter while it is read faults where its lost
		 * pages are touched: here, in the copy */
		sigjmp_buf jb;
		if (sigsetjmp(jb, 1)) {
			ts_reader_unguard();
			file_shrank(x);
			return false;
		}
		ts_reader_guard(&jb);
		rs = ts_reader_view(x->r, NULL, x->read_size, &bytes, &n);
		ts_reader_unguard();
		/* a piece in the mapping grows where it lies: no copy here */
		bool in_map = s->src && bytes == s->src + s->len;
		if (n > 0 && !in_map) {
			if (s->src && !own_bytes(x, s))
				return false;
			if (!room(s, s->len + n)) {
				x->rs = TS_ERR_NOMEM;
				x->nomem = true;
				return false;
			}
			ts_reader_guard(&jb);
			memcpy(s->buf + CONTEXT + s->len, bytes, n);
			ts_reader_unguard();
		}
	}
	s->len += n;
	if (x->o->progress)
		x->o->progress(x->o->progress_ud, ts_reader_in_bytes(x->r), ts_reader_out_bytes(x->r));
	if (rs != TS_OK)
		x->rs = rs;
	else if (n == 0)
		x->eof = true;
	return n > 0;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The first cut at or after from in b[0..len): a '{' after a comma after a
 * '}' (whitespace between); the '{' may not be the last byte and the
 * pattern may reach back into the CONTEXT bytes before b. SIZE_MAX: none. */
static size_t find_cut(const char *b, size_t from, size_t len)
{
	for (size_t i = from; i + 1 < len;) {
		const char *q = memchr(b + i, '{', len - 1 - i);
		if (!q)
			return SIZE_MAX;
		size_t at = (size_t)(q - b);
		ptrdiff_t k = (ptrdiff_t)at - 1;
		int ws = 0;
		while (k >= -CONTEXT && ws < WS_MAX && is_ws(b[k]))
			k--, ws++;
		if (k >= -CONTEXT && b[k] == ',') {
			k--;
			ws = 0;
			while (k >= -CONTEXT && ws < WS_MAX && is_ws(b[k]))
				k--, ws++;
			if (k >= -CONTEXT && b[k] == '}')
				return at;
		}
		i = at + 1;
	}
	return SIZE_MAX;
}

/* ------------------------------------------------------------ delivery */

/* The caller's parser reads s itself, from where it stands. */
static ts_status parse_in_order(pp *x, piece *s)
{
	if (s->src && !own_bytes(x, s))
		return x->rs;
	return ts_parser_feed(x->p, s->buf + CONTEXT, s->len);
}

/* The first cut of s at or after from (find_cut), in its buffer or where
 * it lies in the mapping (guarded: a cut file is the reader's failure). */
static size_t cut_in(pp *x, piece *s, size_t from)
{
	if (!s->src)
		return find_cut(s->buf + CONTEXT, from, s->len);
	sigjmp_buf jb;
	if (sigsetjmp(jb, 1)) {
		ts_reader_unguard();
		file_shrank(x);
		return SIZE_MAX;
	}
	ts_reader_guard(&jb);
	size_t cut = find_cut(s->src, from, s->len);
	ts_reader_unguard();
	return cut;
}

/* Piece s in order: its records when they stand (*between: it began
 * between items), else the caller's parser. */
static ts_status deliver(pp *x, piece *s, bool *between)
{
	pthread_mutex_lock(&x->lock);
	while (s->state != DONE)
		pthread_cond_wait(&x->done, &x->lock);
	pthread_mutex_unlock(&x->lock);
	ts_status st = TS_OK;
	if (*between && s->ok) {
		ts_parser_skip(x->p, s->len, &s->stats, s->items, s->last_item_end);
		const unsigned char *r = s->rec, *end = s->rec + s->nrec;
		ts_event ev;
		memset(&ev, 0, sizeof ev);
		while (r < end) {
			r = ts_evrec_get(r, &ev);
			st = x->o->fn(x->o->ud, &ev);
			if (st != TS_OK) {
				ts_parser_fail(x->p, st, ts_strerror(st), ev.end_offset);
				break;
			}
		}
	} else {
		x->in_order++;
		st = parse_in_order(x, s);
		*between = st == TS_OK && ts_parser_between_items(x->p);
	}
	s->state = FREE;
	return st;
}

static void queue(pp *x, piece *s)
{
	pthread_mutex_lock(&x->lock);
	s->state = QUEUED;
	x->njobs++;
	pthread_cond_signal(&x->work);
	pthread_mutex_unlock(&x->lock);
}

/* Move the bytes of s from cut on to the start of t (with the CONTEXT
 * bytes before them), leaving s ending at cut: in a mapped file t is
 * where they lie (its worker parses them there), else a copy. */
static bool split(pp *x, piece *s, size_t cut, piece *t)
{
	size_t n = s->len - cut;
	const char *base = ts_reader_map_base(x->r);
	uint64_t at = s->start + cut;
	if (base && at >= CONTEXT) {
		t->src = base + at;
	} else {
		if (!room(t, n))
			return false;
		memcpy(t->buf, s->buf + cut, CONTEXT + n);   /* CONTEXT bytes before, then n */
		t->src = NULL;
	}
	t->len = n;
	t->start = at;
	s->len = cut;
	return true;
}

/* ----------------------------------------------------------------- run */

static void stop_workers(pp *x)
{
	pthread_mutex_lock(&x->lock);
	x->stop = true;
	pthread_cond_broadcast(&x->work);
	pthread_mutex_unlock(&x->lock);
	for (int i = 0; i < x->nthreads; i++)
		pthread_join(x->threads[i], NULL);
}

/* The bytes before the array and its first items: the caller's parser
 * reads s up to the first cut where it stands between items; s then holds
 * the bytes from there. False when it never does (the input ends, fails,
 * or has no cut): what s held was parsed. */
static bool prologue(pp *x, piece *s, ts_status *st)
{
	size_t fed = 0, from = 0;
	for (;;) {
		/* the first cut may come a few bytes in: the parser sees the
		 * head whole, to tell a compressed or UTF-16 input by its
		 * first bytes */
		if (fed == 0 && s->start == 0)
			ts_parser_head(x->p, s->buf + CONTEXT, s->len);
		size_t cut = find_cut(s->buf + CONTEXT, from, s->len);
		if (cut != SIZE_MAX) {
			*st = ts_parser_feed(x->p, s->buf + CONTEXT + fed, cut - fed);
			if (*st != TS_OK)
				return false;
			fed = cut;
			from = cut + 1;
			if (ts_parser_between_items(x->p))
				break;
			continue;
		}
		/* no cut in what is here: parse all but the last bytes, which
		 * may begin one, and read on */
		size_t keep = s->len - fed < CONTEXT ? s->len - fed : CONTEXT;
		size_t upto = s->len - keep;
		if (upto > fed) {
			*st = ts_parser_feed(x->p, s->buf + CONTEXT + fed, upto - fed);
			if (*st != TS_OK)
				return false;
			fed = upto;
		}
		if (from < fed)
			from = fed;
		if (fed > PIECE_DEFAULT) {
			memmove(s->buf, s->buf + fed, CONTEXT + s->len - fed);
			s->start += fed;
			s->len -= fed;
			from -= fed;
			fed = 0;
		}
		if (!read_more(x, s)) {
			*st = ts_parser_feed(x->p, s->buf + CONTEXT + fed, s->len - fed);
			return false;
		}
	}
	memmove(s->buf, s->buf + fed, CONTEXT + s->len - fed);
	s->start += fed;
	s->len -= fed;
	return true;
}

static ts_status run(pp *x)
{
	piece *s = &x->ring[0];
	ts_status st = TS_OK;
	memset(s->buf, ' ', CONTEXT);
	s->start = 0;
	if (!prologue(x, s, &st))
		return st;
	int head = 0, cur = 0, busy = 0;   /* oldest undelivered, filling, in flight */
	bool between = true;
	for (;;) {
		/* fill the current piece to its size, then to its first cut */
		size_t cut = SIZE_MAX, from = x->piece_size;
		while (st == TS_OK) {
			if (s->len > from + CONTEXT) {
				cut = cut_in(x, s, from);
				if (cut != SIZE_MAX)
					break;
				from = s->len - CONTEXT;
			}
			/* the bytes of pieces in flight stay resident */
			ts_reader_hold(x->r, busy ? x->ring[head].start : s->start);
			if (s->len >= LONG_PIECE * x->piece_size || !read_more(x, s))
				break;
		}
		if (cut == SIZE_MAX) {
			/* the end of the input (or a read failure, or a piece too
			 * long to cut): everything before in order, then this */
			while (st == TS_OK && busy > 0) {
				st = deliver(x, &x->ring[head], &between);
				head = (head + 1) % x->nring;
				busy--;
			}
			if (st != TS_OK)
				return st;
			st = parse_in_order(x, s);
			if (st != TS_OK || s->len < LONG_PIECE * x->piece_size || x->rs != TS_OK)
				return st;
			/* a piece too long to cut: in order to the next cut where
			 * the parser stands between items, and on from there */
			memmove(s->buf, s->buf + s->len, CONTEXT);
			s->start += s->len;
			s->len = 0;
			between = true;
			if (!prologue(x, s, &st))
				return st;
			continue;
		}
		int next = (cur + 1) % x->nring;
		while (busy >= x->nring - 1) {
			st = deliver(x, &x->ring[head], &between);
			head = (head + 1) % x->nring;
			busy--;
			if (st != TS_OK)
				return st;
		}
		if (!split(x, s, cut, &x->ring[next]))
			return ts_parser_fail(x->p, TS_ERR_NOMEM, "out of memory", ts_parser_offset(x->p)),
			       TS_ERR_NOMEM;
		queue(x, s);
		x->pieces++;
		busy++;
		cur = next;
		s = &x->ring[cur];
		/* deliver what is done without waiting */
		while (busy > 0) {
			pthread_mutex_lock(&x->lock);
			bool done = x->ring[head].state == DONE;
			pthread_mutex_unlock(&x->lock);
			if (!done)
				break;
			st = deliver(x, &x->ring[head], &between);
			head = (head + 1) % x->nring;
			busy--;
			if (st != TS_OK)
				return st;
		}
	}
}

/* No more workers than the input has pieces for (a known size: a file,
 * its JSON up to 32 times a gzip file's bytes): threads that would never
 * get a piece are not started. */
static int workers_for_size(const ts_reader *r, size_t piece_size, int want)
{
	int64_t size = ts_reader_size(r);
	if (size < 0)
		return want;
	uint64_t json = (uint64_t)size * (ts_reader_is_gzip(r) ? 32 : 1);
	uint64_t pieces = json / piece_size + 1;
	return pieces < (uint64_t)want ? (int)pieces : want;
}

ts_status ts_pparse_run(ts_reader *r, ts_parser *p, const ts_pparse_opts *o,
			ts_pparse_out *out)
{
	pp x = { .o = o, .r = r, .p = p, .rs = TS_OK };
	memset(out, 0, sizeof *out);
	x.piece_size = o->piece ? o->piece : PIECE_DEFAULT;
	x.read_size = x.piece_size < READ_SIZE ? x.piece_size : READ_SIZE;
	x.nthreads = o->workers < 1 ? 1 : o->workers;
	x.nthreads = workers_for_size(r, x.piece_size, x.nthreads);
	x.nring = 2 * x.nthreads + 1;
	x.ring = calloc((size_t)x.nring, sizeof *x.ring);
	x.threads = calloc((size_t)x.nthreads, sizeof *x.threads);
	bool ok = x.ring && x.threads &&
		  room(&x.ring[0], x.piece_size) &&
		  pthread_mutex_init(&x.lock, NULL) == 0;
	if (ok && pthread_cond_init(&x.work, NULL) != 0) {
		pthread_mutex_destroy(&x.lock);
		ok = false;
	}
	if (ok && pthread_cond_init(&x.done, NULL) != 0) {
		pthread_cond_destroy(&x.work);
		pthread_mutex_destroy(&x.lock);
		ok = false;
	}
	/* a parser needs little stack: 256 KB, not the 8 MB default (address
	 * space, which ulimit -v counts) */
	pthread_attr_t attr;
	bool attr_ok = ok && pthread_attr_init(&attr) == 0;
	if (attr_ok)
		(void)pthread_attr_setstacksize(&attr, 256 * 1024);
	int started = 0;
	while (ok && started < x.nthreads &&
	       pthread_create(&x.threads[started], attr_ok ? &attr : NULL, worker, &x) == 0)
		started++;
	if (attr_ok)
		pthread_attr_destroy(&attr);
	x.nthreads = started;
	ts_status st = TS_ERR_NOMEM;
	out->unavailable = !ok || started == 0;
	out->threads = started;
	if (!out->unavailable) {
		st = run(&x);
		out->pieces = x.pieces;
		out->in_order = x.in_order;
		/* a parse that stopped because the bytes could not be had
		 * (a piece taken in order from a file cut meanwhile) is the
		 * reader's failure, as one that ran to the end of them */
		bool ours = st == TS_OK || (x.rs != TS_OK && st == x.rs);
		if (ours && x.nomem) {
			ts_parser_fail(p, TS_ERR_NOMEM, "out of memory", ts_parser_offset(p));
			st = TS_ERR_NOMEM;
		} else if (ours && x.rs != TS_OK) {
			out->read_failed = true;
			out->shrank = x.shrank;
			st = x.rs;
		} else if (st == TS_OK) {
			st = ts_parser_finish(p);
		}
	}
	if (ok) {
		stop_workers(&x);
		pthread_cond_destroy(&x.done);
		pthread_cond_destroy(&x.work);
		pthread_mutex_destroy(&x.lock);
	}
	for (int i = 0; x.ring && i < x.nring; i++) {
		free(x.ring[i].buf);
		free(x.ring[i].rec);
	}
	free(x.ring);
	free(x.threads);
	return st;
}

/* A cgroup v2 CPU quota ("200000 100000": 2 CPUs), rounded up; 0 none. */
static int quota_cores(void)
{
	FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
	if (!f)
		return 0;
	char q[32] = "";
	long long period = 0;
	int n = fscanf(f, "%31s %lld", q, &period);
	fclose(f);
	if (n != 2 || strcmp(q, "max") == 0 || period <= 0)
		return 0;
	long long quota = atoll(q);
	return quota > 0 ? (int)((quota + period - 1) / period) : 0;
}

int ts_cores(void)
{
	int n = 0;
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	if (n <= 0) {
		long k = sysconf(_SC_NPROCESSORS_ONLN);
		n = k > 0 ? (int)k : 1;
	}
	int q = quota_cores();
	return q > 0 && q < n ? q : n;
}
