/*
 * memory.c - device memory over the step (memory.h): the allocator's
 * events per device, and each pass's peak and growth.
 */
#include "analysis/views/memory.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/layers/layers.h"
#include "analysis/views/memory_ops.h"
#include "input/base/grow.h"

/* One event, or neighbours merged: their span, peaks, first and last. */
typedef struct {
	int64_t t0, t1;
	int64_t max_alloc, max_res;
	int64_t last_alloc;
	int64_t before;              /* allocated before its first event */
	uint64_t addr;               /* its block (one event; UINT64_MAX: none) */
	uint32_t seq;                /* arrival, for a stable sort */
	uint16_t thread;             /* ts_mem_ops_thread's slot */
	uint8_t dev;
} rec;

struct ts_memory {
	ts_mem_device dev[TS_MEM_DEVICES];
	size_t ndev;
	uint64_t cpu_events, other_devices;
	rec *recs;
	size_t nrec, cap;
	bool merged;                 /* a record spans several events */
	uint32_t seq;
	ts_mem_ops *ops;             /* the CPU's ops, for the owners at the peak */
	ts_mem_peak peak[TS_MEM_DEVICES];
	ts_mem_pass *passes;
	size_t npasses;
	size_t part_passes;          /* the run's passes (its rows, or none) */
	size_t loaded_passes;        /* a merge: the parts' passes so far */
	ts_mem_stage st[TS_PSTAGE_COUNT];
	size_t lo, hi;               /* after the run: the main device's records */
	size_t dlo[TS_MEM_DEVICES], dhi[TS_MEM_DEVICES]; /* and each device's */
	int64_t over_device;         /* a GPU whose peak passed the device's memory, -1 none */
	int64_t over_bytes, device_bytes;
};

static void *mem_make(const ts_patterns *p)
{
	(void)p;
	ts_memory *m = calloc(1, sizeof(ts_memory));
	if (m && !(m->ops = ts_mem_ops_new())) {
		free(m);
		return NULL;
	}
	if (m)
		m->over_device = -1;
	return m;
}

/* A figure no device of the trace's kind can hold (its totalGlobalMem,
 * deviceProperties): the events are another device's or wrong; said in
 * a warning, the first such device. */
static void check_device(ts_memory *m, const ts_result *res)
{
	const ts_devprop *dp = ts_result_devprop(res);
	if (!dp || dp->memory_bytes <= 0)
		return;
	for (size_t i = 0; i < m->ndev && m->over_device < 0; i++) {
		const ts_mem_device *d = &m->dev[i];
		int64_t top = d->peak_reserved > d->peak_allocated ? d->peak_reserved : d->peak_allocated;
		if (top > dp->memory_bytes) {
			m->over_device = d->device;
			m->over_bytes = top;
			m->device_bytes = dp->memory_bytes;
		}
	}
}

