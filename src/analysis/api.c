/*
 * api.c - runtime and driver calls by name, and the synchronizing ones
 * with their times (api.h).
 */
#include "analysis/api.h"
#include "analysis/stat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "input/base/satmath.h"
#include "input/base/grow.h"
#include "input/base/strfind.h"

#define OTHER TS_API_ROWS             /* the row of names past the table */

#define JOIN_SLOTS 4096

/* A call (who: its process's index) or a GPU operation (who: its device)
 * waiting in the join table for the other of its correlation. */
typedef struct {
	int64_t corr;
	int32_t who;
	bool gpu;
} join_ent;

struct ts_api {
	ts_intern *names;
	ts_api_row rows[TS_API_ROWS + 1];
	ts_api_sync *sync;
	size_t nsync, sync_cap;
	uint64_t sync_unkept;
	uint32_t merged;              /* saved partials merged in */
	uint32_t last_row;            /* the last call's row (most calls repeat it) */
	size_t last_len;
	/* the processes that called the runtime in this trace (not saved: a
	 * merge of ranks is many processes by design) */
	int64_t pid[TS_API_PIDS];
	uint64_t pid_calls[TS_API_PIDS];
	uint32_t npid;
	bool more_pids;
	/* which devices each process's launches ran on: calls and GPU
	 * operations meet by correlation in a small table (a call and its
	 * kernels lie close in the file), each meeting counted */
	join_ent join[JOIN_SLOTS];
	uint64_t ran[TS_API_PIDS][TS_API_DEVICES];
};

bool ts_api_is_sync(const char *s, size_t n)
{
	if (ts_has(s, n, "Synchronize"))
		return true;
	if ((ts_begins(s, n, "cudaMemcpy") || ts_begins(s, n, "hipMemcpy") ||
	     ts_begins(s, n, "cuMemcpy")) && !ts_has(s, n, "Async"))
		return true;
	return (n == 8 && memcmp(s, "cudaFree", 8) == 0) || (n == 7 && memcmp(s, "hipFree", 7) == 0) ||
	       ts_begins(s, n, "cuMemFree");
}

ts_api *ts_api_new(void)
{
	ts_api *a = calloc(1, sizeof *a);
	if (!a || !(a->names = ts_intern_new(TS_API_ROWS, TS_API_ROWS * 96))) {
		free(a);
		return NULL;
	}
	a->rows[OTHER].name = "(other)";
	a->last_row = OTHER;
	for (size_t i = 0; i < JOIN_SLOTS; i++)
		a->join[i].corr = -1;
	return a;
}

void ts_api_free(ts_api *a)
{
	if (!a)
		return;
	for (size_t i = 0; i <= TS_API_ROWS; i++)
		ts_stat_clear(&a->rows[i].stat);
	ts_intern_free(a->names);
	free(a->sync);
	free(a);
}

/* The row of a name: its own, or (other) once the table is full. */
static uint32_t row_of(ts_api *a, const char *s, size_t n, ts_status *st)
{
	uint32_t id;
	*st = ts_intern_put(a->names, s, n, &id);
	if (*st == TS_ERR_FULL || id == TS_INTERN_NONE) {
		if (*st == TS_ERR_FULL)
			*st = TS_OK;
		return OTHER;
	}
	ts_api_row *r = &a->rows[id];
	if (!r->name) {
		r->name = ts_intern_str(a->names, id, NULL);
		r->sync = ts_api_is_sync(s, n);
	}
	return id;
}

/* A synchronizing call kept, or counted once TS_API_SYNC_KEEP are. */
static void keep_sync(ts_api *a, ts_api_sync s)
{
	if (a->nsync < TS_API_SYNC_KEEP &&
	    ts_grow((void **)&a->sync, &a->sync_cap, a->nsync + 1, sizeof *a->sync, 64,
		    TS_API_SYNC_KEEP, false))
		a->sync[a->nsync++] = s;
	else
		a->sync_unkept++;
}

static ts_status add(ts_api *a, uint32_t row, const char *s, size_t n, int64_t ts, int64_t dur)
{
	ts_status st = ts_stat_add(&a->rows[row].stat, dur);
	bool sync = row == OTHER ? ts_api_is_sync(s, n) : a->rows[row].sync;
	if (st != TS_OK || !sync)
		return st;
	keep_sync(a, (ts_api_sync){ ts, dur, row, 0 });
	return TS_OK;
}

/* A call and a GPU operation of one correlation: the process's launch
 * ran on the device. who: the process's index for a call, the device
 * for an operation. */
