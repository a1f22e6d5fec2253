/*
 * pack.c - small byte blocks kept deflated (zlib, one stream each way),
 * for the cold blocks of the two joins a one-pass parser must hold: the op
 * index and the Python-frame index (see pack.h).
 */
#include "analysis/pack.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Raw deflate (no header: the caller knows each block's size) with a 4 KB
 * window and small hash tables: blocks are a few KB, and both streams
 * together stay near 40 KB. Level 1: the joins pack a few MB in a run of
 * seconds to minutes, where a higher level gained little on their codes. */
#define WBITS 12
#define MEMLEVEL 5
#define LEVEL 1

struct ts_pack {
	z_stream d, i;
	bool d_ok, i_ok;
	uint8_t *out;            /* deflate's output, then copied to its size */
	size_t out_cap;
};

ts_pack *ts_pack_new(void)
{
	ts_pack *k = calloc(1, sizeof *k);
	if (!k)
		return NULL;
	k->d_ok = deflateInit2(&k->d, LEVEL, Z_DEFLATED, -WBITS, MEMLEVEL, Z_DEFAULT_STRATEGY) ==
		  Z_OK;
	k->i_ok = inflateInit2(&k->i, -WBITS) == Z_OK;
	k->out_cap = deflateBound(&k->d, TS_PACK_MAX);
	k->out = malloc(k->out_cap);
	if (!k->d_ok || !k->i_ok || !k->out) {
		ts_pack_free(k);
		return NULL;
	}
	return k;
}

void ts_pack_free(ts_pack *k)
{
	if (!k)
		return;
	if (k->d_ok)
		deflateEnd(&k->d);
	if (k->i_ok)
		inflateEnd(&k->i);
	free(k->out);
	free(k);
}

/* Part of the input, deflated at `level` (a change of level first ends
 * the block of what was given before, at the level before). */
static bool pack_part(z_stream *d, int level, const uint8_t *src, size_t n, int flush)
{
	if (deflateParams(d, level, Z_DEFAULT_STRATEGY) != Z_OK)
		return false;
	d->next_in = (Bytef *)(uintptr_t)src;
	d->avail_in = (uInt)n;
	int rc = deflate(d, flush);
	return flush == Z_FINISH ? rc == Z_STREAM_END : rc == Z_OK && d->avail_in == 0;
}

uint8_t *ts_pack_deflate(ts_pack *k, const void *src, size_t n, size_t stored, size_t *zlen)
{
	if (n > TS_PACK_MAX || stored > n || deflateReset(&k->d) != Z_OK)
		return NULL;
	const uint8_t *s = src;
	k->d.next_out = k->out;
	k->d.avail_out = (uInt)k->out_cap;
	if (stored && !pack_part(&k->d, 0, s, stored, Z_NO_FLUSH))
		return NULL;
	if (!pack_part(&k->d, LEVEL, s + stored, n - stored, Z_FINISH))
		return NULL;
	size_t len = k->out_cap - k->d.avail_out;
	uint8_t *z = malloc(len ? len : 1);
	if (!z)
		return NULL;
	memcpy(z, k->out, len);
	*zlen = len;
	return z;
}

bool ts_pack_inflate(ts_pack *k, const uint8_t *z, size_t zlen, void *dst, size_t n)
{
	if (zlen > UINT32_MAX || n > TS_PACK_MAX || inflateReset(&k->i) != Z_OK)
		return false;
	k->i.next_in = (Bytef *)(uintptr_t)z;
	k->i.avail_in = (uInt)zlen;
	k->i.next_out = dst;
	k->i.avail_out = (uInt)n;
	return inflate(&k->i, Z_FINISH) == Z_STREAM_END && k->i.avail_out == 0 &&
	       k->i.avail_in == 0;
}
