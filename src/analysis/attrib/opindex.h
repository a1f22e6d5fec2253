/*
 * opindex.h - External id -> CPU op record, for the kernel -> op join.
 *
 * Kineto numbers ops with nearly consecutive External ids, and the records
 * an op needs (its name row, its M, its workload row) repeat: a decode step
 * calls the same few hundred ops with the same shapes. So records are
 * interned once, and ids map to them through direct-mapped blocks of
 * TS_OPINDEX_BLOCK consecutive ids: a record code per op, a byte while the
 * block's records are among the first 254 interned (the usual case: a
 * trace's ops repeat a few dozen records), else 2 bytes, plus 1 bit for
 * "its first kernel was counted". Only the blocks used last are held like
 * that; the others are deflated (see pack.h), and a decode step's codes
 * repeat every layer: about 0.05 to 0.3 bytes per op in all, where ids are
 * dense (20 bytes per op before blocks, 1.3 before packing). Records past
 * 65,534 distinct ones, and the ids that use them, go to a hash table (16
 * bytes per such op). An id with no other id near it (within 3) waits in a
 * hash table of loose ids (under 32 bytes each) until a neighbour comes, so
 * ids spread far apart never cost a block each. Ids may arrive in any
 * order: every put and get is O(1) expected (ids in no order at all stop
 * the packing, which would inflate a block for each). The index never takes
 * more than max_bytes; a put past it fails and is counted by the caller.
 */
#ifndef TS_OPINDEX_H
#define TS_OPINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TS_OPINDEX_BLOCK 1024

typedef struct {
	uint32_t name;           /* op row; TS_INTERN_NONE past the cap */
	uint32_t m;              /* tokens (M), 0 unknown */
	uint32_t wl;             /* workload row, TS_INTERN_NONE none */
	uint16_t heads;          /* a per-head op: heads per token, else 0 */
	uint16_t cont;           /* 1: a later op of a sequence call (its first
				  * kernel opens no call of the workload) */
	uint64_t flops, bytes;   /* of the call by its rule, 0 unknown */
} ts_oprec;

typedef struct ts_opindex ts_opindex;

ts_opindex *ts_opindex_new(size_t max_bytes);
void ts_opindex_free(ts_opindex *x);

/* Index ext -> *r (a later put of the same id replaces it). false: the
 * memory cap is reached (or memory ran out); the op is not indexed.
 * *added: a new id (not a replacement). */
bool ts_opindex_put(ts_opindex *x, int64_t ext, const ts_oprec *r, bool *added);

/* The record of ext, or NULL. */
const ts_oprec *ts_opindex_get(ts_opindex *x, int64_t ext);

/* Mark ext's first kernel as counted; true the first time (ext must be
 * indexed). */
bool ts_opindex_first(ts_opindex *x, int64_t ext);

size_t ts_opindex_bytes(const ts_opindex *x);

#endif
