/*
 * attrib.c - kernel -> CPU op (External id index) and runtime launch
 * (correlation look-ahead); the op and workload views (see attrib.h).
 */
#include "analysis/attrib/attrib_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/grow.h"
#include "input/base/hash.h"
#include "input/base/satmath.h"
#include "input/base/intern.h"
#include "analysis/attrib/opindex.h"

static const char *const bucket_names[TS_ATTR_COUNT] = {
	"op", "graph", "launch", "unlinked", "graph_op",
};

const char *ts_attr_bucket_name(ts_attr_bucket b)
{
	return (unsigned)b < TS_ATTR_COUNT ? bucket_names[b] : "unlinked";
}

/* Small traces never need the whole window: start small, grow to max. */
static bool ct_init(corr_table *t, size_t max)
{
	t->max = max;
	t->cap = max < CT_FIRST_CAP ? max : CT_FIRST_CAP;
	t->n = 0;
	t->key = calloc(t->cap, sizeof *t->key);
	t->val = calloc(t->cap, sizeof *t->val);
	t->cnt = calloc(t->cap, sizeof *t->cnt);
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

/* A key as stored: correlation ids are 0 .. INT64_MAX (the callers take no
 * negative one), so key + 1 is never 0 and never overflows. */
static uint64_t ct_code(int64_t key)
{
	return (uint64_t)key + 1;
}

static size_t ct_slot(const corr_table *t, int64_t key)
{
	size_t i = (size_t)(ts_hash_fib((uint64_t)key) >> 20) & (t->cap - 1);
	while (t->key[i] && t->key[i] != ct_code(key))
		i = (i + 1) & (t->cap - 1);
	return i;
}

/* Slot of key, or SIZE_MAX. */
static size_t ct_find(const corr_table *t, int64_t key)
{
	size_t i = ct_slot(t, key);
	return t->key[i] ? i : SIZE_MAX;
}

/* Double the capacity, rehashing; false when memory ran out. */
static bool ct_grow(corr_table *t)
{
	corr_table g = { .cap = t->cap * 2, .n = t->n, .max = t->max };
	g.key = calloc(g.cap, sizeof *g.key);
	g.val = malloc(g.cap * sizeof *g.val);
	g.cnt = malloc(g.cap * sizeof *g.cnt);
	if (!g.key || !g.val || !g.cnt) {
		free(g.key);
		free(g.val);
		free(g.cnt);
		return false;
	}
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->key[i])
			continue;
		size_t j = ct_slot(&g, (int64_t)(t->key[i] - 1));
		g.key[j] = t->key[i];
		g.val[j] = t->val[i];
		g.cnt[j] = t->cnt[i];
	}
	free(t->key);
	free(t->val);
	free(t->cnt);
	*t = g;
	return true;
}

/* Half full counts as full (probes stay short) once the table is at its
 * largest; below that it grows instead. */
static bool ct_full(corr_table *t)
{
	if (t->n < t->cap / 2)
		return false;
	return t->cap >= t->max || !ct_grow(t);
}

static void ct_put(corr_table *t, int64_t key, int64_t val)
{
	size_t i = ct_slot(t, key);
	if (!t->key[i]) {
		t->key[i] = ct_code(key);
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
		t->key[i] = ct_code(key);
		t->val[i] = 0;
		t->cnt[i] = 0;
	}
	t->val[i] = ts_sat_add(t->val[i], dur);
	t->cnt[i]++;
}

enum { RT_LAUNCH = 1, RT_GRAPH = 2 };

/* A runtime call in the look-ahead table: kind, whether a kernel has used
 * it (a call of its row is counted), its row, its call site. */
static int64_t rt_pack(int kind, bool used, uint32_t row, uint32_t cs)
{
	return (int64_t)((uint64_t)kind | (uint64_t)used << 2 |
			 (uint64_t)(row & 0x3ffffffu) << 3 | (uint64_t)cs << 29);
}

static int rt_kind(int64_t v) { return (int)(v & 3); }
static bool rt_used(int64_t v) { return (v >> 2) & 1; }
static uint32_t rt_row(int64_t v)
{
	uint32_t r = (uint32_t)((uint64_t)v >> 3) & 0x3ffffffu;
	return r == 0x3ffffffu ? TS_INTERN_NONE : r;
}
static uint32_t rt_cs(int64_t v) { return (uint32_t)((uint64_t)v >> 29); }

ts_attrib *ts_attrib_new(const ts_patterns *p, size_t join_mem)
{
	ts_attrib *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->patterns = p;
	a->join_mem = join_mem ? join_mem : TS_JOIN_MEM_DEFAULT;
	a->names = ts_intern_new(TS_ATTRIB_MAX_OPS, 4u << 20);
	a->wl_names = ts_intern_new(TS_ATTRIB_MAX_WORKLOADS, 4u << 20);
	a->cs = ts_callsites_new(p, a->join_mem);
	a->ops = ts_opindex_new(a->join_mem);
	a->memo = calloc(WL_MEMO_SLOTS, sizeof *a->memo);
	a->th = calloc(TS_THREADS, sizeof *a->th);
	a->unlinked_row = TS_INTERN_NONE;
	size_t nr = p ? ts_patterns_noprules(p) : 0;
	for (size_t i = 0; i < nr && a->nseq < TS_SEQ_RULES; i++)
		if (ts_patterns_oprule(p, i)->nsteps)
			a->seq_rule[a->nseq++] = (uint16_t)i;
	bool ok = a->names && a->wl_names && a->cs && a->ops && a->memo && a->th;
	for (int g = 0; g < 2; g++) {
		ok &= ct_init(&a->rt[g], 2 * TS_ATTRIB_LOOKAHEAD);
		ok &= ct_init(&a->wait[g], 2 * TS_ATTRIB_LOOKAHEAD);
	}
	if (!ok) {
		ts_attrib_free(a);
		return NULL;
	}
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
	for (int v = 0; v < TS_ATTRIB_VIEWS; v++) {
		for (size_t i = 0; i < a->wl_cap[v]; i++)
			ts_hist_clear(&a->wl[v][i].m);
		free(a->wl[v]);
		free(a->rows[v]);
	}
	ts_opindex_free(a->ops);
	free(a->info);
	free(a->wl_rule);
	free(a->memo);
	free(a->th);
	free(a->parent);
	ts_intern_free(a->names);
	ts_intern_free(a->wl_names);
	ts_callsites_free(a->cs);
	free(a->cap_ids);
	free(a);
}

