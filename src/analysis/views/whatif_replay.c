/*
 * whatif_replay.c - one step replayed from its dependencies: what each
 * operation's start waited for, the replay as recorded and with one
 * change at a time, and the step's wall walked back cause by cause
 * (whatif.h).
 */
#include "analysis/views/whatif_int.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/satmath.h"
#include "input/base/grow.h"

#define TOL TS_WI_SWITCH_NS     /* a sync's end, a stream's end: how near is at */
#define DEP_TOL TS_WI_DEP_NS
#define SYNC_LOOK 512            /* operations looked back for a sync's */
#define PRE_LOOK 4096            /* operations before a step looked at for its streams' ends */

/* What an operation's recorded start waited for. */
enum { B_NONE, B_LAUNCH, B_STREAM, B_DEP, B_WAIT };

struct wi_op {
	int64_t ts, end, dur;        /* as recorded */
	int64_t ready;               /* when its launch let it start; INT64_MIN none */
	int64_t launch, launch_end;  /* its launch call; INT64_MIN none */
	int64_t sw;                  /* the switch after the one before on its stream
				      * (its own up to the trace's switch, else the
				      * trace's median switch; below 0 where a kernel began
				      * before the one before it ended: programmatic
				      * dependent launch) */
	int64_t hold;                /* the start after what bound it: a launch's
				      * latency beyond the lag, a cross-stream
				      * wait's, a wait nothing explains */
	int64_t med;                 /* a collective that waited on a peer: its median */
	int32_t prev, dep;           /* indices in the step; -1 none */
	int64_t pre;                 /* prev -1: the end of the one before it on its
				      * stream, before the step; INT64_MIN none */
	uint16_t stream;
	uint8_t type, bind;
};

/* One change to replay with. */
typedef enum { M_AS_IS, M_HALF, M_CEIL, M_LAUNCH, M_PREP, M_PEER, M_COPIES } mode;

typedef struct {
	wi_op *o;
	size_t n;
	wi_sync *sync;
	size_t nsync;
	int64_t s0, s1, prep;
	const double *ceil;      /* wi_ctx's */
} step;

