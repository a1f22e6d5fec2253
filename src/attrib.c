#include "attrib.h"

#include <stdlib.h>
#include <string.h>

#include "intern.h"

static const char *const bucket_names[TS_ATTR_COUNT] = {
	"op", "graph", "launch", "unlinked",
};

const char *ts_attr_bucket_name(ts_attr_bucket b)
{
	return (unsigned)b < TS_ATTR_COUNT ? bucket_names[b] : "unlinked";
}

/* One indexed cpu_op: 16 bytes. */
typedef struct {
	int64_t ext;
	uint32_t name;           /* op row; TS_INTERN_NONE past the cap */
	uint32_t m;              /* rows of operand 0 (M of a GEMM); bit 31: counted */
} op_ent;

#define M_COUNTED 0x80000000u
#define M_MASK 0x7fffffffu

/*
 * A small open-addressed table int64 -> int64 without deletion (a resolved
 * entry keeps its slot with val TS_GONE). Two generations make it a bounded
 * window: when the young one is full the old one is retired.
 */
#define TS_GONE INT64_MIN

typedef struct {
	int64_t *key;            /* key + 1; 0 empty */
	int64_t *val;
	uint32_t *cnt;           /* kernels summed in val (a graph replays many) */
	size_t cap, n;
} corr_table;

static bool ct_init(corr_table *t, size_t cap)
{
	t->cap = cap;
	t->n = 0;
	t->key = calloc(cap, sizeof *t->key);
	t->val = calloc(cap, sizeof *t->val);
	t->cnt = calloc(cap, sizeof *t->cnt);
	return t->key && t->val && t->cnt;
}

static void ct_free(corr_table *t)
{
	free(t->key);
	free(t->val);
	free(t->cnt);
}

static void ct_clear(corr_table *t)
{
	memset(t->key, 0, t->cap * sizeof *t->key);
	t->n = 0;
}

static size_t ct_slot(const corr_table *t, int64_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 20) & (t->cap - 1);
	while (t->key[i] && t->key[i] != key + 1)
		i = (i + 1) & (t->cap - 1);
	return i;
}

/* Slot of key, or SIZE_MAX. */
static size_t ct_find(const corr_table *t, int64_t key)
{
	size_t i = ct_slot(t, key);
	return t->key[i] ? i : SIZE_MAX;
}

/* Half full counts as full: probes stay short. */
static bool ct_full(const corr_table *t)
{
	return t->n >= t->cap / 2;
}

static void ct_put(corr_table *t, int64_t key, int64_t val)
{
	size_t i = ct_slot(t, key);
	if (!t->key[i]) {
		t->key[i] = key + 1;
		t->n++;
	}
	t->val[i] = val;
	t->cnt[i] = 1;
}

/* Add a waiting kernel: kernels replayed by one graph launch share its
 * correlation. */
static void ct_add(corr_table *t, int64_t key, int64_t dur)
{
	size_t i = ct_slot(t, key);
	if (!t->key[i] || t->val[i] == TS_GONE) {
		if (!t->key[i])
			t->n++;
		t->key[i] = key + 1;
		t->val[i] = 0;
		t->cnt[i] = 0;
	}
	t->val[i] += dur;
	t->cnt[i]++;
}

enum { RT_LAUNCH = 1, RT_GRAPH = 2 };

typedef struct {
	uint32_t cand, votes;    /* Boyer-Moore majority over kernels */
} parent_vote;

struct ts_attrib {
	size_t join_mem;
	op_ent *idx;
	size_t nidx, idx_cap;
	ts_intern *names;
	ts_op_row *rows;
	size_t rows_cap;
	parent_vote *parent;     /* per kernel row */
	size_t parent_cap;
	corr_table rt[2];        /* runtime correlation -> RT_*; [0] young */
	corr_table wait[2];      /* kernels waiting for their launch: dur */
	int64_t last_m;
	ts_attrib_totals t;
};

