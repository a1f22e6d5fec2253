/*
 * opindex.c - External id -> CPU op record (see opindex.h).
 *
 * Four open-addressed tables with linear probing, each kept at most half
 * full: records by value (to intern them), blocks by block number, the wide
 * ids by id, and the loose ids by id. Blocks are allocated one by one
 * (and moved only when inflated again or widened).
 *
 * An id whose block does not exist yet goes to the loose table (its record
 * index, bit 31 the first-kernel mark: about 24 bytes an id) unless an id
 * within NEAR of it is there already: then the ids are dense, the block is
 * made and the loose ids of its range move into it. Consecutive ids, in any
 * order or from interleaved threads, so fill blocks (1.1 bytes an id
 * with byte codes, 2.1 with 16-bit ones, while whole), and ids spread far
 * apart never cost a 1,160-byte block each.
 *
 * Only the HOT blocks used last are held whole; the others are held
 * deflated (a block of a decode step's codes packs to a few tens of
 * bytes). A block used again is inflated into the hot ring, and the one the
 * clock hand finds unused since it last passed leaves it, deflated again
 * only when it changed. Puts in id order and lookups in launch order touch
 * a few blocks at a time, so each block is inflated about once per pass.
 * Ids in no order would inflate a block for nearly every put or lookup:
 * once blocks were inflated more than THRASH times each, on average,
 * packing stops and every block stays whole as used (the index then costs
 * what it did unpacked).
 */
#include "analysis/attrib/opindex.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/hash.h"
#include "analysis/pack.h"

#define B TS_OPINDEX_BLOCK
#define WIDE 0xffffu             /* code: the record is in the wide table */
#define MAX_CODE (WIDE - 1)      /* records with a 16-bit code: 0 .. MAX_CODE-1 */
#define EMPTY UINT32_MAX
#define COUNTED 0x80000000u      /* loose value: the first kernel was counted */
#define NEAR 3                   /* a loose id this close to another: a block */

/* A block's codes are bytes while every record it names is among the
 * first 254 (a decode step's ops repeat a few dozen records: 1.1 bytes an
 * id), 16-bit once one is not. */
#define NARROW_MAX 0xffu         /* byte codes: 0 .. NARROW_MAX-1 */

typedef struct {
	uint64_t counted[B / 64];
	uint32_t wide;           /* codes are uint16_t, not bytes */
	/* B codes: 0 no op; c: record c - 1; WIDE (16-bit): the wide table */
	unsigned char codes[];
} block;

static unsigned code_at(const block *b, unsigned at)
{
	return b->wide ? ((const uint16_t *)(const void *)b->codes)[at] : b->codes[at];
}

static size_t block_size(bool wide)
{
	return offsetof(block, codes) + B * (wide ? sizeof(uint16_t) : 1);
}

#define HOT 64                   /* blocks held whole */
#define THRASH 4

typedef struct {
	block *raw;              /* whole, in the hot ring; NULL: only packed */
	uint8_t *z;              /* deflated; NULL: none, or raw changed since */
	uint32_t zlen;
	bool wide;               /* of the packed block */
	bool ref;                /* used since the clock hand passed */
} slot;

struct ts_opindex {
	size_t max_bytes, bytes;
	ts_oprec *rec;
	uint32_t nrec, rec_cap;
	uint32_t *rec_slot;      /* record index, EMPTY */
	size_t rec_slots;
	slot *blocks;
	size_t nblocks, blocks_cap;
	uint32_t hot[HOT];       /* block indexes held whole */
	unsigned nhot, hand;
	bool whole;              /* packing stopped */
	uint64_t inflated;
	ts_pack *pk;
	uint64_t *bkey;          /* block number */
	uint32_t *bval;          /* block index, EMPTY */
	size_t bslots;
	uint64_t *wkey;          /* id */
	uint32_t *wval;          /* record index, EMPTY */
	size_t wslots, nwide;
	uint64_t *lkey;          /* loose id */
	uint32_t *lval;          /* record index | COUNTED, EMPTY */
	size_t lslots, nloose;
};

static size_t hash64(uint64_t k, size_t slots)
{
	return (size_t)ts_hash_u64(k) & (slots - 1);
}

