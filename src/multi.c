/*
 * multi.c - many traces, a pool of pipelines (see multi.h).
 */
#include "multi.h"

#include "input/base/grow.h"
#include "input/base/label.h"
#include "partial.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool is_dir(const char *p)
{
	struct stat sb;
	return strcmp(p, "-") != 0 && stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

bool ts_multi_any_dir(char *const *args, size_t nargs)
{
	for (size_t i = 0; i < nargs; i++)
		if (is_dir(args[i]))
			return true;
	return false;
}

/* A trace file by its name: JSON, maybe gzip'ed. */
static bool trace_name(const char *s)
{
	size_t n = strlen(s);
	static const char *const ends[] = { ".json", ".json.gz" };
	if (s[0] == '.')
		return false;
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
		size_t k = strlen(ends[i]);
		if (n > k && strcmp(s + n - k, ends[i]) == 0)
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool push(char ***v, size_t *n, size_t *cap, const char *s)
{
	if (!ts_grow((void **)v, cap, *n + 1, sizeof **v, 16, SIZE_MAX, false))
		return false;
	if (!((*v)[*n] = strdup(s)))
		return false;
	(*n)++;
	return true;
}

bool ts_multi_paths(char *const *args, size_t nargs, char ***paths, size_t *n, size_t *unread,
		    ts_error *err)
{
	char **v = NULL;
	size_t nv = 0, cap = 0;
	*unread = 0;
	bool stdin_seen = false;
	for (size_t i = 0; i < nargs; i++) {
		if (strcmp(args[i], "-") == 0) {
			if (stdin_seen) {
				ts_error_set(err, TS_ERR_USAGE, "standard input ('-') can be given once");
				goto fail;
			}
			stdin_seen = true;
		}
		if (!is_dir(args[i])) {
			if (!push(&v, &nv, &cap, args[i]))
				goto nomem;
			continue;
		}
		DIR *d = opendir(args[i]);
		if (!d) {
			ts_error_set(err, TS_ERR_IO, "%s: cannot read the directory", args[i]);
			goto fail;
		}
		size_t first = nv;
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (!trace_name(e->d_name))
				continue;
			char p[4096];
			int len = snprintf(p, sizeof p, "%s/%s", args[i], e->d_name);
			if (len < 0 || (size_t)len >= sizeof p)
				continue;
			const char *what = ts_path_not_regular(p);
			if (what) {
				fprintf(stderr, "tracestream: %s: not read: %s, no trace file\n", p, what);
				(*unread)++;
				continue;
			}
			if (!push(&v, &nv, &cap, p)) {
				closedir(d);
				goto nomem;
			}
		}
		closedir(d);
		if (nv == first) {
			ts_error_set(err, TS_ERR_USAGE,
				     "%s: no trace files in the directory (*.json, *.json.gz)", args[i]);
			goto fail;
		}
		qsort(v + first, nv - first, sizeof *v, cmp_str);
	}
	*paths = v;
	*n = nv;
	return true;
nomem:
	ts_error_set(err, TS_ERR_NOMEM, "out of memory");
fail:
	ts_multi_paths_free(v, nv);
	return false;
}

void ts_multi_paths_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

/* One rank on its way to the merge: its partial's bytes, or (a trace that
 * could not be read at all) its summary alone. */
typedef struct {
	bool done;
	ts_wbuf bytes;
	ts_rank_summary alone;
	bool has_alone;
	ts_status st;                 /* TS_ERR_NOMEM when saving failed */
} slot;

typedef struct {
	char *const *paths;
	size_t n;
	const ts_pipeline_opts *po;
	const ts_api_pick *picks;  /* the processes of one file, or NULL */
	char *const *labels;
	slot *slots;
	pthread_mutex_t lock;
	pthread_cond_t ready;
	size_t next;               /* the next path to take */
} pool;

static void analyse(pool *p, size_t i)
{
	slot *s = &p->slots[i];
	ts_result res;
	ts_pipeline_opts one = *p->po;
	if (p->picks) {
		one.only = &p->picks[i];
		one.label = p->labels[i];
	}
	ts_pipeline_run(p->paths[i], &one, &res);
	ts_rank_summary sum;
	ts_status st = ts_rank_summarize(&res, (int64_t)i, &sum);
	if (st == TS_OK && res.agg && res.layers && res.attrib) {
		st = ts_partial_save(&res, &sum, 1, &s->bytes);
		ts_rank_summary_free(&sum);
	} else if (st == TS_OK) {
		s->alone = sum;
		s->has_alone = true;
	}
	ts_result_free(&res);
	pthread_mutex_lock(&p->lock);
	s->st = st;
	s->done = true;
	pthread_cond_broadcast(&p->ready);
	pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg)
{
	pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next < p->n ? p->next++ : p->n;
		pthread_mutex_unlock(&p->lock);
		if (i == p->n)
			return NULL;
		analyse(p, i);
	}
}

