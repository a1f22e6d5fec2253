/*
 * comm.c - collectives with their sizes and bandwidth: calls, time and
 * bytes per kind, message size and group, from the message Kineto records
 * on a collective's kernel; the algorithm and bus bandwidth follow (see
 * comm.h).
 */
#include "analysis/comm.h"
#include "input/base/satmath.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[TS_COMM_KINDS] = {
	"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast_p2p", "other",
	"unknown",
};

const char *ts_comm_kind_name(ts_comm_kind k)
{
	return (unsigned)k < TS_COMM_KINDS ? kind_names[k] : "other";
}

struct ts_comm {
	ts_comm_row rows[TS_COMM_ROWS];
	size_t n;
	uint64_t unkept[TS_COMM_KINDS];
	int64_t unkept_ns[TS_COMM_KINDS];
};

ts_comm *ts_comm_new(void)
{
	return calloc(1, sizeof(ts_comm));
}

void ts_comm_free(ts_comm *c)
{
	free(c);
}

/* The kind a category's collective: is (kernels.yaml). */
static ts_comm_kind kind_of(const ts_category *cat)
{
	switch (cat ? cat->collective : TS_COLL_NONE) {
	case TS_COLL_ALL_REDUCE:
		return TS_COMM_ALLREDUCE;
	case TS_COLL_ALL_GATHER:
		return TS_COMM_ALLGATHER;
	case TS_COLL_REDUCE_SCATTER:
		return TS_COMM_REDUCE_SCATTER;
	case TS_COLL_ALL_TO_ALL:
		return TS_COMM_ALLTOALL;
	case TS_COLL_BROADCAST:
		return TS_COMM_BROADCAST;
	case TS_COLL_UNKNOWN:
		return TS_COMM_UNKNOWN;
	default:
		return TS_COMM_OTHER;
	}
}

/* One call's message in bytes, as NCCL-tests size it (comm.h); -1 none.
 * An unknown collective has none: its kind says which of its buffers is
 * the message (an all-gather's output, an all-reduce's input), and the
 * bus bandwidth's factor. */
static int64_t message(ts_comm_kind k, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_MSG) || !ev->elem_size || k == TS_COMM_UNKNOWN)
		return -1;
	int64_t n = k == TS_COMM_ALLGATHER ? ev->out_nelems : ev->in_nelems;
	if (n < 0)
		n = k == TS_COMM_ALLGATHER ? ev->in_nelems : ev->out_nelems;
	if (n < 0 || n > INT64_MAX / ev->elem_size)
		return -1;
	return n * ev->elem_size;
}

static int by_kind_size(const void *pa, const void *pb)
{
	const ts_comm_row *a = pa, *b = pb;
	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	if (a->msg_bytes != b->msg_bytes)
		return a->msg_bytes < b->msg_bytes ? -1 : 1;
	return a->group - b->group;
}

/* The row of (kind, bytes, group), made in its sorted place when new;
 * NULL when the rows are full. */
static ts_comm_row *row_of(ts_comm *c, const ts_comm_row *key)
{
	size_t i = 0;
	while (i < c->n && by_kind_size(&c->rows[i], key) < 0)
		i++;
	if (i < c->n && by_kind_size(&c->rows[i], key) == 0)
		return &c->rows[i];
	if (c->n == TS_COMM_ROWS)
		return NULL;
	memmove(c->rows + i + 1, c->rows + i, (c->n - i) * sizeof *c->rows);
	c->n++;
	c->rows[i] = (ts_comm_row){ .kind = key->kind, .msg_bytes = key->msg_bytes,
				    .group = key->group, .min_ns = INT64_MAX };
	return &c->rows[i];
}

void ts_comm_kernel(ts_comm *c, const ts_event *ev, const ts_category *cat)
{
	if (!(ev->has & TS_HAS_DUR) || ev->dur_ns < 0)
		return;
	ts_comm_kind k = kind_of(cat);
	ts_comm_row key = { .kind = k, .msg_bytes = message(k, ev), .group = ev->group_size };
	ts_comm_row *r = row_of(c, &key);
	if (!r) {
		c->unkept[k]++;
		c->unkept_ns[k] = ts_sat_add(c->unkept_ns[k], ev->dur_ns);
		return;
	}
	r->calls++;
	r->ns = ts_sat_add(r->ns, ev->dur_ns);
	if (ev->dur_ns < r->min_ns)
		r->min_ns = ev->dur_ns;
	if (ev->dur_ns > r->max_ns)
		r->max_ns = ev->dur_ns;
}

const ts_comm_row *ts_comm_rows(const ts_comm *c, size_t *n)
{
	*n = c->n;
	return c->rows;
}