/* ---------------------------------------------------------------- rows */

ts_op_row *ts_att_op_row(ts_attrib *a, int view, uint32_t name)
{
	if (!ts_grow((void **)&a->rows[view], &a->rows_cap[view], (size_t)name + 1,
			 sizeof(ts_op_row), 64, SIZE_MAX, true))
		return NULL;
	return &a->rows[view][name];
}

ts_wl_row *ts_att_wl_row(ts_attrib *a, int view, uint32_t wl)
{
	size_t old = a->wl_cap[view];
	if (!ts_grow((void **)&a->wl[view], &a->wl_cap[view], (size_t)wl + 1,
			 sizeof(ts_wl_row), 64, SIZE_MAX, true))
		return NULL;
	for (size_t i = old; i < a->wl_cap[view]; i++)
		a->wl[view][i].m_min = -1;
	return &a->wl[view][wl];
}

/* The operator rules whose regex matches a new op name. */
static void find_candidates(ts_attrib *a, name_info *in, const char *s, size_t len)
{
	size_t n = a->patterns ? ts_patterns_noprules(a->patterns) : 0;
	size_t ov[2];
	for (size_t i = 0; i < n && in->ncand < 6 && i <= UINT16_MAX; i++) {
		const ts_oprule *r = ts_patterns_oprule(a->patterns, i);
		if (r->re && ts_regex_match(r->re, s, len, ov, 1) > 0)
			in->cand[in->ncand++] = (uint16_t)i;
	}
	for (int q = 0; q < a->nseq; q++) {
		const ts_oprule *r = ts_patterns_oprule(a->patterns, a->seq_rule[q]);
		for (int k = 0; k < r->nsteps; k++)
			if (ts_regex_match(r->step[k], s, len, ov, 1) > 0)
				in->seq_step |= 1ull << (q * TS_SEQ_STEPS + k);
		if (r->skip && ts_regex_match(r->skip, s, len, ov, 1) > 0)
			in->seq_skip |= (uint8_t)(1u << q);
	}
}

/* Intern an op (or runtime) name; TS_INTERN_NONE past the caps. */
uint32_t ts_att_name_row_h(ts_attrib *a, const char *s, size_t len, uint64_t hash, ts_attr_bucket via)
{
	uint32_t before = ts_intern_count(a->names), id;
	if (ts_intern_put_hashed(a->names, s, len, hash, &id) != TS_OK)
		return TS_INTERN_NONE;
	if (!ts_grow((void **)&a->info, &a->info_cap, (size_t)id + 1, sizeof *a->info, 64, SIZE_MAX, true) ||
	    !ts_att_op_row(a, TS_ATTRIB_ALL, id))
		return TS_INTERN_NONE;
	if (id == before) {
		a->info[id].via = (uint8_t)via;
		if (via == TS_ATTR_OP)
			find_candidates(a, &a->info[id], s, len);
	}
	return id;
}

void ts_att_vote_callsite(cs_top *t, uint32_t cs, uint64_t w)
{
	if (cs == TS_INTERN_NONE)
		return;
	int min = 0;
	for (int i = 0; i < CS_TOP; i++) {
		if (t->w[i] && t->id[i] == cs) {
			t->w[i] += w;
			return;
		}
		if (t->w[i] < t->w[min])
			min = i;
	}
	/* an empty slot has weight 0 and is the minimum */
	t->id[min] = cs;
	t->w[min] += w;
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
		if (ev->rank[op] == TS_RANK_BAD)
			return 0;
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

static bool ranks_fit(const ts_oprule *r, const ts_event *ev)
{
	for (int i = 0; i < r->nranks; i++) {
		if (r->ranks[i] < 0)
			continue;
		unsigned rank = (unsigned)i < ev->noperands && i < TS_MAX_OPERANDS ? ev->rank[i] : 0;
		if (rank == TS_RANK_BAD || rank != (unsigned)r->ranks[i])
			return false;
	}
	return true;
}

/* Integer, boolean and non-tensor "Input type" entries: not what a
 * workload computes in. */
static bool value_dtype(const char *t)
{
	static const char *const no[] = {
		"", "Scalar", "ScalarList", "TensorList", "GenericList", "long int", "int",
		"short int", "signed char", "unsigned char", "bool", "c10::Device",
	};
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		if (strcmp(t, no[i]) == 0)
			return false;
	return true;
}

static const char *dtype_of(const ts_oprule *r, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_DTYPE))
		return "";
	if (r->dtype_operand >= 0)
		return r->dtype_operand < ev->ntypes ? ev->dtype[r->dtype_operand] : "";
	for (unsigned i = 0; i < ev->ntypes; i++)
		if (value_dtype(ev->dtype[i]))
			return ev->dtype[i];
	return ev->ntypes ? ev->dtype[0] : "";
}

/* What one op call costs by its rule: *flops and *bytes, 0 unknown. */
static void op_cost(const ts_oprule *r, const ts_event *ev, const ts_wctx *cx, uint64_t *flops,
		    uint64_t *bytes)
{
	double v;
	*flops = r->has_flops && ts_wexpr_eval_real(&r->flops, ev, cx, &v) && v >= 0.5 &&
		 v < 1.8e19 ? (uint64_t)(v + 0.5) : 0;
	*bytes = r->has_bytes && ts_wexpr_eval_real(&r->bytes, ev, cx, &v) && v >= 0.5 &&
		 v < 1.8e19 ? (uint64_t)(v + 0.5) : 0;
}

