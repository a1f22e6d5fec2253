/*
 * agg.c - rolling aggregates of one trace: the kernel table (one row per
 * distinct name, capped, the rest folded into an (other) row), memory
 * copies, event counts, spans and per-device busy time (see agg.h).
 */
#include "analysis/agg.h"
#include "input/base/satmath.h"
#include "input/base/grow.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/platform.h"

ts_limits ts_limits_default(void)
{
	return (ts_limits){
		.max_kernel_names = 4096,
		.max_name_bytes = 8u << 20,
		.max_devices = TS_MAX_DEVICES,
		.busy_window = 16384,
	};
}

static const char *const memkind_names[TS_MEM_COUNT] = {
	"HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "Memset", "other",
};

const char *ts_memkind_name(ts_memkind k)
{
	return (unsigned)k < TS_MEM_COUNT ? memkind_names[k] : "other";
}

const ts_kclass ts_other_class = {
	.rule = -1, .category = -1, .type = TS_TYPE_OTHER, .short_name = "(other)",
};

ts_agg *ts_agg_new(const ts_limits *lim, const ts_patterns *patterns)
{
	ts_agg *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->patterns = patterns;
	a->lim = lim ? *lim : ts_limits_default();
	if (a->lim.max_devices > TS_MAX_DEVICES || a->lim.max_devices == 0)
		a->lim.max_devices = TS_MAX_DEVICES;
	a->names = ts_intern_new(a->lim.max_kernel_names, a->lim.max_name_bytes);
	if (!a->names) {
		free(a);
		return NULL;
	}
	return a;
}

void ts_agg_free(ts_agg *a)
{
	if (!a)
		return;
	uint32_t n = ts_intern_count(a->names);
	for (uint32_t i = 0; i < n; i++)
		ts_stat_clear(&a->rows[i]);
	ts_stat_clear(&a->other);
	ts_stat_clear(&a->all);
	for (int i = 0; i < a->ndev; i++) {
		ts_busy_free(a->dev[i].busy);
		for (int k = 0; k < TS_SPLIT_COUNT; k++)
			ts_busy_free(a->dev[i].split[k]);
	}
	ts_intern_free(a->names);
	free(a->ctx);
	free(a->rows);
	free(a->classes);
	free(a);
}

/* "Memcpy HtoD (Pinned -> Device)" -> HtoD. */
static ts_memkind memcpy_kind(const char *s, size_t len)
{
	static const char prefix[] = "Memcpy ";
	const size_t p = sizeof prefix - 1;
	if (len < p + 4 || memcmp(s, prefix, p) != 0)
		return TS_MEM_OTHER;
	for (int k = TS_MEM_HTOD; k <= TS_MEM_PTOP; k++) {
		if (memcmp(s + p, memkind_names[k], 4) == 0 &&
		    (len == p + 4 || s[p + 4] == ' '))
			return (ts_memkind)k;
	}
	return TS_MEM_OTHER;
}

/* The split's intervals held per device (the ones made empty: a kind
 * alone has fewer, longer runs than every kernel together). */
#define SPLIT_WINDOW(a) ((a)->lim.busy_window / 4 + 1)

/* Split k of device d, made when first needed (agg.h): computation and
 * kernels-with-copies from busy as it is, the others empty. NULL: out of
 * memory (the split then misses what comes). */
static ts_busy *split_of(const ts_agg *a, ts_device *d, int k)
{
	if (!d->split[k])
		d->split[k] = k == TS_SPLIT_COMPUTE || k == TS_SPLIT_ALL ? ts_busy_clone(d->busy)
			    : ts_busy_new(SPLIT_WINDOW(a));
	return d->split[k];
}

static void split_add(ts_busy *b, int64_t s, int64_t e)
{
	if (b)
		ts_busy_add(b, s, e);
}

static ts_device *device_for(ts_agg *a, int64_t id)
{
	for (int i = 0; i < a->ndev; i++)
		if (a->dev[i].id == id)
			return &a->dev[i];
	if ((uint32_t)a->ndev >= a->lim.max_devices)
		return NULL;
	ts_busy *b = ts_busy_new(a->lim.busy_window);
	if (!b)
		return NULL;
	ts_device *d = &a->dev[a->ndev++];
	*d = (ts_device){ .id = id, .busy = b };
	return d;
}

