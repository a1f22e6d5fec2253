/*
 * wire.h - bytes of a saved partial (docs/partial-format.md): fixed-width
 * little-endian integers, IEEE doubles by their bits, strings as a u32
 * length and bytes. A ts_wbuf grows and remembers running out of memory; a
 * ts_rbuf reads within its bytes and remembers the first problem (what and
 * at which byte), after which every read gives zeros. Callers check once,
 * at the end of a section.
 */
#ifndef TS_WIRE_H
#define TS_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	unsigned char *p;
	size_t n, cap;
	bool nomem;
} ts_wbuf;

void ts_w_u8(ts_wbuf *w, uint8_t v);
void ts_w_u32(ts_wbuf *w, uint32_t v);
void ts_w_u64(ts_wbuf *w, uint64_t v);
void ts_w_i64(ts_wbuf *w, int64_t v);
void ts_w_f64(ts_wbuf *w, double v);
void ts_w_bytes(ts_wbuf *w, const void *b, size_t n);
void ts_w_str(ts_wbuf *w, const char *s, size_t n);
void ts_wbuf_free(ts_wbuf *w);

typedef struct {
	const unsigned char *p;
	size_t n, at;
	uint64_t base;           /* offset of p[0] in the file, for messages */
	const char *err;         /* the first problem, or NULL */
	uint64_t err_at;         /* its byte offset in the file */
} ts_rbuf;

uint8_t ts_r_u8(ts_rbuf *r);
uint32_t ts_r_u32(ts_rbuf *r);
uint64_t ts_r_u64(ts_rbuf *r);
int64_t ts_r_i64(ts_rbuf *r);
double ts_r_f64(ts_rbuf *r);
/* A string: borrowed from the buffer (not NUL-terminated), *len bytes. */
const char *ts_r_str(ts_rbuf *r, size_t *len);
/* A count of items of at least min_item bytes each: more than the bytes
 * left could hold is corrupt (so a bad count never allocates). */
uint64_t ts_r_count(ts_rbuf *r, size_t min_item);
/* A saved count added to an int counter, saturating at INT_MAX (the
 * counters a partial can make grow past what the trace could). */
void ts_r_add_int(ts_rbuf *r, int *dst);

/* Record a problem at the current byte (the first one stands). */
void ts_r_fail(ts_rbuf *r, const char *what);

#endif
