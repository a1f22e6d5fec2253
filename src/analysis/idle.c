/*
 * idle.c - busy time, idle gaps and launch-bound gaps of one forward pass,
 * with their causes (see idle.h).
 */
#include "analysis/idle.h"
#include "input/base/satmath.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/hash.h"
#include "input/base/intern.h"

#define WINDOW 64               /* kernels held to put them in start order */
#define LAUNCH_SLOTS 16384      /* per generation; swapped at half full */

typedef struct {
	int64_t ts, end, corr;   /* corr -1: none */
	uint32_t row, op;
	uint8_t work;            /* TS_IDLE_* bits */
} held;

typedef struct {
	int64_t start, len, corr;
	int64_t after_corr;      /* the correlation of the kernel before it */
	int64_t busy;            /* busy time before it */
	int64_t comm, compute;   /* of it, communication and computation */
	uint64_t kernels;        /* kernels before it */
	bool work_before;        /* a layer-work kernel (or input norm) before it */
	uint32_t before, after, op;
} gap;

typedef struct {
	uint64_t key[LAUNCH_SLOTS];  /* correlation + 1; 0 empty */
	int64_t ts[LAUNCH_SLOTS];
	uint32_t used;
} launch_gen;

struct ts_idle {
	held win[WINDOW];        /* a ring: win[(head + i) % WINDOW], i < nwin */
	uint32_t nwin, head;
	bool started;
	int64_t first, frontier;
	int64_t comm_front, comp_front; /* the frontiers of each kind alone */
	int64_t first_corr;      /* the first kernel's correlation, -1 none */
	int64_t min_launch;      /* the lowest runtime call's correlation read, INT64_MAX none */
	int64_t win_from, win_to; /* the step's GPU window (ts_idle_window) */
	uint32_t frontier_row;
	int64_t frontier_corr;   /* the correlation of the kernel that ends last */
	uint64_t nkernels;
	uint64_t last_work;      /* kernels up to the last layer-work one */
	bool work_seen;
	bool gaps_full;          /* some gaps were not held */
	ts_idle_pass cur;
	gap *gaps;               /* TS_IDLE_GAPS */
	ts_idle_gap_fn on_gap;   /* told of each gap at the pass's end, or NULL */
	void *on_gap_ctx;
	uint32_t ngaps;
	launch_gen *gen[2];
};

ts_idle *ts_idle_new(void)
{
	ts_idle *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->gaps = malloc(TS_IDLE_GAPS * sizeof *d->gaps);
	d->gen[0] = calloc(1, sizeof *d->gen[0]);
	d->gen[1] = calloc(1, sizeof *d->gen[1]);
	if (!d->gaps || !d->gen[0] || !d->gen[1]) {
		ts_idle_free(d);
		return NULL;
	}
	d->min_launch = INT64_MAX;
	ts_idle_begin(d);
	return d;
}

void ts_idle_free(ts_idle *d)
{
	if (!d)
		return;
	free(d->gaps);
	free(d->gen[0]);
	free(d->gen[1]);
	free(d);
}

static uint32_t slot_of(uint64_t key)
{
	key *= TS_HASH_GOLDEN;
	return (uint32_t)(key >> 40) & (LAUNCH_SLOTS - 1);
}

void ts_idle_runtime(ts_idle *d, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_CORRELATION) || !(ev->has & TS_HAS_TS) || ev->correlation < 0)
		return;
	if (ev->correlation < d->min_launch)
		d->min_launch = ev->correlation;
	launch_gen *g = d->gen[0];
	if (g->used >= LAUNCH_SLOTS / 2) {
		d->gen[0] = d->gen[1];
		d->gen[1] = g;
		g = d->gen[0];
		memset(g, 0, sizeof *g);
	}
	uint64_t key = (uint64_t)ev->correlation + 1;
	for (uint32_t i = slot_of(key);; i = (i + 1) & (LAUNCH_SLOTS - 1)) {
		if (g->key[i] == key) {
			g->ts[i] = ev->ts_ns;
			return;
		}
		if (g->key[i] == 0) {
			g->key[i] = key;
			g->ts[i] = ev->ts_ns;
			g->used++;
			return;
		}
	}
}

bool ts_idle_before_capture(const ts_idle *d, int64_t corr)
{
	return corr >= 0 && corr < d->min_launch && d->min_launch != INT64_MAX;
}