/* The row of a kernel name, added and classified when new; TS_ERR_FULL
 * past the cap (the (other) row). */
/* Room for row id: false without memory (every name interned has its
 * row, so a name is interned only once its row can be had). */
static bool rows_room(ts_agg *a, uint32_t id)
{
	size_t old = a->rows_cap;
	ts_grow_part parts[] = { { (void **)&a->rows, sizeof *a->rows },
				 { (void **)&a->classes, sizeof *a->classes },
				 { (void **)&a->ctx, TS_CTX_SLOTS * sizeof *a->ctx } };
	if (!ts_grow_each(parts, 3, &a->rows_cap, (size_t)id + 1, 64, a->lim.max_kernel_names,
			  true))
		return false;
	for (size_t i = old * TS_CTX_SLOTS; i < a->rows_cap * TS_CTX_SLOTS; i++)
		a->ctx[i].category = -1;
	return true;
}

/* hash: the name's ts_hash_bytes, or 0 (made here) */
static ts_status row_of_name(ts_agg *a, const char *name, size_t len, uint64_t hash,
			     uint32_t *out)
{
	uint32_t before = ts_intern_count(a->names);
	uint32_t id;
	/* a new name takes row `before`: make room first (past the cap,
	 * ts_intern_put refuses it) */
	if (before < a->lim.max_kernel_names && !rows_room(a, before))
		return TS_ERR_NOMEM;
	ts_status st = ts_intern_put_hashed(a->names, name, len, hash, &id);
	if (st != TS_OK)
		return st;
	if (id == before) {        /* a new name: classify it, once */
		int e = ts_platform_kernel_evidence(name, len);
		a->nvidia_names += e > 0;
		a->amd_names += e < 0;
		ts_classify(a->patterns, TS_CAT_KERNEL, name, len, &a->classes[id]);
	}
	*out = id;
	return TS_OK;
}

/* The row of a kernel name: its own, or the (other) row past the cap. */
static ts_status kernel_row(ts_agg *a, const ts_event *ev, ts_stat **row)
{
	uint32_t id;
	ts_status st = row_of_name(a, ev->name, ev->name_len, ev->name_hash, &id);
	if (st == TS_ERR_FULL) {
		*row = &a->other;
		return TS_OK;
	}
	if (st != TS_OK)
		return st;
	*row = &a->rows[id];
	return TS_OK;
}

static ts_status add_kernel(ts_agg *a, const ts_event *ev)
{
	a->kernels++;
	a->last_class = NULL;
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR) || ev->dur_ns < 0) {
		a->untimed_kernels++;
		return TS_OK;
	}
	ts_stat *row = NULL;
	ts_status st = kernel_row(a, ev, &row);
	if (st != TS_OK)
		return st;
	a->last_row = row == &a->other ? TS_INTERN_NONE : (uint32_t)(row - a->rows);
	a->last_class = row == &a->other ? &ts_other_class : &a->classes[a->last_row];
	if (st == TS_OK)
		st = ts_stat_add(row, ev->dur_ns);
	if (st == TS_OK)
		st = ts_stat_add(&a->all, ev->dur_ns);
	if (st != TS_OK)
		return st;
	int64_t end = ev->ts_ns + ev->dur_ns;
	if (!a->has_kspan || ev->ts_ns < a->k_first)
		a->k_first = ev->ts_ns;
	if (!a->has_kspan || end > a->k_last)
		a->k_last = end;
	a->has_kspan = true;
	int64_t dev = ev->has & TS_HAS_DEVICE ? ev->device
		    : ev->has & TS_HAS_PID ? ev->pid : 0;
	ts_device *d = device_for(a, dev);
	if (!d) {
		a->dev_overflow++;
		return TS_OK;
	}
	d->kernels++;
	d->kernel_ns = ts_sat_add(d->kernel_ns, ev->dur_ns);
	bool comm = a->last_class->type == TS_TYPE_COMMUNICATION;
	if (comm) {
		split_of(a, d, TS_SPLIT_COMPUTE);     /* before busy takes it */
		split_add(split_of(a, d, TS_SPLIT_COMM), ev->ts_ns, end);
	} else if (d->split[TS_SPLIT_COMPUTE]) {
		ts_busy_add(d->split[TS_SPLIT_COMPUTE], ev->ts_ns, end);
	}
	ts_busy_add(d->busy, ev->ts_ns, end);
	if (d->split[TS_SPLIT_ALL])
		ts_busy_add(d->split[TS_SPLIT_ALL], ev->ts_ns, end);
	return TS_OK;
}

