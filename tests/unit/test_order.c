/* Events put back in order (input/order.h): the sorter gives every event
 * once, in the documented order (metadata; the CPU's side by start, the
 * longer first; launches and GPU operations by correlation, call, flow,
 * operation, then start; those without a correlation by start; the GPU's
 * annotations last), the same in memory and through a temporary file;
 * ties keep the file's order, reversed for a file that runs backwards;
 * the watch sees Kineto's order as in order and the rewritten ones as out. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/order.h"
#include "unit.h"

#define N 30000

typedef struct {
	ts_cat cat;
	char ph;
	int64_t ts, dur, corr;
	bool has_corr;
	uint64_t idx;
	char name[64];
} spec;

static spec specs[N];

/* The documented place of an event, as the test reads order.h. */
static void place(const spec *s, int *group, int64_t k[3])
{
	k[0] = k[1] = k[2] = 0;
	if (s->ph == 'M') {
		*group = 0;
		return;
	}
	switch (s->cat) {
	case TS_CAT_GPU_USER_ANNOTATION:
		*group = 4, k[0] = s->ts, k[1] = -s->dur;
		return;
	case TS_CAT_CUDA_RUNTIME:
	case TS_CAT_FLOW:
	case TS_CAT_KERNEL: {
		int64_t kind = s->cat == TS_CAT_CUDA_RUNTIME ? 0 : s->cat == TS_CAT_FLOW ? 1 : 2;
		if (s->has_corr)
			*group = 2, k[0] = s->corr, k[1] = kind, k[2] = s->ts;
		else
			*group = 3, k[0] = s->ts, k[1] = kind;
		return;
	}
	default:
		*group = 1, k[0] = s->ts, k[1] = -s->dur;
	}
}

static int backwards;

