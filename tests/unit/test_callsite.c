/* The call-site index (a step function of time, varint-coded) against a
 * plain oracle: every frame kept whole, the lookup as the last frame
 * starting at or before ts and the first of its chain of enclosing frames
 * (as they stood when it started) still open at ts. Random nested frames
 * on three threads, with improper nesting, equal starts and zero
 * durations; lookups in time order (the cursor), at random (the binary
 * search) and past the last start (the open frames). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attrib/callsite.h"
#include "analysis/intern.h"
#include "unit.h"

#define NF 20000

typedef struct {
	int64_t start, end;
	int name;
	int parent;
} oframe;

static oframe fr[3][NF];
static int nfr[3], top[3];

static void oracle_add(int th, int64_t s, int64_t e, int name)
{
	int t = top[th];
	while (t >= 0 && fr[th][t].end < s)
		t = fr[th][t].parent;
	fr[th][nfr[th]] = (oframe){ s, e, name, t };
	top[th] = nfr[th]++;
}

static int oracle_at(int th, int64_t ts)
{
	int j = -1;
	for (int lo = 0, hi = nfr[th]; lo < hi;) {
		int mid = lo + (hi - lo) / 2;
		if (fr[th][mid].start <= ts) {
			j = mid;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	for (; j >= 0; j = fr[th][j].parent)
		if (fr[th][j].end >= ts)
			return fr[th][j].name;
	return -1;
}

static int found_name(ts_callsites *c, uint32_t id)
{
	if (id == TS_INTERN_NONE)
		return -1;
	size_t len;
	const char *s = ts_callsites_name(c, id, &len);
	return atoi(s + 1);
}

int main(void)
{
	unsigned long long seed = 88172645463325252ull;
	ts_callsites *c = ts_callsites_new(NULL, 64u << 20);
	int64_t now[3] = { 1000, 5000, 9000 };
	/* frames: a random walk in and out of nesting */
	int64_t open_end[3][64];
	int depth[3] = { 0, 0, 0 };
	memset(top, -1, sizeof top);
	for (int i = 0; i < 3 * NF - 30; i++) {
		int th = (int)(unit_rand(&seed) % 3);
		if (nfr[th] == NF)
			continue;
		unsigned long long r = unit_rand(&seed);
		/* leave some open frames, step forward */
		while (depth[th] > 0 && (r & 3) == 0 && open_end[th][depth[th] - 1] < now[th] + 50) {
			depth[th]--;
			r >>= 2;
		}
		now[th] += (int64_t)(unit_rand(&seed) % 40) * ((r & 16) ? 0 : 1);
		int64_t limit = depth[th] ? open_end[th][depth[th] - 1] - now[th] : 5000;
		int64_t dur = (int64_t)(unit_rand(&seed) % 3000);
		if (limit >= 0 && (unit_rand(&seed) % 10) != 0 && dur > limit)
			dur = limit;                 /* mostly nested; sometimes not */
		if (unit_rand(&seed) % 50 == 0)
			dur = 0;
		int name = (int)(unit_rand(&seed) % 300);
		char nm[32];
		int n = snprintf(nm, sizeof nm, "f%d", name);
		ts_event ev = { .cat = TS_CAT_PYTHON_FUNCTION, .ph = 'X',
				.has = TS_HAS_TS | TS_HAS_DUR | TS_HAS_PID | TS_HAS_TID | TS_HAS_NAME,
				.name = nm, .name_len = (size_t)n, .ts_ns = now[th], .dur_ns = dur,
				.pid = 1, .tid = th };
		ts_callsites_frame(c, &ev);
		oracle_add(th, now[th], now[th] + dur, name);
		if (depth[th] < 64)
			open_end[th][depth[th]++] = now[th] + dur;
	}
	const ts_callsite_totals *t = ts_callsites_totals(c);
	CHECK(t->kept == (uint64_t)(nfr[0] + nfr[1] + nfr[2]) && t->dropped == 0 && t->out_of_order == 0,
	      "%llu frames kept of %d, %llu dropped, %llu out of order", (unsigned long long)t->kept,
	      nfr[0] + nfr[1] + nfr[2], (unsigned long long)t->dropped,
	      (unsigned long long)t->out_of_order);
	CHECK(t->index_bytes < (size_t)t->kept * 12, "the index holds %zu bytes for %llu frames (under 12 a frame)",
	      t->index_bytes, (unsigned long long)t->kept);

	int bad = 0, asked = 0, some = 0;
	/* in time order, per thread, every 7 ns across the span */
	for (int th = 0; th < 3; th++)
		for (int64_t ts = fr[th][0].start - 20; ts <= now[th] + 3100; ts += 7) {
			int want = oracle_at(th, ts);
			int got = found_name(c, ts_callsites_at(c, 1, th, ts));
			bad += want != got;
			some += want >= 0;
			asked++;
		}
	CHECK(bad == 0 && some > asked / 2, "in time order: %d of %d lookups differ from the oracle (%d found)",
	      bad, asked, some);
	/* at random, threads interleaved */
	bad = 0;
	for (int i = 0; i < 200000; i++) {
		int th = (int)(unit_rand(&seed) % 3);
		int64_t span = now[th] + 3100 - fr[th][0].start + 40;
		int64_t ts = fr[th][0].start - 20 + (int64_t)(unit_rand(&seed) % (unsigned long long)span);
		bad += oracle_at(th, ts) != found_name(c, ts_callsites_at(c, 1, th, ts));
	}
	CHECK(bad == 0, "at random: %d of 200000 lookups differ from the oracle", bad);
	/* at frame edges: starts, ends and one past */
	bad = 0;
	for (int th = 0; th < 3; th++)
		for (int j = 0; j < nfr[th]; j++)
			for (int k = -1; k <= 1; k++) {
				int64_t a = fr[th][j].start + k, b = fr[th][j].end + k;
				bad += oracle_at(th, a) != found_name(c, ts_callsites_at(c, 1, th, a));
				bad += oracle_at(th, b) != found_name(c, ts_callsites_at(c, 1, th, b));
			}
	CHECK(bad == 0, "at every frame's start and end, and one either side: %d differ", bad);
	CHECK(ts_callsites_at(c, 2, 0, 5000) == TS_INTERN_NONE, "an unknown thread has no call site");
	ts_callsites_free(c);

	/* the memory cap: frames past it are counted, lookups stay right for
	 * what was kept */
	c = ts_callsites_new(NULL, 4096);
	for (int i = 0; i < 5000; i++) {
		char nm[16];
		int n = snprintf(nm, sizeof nm, "g%d", i % 50);
		ts_event ev = { .has = TS_HAS_TS | TS_HAS_DUR | TS_HAS_PID | TS_HAS_TID, .name = nm,
				.name_len = (size_t)n, .ts_ns = 100 * i, .dur_ns = 50, .pid = 1, .tid = 1 };
		ts_callsites_frame(c, &ev);
	}
	t = ts_callsites_totals(c);
	CHECK(t->dropped > 0 && t->kept > 0 && t->index_bytes <= 4096,
	      "past a 4 KB cap: %llu kept, %llu dropped, %zu bytes", (unsigned long long)t->kept,
	      (unsigned long long)t->dropped, t->index_bytes);
	CHECK(found_name(c, ts_callsites_at(c, 1, 1, 120)) == 1 &&
	      found_name(c, ts_callsites_at(c, 1, 1, 160)) == -1, "what was kept is found: g1 at 120, none at 160");
	ts_callsites_free(c);
	return unit_failed != 0;
}
