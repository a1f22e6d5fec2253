/*
 * Saved partials, the aggregates part: saving two analyses and loading
 * both into an empty one gives what one analysis of all their events gives
 * (rows, statistics to the histogram bucket, memory, devices); a partial cut
 * at any byte or with a wild count is refused without a crash or a big
 * allocation.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/agg.h"
#include "input/base/intern.h"
#include "unit.h"
#include "input/base/wire.h"

static ts_event kernel(const char *name, int64_t ts, int64_t dur, int64_t dev)
{
	ts_event e = { .cat = TS_CAT_KERNEL, .ph = 'X', .name = name, .name_len = strlen(name),
		       .ts_ns = ts, .dur_ns = dur, .device = dev,
		       .has = TS_HAS_TS | TS_HAS_DUR | TS_HAS_DEVICE };
	return e;
}

static ts_event memcpy_ev(int64_t ts, int64_t dur, int64_t bytes)
{
	ts_event e = { .cat = TS_CAT_GPU_MEMCPY, .ph = 'X', .name = "Memcpy HtoD (Pageable -> Device)",
		       .ts_ns = ts, .dur_ns = dur, .bytes = bytes,
		       .has = TS_HAS_TS | TS_HAS_DUR | TS_HAS_BYTES };
	e.name_len = strlen(e.name);
	return e;
}

/* Events of one side: `side` shifts the times (no overlap between sides)
 * and picks a few names of its own. */
static void feed(ts_agg *a, int side, int n)
{
	static const char *const names[] = { "gemm_a", "attn_b", "norm_c", "allreduce_d", "only_left",
					     "only_right" };
	unsigned long long s = 11 + (unsigned long long)side;
	for (int i = 0; i < n; i++) {
		int k = (int)(unit_rand(&s) % 4);
		if (i % 7 == 0)
			k = 4 + side;
		int64_t ts = (int64_t)side * 1000000000 + i * 1000;
		ts_event e = kernel(names[k], ts, 100 + (int64_t)(unit_rand(&s) % 5000), i % 2);
		ts_agg_event(a, &e);
		if (i % 10 == 0) {
			ts_event m = memcpy_ev(ts + 500, 50, 4096 * (i + 1));
			ts_agg_event(a, &m);
		}
	}
}

static int same_stat(const ts_stat *x, const ts_stat *y)
{
	return x->count == y->count && x->total == y->total && x->min == y->min && x->max == y->max &&
	       ts_stat_quantile(x, 0.5) == ts_stat_quantile(y, 0.5) &&
	       ts_stat_quantile(x, 0.99) == ts_stat_quantile(y, 0.99);
}

static const ts_stat *row_named(const ts_agg *a, const char *name)
{
	uint32_t id = ts_intern_find(a->names, name, strlen(name));
	return id == TS_INTERN_NONE ? NULL : &a->rows[id];
}