uint64_t ts_comm_unkept(const ts_comm *c, ts_comm_kind k, int64_t *ns)
{
	*ns = c->unkept_ns[k];
	return c->unkept[k];
}

double ts_comm_algbw(const ts_comm_row *r)
{
	if (r->msg_bytes < 0 || r->ns <= 0)
		return -1;
	return (double)r->msg_bytes * (double)r->calls / (double)r->ns;
}

double ts_comm_busbw(const ts_comm_row *r)
{
	double alg = ts_comm_algbw(r);
	double n = r->group;
	if (alg < 0 || n < 1)
		return -1;
	switch (r->kind) {
	case TS_COMM_ALLREDUCE:
		return alg * 2.0 * (n - 1) / n;
	case TS_COMM_ALLGATHER:
	case TS_COMM_REDUCE_SCATTER:
	case TS_COMM_ALLTOALL:
		return alg * (n - 1) / n;
	default:
		return alg;
	}
}

void ts_comm_kind_total(const ts_comm *c, ts_comm_kind k, ts_comm_total *out)
{
	*out = (ts_comm_total){ .busbw = -1 };
	double bus_ns = 0, weighted = 0;
	for (size_t i = 0; c && i < c->n; i++) {
		const ts_comm_row *r = &c->rows[i];
		if (r->kind != k)
			continue;
		out->calls += r->calls;
		out->ns = ts_sat_add(out->ns, r->ns);
		if (r->msg_bytes >= 0) {
			out->sized_calls += r->calls;
			out->bytes = ts_sat_add(out->bytes, r->msg_bytes * (int64_t)r->calls);
		}
		double b = ts_comm_busbw(r);
		if (b >= 0) {
			weighted += b * (double)r->ns;
			bus_ns += (double)r->ns;
		}
	}
	if (c) {
		out->calls += c->unkept[k];
		out->ns = ts_sat_add(out->ns, c->unkept_ns[k]);
	}
	if (bus_ns > 0)
		out->busbw = weighted / bus_ns;
}

void ts_comm_save(const ts_comm *c, ts_wbuf *w)
{
	ts_w_u64(w, c->n);
	for (size_t i = 0; i < c->n; i++) {
		const ts_comm_row *r = &c->rows[i];
		ts_w_u32(w, (uint32_t)r->kind);
		ts_w_i64(w, r->msg_bytes);
		ts_w_u32(w, (uint32_t)r->group);
		ts_w_u64(w, r->calls);
		ts_w_i64(w, r->ns);
		ts_w_i64(w, r->min_ns);
		ts_w_i64(w, r->max_ns);
	}
	for (int k = 0; k < TS_COMM_KINDS; k++) {
		ts_w_u64(w, c->unkept[k]);
		ts_w_i64(w, c->unkept_ns[k]);
	}
}

/* A saved row into the rows: the same (kind, bytes, group) adds. */
static void merge_row(ts_comm *c, const ts_comm_row *s)
{
	ts_comm_row *r = row_of(c, s);
	if (!r) {
		c->unkept[s->kind] += s->calls;
		c->unkept_ns[s->kind] = ts_sat_add(c->unkept_ns[s->kind], s->ns);
		return;
	}
	r->calls += s->calls;
	r->ns = ts_sat_add(r->ns, s->ns);
	if (s->min_ns < r->min_ns)
		r->min_ns = s->min_ns;
	if (s->max_ns > r->max_ns)
		r->max_ns = s->max_ns;
}

ts_status ts_comm_load(ts_comm *c, ts_rbuf *r)
{
	uint64_t n = ts_r_count(r, 44);
	for (uint64_t i = 0; i < n && !r->err; i++) {
		ts_comm_row s;
		uint32_t k = ts_r_u32(r);
		s.msg_bytes = ts_r_i64(r);
		s.group = (int32_t)ts_r_u32(r);
		s.calls = ts_r_u64(r);
		s.ns = ts_r_i64(r);
		s.min_ns = ts_r_i64(r);
		s.max_ns = ts_r_i64(r);
		if (r->err)
			break;
		if (k >= TS_COMM_KINDS || s.ns < 0 || s.group < 0) {
			ts_r_fail(r, "a collective row out of range");
			break;
		}
		s.kind = (ts_comm_kind)k;
		merge_row(c, &s);
	}
	for (int k = 0; k < TS_COMM_KINDS && !r->err; k++) {
		c->unkept[k] = ts_sat_addu(c->unkept[k], ts_r_u64(r));
		c->unkept_ns[k] = ts_sat_add(c->unkept_ns[k], ts_r_i64(r));
	}
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}
