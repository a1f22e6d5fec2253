/*
 * ranks.c - per-rank summaries and the skew between ranks, and what a
 * job's ranks say of themselves: its GPUs, whether they are one run (see
 * ranks.h).
 */
#include "analysis/views/ranks.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/hash.h"
#include "input/base/intern.h"
#include "input/base/satmath.h"

static int by_ns_desc(const void *pa, const void *pb)
{
	const ts_rank_coll *a = pa, *b = pb;
	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The collective kernels of an analysis: its rows of type communication,
 * the TS_RANK_COLLS with most time kept by name. */
static void collectives(const ts_agg *a, ts_rank_summary *s)
{
	uint32_t rows = ts_intern_count(a->names);
	for (uint32_t r = 0; r < rows; r++) {
		if (a->classes[r].type != TS_TYPE_COMMUNICATION || a->rows[r].count == 0)
			continue;
		size_t len;
		const char *name = ts_intern_str(a->names, r, &len);
		ts_rank_coll c = { .count = a->rows[r].count, .ns = a->rows[r].total };
		size_t keep = len < TS_RANK_NAME - 1 ? len : TS_RANK_NAME - 1;
		memcpy(c.name, name, keep);
		c.name[keep] = '\0';
		c.hash = ts_hash_bytes(c.name, keep);
		s->comm_ns = ts_sat_add(s->comm_ns, c.ns);
		if (s->ncoll < TS_RANK_COLLS) {
			s->coll[s->ncoll++] = c;
			continue;
		}
		/* full: keep the TS_RANK_COLLS with most time */
		size_t least = 0;
		for (size_t i = 1; i < s->ncoll; i++)
			if (s->coll[i].ns < s->coll[least].ns)
				least = i;
		if (c.ns > s->coll[least].ns) {
			s->coll_rest_ns = ts_sat_add(s->coll_rest_ns, s->coll[least].ns);
			s->coll[least] = c;
		} else {
			s->coll_rest_ns = ts_sat_add(s->coll_rest_ns, c.ns);
		}
	}
	qsort(s->coll, s->ncoll, sizeof *s->coll, by_ns_desc);
}

ts_status ts_rank_summarize(const ts_result *res, int64_t order, ts_rank_summary *s)
{
	memset(s, 0, sizeof *s);
	s->path = res->path;
	s->order = order;
	s->trace_rank = (res->meta.has & TS_META_HAS_RANK) ? res->meta.rank : -1;
	s->world_size = (res->meta.has & TS_META_HAS_WORLD) ? res->meta.world_size : -1;
	s->rank = order;
	s->err.status = res->err.status;
	s->partial = res->partial;
	s->opened = res->opened;
	s->open_errno = res->open_errno;
	s->gzip = res->gzip;
	s->err.compressed = res->err.compressed;
	s->err.byte = res->err.byte;
	if (res->err.status != TS_OK)
		memcpy(s->err.msg, res->err.msg, sizeof s->err.msg);
	const ts_devprop *d = res->agg ? ts_result_devprop(res) : NULL;
	if (d && (d->has & TS_DEV_HAS_NAME))
		memcpy(s->gpu, d->name, sizeof s->gpu);
	const ts_agg *a = res->agg;
	if (!a)
		return TS_OK;
	s->kernels = a->all.count;
	s->kernel_ns = a->all.total;
	s->busy_ns = ts_agg_busy_ns(a);
	s->span_ns = a->has_span ? a->last_end - a->first_ts : 0;
	collectives(a, s);
	const ts_layers *l = res->layers;
	if (!l)
		return TS_OK;
	s->passes = ts_layers_npasses(l) + ts_layers_passes_dropped(l);
	s->layers_per_pass = ts_layers_per_pass(l);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		const ts_stage_total *t = ts_layers_stage(l, (ts_pstage)st);
		s->stage_ns[st] = t->gpu_ns;
		s->stage_passes[st] = t->passes;
		uint32_t n = ts_layers_max_index(l, (ts_pstage)st);
		if (n == 0)
			continue;
		s->layer_ns[st] = calloc(n, sizeof *s->layer_ns[st]);
		if (!s->layer_ns[st])
			return TS_ERR_NOMEM;
		s->nlayer[st] = n;
		for (uint32_t i = 0; i < n; i++) {
			const ts_stat *t2 = &ts_layers_stat(l, (ts_pstage)st, i)->time;
			s->layer_ns[st][i] = t2->count ? t2->total / (int64_t)t2->count : 0;
		}
	}
	return TS_OK;
}

