/*
 * busy.c - GPU busy time: the length of the union of kernel intervals, in
 * fixed memory (a window of disjoint intervals sorted by start) (see
 * busy.h).
 */
#include "analysis/busy.h"
#include "input/base/satmath.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	int64_t s, e;
} interval;

struct ts_busy {
	interval *iv;         /* live intervals are iv[head .. head + n) */
	uint32_t cap, head, n, window;
	int64_t retired;      /* union length of retired intervals */
	int64_t frontier;     /* end of the last retired interval */
	int has_frontier;
	uint64_t late;
};

ts_busy *ts_busy_new(uint32_t window)
{
	ts_busy *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->window = window ? window : 1;
	b->cap = 2 * b->window + 1;
	b->iv = malloc(b->cap * sizeof *b->iv);
	if (!b->iv) {
		free(b);
		return NULL;
	}
	return b;
}

ts_busy *ts_busy_clone(const ts_busy *b)
{
	ts_busy *c = ts_busy_new(b->window);
	if (!c)
		return NULL;
	memcpy(c->iv, b->iv + b->head, b->n * sizeof *b->iv);
	c->n = b->n;
	c->retired = b->retired;
	c->frontier = b->frontier;
	c->has_frontier = b->has_frontier;
	c->late = b->late;
	return c;
}

void ts_busy_free(ts_busy *b)
{
	if (!b)
		return;
	free(b->iv);
	free(b);
}

/* Index (absolute) of the first live interval whose start is > s. */
static uint32_t upper_bound(const ts_busy *b, int64_t s)
{
	uint32_t lo = b->head, hi = b->head + b->n;
	if (b->n == 0 || b->iv[hi - 1].s <= s)
		return hi;              /* the common, in-order case */
	/* nearly in order: a few back from the end (kernels of another
	 * stream written a little late) before a search of all */
	for (uint32_t k = 1; k < 8 && hi - k > lo; k++)
		if (b->iv[hi - k - 1].s <= s)
			return hi - k;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (b->iv[mid].s <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void retire_oldest(ts_busy *b)
{
	interval *o = &b->iv[b->head];
	b->retired += o->e - o->s;
	b->frontier = o->e;
	b->has_frontier = 1;
	b->head++;
	b->n--;
}

void ts_busy_add(ts_busy *b, int64_t s, int64_t e)
{
	if (e <= s)
		return;
	if (b->has_frontier && s < b->frontier) {
		b->late++;
		if (e <= b->frontier)
			return;
		s = b->frontier;
	}
	uint32_t end = b->head + b->n;
	uint32_t pos = upper_bound(b, s);
	uint32_t at;                     /* the interval that now holds [s, e) */
	if (pos > b->head && b->iv[pos - 1].e >= s) {
		at = pos - 1;
		if (b->iv[at].e < e)
			b->iv[at].e = e;
	} else {
		if (end == b->cap) {         /* compact to make room at the end */
			memmove(b->iv, b->iv + b->head, b->n * sizeof *b->iv);
			pos -= b->head;
			end -= b->head;
			b->head = 0;
		}
		if (pos < end)               /* out of order: room in the middle */
			memmove(b->iv + pos + 1, b->iv + pos, (end - pos) * sizeof *b->iv);
		b->iv[pos] = (interval){ s, e };
		b->n++;
		end++;
		at = pos;
	}
	/* Absorb the following intervals that the grown one now reaches. */
	uint32_t j = at + 1;
	while (j < end && b->iv[j].s <= b->iv[at].e) {
		if (b->iv[j].e > b->iv[at].e)
			b->iv[at].e = b->iv[j].e;
		j++;
	}
	if (j > at + 1) {
		memmove(b->iv + at + 1, b->iv + j, (end - j) * sizeof *b->iv);
		b->n -= j - (at + 1);
	}
	if (b->n > b->window)
		retire_oldest(b);
}

int64_t ts_busy_total(const ts_busy *b)
{
	int64_t t = b->retired;
	for (uint32_t i = b->head; i < b->head + b->n; i++)
		t += b->iv[i].e - b->iv[i].s;
	return t;
}

uint64_t ts_busy_late(const ts_busy *b)
{
	return b->late;
}

void ts_busy_add_totals(ts_busy *b, int64_t busy_ns, uint64_t late)
{
	if (busy_ns > 0)
		b->retired = ts_sat_add(b->retired, busy_ns);
	b->late += late;
}
