/* The External id -> op record index: ids in any order, records shared,
 * replacement, the first-kernel mark, wide records, the memory cap. */
#include <stdlib.h>
#include <string.h>

#include "analysis/attrib/opindex.h"
#include "unit.h"

static void basics(void)
{
	ts_opindex *x = ts_opindex_new(1 << 20);
	bool added;
	ts_oprec r1 = { .name = 1, .m = 32, .wl = 7 }, r2 = { .name = 2, .wl = UINT32_MAX };
	CHECK(ts_opindex_get(x, 5) == NULL, "an empty index finds nothing");
	CHECK(ts_opindex_put(x, 5, &r1, &added) && added, "a new id is added");
	CHECK(ts_opindex_put(x, -3, &r2, &added) && added, "a negative id is an id like any");
	const ts_oprec *g = ts_opindex_get(x, 5);
	CHECK(g && g->name == 1 && g->m == 32 && g->wl == 7, "an id gets its record back");
	g = ts_opindex_get(x, -3);
	CHECK(g && g->name == 2 && g->wl == UINT32_MAX, "so does a negative id");
	CHECK(ts_opindex_get(x, 4) == NULL && ts_opindex_get(x, 6) == NULL && ts_opindex_get(x, 5 + 256) == NULL,
	      "neighbours and ids of other blocks are not found");
	bool f1 = ts_opindex_first(x, 5), f2 = ts_opindex_first(x, 5);
	CHECK(f1 && !f2, "the first kernel is first once");
	CHECK(ts_opindex_put(x, 5, &r2, &added) && !added, "the same id again replaces, not adds");
	g = ts_opindex_get(x, 5);
	CHECK(g && g->name == 2, "the replacement is what is found");
	f1 = ts_opindex_first(x, 5);
	CHECK(f1, "a replaced op's first kernel is first again");
	bool p1 = ts_opindex_put(x, INT64_MAX, &r1, &added), p2 = ts_opindex_put(x, INT64_MIN, &r2, &added);
	CHECK(p1 && p2 && ts_opindex_get(x, INT64_MAX)->name == 1 && ts_opindex_get(x, INT64_MIN)->name == 2,
	      "the extreme ids work");
	ts_opindex_free(x);
	ts_opindex_free(NULL);
}

/* One million ids, shuffled, 300 distinct records: every one found, and
 * about 2.2 bytes per op. */
static void shuffled(void)
{
	enum { N = 1000000 };
	int64_t *ids = malloc(N * sizeof *ids);
	unsigned long long s = 42;
	for (int i = 0; i < N; i++)
		ids[i] = 1000 + i;
	for (int i = N - 1; i > 0; i--) {
		int j = (int)(unit_rand(&s) % (unsigned long long)(i + 1));
		int64_t t = ids[i];
		ids[i] = ids[j];
		ids[j] = t;
	}
	ts_opindex *x = ts_opindex_new(64u << 20);
	int bad = 0;
	for (int i = 0; i < N; i++) {
		ts_oprec r = { .name = (uint32_t)(ids[i] % 100), .m = (uint32_t)(ids[i] % 3) };
		bool added;
		if (!ts_opindex_put(x, ids[i], &r, &added) || !added)
			bad++;
	}
	CHECK(bad == 0, "%d shuffled ids are all added", N);
	bad = 0;
	for (int64_t id = 1000; id < 1000 + N; id++) {
		const ts_oprec *g = ts_opindex_get(x, id);
		if (!g || g->name != (uint32_t)(id % 100) || g->m != (uint32_t)(id % 3))
			bad++;
	}
	CHECK(bad == 0, "each id finds its own record");
	CHECK(ts_opindex_get(x, 999) == NULL && ts_opindex_get(x, 1000 + N) == NULL,
	      "ids outside the range are not found");
	size_t b = ts_opindex_bytes(x);
	CHECK(b < 3 * (size_t)N, "dense ids take under 3 bytes per op (%.2f)", (double)b / N);
	ts_opindex_free(x);
	free(ids);
}

/* A block's codes are bytes until a record past the first 254 comes:
 * then 16-bit, every code and first-kernel mark kept. */