void ts_rank_summary_free(ts_rank_summary *s)
{
	if (!s)
		return;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		free(s->layer_ns[st]);
		s->layer_ns[st] = NULL;
		s->nlayer[st] = 0;
	}
	free(s->path_buf);
	s->path_buf = NULL;
}

void ts_rank_summary_save(const ts_rank_summary *s, ts_wbuf *w)
{
	ts_w_str(w, s->path, strlen(s->path));
	ts_w_i64(w, s->trace_rank);
	ts_w_i64(w, s->world_size);
	ts_w_u32(w, (uint32_t)s->err.status);
	ts_w_u8(w, s->partial);
	ts_w_u8(w, s->opened);
	ts_w_u8(w, s->gzip);
	ts_w_u8(w, s->err.compressed);
	ts_w_i64(w, s->open_errno);
	ts_w_str(w, s->err.msg, strlen(s->err.msg));
	ts_w_u64(w, s->err.byte);
	ts_w_str(w, s->gpu, strlen(s->gpu));
	ts_w_u64(w, s->kernels);
	ts_w_i64(w, s->kernel_ns);
	ts_w_i64(w, s->busy_ns);
	ts_w_i64(w, s->span_ns);
	ts_w_i64(w, s->comm_ns);
	ts_w_u64(w, s->passes);
	ts_w_u32(w, s->layers_per_pass);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		ts_w_i64(w, s->stage_ns[st]);
		ts_w_u64(w, s->stage_passes[st]);
		ts_w_u64(w, s->nlayer[st]);
		for (uint32_t i = 0; i < s->nlayer[st]; i++)
			ts_w_i64(w, s->layer_ns[st][i]);
	}
	ts_w_u64(w, s->ncoll);
	for (size_t c = 0; c < s->ncoll; c++) {
		ts_w_str(w, s->coll[c].name, strlen(s->coll[c].name));
		ts_w_u64(w, s->coll[c].count);
		ts_w_i64(w, s->coll[c].ns);
	}
	ts_w_i64(w, s->coll_rest_ns);
}