/* What a rule makes of one op call. */
typedef struct {
	uint32_t wl, m;
	uint16_t heads;
	uint64_t flops, bytes;
} call_eval;

/* The workload row rule r gives one op call in context cx, like
 * apply_rule. */
static uint32_t apply_in(ts_attrib *a, uint32_t ri, const ts_oprule *r, const ts_event *ev,
			 const ts_wctx *cx, call_eval *e, bool *cache)
{
	char key[256];
	size_t len;
	for (int i = 0; i < r->ncond; i++)
		if (!ts_wcond_eval(&r->cond[i], ev, cx))
			return TS_INTERN_NONE;
	if (!ts_wtmpl_eval(&r->name, ev, cx, key, sizeof key - TS_DTYPE_MAX - 1, &len))
		return TS_INTERN_NONE;
	int64_t tokens = 0, heads = 0;
	if (r->has_tokens && !ts_wexpr_eval(&r->tokens, ev, cx, &tokens))
		return TS_INTERN_NONE;
	if (r->has_heads && (!ts_wexpr_eval(&r->heads, ev, cx, &heads) || heads < 1 ||
			     heads > UINT16_MAX))
		return TS_INTERN_NONE;
	key[len++] = '\x1f';
	const char *dt = dtype_of(r, ev);
	size_t dl = strlen(dt);
	memcpy(key + len, dt, dl);
	len += dl;
	uint32_t before = ts_intern_count(a->wl_names), id;
	if (ts_intern_put(a->wl_names, key, len, &id) != TS_OK ||
	    !ts_grow((void **)&a->wl_rule, &a->wl_rule_cap, (size_t)id + 1,
			 sizeof *a->wl_rule, 64, SIZE_MAX, true) || !ts_att_wl_row(a, TS_ATTRIB_ALL, id)) {
		a->t.workloads_dropped++;
		*cache = false;
		return TS_INTERN_NONE;
	}
	if (id == before)
		a->wl_rule[id] = ri;
	if (tokens > 0)
		e->m = tokens > (int64_t)M_MASK ? M_MASK : (uint32_t)tokens;
	e->heads = (uint16_t)heads;
	op_cost(r, ev, cx, &e->flops, &e->bytes);
	e->wl = id;
	return id;
}

/* The workload row rule ri gives one op call, with its tokens in e->m (kept
 * when the rule has none), heads and cost; TS_INTERN_NONE when the rule
 * does not apply. A rule that reads moe.* applies with the first MoE
 * configuration of the tables for which it does. *cache is cleared when
 * the result must not be remembered (a row that could not be made). */
static uint32_t apply_rule(ts_attrib *a, uint32_t ri, const ts_event *ev, int64_t ctx,
			   call_eval *e, bool *cache)
{
	const ts_oprule *r = ts_patterns_oprule(a->patterns, ri);
	if (!ranks_fit(r, ev))
		return TS_INTERN_NONE;
	ts_wctx cx = { .T = ctx, .world = a->meta && (a->meta->has & TS_META_HAS_WORLD) ? a->meta->world_size : 1 };
	if (!r->reads_moe)
		return apply_in(a, ri, r, ev, &cx, e, cache);
	for (size_t f = 0; f < ts_patterns_nfamilies(a->patterns); f++) {
		const ts_family *fam = ts_patterns_family(a->patterns, f);
		for (size_t c = 0; c < fam->nmoe; c++) {
			cx.moe = &fam->moe[c];
			uint32_t id = apply_in(a, ri, r, ev, &cx, e, cache);
			if (id != TS_INTERN_NONE)
				return id;
		}
	}
	return TS_INTERN_NONE;
}

/* The workload of an op call by the first of its name's rules that
 * applies. */
static void evaluate_workload(ts_attrib *a, const name_info *in, const ts_event *ev,
			      int64_t ctx, call_eval *e, bool *cache)
{
	for (unsigned c = 0; c < in->ncand; c++)
		if (apply_rule(a, in->cand[c], ev, ctx, e, cache) != TS_INTERN_NONE)
			return;
}

/* The memo key of an op call: its name row, T and the shape fields; 0 when
 * it does not fit (never for what the parser keeps, checked anyway). */
static size_t memo_key(uint32_t name, const ts_event *ev, uint32_t ctx, unsigned char *k)
{
	size_t n = 0;
#define PUT(ptr, sz) do { if (n + (sz) > WL_MEMO_KEY) return 0; memcpy(k + n, (ptr), (sz)); n += (sz); } while (0)
	PUT(&name, sizeof name);
	PUT(&ctx, sizeof ctx);
	unsigned nops = ev->noperands < TS_MAX_OPERANDS ? ev->noperands : TS_MAX_OPERANDS;
	PUT(&ev->noperands, 1);
	for (unsigned i = 0; i < nops; i++) {
		PUT(&ev->rank[i], 1);
		if (ev->rank[i] != TS_RANK_BAD && ev->rank[i] <= TS_MAX_RANK)
			PUT(ev->dims[i], ev->rank[i] * sizeof ev->dims[i][0]);
	}
	unsigned char nt = (ev->has & TS_HAS_DTYPE) ? ev->ntypes : 0;
	PUT(&nt, 1);
	for (unsigned i = 0; i < nt && i < TS_MAX_OPERANDS; i++)
		PUT(ev->dtype[i], strlen(ev->dtype[i]) + 1);
	PUT(&ev->nconcrete, sizeof ev->nconcrete);
	for (unsigned i = 0; i < TS_MAX_CONCRETE; i++)
		if (ev->nconcrete & (1u << i))
			PUT(&ev->concrete[i], sizeof ev->concrete[i]);
#undef PUT
	return n;
}