static void add_memory(ts_agg *a, const ts_event *ev)
{
	ts_memkind k = ev->cat == TS_CAT_GPU_MEMSET ? TS_MEM_MEMSET
		     : memcpy_kind(ev->name, ev->name_len);
	ts_memrow *m = &a->mem[k];
	if (m->count == 0)
		ts_classify(a->patterns, ev->cat, ev->name, ev->name_len, &a->mem_class[k]);
	a->last_mem_class = &a->mem_class[k];
	m->count++;
	if ((ev->has & TS_HAS_DUR) && ev->dur_ns > 0)
		m->total_ns = ts_sat_add(m->total_ns, ev->dur_ns);
	if (ev->has & TS_HAS_BYTES) {
		m->bytes = ts_sat_add(m->bytes, ev->bytes);
		m->with_bytes++;
	}
	if (!(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR) || ev->dur_ns <= 0)
		return;
	ts_device *d = device_for(a, ev->has & TS_HAS_DEVICE ? ev->device
				  : ev->has & TS_HAS_PID ? ev->pid : 0);
	if (d) {
		split_add(split_of(a, d, TS_SPLIT_MEM), ev->ts_ns, ev->ts_ns + ev->dur_ns);
		split_add(split_of(a, d, TS_SPLIT_ALL), ev->ts_ns, ev->ts_ns + ev->dur_ns);
	}
}

static void add_span(ts_agg *a, const ts_event *ev)
{
	if (ev->cat == TS_CAT_METADATA || !(ev->has & TS_HAS_TS))
		return;
	int64_t end = ev->ts_ns;
	if ((ev->has & TS_HAS_DUR) && ev->dur_ns > 0)
		end += ev->dur_ns;
	if (!a->has_span || ev->ts_ns < a->first_ts)
		a->first_ts = ev->ts_ns;
	if (!a->has_span || end > a->last_end)
		a->last_end = end;
	a->has_span = true;
}

ts_status ts_agg_event(ts_agg *a, const ts_event *ev)
{
	a->events++;
	a->counts[ev->cat]++;
	add_span(a, ev);
	switch (ev->cat) {
	case TS_CAT_KERNEL:
		return add_kernel(a, ev);
	case TS_CAT_GPU_MEMCPY:
	case TS_CAT_GPU_MEMSET:
		add_memory(a, ev);
		return TS_OK;
	case TS_CAT_CUDA_RUNTIME:
	case TS_CAT_CUDA_DRIVER: {
		int e = ts_platform_runtime_evidence(ev->name, ev->name_len);
		a->nvidia_runtime += e > 0;
		a->amd_runtime += e < 0;
		return TS_OK;
	}
	default:
		return TS_OK;
	}
}

int64_t ts_agg_busy_ns(const ts_agg *a)
{
	int64_t t = 0;
	for (int i = 0; i < a->ndev; i++)
		t += ts_busy_total(a->dev[i].busy);
	return t;
}

/* A device's split totals, a split not made yet read as what it stands
 * for (busy, or nothing). */
static void split_totals(const ts_device *d, int64_t *tot)
{
	for (int k = 0; k < TS_SPLIT_COUNT; k++)
		tot[k] = d->split[k] ? ts_busy_total(d->split[k])
		       : k == TS_SPLIT_COMPUTE || k == TS_SPLIT_ALL ? ts_busy_total(d->busy) : 0;
}

