/*
 * drafts.c - a draft's forwards from the cycle of layer counts (see
 * drafts.h).
 */
#include "analysis/structure/drafts.h"

/* The runs of count x in counts (zeros skipped): how many, the shortest
 * and the longest of the inner ones (neither first nor last in the
 * sequence), and the longest of all. */
typedef struct {
	size_t runs, inner, inner_min, inner_max, longest;
} runs_of;

static runs_of runs(const uint32_t *c, size_t n, uint32_t x)
{
	runs_of r = { 0, 0, SIZE_MAX, 0, 0 };
	size_t i = 0;
	while (i < n && !c[i])
		i++;
	size_t first = i, last = n;
	while (last > first && !c[last - 1])
		last--;
	while (i < last) {
		if (c[i] != x) {
			i++;
			continue;
		}
		size_t s = i, len = 0;
		while (i < last && (c[i] == x || !c[i]))
			len += c[i++] == x;
		r.runs++;
		r.longest = len > r.longest ? len : r.longest;
		bool inner = s > first && i < last;
		if (inner) {
			r.inner++;
			r.inner_min = len < r.inner_min ? len : r.inner_min;
			r.inner_max = len > r.inner_max ? len : r.inner_max;
		}
	}
	return r;
}

bool ts_drafts_cycle(const uint32_t *counts, size_t n, uint32_t *target, uint32_t *draft)
{
	uint32_t a = 0, b = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t x = counts[i];
		if (!x || x == a || x == b)
			continue;
		if (!a)
			a = x;
		else if (!b)
			b = x;
		else
			return false;    /* three counts: no cycle of two */
	}
	if (!a || !b)
		return false;
	runs_of ra = runs(counts, n, a), rb = runs(counts, n, b);
	/* a target's run at the sequence's edge may hold two: a prompt's
	 * forward beside a verify (a new request's prefill has no drafts) */
	bool alone_a = ra.longest == 1 || (ra.inner && ra.inner_max == 1 && ra.longest == 2);
	bool alone_b = rb.longest == 1 || (rb.inner && rb.inner_max == 1 && rb.longest == 2);
	if (alone_a && alone_b) {
		/* one of each, alternating (a draft's one forward a step, or
		 * its k in one graph): the deeper verifies */
		if (ra.runs + rb.runs < 4)
			return false;
		*target = a > b ? a : b;
		*draft = a > b ? b : a;
		return true;
	}
	if (alone_a == alone_b)
		return false;
	runs_of rt = alone_a ? ra : rb, rd = alone_a ? rb : ra;
	if (rt.runs < 2 || rd.longest < 2)
		return false;
	/* the draft's inner runs of one length: k tokens proposed a step */
	if (rd.inner_max && (rd.inner_min != rd.inner_max || rd.longest > rd.inner_max))
		return false;
	*target = alone_a ? a : b;
	*draft = alone_a ? b : a;
	/* a draft deeper than its target is rare: two whole cycles say so
	 * (a pass misread twice among the model's is no target) */
	return *target > *draft || rd.inner >= 2;
}