/* A string into a fixed field, cut to fit. */
static void field(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

ts_status ts_rank_summary_load(ts_rank_summary *s, ts_rbuf *r)
{
	memset(s, 0, sizeof *s);
	size_t n;
	const char *path = ts_r_str(r, &n);
	if (r->err)
		return TS_ERR_PARTIAL;
	if (!(s->path_buf = malloc(n + 1)))
		return TS_ERR_NOMEM;
	memcpy(s->path_buf, path, n);
	s->path_buf[n] = '\0';
	s->path = s->path_buf;
	s->trace_rank = ts_r_i64(r);
	s->world_size = ts_r_i64(r);
	uint32_t st = ts_r_u32(r);
	s->err.status = st <= TS_ERR_PARTIAL ? (ts_status)st : TS_ERR_PARTIAL;
	s->partial = ts_r_u8(r);
	s->opened = ts_r_u8(r);
	s->gzip = ts_r_u8(r);
	s->err.compressed = ts_r_u8(r);
	s->open_errno = (int)ts_r_i64(r);
	const char *e = ts_r_str(r, &n);
	field(s->err.msg, sizeof s->err.msg, e, n);
	s->err.byte = ts_r_u64(r);
	const char *g = ts_r_str(r, &n);
	field(s->gpu, sizeof s->gpu, g, n);
	s->kernels = ts_r_u64(r);
	s->kernel_ns = ts_r_i64(r);
	s->busy_ns = ts_r_i64(r);
	s->span_ns = ts_r_i64(r);
	s->comm_ns = ts_r_i64(r);
	s->passes = ts_r_u64(r);
	s->layers_per_pass = ts_r_u32(r);
	for (int k = 0; k < TS_PSTAGE_COUNT && !r->err; k++) {
		s->stage_ns[k] = ts_r_i64(r);
		s->stage_passes[k] = ts_r_u64(r);
		uint64_t nl = ts_r_count(r, 8);
		if (nl > TS_MAX_LAYERS) {
			ts_r_fail(r, "more layer positions than a pass holds");
			break;
		}
		if (nl && !(s->layer_ns[k] = calloc(nl, sizeof *s->layer_ns[k])))
			return TS_ERR_NOMEM;
		s->nlayer[k] = (uint32_t)nl;
		for (uint32_t i = 0; i < nl; i++)
			s->layer_ns[k][i] = ts_r_i64(r);
	}
	uint64_t nc = ts_r_count(r, 4 + 16);
	if (nc > TS_RANK_COLLS)
		ts_r_fail(r, "more collectives than a rank keeps");
	for (uint64_t c = 0; c < nc && !r->err; c++) {
		const char *name = ts_r_str(r, &n);
		field(s->coll[c].name, sizeof s->coll[c].name, name, n);
		s->coll[c].hash = ts_hash_bytes(s->coll[c].name, strlen(s->coll[c].name));
		s->coll[c].count = ts_r_u64(r);
		s->coll[c].ns = ts_r_i64(r);
		s->ncoll = (size_t)c + 1;
	}
	s->coll_rest_ns = ts_r_i64(r);
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

bool ts_ranks_number(ts_rank_summary *r, size_t n)
{
	bool own = n > 0;
	for (size_t i = 0; i < n && own; i++) {
		if (r[i].trace_rank < 0)
			own = false;
		for (size_t j = 0; j < i && own; j++)
			if (r[j].trace_rank == r[i].trace_rank)
				own = false;
	}
	for (size_t i = 0; i < n; i++)
		r[i].rank = own ? r[i].trace_rank : r[i].order;
	return own;
}

/*
 * The spread of v[i] over the ranks where has[i]; the median is the usual
 * one (the mean of the two middle values for an even count, rounded down
 * to the ns). tmp holds n values. Ties for the slowest go
 * to the lowest rank index.
 */
static ts_spread spread(const int64_t *v, const bool *has, size_t n, int64_t *tmp)
{
	ts_spread s = { 0 };
	for (size_t i = 0; i < n; i++) {
		if (!has[i])
			continue;
		if (s.n == 0 || v[i] > s.max) {
			s.max = v[i];
			s.slowest = i;
		}
		if (s.n == 0 || v[i] < s.min)
			s.min = v[i];
		tmp[s.n++] = v[i];
	}
	if (s.n) {
		ts_sort_i64(tmp, s.n);
		s.median = s.n % 2 ? tmp[s.n / 2]
			 : tmp[s.n / 2 - 1] + (tmp[s.n / 2] - tmp[s.n / 2 - 1]) / 2;
	}
	return s;
}

/* Collective waits: per collective name, each rank's time beyond the least
 * time any rank spent in it (ranks without the collective do not set the
 * least). */
static void waits(ts_skew *k, const ts_rank_summary *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		k->wait[i].comm_ns = r[i].comm_ns;
		for (size_t c = 0; c < r[i].ncoll; c++) {
			const ts_rank_coll *me = &r[i].coll[c];
			int64_t least = me->ns;
			for (size_t j = 0; j < n; j++) {
				if (j == i)
					continue;
				for (size_t d = 0; d < r[j].ncoll; d++)
					if (r[j].coll[d].hash == me->hash &&
					    strcmp(r[j].coll[d].name, me->name) == 0) {
						if (r[j].coll[d].ns < least)
							least = r[j].coll[d].ns;
						break;
					}
			}
			k->wait[i].wait_ns = ts_sat_add(k->wait[i].wait_ns, me->ns - least);
		}
	}
}

/* The rank slowest at two thirds or more of the layer positions (all
 * stages) where the ranks differ, three positions at least. */
static void straggler(ts_skew *k, const ts_rank_summary *r, size_t n)
{
	k->straggler = -1;
	if (n < 2)
		return;
	uint32_t *slowest = calloc(n, sizeof *slowest);
	if (!slowest)
		return;
	uint32_t compared = 0;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++)
		for (uint32_t p = 0; p < k->npos[st]; p++) {
			const ts_spread *s = &k->pos[st][p];
			if (s->n < 2 || s->max == s->min)
				continue;
			compared++;
			slowest[s->slowest]++;
		}
	size_t who = 0;
	for (size_t i = 1; i < n; i++)
		if (slowest[i] > slowest[who])
			who = i;
	if (compared >= 3 && 3 * (uint64_t)slowest[who] >= 2 * (uint64_t)compared) {
		k->straggler = (long)who;
		k->straggler_slowest = slowest[who];
		k->straggler_positions = compared;
		double excess = 0;
		uint32_t m = 0;
		for (int st = 0; st < TS_PSTAGE_COUNT; st++)
			for (uint32_t p = 0; p < k->npos[st]; p++) {
				const ts_spread *s = &k->pos[st][p];
				if (s->n < 2 || s->median <= 0 || p >= r[who].nlayer[st] ||
				    r[who].layer_ns[st][p] <= 0)
					continue;
				excess += (double)r[who].layer_ns[st][p] / (double)s->median - 1.0;
				m++;
			}
		k->straggler_over_median = m ? excess / m : 0;
	}
	free(slowest);
}