ts_attrib *ts_attrib_new(size_t join_mem)
{
	ts_attrib *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->join_mem = join_mem ? join_mem : TS_JOIN_MEM_DEFAULT;
	a->names = ts_intern_new(TS_ATTRIB_MAX_OPS, 4u << 20);
	bool ok = a->names != NULL;
	for (int g = 0; g < 2; g++) {
		ok &= ct_init(&a->rt[g], 2 * TS_ATTRIB_LOOKAHEAD);
		ok &= ct_init(&a->wait[g], 2 * TS_ATTRIB_LOOKAHEAD);
	}
	if (!ok) {
		ts_attrib_free(a);
		return NULL;
	}
	a->last_m = -1;
	return a;
}

void ts_attrib_free(ts_attrib *a)
{
	if (!a)
		return;
	for (int g = 0; g < 2; g++) {
		ct_free(&a->rt[g]);
		ct_free(&a->wait[g]);
	}
	free(a->idx);
	free(a->rows);
	free(a->parent);
	ts_intern_free(a->names);
	free(a);
}

/* ------------------------------------------------------------ cpu ops */

/* Rows of the first operand of rank 2 or more (a bias comes first in
 * aten::addmm): the product of all its dimensions but the last, the token
 * count M of a GEMM's activation. 0: unknown. */
static uint32_t rows_of(const ts_event *ev)
{
	if (!(ev->has & TS_HAS_DIMS))
		return 0;
	unsigned n = ev->noperands < TS_MAX_OPERANDS ? ev->noperands : TS_MAX_OPERANDS;
	for (unsigned op = 0; op < n; op++) {
		if (ev->rank[op] < 2)
			continue;
		uint64_t m = 1;
		for (unsigned i = 0; i + 1 < ev->rank[op]; i++) {
			int64_t d = ev->dims[op][i];
			if (d <= 0)
				return 0;
			m *= (uint64_t)d;
			if (m > M_MASK)
				return M_MASK;
		}
		return (uint32_t)m;
	}
	return 0;
}

static bool grow_rows(ts_attrib *a, size_t need)
{
	if (need <= a->rows_cap)
		return true;
	size_t cap = a->rows_cap ? a->rows_cap * 2 : 64;
	while (cap < need)
		cap *= 2;
	ts_op_row *r = realloc(a->rows, cap * sizeof *r);
	if (!r)
		return false;
	memset(r + a->rows_cap, 0, (cap - a->rows_cap) * sizeof *r);
	a->rows = r;
	a->rows_cap = cap;
	return true;
}

void ts_attrib_cpu_op(ts_attrib *a, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_EXTERNAL_ID))
		return;
	if (a->nidx == a->idx_cap) {
		size_t cap = a->idx_cap ? a->idx_cap * 2 : 4096;
		if (cap * sizeof *a->idx > a->join_mem)
			cap = a->join_mem / sizeof *a->idx;
		op_ent *p = cap > a->idx_cap ? realloc(a->idx, cap * sizeof *p) : NULL;
		if (!p) {
			a->t.ops_dropped++;
			return;
		}
		a->idx = p;
		a->idx_cap = cap;
		a->t.index_bytes = cap * sizeof *p;
	}
	uint32_t name;
	if (ts_intern_put(a->names, ev->name, ev->name_len, &name) != TS_OK ||
	    !grow_rows(a, (size_t)name + 1))
		name = TS_INTERN_NONE;
	op_ent e = { ev->external_id, name, rows_of(ev) };
	/* External ids count up in file order; an older one is inserted in
	 * place (a short move from the end). */
	size_t at = a->nidx;
	while (at > 0 && a->idx[at - 1].ext > e.ext)
		at--;
	if (at > 0 && a->idx[at - 1].ext == e.ext) {
		a->idx[at - 1] = e;
		return;
	}
	memmove(a->idx + at + 1, a->idx + at, (a->nidx - at) * sizeof *a->idx);
	a->idx[at] = e;
	a->nidx++;
	a->t.ops_indexed++;
}

static op_ent *find_op(ts_attrib *a, int64_t ext)
{
	size_t lo = 0, hi = a->nidx;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a->idx[mid].ext < ext)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->nidx && a->idx[lo].ext == ext ? &a->idx[lo] : NULL;
}