bool ts_idle_launch(const ts_idle *d, int64_t corr, int64_t *ts)
{
	if (corr < 0)
		return false;
	uint64_t key = (uint64_t)corr + 1;
	for (int k = 0; k < 2; k++) {
		const launch_gen *g = d->gen[k];
		for (uint32_t i = slot_of(key); g->key[i]; i = (i + 1) & (LAUNCH_SLOTS - 1))
			if (g->key[i] == key) {
				*ts = g->ts[i];
				return true;
			}
	}
	return false;
}

void ts_idle_begin(ts_idle *d)
{
	d->nwin = 0;
	d->head = 0;
	d->started = false;
	d->ngaps = 0;
	d->nkernels = 0;
	d->last_work = 0;
	d->work_seen = false;
	d->gaps_full = false;
	d->comm_front = d->comp_front = INT64_MIN;
	d->win_from = INT64_MIN;
	d->win_to = INT64_MAX;
	d->cur = (ts_idle_pass){ .first_launch_ns = INT64_MIN, .last_launch_ns = INT64_MIN,
				 .idle_from_ns = INT64_MIN,
				 .largest_before = TS_INTERN_NONE,
				 .largest_after = TS_INTERN_NONE,
				 .largest_op = TS_INTERN_NONE };
}

/* The kernel's share of its kind's union (communication or computation),
 * after the walk of every kind together. */
static void kind_walk(ts_idle *d, const held *k)
{
	bool comm = (k->work & TS_IDLE_COMM) != 0;
	int64_t *front = comm ? &d->comm_front : &d->comp_front;
	int64_t *sum = comm ? &d->cur.comm_ns : &d->cur.compute_ns;
	if (k->ts >= *front)
		*sum = ts_sat_add(*sum, k->end - k->ts);
	else if (k->end > *front)
		*sum = ts_sat_add(*sum, k->end - *front);
	if (k->end > *front)
		*front = k->end;
}

int64_t ts_idle_hidden(const ts_idle_pass *p)
{
	int64_t h = p->comm_ns + p->compute_ns - p->busy_ns;
	return h > 0 ? (h < p->comm_ns ? h : p->comm_ns) : 0;
}

/* One kernel, in start order: the frontier walk. */
static void step(ts_idle *d, const held *k)
{
	ts_idle_pass *p = &d->cur;
	bool work_before = d->work_seen;
	d->nkernels++;
	if (k->work & TS_IDLE_WORK)
		d->last_work = d->nkernels;
	if (k->work)
		d->work_seen = true;
	if (!d->started) {
		d->started = true;
		d->first = k->ts;
		d->first_corr = k->corr;
		d->frontier = k->end;
		d->frontier_row = k->row;
		d->frontier_corr = k->corr;
		p->busy_ns = ts_sat_add(p->busy_ns, k->end - k->ts);
		kind_walk(d, k);
		return;
	}
	if (k->ts > d->frontier) {
		int64_t len = k->ts - d->frontier;
		p->gaps++;
		p->idle_ns = ts_sat_add(p->idle_ns, len);
		if (len > p->largest_ns) {
			p->largest_ns = len;
			p->largest_at = d->frontier;
			p->largest_before = k->row;
			p->largest_after = d->frontier_row;
			p->largest_op = k->op;
		}
		if (d->ngaps < TS_IDLE_GAPS)
			d->gaps[d->ngaps++] = (gap){ d->frontier, len, k->corr, d->frontier_corr, p->busy_ns,
						     p->comm_ns, p->compute_ns,
						     d->nkernels - 1, work_before,
						     k->row, d->frontier_row, k->op };
		else
			d->gaps_full = true;
		p->busy_ns = ts_sat_add(p->busy_ns, k->end - k->ts);
		d->frontier = k->end;
		d->frontier_row = k->row;
		d->frontier_corr = k->corr;
	} else if (k->end > d->frontier) {
		p->busy_ns = ts_sat_add(p->busy_ns, k->end - d->frontier);
		d->frontier = k->end;
		d->frontier_row = k->row;
		d->frontier_corr = k->corr;
	}
	kind_walk(d, k);
}