/* e->m holds the op's own M on entry. */
static void workload_of(ts_attrib *a, uint32_t name, const ts_event *ev, uint32_t ctx,
			call_eval *e)
{
	if (!(ev->has & TS_HAS_DIMS))
		return;
	unsigned char key[WL_MEMO_KEY];
	size_t klen = memo_key(name, ev, ctx, key);
	wl_memo *slot = NULL;
	if (klen) {
		slot = &a->memo[ts_hash_bytes((const char *)key, klen) & (WL_MEMO_SLOTS - 1)];
		if (slot->len == klen && memcmp(slot->key, key, klen) == 0) {
			*e = (call_eval){ slot->wl, slot->m, slot->heads, slot->flops, slot->bytes };
			return;
		}
	}
	bool cache = true;
	evaluate_workload(a, &a->info[name], ev, ctx, e, &cache);
	if (slot && cache) {
		slot->len = (uint32_t)klen;
		slot->wl = e->wl;
		slot->m = e->m;
		slot->heads = e->heads;
		slot->flops = e->flops;
		slot->bytes = e->bytes;
		memcpy(slot->key, key, klen);
	}
}

/* The state of the op's thread (events without a tid share one). */
static thread_state *thread_of(ts_attrib *a, const ts_event *ev)
{
	int64_t tid = (ev->has & TS_HAS_TID) ? ev->tid : INT64_MIN;
	thread_state *old = &a->th[0];
	a->th_clock++;
	for (int i = 0; i < TS_THREADS; i++) {
		thread_state *t = &a->th[i];
		if (t->seen && t->tid == tid) {
			t->seen = a->th_clock;
			return t;
		}
		if (t->seen < old->seen)
			old = t;
	}
	memset(old, 0, sizeof *old);
	old->tid = tid;
	old->seen = a->th_clock;
	return old;
}

/* A sequence is complete: every op of it takes the call's workload; the
 * ops after the first continue its call. */
static void seq_commit(ts_attrib *a, const seq_try *q)
{
	for (unsigned j = 0; j < q->nmem; j++) {
		const ts_oprec *old = ts_opindex_get(a->ops, q->mem[j]);
		if (!old)
			continue;
		ts_oprec r = *old;
		r.wl = q->wl;
		if (j == 0)
			r.m = q->m & M_MASK;
		r.heads = q->heads;
		r.cont = j != 0;
		r.flops = q->flops;
		r.bytes = q->bytes;
		bool added;
		(void)ts_opindex_put(a->ops, q->mem[j], &r, &added);
	}
	a->t.sequence_calls++;
}

static bool seq_member(seq_try *q, int64_t ext)
{
	if (q->nmem == SEQ_MEMBERS) {
		q->k = 0;
		return false;
	}
	q->mem[q->nmem++] = ext;
	return true;
}

/* Step k of sequence rule ri matched the op ev: evaluate the rule on it
 * when it is the rule's shapes step; false when the rule does not apply.
 * A complete sequence is committed unless an earlier rule has been at this
 * op (*done). */
static bool seq_step(ts_attrib *a, seq_try *q, uint32_t ri, const ts_event *ev, int64_t ctx,
		     bool *done)
{
	const ts_oprule *r = ts_patterns_oprule(a->patterns, ri);
	if (q->k == 0) {
		q->nmem = 0;
		q->wl = TS_INTERN_NONE;
	}
	if (q->k == r->shapes) {
		call_eval e = { TS_INTERN_NONE, 0, 0, 0, 0 };
		bool cache = true;
		if (!(ev->has & TS_HAS_DIMS) || apply_rule(a, ri, ev, ctx, &e, &cache) == TS_INTERN_NONE)
			return false;
		q->wl = e.wl;
		q->m = e.m;
		q->heads = e.heads;
		q->flops = e.flops;
		q->bytes = e.bytes;
	}
	if (!seq_member(q, ev->external_id))
		return false;
	q->end = (ev->has & TS_HAS_TS) ? ev->ts_ns + ((ev->has & TS_HAS_DUR) ? ev->dur_ns : 0)
				       : INT64_MIN;
	q->k++;
	if (q->k == r->nsteps) {
		if (!*done)
			seq_commit(a, q);
		*done = true;
		q->k = 0;
	}
	return true;
}

/* Advance every sequence rule's match on this thread by one op. */
static void sequences(ts_attrib *a, thread_state *t, const name_info *in, const ts_event *ev,
		      int64_t ctx)
{
	bool has_ts = ev->has & TS_HAS_TS, done = false;
	for (int s = 0; s < a->nseq; s++) {
		seq_try *q = &t->s[s];
		uint32_t ri = a->seq_rule[s];
		const ts_oprule *r = ts_patterns_oprule(a->patterns, ri);
		if (q->k > 0) {
			if (has_ts && ev->ts_ns < q->end) {
				/* inside the latest step or skipped op */
				seq_member(q, ev->external_id);
				continue;
			}
			if ((in->seq_step >> (s * TS_SEQ_STEPS + q->k)) & 1) {
				if (seq_step(a, q, ri, ev, ctx, &done))
					continue;
				q->k = 0;
			} else if ((in->seq_skip >> s) & 1) {
				if (seq_member(q, ev->external_id) && has_ts) {
					int64_t end = ev->ts_ns + ((ev->has & TS_HAS_DUR) ? ev->dur_ns : 0);
					if (end > q->end)
						q->end = end;
				}
				continue;
			} else {
				q->k = 0;
			}
		}
		/* a new match may start here */
		if ((in->seq_step >> (s * TS_SEQ_STEPS)) & 1 && r->nsteps > 1 &&
		    !seq_step(a, q, ri, ev, ctx, &done))
			q->k = 0;
	}
}