static int by_time(const void *a, const void *b)
{
	const rec *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Room for more: neighbours of a device merged in pairs. */
static void compact(ts_memory *m)
{
	if (m->nrec > 1)
		qsort(m->recs, m->nrec, sizeof *m->recs, by_time);
	size_t out = 0;
	for (size_t i = 0; i < m->nrec; i++) {
		rec r = m->recs[i];
		if (i + 1 < m->nrec && m->recs[i + 1].dev == r.dev) {
			const rec *n = &m->recs[++i];
			r.t1 = n->t1 > r.t1 ? n->t1 : r.t1;
			r.max_alloc = n->max_alloc > r.max_alloc ? n->max_alloc : r.max_alloc;
			r.max_res = n->max_res > r.max_res ? n->max_res : r.max_res;
			r.last_alloc = n->last_alloc;
		}
		m->recs[out++] = r;
	}
	m->nrec = out;
	m->merged = true;
}

static ts_mem_device *device_of(ts_memory *m, int64_t id)
{
	for (size_t i = 0; i < m->ndev; i++)
		if (m->dev[i].device == id)
			return &m->dev[i];
	if (m->ndev == TS_MEM_DEVICES)
		return NULL;
	ts_mem_device *d = &m->dev[m->ndev++];
	*d = (ts_mem_device){ .device = id, .peak_allocated = INT64_MIN, .peak_reserved = -1,
			      .reserved_at_peak_allocated = -1, .allocated_at_peak_reserved = -1,
			      .last_reserved = -1, .first_ns = INT64_MAX, .last_ns = INT64_MIN };
	return d;
}

static void count(ts_mem_device *d, const ts_mem_args *a, int64_t t)
{
	d->events++;
	if (a->bytes > 0) {
		d->allocs++;
		d->bytes_allocated += a->bytes;
	} else if (a->bytes < 0) {
		d->frees++;
		d->bytes_freed -= a->bytes;
	}
	if (a->allocated > d->peak_allocated) {
		d->peak_allocated = a->allocated;
		d->peak_allocated_ns = t;
		d->reserved_at_peak_allocated = a->reserved;
	}
	if (a->reserved > d->peak_reserved) {
		d->peak_reserved = a->reserved;
		d->peak_reserved_ns = t;
		d->allocated_at_peak_reserved = a->allocated;
	}
	if (t < d->first_ns) {
		d->first_ns = t;
		d->first_allocated = a->allocated;
	}
	if (t >= d->last_ns) {
		d->last_ns = t;
		d->last_allocated = a->allocated;
		d->last_reserved = a->reserved;
	}
}

static void mem_event(void *mp, const ts_event *ev)
{
	ts_memory *m = mp;
	if (ev->cat == TS_CAT_CPU_OP) {
		ts_mem_ops_add(m->ops, ev);
		return;
	}
	if (!(ev->has & TS_HAS_MEM) || !(ev->has & TS_HAS_TS) || ev->name_len != 8 ||
	    memcmp(ev->name, "[memory]", 8) != 0)
		return;
	if (ev->mem.device_type == 0 || ev->mem.device < 0) {
		m->cpu_events++;
		return;
	}
	ts_mem_device *d = device_of(m, ev->mem.device);
	if (!d) {
		m->other_devices++;
		return;
	}
	ts_mem_args a = ev->mem;
	if (a.allocated < 0 || d->relative) {
		/* no totals: the allocated bytes since the capture began */
		d->relative = true;
		d->sum += a.bytes;
		a.allocated = d->sum;
		a.reserved = -1;
	}
	count(d, &a, ev->ts_ns);
	if (m->nrec == TS_MEM_RECORDS)
		compact(m);
	if (!ts_grow((void **)&m->recs, &m->cap, m->nrec + 1, sizeof *m->recs, 1024,
		     TS_MEM_RECORDS, false))
		return;
	m->recs[m->nrec++] = (rec){ ev->ts_ns, ev->ts_ns, a.allocated, a.reserved, a.allocated,
				    a.allocated - a.bytes, a.addr >= 0 ? (uint64_t)a.addr : UINT64_MAX,
				    m->seq++, ts_mem_ops_thread(m->ops, ev->tid), (uint8_t)(d - m->dev) };
}

/* The pass's window: its step on the CPU, else its launches, else its
 * GPU span. */
static const char *window(const ts_pass *p, int64_t *from, int64_t *to)
{
	if (p->cwin_from != INT64_MIN && p->cwin_to > p->cwin_from) {
		*from = p->cwin_from, *to = p->cwin_to;
		return "step";
	}
	if (p->idle.first_launch_ns != INT64_MIN && p->idle.last_launch_ns >= p->idle.first_launch_ns) {
		*from = p->idle.first_launch_ns, *to = p->idle.last_launch_ns;
		return "launches";
	}
	*from = p->first_ts, *to = p->last_end;
	return "gpu";
}

/* Device dv's records [lo, hi) (sorted): the pass's figures. */
static void pass_figures(const rec *r, size_t lo, size_t hi, ts_mem_pass *x)
{
	/* the first record ending in the window or after it (records lie in
	 * time order and do not overlap: their ends rise too) */
	size_t i = lo, j = hi;
	while (i < j) {
		size_t mid = i + (j - i) / 2;
		if (r[mid].t1 < x->from_ns)
			i = mid + 1;
		else
			j = mid;
	}
	/* allocated as the window opens: after the event before it, else
	 * before its first (that event's total less its own bytes) */
	int64_t before = i > lo ? r[i - 1].last_alloc
		       : i < hi && r[i].t0 <= x->to_ns ? r[i].before : INT64_MIN;
	int64_t end = before;
	x->peak_allocated = INT64_MIN;
	x->peak_reserved = -1;
	for (; i < hi && r[i].t0 <= x->to_ns; i++) {
		x->events++;
		if (r[i].max_alloc > x->peak_allocated)
			x->peak_allocated = r[i].max_alloc;
		if (r[i].max_res > x->peak_reserved)
			x->peak_reserved = r[i].max_res;
		end = r[i].last_alloc;
	}
	x->growth = before == INT64_MIN ? INT64_MIN : end - before;
}

/* Device dv's records [lo, hi): the owners of what it held at its peak. */
static void peak_owners(ts_memory *m, size_t dv, size_t lo, size_t hi)
{
	const ts_mem_device *d = &m->dev[dv];
	ts_mem_peak *pk = &m->peak[dv];
	if (m->merged) {
		pk->status = TS_MEMPEAK_MERGED;
		return;
	}
	size_t top = lo;
	while (top < hi && m->recs[top].max_alloc != d->peak_allocated)
		top++;
	if (top == hi)
		return;
	ts_mem_point *pts = malloc((top - lo + 1) * sizeof *pts);
	if (!pts)
		return;
	for (size_t i = lo; i <= top; i++) {
		const rec *r = &m->recs[i];
		if (r->addr == UINT64_MAX) {
			free(pts);
			pk->status = TS_MEMPEAK_NO_ADDR;
			return;
		}
		pts[i - lo] = (ts_mem_point){ r->t0, r->addr, r->last_alloc - r->before, r->thread };
	}
	ts_mem_ops_peak(m->ops, pts, top - lo + 1, d->peak_allocated, pk);
	free(pts);
}

/* A stage's figures: its complete passes' on the main device. */
static void stage_figures(ts_memory *m, const ts_pass *p, const ts_mem_pass *x)
{
	if (!p->complete || p->draft || !x->events || p->stage >= TS_PSTAGE_COUNT)
		return;
	ts_mem_stage *s = &m->st[p->stage];
	if (s->passes++ == 0)
		s->peak_allocated = s->peak_reserved = INT64_MIN;
	if (x->peak_allocated > s->peak_allocated)
		s->peak_allocated = x->peak_allocated;
	if (x->peak_reserved > s->peak_reserved)
		s->peak_reserved = x->peak_reserved;
	if (x->growth != INT64_MIN) {
		s->grown++;
		s->growth_sum += x->growth;
	}
}

/* Each pass's figures: a row of the main device's records, then one of
 * each other GPU's that had events in the pass's window (a process that
 * runs its model over several GPUs, its layers spread over them). */
static void pass_all(ts_memory *m, const ts_result *res, size_t main)
{
	size_t n = ts_layers_npasses(res->layers);
	if (!n || !(m->passes = calloc(n * m->ndev, sizeof *m->passes)))
		return;
	for (size_t i = 0; i < n; i++) {
		const ts_pass *p = ts_layers_pass(res->layers, i);
		for (size_t k = 0; k < m->ndev; k++) {
			size_t dv = k == 0 ? main : k <= main ? k - 1 : k;
			ts_mem_pass *x = &m->passes[m->npasses];
			*x = (ts_mem_pass){ .pass = (uint32_t)i, .device = m->dev[dv].device };
			x->window = window(p, &x->from_ns, &x->to_ns);
			pass_figures(m->recs, m->dlo[dv], m->dhi[dv], x);
			if (dv == main)
				stage_figures(m, p, x);
			if (dv == main || x->events)
				m->npasses++;
		}
	}
}

static void mem_finish(void *mp, const ts_result *res)
{
	ts_memory *m = mp;
	m->part_passes = res->layers ? ts_layers_npasses(res->layers) : 0;
	if (m->ndev == 0)
		return;
	check_device(m, res);
	if (m->nrec > 1)
		qsort(m->recs, m->nrec, sizeof *m->recs, by_time);
	size_t main = 0;
	for (size_t i = 1; i < m->ndev; i++)
		if (m->dev[i].events > m->dev[main].events)
			main = i;
	for (size_t dv = 0, lo = 0; dv < m->ndev; dv++) {
		size_t hi = lo;
		while (hi < m->nrec && m->recs[hi].dev == dv)
			hi++;
		peak_owners(m, dv, lo, hi);
		m->dlo[dv] = lo;
		m->dhi[dv] = hi;
		if (dv == main) {
			m->lo = lo;
			m->hi = hi;
		}
		lo = hi;
	}
	if (res->layers)
		pass_all(m, res, main);
}

/* A partial keeps the devices and the stages (a pass's figures are of
 * its own run), field by field. */
static void put_device(ts_wbuf *w, const ts_mem_device *d)
{
	const int64_t f[] = { d->device, (int64_t)d->events, (int64_t)d->allocs, (int64_t)d->frees,
			      d->bytes_allocated, d->bytes_freed, d->peak_allocated,
			      d->peak_allocated_ns, d->peak_reserved, d->peak_reserved_ns,
			      d->allocated_at_peak_reserved, d->first_ns, d->first_allocated,
			      d->last_ns, d->last_allocated, d->last_reserved };
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		ts_w_i64(w, f[i]);
	ts_w_i64(w, d->reserved_at_peak_allocated);
	ts_w_u8(w, d->relative);
	ts_w_i64(w, d->sum);
}

static ts_mem_device get_device(ts_rbuf *r)
{
	int64_t f[16];
	for (size_t i = 0; i < 16; i++)
		f[i] = ts_r_i64(r);
	ts_mem_device d = { .device = f[0], .events = (uint64_t)f[1], .allocs = (uint64_t)f[2],
			    .frees = (uint64_t)f[3], .bytes_allocated = f[4], .bytes_freed = f[5],
			    .peak_allocated = f[6], .peak_allocated_ns = f[7], .peak_reserved = f[8],
			    .peak_reserved_ns = f[9], .allocated_at_peak_reserved = f[10],
			    .first_ns = f[11], .first_allocated = f[12], .last_ns = f[13],
			    .last_allocated = f[14], .last_reserved = f[15] };
	d.reserved_at_peak_allocated = ts_r_i64(r);
	d.relative = ts_r_u8(r) != 0;
	d.sum = ts_r_i64(r);
	return d;
}

/* A device's owners at its peak. */
static void put_peak(ts_wbuf *w, const ts_mem_peak *pk)
{
	ts_w_u8(w, (uint8_t)pk->status);
	ts_w_i64(w, pk->live_bytes);
	ts_w_u32(w, pk->live_allocations);
	ts_w_i64(w, pk->before_bytes);
	ts_w_u32(w, (uint32_t)pk->nrows);
	for (size_t i = 0; i < pk->nrows; i++) {
		const ts_memop_row *r = &pk->rows[i];
		ts_w_u8(w, (uint8_t)r->kind);
		ts_w_str(w, r->name, strlen(r->name));
		ts_w_i64(w, r->bytes);
		ts_w_u32(w, r->allocations);
	}
}

static ts_mem_peak get_peak(ts_rbuf *r)
{
	ts_mem_peak pk = { .status = (ts_mempeak_status)ts_r_u8(r) };
	pk.live_bytes = ts_r_i64(r);
	pk.live_allocations = ts_r_u32(r);
	pk.before_bytes = ts_r_i64(r);
	uint32_t n = ts_r_u32(r);
	if (pk.status > TS_MEMPEAK_UNEVEN || n > TS_MEMOP_ROWS) {
		ts_r_fail(r, "device memory: a peak's owners");
		return (ts_mem_peak){ 0 };
	}
	for (uint32_t i = 0; i < n && !r->err; i++) {
		ts_memop_row *x = &pk.rows[pk.nrows++];
		uint8_t kind = ts_r_u8(r);
		size_t len = 0;
		const char *s = ts_r_str(r, &len);
		if (kind > TS_MEMOP_OTHER || len >= sizeof x->name) {
			ts_r_fail(r, "device memory: a peak's owner");
			return (ts_mem_peak){ 0 };
		}
		x->kind = (ts_memop_kind)kind;
		if (s)
			memcpy(x->name, s, len);
		x->bytes = ts_r_i64(r);
		x->allocations = ts_r_u32(r);
	}
	return pk;
}

static const char *const windows[] = { "step", "launches", "gpu" };

static void put_pass(ts_wbuf *w, const ts_mem_pass *x)
{
	uint8_t k = 0;
	while (k < 2 && strcmp(windows[k], x->window) != 0)
		k++;
	ts_w_u32(w, x->pass);
	ts_w_i64(w, x->device);
	ts_w_u8(w, k);
	ts_w_i64(w, x->from_ns);
	ts_w_i64(w, x->to_ns);
	ts_w_i64(w, x->peak_allocated);
	ts_w_i64(w, x->peak_reserved);
	ts_w_i64(w, x->growth);
	ts_w_u32(w, x->events);
}

/* A part's pass rows after the parts before it (their passes counted,
 * rows or not), up to the passes the layers keep. */
static void load_passes(ts_memory *m, ts_rbuf *r)
{
	uint64_t part = ts_r_u64(r), n = ts_r_count(r, 4 + 8 + 1 + 5 * 8 + 4);
	size_t offset = m->loaded_passes;
	m->loaded_passes += (size_t)part;
	for (uint64_t i = 0; i < n && !r->err; i++) {
		ts_mem_pass x = { .pass = ts_r_u32(r) };
		x.device = ts_r_i64(r);
		uint8_t k = ts_r_u8(r);
		x.window = windows[k < 3 ? k : 2];
		x.from_ns = ts_r_i64(r);
		x.to_ns = ts_r_i64(r);
		x.peak_allocated = ts_r_i64(r);
		x.peak_reserved = ts_r_i64(r);
		x.growth = ts_r_i64(r);
		x.events = ts_r_u32(r);
		if (r->err || k > 2 || x.pass >= part) {
			ts_r_fail(r, "device memory: a pass row");
			return;
		}
		if (offset + x.pass >= TS_MAX_PASSES)
			continue;
		x.pass += (uint32_t)offset;
		ts_mem_pass *g = realloc(m->passes, (m->npasses + 1) * sizeof *g);
		if (!g)
			return;
		m->passes = g;
		m->passes[m->npasses++] = x;
	}
}

static void mem_save(const void *mp, ts_wbuf *w)
{
	const ts_memory *m = mp;
	ts_w_u64(w, m->cpu_events);
	ts_w_u64(w, m->other_devices);
	ts_w_u8(w, m->merged);
	ts_w_u64(w, m->ndev);
	for (size_t i = 0; i < m->ndev; i++) {
		put_device(w, &m->dev[i]);
		put_peak(w, &m->peak[i]);
	}
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		const ts_mem_stage *x = &m->st[s];
		ts_w_u32(w, x->passes);
		ts_w_i64(w, x->peak_allocated);
		ts_w_i64(w, x->peak_reserved);
		ts_w_u32(w, x->grown);
		ts_w_i64(w, x->growth_sum);
	}
	ts_w_i64(w, m->over_device);
	ts_w_i64(w, m->over_bytes);
	ts_w_i64(w, m->device_bytes);
	/* each pass's row, its index its run's: a merge puts the parts'
	 * passes one after another, as the layers' do */
	ts_w_u64(w, m->part_passes);
	ts_w_u64(w, m->npasses);
	for (size_t i = 0; i < m->npasses; i++)
		put_pass(w, &m->passes[i]);
}