void ts_agg_overlap(const ts_agg *a, ts_overlap *o)
{
	*o = (ts_overlap){ 0 };
	for (int i = 0; i < a->ndev; i++) {
		const ts_device *d = &a->dev[i];
		int64_t busy = ts_busy_total(d->busy), tot[TS_SPLIT_COUNT];
		split_totals(d, tot);
		int64_t comp = tot[TS_SPLIT_COMPUTE], comm = tot[TS_SPLIT_COMM];
		int64_t mem = tot[TS_SPLIT_MEM], all = tot[TS_SPLIT_ALL];
		int64_t ch = comm + comp - busy, mh = mem + busy - all;
		o->compute_ns = ts_sat_add(o->compute_ns, comp);
		o->comm_ns = ts_sat_add(o->comm_ns, comm);
		o->mem_ns = ts_sat_add(o->mem_ns, mem);
		o->busy_ns = ts_sat_add(o->busy_ns, busy);
		o->all_ns = ts_sat_add(o->all_ns, all);
		o->comm_hidden_ns += ch < 0 ? 0 : ch > comm ? comm : ch;
		o->mem_hidden_ns += mh < 0 ? 0 : mh > mem ? mem : mh;
	}
}

uint64_t ts_agg_busy_late(const ts_agg *a)
{
	uint64_t n = 0;
	for (int i = 0; i < a->ndev; i++)
		n += ts_busy_late(a->dev[i].busy);
	return n;
}

const ts_device *ts_agg_main_device(const ts_agg *a)
{
	const ts_device *best = NULL;
	for (int i = 0; i < a->ndev; i++)
		if (!best || a->dev[i].kernel_ns > best->kernel_ns)
			best = &a->dev[i];
	return best;
}

size_t ts_agg_bytes(const ts_agg *a)
{
	size_t n = sizeof *a + ts_intern_bytes(a->names) +
		   a->rows_cap * (sizeof *a->rows + sizeof *a->classes + TS_CTX_SLOTS * sizeof *a->ctx);
	uint32_t rows = ts_intern_count(a->names);
	for (uint32_t i = 0; i < rows; i++)
		n += ts_hist_bytes(&a->rows[i].hist);
	n += ts_hist_bytes(&a->other.hist) + ts_hist_bytes(&a->all.hist);
	for (int i = 0; i < a->ndev; i++)
		for (int k = -1; k < TS_SPLIT_COUNT; k++)
			n += k < 0 || a->dev[i].split[k] ? (2 * (size_t)a->lim.busy_window + 1) * 16 : 0;
	return n;
}

const ts_kclass *ts_agg_class(const ts_agg *a, uint32_t row)
{
	return row == TS_INTERN_NONE || row >= a->rows_cap ? &ts_other_class : &a->classes[row];
}

/* The slot of row's contexts holding category, a free one taken for it;
 * -1 when every slot holds another. */
static int ctx_slot(ts_agg *a, uint32_t row, int category, const ts_kclass *cls)
{
	ts_ctxrow *x = &a->ctx[(size_t)row * TS_CTX_SLOTS];
	for (int k = 0; k < TS_CTX_SLOTS; k++) {
		if (x[k].category == category)
			return k;
		if (x[k].category < 0) {
			x[k].category = category;
			x[k].cls = *cls;
			x[k].cls.category = category;
			x[k].cls.type = ts_patterns_category(a->patterns, (size_t)category)->type;
			return k;
		}
	}
	return -1;
}

const ts_kclass *ts_agg_context(ts_agg *a, uint32_t row, int category, int64_t dur,
				unsigned *slot)
{
	*slot = 0;
	if (row >= a->rows_cap || category < 0 || !a->patterns)
		return NULL;
	int k = ctx_slot(a, row, category, &a->classes[row]);
	if (k < 0) {
		a->ctx_conflicts++;
		return NULL;
	}
	ts_ctxrow *x = &a->ctx[(size_t)row * TS_CTX_SLOTS + (size_t)k];
	x->count++;
	x->ns = ts_sat_add(x->ns, dur);
	*slot = (unsigned)k + 1;
	return &x->cls;
}

int ts_agg_ctx_total(const ts_agg *a, uint32_t row, uint64_t *count, int64_t *ns)
{
	const ts_ctxrow *x = ts_agg_ctx(a, row);
	int used = 0;
	*count = 0;
	*ns = 0;
	for (int k = 0; k < TS_CTX_SLOTS && x[k].category >= 0; k++) {
		*count += x[k].count;
		*ns = ts_sat_add(*ns, x[k].ns);
		used += x[k].count > 0;
	}
	return used;
}