static void meet(ts_api *a, int64_t corr, int32_t who, bool gpu)
{
	if (corr < 0)
		return;
	join_ent *j = &a->join[(uint64_t)corr % JOIN_SLOTS];
	if (j->corr == corr && j->gpu != gpu && j->who >= 0) {
		int32_t pidx = gpu ? j->who : who, dev = gpu ? who : j->who;
		a->ran[pidx][dev]++;
		if (gpu)
			return;        /* the call stays: its graph's other kernels */
	}
	if (j->corr == corr && !gpu && j->gpu)
		return;
	*j = (join_ent){ corr, who, gpu };
}

/* The process of a runtime call, counted (the first TS_API_PIDS); its
 * index, or -1. */
static int32_t count_pid(ts_api *a, const ts_event *ev)
{
	if (!(ev->has & TS_HAS_PID))
		return -1;
	uint32_t i = 0;
	while (i < a->npid && a->pid[i] != ev->pid)
		i++;
	if (i == a->npid) {
		if (a->npid == TS_API_PIDS) {
			a->more_pids = true;
			return -1;
		}
		a->pid[a->npid++] = ev->pid;
	}
	a->pid_calls[i]++;
	return (int32_t)i;
}

void ts_api_gpu_op(ts_api *a, const ts_event *ev)
{
	int64_t dev = (ev->has & TS_HAS_DEVICE) ? ev->device : (ev->has & TS_HAS_PID) ? ev->pid : -1;
	if (a && (ev->has & TS_HAS_CORRELATION) && dev >= 0 && dev < TS_API_DEVICES)
		meet(a, ev->correlation, (int32_t)dev, true);
}

bool ts_api_picks(const ts_api_pick *k, const ts_event *ev)
{
	bool gpu = ev->cat == TS_CAT_KERNEL || ev->cat == TS_CAT_GPU_MEMCPY || ev->cat == TS_CAT_GPU_MEMSET ||
		   ev->cat == TS_CAT_GPU_USER_ANNOTATION || (ev->cat == TS_CAT_FLOW && ev->ph == 'f');
	if (gpu) {
		int64_t dev = (ev->has & TS_HAS_DEVICE) ? ev->device : (ev->has & TS_HAS_PID) ? ev->pid : -1;
		return dev >= 0 && dev < TS_API_DEVICES && (k->devices & (1u << dev));
	}
	if (!(ev->has & TS_HAS_PID))
		return ev->cat == TS_CAT_METADATA;   /* a span of which process? */
	if (ev->pid == k->pid)
		return true;
	/* metadata naming one of its devices' rows */
	return ev->cat == TS_CAT_METADATA && ev->pid >= 0 && ev->pid < TS_API_DEVICES &&
	       (k->devices & (1u << ev->pid));
}

bool ts_api_processes(const ts_api *a, ts_api_procs *out)
{
	memset(out, 0, sizeof *out);
	for (uint32_t i = 0; a && i < a->npid; i++) {
		if (a->pid_calls[i] < TS_API_PID_MIN)
			continue;
		int k = out->n++;
		out->pid[k] = a->pid[i];
		uint64_t all = 0;
		for (int d = 0; d < TS_API_DEVICES; d++)
			all += a->ran[i][d];
		/* its devices: those it ran most on, and every one holding a
		 * tenth of its launches */
		for (int d = 0; d < TS_API_DEVICES; d++)
			if (a->ran[i][d] && a->ran[i][d] * 10 >= all)
				out->devices[k] |= 1u << d;
	}
	if (out->n < 2 || (a && a->more_pids))
		return false;
	uint32_t seen = 0;
	for (int k = 0; k < out->n; k++) {
		if (!out->devices[k] || (seen & out->devices[k]))
			return false;   /* no device of its own, or one shared */
		seen |= out->devices[k];
	}
	return true;
}

ts_status ts_api_call(ts_api *a, const ts_event *ev)
{
	if (!a || !(ev->has & TS_HAS_TS) || !(ev->has & TS_HAS_DUR) || ev->name_len == 0)
		return TS_OK;
	int32_t who = count_pid(a, ev);
	if (who >= 0 && (ev->has & TS_HAS_CORRELATION))
		meet(a, ev->correlation, who, false);
	ts_status st = TS_OK;
	uint32_t row = a->last_row;
	if (row == OTHER || ev->name_len != a->last_len ||
	    memcmp(ev->name, a->rows[row].name, ev->name_len) != 0) {
		row = row_of(a, ev->name, ev->name_len, &st);
		if (st != TS_OK)
			return st;
		a->last_row = row;
		a->last_len = ev->name_len;
	}
	return add(a, row, ev->name, ev->name_len, ev->ts_ns, ev->dur_ns);
}

size_t ts_api_nrows(const ts_api *a)
{
	return a ? TS_API_ROWS + 1 : 0;
}

const ts_api_row *ts_api_row_at(const ts_api *a, size_t i)
{
	return &a->rows[i];
}

static int by_total(const void *x, const void *y)
{
	const ts_api_row *a = *(const ts_api_row *const *)x, *b = *(const ts_api_row *const *)y;
	if (a->stat.total != b->stat.total)
		return a->stat.total < b->stat.total ? 1 : -1;
	return strcmp(a->name, b->name);
}