static size_t hash_rec(const ts_oprec *r, size_t slots)
{
	uint64_t k = (uint64_t)r->name * 0xff51afd7ed558ccdull ^ (uint64_t)r->m << 17 ^
		     (uint64_t)r->heads << 49 ^ (uint64_t)r->cont << 63 ^
		     (uint64_t)r->wl * 0xc4ceb9fe1a85ec53ull ^ r->flops * TS_HASH_GOLDEN ^
		     r->bytes * 0xbf58476d1ce4e5b9ull;
	return hash64(k, slots);
}

/* Room for more bytes under the cap. */
static bool afford(const ts_opindex *x, size_t more)
{
	return x->bytes + more <= x->max_bytes;
}

ts_opindex *ts_opindex_new(size_t max_bytes)
{
	ts_opindex *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->max_bytes = max_bytes;
	if (!(x->pk = ts_pack_new())) {
		free(x);
		return NULL;
	}
	return x;
}

void ts_opindex_free(ts_opindex *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nblocks; i++) {
		free(x->blocks[i].raw);
		free(x->blocks[i].z);
	}
	free(x->blocks);
	ts_pack_free(x->pk);
	free(x->rec);
	free(x->rec_slot);
	free(x->bkey);
	free(x->bval);
	free(x->wkey);
	free(x->wval);
	free(x->lkey);
	free(x->lval);
	free(x);
}

size_t ts_opindex_bytes(const ts_opindex *x)
{
	return x->bytes;
}