void ts_attrib_set_meta(ts_attrib *a, const ts_meta *meta)
{
	a->meta = meta;
}

ts_attends ts_attrib_cpu_op(ts_attrib *a, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_EXTERNAL_ID))
		return TS_ATTENDS_NONE;
	uint32_t name;
	char buf[512];
	if ((ev->has & TS_HAS_COLLECTIVE) && ev->kname_len &&
	    ev->name_len + ev->kname_len + 3 <= sizeof buf) {
		/* record_param_comms names its collective in an argument: the op
		 * is known by both, record_param_comms(allreduce) */
		int n = snprintf(buf, sizeof buf, "%.*s(%.*s)", (int)ev->name_len, ev->name,
				 (int)ev->kname_len, ev->kname);
		size_t len = n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
		name = ts_att_name_row(a, buf, len, TS_ATTR_OP);
	} else {
		name = ts_att_name_row_h(a, ev->name, ev->name_len, ev->name_hash, TS_ATTR_OP);
	}
	thread_state *t = thread_of(a, ev);
	call_eval e = { TS_INTERN_NONE, rows_of(ev), 0, 0, 0 };
	if (ev->has & TS_HAS_DIMS)
		a->t.ops_with_shapes++;
	if (name != TS_INTERN_NONE && a->info[name].ncand)
		workload_of(a, name, ev, t->tokens, &e);
	ts_oprec r = { name, e.m & M_MASK, e.wl, e.heads, 0, e.flops, e.bytes };
	bool added = false;
	if (!ts_opindex_put(a->ops, ev->external_id, &r, &added))
		a->t.ops_dropped++;
	else
		a->t.ops_indexed += added;
	a->t.index_bytes = ts_opindex_bytes(a->ops);
	const ts_oprule *rule = e.wl != TS_INTERN_NONE ? ts_patterns_oprule(a->patterns, a->wl_rule[e.wl]) : NULL;
	if (rule && e.m && rule->sets_context)
		t->tokens = e.m & M_MASK;
	if (name != TS_INTERN_NONE && a->nseq && added)
		sequences(a, t, &a->info[name], ev, t->tokens);
	return rule ? rule->attends : TS_ATTENDS_NONE;
}

void ts_attrib_annotation(ts_attrib *a, const ts_event *ev)
{
	static const char *const backends[] = { "nccl:", "rccl:", "gloo:", "ucc:", "mpi:", "xccl:" };
	for (size_t i = 0; i < sizeof backends / sizeof *backends; i++) {
		size_t n = strlen(backends[i]);
		if (ev->name_len > n && memcmp(ev->name, backends[i], n) == 0) {
			(void)ts_attrib_cpu_op(a, ev);
			return;
		}
	}
}

static const ts_oprec *find_op(const ts_attrib *a, int64_t ext)
{
	return ts_opindex_get(a->ops, ext);
}

void ts_attrib_python(ts_attrib *a, const ts_event *ev)
{
	ts_callsites_frame(a->cs, ev);
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
	a->t.ns[b] = ts_sat_add(a->t.ns[b], dur);
}

/* Kernels that reached a runtime call but no op: the bucket, and the row
 * of the runtime call's name. */
static void resolve(ts_attrib *a, int64_t rt, bool new_call, uint64_t n, int64_t dur)
{
	bucket_n(a, rt_kind(rt) == RT_GRAPH ? TS_ATTR_GRAPH : TS_ATTR_LAUNCH, n, dur);
	uint32_t row = rt_row(rt);
	if (row == TS_INTERN_NONE)
		return;
	ts_op_row *r = &a->rows[TS_ATTRIB_ALL][row];
	r->calls += new_call;
	r->kernels += n;
	r->ns = ts_sat_add(r->ns, dur);
	ts_att_vote_callsite(&a->info[row].cs, rt_cs(rt), n);
}

static void unlinked(ts_attrib *a, uint64_t n, int64_t dur)
{
	bucket_n(a, TS_ATTR_UNLINKED, n, dur);
	if (a->unlinked_row == TS_INTERN_NONE)
		a->unlinked_row = ts_att_name_row(a, "(unlinked)", 10, TS_ATTR_UNLINKED);
	if (a->unlinked_row != TS_INTERN_NONE) {
		ts_op_row *r = &a->rows[TS_ATTRIB_ALL][a->unlinked_row];
		r->kernels += n;
		r->ns = ts_sat_add(r->ns, dur);
	}
}

/* Retire the old generation of waiting kernels: they never saw a launch. */
static void retire_wait(ts_attrib *a, corr_table *t)
{
	for (size_t i = 0; t->n && i < t->cap; i++)
		if (t->key[i] && t->val[i] != TS_GONE) {
			unlinked(a, t->cnt[i], t->val[i]);
			a->t.lookahead_overflow += t->cnt[i];
		}
	ct_clear(t);
}

void ts_attrib_record(ts_attrib *a, ts_capmap *m)
{
	a->rec = m;
}

/* A runtime call of a capture trace, with the call site of a launch. */
static void record(ts_attrib *a, const ts_event *ev, int kind)
{
	const char *site = NULL;
	size_t sl = 0;
	if (kind == RT_LAUNCH && (ev->has & TS_HAS_TS) && ts_callsites_totals(a->cs)->kept) {
		uint32_t cs = ts_callsites_at(a->cs, ev->has & TS_HAS_PID ? ev->pid : -1,
					      ev->has & TS_HAS_TID ? ev->tid : -1, ev->ts_ns);
		if (cs != TS_INTERN_NONE)
			site = ts_callsites_name(a->cs, cs, &sl);
	}
	ts_capmap_runtime(a->rec, ev, site, sl);
}