static void narrow(void)
{
	enum { A = 2 * TS_OPINDEX_BLOCK, D = 3 * TS_OPINDEX_BLOCK, C = 8 * TS_OPINDEX_BLOCK };
	ts_opindex *x = ts_opindex_new(1 << 20);
	bool added;
	int bad = 0;
	for (int i = 0; i < 256; i++) {
		ts_oprec r = { .name = (uint32_t)(i % 10) };
		bad += !ts_opindex_put(x, A + i, &r, &added);
	}
	size_t before = ts_opindex_bytes(x);
	for (int i = 0; i < 256; i++) {
		ts_oprec r = { .name = (uint32_t)(i % 10) };
		bad += !ts_opindex_put(x, C + i, &r, &added);
	}
	size_t small = ts_opindex_bytes(x) - before;
	for (int i = 0; i < 256; i += 3)
		bad += !ts_opindex_first(x, A + i);
	/* 300 more records, in another block, then one of them in the first */
	for (int i = 0; i < 300; i++) {
		ts_oprec r = { .name = (uint32_t)(1000 + i) };
		bad += !ts_opindex_put(x, D + i, &r, &added);
	}
	ts_oprec late = { .name = 1299 };
	bad += !ts_opindex_put(x, A + 7, &late, &added);
	for (int i = 0; i < 256; i++) {
		const ts_oprec *g = ts_opindex_get(x, A + i);
		bad += !g || g->name != (i == 7 ? 1299u : (uint32_t)(i % 10));
		bad += ts_opindex_first(x, A + i) != (i % 3 != 0);
	}
	for (int i = 0; i < 300; i++) {
		const ts_oprec *g = ts_opindex_get(x, D + i);
		bad += !g || g->name != (uint32_t)(1000 + i);
	}
	CHECK(bad == 0, "a block of byte codes turns 16-bit for record 1299: every code and mark kept");
	CHECK(small <= TS_OPINDEX_BLOCK + TS_OPINDEX_BLOCK / 8 + 64,
	      "a block of %d ids of known records in byte codes: %zu bytes", TS_OPINDEX_BLOCK, small);
	ts_opindex_free(x);
}

/* More distinct records than a 16-bit code holds: the wide table. */
static void wide(void)
{
	enum { N = 100000 };
	ts_opindex *x = ts_opindex_new(64u << 20);
	int bad = 0;
	for (int i = 0; i < N; i++) {
		ts_oprec r = { .name = (uint32_t)i, .m = (uint32_t)i * 7, .wl = 3,
				.heads = (uint16_t)(i % 4), .cont = (uint16_t)(i & 1), .flops = (uint64_t)i * 1000 };
		bool added;
		if (!ts_opindex_put(x, 7 * (int64_t)i, &r, &added) || !added)
			bad++;
	}
	for (int i = 0; i < N; i++) {
		const ts_oprec *g = ts_opindex_get(x, 7 * (int64_t)i);
		if (!g || g->name != (uint32_t)i || g->m != (uint32_t)i * 7 || g->flops != (uint64_t)i * 1000 ||
		    g->heads != (uint16_t)(i % 4) || g->cont != (uint16_t)(i & 1))
			bad++;
		if (!ts_opindex_first(x, 7 * (int64_t)i))
			bad++;
	}
	CHECK(bad == 0, "%d distinct records (past 65,534) all come back with their cost, heads and sequence mark, first marks too", N);
	ts_opindex_free(x);
}

/* The cap: puts fail past it, the bytes never exceed it, what was put
 * before stays found. */
static void cap(void)
{
	ts_opindex *x = ts_opindex_new(8192);
	int ok = 0, refused = 0;
	for (int64_t id = 0; id < 100000; id += 300) {   /* a block each */
		ts_oprec r = { .name = 1, .m = 1, .wl = 1 };
		bool added;
		if (ts_opindex_put(x, id, &r, &added))
			ok++;
		else
			refused++;
	}
	CHECK(ok > 0 && refused > 0, "a capped index takes some ops and refuses the rest (%d, %d)", ok, refused);
	CHECK(ts_opindex_bytes(x) <= 8192, "its bytes stay under the cap (%zu)", ts_opindex_bytes(x));
	CHECK(ts_opindex_get(x, 0) != NULL, "what was indexed before the cap is still found");
	ts_opindex_free(x);
}

/* Ids spread far apart cost a hash entry each, not a block each; dense
 * ids that began loose move into their block with their marks. */