/* ------------------------------------------------------ saved partials */

/* A class by what does not depend on the tables' order: the category's
 * name (-1: none), the type, the stage hint and the short name. */
static void kclass_save(const ts_agg *a, const ts_kclass *c, ts_wbuf *w)
{
	const char *cat = c->category >= 0 && a->patterns
		? ts_patterns_category(a->patterns, (size_t)c->category)->name : "";
	ts_w_str(w, cat, strlen(cat));
	ts_w_u32(w, (uint32_t)c->type);
	ts_w_u32(w, (uint32_t)c->stage);
	ts_w_str(w, c->short_name, strlen(c->short_name));
}

static int category_named(const ts_patterns *p, const char *s, size_t n)
{
	for (size_t i = 0; p && n && i < ts_patterns_ncategories(p); i++) {
		const char *name = ts_patterns_category(p, i)->name;
		if (strlen(name) == n && memcmp(name, s, n) == 0)
			return (int)i;
	}
	return -1;
}

static void kclass_load(const ts_agg *a, ts_kclass *c, ts_rbuf *r)
{
	size_t n, sn;
	const char *cat = ts_r_str(r, &n);
	uint32_t type = ts_r_u32(r), stage = ts_r_u32(r);
	const char *sh = ts_r_str(r, &sn);
	if (r->err)
		return;
	if (type >= TS_TYPE_COUNT || stage > TS_STAGE_DECODE || sn > TS_SHORT_MAX) {
		ts_r_fail(r, "a kernel class out of range");
		return;
	}
	*c = (ts_kclass){ .rule = -1, .category = category_named(a->patterns, cat, n),
			  .type = (ts_ktype)type, .stage = (ts_stage_hint)stage };
	memcpy(c->short_name, sh, sn);
	c->short_name[sn] = '\0';
}

void ts_agg_save(const ts_agg *a, ts_wbuf *w)
{
	for (int c = 0; c < TS_CAT_COUNT; c++)
		ts_w_u64(w, a->counts[c]);
	ts_w_u64(w, a->events);
	ts_w_u64(w, a->kernels);
	ts_w_u64(w, a->untimed_kernels);
	ts_stat_save(&a->other, w);
	ts_stat_save(&a->all, w);
	uint32_t n = ts_intern_count(a->names);
	ts_w_u64(w, n);
	for (uint32_t i = 0; i < n; i++) {
		size_t len;
		const char *name = ts_intern_str(a->names, i, &len);
		ts_w_str(w, name, len);
		ts_stat_save(&a->rows[i], w);
		const ts_ctxrow *x = ts_agg_ctx(a, i);
		uint8_t used = 0;
		while (used < TS_CTX_SLOTS && x[used].category >= 0)
			used++;
		ts_w_u8(w, used);
		for (uint8_t k = 0; k < used; k++) {
			ts_w_u64(w, x[k].count);
			ts_w_i64(w, x[k].ns);
			kclass_save(a, &x[k].cls, w);
		}
	}
	ts_w_u64(w, a->ctx_conflicts);
	for (int k = 0; k < TS_MEM_COUNT; k++) {
		const ts_memrow *m = &a->mem[k];
		ts_w_u64(w, m->count);
		ts_w_i64(w, m->total_ns);
		ts_w_i64(w, m->bytes);
		ts_w_u64(w, m->with_bytes);
		if (m->count)
			kclass_save(a, &a->mem_class[k], w);
	}
	ts_w_u64(w, (uint64_t)a->ndev);
	for (int i = 0; i < a->ndev; i++) {
		const ts_device *d = &a->dev[i];
		ts_w_i64(w, d->id);
		ts_w_u64(w, d->kernels);
		ts_w_i64(w, d->kernel_ns);
		ts_w_i64(w, ts_busy_total(d->busy));
		ts_w_u64(w, ts_busy_late(d->busy));
		int64_t tot[TS_SPLIT_COUNT];
		split_totals(d, tot);
		for (int k = 0; k < TS_SPLIT_COUNT; k++)
			ts_w_i64(w, tot[k]);
	}
	ts_w_u64(w, a->dev_overflow);
	ts_w_u8(w, a->has_span);
	ts_w_i64(w, a->first_ts);
	ts_w_i64(w, a->last_end);
	ts_w_u8(w, a->has_kspan);
	ts_w_i64(w, a->k_first);
	ts_w_i64(w, a->k_last);
	ts_w_u64(w, (uint64_t)a->nvidia_names);
	ts_w_u64(w, (uint64_t)a->amd_names);
	ts_w_u64(w, a->nvidia_runtime);
	ts_w_u64(w, a->amd_runtime);
}