void ts_attrib_runtime(ts_attrib *a, const ts_event *ev)
{
	int kind = runtime_kind(ev->name, ev->name_len);
	if (a->rec)
		record(a, ev, kind);
	if (!(ev->has & TS_HAS_CORRELATION) && !(ev->has & TS_HAS_EXTERNAL_ID))
		return;
	uint32_t cs = TS_INTERN_NONE;
	const ts_oprec *op = (ev->has & TS_HAS_EXTERNAL_ID) ? find_op(a, ev->external_id) : NULL;
	if ((kind || op) && (ev->has & TS_HAS_TS) && ts_callsites_totals(a->cs)->kept)
		cs = ts_callsites_at(a->cs, ev->has & TS_HAS_PID ? ev->pid : -1,
				     ev->has & TS_HAS_TID ? ev->tid : -1, ev->ts_ns);
	/* the op's call site, voted per runtime call */
	if (op && op->name != TS_INTERN_NONE)
		ts_att_vote_callsite(&a->info[op->name].cs, cs, 1);
	if (!(ev->has & TS_HAS_CORRELATION) || ev->correlation < 0)
		return;
	/* any runtime call a kernel correlates with launched it (on AMD,
	 * hipMemcpy's copy kernels) */
	if (!kind)
		kind = RT_LAUNCH;
	uint32_t row = ts_att_name_row_h(a, ev->name, ev->name_len, ev->name_hash,
				  kind == RT_GRAPH ? TS_ATTR_GRAPH : TS_ATTR_LAUNCH);
	/* A kernel written before its launch (NVIDIA) is waiting for it. */
	bool used = false;
	for (int g = 0; g < 2; g++) {
		size_t i = ct_find(&a->wait[g], ev->correlation);
		if (i != SIZE_MAX && a->wait[g].val[i] != TS_GONE) {
			resolve(a, rt_pack(kind, false, row, cs), true, a->wait[g].cnt[i],
				a->wait[g].val[i]);
			a->wait[g].val[i] = TS_GONE;
			used = true;
			/* later kernels of a graph launch find it below */
			break;
		}
	}
	if (ct_full(&a->rt[0])) {
		corr_table old = a->rt[1];
		a->rt[1] = a->rt[0];
		a->rt[0] = old;
		ct_clear(&a->rt[0]);
	}
	ct_put(&a->rt[0], ev->correlation, rt_pack(kind, used, row, cs));
}

/* ------------------------------------------------------------- kernels */

static void add_cat(ts_op_row *r, int32_t cat, int64_t dur)
{
	for (int i = 0; i < TS_ATTRIB_OP_CATS; i++) {
		if (r->cats[i].count && r->cats[i].category == cat) {
			r->cats[i].count++;
			r->cats[i].ns = ts_sat_add(r->cats[i].ns, dur);
			return;
		}
		if (!r->cats[i].count) {
			r->cats[i] = (ts_op_cat){ cat, 1, dur };
			return;
		}
	}
	r->other_cat_ns = ts_sat_add(r->other_cat_ns, dur);
}

void ts_attrib_recategorize(ts_attrib *a, const ts_kref *ref, int32_t from, int32_t to,
			    int64_t dur)
{
	if (ref->op == TS_INTERN_NONE || from == to)
		return;
	ts_op_row *r = &a->rows[TS_ATTRIB_ALL][ref->op & ~TS_KREF_FIRST];
	for (int i = 0; i < TS_ATTRIB_OP_CATS; i++) {
		if (r->cats[i].count && r->cats[i].category == from) {
			r->cats[i].count--;
			r->cats[i].ns -= dur;
			if (r->cats[i].count == 0)
				r->cats[i].ns = 0;
			add_cat(r, to, dur);
			return;
		}
	}
}

void ts_att_parent_add(parent_vote *v, uint32_t op, uint32_t n, uint32_t first)
{
	int min = 0;
	for (int i = 0; i < PARENT_TOP; i++) {
		if (v->n[i] && v->op[i] == op) {
			v->n[i] = v->n[i] > UINT32_MAX - n ? UINT32_MAX : v->n[i] + n;
			if (first < v->first[i])
				v->first[i] = first;
			return;
		}
		if (v->n[i] < v->n[min])
			min = i;
	}
	/* an empty slot (0) is the minimum; a full table gives the least
	 * op's slot, counts kept (space-saving) */
	uint32_t base = v->n[min];
	v->op[min] = op;
	v->n[min] = base > UINT32_MAX - n ? UINT32_MAX : base + n;
	v->first[min] = first;
}

static void vote_parent(ts_attrib *a, uint32_t row, uint32_t op)
{
	if (row == TS_INTERN_NONE ||
	    !ts_grow((void **)&a->parent, &a->parent_cap, (size_t)row + 1, sizeof *a->parent, 64, SIZE_MAX, true))
		return;
	parent_vote *v = &a->parent[row];
	ts_att_parent_add(v, op, 1, v->calls);
	if (v->calls < UINT32_MAX)
		v->calls++;
}

/* Whether a kernel of class c does the work of workload wl's kind: a type
 * the kind names, or no type known (an unclassified kernel may be it). */
static uint8_t fits(const ts_attrib *a, uint32_t wl, const ts_kclass *c)
{
	if (wl == TS_INTERN_NONE || !c || !a->patterns || wl >= a->wl_rule_cap)
		return 1;
	uint32_t f = ts_patterns_oprule(a->patterns, a->wl_rule[wl])->fit;
	return !f || c->type == TS_TYPE_OTHER || ((f >> c->type) & 1u);
}

/* A kernel of a workload's call. The call's cost (FLOPs, bytes) goes to
 * the first kernel of it that does the work (ref->fits), and the time of
 * every such kernel toward that cost; the call's other kernels are unfit.
 * Kernels of one call follow its opening kernel (w->seq counts calls). */