static int spec_cmp(const void *x, const void *y)
{
	const spec *a = x, *b = y;
	int ga, gb;
	int64_t ka[3], kb[3];
	place(a, &ga, ka);
	place(b, &gb, kb);
	if (ga != gb)
		return ga < gb ? -1 : 1;
	for (int i = 0; i < 3; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	int c = (a->idx > b->idx) - (a->idx < b->idx);
	return backwards ? -c : c;
}

static void make_specs(unsigned long long seed)
{
	static const ts_cat cats[] = { TS_CAT_CPU_OP, TS_CAT_PYTHON_FUNCTION, TS_CAT_CUDA_RUNTIME,
				       TS_CAT_FLOW, TS_CAT_KERNEL, TS_CAT_GPU_USER_ANNOTATION,
				       TS_CAT_USER_ANNOTATION };
	for (uint64_t i = 0; i < N; i++) {
		spec *s = &specs[i];
		unsigned long long r = unit_rand(&seed);
		s->idx = i;
		s->ph = r % 97 == 0 ? 'M' : 'X';
		s->cat = cats[r % 7];
		s->ts = (int64_t)(unit_rand(&seed) % 5000);    /* many ties */
		s->dur = (int64_t)(unit_rand(&seed) % 4);
		s->has_corr = unit_rand(&seed) % 10 != 0;
		s->corr = (int64_t)(unit_rand(&seed) % 3000);
		int len = 8 + (int)(unit_rand(&seed) % 48);
		snprintf(s->name, sizeof s->name, "ev%06llu-%0*d", (unsigned long long)i, len - 9, 0);
	}
}

static ts_event event_of(const spec *s)
{
	ts_event ev;
	memset(&ev, 0, sizeof ev);
	ev.cat = s->ph == 'M' ? TS_CAT_METADATA : s->cat;
	ev.ph = s->ph;
	ev.has = TS_HAS_TS | TS_HAS_DUR | TS_HAS_BYTES | TS_HAS_NAME;
	ev.ts_ns = s->ts;
	ev.dur_ns = s->dur;
	ev.bytes = (int64_t)s->idx;         /* which one it is */
	if (s->has_corr) {
		if (s->cat == TS_CAT_FLOW)
			ev.has |= TS_HAS_ID, ev.id = s->corr;
		else
			ev.has |= TS_HAS_CORRELATION, ev.correlation = s->corr;
	}
	ev.name = s->name;
	ev.name_len = strlen(s->name);
	ev.end_offset = s->idx * 10;
	return ev;
}

typedef struct {
	const spec *want;       /* the expected order */
	size_t n;
	bool same, names;
} got_t;

static ts_status take(void *ud, const ts_event *ev)
{
	got_t *g = ud;
	if (g->n >= N || (uint64_t)ev->bytes != g->want[g->n].idx)
		g->same = false;
	else if (ev->name_len != strlen(g->want[g->n].name) ||
		 memcmp(ev->name, g->want[g->n].name, ev->name_len) != 0 ||
		 ev->end_offset != g->want[g->n].idx * 10)
		g->names = false;
	g->n++;
	return TS_OK;
}

/* Sort the specs in file order (or reversed) through a sorter of mem
 * bytes; true when it gives the expected order. */
static bool sorted_as(size_t n, size_t mem, uint64_t *runs)
{
	static spec want[N];
	ts_sorter *s = ts_sorter_new(mem, NULL);
	for (size_t i = 0; i < n; i++) {
		ts_event ev = event_of(&specs[i]);
		if (ts_sorter_add(s, &ev) != TS_OK)
			return false;
	}
	memcpy(want, specs, n * sizeof *want);
	backwards = 0;
	qsort(want, n, sizeof *want, spec_cmp);
	got_t g = { want, 0, true, true };
	ts_status st = ts_sorter_emit(s, take, &g);
	*runs = ts_sorter_runs(s);
	ts_sorter_free(s);
	return st == TS_OK && g.same && g.names && g.n == n;
}

static void sorter(void)
{
	uint64_t runs;
	make_specs(42);
	CHECK(sorted_as(2000, 64u << 20, &runs) && runs == 0,
	      "a few events, in memory: every one once, in the documented order, names and offsets whole");
	CHECK(sorted_as(N, 64u << 20, &runs) && runs == 1,
	      "more than 1 MB held: one run to the file before they are given, the same order");
	CHECK(sorted_as(N, 1u << 20, &runs) && runs > 4,
	      "past its memory, through a temporary file (%llu runs): the same order", (unsigned long long)runs);
	make_specs(7);
	CHECK(sorted_as(N, 1u << 20, &runs), "another file, through runs: the same order");
}

/* A file whose GPU operations run backwards: ties come out in the
 * opposite of the file's order (the order they were written before it
 * was reversed). */
static void backwards_ties(void)
{
	ts_sorter *s = ts_sorter_new(1u << 20, NULL);
	spec k[6] = { 0 };
	for (int i = 0; i < 6; i++) {
		k[i] = (spec){ .cat = TS_CAT_KERNEL, .ph = 'X', .ts = 100 - 10 * i, .dur = 1,
			       .corr = 5, .has_corr = false, .idx = (uint64_t)i };
		snprintf(k[i].name, sizeof k[i].name, "k%d", i);
	}
	spec t1 = { .cat = TS_CAT_CPU_OP, .ph = 'X', .ts = 7, .dur = 2, .idx = 6, .name = "child" };
	spec t2 = { .cat = TS_CAT_CPU_OP, .ph = 'X', .ts = 7, .dur = 2, .idx = 7, .name = "parent" };
	for (int i = 0; i < 6; i++) {
		ts_event ev = event_of(&k[i]);
		ts_sorter_add(s, &ev);
	}
	ts_event a = event_of(&t1), b = event_of(&t2);
	ts_sorter_add(s, &a);
	ts_sorter_add(s, &b);
	spec want[8];
	memcpy(want, k, sizeof k);
	want[6] = t1;
	want[7] = t2;
	backwards = 1;
	qsort(want, 8, sizeof *want, spec_cmp);
	backwards = 0;
	got_t g = { want, 0, true, true };
	ts_sorter_emit(s, take, &g);
	ts_sorter_free(s);
	CHECK(g.same && g.n == 8 && want[0].idx == 7,
	      "a file running backwards: its ties come out in the opposite of its order");
}

static bool watch(const spec *v, size_t n, bool *during)
{
	ts_order_watch w;
	memset(&w, 0, sizeof w);
	*during = false;
	for (size_t i = 0; i < n; i++) {
		ts_event ev = event_of(&v[i]);
		ev.has |= TS_HAS_STREAM | TS_HAS_DEVICE | TS_HAS_PID | TS_HAS_TID;
		ev.stream = 7, ev.tid = 1;
		*during |= ts_order_watch_event(&w, &ev);
	}
	return ts_order_watch_end(&w);
}

static void watches(void)
{
	static spec v[400];
	bool during;
	/* Kineto's order: ops, then calls and kernels in time */
	for (int i = 0; i < 200; i++)
		v[i] = (spec){ .cat = TS_CAT_CPU_OP, .ph = 'X', .ts = 10 * i, .dur = 5 };
	for (int i = 0; i < 200; i++)
		v[200 + i] = (spec){ .cat = i % 2 ? TS_CAT_KERNEL : TS_CAT_CUDA_RUNTIME, .ph = 'X',
				     .ts = 10 * i + 3, .dur = 2 };
	CHECK(!watch(v, 400, &during) && !during, "Kineto's order is in order");
	/* sorted by time: ops after the first call */
	qsort(v, 400, sizeof *v, spec_cmp);
	for (int i = 0; i < 400; i++)
		for (int j = i; j > 0 && v[j].ts < v[j - 1].ts; j--) {
			spec t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	CHECK(watch(v, 400, &during) && during, "sorted by time: out of order, seen as it is read");
	/* reversed */
	for (int i = 0; i < 200; i++) {
		spec t = v[i];
		v[i] = v[399 - i];
		v[399 - i] = t;
	}
	CHECK(watch(v, 400, &during) && during, "reversed: out of order, seen as it is read");
	/* a small reversed trace: seen at its end */
	spec s[20];
	for (int i = 0; i < 20; i++)
		s[i] = (spec){ .cat = TS_CAT_KERNEL, .ph = 'X', .ts = 1000 - 10 * i, .dur = 2 };
	CHECK(watch(s, 20, &during) && !during, "a small reversed trace: out of order at its end");
	s[5].ts = 0;
	for (int i = 0; i < 20; i++)
		s[i].ts = 10 * i;
	s[7].ts = 1;   /* one kernel out of place, as real traces have */
	CHECK(!watch(s, 20, &during), "one kernel out of place: in order");
}

int main(void)
{
	sorter();
	backwards_ties();
	watches();
	return unit_failed != 0;
}