/* No rank slowest at the layer positions (no layers: a training step; or
 * ranks alike there): the rank the others wait for in their collectives,
 * as ts_skew says. */
static void straggler_by_waits(ts_skew *k, size_t n, int64_t *tmp)
{
	if (k->straggler >= 0 || n < 2)
		return;
	size_t who = 0;
	for (size_t i = 1; i < n; i++)
		if (k->wait[i].wait_ns < k->wait[who].wait_ns)
			who = i;
	size_t m = 0;
	int64_t comm = 0;
	for (size_t i = 0; i < n; i++)
		if (i != who && k->wait[i].comm_ns > 0) {
			tmp[m++] = k->wait[i].wait_ns;
			comm = ts_sat_add(comm, k->wait[i].comm_ns);
		}
	if (!m)
		return;
	ts_sort_i64(tmp, m);
	int64_t med = m % 2 ? tmp[m / 2] : tmp[m / 2 - 1] + (tmp[m / 2] - tmp[m / 2 - 1]) / 2;
	if (med <= 0 || 4 * k->wait[who].wait_ns > med || 20 * med * (int64_t)m < comm)
		return;
	k->straggler = (long)who;
	k->straggler_by_waits = true;
	k->straggler_wait_ns = k->wait[who].wait_ns;
	k->others_wait_ns = med;
}

ts_skew *ts_skew_new(const ts_rank_summary *r, size_t n)
{
	ts_skew *k = calloc(1, sizeof *k);
	int64_t *v = calloc(n ? n : 1, sizeof *v), *tmp = calloc(n ? n : 1, sizeof *tmp);
	bool *has = calloc(n ? n : 1, sizeof *has);
	if (!k || !v || !tmp || !has || !(k->wait = calloc(n ? n : 1, sizeof *k->wait)))
		goto fail;
	k->nranks = n;
	for (size_t i = 0; i < n; i++) {
		v[i] = r[i].kernel_ns;
		has[i] = r[i].kernels > 0;
	}
	k->kernel = spread(v, has, n, tmp);
	for (size_t i = 0; i < n; i++)
		v[i] = r[i].busy_ns;
	k->busy = spread(v, has, n, tmp);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		for (size_t i = 0; i < n; i++) {
			v[i] = r[i].stage_ns[st];
			has[i] = r[i].stage_passes[st] > 0;
			if (r[i].nlayer[st] > k->npos[st])
				k->npos[st] = r[i].nlayer[st];
		}
		k->stage[st] = spread(v, has, n, tmp);
		if (!k->npos[st])
			continue;
		if (!(k->pos[st] = calloc(k->npos[st], sizeof *k->pos[st])))
			goto fail;
		for (uint32_t p = 0; p < k->npos[st]; p++) {
			for (size_t i = 0; i < n; i++) {
				has[i] = p < r[i].nlayer[st] && r[i].layer_ns[st][p] > 0;
				v[i] = has[i] ? r[i].layer_ns[st][p] : 0;
			}
			k->pos[st][p] = spread(v, has, n, tmp);
		}
	}
	waits(k, r, n);
	straggler(k, r, n);
	straggler_by_waits(k, n, tmp);
	free(v);
	free(tmp);
	free(has);
	return k;