static ts_status append_rank(ts_partial_ranks *pr, const ts_rank_summary *s)
{
	if (!ts_grow((void **)&pr->r, &pr->cap, pr->n + 1, sizeof *pr->r, 8, SIZE_MAX, false))
		return TS_ERR_NOMEM;
	pr->r[pr->n++] = *s;
	return TS_OK;
}

ts_status ts_multi_run(char *const *paths, size_t n, const ts_pipeline_opts *po, int jobs,
		       const char *label, ts_multi *m, ts_error *err)
{
	return ts_multi_run_procs(paths, NULL, NULL, n, po, jobs, label, m, err);
}

ts_status ts_multi_run_procs(char *const *paths, const ts_api_pick *picks, char *const *labels,
			     size_t n, const ts_pipeline_opts *po, int jobs, const char *label,
			     ts_multi *m, ts_error *err)
{
	memset(m, 0, sizeof *m);
	ts_error_set(err, TS_ERR_NOMEM, "out of memory");
	ts_pipeline_opts one = *po;
	one.progress = NULL;
	ts_status st = ts_result_empty(&one, label, &m->job);
	slot *slots = calloc(n ? n : 1, sizeof *slots);
	if (st != TS_OK || !slots) {
		free(slots);
		return TS_ERR_NOMEM;
	}
	pool p = { .paths = paths, .n = n, .po = &one, .picks = picks, .labels = labels, .slots = slots };
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.ready, NULL);
	if (jobs < 1)
		jobs = 1;
	if ((size_t)jobs > n)
		jobs = (int)(n ? n : 1);
	pthread_t *t = calloc((size_t)jobs, sizeof *t);
	int started = 0;
	for (int k = 0; t && k < jobs; k++)
		if (pthread_create(&t[k], NULL, worker, &p) == 0)
			started++;
	if (started == 0)
		worker(&p);           /* no thread to be had: do it here */
	/* merge in command-line order as the ranks finish, so that the
	 * report does not depend on which thread was quicker */
	ts_partial_ranks pr = { 0 };
	for (size_t i = 0; i < n; i++) {
		pthread_mutex_lock(&p.lock);
		while (!slots[i].done)
			pthread_cond_wait(&p.ready, &p.lock);
		pthread_mutex_unlock(&p.lock);
		slot *s = &slots[i];
		if (st == TS_OK && s->st != TS_OK)
			st = s->st;
		if (st == TS_OK && s->has_alone) {
			st = append_rank(&pr, &s->alone);
			if (st == TS_OK)
				s->has_alone = false;
		} else if (st == TS_OK) {
			ts_error e = { 0 };
			st = ts_partial_merge(&m->job, s->bytes.p, s->bytes.n, &pr, 0, &e);
			if (st != TS_OK)
				ts_error_set(err, st, "%s: its analysis could not join the job's "
					     "(byte %" PRIu64 " of its saved state: %s)",
					     labels ? labels[i] : paths[i],
					     e.byte, e.msg);
		}
		if (s->has_alone)
			ts_rank_summary_free(&s->alone);
		ts_wbuf_free(&s->bytes);
	}
	for (int k = 0; k < started; k++)
		pthread_join(t[k], NULL);
	free(t);
	free(slots);
	pthread_cond_destroy(&p.ready);
	pthread_mutex_destroy(&p.lock);
	m->ranks = pr.r;
	m->n = pr.n;
	for (size_t i = 0; i < m->n; i++)
		m->ranks[i].order = (int64_t)i;
	if (st != TS_OK)
		return st;
	ts_result_settle(&m->job, &one);
	return ts_multi_finish(m);
}

ts_status ts_multi_finish(ts_multi *m)
{
	m->own_ranks = ts_ranks_number(m->ranks, m->n);
	ts_skew_free(m->skew);
	m->skew = ts_skew_new(m->ranks, m->n);
	return m->skew ? TS_OK : TS_ERR_NOMEM;
}

void ts_multi_free(ts_multi *m)
{
	if (!m)
		return;
	for (size_t i = 0; m->ranks && i < m->n; i++)
		ts_rank_summary_free(&m->ranks[i]);
	free(m->ranks);
	ts_skew_free(m->skew);
	ts_result_free(&m->job);
	memset(m, 0, sizeof *m);
}