/* A saved row's context classes (see ts_agg_context), into row id's
 * slots (none for TS_INTERN_NONE, the (other) row); slots[k]: the slot
 * the saved k-th went to, + 1. false when the part is bad. */
static bool load_ctx(ts_agg *a, ts_rbuf *r, uint32_t id, uint8_t *slots)
{
	uint8_t used = ts_r_u8(r);
	if (used > TS_CTX_SLOTS) {
		ts_r_fail(r, "more context slots than a kernel name holds");
		return false;
	}
	for (uint8_t k = 0; k < used; k++) {
		uint64_t count = ts_r_u64(r);
		int64_t ns = ts_r_i64(r);
		ts_kclass cls;
		kclass_load(a, &cls, r);
		if (r->err)
			return false;
		if (id == TS_INTERN_NONE)
			continue;
		int to = cls.category >= 0 && a->patterns ? ctx_slot(a, id, cls.category, &cls) : -1;
		if (to < 0) {
			a->ctx_conflicts += count;
			continue;
		}
		ts_ctxrow *x = &a->ctx[(size_t)id * TS_CTX_SLOTS + (size_t)to];
		x->count += count;
		x->ns = ts_sat_add(x->ns, ns);
		slots[k] = (uint8_t)(to + 1);
	}
	return true;
}

/* A saved part's memory rows, devices and spans, added (r->err says
 * whether they were whole). */
static void load_totals(ts_agg *a, ts_rbuf *r)
{
	for (int k = 0; k < TS_MEM_COUNT; k++) {
		ts_memrow *mr = &a->mem[k];
		uint64_t count = ts_r_u64(r);
		int64_t total = ts_r_i64(r), bytes = ts_r_i64(r);
		uint64_t with = ts_r_u64(r);
		if (count) {
			ts_kclass cls;
			kclass_load(a, &cls, r);
			if (mr->count == 0)
				a->mem_class[k] = cls;
		}
		mr->count += count;
		mr->total_ns = ts_sat_add(mr->total_ns, total);
		mr->bytes = ts_sat_add(mr->bytes, bytes);
		mr->with_bytes += with;
	}
	uint64_t ndev = ts_r_count(r, (5 + TS_SPLIT_COUNT) * 8);
	for (uint64_t i = 0; i < ndev && !r->err; i++) {
		int64_t id = ts_r_i64(r);
		uint64_t kernels = ts_r_u64(r);
		int64_t kns = ts_r_i64(r), busy = ts_r_i64(r), split[TS_SPLIT_COUNT];
		uint64_t late = ts_r_u64(r);
		for (int k = 0; k < TS_SPLIT_COUNT; k++)
			split[k] = ts_r_i64(r);
		if (r->err)
			break;
		ts_device *d = device_for(a, id);
		if (!d) {
			a->dev_overflow += kernels;
			continue;
		}
		d->kernels += kernels;
		d->kernel_ns = ts_sat_add(d->kernel_ns, kns);
		/* the splits first: one made now starts from busy as it was */
		for (int k = 0; k < TS_SPLIT_COUNT; k++)
			if (split_of(a, d, k))
				ts_busy_add_totals(d->split[k], split[k], 0);
		ts_busy_add_totals(d->busy, busy, late);
	}
	a->dev_overflow = ts_sat_addu(a->dev_overflow, ts_r_u64(r));
	bool has_span = ts_r_u8(r);
	int64_t first = ts_r_i64(r), last = ts_r_i64(r);
	bool has_kspan = ts_r_u8(r);
	int64_t kf = ts_r_i64(r), kl = ts_r_i64(r);
	if (has_span) {
		if (!a->has_span || first < a->first_ts)
			a->first_ts = first;
		if (!a->has_span || last > a->last_end)
			a->last_end = last;
		a->has_span = true;
	}
	if (has_kspan) {
		if (!a->has_kspan || kf < a->k_first)
			a->k_first = kf;
		if (!a->has_kspan || kl > a->k_last)
			a->k_last = kl;
		a->has_kspan = true;
	}
}