size_t *ts_api_order(const ts_api *a, size_t *n)
{
	*n = 0;
	const ts_api_row *by[TS_API_ROWS + 1];
	size_t *o = a ? malloc((TS_API_ROWS + 1) * sizeof *o) : NULL;
	for (size_t i = 0; o && i <= TS_API_ROWS; i++)
		if (a->rows[i].stat.count)
			by[(*n)++] = &a->rows[i];
	qsort(by, *n, sizeof *by, by_total);
	for (size_t i = 0; i < *n; i++)
		o[i] = (size_t)(by[i] - a->rows);
	return o;
}

int64_t ts_api_total_ns(const ts_api *a)
{
	int64_t t = 0;
	for (size_t i = 0; a && i <= TS_API_ROWS; i++)
		t = ts_sat_add(t, a->rows[i].stat.total);
	return t;
}

const ts_api_sync *ts_api_syncs(const ts_api *a, size_t *n, uint64_t *unkept)
{
	*n = a ? a->nsync : 0;
	*unkept = a ? a->sync_unkept : 0;
	return a ? a->sync : NULL;
}

void ts_api_save(const ts_api *a, ts_wbuf *w)
{
	uint64_t used = 0;
	for (size_t i = 0; i <= TS_API_ROWS; i++)
		used += a->rows[i].stat.count > 0;
	ts_w_u64(w, used);
	for (uint32_t i = 0; i <= TS_API_ROWS; i++) {
		const ts_api_row *r = &a->rows[i];
		if (!r->stat.count)
			continue;
		ts_w_u8(w, i == OTHER);
		ts_w_str(w, r->name, strlen(r->name));
		ts_stat_save(&r->stat, w);
	}
	ts_w_u64(w, a->nsync);
	for (size_t i = 0; i < a->nsync; i++) {
		const ts_api_sync *s = &a->sync[i];
		const char *name = a->rows[s->row].name;
		ts_w_str(w, name, strlen(name));
		ts_w_i64(w, s->ts_ns);
		ts_w_i64(w, s->dur_ns);
	}
	ts_w_u64(w, a->sync_unkept);
}

ts_status ts_api_load(ts_api *a, ts_rbuf *r)
{
	uint64_t n = ts_r_count(r, 1 + 4 + 8);
	for (uint64_t k = 0; k < n && !r->err; k++) {
		bool other = ts_r_u8(r) != 0;
		size_t len;
		const char *s = ts_r_str(r, &len);
		ts_stat tmp = { 0 };
		ts_status st = ts_stat_load(&tmp, r);
		uint32_t row = OTHER;
		if (st == TS_OK && !r->err && !other)
			row = row_of(a, s, len, &st);
		if (st == TS_OK && !r->err)
			st = ts_stat_merge(&a->rows[row].stat, &tmp);
		ts_stat_clear(&tmp);
		if (st != TS_OK)
			return st;
	}
	uint32_t source = ++a->merged;
	uint64_t ns = ts_r_count(r, 4 + 8 + 8);
	for (uint64_t k = 0; k < ns && !r->err; k++) {
		size_t len;
		const char *s = ts_r_str(r, &len);
		int64_t ts = ts_r_i64(r), dur = ts_r_i64(r);
		if (r->err)
			break;
		ts_status st;
		uint32_t row = row_of(a, s, len, &st);
		if (st != TS_OK)
			return st;
		keep_sync(a, (ts_api_sync){ ts, dur, row, source });
	}
	a->sync_unkept = ts_sat_addu(a->sync_unkept, ts_r_u64(r));
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

void ts_api_warnings(const ts_api *a, int devices, ts_warns *w)
{
	uint32_t n = 0;
	int64_t pids[TS_API_PIDS];
	for (uint32_t i = 0; a && i < a->npid; i++)
		if (a->pid_calls[i] >= TS_API_PID_MIN)
			pids[n++] = a->pid[i];
	if (n < 2)
		return;
	/* by number: the same list whatever order the file wrote them in */
	ts_sort_i64(pids, n);
	char list[160] = "";
	size_t k = 0;
	for (uint32_t i = 0; i < n && k < sizeof list; i++)
		k += (size_t)snprintf(list + k, sizeof list - k, "%s%" PRId64, k ? ", " : "", pids[i]);
	ts_warn(w, "this file holds the runtime calls of %" PRIu32 "%s processes (pids %s) on %d "
		"GPU%s, read here as one: their passes and layers mix. Given as a file in which "
		"each process ran on GPUs of its own, tracestream reads each as its own rank; "
		"else split the file by process and give the parts as ranks", n,
		a->more_pids ? " or more" : "", list, devices, devices == 1 ? "" : "s");
}
