/*
 * reader.c - the parser's byte source: a file or stdin, plain or gzip by
 * its magic bytes, concatenated members; gzip is inflated on a thread of
 * its own, chunks ahead of the parser (see reader.h).
 */
#include "input/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define IN_BUF (256 * 1024)
#define MAX_READ_SIZE (1024 * 1024)
#define NSLOT 4            /* inflated chunks in flight */
#define MAP_DROP (1u << 20)    /* mapped bytes behind the parser given back */

/*
 * Gzip input is inflated on a thread of its own, a chunk ahead of the
 * parser: each slot holds what one inline read_gzip() call would have
 * returned (its bytes, its status, the raw bytes read by then), so the
 * parser sees the same chunks, errors and offsets as without the thread.
 * The worker owns the inflate state; the consumer touches only the slots
 * (under the lock) and, once it has taken the worker's last slot, the
 * error text.
 */
typedef struct {
	char *buf;
	size_t n;
	ts_status st;
	uint64_t in_bytes;
	bool full;
} slot;

struct ts_reader {
	int fd;
	bool own_fd;
	bool gzip;
	bool eof;          /* raw input exhausted */
	bool member_done;  /* gzip: last member ended cleanly */
	size_t read_size;
	int64_t size;
	uint64_t in_bytes, out_bytes;
	unsigned char *in;     /* raw input buffer */
	size_t in_len, in_pos;
	z_stream z;
	bool z_init;
	ts_status st;      /* sticky: the first failure */
	char err[256];
	/* the inflate thread (gzip only) */
	bool threaded;
	pthread_t worker;
	pthread_mutex_t lock;
	pthread_cond_t filled, freed;
	bool stop;
	slot slots[NSLOT];
	size_t slot_cap;
	size_t head, pos;  /* consumer: slot being read, offset in it */
	bool taken;        /* consumer holds slots[head] */
	bool done;         /* consumer: the worker's last slot was taken */
	ts_status seen_st; /* consumer: sticky status */
	uint64_t seen_in;  /* consumer: raw bytes behind what it was given */
	/* a plain regular file, mapped (ts_reader_view) */
	const char *map;
	size_t map_len, map_pos, map_dropped;
	size_t map_hold;         /* bytes from here on stay resident (SIZE_MAX: none held) */
};

static ts_status read_gzip(ts_reader *r, char *buf, size_t cap, size_t *n);
static void *inflate_worker(void *arg);

/* Start the inflate thread; false (and the reader stays inline) when it
 * cannot be had. */
static bool start_worker(ts_reader *r)
{
	r->slot_cap = r->read_size < IN_BUF ? r->read_size : IN_BUF;
	for (int i = 0; i < NSLOT; i++)
		if (!(r->slots[i].buf = malloc(r->slot_cap)))
			return false;
	if (pthread_mutex_init(&r->lock, NULL) != 0)
		return false;
	if (pthread_cond_init(&r->filled, NULL) != 0) {
		pthread_mutex_destroy(&r->lock);
		return false;
	}
	if (pthread_cond_init(&r->freed, NULL) != 0) {
		pthread_cond_destroy(&r->filled);
		pthread_mutex_destroy(&r->lock);
		return false;
	}
	if (pthread_create(&r->worker, NULL, inflate_worker, r) != 0) {
		pthread_cond_destroy(&r->freed);
		pthread_cond_destroy(&r->filled);
		pthread_mutex_destroy(&r->lock);
		return false;
	}
	r->threaded = true;
	return true;
}

static void *inflate_worker(void *arg)
{
	ts_reader *r = arg;
	for (size_t i = 0;; i = (i + 1) % NSLOT) {
		slot *s = &r->slots[i];
		pthread_mutex_lock(&r->lock);
		while (s->full && !r->stop)
			pthread_cond_wait(&r->freed, &r->lock);
		bool stop = r->stop;
		pthread_mutex_unlock(&r->lock);
		if (stop)
			return NULL;
		size_t n = 0;
		ts_status st = r->st != TS_OK ? r->st : read_gzip(r, s->buf, r->slot_cap, &n);
		pthread_mutex_lock(&r->lock);
		s->n = n;
		s->st = st;
		s->in_bytes = r->in_bytes;
		s->full = true;
		pthread_cond_signal(&r->filled);
		pthread_mutex_unlock(&r->lock);
		if (st != TS_OK || n == 0)
			return NULL;
	}
}