static int64_t max2(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static bool grow_scratch(wi_scratch *sc, size_t n)
{
	if (n <= sc->cap)
		return true;
	size_t cap = sc->cap ? sc->cap : 256;
	while (cap < n)
		cap *= 2;
	wi_op *o = realloc(sc->op, cap * sizeof *o);
	if (o)
		sc->op = o;
	int64_t *p = realloc(sc->pend, cap * sizeof *p);
	if (p)
		sc->pend = p;
	size_t *m = realloc(sc->pmax, cap * sizeof *m);
	if (m)
		sc->pmax = m;
	if (!o || !p || !m)
		return false;
	sc->cap = cap;
	return true;
}

void wi_scratch_free(wi_scratch *sc)
{
	free(sc->op);
	free(sc->pend);
	free(sc->pmax);
	free(sc->sync);
	*sc = (wi_scratch){ 0 };
}

/* A collective four times its median or more waited on a peer: its
 * median, else 0. */
static int64_t peer_median(const wi_ctx *c, const ts_tl_op *t)
{
	if (!t->comm || !c->rows || t->row >= c->nrows || c->rows[t->row].count < 4)
		return 0;
	int64_t med = ts_stat_quantile(&c->rows[t->row], 0.5);
	return med > 0 && t->dur >= TS_WI_PEER_X * med ? med : 0;
}

/* Of the latest operation on each other stream (and the one before it),
 * the one that ended last by k's start: k waited on it where its end
 * meets k's start. */
static int32_t cross_dep(const step *s, const int32_t *last, const uint16_t *used, size_t nused,
			 size_t k)
{
	const wi_op *o = &s->o[k];
	int32_t best = -1;
	for (size_t u = 0; u < nused; u++) {
		if (used[u] == o->stream)
			continue;
		for (int32_t j = last[used[u]], hop = 0; j >= 0 && hop < 2; j = s->o[j].prev, hop++) {
			if (s->o[j].end > o->ts + TOL)
				continue;
			if (best < 0 || s->o[j].end > s->o[best].end)
				best = j;
			break;
		}
	}
	return best >= 0 && s->o[best].end >= o->ts - DEP_TOL ? best : -1;
}

/* What op k's recorded start waited for. */
static void bind_op(const wi_ctx *c, step *s, const int32_t *last, const uint16_t *used,
		    size_t nused, size_t k)
{
	wi_op *o = &s->o[k];
	int64_t pe = o->prev >= 0 ? s->o[o->prev].end : o->pre;
	if (pe != INT64_MIN) {   /* below 0: begun before the one before ended (PDL) */
		int64_t g = o->ts - pe;
		o->sw = g <= c->sw ? g : c->sw_typ;
	}
	int64_t p = pe != INT64_MIN ? pe + o->sw : INT64_MIN;
	if (p == INT64_MIN && o->launch == INT64_MIN) {
		o->bind = B_NONE;
		return;
	}
	if (p != INT64_MIN && o->ts - pe <= c->sw) {
		o->bind = B_STREAM;
		return;
	}
	if (o->launch != INT64_MIN && o->ts >= o->launch &&
	    o->ts <= o->launch_end + TS_WI_LAUNCH_TOL_NS) {
		o->bind = B_LAUNCH;      /* its latency its own */
		o->ready = o->ts;
		return;
	}
	o->dep = cross_dep(s, last, used, nused, k);
	if (o->dep >= 0) {
		o->bind = B_DEP;
		o->hold = o->ts - s->o[o->dep].end > 0 ? o->ts - s->o[o->dep].end : 0;
		return;
	}
	o->bind = B_WAIT;
	o->hold = o->ts - max2(p, o->ready);
}

/* The step's operations on the device, with their launches and what each
 * waited for; false: none. */
static bool gather(const wi_ctx *c, step *s, wi_scratch *sc)
{
	size_t n;
	const ts_tl_op *all = ts_timeline_ops(c->tl, &n);
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (all[mid].ts < s->s0)
			lo = mid + 1;
		else
			hi = mid;
	}
	int32_t last[TS_TL_STREAMS];
	uint16_t used[TS_TL_STREAMS];
	int64_t pre[TS_TL_STREAMS];
	size_t nused = 0;
	memset(last, 0xff, sizeof last);
	for (size_t i = 0; i < TS_TL_STREAMS; i++)
		pre[i] = INT64_MIN;
	for (size_t i = lo, seen = 0; i-- > 0 && seen < PRE_LOOK; seen++)   /* before the step */
		if (c->device == INT64_MIN || all[i].device == c->device)
			pre[all[i].stream] = max2(pre[all[i].stream], ts_sat_add(all[i].ts, all[i].dur));
	s->n = 0;
	for (size_t i = lo; i < n && all[i].ts < s->s1; i++) {
		const ts_tl_op *t = &all[i];
		if (c->device != INT64_MIN && t->device != c->device)
			continue;
		if (!grow_scratch(sc, s->n + 1))
			return false;
		s->o = sc->op;
		const ts_tl_call *l = ts_timeline_launch(c->tl, t->corr);
		wi_op *o = &s->o[s->n];
		*o = (wi_op){ .ts = t->ts, .dur = t->dur, .end = ts_sat_add(t->ts, t->dur),
			      .ready = l ? ts_sat_add(l->ts, t->ts - l->ts < c->lag ? t->ts - l->ts
									     : c->lag) : INT64_MIN,
			      .launch = l ? l->ts : INT64_MIN,
			      .launch_end = l ? ts_sat_add(l->ts, l->dur) : INT64_MIN,
			      .med = peer_median(c, t),
			      .prev = last[t->stream], .dep = -1, .stream = t->stream, .type = t->type,
			      .pre = last[t->stream] < 0 ? pre[t->stream] : INT64_MIN };
		if (last[t->stream] < 0)
			used[nused++] = t->stream;
		bind_op(c, s, last, used, nused, s->n);
		last[t->stream] = (int32_t)s->n++;
	}
	return s->n > 0;
}

