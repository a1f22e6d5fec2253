/*
 * intern.c - bounded string interning: a string maps to a small integer
 * id, up to a cap (see intern.h).
 */
#include "input/base/intern.h"
#include "input/base/grow.h"
#include "input/base/hash.h"

#include <stdlib.h>
#include <string.h>

/* One string in the arena: offset, length and hash, so lookups rarely memcmp. */
typedef struct {
	size_t off;
	uint32_t len;
	uint32_t hash32;
} entry;

struct ts_intern {
	uint32_t max_strings;
	size_t max_bytes;
	uint32_t count;
	entry *entries;      /* by id; grows by doubling up to max_strings */
	size_t entries_cap;
	uint32_t *slots;     /* open addressing: id + 1, 0 = empty */
	uint32_t nslots;     /* power of two, at least 2 * count; doubles up
			      * to max_slots */
	uint32_t max_slots;  /* power of two, at least 2 * max_strings */
	char *arena;         /* NUL-terminated strings back to back */
	size_t arena_len, arena_cap;
};

ts_intern *ts_intern_new(uint32_t max_strings, size_t max_bytes)
{
	ts_intern *in = calloc(1, sizeof *in);
	if (!in)
		return NULL;
	in->max_strings = max_strings ? max_strings : 1;
	in->max_bytes = max_bytes;
	uint32_t n = 16;
	while (n < 2 * in->max_strings)
		n *= 2;
	in->max_slots = n;
	/* most tables stay small: start at 64 slots and double */
	in->nslots = n < 64 ? n : 64;
	in->slots = calloc(in->nslots, sizeof *in->slots);
	if (!in->slots) {
		free(in);
		return NULL;
	}
	return in;
}

void ts_intern_free(ts_intern *in)
{
	if (!in)
		return;
	free(in->slots);
	free(in->entries);
	free(in->arena);
	free(in);
}

static uint32_t *lookup(const ts_intern *in, const char *s, size_t len,
			uint64_t h)
{
	uint32_t mask = in->nslots - 1;
	uint32_t i = (uint32_t)h & mask;
	for (;;) {
		uint32_t *slot = &in->slots[i];
		if (*slot == 0)
			return slot;
		const entry *e = &in->entries[*slot - 1];
		if (e->hash32 == (uint32_t)(h >> 32) && e->len == len &&
		    memcmp(in->arena + e->off, s, len) == 0)
			return slot;
		i = (i + 1) & mask;
	}
}

uint32_t ts_intern_find(const ts_intern *in, const char *s, size_t len)
{
	const uint32_t *slot = lookup(in, s, len, ts_hash_bytes(s, len));
	return *slot ? *slot - 1 : TS_INTERN_NONE;
}

static ts_status reserve(ts_intern *in, size_t len)
{
	if (!ts_grow((void **)&in->entries, &in->entries_cap, (size_t)in->count + 1,
		     sizeof *in->entries, 64, in->max_strings, false) ||
	    !ts_grow((void **)&in->arena, &in->arena_cap, in->arena_len + len + 1, 1, 4096,
		     in->max_bytes, false))
		return TS_ERR_NOMEM;
	return TS_OK;
}

/* Double the slots and place every id again. */
static ts_status grow_slots(ts_intern *in)
{
	uint32_t n = in->nslots * 2;
	uint32_t *slots = calloc(n, sizeof *slots);
	if (!slots)
		return TS_ERR_NOMEM;
	for (uint32_t id = 0; id < in->count; id++) {
		const entry *e = &in->entries[id];
		uint32_t i = (uint32_t)ts_hash_bytes(in->arena + e->off, e->len) & (n - 1);
		while (slots[i])
			i = (i + 1) & (n - 1);
		slots[i] = id + 1;
	}
	free(in->slots);
	in->slots = slots;
	in->nslots = n;
	return TS_OK;
}

ts_status ts_intern_put(ts_intern *in, const char *s, size_t len, uint32_t *id)
{
	return ts_intern_put_hashed(in, s, len, 0, id);
}

ts_status ts_intern_put_hashed(ts_intern *in, const char *s, size_t len, uint64_t hash,
			       uint32_t *id)
{
	uint64_t h = hash ? hash : ts_hash_bytes(s, len);
	uint32_t *slot = lookup(in, s, len, h);
	*id = TS_INTERN_NONE;
	if (*slot) {
		*id = *slot - 1;
		return TS_OK;
	}
	if (in->count >= in->max_strings || len > UINT32_MAX ||
	    in->arena_len + len + 1 > in->max_bytes)
		return TS_ERR_FULL;
	ts_status st = reserve(in, len);
	if (st != TS_OK)
		return st;
	if (2 * (in->count + 1) > in->nslots && in->nslots < in->max_slots) {
		if ((st = grow_slots(in)) != TS_OK)
			return st;
		slot = lookup(in, s, len, h);
	}
	entry *e = &in->entries[in->count];
	e->off = in->arena_len;
	e->len = (uint32_t)len;
	e->hash32 = (uint32_t)(h >> 32);
	memcpy(in->arena + in->arena_len, s, len);
	in->arena[in->arena_len + len] = '\0';
	in->arena_len += len + 1;
	*slot = ++in->count;
	*id = in->count - 1;
	return TS_OK;
}

const char *ts_intern_str(const ts_intern *in, uint32_t id, size_t *len)
{
	if (id >= in->count) {
		if (len)
			*len = 0;
		return "";
	}
	const entry *e = &in->entries[id];
	if (len)
		*len = e->len;
	return in->arena + e->off;
}

uint32_t ts_intern_count(const ts_intern *in)
{
	return in->count;
}

size_t ts_intern_bytes(const ts_intern *in)
{
	return sizeof *in + in->arena_cap + in->entries_cap * sizeof(entry) +
	       in->nslots * sizeof(uint32_t);
}
