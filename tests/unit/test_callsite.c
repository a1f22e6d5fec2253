/* The call-site index (a step function of time, varint-coded) against a
 * plain oracle: every frame kept whole, the lookup as the last frame
 * starting at or before ts and the first of its chain of enclosing frames
 * (as they stood when it started) still open at ts. Random nested frames
 * on three threads, with improper nesting, equal starts and zero
 * durations; lookups in time order (the cursor; the chunks behind the
 * latest lookup retired), at every frame edge in order, at random on a
 * second index (the binary search: a lookup back before what is kept
 * finds none and is counted late, any other is exact) and past the last
 * start (the open frames). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attrib/callsite.h"
#include "input/base/intern.h"
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

/* every frame given, in order, to replay into a second index */
typedef struct {
	int th, name;
	int64_t ts, dur;
} given;

static given ev_log[3 * NF];
static int nlog;

static void give(ts_callsites *c, const given *g)
{
	char nm[32];
	int n = snprintf(nm, sizeof nm, "f%d", g->name);
	ts_event ev = { .cat = TS_CAT_PYTHON_FUNCTION, .ph = 'X',
			.has = TS_HAS_TS | TS_HAS_DUR | TS_HAS_PID | TS_HAS_TID | TS_HAS_NAME,
			.name = nm, .name_len = (size_t)n, .ts_ns = g->ts, .dur_ns = g->dur,
			.pid = 1, .tid = g->th };
	ts_callsites_frame(c, &ev);
}

static ts_callsites *replayed(void)
{
	ts_callsites *c = ts_callsites_new(NULL, 64u << 20);
	for (int i = 0; i < nlog; i++)
		give(c, &ev_log[i]);
	return c;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
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
		ev_log[nlog] = (given){ th, name, now[th], dur };
		give(c, &ev_log[nlog++]);
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
	CHECK(bad == 0 && some > asked / 2 && t->late == 0,
	      "in time order: %d of %d lookups differ from the oracle (%d found), %llu late",
	      bad, asked, some, (unsigned long long)t->late);
	int back = found_name(c, ts_callsites_at(c, 1, 0, fr[0][0].start));
	CHECK(back == -1 && t->late == 1,
	      "a lookup back before the frames kept finds none and is counted late");
	CHECK(ts_callsites_at(c, 2, 0, 5000) == TS_INTERN_NONE, "an unknown thread has no call site");
	size_t whole = t->index_bytes;
	ts_callsites_free(c);
	/* frames and launches interleaved, as a trace gives them: each
	 * lookup just before the latest frame's start; behind them the
	 * chunks go, and the index holds a fraction of the whole */
	c = ts_callsites_new(NULL, 64u << 20);
	bad = 0;
	for (int i = 0; i < nlog; i++) {
		give(c, &ev_log[i]);
		int th = ev_log[i].th;
		bad += oracle_at(th, ev_log[i].ts - 1) !=
		       found_name(c, ts_callsites_at(c, 1, th, ev_log[i].ts - 1));
	}
	t = ts_callsites_totals(c);
	CHECK(bad == 0 && t->late == 0 && t->index_bytes < whole / 4,
	      "interleaved: %d of %d lookups differ; the index held at most %zu bytes (all at once: %zu)",
	      bad, nlog, t->index_bytes, whole);
	ts_callsites_free(c);
	/* at frame edges: starts, ends and one either side, in time order */
	c = replayed();
	bad = 0;
	static int64_t edge[6 * NF];
	for (int th = 0; th < 3; th++) {
		int ne = 0;
		for (int j = 0; j < nfr[th]; j++)
			for (int k = -1; k <= 1; k++) {
				edge[ne++] = fr[th][j].start + k;
				edge[ne++] = fr[th][j].end + k;
			}
		qsort(edge, (size_t)ne, sizeof *edge, cmp_i64);
		for (int j = 0; j < ne; j++)
			bad += oracle_at(th, edge[j]) != found_name(c, ts_callsites_at(c, 1, th, edge[j]));
	}
	t = ts_callsites_totals(c);
	CHECK(bad == 0 && t->late == 0, "at every frame's start and end, and one either side: %d differ", bad);
	ts_callsites_free(c);
	/* at random, threads interleaved: exact, or none where the lookup
	 * went back before what is kept (and then counted) */
	c = replayed();
	bad = 0;
	int none = 0;
	for (int i = 0; i < 200000; i++) {
		int th = (int)(unit_rand(&seed) % 3);
		int64_t span = now[th] + 3100 - fr[th][0].start + 40;
		int64_t ts = fr[th][0].start - 20 + (int64_t)(unit_rand(&seed) % (unsigned long long)span);
		int want = oracle_at(th, ts), got = found_name(c, ts_callsites_at(c, 1, th, ts));
		if (want != got && got == -1)
			none++;
		else
			bad += want != got;
	}
	t = ts_callsites_totals(c);
	CHECK(bad == 0 && (uint64_t)none <= t->late,
	      "at random: %d of 200000 lookups differ from the oracle, %d none where one was (%llu late)",
	      bad, none, (unsigned long long)t->late);
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