static int by_end(const void *a, const void *b)
{
	const wi_sync *x = a, *y = b;
	return (x->b > y->b) - (x->b < y->b);
}

/* The synchronizing calls of the step's trace that end in it. */
static bool gather_syncs(const wi_ctx *c, step *s, wi_scratch *sc)
{
	s->nsync = 0;
	if (!c->api)
		return true;
	size_t n;
	uint64_t unkept;
	const ts_api_sync *y = ts_api_syncs(c->api, &n, &unkept);
	for (size_t i = 0; i < n; i++) {
		int64_t b = ts_sat_add(y[i].ts_ns, y[i].dur_ns);
		if (y[i].source != c->source || b <= s->s0 || y[i].ts_ns >= s->s1)
			continue;
		if (!ts_grow((void **)&sc->sync, &sc->sync_cap, s->nsync + 1, sizeof *sc->sync, 16,
			     SIZE_MAX, false))
			return false;
		sc->sync[s->nsync++] = (wi_sync){ y[i].ts_ns, b, 0 };
	}
	s->sync = sc->sync;
	if (s->nsync)
		qsort(s->sync, s->nsync, sizeof *s->sync, by_end);
	return true;
}

/* Sync y ended as the CPU's wait for the GPU's work did: in the replay it
 * ends when the replayed work does (the operation it waited for: of those
 * begun before op k, the one that ended last by its end), and what the CPU
 * launches after it moves as far. A sync whose work was done when it
 * began keeps the CPU's shift as it was. */
static int64_t sync_shift(const step *s, size_t k, const wi_sync *y, const int64_t *pend,
			  int64_t shift)
{
	int64_t best = INT64_MIN;
	size_t who = SIZE_MAX;
	for (size_t j = k; j-- > 0 && k - j <= SYNC_LOOK; ) {
		int64_t e = s->o[j].end;
		if (e <= y->b + TOL && e > best) {
			best = e;
			who = j;
		}
	}
	if (who == SIZE_MAX || best < y->a - TOL)
		return shift;
	int64_t lat = y->b - best > 0 ? y->b - best : 0;
	return max2(y->a + shift, pend[who] + lat) - y->b;
}

/* The CPU's shift for a launch at time t: that of the last sync to end by
 * it (0: none). */
static int64_t shift_at(const step *s, size_t done, int64_t t)
{
	for (size_t j = done; j-- > 0; )
		if (s->sync[j].b <= t)
			return s->sync[j].shift;
	return 0;
}

static int64_t dur_in(const step *s, const wi_op *o, mode m, int type)
{
	if (m == M_HALF && o->type == type)
		return o->dur / 2;
	if (m == M_CEIL && o->type == type)
		return (int64_t)((double)o->dur * s->ceil[type] + 0.5);
	if (m == M_PEER && o->med)
		return o->med;
	if (m == M_COPIES && o->type == TS_TL_COPY)
		return 0;
	return o->dur;
}

/* Whether op o's recorded start follows, within TS_WI_FIDELITY_NS, from
 * the recorded ends and launch it waited for (one step of the replay, from
 * the record: what the replay explains, op by op). */
static bool explained(const step *s, const wi_op *o)
{
	int64_t t = o->ready;
	if (o->prev >= 0 || o->pre != INT64_MIN)
		t = max2(t, (o->prev >= 0 ? s->o[o->prev].end : o->pre) + o->sw);
	if (o->dep >= 0)
		t = max2(t, s->o[o->dep].end + o->hold);
	if (t == INT64_MIN)
		return false;
	return t - o->ts <= TS_WI_FIDELITY_NS && o->ts - t <= TS_WI_FIDELITY_NS;
}

/* The step replayed with change m (type: M_HALF's): each operation at the
 * latest of what it waits for; held, the waits nothing explains kept.
 * Its last end; *ok the starts within TS_WI_FIDELITY_NS of the record. */