static void add_workload(ts_wl_row *w, const ts_kref *ref, int64_t dur)
{
	uint32_t m = ref->m;
	bool opens = TS_KREF_OPENS(ref), cost = ref->flops || ref->bytes;
	w->kernels++;
	w->ns = ts_sat_add(w->ns, dur);
	if (opens) {
		w->seq++;
		w->cost_calls += cost;
	}
	if (cost && !ref->fits) {
		w->unfit_kernels++;
		w->unfit_ns = ts_sat_add(w->unfit_ns, dur);
	} else if (cost) {
		if (ref->flops)
			w->flops_ns = ts_sat_add(w->flops_ns, dur);
		if (ref->bytes)
			w->bytes_ns = ts_sat_add(w->bytes_ns, dur);
		if (w->placed != w->seq) {
			w->placed = w->seq;
			w->placed_calls++;
			if (ref->flops) {
				w->flops = ts_sat_addu(w->flops, ref->flops);
				w->flops_calls++;
			}
			if (ref->bytes) {
				w->bytes = ts_sat_addu(w->bytes, ref->bytes);
				w->bytes_calls++;
			}
		}
	}
	if (!opens)
		return;
	w->calls++;
	if (ref->heads) {
		if (!w->heads_min || ref->heads < w->heads_min)
			w->heads_min = ref->heads;
		if (ref->heads > w->heads_max)
			w->heads_max = ref->heads;
	}
	if (m) {
		ts_hist_add(&w->m, m);
		if (!w->inexact) {
			unsigned i = 0;
			while (i < w->nexact && w->exact_v[i] != m)
				i++;
			if (i < w->nexact) {
				w->exact_n[i]++;
			} else if (w->nexact < TS_WL_EXACT) {
				w->exact_v[w->nexact] = m;
				w->exact_n[w->nexact++] = 1;
			} else {
				w->inexact = true;
			}
		}
		if (w->m_min < 0 || (int64_t)m < w->m_min)
			w->m_min = m;
		if ((int64_t)m > w->m_max)
			w->m_max = m;
	}
}

void ts_attrib_memop(ts_attrib *a, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR) || !(ev->has & TS_HAS_EXTERNAL_ID))
		return;
	const ts_oprec *op = find_op(a, ev->external_id);
	ts_op_row *r = op && op->name != TS_INTERN_NONE
		     ? ts_att_op_row(a, TS_ATTRIB_ALL, op->name) : NULL;
	if (!r)
		return;
	r->memops++;
	r->mem_ns = ts_sat_add(r->mem_ns, ev->dur_ns);
	if (ev->has & TS_HAS_BYTES)
		r->mem_bytes = ts_sat_add(r->mem_bytes, ev->bytes);
}

void ts_attrib_kernel(ts_attrib *a, const ts_event *ev, uint32_t row,
		      const ts_kclass *c, ts_kref *ref)
{
	*ref = (ts_kref){ .op = TS_INTERN_NONE, .wl = TS_INTERN_NONE, .fits = 1 };
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR))
		return;
	int64_t dur = ev->dur_ns;
	const ts_oprec *op = (ev->has & TS_HAS_EXTERNAL_ID) ? find_op(a, ev->external_id) : NULL;
	if (op) {
		bucket_n(a, TS_ATTR_OP, 1, dur);
		ref->m = op->m & M_MASK;
		if (op->name == TS_INTERN_NONE) {
			a->t.op_names_dropped++;
			return;
		}
		bool first = ts_opindex_first(a->ops, ev->external_id);
		ts_op_row *r = &a->rows[TS_ATTRIB_ALL][op->name];
		r->calls += first;
		r->kernels++;
		r->ns = ts_sat_add(r->ns, dur);
		add_cat(r, c ? c->category : -1, dur);
		vote_parent(a, row, op->name);
		ref->op = op->name | (first ? TS_KREF_FIRST : 0);
		ref->wl = op->wl;
		ref->heads = op->heads;
		ref->cont = (uint8_t)op->cont;
		ref->flops = op->flops;
		ref->bytes = op->bytes;
		ref->fits = fits(a, op->wl, c);
		if (op->wl != TS_INTERN_NONE) {
			add_workload(&a->wl[TS_ATTRIB_ALL][op->wl], ref, dur);
			a->t.workload_calls += TS_KREF_OPENS(ref);
		}
		return;
	}
	if (!(ev->has & TS_HAS_CORRELATION) || ev->correlation < 0) {
		unlinked(a, 1, dur);
		return;
	}
	/* Its launch came first (AMD), or will come (NVIDIA). */
	for (int g = 0; g < 2; g++) {
		size_t i = ct_find(&a->rt[g], ev->correlation);
		if (i != SIZE_MAX) {
			int64_t v = a->rt[g].val[i];
			resolve(a, v, !rt_used(v), 1, dur);
			a->rt[g].val[i] = v | 4;   /* used */
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

ts_link ts_attrib_corr_link(const ts_attrib *a, int64_t correlation)
{
	if (correlation < 0)
		return TS_LINK_WAIT;
	for (int g = 0; g < 2; g++) {
		size_t i = ct_find(&a->rt[g], correlation);
		if (i != SIZE_MAX)
			return rt_kind(a->rt[g].val[i]) == RT_GRAPH ? TS_LINK_GRAPH : TS_LINK_LAUNCH;
	}
	return TS_LINK_WAIT;
}

ts_link ts_attrib_link(const ts_attrib *a, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR))
		return TS_LINK_NONE;
	if ((ev->has & TS_HAS_EXTERNAL_ID) && find_op(a, ev->external_id))
		return TS_LINK_OP;
	if (!(ev->has & TS_HAS_CORRELATION))
		return TS_LINK_NONE;
	return ts_attrib_corr_link(a, ev->correlation);
}

