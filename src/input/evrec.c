/*
 * evrec.c - an event as a compact record and back (see evrec.h).
 */
#include "input/evrec.h"
#include "input/base/hash.h"

#include <stddef.h>
#include <string.h>

#define PUT(v) (memcpy(w, &(v), sizeof(v)), w += sizeof(v))
#define GET(v) (memcpy(&(v), r, sizeof(v)), r += sizeof(v))

/* A record begins with its fixed part, then the ten whole-number fields
 * of ts_event, ts_ns to bytes, as they lie there (one copy each way; a
 * field not set holds what the worker's event held, as a serial run's
 * event does: the has bits say which are set), then what only some
 * events have, in the order ts_evrec_put writes them. */
typedef struct {
	uint64_t end;            /* input offset of the byte after the event */
	uint64_t name_hash;
	uint32_t has, name_len, kname_len;
	uint16_t nconcrete;
	uint8_t cat;
	char ph;
} rec_head;

#define NUMS_OFF offsetof(ts_event, ts_ns)
#define NUMS_LEN (offsetof(ts_event, bytes) + sizeof(int64_t) - NUMS_OFF)
_Static_assert(NUMS_LEN == 10 * sizeof(int64_t),
	       "ts_event's whole-number fields ts_ns..bytes lie together");

size_t ts_evrec_most(const ts_event *e)
{
	return sizeof(rec_head) + NUMS_LEN + 24 + 21 + sizeof(ts_mem_args) + e->name_len + e->kname_len + 1 + TS_MAX_OPERANDS +
	       TS_MAX_OPERANDS * TS_MAX_RANK * 8 + 1 + TS_MAX_OPERANDS * (1 + TS_DTYPE_MAX) +
	       2 + TS_MAX_CONCRETE * 8;
}

unsigned char *ts_evrec_put(unsigned char *w, const ts_event *e)
{
	/* the name's hash, made here on a worker: the main thread interns
	 * names in order and need not hash them again */
	rec_head h = {
		.end = e->end_offset,
		.name_hash = ts_hash_bytes(e->name, e->name_len),
		.has = e->has,
		.name_len = (uint32_t)e->name_len,
		.kname_len = (uint32_t)e->kname_len,
		.nconcrete = e->nconcrete,
		.cat = (uint8_t)e->cat,
		.ph = e->ph,
	};
	PUT(h);
	memcpy(w, (const char *)e + NUMS_OFF, NUMS_LEN);
	w += NUMS_LEN;
	if (e->has & TS_HAS_GRID)
		PUT(e->grid);
	if (e->has & TS_HAS_BLOCK)
		PUT(e->block);
	if (e->has & TS_HAS_MSG) {
		PUT(e->in_nelems);
		PUT(e->out_nelems);
		PUT(e->group_size);
		PUT(e->elem_size);
	}
	if (e->has & TS_HAS_MEM)
		PUT(e->mem);
	memcpy(w, e->name, h.name_len);
	w += h.name_len;
	if (h.kname_len) {
		memcpy(w, e->kname, h.kname_len);
		w += h.kname_len;
	}
	if (e->has & TS_HAS_DIMS) {
		PUT(e->noperands);
		unsigned n = e->noperands < TS_MAX_OPERANDS ? e->noperands : TS_MAX_OPERANDS;
		for (unsigned i = 0; i < n; i++) {
			uint8_t rk = e->rank[i];
			PUT(rk);
			if (rk != TS_RANK_BAD && rk <= TS_MAX_RANK) {
				memcpy(w, e->dims[i], rk * sizeof(int64_t));
				w += rk * sizeof(int64_t);
			}
		}
	}
	if (e->has & TS_HAS_DTYPE) {
		uint8_t nt = e->ntypes;
		PUT(nt);
		for (unsigned i = 0; i < nt && i < TS_MAX_OPERANDS; i++) {
			uint8_t l = (uint8_t)strnlen(e->dtype[i], TS_DTYPE_MAX - 1);
			PUT(l);
			memcpy(w, e->dtype[i], l);
			w += l;
		}
	}
	for (unsigned m = e->nconcrete; m; m &= m - 1)     /* its set bits */
		PUT(e->concrete[__builtin_ctz(m)]);
	return w;
}

const unsigned char *ts_evrec_get(const unsigned char *r, ts_event *ev)
{
	rec_head h;
	GET(h);
	ev->end_offset = h.end;
	ev->cat = (ts_cat)h.cat;
	ev->ph = h.ph;
	ev->has = h.has;
	ev->nconcrete = h.nconcrete;
	ev->name_hash = h.name_hash;
	memcpy((char *)ev + NUMS_OFF, r, NUMS_LEN);
	r += NUMS_LEN;
	if (ev->has & TS_HAS_GRID)
		GET(ev->grid);
	if (ev->has & TS_HAS_BLOCK)
		GET(ev->block);
	ev->in_nelems = ev->out_nelems = -1;
	ev->group_size = 0;
	ev->elem_size = 0;
	if (ev->has & TS_HAS_MSG) {
		GET(ev->in_nelems);
		GET(ev->out_nelems);
		GET(ev->group_size);
		GET(ev->elem_size);
	}
	ev->mem = (ts_mem_args){ -1, -1, 0, -1, -1, -1 };
	if (ev->has & TS_HAS_MEM)
		GET(ev->mem);
	ev->name = (const char *)r;
	ev->name_len = h.name_len;
	r += h.name_len;
	ev->kname = (const char *)r;
	ev->kname_len = h.kname_len;
	r += h.kname_len;
	if (ev->has & TS_HAS_DIMS) {
		GET(ev->noperands);
		unsigned n = ev->noperands < TS_MAX_OPERANDS ? ev->noperands : TS_MAX_OPERANDS;
		for (unsigned i = 0; i < n; i++) {
			GET(ev->rank[i]);
			uint8_t rk = ev->rank[i];
			if (rk != TS_RANK_BAD && rk <= TS_MAX_RANK) {
				memcpy(ev->dims[i], r, rk * sizeof(int64_t));
				r += rk * sizeof(int64_t);
			}
		}
	}
	if (ev->has & TS_HAS_DTYPE) {
		GET(ev->ntypes);
		for (unsigned i = 0; i < ev->ntypes && i < TS_MAX_OPERANDS; i++) {
			uint8_t l;
			GET(l);
			memcpy(ev->dtype[i], r, l);
			ev->dtype[i][l] = '\0';
			r += l;
		}
	}
	for (unsigned m = ev->nconcrete; m; m &= m - 1)    /* its set bits */
		GET(ev->concrete[__builtin_ctz(m)]);
	return r;
}
