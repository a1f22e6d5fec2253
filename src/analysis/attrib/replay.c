/*
 * replay.c - --capture: graph replays held until complete and matched to a
 * captured graph by size and kernel sequence, or refused with the reason
 * (see replay.h).
 */
#include "analysis/attrib/replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/hash.h"
#include "input/base/intern.h"
#include "input/base/satmath.h"

#define NONE UINT32_MAX
#define STREAMS 64

/* A kernel waiting, with the event fields the stages after us read. */
typedef struct {
	int64_t ts, dur, pid, tid, device, stream, correlation, external_id, id, bytes;
	int64_t in_nelems, out_nelems;   /* a collective's message (TS_HAS_MSG) */
	int32_t group_size;
	int32_t grid[3], block[3];
	uint8_t elem_size;
	uint32_t has;
	uint32_t row;
	uint32_t group;          /* its replay (or launch-to-come), NONE */
	uint32_t node;           /* the captured node it replays, NONE */
	uint64_t khash;          /* hash of its name */
	char *name;
	size_t name_len;
} held;

enum { G_WAIT, G_LAUNCH, G_GRAPH };

/* The kernels of one correlation while some wait. */
typedef struct {
	int64_t corr;
	int64_t size;
	uint32_t n;              /* kernels seen */
	uint32_t pending;        /* of them, still held */
	uint8_t kind;
	bool ended, decided, live;
	long graph;              /* the captured graph taken, -1 none */
} group;

typedef struct {
	int64_t device, stream;
	uint32_t last;           /* the group of its latest kernel, NONE */
	bool used;
} stream_state;

struct ts_replay {
	const ts_capmap *map;
	held *q;                 /* ring of TS_REPLAY_HOLD */
	size_t head, n;
	group *pool;
	uint32_t *free_ids;
	size_t nfree, pool_cap;
	uint32_t *slots;         /* open addressing: corr -> pool id */
	size_t slots_cap;
	stream_state st[STREAMS];
	ts_replay_row *rows;
	size_t nrows;
	char *name_out;          /* the name of the kernel handed out last */
	ts_replay_totals t;
};

#define POOL (2 * TS_REPLAY_HOLD)

ts_replay *ts_replay_new(const ts_capmap *map)
{
	ts_replay *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->map = map;
	r->rows = calloc(TS_REPLAY_ROWS, sizeof *r->rows);
	if (!r->rows) {
		free(r);
		return NULL;
	}
	return r;
}

/* What holding kernels takes, made when the first one comes (a result that
 * only merges saved partials never needs it). */
static bool armed(ts_replay *r)
{
	if (r->q)
		return true;
	held *q = malloc(TS_REPLAY_HOLD * sizeof *q);
	r->pool = malloc(POOL * sizeof *r->pool);
	r->free_ids = malloc(POOL * sizeof *r->free_ids);
	r->slots_cap = 2 * POOL;
	r->slots = malloc(r->slots_cap * sizeof *r->slots);
	if (!q || !r->pool || !r->free_ids || !r->slots) {
		free(q);
		free(r->pool);
		free(r->free_ids);
		free(r->slots);
		r->pool = NULL;
		r->free_ids = NULL;
		r->slots = NULL;
		return false;
	}
	for (size_t i = 0; i < r->slots_cap; i++)
		r->slots[i] = NONE;
	for (size_t i = 0; i < POOL; i++)
		r->free_ids[i] = (uint32_t)(POOL - 1 - i);
	r->nfree = POOL;
	r->pool_cap = POOL;
	r->q = q;
	return true;
}

void ts_replay_free(ts_replay *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->q && i < r->n; i++)
		free(r->q[(r->head + i) % TS_REPLAY_HOLD].name);
	free(r->q);
	free(r->pool);
	free(r->free_ids);
	free(r->slots);
	free(r->rows);
	free(r->name_out);
	free(r);
}

/* ------------------------------------------------------------- groups */

static size_t slot_of(const ts_replay *r, int64_t corr)
{
	uint64_t h = ts_hash_fib((uint64_t)corr);
	return (size_t)(h >> 17) & (r->slots_cap - 1);
}