fail:
	free(v);
	free(tmp);
	free(has);
	ts_skew_free(k);
	return NULL;
}

void ts_skew_free(ts_skew *k)
{
	if (!k)
		return;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++)
		free(k->pos[st]);
	free(k->wait);
	free(k);
}

/* "0-3, 5" from the sorted rank numbers r[0..n). */
static void rank_list(const int64_t *r, size_t n, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && k < len; ) {
		size_t j = i;
		while (j + 1 < n && r[j + 1] == r[j] + 1)
			j++;
		if (j > i)
			k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64 "-%" PRId64, i ? ", " : "",
					      r[i], r[j]);
		else
			k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64, i ? ", " : "", r[i]);
		i = j + 1;
	}
}

size_t ts_job_gpus(const ts_multi *m, char *buf, size_t n)
{
	if (n)
		buf[0] = '\0';
	if (!m || m->n < 2 || n == 0)
		return 0;
	int64_t *r = malloc(m->n * sizeof *r);
	bool *done = calloc(m->n, sizeof *done);
	size_t k = 0, distinct = 0;
	for (size_t i = 0; r && done && i < m->n; i++) {
		if (done[i])
			continue;
		const char *g = m->ranks[i].gpu[0] ? m->ranks[i].gpu : "(GPU unknown)";
		size_t nr = 0;
		for (size_t j = i; j < m->n; j++) {
			const char *h = m->ranks[j].gpu[0] ? m->ranks[j].gpu : "(GPU unknown)";
			if (!done[j] && strcmp(g, h) == 0) {
				done[j] = true;
				r[nr++] = m->ranks[j].rank;
			}
		}
		ts_sort_i64(r, nr);
		char list[160];
		rank_list(r, nr, list, sizeof list);
		if (k < n)
			k += (size_t)snprintf(buf + k, n - k, "%s%s (rank%s %s)", distinct ? ", " : "",
					      g, nr > 1 ? "s" : "", list);
		distinct++;
	}
	free(r);
	free(done);
	return distinct;
}

bool ts_job_unrelated(const ts_multi *m, char *buf, size_t n)
{
	size_t gpus = 0, layers = 0;
	for (size_t i = 0; m && i < m->n; i++) {
		const ts_rank_summary *r = &m->ranks[i];
		bool gpu_new = r->gpu[0] != '\0', layers_new = r->layers_per_pass > 0;
		for (size_t j = 0; j < i; j++) {
			if (gpu_new && strcmp(m->ranks[j].gpu, r->gpu) == 0)
				gpu_new = false;
			if (layers_new && m->ranks[j].layers_per_pass == r->layers_per_pass)
				layers_new = false;
		}
		gpus += gpu_new;
		layers += layers_new;
	}
	if (gpus < 2 && layers < 2)
		return false;
	size_t k = 0;
	buf[0] = '\0';
	if (gpus >= 2)
		k = (size_t)snprintf(buf, n, "%zu GPU kinds", gpus);
	if (layers >= 2 && k < n)
		snprintf(buf + k, n - k, "%s%zu layer counts a pass", k ? ", " : "", layers);
	return true;
}