/* A table of (uint64 key, uint32 value) doubled and rehashed. */
static bool grow_kv(ts_opindex *x, uint64_t **key, uint32_t **val, size_t *slots)
{
	size_t n = *slots ? *slots * 2 : 64;
	size_t add = (n - *slots) * (sizeof **key + sizeof **val);
	if (!afford(x, add))
		return false;
	uint64_t *k = malloc(n * sizeof *k);
	uint32_t *v = malloc(n * sizeof *v);
	if (!k || !v) {
		free(k);
		free(v);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = EMPTY;
	for (size_t i = 0; i < *slots; i++) {
		if ((*val)[i] == EMPTY)
			continue;
		size_t h = hash64((*key)[i], n);
		while (v[h] != EMPTY)
			h = (h + 1) & (n - 1);
		k[h] = (*key)[i];
		v[h] = (*val)[i];
	}
	free(*key);
	free(*val);
	*key = k;
	*val = v;
	*slots = n;
	x->bytes += add;
	return true;
}

static size_t kv_find(const uint64_t *key, const uint32_t *val, size_t slots, uint64_t k)
{
	if (!slots)
		return SIZE_MAX;
	for (size_t h = hash64(k, slots);; h = (h + 1) & (slots - 1)) {
		if (val[h] == EMPTY)
			return SIZE_MAX;
		if (key[h] == k)
			return h;
	}
}

/* The slot for k: found, or the empty one to fill (after a grow). */
static size_t kv_slot(ts_opindex *x, uint64_t **key, uint32_t **val, size_t *slots,
		      size_t used, uint64_t k, bool *found)
{
	size_t h = kv_find(*key, *val, *slots, k);
	if (h != SIZE_MAX) {
		*found = true;
		return h;
	}
	*found = false;
	if (2 * (used + 1) > *slots && !grow_kv(x, key, val, slots))
		return SIZE_MAX;
	for (h = hash64(k, *slots); (*val)[h] != EMPTY; h = (h + 1) & (*slots - 1))
		;
	return h;
}

/* Remove slot h, shifting later entries of its probe run back. */
static void kv_delete(uint64_t *key, uint32_t *val, size_t slots, size_t h)
{
	size_t hole = h;
	for (size_t i = (h + 1) & (slots - 1); val[i] != EMPTY; i = (i + 1) & (slots - 1)) {
		size_t home = hash64(key[i], slots);
		/* the entry at i may fill the hole if its home is not in (hole, i] */
		if (((i - home) & (slots - 1)) >= ((i - hole) & (slots - 1))) {
			key[hole] = key[i];
			val[hole] = val[i];
			hole = i;
		}
	}
	val[hole] = EMPTY;
}

/* The index of record r, interned; EMPTY past the cap. */
static uint32_t intern_rec(ts_opindex *x, const ts_oprec *r)
{
	if (x->rec_slots) {
		for (size_t h = hash_rec(r, x->rec_slots);; h = (h + 1) & (x->rec_slots - 1)) {
			uint32_t i = x->rec_slot[h];
			if (i == EMPTY)
				break;
			if (x->rec[i].name == r->name && x->rec[i].m == r->m && x->rec[i].wl == r->wl &&
			    x->rec[i].heads == r->heads && x->rec[i].cont == r->cont &&
			    x->rec[i].flops == r->flops && x->rec[i].bytes == r->bytes)
				return i;
		}
	}
	if (x->nrec >= COUNTED - 1)   /* loose values keep a mark in bit 31 */
		return EMPTY;
	if (2 * ((size_t)x->nrec + 1) > x->rec_slots) {
		size_t n = x->rec_slots ? x->rec_slots * 2 : 64;
		size_t add = (n - x->rec_slots) * sizeof *x->rec_slot;
		uint32_t *s = afford(x, add) ? malloc(n * sizeof *s) : NULL;
		if (!s)
			return EMPTY;
		for (size_t i = 0; i < n; i++)
			s[i] = EMPTY;
		for (uint32_t i = 0; i < x->nrec; i++) {
			size_t h = hash_rec(&x->rec[i], n);
			while (s[h] != EMPTY)
				h = (h + 1) & (n - 1);
			s[h] = i;
		}
		free(x->rec_slot);
		x->rec_slot = s;
		x->rec_slots = n;
		x->bytes += add;
	}
	if (x->nrec == x->rec_cap) {
		/* not ts_grow: the room is paid from the index's budget first */
		uint32_t n = x->rec_cap ? x->rec_cap * 2 : 16;
		size_t add = (size_t)(n - x->rec_cap) * sizeof *x->rec;
		ts_oprec *v = afford(x, add) ? realloc(x->rec, n * sizeof *v) : NULL;
		if (!v)
			return EMPTY;
		x->rec = v;
		x->rec_cap = n;
		x->bytes += add;
	}
	uint32_t id = x->nrec++;
	x->rec[id] = *r;
	size_t h = hash_rec(r, x->rec_slots);
	while (x->rec_slot[h] != EMPTY)
		h = (h + 1) & (x->rec_slots - 1);
	x->rec_slot[h] = id;
	return id;
}

/* Block i out of the hot ring: deflated (unless its packed copy is still
 * its content) and freed. */
static bool cool(ts_opindex *x, uint32_t i)
{
	slot *s = &x->blocks[i];
	size_t raw = block_size(s->raw->wide);
	if (!s->z) {
		size_t zlen;
		uint8_t *z = ts_pack_deflate(x->pk, s->raw, raw, 0, &zlen);
		if (!z)
			return false;
		s->z = z;
		s->zlen = (uint32_t)zlen;
		s->wide = s->raw->wide;
		x->bytes += zlen;
	}
	free(s->raw);
	s->raw = NULL;
	x->bytes -= raw;
	return true;
}

/* Block i (whole, just made or inflated) into the hot ring, in place of
 * the first one the clock hand finds unused since it last passed. */
static bool heat(ts_opindex *x, uint32_t i)
{
	x->blocks[i].ref = true;
	if (x->whole)
		return true;
	if (x->nhot < HOT) {
		x->hot[x->nhot++] = i;
		return true;
	}
	for (;;) {
		uint32_t j = x->hot[x->hand];
		if (x->blocks[j].ref) {
			x->blocks[j].ref = false;
		} else {
			if (!cool(x, j))
				return false;
			x->hot[x->hand] = i;
			x->hand = (x->hand + 1) % HOT;
			return true;
		}
		x->hand = (x->hand + 1) % HOT;
	}
}

/* Block s (whole) is to change: its packed copy goes. */
static void stale(ts_opindex *x, slot *s)
{
	if (s->z) {
		free(s->z);
		s->z = NULL;
		x->bytes -= s->zlen;
	}
}

/* Block i whole, for reading or (write) changing: its packed copy is
 * stale then. NULL when memory ran out. Valid until a block is made or
 * another is used. */
static block **use_block(ts_opindex *x, uint32_t i, bool write)
{
	slot *s = &x->blocks[i];
	if (!s->raw) {
		size_t raw = block_size(s->wide);
		block *b = afford(x, raw) ? malloc(raw) : NULL;
		if (!b || !ts_pack_inflate(x->pk, s->z, s->zlen, b, raw)) {
			free(b);
			return NULL;
		}
		s->raw = b;
		x->bytes += raw;
		if (++x->inflated > THRASH * (x->nblocks + HOT))
			x->whole = true;
		if (!heat(x, i)) {
			free(s->raw);
			s->raw = NULL;
			x->bytes -= raw;
			return NULL;
		}
	}
	s->ref = true;
	if (write || x->whole)   /* no packed copy is kept for packing stopped */
		stale(x, s);
	return &s->raw;
}

/* Block bn whole (see use_block), or NULL when there is none. *missing:
 * there is none (not memory running out). */
static block **find_block(ts_opindex *x, uint64_t bn, bool write, bool *missing)
{
	size_t h = kv_find(x->bkey, x->bval, x->bslots, bn);
	*missing = h == SIZE_MAX;
	return *missing ? NULL : use_block(x, x->bval[h], write);
}

/* The block bn, made when missing (NULL past the cap). */
static block **make_block(ts_opindex *x, uint64_t bn)
{
	bool found;
	size_t h = kv_slot(x, &x->bkey, &x->bval, &x->bslots, x->nblocks, bn, &found);
	if (h == SIZE_MAX)
		return NULL;
	if (found)
		return use_block(x, x->bval[h], true);
	block *b;
	if (!afford(x, block_size(false) + sizeof *x->blocks))
		return NULL;
	if (x->nblocks == x->blocks_cap) {
		/* not ts_grow: the room is paid from the index's budget first */
		size_t n = x->blocks_cap ? x->blocks_cap * 2 : 16;
		size_t add = (n - x->blocks_cap) * sizeof *x->blocks;
		slot *v = afford(x, add + block_size(false)) ? realloc(x->blocks, n * sizeof *v)
							      : NULL;
		if (!v)
			return NULL;
		x->blocks = v;
		x->blocks_cap = n;
		x->bytes += add;
	}
	b = calloc(1, block_size(false));
	if (!b)
		return NULL;
	uint32_t i = (uint32_t)x->nblocks;
	x->blocks[i] = (slot){ .raw = b };
	x->bytes += block_size(false);
	if (!heat(x, i)) {
		free(b);
		x->bytes -= block_size(false);
		return NULL;
	}
	x->nblocks++;
	x->bkey[h] = bn;
	x->bval[h] = i;
	return &x->blocks[i].raw;
}

/* Block *bp with 16-bit codes (it moves: one realloc to the wider
 * layout, no growing array). */
static bool widen(ts_opindex *x, block **bp)
{
	if (!afford(x, B))
		return false;
	block *b = realloc(*bp, block_size(true));
	if (!b)
		return false;
	uint16_t *c16 = (uint16_t *)(void *)b->codes;
	for (unsigned i = B; i-- > 0;)     /* from the end: a byte is read before
					    * its place is written */
		c16[i] = b->codes[i];
	b->wide = 1;
	x->bytes += B;
	*bp = b;
	return true;
}

/* Id u of block *bp gets record id, its first-kernel mark as given. */
static bool block_set(ts_opindex *x, block **bp, uint64_t u, uint32_t id, bool counted)
{
	unsigned at = (unsigned)(u % B);
	if (id + 1 < NARROW_MAX && !(*bp)->wide) {
		(*bp)->codes[at] = (unsigned char)(id + 1);
	} else if (!(*bp)->wide && !widen(x, bp)) {
		return false;
	}
	block *b = *bp;
	if (!b->wide) {
		/* set above */
	} else if (id < MAX_CODE) {
		/* an id that was wide keeps its wide entry, unreachable (rare:
		 * the same id indexed twice) */
		((uint16_t *)(void *)b->codes)[at] = (uint16_t)(id + 1);
	} else {
		bool found;
		size_t w = kv_slot(x, &x->wkey, &x->wval, &x->wslots, x->nwide, u, &found);
		if (w == SIZE_MAX)
			return false;
		if (!found) {
			x->wkey[w] = u;
			x->nwide++;
		}
		x->wval[w] = id;
		((uint16_t *)(void *)b->codes)[at] = WIDE;
	}
	uint64_t bit = 1ull << (at % 64);
	b->counted[at / 64] = counted ? b->counted[at / 64] | bit : b->counted[at / 64] & ~bit;
	return true;
}

/* Whether a loose id lies within NEAR of u. */
static bool loose_near(const ts_opindex *x, uint64_t u)
{
	for (uint64_t d = 1; d <= NEAR; d++)
		if (kv_find(x->lkey, x->lval, x->lslots, u - d) != SIZE_MAX ||
		    kv_find(x->lkey, x->lval, x->lslots, u + d) != SIZE_MAX)
			return true;
	return false;
}

/* Move the loose ids of block bn into *b. */
static bool adopt_loose(ts_opindex *x, block **b, uint64_t bn)
{
	for (unsigned at = 0; at < B && x->nloose; at++) {
		uint64_t u = bn * B + at;
		size_t h = kv_find(x->lkey, x->lval, x->lslots, u);
		if (h == SIZE_MAX)
			continue;
		uint32_t v = x->lval[h];
		if (!block_set(x, b, u, v & ~COUNTED, (v & COUNTED) != 0))
			return false;
		kv_delete(x->lkey, x->lval, x->lslots, h);
		x->nloose--;
	}
	return true;
}

bool ts_opindex_put(ts_opindex *x, int64_t ext, const ts_oprec *r, bool *added)
{
	uint64_t u = (uint64_t)ext, bn = u / B;
	*added = false;
	uint32_t id = intern_rec(x, r);
	if (id == EMPTY)
		return false;
	bool missing;
	block **b = find_block(x, bn, true, &missing);
	if (!b && !missing)
		return false;
	if (!b && x->nloose && loose_near(x, u)) {
		/* dense ids: their block, with the loose ones of its range */
		if (!(b = make_block(x, bn)) || !adopt_loose(x, b, bn))
			return false;
	}
	if (b) {
		unsigned old = code_at(*b, (unsigned)(u % B));
		if (!block_set(x, b, u, id, false))
			return false;
		*added = old == 0;
		return true;
	}
	bool found;
	size_t h = kv_slot(x, &x->lkey, &x->lval, &x->lslots, x->nloose, u, &found);
	if (h == SIZE_MAX)
		return false;
	if (!found) {
		x->lkey[h] = u;
		x->nloose++;
	}
	x->lval[h] = id;
	*added = !found;
	return true;
}

const ts_oprec *ts_opindex_get(ts_opindex *x, int64_t ext)
{
	uint64_t u = (uint64_t)ext;
	bool missing;
	block *const *bp = find_block(x, u / B, false, &missing);
	if (!bp && !missing)
		return NULL;
	if (!bp) {
		size_t h = kv_find(x->lkey, x->lval, x->lslots, u);
		return h == SIZE_MAX ? NULL : &x->rec[x->lval[h] & ~COUNTED];
	}
	const block *b = *bp;
	unsigned c = code_at(b, (unsigned)(u % B));
	if (c == 0)
		return NULL;
	if (!b->wide || c != WIDE)
		return &x->rec[c - 1];
	size_t w = kv_find(x->wkey, x->wval, x->wslots, u);
	return w == SIZE_MAX ? NULL : &x->rec[x->wval[w]];
}

bool ts_opindex_first(ts_opindex *x, int64_t ext)
{
	uint64_t u = (uint64_t)ext;
	bool missing;
	block **bp = find_block(x, u / B, true, &missing);
	if (!bp && !missing)
		return false;
	if (!bp) {
		size_t h = kv_find(x->lkey, x->lval, x->lslots, u);
		if (h == SIZE_MAX)
			return false;
		bool first = !(x->lval[h] & COUNTED);
		x->lval[h] |= COUNTED;
		return first;
	}
	block *b = *bp;
	unsigned at = (unsigned)(u % B);
	uint64_t bit = 1ull << (at % 64);
	bool first = !(b->counted[at / 64] & bit);
	b->counted[at / 64] |= bit;
	return first;
}