static uint32_t group_find(const ts_replay *r, int64_t corr)
{
	for (size_t i = slot_of(r, corr);; i = (i + 1) & (r->slots_cap - 1)) {
		uint32_t g = r->slots[i];
		if (g == NONE)
			return NONE;
		if (r->pool[g].corr == corr)
			return g;
	}
}

/* Forget a group: backward-shift deletion keeps probe chains whole. */
static void group_drop(ts_replay *r, uint32_t id)
{
	size_t i = slot_of(r, r->pool[id].corr);
	while (r->slots[i] != id)
		i = (i + 1) & (r->slots_cap - 1);
	size_t j = i;
	for (;;) {
		j = (j + 1) & (r->slots_cap - 1);
		if (r->slots[j] == NONE)
			break;
		size_t k = slot_of(r, r->pool[r->slots[j]].corr);
		/* move j back to i when its home is not in (i, j] */
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			r->slots[i] = r->slots[j];
			i = j;
		}
	}
	r->slots[i] = NONE;
	for (int s = 0; s < STREAMS; s++)
		if (r->st[s].used && r->st[s].last == id)
			r->st[s].last = NONE;
	r->pool[id].live = false;
	r->free_ids[r->nfree++] = id;
}

/* Launch notes whose kernels never came make room. */
static void sweep(ts_replay *r)
{
	for (uint32_t id = 0; id < r->pool_cap; id++)
		if (r->pool[id].live && r->pool[id].pending == 0)
			group_drop(r, id);
}

static uint32_t group_make(ts_replay *r, int64_t corr, uint8_t kind)
{
	if (!r->nfree)
		sweep(r);
	if (!r->nfree)
		return NONE;
	uint32_t id = r->free_ids[--r->nfree];
	r->pool[id] = (group){ .corr = corr, .size = -1, .kind = kind, .live = true,
			       .graph = -1 };
	size_t i = slot_of(r, corr);
	while (r->slots[i] != NONE)
		i = (i + 1) & (r->slots_cap - 1);
	r->slots[i] = id;
	return id;
}

/* ---------------------------------------------------------- candidates */

/*
 * The captured sizes a replay of this size is held against, in order: its
 * own when it was captured; else the smallest captured size above it (a
 * framework pads a batch up to the next size it captured: vLLM's
 * execute_<tokens> annotation counts the tokens before padding), then the
 * largest below. One -1: any size (the replay's size is unknown, or no
 * captured graph has one). Returns how many.
 */
static int sizes_for(const ts_capmap *m, int64_t size, int64_t out[2])
{
	int64_t above = -1, below = -1;
	for (size_t i = 0; size >= 0 && i < ts_capmap_ngraphs(m); i++) {
		int64_t s = ts_capmap_graph(m, i)->size;
		if (s < 0)
			continue;
		if (s == size) {
			out[0] = s;
			return 1;
		}
		if (s > size && (above < 0 || s < above))
			above = s;
		if (s < size && s > below)
			below = s;
	}
	int n = 0;
	if (above >= 0)
		out[n++] = above;
	if (below >= 0)
		out[n++] = below;
	if (!n)
		out[n++] = -1;
	return n;
}

static bool candidate(const ts_capgraph *g, int64_t used)
{
	return used < 0 || g->size == used || g->size < 0;
}

/* ------------------------------------------------------------ deciding */

