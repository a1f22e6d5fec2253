/*
 * wire.c - little-endian bytes in and out (see wire.h).
 */
#include "input/base/wire.h"
#include "input/base/grow.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *room(ts_wbuf *w, size_t n)
{
	if (w->nomem)
		return NULL;
	if (n > SIZE_MAX - w->n ||
	    !ts_grow((void **)&w->p, &w->cap, w->n + n, 1, 4096, SIZE_MAX, false)) {
		w->nomem = true;
		return NULL;
	}
	unsigned char *at = w->p + w->n;
	w->n += n;
	return at;
}

static void put_le(ts_wbuf *w, uint64_t v, int bytes)
{
	unsigned char *p = room(w, (size_t)bytes);
	if (!p)
		return;
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

void ts_w_u8(ts_wbuf *w, uint8_t v) { put_le(w, v, 1); }
void ts_w_u32(ts_wbuf *w, uint32_t v) { put_le(w, v, 4); }
void ts_w_u64(ts_wbuf *w, uint64_t v) { put_le(w, v, 8); }
void ts_w_i64(ts_wbuf *w, int64_t v) { put_le(w, (uint64_t)v, 8); }

void ts_w_f64(ts_wbuf *w, double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	put_le(w, u, 8);
}

void ts_w_bytes(ts_wbuf *w, const void *b, size_t n)
{
	unsigned char *p = room(w, n);
	if (p && n)
		memcpy(p, b, n);
}

void ts_w_str(ts_wbuf *w, const char *s, size_t n)
{
	if (n > UINT32_MAX) {
		w->nomem = true;
		return;
	}
	ts_w_u32(w, (uint32_t)n);
	ts_w_bytes(w, s, n);
}

void ts_wbuf_free(ts_wbuf *w)
{
	free(w->p);
	*w = (ts_wbuf){ 0 };
}

void ts_r_fail(ts_rbuf *r, const char *what)
{
	if (!r->err) {
		r->err = what;
		r->err_at = r->base + r->at;
	}
}

static uint64_t get_le(ts_rbuf *r, int bytes)
{
	if (r->err)
		return 0;
	if (r->n - r->at < (size_t)bytes) {
		ts_r_fail(r, "cut short");
		return 0;
	}
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)r->p[r->at + (size_t)i] << (8 * i);
	r->at += (size_t)bytes;
	return v;
}

uint8_t ts_r_u8(ts_rbuf *r) { return (uint8_t)get_le(r, 1); }
uint32_t ts_r_u32(ts_rbuf *r) { return (uint32_t)get_le(r, 4); }
uint64_t ts_r_u64(ts_rbuf *r) { return get_le(r, 8); }
int64_t ts_r_i64(ts_rbuf *r) { return (int64_t)get_le(r, 8); }

double ts_r_f64(ts_rbuf *r)
{
	uint64_t u = get_le(r, 8);
	double v;
	memcpy(&v, &u, sizeof v);
	return v;
}

const char *ts_r_str(ts_rbuf *r, size_t *len)
{
	uint32_t n = ts_r_u32(r);
	*len = 0;
	if (r->err)
		return "";
	if (r->n - r->at < n) {
		ts_r_fail(r, "a string runs past the end");
		return "";
	}
	const char *s = (const char *)r->p + r->at;
	r->at += n;
	*len = n;
	return s;
}

uint64_t ts_r_count(ts_rbuf *r, size_t min_item)
{
	uint64_t n = ts_r_u64(r);
	if (!r->err && min_item && n > (r->n - r->at) / min_item) {
		ts_r_fail(r, "a count larger than the bytes that follow");
		return 0;
	}
	return r->err ? 0 : n;
}

void ts_r_add_int(ts_rbuf *r, int *dst)
{
	uint64_t v = ts_r_u64(r);
	uint64_t room = *dst < 0 ? (uint64_t)INT_MAX : (uint64_t)(INT_MAX - *dst);
	*dst = v > room ? INT_MAX : *dst + (int)v;
}