static ts_status read_threaded(ts_reader *r, char *buf, size_t cap, size_t *n)
{
	*n = 0;
	if (r->seen_st != TS_OK || r->done)
		return r->seen_st;
	slot *s = &r->slots[r->head];
	if (!r->taken) {
		pthread_mutex_lock(&r->lock);
		while (!s->full)
			pthread_cond_wait(&r->filled, &r->lock);
		pthread_mutex_unlock(&r->lock);
		r->taken = true;
		r->pos = 0;
		r->seen_in = s->in_bytes;
	}
	size_t k = s->n - r->pos;
	if (k > cap)
		k = cap;
	memcpy(buf, s->buf + r->pos, k);
	r->pos += k;
	*n = k;
	if (r->pos < s->n)
		return TS_OK;
	/* the slot is spent: its status is this call's */
	ts_status st = s->st;
	if (st != TS_OK || s->n == 0) {
		r->done = true;
		r->seen_st = st;
		return st;
	}
	pthread_mutex_lock(&r->lock);
	s->full = false;
	pthread_cond_signal(&r->freed);
	pthread_mutex_unlock(&r->lock);
	r->taken = false;
	r->head = (r->head + 1) % NSLOT;
	return TS_OK;
}

static ts_status fail(ts_reader *r, ts_status st, const char *msg)
{
	if (r->st == TS_OK) {
		r->st = st;
		snprintf(r->err, sizeof r->err, "%s", msg);
	}
	return r->st;
}

/* One read() of up to cap bytes into dst, retried on EINTR and counted;
 * sets eof at the end of the input. */
static ts_status read_some(ts_reader *r, void *dst, size_t cap, size_t *n)
{
	for (;;) {
		ssize_t k = read(r->fd, dst, cap);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			char msg[200];
			snprintf(msg, sizeof msg, "read error: %s", strerror(errno));
			return fail(r, TS_ERR_IO, msg);
		}
		if (k == 0)
			r->eof = true;
		r->in_bytes += (uint64_t)k;
		*n = (size_t)k;
		return TS_OK;
	}
}

/* Refill the raw buffer (gzip input). */
static ts_status refill(ts_reader *r)
{
	r->in_pos = 0;
	r->in_len = 0;
	return read_some(r, r->in, r->read_size < IN_BUF ? r->read_size : IN_BUF,
			 &r->in_len);
}

ts_reader *ts_reader_open(const char *path, size_t read_size, bool map, ts_status *st)
{
	ts_reader *r = calloc(1, sizeof *r);
	if (!r || !(r->in = malloc(IN_BUF))) {
		free(r);
		*st = TS_ERR_NOMEM;
		return NULL;
	}
	r->read_size = read_size == 0 ? IN_BUF
		     : read_size > MAX_READ_SIZE ? MAX_READ_SIZE : read_size;
	r->size = -1;
	if (strcmp(path, "-") == 0) {
		r->fd = STDIN_FILENO;
	} else {
		r->fd = open(path, O_RDONLY);
		if (r->fd < 0) {
			int e = errno;
			free(r->in);
			free(r);
			errno = e;
			*st = TS_ERR_IO;
			return NULL;
		}
		r->own_fd = true;
	}
	struct stat sb;
	if (fstat(r->fd, &sb) == 0) {
		if (S_ISDIR(sb.st_mode)) {
			ts_reader_free(r);
			errno = EISDIR;
			*st = TS_ERR_IO;
			return NULL;
		}
		if (S_ISREG(sb.st_mode))
			r->size = (int64_t)sb.st_size;
	}
#ifdef POSIX_FADV_SEQUENTIAL
	if (r->own_fd)
		(void)posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	/* Peek at the magic: read until two bytes are in or the input ends. */
	while (r->in_len < 2 && !r->eof) {
		size_t want = r->read_size < IN_BUF - r->in_len ? r->read_size
								: IN_BUF - r->in_len;
		ssize_t k = read(r->fd, r->in + r->in_len, want);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;
			ts_reader_free(r);
			errno = e;
			*st = TS_ERR_IO;
			return NULL;
		}
		if (k == 0)
			r->eof = true;
		r->in_len += (size_t)k;
		r->in_bytes += (uint64_t)k;
	}
	r->gzip = r->in_len >= 2 && r->in[0] == 0x1f && r->in[1] == 0x8b;
	/* a plain regular file is mapped and parsed where it lies: no copy
	 * through a buffer (the bytes peeked at are read again from the map) */
	if (!r->gzip && map && r->own_fd && r->size > 0 && (uint64_t)r->size <= SIZE_MAX) {
		void *m = mmap(NULL, (size_t)r->size, PROT_READ, MAP_PRIVATE, r->fd, 0);
		if (m != MAP_FAILED) {
			(void)madvise(m, (size_t)r->size, MADV_SEQUENTIAL);
			r->map = m;
			r->map_len = (size_t)r->size;
			r->map_hold = SIZE_MAX;
			r->in_bytes = 0;
			r->in_len = r->in_pos = 0;
		}
	}
	if (r->gzip) {
		if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK) {
			ts_reader_free(r);
			*st = TS_ERR_NOMEM;
			return NULL;
		}
		r->z_init = true;
		(void)start_worker(r);   /* inline when no thread can be had */
	}
	*st = TS_OK;
	return r;
}