static void cut_name(char *dst, size_t cap, const char *s, size_t len)
{
	size_t n = len < cap - 1 ? len : cap - 1;
	for (size_t i = 0; i < n; i++)
		dst[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	dst[n] = '\0';
	if (len > n && n > 3)
		memcpy(dst + n - 3, "...", 3);
}

/* The row of a kind of replay: its size, kernel count and sequence are the
 * whole input of its decision, so a kind seen before is decided alike. */
static ts_replay_row *row_for(ts_replay *r, int64_t size, uint32_t n, uint64_t seq)
{
	for (size_t i = 0; i < r->nrows; i++) {
		ts_replay_row *w = &r->rows[i];
		if (w->size == size && w->nkernels == n && w->seq == seq)
			return w;
	}
	if (r->nrows == TS_REPLAY_ROWS)
		return NULL;
	ts_replay_row *w = &r->rows[r->nrows++];
	memset(w, 0, sizeof *w);
	w->size = size;
	w->matched_size = -1;
	w->nkernels = n;
	w->seq = seq;
	w->graph = -1;
	return w;
}

/* The kernels of group id, in order (all still held: none goes on before
 * its replay is decided). */
static size_t kernels_of(ts_replay *r, uint32_t id, held **out, size_t cap)
{
	size_t k = 0;
	for (size_t i = 0; i < r->n && k < cap; i++) {
		held *h = &r->q[(r->head + i) % TS_REPLAY_HOLD];
		if (h->group == id)
			out[k++] = h;
	}
	return k;
}

/* Why no graph of the size fits: the kernel counts there are, or the first
 * kernel that differs in the graph that agreed longest. */
static void refuse(ts_replay *r, char *buf, size_t cap, held *const *k, size_t n,
		   int64_t used, long best, size_t at)
{
	const ts_capmap *m = r->map;
	char sz[40];
	if (used >= 0)
		snprintf(sz, sizeof sz, "of size %lld", (long long)used);
	else
		snprintf(sz, sizeof sz, "of any size");
	if (best < 0) {
		/* the distinct node counts, ascending, a few */
		uint32_t cnt[6];
		size_t nc = 0;
		bool more = false;
		for (size_t i = 0; i < ts_capmap_ngraphs(m); i++) {
			const ts_capgraph *g = ts_capmap_graph(m, i);
			if (!candidate(g, used))
				continue;
			size_t j = 0;
			while (j < nc && cnt[j] != g->nnodes)
				j++;
			if (j < nc)
				continue;
			if (nc == 6) {
				more = true;
				continue;
			}
			cnt[nc++] = g->nnodes;
		}
		for (size_t i = 1; i < nc; i++)
			for (size_t j = i; j > 0 && cnt[j - 1] > cnt[j]; j--) {
				uint32_t x = cnt[j];
				cnt[j] = cnt[j - 1];
				cnt[j - 1] = x;
			}
		char list[80] = "";
		size_t o = 0;
		for (size_t i = 0; i < nc && o < sizeof list; i++)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%u", i ? ", " : "", cnt[i]);
		if (more && o < sizeof list)
			snprintf(list + o, sizeof list - o, ", ...");
		if (nc)
			snprintf(buf, cap, "%zu kernels replayed; the captured graphs %s have %s", n, sz,
				 list);
		else
			snprintf(buf, cap, "no graph %s was captured", sz);
		return;
	}
	const ts_capgraph *g = ts_capmap_graph(m, (size_t)best);
	const ts_capnode *nd = ts_capmap_node(m, g->node0 + at);
	const held *h = k[at];
	char got[72], want[72];
	cut_name(got, sizeof got, h->name, h->name_len);
	size_t wl = 0;
	const char *ws = ts_capmap_str(m, nd->kname, &wl);
	if (nd->khash && h->khash != nd->khash) {
		cut_name(want, sizeof want, ws ? ws : "?", ws ? wl : 1);
		snprintf(buf, cap, "kernel %zu of %zu differs: replayed %s, captured %s", at + 1, n,
			 got, want);
	} else {
		snprintf(buf, cap, "kernel %zu of %zu (%s) has grid %d,%d,%d; captured %d,%d,%d",
			 at + 1, n, got, h->grid[0], h->grid[1], h->grid[2], nd->grid[0],
			 nd->grid[1], nd->grid[2]);
	}
}

/*
 * A graph whose nodes all name their kernel (HIP) also fits a replay of the
 * same kernels in another order: the kernels of a graph on several streams
 * finish interleaved. Each kernel takes a node of its name and grid, the
 * i-th kernel of a name and grid the i-th such node. perm[i]: kernel i's
 * node in the graph. false: the names and grids are not the same.
 */
typedef struct {
	uint64_t h;
	int32_t g[3];
	uint32_t i;
} keyed;

static int cmp_keyed(const void *pa, const void *pb)
{
	const keyed *a = pa, *b = pb;
	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	int c = memcmp(a->g, b->g, sizeof a->g);
	if (c)
		return c;
	return a->i < b->i ? -1 : a->i > b->i;
}

static bool pair_unordered(const ts_capmap *m, const ts_capgraph *c, held *const *k, size_t n,
			   uint32_t *perm)
{
	/* not the same names (their hashes' sum differs): no pairing, and
	 * nothing to sort; most graphs scanned for a replay end here */
	uint64_t sum_nodes = 0, sum_kernels = 0;
	for (size_t i = 0; i < n && c->nnodes == n; i++) {
		sum_nodes += ts_capmap_node(m, c->node0 + i)->khash;
		sum_kernels += k[i]->khash;
	}
	if (c->nnodes != n || sum_nodes != sum_kernels)
		return false;
	keyed *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
	bool ok = a && b && c->nnodes == n;
	for (size_t i = 0; ok && i < n; i++) {
		const ts_capnode *nd = ts_capmap_node(m, c->node0 + i);
		ok = nd->khash != 0;
		b[i] = (keyed){ nd->khash, { 0, 0, 0 }, (uint32_t)i };
		if (nd->grid[0] > 0)
			memcpy(b[i].g, nd->grid, sizeof b[i].g);
		a[i] = (keyed){ k[i]->khash, { 0, 0, 0 }, (uint32_t)i };
		if ((k[i]->has & TS_HAS_GRID) && k[i]->grid[0] > 0 && nd->grid[0] > 0)
			memcpy(a[i].g, k[i]->grid, sizeof a[i].g);
	}
	if (ok) {
		qsort(a, n, sizeof *a, cmp_keyed);
		qsort(b, n, sizeof *b, cmp_keyed);
	}
	for (size_t i = 0; ok && i < n; i++) {
		ok = a[i].h == b[i].h && memcmp(a[i].g, b[i].g, sizeof a[i].g) == 0;
		perm[a[i].i] = b[i].i;
	}
	free(a);
	free(b);
	return ok;
}

/* What the captured graphs of one size make of a replay's kernels. */
typedef struct {
	long first;              /* the first graph that fits, -1 none */
	bool reordered;          /* it fits with the kernels in another order */
	size_t fits;
	bool agree;              /* every graph that fits attributes alike */
	long best;               /* of those that do not, the one that agreed longest */
	size_t best_at;          /* where it differs */
} fit;

/* Graphs that fit in launch order are preferred: those that fit only with
 * the kernels paired out of order count when no graph fits in order. */
static void add_fit(fit *f, const ts_capmap *m, size_t i, bool reordered)
{
	if (f->first < 0) {
		f->first = (long)i;
		f->reordered = reordered;
	} else if (ts_capmap_graph(m, (size_t)f->first)->attr != ts_capmap_graph(m, i)->attr) {
		f->agree = false;
	}
	f->fits++;
}

static fit scan(const ts_capmap *m, held *const *k, size_t n, int64_t used, uint32_t *scratch)
{
	fit f = { -1, false, 0, true, -1, 0 }, out_of_order = f;
	for (size_t i = 0; i < ts_capmap_ngraphs(m); i++) {
		const ts_capgraph *c = ts_capmap_graph(m, i);
		if (!candidate(c, used) || c->nnodes != n)
			continue;
		size_t at = 0;
		for (; at < n; at++) {
			const ts_capnode *nd = ts_capmap_node(m, c->node0 + at);
			const held *h = k[at];
			if (nd->khash && h->khash != nd->khash)
				break;
			if (nd->grid[0] > 0 && (h->has & TS_HAS_GRID) && h->grid[0] > 0 &&
			    memcmp(nd->grid, h->grid, sizeof h->grid) != 0)
				break;
		}
		if (at == n) {
			add_fit(&f, m, i, false);
			continue;
		}
		if (!f.fits && pair_unordered(m, c, k, n, scratch)) {
			add_fit(&out_of_order, m, i, true);
			continue;
		}
		if (f.best < 0 || at > f.best_at) {
			f.best = (long)i;
			f.best_at = at;
		}
	}
	if (!f.fits && out_of_order.fits) {
		out_of_order.best = f.best;
		out_of_order.best_at = f.best_at;
		return out_of_order;
	}
	return f;
}

static void decide(ts_replay *r, uint32_t id, bool forced)
{
	group *g = &r->pool[id];
	const ts_capmap *m = r->map;
	g->decided = true;
	size_t n = g->pending;
	held **k = malloc((n ? n : 1) * sizeof *k);
	uint32_t *perm = malloc((n ? n : 1) * sizeof *perm);
	if (!k || !perm) {
		free(k);
		free(perm);
		return;   /* graph = -1: kept as graph kernels */
	}
	n = kernels_of(r, id, k, n);
	uint64_t seq = ts_hash_combine(0, n);
	int64_t ns = 0;
	for (size_t i = 0; i < n; i++) {
		seq = ts_hash_combine(seq, k[i]->khash);
		if ((k[i]->has & TS_HAS_GRID) && k[i]->grid[0] > 0)
			seq = ts_hash_combine(seq, (uint64_t)(uint32_t)k[i]->grid[0] << 32 ^
				       (uint64_t)(uint32_t)k[i]->grid[1] << 16 ^ (uint32_t)k[i]->grid[2]);
		ns = ts_sat_add(ns, k[i]->dur);
	}
	ts_replay_row *w = row_for(r, g->size, (uint32_t)n, seq);
	fit f = { -1, false, 0, true, -1, 0 };
	int64_t sizes[2], used;
	int nsizes = sizes_for(m, g->size, sizes);
	fit first = f;
	if (w && w->replays) {
		f.first = w->graph;
		f.fits = w->fits;
		f.reordered = w->reordered;
		used = w->matched_size;
	} else {
		/* the preferred size first; the next only when no graph of the
		 * first has these kernels */
		used = sizes[0];
		for (int c = 0; c < nsizes; c++) {
			f = scan(m, k, n, sizes[c], perm);
			if (c == 0)
				first = f;
			if (f.fits) {
				used = sizes[c];
				break;
			}
		}
		if (!f.fits)
			f = first;
	}
	r->t.replays++;
	r->t.kernels += n;
	r->t.ns = ts_sat_add(r->t.ns, ns);
	r->t.forced += forced;
	if (f.first >= 0 && f.agree) {
		const ts_capgraph *c = ts_capmap_graph(m, (size_t)f.first);
		if (!f.reordered || !pair_unordered(m, c, k, n, perm))
			for (size_t i = 0; i < n; i++)
				perm[i] = (uint32_t)i;
		for (size_t i = 0; i < n; i++)
			k[i]->node = c->node0 + perm[i];
		g->graph = f.first;
		r->t.matched++;
		r->t.kernels_matched += n;
		r->t.ns_matched = ts_sat_add(r->t.ns_matched, ns);
	} else {
		r->t.refused++;
	}
	free(perm);
	if (!w) {
		r->t.rows_dropped++;
		free(k);
		return;
	}
	if (!w->replays) {
		if (n)
			cut_name(w->first, sizeof w->first, k[0]->name, k[0]->name_len);
		w->graph = g->graph;
		w->fits = (uint32_t)f.fits;
		w->reordered = g->graph >= 0 && f.reordered;
		w->matched_size = used;
		if (g->graph < 0 && f.fits) {
			snprintf(w->reason, sizeof w->reason,
				 "%zu captured graphs fit, with different ops: none is taken", f.fits);
		} else if (g->graph < 0) {
			refuse(r, w->reason, sizeof w->reason, k, n, used, f.best, f.best_at);
			size_t len = strlen(w->reason);
			if (nsizes > 1 && len < sizeof w->reason)
				snprintf(w->reason + len, sizeof w->reason - len,
					 "; the size below, %lld, fits no better",
					 (long long)sizes[1]);
		}
	}
	w->replays++;
	w->kernels += n;
	w->ns = ts_sat_add(w->ns, ns);
	free(k);
}

/* ------------------------------------------------------------- feeding */

static stream_state *stream_of(ts_replay *r, int64_t device, int64_t stream)
{
	stream_state *free_slot = NULL;
	for (int i = 0; i < STREAMS; i++) {
		stream_state *s = &r->st[i];
		if (s->used && s->device == device && s->stream == stream)
			return s;
		if (!s->used && !free_slot)
			free_slot = s;
	}
	if (!free_slot)
		return NULL;
	*free_slot = (stream_state){ device, stream, NONE, true };
	return free_slot;
}

bool ts_replay_kernel(ts_replay *r, const ts_event *ev, uint32_t row, ts_link link)
{
	if (!armed(r) || r->n == TS_REPLAY_HOLD)
		return false;   /* the caller drains first; never reached */
	held h = {
		.ts = ev->ts_ns, .dur = ev->dur_ns, .pid = ev->pid, .tid = ev->tid,
		.device = ev->device, .stream = ev->stream, .correlation = ev->correlation,
		.external_id = ev->external_id, .id = ev->id, .bytes = ev->bytes,
		.in_nelems = ev->in_nelems, .out_nelems = ev->out_nelems,
		.group_size = ev->group_size, .elem_size = ev->elem_size,
		.has = ev->has, .row = row, .group = NONE, .node = NONE,
	};
	memcpy(h.grid, ev->grid, sizeof h.grid);
	memcpy(h.block, ev->block, sizeof h.block);
	h.name = malloc(ev->name_len ? ev->name_len : 1);
	if (!h.name)
		return false;
	memcpy(h.name, ev->name, ev->name_len);
	h.name_len = ev->name_len;
	h.khash = (ev->name_hash ? ev->name_hash : ts_hash_bytes(ev->name, ev->name_len)) | 1;
	if ((link == TS_LINK_GRAPH || link == TS_LINK_WAIT) && (ev->has & TS_HAS_CORRELATION)) {
		uint32_t id = group_find(r, ev->correlation);
		if (id == NONE)
			id = group_make(r, ev->correlation, link == TS_LINK_GRAPH ? G_GRAPH : G_WAIT);
		if (id != NONE) {
			group *g = &r->pool[id];
			if (g->decided) {
				r->t.late++;
			} else {
				if (link == TS_LINK_GRAPH)
					g->kind = G_GRAPH;
				g->n++;
			}
			g->pending++;
			h.group = id;
		}
	}
	/* another correlation on this stream: the replay before it is over */
	int64_t dev = ev->has & TS_HAS_DEVICE ? ev->device : -1;
	int64_t str = ev->has & TS_HAS_STREAM ? ev->stream : -1;
	stream_state *s = stream_of(r, dev, str);
	if (s) {
		if (s->last != NONE && s->last != h.group)
			r->pool[s->last].ended = true;
		s->last = h.group;
	}
	r->q[(r->head + r->n) % TS_REPLAY_HOLD] = h;
	r->n++;
	if (r->n > r->t.held_max)
		r->t.held_max = r->n;
	return true;
}

void ts_replay_launch(ts_replay *r, int64_t corr, bool graph, int64_t size)
{
	if (!armed(r))
		return;
	uint32_t id = group_find(r, corr);
	if (id == NONE) {
		if (!graph)
			return;
		id = group_make(r, corr, G_GRAPH);
		if (id == NONE)
			return;
	}
	group *g = &r->pool[id];
	if (g->decided)
		return;
	g->kind = graph ? G_GRAPH : G_LAUNCH;
	g->size = size;
}

bool ts_replay_next(ts_replay *r, bool flush, ts_event *ev, uint32_t *row, size_t *node)
{
	if (!r->n)
		return false;
	held *h = &r->q[r->head];
	bool must = flush || r->n == TS_REPLAY_HOLD;
	*node = SIZE_MAX;
	if (h->group != NONE) {
		group *g = &r->pool[h->group];
		if (g->kind == G_WAIT && !must)
			return false;
		if (g->kind == G_GRAPH && !g->decided) {
			if (!g->ended && !must)
				return false;
			decide(r, h->group, !g->ended && !flush);
		}
		if (g->kind == G_GRAPH && g->graph >= 0 && h->node != NONE)
			*node = h->node;
		if (--g->pending == 0 && (g->decided || g->kind != G_GRAPH))
			group_drop(r, h->group);
	}
	free(r->name_out);
	r->name_out = h->name;
	ev->cat = TS_CAT_KERNEL;
	ev->ph = 'X';
	ev->has = h->has & ~(uint32_t)TS_HAS_MEM;   /* a kernel has no allocator args */
	ev->name = h->name;
	ev->name_len = h->name_len;
	ev->name_hash = 0;      /* khash is the hash | 1, not the hash */
	ev->kname = NULL;
	ev->kname_len = 0;
	ev->ts_ns = h->ts;
	ev->dur_ns = h->dur;
	ev->pid = h->pid;
	ev->tid = h->tid;
	ev->id = h->id;
	ev->device = h->device;
	ev->stream = h->stream;
	ev->correlation = h->correlation;
	ev->external_id = h->external_id;
	ev->bytes = h->bytes;
	ev->in_nelems = h->in_nelems;
	ev->out_nelems = h->out_nelems;
	ev->group_size = h->group_size;
	ev->elem_size = h->elem_size;
	ev->mem = (ts_mem_args){ -1, -1, 0, -1, -1, -1 };
	memcpy(ev->grid, h->grid, sizeof h->grid);
	memcpy(ev->block, h->block, sizeof h->block);
	ev->noperands = 0;
	ev->ntypes = 0;
	ev->nconcrete = 0;
	*row = h->row;
	r->head = (r->head + 1) % TS_REPLAY_HOLD;
	r->n--;
	return true;
}

const ts_replay_totals *ts_replay_get_totals(const ts_replay *r)
{
	return &r->t;
}

size_t ts_replay_nrows(const ts_replay *r)
{
	return r->nrows;
}

const ts_replay_row *ts_replay_row_at(const ts_replay *r, size_t i)
{
	return &r->rows[i];
}

const ts_capmap *ts_replay_map(const ts_replay *r)
{
	return r->map;
}

/* ------------------------------------------------------- saved partials */

void ts_replay_save(const ts_replay *r, ts_wbuf *w)
{
	const ts_replay_totals *t = &r->t;
	ts_w_u64(w, t->replays);
	ts_w_u64(w, t->matched);
	ts_w_u64(w, t->refused);
	ts_w_u64(w, t->kernels);
	ts_w_u64(w, t->kernels_matched);
	ts_w_i64(w, t->ns);
	ts_w_i64(w, t->ns_matched);
	ts_w_u64(w, t->late);
	ts_w_u64(w, t->forced);
	ts_w_u64(w, t->held_max);
	ts_w_u64(w, t->rows_dropped);
	ts_w_u64(w, r->nrows);
	for (size_t i = 0; i < r->nrows; i++) {
		const ts_replay_row *x = &r->rows[i];
		ts_w_i64(w, x->size);
		ts_w_i64(w, x->matched_size);
		ts_w_u32(w, x->nkernels);
		ts_w_u64(w, x->seq);
		ts_w_u64(w, x->replays);
		ts_w_u64(w, x->kernels);
		ts_w_i64(w, x->ns);
		ts_w_i64(w, x->graph);
		ts_w_u32(w, x->fits);
		ts_w_u8(w, x->reordered);
		ts_w_str(w, x->first, strlen(x->first));
		ts_w_str(w, x->reason, x->graph >= 0 ? 0 : strlen(x->reason));
	}
}

ts_status ts_replay_merge(ts_replay *r, ts_rbuf *rb, const long *gmap, size_t ngmap)
{
	ts_replay_totals t = { 0 };
	t.replays = ts_r_u64(rb);
	t.matched = ts_r_u64(rb);
	t.refused = ts_r_u64(rb);
	t.kernels = ts_r_u64(rb);
	t.kernels_matched = ts_r_u64(rb);
	t.ns = ts_r_i64(rb);
	t.ns_matched = ts_r_i64(rb);
	t.late = ts_r_u64(rb);
	t.forced = ts_r_u64(rb);
	t.held_max = ts_r_u64(rb);
	t.rows_dropped = ts_r_u64(rb);
	if (!rb->err && (t.matched > t.replays || t.refused > t.replays || t.ns < 0 ||
			 t.ns_matched < 0 || t.kernels_matched > t.kernels))
		ts_r_fail(rb, "replay totals that do not add up");
	uint64_t n = ts_r_count(rb, 8 + 8 + 4 + 8 + 8 + 8 + 8 + 8 + 4 + 1 + 4 + 4);
	/* read whole before adding: a partial is never half merged */
	ts_replay_row *in = calloc(n ? n : 1, sizeof *in);
	if (!in)
		return TS_ERR_NOMEM;
	for (uint64_t i = 0; i < n && !rb->err; i++) {
		ts_replay_row *x = &in[i];
		size_t len;
		x->size = ts_r_i64(rb);
		x->matched_size = ts_r_i64(rb);
		x->nkernels = ts_r_u32(rb);
		x->seq = ts_r_u64(rb);
		x->replays = ts_r_u64(rb);
		x->kernels = ts_r_u64(rb);
		x->ns = ts_r_i64(rb);
		int64_t g = ts_r_i64(rb);
		x->fits = ts_r_u32(rb);
		uint8_t ro = ts_r_u8(rb);
		const char *s = ts_r_str(rb, &len);
		cut_name(x->first, sizeof x->first, s, len);
		s = ts_r_str(rb, &len);
		cut_name(x->reason, sizeof x->reason, s, len);
		if (rb->err)
			break;
		if (g < -1 || (g >= 0 && (uint64_t)g >= ngmap) || x->ns < 0 || x->size < -1 ||
		    x->matched_size < -1 || ro > 1 || (ro && g < 0)) {
			ts_r_fail(rb, "a kind of replay out of range");
			break;
		}
		x->graph = g < 0 ? -1 : gmap[g];
		x->reordered = ro && x->graph >= 0;
		if (g >= 0 && x->graph < 0)
			snprintf(x->reason, sizeof x->reason,
				 "its captured graph was left out of the merged captures (past their limits)");
	}
	if (rb->err) {
		free(in);
		return TS_ERR_PARTIAL;
	}
	r->t.replays = ts_sat_addu(r->t.replays, t.replays);
	r->t.matched = ts_sat_addu(r->t.matched, t.matched);
	r->t.refused = ts_sat_addu(r->t.refused, t.refused);
	r->t.kernels = ts_sat_addu(r->t.kernels, t.kernels);
	r->t.kernels_matched = ts_sat_addu(r->t.kernels_matched, t.kernels_matched);
	r->t.ns = ts_sat_add(r->t.ns, t.ns);
	r->t.ns_matched = ts_sat_add(r->t.ns_matched, t.ns_matched);
	r->t.late = ts_sat_addu(r->t.late, t.late);
	r->t.forced = ts_sat_addu(r->t.forced, t.forced);
	if (t.held_max > r->t.held_max)
		r->t.held_max = t.held_max;
	r->t.rows_dropped = ts_sat_addu(r->t.rows_dropped, t.rows_dropped);
	for (uint64_t i = 0; i < n; i++) {
		const ts_replay_row *x = &in[i];
		ts_replay_row *w = NULL;
		/* the same kind decided the same way */
		for (size_t j = 0; j < r->nrows && !w; j++) {
			ts_replay_row *y = &r->rows[j];
			if (y->size == x->size && y->matched_size == x->matched_size &&
			    y->nkernels == x->nkernels && y->seq == x->seq && y->graph == x->graph &&
			    y->reordered == x->reordered &&
			    (x->graph >= 0 || strcmp(y->reason, x->reason) == 0))
				w = y;
		}
		if (!w && r->nrows < TS_REPLAY_ROWS) {
			w = &r->rows[r->nrows++];
			*w = *x;
			w->replays = w->kernels = 0;
			w->ns = 0;
		}
		if (!w) {
			r->t.rows_dropped = ts_sat_addu(r->t.rows_dropped, x->replays);
			continue;
		}
		w->replays = ts_sat_addu(w->replays, x->replays);
		w->kernels = ts_sat_addu(w->kernels, x->kernels);
		w->ns = ts_sat_add(w->ns, x->ns);
		if (x->fits > w->fits)
			w->fits = x->fits;
	}
	free(in);
	return TS_OK;
}

void ts_replay_warnings(const ts_replay *r, ts_warns *w)
{
	const ts_replay_totals *rt = ts_replay_get_totals(r);
	const ts_capture_totals *ct = ts_capmap_totals(ts_replay_map(r));
	if (rt->refused)
		ts_warn(w, "%" PRIu64 " of %" PRIu64 " graph replays matched no captured graph and keep "
			"no op (the reasons: Graph replays)", rt->refused, rt->replays);
	if (rt->forced)
		ts_warn(w, "%" PRIu64 " graph replays were decided before they were complete: more "
			"than %d kernels waited", rt->forced, TS_REPLAY_HOLD);
	if (ct->unclosed || ct->overlapping)
		ts_warn(w, "--capture: %" PRIu64 " capture windows with no end and %" PRIu64 " begun "
			"while another thread's was open were left out", ct->unclosed, ct->overlapping);
	if (ct->nodes_dropped)
		ts_warn(w, "--capture: %" PRIu64 " kernel nodes past %u nodes or %u graphs (or out of "
			"memory) were left out, with their graphs", ct->nodes_dropped,
			TS_CAPTURE_MAX_NODES, TS_CAPTURE_MAX_GRAPHS);
}