int main(void)
{
	ts_limits lim = ts_limits_default();
	ts_agg *left = ts_agg_new(&lim, NULL), *right = ts_agg_new(&lim, NULL), *both = ts_agg_new(&lim, NULL);
	feed(left, 0, 5000);
	feed(right, 1, 3000);
	feed(both, 0, 5000);
	feed(both, 1, 3000);
	ts_wbuf wl = { 0 }, wr = { 0 };
	ts_agg_save(left, &wl);
	ts_agg_save(right, &wr);
	CHECK(!wl.nomem && !wr.nomem && wl.n > 0, "two aggregates saved (%zu and %zu bytes)", wl.n, wr.n);

	ts_agg *merged = ts_agg_new(&lim, NULL);
	uint32_t *map = NULL, nmap = 0;
	uint8_t *slots = NULL;
	ts_rbuf r1 = { .p = wl.p, .n = wl.n };
	ts_status s1 = ts_agg_load(merged, &r1, &map, &slots, &nmap);
	CHECK(s1 == TS_OK && r1.at == r1.n && nmap == ts_intern_count(left->names),
	      "the left one loads whole (%s), a row map of %u", r1.err ? r1.err : "ok", nmap);
	free(map);
	free(slots);
	ts_rbuf r2 = { .p = wr.p, .n = wr.n };
	ts_status s2 = ts_agg_load(merged, &r2, &map, &slots, &nmap);
	CHECK(s2 == TS_OK && r2.at == r2.n, "the right one loads into it");
	int bad = 0;
	for (uint32_t i = 0; i < nmap; i++) {
		size_t len;
		const char *n = ts_intern_str(right->names, i, &len);
		size_t l2;
		const char *m = ts_intern_str(merged->names, map[i], &l2);
		bad += len != l2 || memcmp(n, m, len) != 0;
	}
	CHECK(bad == 0, "the row map sends each saved row to the row of its name");
	free(map);
	free(slots);

	bad = 0;
	uint32_t rows = ts_intern_count(both->names);
	for (uint32_t i = 0; i < rows; i++) {
		size_t len;
		const char *name = ts_intern_str(both->names, i, &len);
		const ts_stat *m = row_named(merged, name);
		if (!m || !same_stat(m, &both->rows[i]))
			bad++;
	}
	CHECK(bad == 0 && rows == ts_intern_count(merged->names) && rows == 6,
	      "every kernel row of the merge equals the single analysis: count, total, min, max, p50, p99 (%u rows)", rows);
	CHECK(same_stat(&merged->all, &both->all) && merged->kernels == both->kernels &&
	      merged->events == both->events && merged->counts[TS_CAT_KERNEL] == both->counts[TS_CAT_KERNEL],
	      "so do the totals and event counts");
	const ts_memrow *mm = &merged->mem[TS_MEM_HTOD], *bm = &both->mem[TS_MEM_HTOD];
	CHECK(mm->count == bm->count && mm->bytes == bm->bytes && mm->total_ns == bm->total_ns,
	      "and the memory copies (%" PRIu64 " HtoD, %" PRId64 " bytes)", mm->count, mm->bytes);
	CHECK(ts_agg_busy_ns(merged) == ts_agg_busy_ns(both) && merged->ndev == both->ndev &&
	      merged->k_first == both->k_first && merged->k_last == both->k_last,
	      "and the busy time, devices and kernel span (%" PRId64 " ns busy)", ts_agg_busy_ns(merged));

	/* cut anywhere, or a wild count: refused, no crash */
	int refused = 0, tried = 0;
	for (size_t cut = 0; cut < wl.n; cut += 1 + cut / 64) {
		ts_agg *x = ts_agg_new(&lim, NULL);
		ts_rbuf r = { .p = wl.p, .n = cut };
		ts_status st = ts_agg_load(x, &r, &map, &slots, &nmap);
		free(map);
		free(slots);
		tried++;
		refused += st == TS_ERR_PARTIAL && r.err != NULL;
		ts_agg_free(x);
	}
	CHECK(refused == tried, "cut at %d places: each refused as a bad partial", tried);
	unsigned char *wild = malloc(wl.n);
	memcpy(wild, wl.p, wl.n);
	int fails = 0;
	for (size_t k = 0; k < wl.n; k += 97) {
		memcpy(wild, wl.p, wl.n);
		wild[k] ^= 0xff;
		ts_agg *x = ts_agg_new(&lim, NULL);
		ts_rbuf r = { .p = wild, .n = wl.n };
		ts_status st = ts_agg_load(x, &r, &map, &slots, &nmap);
		free(map);
		free(slots);
		fails += st != TS_OK && st != TS_ERR_PARTIAL;
		ts_agg_free(x);
	}
	CHECK(fails == 0, "a byte flipped every 97 bytes: loaded or refused as a bad partial, never worse");
	free(wild);
	ts_wbuf_free(&wl);
	ts_wbuf_free(&wr);
	ts_agg_free(left);
	ts_agg_free(right);
	ts_agg_free(both);
	ts_agg_free(merged);
	return unit_failed != 0;
}