static int64_t replay(step *s, mode m, int type, bool held, int64_t *pend, uint64_t *ok)
{
	int64_t shift = 0, last = INT64_MIN;
	size_t done = 0;
	for (size_t k = 0; k < s->n; k++) {
		const wi_op *o = &s->o[k];
		while (done < s->nsync && s->sync[done].b <= o->ts) {
			shift = sync_shift(s, k, &s->sync[done], pend, shift);
			s->sync[done++].shift = shift;
		}
		int64_t r = INT64_MIN;
		if (o->ready != INT64_MIN && m != M_LAUNCH) {
			r = o->ready + shift_at(s, done, o->launch);
			if (m == M_PREP)
				r = max2(r - s->prep, s->s0);
		}
		int64_t p = o->prev >= 0 ? pend[o->prev] + o->sw
			  : o->pre != INT64_MIN ? o->pre + o->sw : INT64_MIN;
		int64_t d = o->dep >= 0 ? pend[o->dep] + o->hold : INT64_MIN;
		int64_t t = max2(max2(r, p), d);
		if (o->bind == B_NONE && (held || t == INT64_MIN))
			t = max2(t, o->ts);
		else if (o->bind == B_WAIT && held && max2(r, p) != INT64_MIN)
			t = max2(t, max2(r, p) + o->hold);
		if (t == INT64_MIN)
			t = s->s0;
		pend[k] = t + dur_in(s, o, m, type);
		if (ok && explained(s, o))
			(*ok)++;
		last = max2(last, pend[k]);
	}
	return last;
}

/* Of [from, to), the time inside the step's synchronizing calls. */
static int64_t in_syncs(const step *s, int64_t from, int64_t to)
{
	int64_t sum = 0, at = from;
	for (size_t i = 0; i < s->nsync; i++) {     /* by end: each part once */
		int64_t a = max2(s->sync[i].a, at), b = s->sync[i].b < to ? s->sync[i].b : to;
		if (b > a) {
			sum += b - a;
			at = b;
		}
	}
	return sum;
}

/* The CPU's part of the time [from, to): in a synchronizing call, else cause. */
static void cpu_gap(const step *s, int64_t from, int64_t to, int cause, int64_t *acc)
{
	if (to <= from)
		return;
	int64_t y = in_syncs(s, from, to);
	acc[TS_CP_SYNC] += y;
	acc[cause] += to - from - y;
}

/* Op k's time [from, to) on the path: its type's, a collective's time
 * beyond its median (at its start: the peer it waited for) a peer's. */
static void busy(const wi_op *o, int64_t from, int64_t to, int64_t *acc)
{
	if (to <= from)
		return;
	int64_t len = to - from;
	if (o->med) {
		int64_t wait_end = o->ts + (o->dur - o->med);
		int64_t pw = wait_end > from ? (wait_end < to ? wait_end : to) - from : 0;
		acc[TS_CP_PEER] += pw;
		len -= pw;
	}
	acc[o->type == TS_TL_COPY ? TS_CP_COPY : o->type < TS_TYPE_COUNT ? o->type : TS_TYPE_OTHER] += len;
}

/* The step's wall walked back from its last operation, along what each
 * start waited for: one cause a microsecond. */