/* --------------------------------------------------------- runtime side */

static int runtime_kind(const char *s, size_t n)
{
	/* cudaGraphLaunch, hipGraphLaunch, cuGraphLaunch; cudaLaunchKernel(ExC),
	 * cuLaunchKernel, hipLaunchKernel, hipExtModuleLaunchKernel, ... One
	 * pass: "Graph" comes before the "Launch" it holds. */
	for (size_t i = 0; i + 6 <= n; i++) {
		if (s[i] == 'G' && i + 11 <= n && memcmp(s + i, "GraphLaunch", 11) == 0)
			return RT_GRAPH;
		if (s[i] == 'L' && memcmp(s + i, "Launch", 6) == 0)
			return RT_LAUNCH;
	}
	return 0;
}

static void bucket_n(ts_attrib *a, ts_attr_bucket b, uint64_t n, int64_t dur)
{
	a->t.kernels[b] += n;
	a->t.ns[b] += dur;
}

static void bucket(ts_attrib *a, ts_attr_bucket b, int64_t dur)
{
	bucket_n(a, b, 1, dur);
}

/* Any runtime call the kernel correlates with links it; a graph launch
 * says it was replayed. */
static void resolve(ts_attrib *a, int kind, uint64_t n, int64_t dur)
{
	bucket_n(a, kind == RT_GRAPH ? TS_ATTR_GRAPH : TS_ATTR_LAUNCH, n, dur);
}

/* Retire the old generation of waiting kernels: they never saw a launch. */
static void retire_wait(ts_attrib *a, corr_table *t)
{
	for (size_t i = 0; i < t->cap; i++)
		if (t->key[i] && t->val[i] != TS_GONE) {
			bucket_n(a, TS_ATTR_UNLINKED, t->cnt[i], t->val[i]);
			a->t.lookahead_overflow += t->cnt[i];
		}
	ct_clear(t);
}

void ts_attrib_runtime(ts_attrib *a, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_CORRELATION))
		return;
	int kind = runtime_kind(ev->name, ev->name_len);
	/* A kernel written before its launch (NVIDIA) is waiting for it. */
	for (int g = 0; g < 2; g++) {
		size_t i = ct_find(&a->wait[g], ev->correlation);
		if (i != SIZE_MAX && a->wait[g].val[i] != TS_GONE) {
			resolve(a, kind, a->wait[g].cnt[i], a->wait[g].val[i]);
			a->wait[g].val[i] = TS_GONE;
			/* later kernels of a graph launch find it here */
			break;
		}
	}
	if (ct_full(&a->rt[0])) {
		corr_table old = a->rt[1];
		a->rt[1] = a->rt[0];
		a->rt[0] = old;
		ct_clear(&a->rt[0]);
	}
	ct_put(&a->rt[0], ev->correlation, kind);
}

/* ------------------------------------------------------------- kernels */

static void add_cat(ts_op_row *r, int32_t cat, int64_t dur)
{
	for (int i = 0; i < TS_ATTRIB_OP_CATS; i++) {
		if (r->cats[i].count && r->cats[i].category == cat) {
			r->cats[i].count++;
			r->cats[i].ns += dur;
			return;
		}
		if (!r->cats[i].count) {
			r->cats[i] = (ts_op_cat){ cat, 1, dur };
			return;
		}
	}
	r->other_cat_ns += dur;
}

static void vote_parent(ts_attrib *a, uint32_t row, uint32_t op)
{
	if (row == TS_INTERN_NONE)
		return;
	if (row >= a->parent_cap) {
		size_t cap = a->parent_cap ? a->parent_cap * 2 : 64;
		while (cap <= row)
			cap *= 2;
		parent_vote *p = realloc(a->parent, cap * sizeof *p);
		if (!p)
			return;
		memset(p + a->parent_cap, 0, (cap - a->parent_cap) * sizeof *p);
		a->parent = p;
		a->parent_cap = cap;
	}
	parent_vote *v = &a->parent[row];
	if (v->votes == 0) {
		v->cand = op;
		v->votes = 1;
	} else if (v->cand == op) {
		v->votes++;
	} else {
		v->votes--;
	}
}