ts_status ts_agg_load(ts_agg *a, ts_rbuf *r, uint32_t **map, uint8_t **slots, uint32_t *nmap)
{
	*map = NULL;
	*slots = NULL;
	*nmap = 0;
	for (int c = 0; c < TS_CAT_COUNT; c++)
		a->counts[c] = ts_sat_addu(a->counts[c], ts_r_u64(r));
	a->events = ts_sat_addu(a->events, ts_r_u64(r));
	a->kernels = ts_sat_addu(a->kernels, ts_r_u64(r));
	a->untimed_kernels = ts_sat_addu(a->untimed_kernels, ts_r_u64(r));
	ts_status st = ts_stat_load(&a->other, r);
	if (st == TS_OK)
		st = ts_stat_load(&a->all, r);
	/* a row is at least a name length, a stat and a flag */
	uint64_t n = st == TS_OK ? ts_r_count(r, 4 + 8 * 8 + 1) : 0;
	if (st != TS_OK || r->err)
		return st != TS_OK ? st : TS_ERR_PARTIAL;
	uint32_t *m = malloc((n ? n : 1) * sizeof *m);
	uint8_t *sl = calloc((n ? n : 1) * TS_CTX_SLOTS, 1);
	*map = m;
	*slots = sl;
	if (!m || !sl)
		return TS_ERR_NOMEM;
	*nmap = (uint32_t)n;
	for (uint64_t i = 0; i < n; i++) {
		size_t len;
		const char *name = ts_r_str(r, &len);
		if (r->err)
			return TS_ERR_PARTIAL;
		uint32_t id;
		st = row_of_name(a, name, len, 0, &id);
		if (st == TS_ERR_FULL)
			id = TS_INTERN_NONE;
		else if (st != TS_OK)
			return st;
		m[i] = id;
		st = ts_stat_load(id == TS_INTERN_NONE ? &a->other : &a->rows[id], r);
		if (st != TS_OK)
			return st;
		if (!load_ctx(a, r, id, sl + i * TS_CTX_SLOTS))
			return TS_ERR_PARTIAL;
	}
	a->ctx_conflicts = ts_sat_addu(a->ctx_conflicts, ts_r_u64(r));
	load_totals(a, r);
	ts_r_add_int(r, &a->nvidia_names);
	ts_r_add_int(r, &a->amd_names);
	a->nvidia_runtime = ts_sat_addu(a->nvidia_runtime, ts_r_u64(r));
	a->amd_runtime = ts_sat_addu(a->amd_runtime, ts_r_u64(r));
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

void ts_agg_warnings(const ts_agg *a, ts_warns *w)
{
	if (a->other.count)
		ts_warn(w, "%" PRIu64 " kernel launches past the cap of %u distinct kernel names were "
			"folded into the (other) row", a->other.count, a->lim.max_kernel_names);
	if (a->untimed_kernels)
		ts_warn(w, "%" PRIu64 " kernel events without ts or dur were counted but not timed",
			a->untimed_kernels);
	if (a->dev_overflow)
		ts_warn(w, "%" PRIu64 " kernels ran on devices past the cap of %u and are left out of "
			"busy time", a->dev_overflow, a->lim.max_devices);
	uint64_t late = ts_agg_busy_late(a);
	if (late)
		ts_warn(w, "%" PRIu64 " kernels arrived more than %u intervals out of order; GPU busy "
			"time is approximate", late, a->lim.busy_window);
}

const ts_kclass *ts_agg_row_class(const ts_agg *a, uint32_t row)
{
	if (row >= a->rows_cap)
		return &ts_other_class;
	const ts_ctxrow *x = a->ctx ? ts_agg_ctx(a, row) : NULL;
	for (int k = 0; x && k < TS_CTX_SLOTS && x[k].category >= 0; k++)
		if (2 * x[k].ns > a->rows[row].total)
			return &x[k].cls;
	return &a->classes[row];
}