static void sparse(void)
{
	enum { N = 200000 };
	ts_opindex *x = ts_opindex_new(64u << 20);
	int bad = 0;
	const uint64_t step = (1ull << 62) / N;
	for (int i = 0; i < N; i++) {
		ts_oprec r = { .name = (uint32_t)(i % 50), .m = 1 };
		bool added;
		if (!ts_opindex_put(x, (int64_t)(1 + i * step), &r, &added) || !added)
			bad++;
	}
	for (int i = 0; i < N; i++) {
		const ts_oprec *g = ts_opindex_get(x, (int64_t)(1 + i * step));
		if (!g || g->name != (uint32_t)(i % 50))
			bad++;
		if (!ts_opindex_first(x, (int64_t)(1 + i * step)) || ts_opindex_first(x, (int64_t)(1 + i * step)))
			bad++;
		if (ts_opindex_get(x, (int64_t)(2 + i * step)))
			bad++;
	}
	CHECK(bad == 0, "%d ids spread over 2^62: all found, first marks once each", N);
	CHECK(ts_opindex_bytes(x) < 32u * N, "under 32 bytes an id, not a block each (%zu bytes, %.1f an id)",
	      ts_opindex_bytes(x), (double)ts_opindex_bytes(x) / N);
	ts_opindex_free(x);

	/* two interleaved threads of consecutive ids, far apart; the first
	 * ids go loose, get a first mark, then their blocks are made */
	x = ts_opindex_new(64u << 20);
	bad = 0;
	for (int i = 0; i < 100000; i++) {
		for (int t = 0; t < 2; t++) {
			int64_t id = (t ? 5000000000 : 17) + i;
			ts_oprec r = { .name = (uint32_t)t, .m = (uint32_t)(i % 100) };
			bool added;
			if (!ts_opindex_put(x, id, &r, &added) || !added)
				bad++;
			if (i == 0 && !ts_opindex_first(x, id))
				bad++;
		}
	}
	for (int i = 0; i < 100000; i++)
		for (int t = 0; t < 2; t++) {
			int64_t id = (t ? 5000000000 : 17) + i;
			const ts_oprec *g = ts_opindex_get(x, id);
			if (!g || g->name != (uint32_t)t || g->m != (uint32_t)(i % 100))
				bad++;
			/* the first ids were marked while loose: the mark moved */
			if (ts_opindex_first(x, id) != (i != 0))
				bad++;
		}
	CHECK(bad == 0, "two interleaved threads of consecutive ids: all found, marks kept across the move to blocks");
	CHECK(ts_opindex_bytes(x) < 3 * 200000, "and they fill blocks (%zu bytes for 200,000 ids)", ts_opindex_bytes(x));
	ts_opindex_free(x);

	/* every third id: still dense enough for blocks */
	x = ts_opindex_new(64u << 20);
	for (int i = 0; i < 300000; i += 3) {
		ts_oprec r = { .name = 1 };
		bool added;
		ts_opindex_put(x, i, &r, &added);
	}
	CHECK(ts_opindex_bytes(x) < 8 * 100000, "every third id fills blocks too (%zu bytes for 100,000 ids)",
	      ts_opindex_bytes(x));
	ts_opindex_free(x);
}

/* A decode step's ops, in id order: blocks leave the hot ring deflated;
 * lookups and first marks in launch order inflate them, change them and
 * deflate them again, and a second pass finds every record and mark. */
static void packed(void)
{
	enum { N = 2000000, CYCLE = 23 };
	ts_opindex *x = ts_opindex_new(64u << 20);
	int bad = 0;
	bool added;
	for (int64_t id = 0; id < N; id++) {
		ts_oprec r = { .name = (uint32_t)(id % CYCLE), .m = 16 };
		bad += !ts_opindex_put(x, 7 + id, &r, &added) || !added;
	}
	size_t b = ts_opindex_bytes(x);
	CHECK(bad == 0 && b < N / 5, "%d ids of a repeating step: all added, %zu bytes (%.3f an id)", N,
	      b, (double)b / N);
	for (int64_t id = 0; id < N; id++) {
		const ts_oprec *g = ts_opindex_get(x, 7 + id);
		bad += !g || g->name != (uint32_t)(id % CYCLE);
		if (id % 5 == 0)
			bad += !ts_opindex_first(x, 7 + id);
	}
	/* backwards, to cross the hot ring the other way */
	for (int64_t id = N - 1; id >= 0; id--) {
		const ts_oprec *g = ts_opindex_get(x, 7 + id);
		bad += !g || g->name != (uint32_t)(id % CYCLE);
		bad += ts_opindex_first(x, 7 + id) != (id % 5 != 0);
	}
	CHECK(bad == 0, "looked up in order, marked, then backwards: every record and mark kept");
	CHECK(ts_opindex_get(x, 6) == NULL && ts_opindex_get(x, 7 + N) == NULL,
	      "ids outside the range are not found");
	ts_opindex_free(x);
}

int main(void)
{
	basics();
	shuffled();
	wide();
	narrow();
	packed();
	cap();
	sparse();
	return unit_failed != 0;
}