void ts_idle_kernel(ts_idle *d, const ts_event *ev, uint32_t row, uint32_t op,
		    unsigned work)
{
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR) || ev->dur_ns < 0)
		return;
	held k = { ev->ts_ns, ev->ts_ns + ev->dur_ns,
		   (ev->has & TS_HAS_CORRELATION) && ev->correlation >= 0 ? ev->correlation : -1,
		   row, op, (uint8_t)work };
	if (d->nwin == WINDOW) {
		step(d, &d->win[d->head]);
		d->head = (d->head + 1) % WINDOW;
		d->nwin--;
	}
	uint32_t i = d->nwin;
	while (i > 0 && d->win[(d->head + i - 1) % WINDOW].ts > k.ts) {
		d->win[(d->head + i) % WINDOW] = d->win[(d->head + i - 1) % WINDOW];
		i--;
	}
	d->win[(d->head + i) % WINDOW] = k;
	d->nwin++;
}

/* The GPU waited for the CPU before the kernel after g: it was launched
 * once the GPU had gone idle. */
static bool late(const ts_idle *d, const gap *g)
{
	int64_t ts;
	return g->corr >= 0 && ts_idle_launch(d, g->corr, &ts) && ts > g->start;
}

/* The gap after which the pass begins (idle.h), or -1. */
static int64_t head_cut(const ts_idle *d)
{
	const ts_idle_pass *p = &d->cur;
	uint64_t n = d->nkernels, few = n / 8;
	int64_t cut = -1, later = 0;
	for (uint32_t i = d->ngaps; n >= 8 && i-- > 0;) {
		const gap *g = &d->gaps[i];
		if (g->kernels <= few && !g->work_before &&
		    (g->len > p->busy_ns - g->busy || (g->len > later && late(d, g)))) {
			cut = i;
			break;
		}
		if (g->len > later)
			later = g->len;
	}
	/* the first kernel launched in the step's window, with no layer
	 * work before, when the pass's first one was launched before it */
	int64_t ts;
	if (d->win_from != INT64_MIN && d->first_corr >= 0 &&
	    ts_idle_launch(d, d->first_corr, &ts) && ts < d->win_from)
		for (uint32_t i = 0; i < d->ngaps && !d->gaps[i].work_before; i++) {
			const gap *g = &d->gaps[i];
			if (g->corr >= 0 && ts_idle_launch(d, g->corr, &ts) && ts >= d->win_from) {
				if ((int64_t)i > cut)
					cut = i;
				break;
			}
		}
	return cut;
}

/* The gap before which the pass ends, or ngaps; lo: its first held gap. */
static uint32_t tail_cut(const ts_idle *d, uint32_t lo)
{
	uint64_t n = d->nkernels, few = n / 8;
	int64_t pre = lo ? d->gaps[lo - 1].busy : 0;
	uint32_t cut = d->ngaps;
	for (uint32_t i = lo; n >= 8 && i < d->ngaps; i++) {
		const gap *g = &d->gaps[i];
		if (n - g->kernels <= few && g->len > g->busy - pre && g->kernels > d->last_work) {
			cut = i;
			break;
		}
	}
	/* the first kernel after the layer work launched after the step's
	 * window closed */
	int64_t ts;
	for (uint32_t i = lo; d->win_from != INT64_MIN && i < cut; i++) {
		const gap *g = &d->gaps[i];
		if (g->kernels >= d->last_work && g->corr >= 0 && ts_idle_launch(d, g->corr, &ts) &&
		    ts > d->win_to) {
			cut = i;
			break;
		}
	}
	return cut;
}

/* Cut the kernels that are not the pass's off its ends (see idle.h): the
 * held gaps lo..hi-1 remain the pass's. */
