/*
 * unit_memo.c - the unit finder's memory of its last pass (see unit_int.h):
 * a decode step, graph-replayed, launches the same kernels as the step
 * before, and its layers are found again without the search.
 *
 * The search reads the keys, the marks and, of the durations, only the
 * answers to its questions "is the kernel at i about as long as the one
 * at ref?". A pass with the same keys and marks whose durations give the
 * same answers, asked in the same order, takes the same path through the
 * search: its result is the memo's. Any answer that differs, and the
 * search runs. Only a search that found layers is kept (one that did not
 * may have run out of memory).
 */
#include "analysis/structure/unit_int.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/grow.h"

#define ASKS_MAX (1u << 20)      /* questions a memo keeps */

void ts_unit_asked(unit_asks *a, size_t i, size_t ref, bool said)
{
	if (a->over)
		return;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 1024;
		uint32_t *q = cap <= ASKS_MAX ? realloc(a->ask, 2 * cap * sizeof *q) : NULL;
		if (q)
			a->ask = q;
		uint8_t *s = q ? realloc(a->said, cap) : NULL;
		if (s)
			a->said = s;
		if (!q || !s || i > UINT32_MAX || ref > UINT32_MAX) {
			a->over = true;
			return;
		}
		a->cap = cap;
	}
	a->ask[2 * a->n] = (uint32_t)i;
	a->ask[2 * a->n + 1] = (uint32_t)ref;
	a->said[a->n++] = said;
}

int ts_unit_memo_find(ts_unit *u, const uint32_t *key, const uint8_t *mark, size_t n,
		      ts_unit_result *out)
{
	const unit_memo *m = &u->memo;
	if (!m->valid || m->n != n || m->names != (mark != NULL) || m->durs != (u->dur != NULL) ||
	    memcmp(m->key, key, n * sizeof *key) != 0 || (mark && memcmp(m->mark, mark, n) != 0))
		return -1;
	for (size_t q = 0; q < m->asks.n; q++)
		if (ts_unit_as_long(u, m->asks.ask[2 * q], m->asks.ask[2 * q + 1]) != m->asks.said[q])
			return -1;
	*out = m->out;
	return m->found;
}

void ts_unit_memo_begin(ts_unit *u)
{
	u->memo.valid = false;
	u->memo.asks.n = 0;
	u->memo.asks.over = false;
	u->asking = &u->memo.asks;
}

void ts_unit_memo_end(ts_unit *u, const uint32_t *key, const uint8_t *mark, size_t n, bool found,
		      const ts_unit_result *out)
{
	unit_memo *m = &u->memo;
	u->asking = NULL;
	if (!found || m->asks.over)
		return;
	ts_grow_part parts[] = { { (void **)&m->key, sizeof *m->key }, { (void **)&m->mark, 1 } };
	if (!ts_grow_each(parts, 2, &m->cap, n, 1024, SIZE_MAX, false))
		return;
	memcpy(m->key, key, n * sizeof *key);
	if (mark)
		memcpy(m->mark, mark, n);
	m->n = n;
	m->names = mark != NULL;
	m->durs = u->dur != NULL;
	m->found = found;
	m->out = *out;
	m->valid = true;
}

void ts_unit_memo_free(unit_memo *m)
{
	free(m->key);
	free(m->mark);
	free(m->asks.ask);
	free(m->asks.said);
}