void ts_attrib_kernel(ts_attrib *a, const ts_event *ev, uint32_t row,
		      const ts_kclass *c)
{
	a->last_m = -1;
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR))
		return;
	int64_t dur = ev->dur_ns;
	op_ent *op = (ev->has & TS_HAS_EXTERNAL_ID) ? find_op(a, ev->external_id) : NULL;
	if (op) {
		bucket(a, TS_ATTR_OP, dur);
		a->last_m = op->m & M_MASK ? (int64_t)(op->m & M_MASK) : -1;
		if (op->name == TS_INTERN_NONE) {
			a->t.op_names_dropped++;
			return;
		}
		ts_op_row *r = &a->rows[op->name];
		if (!(op->m & M_COUNTED)) {
			op->m |= M_COUNTED;
			r->calls++;
		}
		r->kernels++;
		r->ns += dur;
		add_cat(r, c ? c->category : -1, dur);
		vote_parent(a, row, op->name);
		return;
	}
	if (!(ev->has & TS_HAS_CORRELATION)) {
		bucket(a, TS_ATTR_UNLINKED, dur);
		return;
	}
	/* Its launch came first (AMD), or will come (NVIDIA). */
	for (int g = 0; g < 2; g++) {
		size_t i = ct_find(&a->rt[g], ev->correlation);
		if (i != SIZE_MAX) {
			resolve(a, (int)a->rt[g].val[i], 1, dur);
			return;
		}
	}
	if (ct_full(&a->wait[0])) {
		retire_wait(a, &a->wait[1]);
		corr_table old = a->wait[1];
		a->wait[1] = a->wait[0];
		a->wait[0] = old;
	}
	ct_add(&a->wait[0], ev->correlation, dur);
}

void ts_attrib_finish(ts_attrib *a)
{
	for (int g = 0; g < 2; g++)
		for (size_t i = 0; i < a->wait[g].cap; i++)
			if (a->wait[g].key[i] && a->wait[g].val[i] != TS_GONE) {
				bucket_n(a, TS_ATTR_UNLINKED, a->wait[g].cnt[i], a->wait[g].val[i]);
				a->wait[g].val[i] = TS_GONE;
			}
}

/* -------------------------------------------------------------- results */

typedef struct {
	int64_t ns;
	size_t i;
} op_key;

static int by_time(const void *pa, const void *pb)
{
	const op_key *x = pa, *y = pb;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

size_t *ts_attrib_op_order(const ts_attrib *a, size_t *n)
{
	size_t total = ts_intern_count(a->names), k = 0;
	op_key *keys = malloc((total + 1) * sizeof *keys);
	size_t *o = malloc((total + 1) * sizeof *o);
	if (!keys || !o) {
		free(keys);
		free(o);
		*n = 0;
		return NULL;
	}
	for (size_t i = 0; i < total; i++)
		if (a->rows[i].kernels)
			keys[k++] = (op_key){ a->rows[i].ns, i };
	qsort(keys, k, sizeof *keys, by_time);
	for (size_t i = 0; i < k; i++)
		o[i] = keys[i].i;
	free(keys);
	*n = k;
	return o;
}

const ts_attrib_totals *ts_attrib_get_totals(const ts_attrib *a)
{
	return &a->t;
}

size_t ts_attrib_nops(const ts_attrib *a)
{
	return ts_intern_count(a->names);
}

const ts_op_row *ts_attrib_op(const ts_attrib *a, size_t i)
{
	return &a->rows[i];
}

const char *ts_attrib_op_name(const ts_attrib *a, size_t i, size_t *len)
{
	return ts_intern_str(a->names, (uint32_t)i, len);
}

long ts_attrib_parent_op(const ts_attrib *a, uint32_t row)
{
	if (row >= a->parent_cap || a->parent[row].votes == 0)
		return -1;
	return (long)a->parent[row].cand;
}

int64_t ts_attrib_last_m(const ts_attrib *a)
{
	return a->last_m;
}
