/* The unit finder's memo (unit_memo.c) against a fresh finder: a handle
 * that found the layers of a pass and is then given the same kernels with
 * other durations answers exactly as a handle that never saw the first
 * (random passes: a head, L layers of a block, a tail whose LM head runs
 * a layer's GEMM kernel, durations moved a little or a lot, with and
 * without marks). Some pairs must differ by their durations alone, or
 * the check proves nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/structure/unit.h"
#include "unit.h"

#define NMAX 4096

/* A result kept past the next call (its arrays are the finder's). */
typedef struct {
	bool found;
	ts_unit_result r;
	uint32_t start[NMAX], end[NMAX];
} kept;

static void keep(kept *k, bool found, const ts_unit_result *r)
{
	k->found = found;
	k->r = *r;
	if (found) {
		memcpy(k->start, r->start, r->n * sizeof *k->start);
		memcpy(k->end, r->end, r->n * sizeof *k->end);
		k->r.start = k->start;
		k->r.end = k->end;
	}
}

static bool same(const ts_unit_result *a, bool fa, const ts_unit_result *b, bool fb)
{
	if (fa != fb)
		return false;
	if (!fa)
		return true;
	if (a->n != b->n || a->cut_start != b->cut_start || a->cut_end != b->cut_end ||
	    a->by_names != b->by_names || a->period != b->period || a->anchors != b->anchors ||
	    a->worst != b->worst)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->start[i] != b->start[i] || a->end[i] != b->end[i])
			return false;
	return true;
}

int main(void)
{
	unsigned long long seed = 0x9e3779b97f4a7c15ull;
	static uint32_t key[NMAX];
	static uint8_t mark[NMAX];
	static int64_t d1[NMAX], d2[NMAX];
	int bad = 0, trials = 0, sensitive = 0, found = 0;
	for (int t = 0; t < 3000; t++) {
		size_t n = 0;
		uint32_t block = 5 + (uint32_t)(unit_rand(&seed) % 8);
		uint32_t layers = 2 + (uint32_t)(unit_rand(&seed) % 30);
		bool marks = unit_rand(&seed) % 2;
		key[n++] = 900;
		key[n++] = 901;
		for (uint32_t l = 0; l < layers; l++)
			for (uint32_t b = 0; b < block; b++)
				key[n++] = 10 + b;
		key[n++] = 10;            /* the final norm: the layer's first kernel */
		key[n++] = 12;            /* the LM head on the layer's GEMM */
		key[n++] = 902;
		for (size_t i = 0; i < n; i++) {
			mark[i] = 0;
			if (marks && key[i] == 10)
				mark[i] = TS_UNIT_NORM;
			if (marks && (key[i] == 12 || key[i] == 14))
				mark[i] = TS_UNIT_GEMM;
			if (marks && key[i] == 13)
				mark[i] = TS_UNIT_ATTN;
			d1[i] = 2000 + (int64_t)(unit_rand(&seed) % 20000);
			d2[i] = d1[i];
			unsigned r = (unsigned)(unit_rand(&seed) % 100);
			if (r < 3)
				d2[i] = d1[i] * 40;      /* a lot longer */
			else if (r < 6)
				d2[i] = 1 + d1[i] / 40;  /* a lot shorter */
			else if (r < 30)
				d2[i] = d1[i] + (int64_t)(unit_rand(&seed) % 3000);
		}
		if (unit_rand(&seed) % 2)
			d1[n - 2] = 60 * d1[n - 2];  /* the LM head: the vocabulary */
		const uint8_t *mk = marks ? mark : NULL;
		ts_unit *a = ts_unit_new(), *b = ts_unit_new(), *c = ts_unit_new();
		static kept a1, a2, a3, kb, kc;
		ts_unit_result r;
		keep(&a1, ts_unit_find(a, key, mk, d1, n, &r), &r);
		keep(&a2, ts_unit_find(a, key, mk, d2, n, &r), &r);
		keep(&kb, ts_unit_find(b, key, mk, d2, n, &r), &r);
		keep(&kc, ts_unit_find(c, key, mk, d1, n, &r), &r);
		/* a again on d1: the memo (now of d2) must agree too */
		keep(&a3, ts_unit_find(a, key, mk, d1, n, &r), &r);
		bad += !same(&a2.r, a2.found, &kb.r, kb.found);
		bad += !same(&a3.r, a3.found, &kc.r, kc.found);
		bad += !same(&a1.r, a1.found, &kc.r, kc.found);
		sensitive += !same(&kb.r, kb.found, &kc.r, kc.found);
		found += kb.found;
		trials++;
		ts_unit_free(a);
		ts_unit_free(b);
		ts_unit_free(c);
	}
	CHECK(bad == 0, "the same kernels again, other durations: %d of %d passes differ from a fresh finder",
	      bad, trials);
	CHECK(sensitive > 0 && found > trials / 2,
	      "%d of %d passes change with their durations alone (%d with layers found)", sensitive,
	      trials, found);
	return unit_failed != 0;
}