void ts_reader_free(ts_reader *r)
{
	if (!r)
		return;
	if (r->threaded) {
		pthread_mutex_lock(&r->lock);
		r->stop = true;
		pthread_cond_broadcast(&r->freed);
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->worker, NULL);
		pthread_cond_destroy(&r->freed);
		pthread_cond_destroy(&r->filled);
		pthread_mutex_destroy(&r->lock);
	}
	for (int i = 0; i < NSLOT; i++)
		free(r->slots[i].buf);
	if (r->z_init)
		inflateEnd(&r->z);
	if (r->map)
		munmap((void *)r->map, r->map_len);
	if (r->own_fd)
		close(r->fd);
	free(r->in);
	free(r);
}

static ts_status read_plain(ts_reader *r, char *buf, size_t cap, size_t *n)
{
	*n = 0;
	if (r->in_pos == r->in_len) {
		/* Past the bytes peeked at open: read straight into the
		 * caller's buffer, saving a copy of every byte. */
		if (r->eof)
			return TS_OK;
		return read_some(r, buf, cap, n);
	}
	size_t k = r->in_len - r->in_pos;
	if (k > cap)
		k = cap;
	memcpy(buf, r->in + r->in_pos, k);
	r->in_pos += k;
	*n = k;
	return TS_OK;
}

/* Skip raw bytes that can follow the last member: gzip(1) tolerates zeros. */
static bool only_zeros_left(ts_reader *r)
{
	for (;;) {
		for (; r->in_pos < r->in_len; r->in_pos++)
			if (r->in[r->in_pos] != 0)
				return false;
		if (r->eof || refill(r) != TS_OK)
			return r->eof;
	}
}

static ts_status read_gzip(ts_reader *r, char *buf, size_t cap, size_t *n)
{
	*n = 0;
	while (*n == 0) {
		if (r->in_pos == r->in_len) {
			if (r->eof) {
				if (r->member_done)
					return TS_OK;
				return fail(r, TS_ERR_TRUNCATED,
					    "gzip stream cut short (the file ends inside a compressed member)");
			}
			ts_status st = refill(r);
			if (st != TS_OK)
				return st;
			continue;
		}
		if (r->member_done) {
			/* Another member follows, or trailing padding. */
			if (r->in[r->in_pos] == 0) {
				if (only_zeros_left(r))
					return TS_OK;
			}
			if (inflateReset(&r->z) != Z_OK)
				return fail(r, TS_ERR_GZIP, "cannot reset the gzip decoder");
			r->member_done = false;
			continue;
		}
		r->z.next_in = r->in + r->in_pos;
		r->z.avail_in = (uInt)(r->in_len - r->in_pos);
		r->z.next_out = (Bytef *)buf;
		r->z.avail_out = (uInt)cap;
		int zr = inflate(&r->z, Z_NO_FLUSH);
		r->in_pos = r->in_len - r->z.avail_in;
		*n = cap - r->z.avail_out;
		if (zr == Z_STREAM_END) {
			r->member_done = true;
		} else if (zr == Z_BUF_ERROR) {
			/* No progress without more input: the loop refills. */
			if (*n == 0 && r->in_pos < r->in_len)
				return fail(r, TS_ERR_GZIP, "corrupt gzip data: no progress");
		} else if (zr != Z_OK) {
			char msg[200];
			snprintf(msg, sizeof msg, "corrupt gzip data: %s",
				 r->z.msg ? r->z.msg : "inflate failed");
			return fail(r, zr == Z_MEM_ERROR ? TS_ERR_NOMEM : TS_ERR_GZIP, msg);
		}
	}
	return TS_OK;
}