static void account(const step *s, size_t *pmax, int64_t *acc)
{
	size_t e = 0;
	for (size_t k = 0; k < s->n; k++) {
		pmax[k] = e;     /* the latest end among ops before k (k = 0: itself) */
		if (s->o[k].end > s->o[e].end)
			e = k;
	}
	int64_t cur = s->o[e].end < s->s1 ? s->o[e].end : s->s1;
	acc[TS_CP_AFTER] += s->s1 - cur;
	for (size_t k = e;;) {
		const wi_op *o = &s->o[k];
		int64_t from = max2(o->ts, s->s0);
		busy(o, from, cur, acc);
		cur = cur < from ? cur : from;
		int32_t next = -1;
		int cause = TS_CP_LAUNCH;
		if (o->bind == B_STREAM) {
			next = o->prev;
			cause = TS_CP_SWITCH;
		} else if (o->bind == B_DEP) {
			next = o->dep;
			cause = TS_CP_STREAM;
		} else if (k > 0) {
			next = (int32_t)pmax[k];      /* the GPU's work before the wait */
			cause = o->bind == B_WAIT ? TS_CP_WAIT : TS_CP_LAUNCH;
		}
		if (next < 0 || cur <= s->s0) {
			/* a first kernel queued before the step, late with no cause:
			 * from its launch on, the wait is none of the CPU's */
			int64_t q = o->bind == B_WAIT && o->ready != INT64_MIN ? max2(o->ready, s->s0) : cur;
			q = q < cur ? q : cur;
			acc[TS_CP_WAIT] += cur - q;
			cpu_gap(s, s->s0, q, TS_CP_BEFORE, acc);
			return;
		}
		int64_t pe = s->o[next].end < cur ? s->o[next].end : cur;
		if (cause == TS_CP_LAUNCH)
			cpu_gap(s, pe, cur, TS_CP_LAUNCH, acc);
		else
			acc[cause] += cur - pe;
		cur = pe;
		k = (size_t)next;
	}
}

/* One change replayed against the step as recorded, into acc. */
static void project(step *s, mode m, int type, int which, int64_t base, int64_t *pend,
		    ts_wi_stage *acc)
{
	int64_t end = replay(s, m, type, true, pend, NULL);
	acc->saving_ns[which] += base > end ? base - end : 0;
	acc->tried[which]++;
}

bool wi_replay_step(const wi_ctx *c, int64_t s0, int64_t s1, int64_t prep, wi_scratch *sc,
		    ts_wi_stage *acc)
{
	step s = { .s0 = s0, .s1 = s1, .prep = prep, .ceil = c->ceil };
	if (!gather(c, &s, sc) || !gather_syncs(c, &s, sc))
		return false;
	uint64_t ok = 0;
	int64_t model = replay(&s, M_AS_IS, 0, false, sc->pend, &ok);
	int64_t base = replay(&s, M_AS_IS, 0, true, sc->pend, NULL);
	bool type_seen[TS_TYPE_COUNT] = { false }, peer = false, copies = false;
	for (size_t k = 0; k < s.n; k++) {
		if (s.o[k].type < TS_TYPE_COUNT)
			type_seen[s.o[k].type] = true;
		peer |= s.o[k].med != 0;
		copies |= s.o[k].type == TS_TL_COPY;
	}
	for (int t = 0; t < TS_TYPE_COUNT; t++) {
		if (type_seen[t])
			project(&s, M_HALF, t, t, base, sc->pend, acc);
		if (type_seen[t] && c->ceil[t] < 1)
			project(&s, M_CEIL, t, TS_WI_CEIL + t, base, sc->pend, acc);
	}
	project(&s, M_LAUNCH, 0, TS_WI_LAUNCH, base, sc->pend, acc);
	if (prep > 0)
		project(&s, M_PREP, 0, TS_WI_PREP, base, sc->pend, acc);
	if (peer)
		project(&s, M_PEER, 0, TS_WI_PEER, base, sc->pend, acc);
	if (copies)
		project(&s, M_COPIES, 0, TS_WI_COPIES, base, sc->pend, acc);
	account(&s, sc->pmax, acc->cause_ns);
	for (size_t k = 0; k < s.n; k++) {
		if (s.o[k].type < TS_TYPE_COUNT)
			acc->type_ns[s.o[k].type] += s.o[k].dur;
		if (s.o[k].med)
			acc->peer_ns += s.o[k].dur - s.o[k].med;
	}
	acc->prep_ns += prep;
	acc->steps++;
	acc->ops += s.n;
	acc->ops_reproduced += ok;
	acc->wall_ns += s1 - s0;
	int64_t recorded = s.o[0].end;
	for (size_t k = 1; k < s.n; k++)
		recorded = max2(recorded, s.o[k].end);
	acc->drift_ns += model > recorded ? model - recorded : recorded - model;
	return true;
}