static void trim(ts_idle *d, uint32_t *lo, uint32_t *hi)
{
	ts_idle_pass *p = &d->cur;
	*lo = 0;
	*hi = d->ngaps;
	if (d->gaps_full)
		return;
	int64_t h = head_cut(d);
	*lo = (uint32_t)(h + 1);
	*hi = tail_cut(d, *lo);
	if (*lo == 0 && *hi == d->ngaps)
		return;
	uint64_t n = d->nkernels;
	const gap *g0 = *lo ? &d->gaps[*lo - 1] : NULL;
	const gap *g1 = *hi < d->ngaps ? &d->gaps[*hi] : NULL;
	int64_t busy0 = g0 ? g0->busy : 0, busy1 = g1 ? g1->busy : p->busy_ns;
	p->comm_ns = (g1 ? g1->comm : p->comm_ns) - (g0 ? g0->comm : 0);
	p->compute_ns = (g1 ? g1->compute : p->compute_ns) - (g0 ? g0->compute : 0);
	uint64_t k0 = g0 ? g0->kernels : 0, k1 = g1 ? g1->kernels : n;
	p->stray_kernels += k0 + (n - k1);
	p->stray_ns = ts_sat_add(p->stray_ns, busy0 + (p->busy_ns - busy1));
	p->lead_ns = ts_sat_add(p->lead_ns, busy0);
	p->busy_ns = busy1 - busy0;
	if (g0) {
		d->first = g0->start + g0->len;
		d->first_corr = g0->corr;
		p->idle_from_ns = g0->start;
	}
	if (g1) {
		d->frontier = g1->start;
		d->frontier_corr = g1->after_corr;
	}
	/* the gaps that remain */
	p->gaps = *hi - *lo;
	p->idle_ns = 0;
	p->largest_ns = 0;
	p->largest_before = p->largest_after = p->largest_op = TS_INTERN_NONE;
	for (uint32_t i = *lo; i < *hi; i++) {
		const gap *g = &d->gaps[i];
		p->idle_ns = ts_sat_add(p->idle_ns, g->len);
		if (g->len > p->largest_ns) {
			p->largest_ns = g->len;
			p->largest_at = g->start;
			p->largest_before = g->before;
			p->largest_after = g->after;
			p->largest_op = g->op;
		}
	}
}

void ts_idle_window(ts_idle *d, int64_t from, int64_t to)
{
	d->win_from = from;
	d->win_to = to;
}

void ts_idle_end(ts_idle *d, ts_idle_pass *out)
{
	for (uint32_t i = 0; i < d->nwin; i++)
		step(d, &d->win[(d->head + i) % WINDOW]);
	d->nwin = 0;
	d->head = 0;
	ts_idle_pass *p = &d->cur;
	uint32_t lo = 0, hi = 0;
	int64_t ts;
	if (d->started) {
		trim(d, &lo, &hi);
		p->span_ns = d->frontier - d->first;
		p->start_ns = d->first;
		if (d->first_corr >= 0 && ts_idle_launch(d, d->first_corr, &ts))
			p->first_launch_ns = ts;
		if (d->frontier_corr >= 0 && ts_idle_launch(d, d->frontier_corr, &ts))
			p->last_launch_ns = ts;
	}
	for (uint32_t i = lo; i < hi; i++) {
		const gap *g = &d->gaps[i];
		bool is_late = false;
		if (g->corr >= 0 && ts_idle_launch(d, g->corr, &ts)) {
			p->launch_checked++;
			if (ts > g->start) {
				is_late = true;
				p->launch_gaps++;
				p->launch_ns = ts_sat_add(p->launch_ns, g->len);
			}
		}
		if (d->on_gap)
			d->on_gap(d->on_gap_ctx, g->start, g->len, is_late, g->after, g->before);
	}
	*out = *p;
	ts_idle_begin(d);
}

void ts_idle_sum(ts_idle_pass *dst, const ts_idle_pass *src)
{
	if (src->largest_ns > dst->largest_ns || (dst->gaps == 0 && dst->span_ns == 0)) {
		dst->largest_ns = src->largest_ns;
		dst->largest_at = src->largest_at;
		dst->largest_before = src->largest_before;
		dst->largest_after = src->largest_after;
		dst->largest_op = src->largest_op;
	}
	dst->span_ns = ts_sat_add(dst->span_ns, src->span_ns);
	dst->busy_ns = ts_sat_add(dst->busy_ns, src->busy_ns);
	dst->idle_ns = ts_sat_add(dst->idle_ns, src->idle_ns);
	dst->gaps += src->gaps;
	dst->launch_gaps += src->launch_gaps;
	dst->launch_ns = ts_sat_add(dst->launch_ns, src->launch_ns);
	dst->launch_checked += src->launch_checked;
	dst->stray_kernels += src->stray_kernels;
	dst->stray_ns = ts_sat_add(dst->stray_ns, src->stray_ns);
	dst->lead_ns = ts_sat_add(dst->lead_ns, src->lead_ns);
	dst->comm_ns = ts_sat_add(dst->comm_ns, src->comm_ns);
	dst->compute_ns = ts_sat_add(dst->compute_ns, src->compute_ns);
}

void ts_idle_on_gap(ts_idle *d, ts_idle_gap_fn fn, void *ctx)
{
	d->on_gap = fn;
	d->on_gap_ctx = ctx;
}