ts_status ts_reader_read(ts_reader *r, char *buf, size_t cap, size_t *n)
{
	*n = 0;
	if (!r->threaded && r->st != TS_OK)
		return r->st;
	if (cap > r->read_size)
		cap = r->read_size;
	if (r->threaded) {
		ts_status st = read_threaded(r, buf, cap, n);
		r->out_bytes += *n;
		return st;
	}
	ts_status st = r->gzip ? read_gzip(r, buf, cap, n) : read_plain(r, buf, cap, n);
	r->out_bytes += *n;
	return st;
}

const char *ts_reader_error(const ts_reader *r)
{
	return r->err;
}

int ts_reader_is_gzip(const ts_reader *r)
{
	return r->gzip;
}

uint64_t ts_reader_in_bytes(const ts_reader *r)
{
	return r->map ? r->map_pos : r->threaded ? r->seen_in : r->in_bytes;
}

uint64_t ts_reader_out_bytes(const ts_reader *r)
{
	return r->out_bytes;
}

int64_t ts_reader_size(const ts_reader *r)
{
	return r->size;
}

int64_t ts_reader_size_now(const ts_reader *r)
{
	struct stat sb;
	return fstat(r->fd, &sb) == 0 ? (int64_t)sb.st_size : (int64_t)r->map_pos;
}

const char *ts_reader_map_base(const ts_reader *r)
{
	return r->map;
}

void ts_reader_hold(ts_reader *r, uint64_t offset)
{
	r->map_hold = offset < SIZE_MAX ? (size_t)offset : SIZE_MAX;
}

bool ts_reader_mapped(const ts_reader *r)
{
	return r->map != NULL;
}

ts_status ts_reader_view(ts_reader *r, char *buf, size_t cap, const char **p, size_t *n)
{
	if (!r->map) {
		*p = buf;
		return ts_reader_read(r, buf, cap, n);
	}
	if (cap > r->read_size)
		cap = r->read_size;
	/* the bytes behind the parser go back to the kernel now and then, so
	 * the mapping never holds more than a stretch of the file resident */
	size_t upto = r->map_pos < r->map_hold ? r->map_pos : r->map_hold;
	if (upto > r->map_dropped && upto - r->map_dropped >= MAP_DROP) {
		size_t page = (size_t)sysconf(_SC_PAGESIZE);
		size_t to = upto / page * page;
		if (to > r->map_dropped) {
			(void)madvise((void *)(r->map + r->map_dropped), to - r->map_dropped,
				      MADV_DONTNEED);
			r->map_dropped = to;
		}
	}
	size_t k = r->map_len - r->map_pos;
	if (k > cap)
		k = cap;
	*p = r->map + r->map_pos;
	*n = k;
	r->map_pos += k;
	r->out_bytes += k;
	return TS_OK;
}

/* ------------------------------------------------------------ SIGBUS */

/* A mapped file cut shorter while it is read faults (SIGBUS) on the bytes
 * it lost: the thread that reads them jumps back to its guard. */
static _Thread_local sigjmp_buf *guard_jmp;

static void on_sigbus(int sig)
{
	if (guard_jmp)
		siglongjmp(*guard_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static pthread_once_t bus_once = PTHREAD_ONCE_INIT;

static void install_bus(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGBUS, &sa, NULL);
}

void ts_reader_guard(sigjmp_buf *jb)
{
	pthread_once(&bus_once, install_bus);
	guard_jmp = jb;
}

void ts_reader_unguard(void)
{
	guard_jmp = NULL;
}