bool ts_attrib_op_info(void *ctx, int64_t ext, ts_opinfo *out)
{
	const ts_attrib *a = ctx;
	const ts_oprec *op = find_op(a, ext);
	if (!op || op->name == TS_INTERN_NONE)
		return false;
	*out = (ts_opinfo){ 0 };
	out->op = ts_intern_str(a->names, op->name, &out->op_len);
	if (op->wl != TS_INTERN_NONE) {
		out->wl = ts_intern_str(a->wl_names, op->wl, &out->wl_len);
		out->rule = a->wl_rule[op->wl];
	}
	out->m = op->m & M_MASK;
	out->heads = op->heads;
	out->cont = (uint8_t)op->cont;
	out->flops = op->flops;
	out->bytes = op->bytes;
	return true;
}

/* The op row, workload row and call site here of a capture node. */
static const uint32_t *capture_ids(ts_attrib *a, const ts_capmap *m, size_t node)
{
	size_t n = ts_capmap_nnodes(m);
	if (a->cap_map != m || !a->cap_ids) {
		free(a->cap_ids);
		a->cap_ids = malloc((n ? n : 1) * sizeof *a->cap_ids);
		if (!a->cap_ids)
			return NULL;
		/* UINT32_MAX - 1: not made yet */
		for (size_t i = 0; i < n; i++)
			a->cap_ids[i][0] = a->cap_ids[i][1] = a->cap_ids[i][2] = UINT32_MAX - 1;
		a->cap_map = m;
		a->cap_ids_n = n;
	}
	if (node >= a->cap_ids_n)
		return NULL;
	uint32_t *id = a->cap_ids[node];
	if (id[0] != UINT32_MAX - 1)
		return id;
	const ts_capnode *nd = ts_capmap_node(m, node);
	size_t len;
	const char *s = ts_capmap_str(m, nd->op, &len);
	id[0] = s ? ts_att_name_row(a, s, len, TS_ATTR_OP) : TS_INTERN_NONE;
	id[1] = TS_INTERN_NONE;
	size_t nr = a->patterns ? ts_patterns_noprules(a->patterns) : 0;
	s = ts_capmap_str(m, nd->wl, &len);
	if (s && nd->rule < nr) {
		uint32_t before = ts_intern_count(a->wl_names), w;
		if (ts_intern_put(a->wl_names, s, len, &w) == TS_OK &&
		    ts_grow((void **)&a->wl_rule, &a->wl_rule_cap, (size_t)w + 1,
				sizeof *a->wl_rule, 64, SIZE_MAX, true) && ts_att_wl_row(a, TS_ATTRIB_ALL, w)) {
			if (w == before)
				a->wl_rule[w] = nd->rule;
			id[1] = w;
		} else {
			a->t.workloads_dropped++;
		}
	}
	s = ts_capmap_str(m, nd->cs, &len);
	id[2] = s ? ts_callsites_intern(a->cs, s, len) : TS_INTERN_NONE;
	return id;
}

void ts_attrib_captured(ts_attrib *a, const ts_event *ev, uint32_t row, const ts_kclass *c,
			const ts_capmap *map, size_t node, ts_kref *ref)
{
	*ref = (ts_kref){ .op = TS_INTERN_NONE, .wl = TS_INTERN_NONE, .fits = 1 };
	const uint32_t *id = capture_ids(a, map, node);
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR))
		return;
	if (!id || id[0] == TS_INTERN_NONE) {
		/* no row for it here: a graph kernel as it was */
		ts_attrib_kernel(a, ev, row, c, ref);
		return;
	}
	const ts_capnode *nd = ts_capmap_node(map, node);
	int64_t dur = ev->dur_ns;
	bucket_n(a, TS_ATTR_GRAPH_OP, 1, dur);
	ts_op_row *r = &a->rows[TS_ATTRIB_ALL][id[0]];
	r->calls += nd->first;
	r->kernels++;
	r->ns = ts_sat_add(r->ns, dur);
	r->graph_kernels++;
	r->graph_ns = ts_sat_add(r->graph_ns, dur);
	add_cat(r, c ? c->category : -1, dur);
	vote_parent(a, row, id[0]);
	ts_att_vote_callsite(&a->info[id[0]].cs, id[2], 1);
	ref->op = id[0] | (nd->first ? TS_KREF_FIRST : 0);
	ref->wl = id[1];
	ref->m = nd->m & M_MASK;
	ref->heads = nd->heads;
	ref->cont = nd->cont;
	ref->graph = 1;
	ref->flops = nd->flops;
	ref->bytes = nd->bytes;
	ref->fits = fits(a, id[1], c);
	if (id[1] != TS_INTERN_NONE) {
		add_workload(&a->wl[TS_ATTRIB_ALL][id[1]], ref, dur);
		a->t.workload_calls += TS_KREF_OPENS(ref);
	}
}

void ts_attrib_staged(ts_attrib *a, int stage, const ts_kref *ref, int64_t dur)
{
	if (stage < 0 || stage >= TS_ATTRIB_STAGES || ref->op == TS_INTERN_NONE)
		return;
	bool first = ref->op & TS_KREF_FIRST;
	ts_op_row *r = ts_att_op_row(a, stage, ref->op & ~TS_KREF_FIRST);
	if (r) {
		r->calls += first;
		r->kernels++;
		r->ns = ts_sat_add(r->ns, dur);
		if (ref->graph) {
			r->graph_kernels++;
			r->graph_ns = ts_sat_add(r->graph_ns, dur);
		}
	}
	if (ref->wl == TS_INTERN_NONE)
		return;
	ts_wl_row *w = ts_att_wl_row(a, stage, ref->wl);
	if (w)
		add_workload(w, ref, dur);
}

void ts_attrib_finish(ts_attrib *a)
{
	for (int g = 0; g < 2; g++)
		for (size_t i = 0; a->wait[g].n && i < a->wait[g].cap; i++)
			if (a->wait[g].key[i] && a->wait[g].val[i] != TS_GONE) {
				unlinked(a, a->wait[g].cnt[i], a->wait[g].val[i]);
				a->wait[g].val[i] = TS_GONE;
			}
}