static ts_status mem_load(void *mp, ts_rbuf *r)
{
	ts_memory *m = mp;
	m->cpu_events += ts_r_u64(r);
	m->other_devices += ts_r_u64(r);
	m->merged |= ts_r_u8(r) != 0;
	uint64_t n = ts_r_count(r, 18 * sizeof(int64_t));
	for (uint64_t i = 0; i < n && !r->err; i++) {
		ts_mem_device d = get_device(r);
		ts_mem_peak pk = get_peak(r);
		if (m->ndev < TS_MEM_DEVICES) {
			m->peak[m->ndev] = pk;
			m->dev[m->ndev++] = d;    /* a rank's device: its own row */
		} else
			m->other_devices += d.events;
	}
	for (int s = 0; s < TS_PSTAGE_COUNT && !r->err; s++) {
		ts_mem_stage x = { .passes = ts_r_u32(r) };
		x.peak_allocated = ts_r_i64(r);
		x.peak_reserved = ts_r_i64(r);
		x.grown = ts_r_u32(r);
		x.growth_sum = ts_r_i64(r);
		ts_mem_stage *y = &m->st[s];
		if (!x.passes)
			continue;
		if (!y->passes)
			y->peak_allocated = y->peak_reserved = INT64_MIN;
		y->passes += x.passes;
		y->grown += x.grown;
		y->growth_sum += x.growth_sum;
		if (x.peak_allocated > y->peak_allocated)
			y->peak_allocated = x.peak_allocated;
		if (x.peak_reserved > y->peak_reserved)
			y->peak_reserved = x.peak_reserved;
	}
	int64_t over = ts_r_i64(r), over_bytes = ts_r_i64(r), device_bytes = ts_r_i64(r);
	if (m->over_device < 0 && over >= 0) {
		m->over_device = over;
		m->over_bytes = over_bytes;
		m->device_bytes = device_bytes;
	}
	load_passes(m, r);
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

static void mem_warnings(const void *mp, ts_warns *w)
{
	const ts_memory *m = mp;
	if (m->merged)
		ts_warn(w, "device memory: more than %u allocator events; neighbours were merged, so "
			"a pass's memory peak and growth are to a merged record at its edges", TS_MEM_RECORDS);
	if (m->over_device >= 0)
		ts_warn(w, "device memory: GPU %" PRId64 "'s allocator held %" PRId64 " bytes, more than "
			"the device's %" PRId64 " (deviceProperties totalGlobalMem): its [memory] events are "
			"another device's or wrong", m->over_device, m->over_bytes, m->device_bytes);
	if (m->other_devices)
		ts_warn(w, "device memory: %" PRIu64 " allocator events of devices past the first %d "
			"are not counted", m->other_devices, TS_MEM_DEVICES);
}

static void mem_free(void *mp)
{
	ts_memory *m = mp;
	if (!m)
		return;
	free(m->recs);
	free(m->passes);
	ts_mem_ops_free(m->ops);
	free(m);
}

const ts_module ts_memory_module = {
	.name = "memory",
	.cats = 1u << TS_CAT_OTHER | 1u << TS_CAT_CPU_OP,
	.make = mem_make, .event = mem_event, .finish = mem_finish,
	.save = mem_save, .load = mem_load, .warnings = mem_warnings, .free = mem_free,
};

const ts_memory *ts_memory_of(const ts_result *res)
{
	return ts_result_module(res, &ts_memory_module);
}

size_t ts_memory_ndevices(const ts_memory *m)
{
	return m ? m->ndev : 0;
}

const ts_mem_device *ts_memory_device(const ts_memory *m, size_t i)
{
	return m && i < m->ndev ? &m->dev[i] : NULL;
}

size_t ts_memory_npasses(const ts_memory *m)
{
	return m ? m->npasses : 0;
}

const ts_mem_pass *ts_memory_pass(const ts_memory *m, size_t i)
{
	return m && i < m->npasses ? &m->passes[i] : NULL;
}

const ts_mem_peak *ts_memory_peak(const ts_memory *m, size_t i)
{
	return m && i < m->ndev ? &m->peak[i] : NULL;
}

const ts_mem_stage *ts_memory_stage(const ts_memory *m, int stage)
{
	return m && stage >= 0 && stage < TS_PSTAGE_COUNT ? &m->st[stage] : NULL;
}

uint64_t ts_memory_cpu_events(const ts_memory *m)
{
	return m ? m->cpu_events : 0;
}

size_t ts_memory_series(const ts_memory *m, int64_t *t_ns, int64_t *allocated, size_t max)
{
	if (!m || m->hi <= m->lo || max == 0)
		return 0;
	const rec *r = m->recs + m->lo;
	size_t n = m->hi - m->lo, k = 0;
	int64_t t0 = r[0].t0, span = r[n - 1].t1 - t0;
	for (size_t i = 0; i < n; i++) {
		/* the stretch of the trace this record falls in */
		size_t b = span > 0 ? (size_t)((double)(r[i].t0 - t0) / (double)span * (double)(max - 1)) : 0;
		int64_t at = t0 + (int64_t)((double)span * (double)b / (double)(max > 1 ? max - 1 : 1));
		if (k > 0 && t_ns[k - 1] == at) {
			if (r[i].max_alloc > allocated[k - 1])
				allocated[k - 1] = r[i].max_alloc;
			continue;
		}
		t_ns[k] = at;
		allocated[k++] = r[i].max_alloc;
	}
	return k;
}

bool ts_memory_exact(const ts_memory *m)
{
	return m && !m->merged;
}
