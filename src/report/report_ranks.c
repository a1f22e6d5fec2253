/*
 * report_ranks.c - a job over many ranks: the rank table, the skew between
 * ranks (per stage and per layer position) and the straggler, as text and
 * JSON. Reads ts_multi only.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/jsonw.h"
#include "input/base/label.h"
#include "report/report.h"
#include "report/version.h"

/* Layer positions listed in text (JSON has them all). */
#define TEXT_POSITIONS 8

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static bool stage_used(const ts_multi *m, int st)
{
	return m->skew->stage[st].n > 0;
}

static void text_spread(FILE *out, const ts_multi *m, const char *what, const ts_spread *s)
{
	if (s->n == 0)
		return;
	fprintf(out, "  %-28s %12.3f %12.3f %12.3f  ", what, ms(s->min), ms(s->median), ms(s->max));
	if (s->max > s->min)
		fprintf(out, "rank %" PRId64 "\n", m->ranks[s->slowest].rank);
	else
		fputs("- (all equal)\n", out);
}

/* The last w bytes of a name (the part that tells ranks apart). */
static void put_tail(FILE *out, const char *s, int w)
{
	size_t n = strlen(s);
	if (n <= (size_t)w)
		fprintf(out, "%-*s", w, s);
	else
		fprintf(out, "...%s", s + n - (size_t)(w - 3));
}

typedef struct {
	uint32_t pos;
	double width;
} pos_width;

static int by_width(const void *pa, const void *pb)
{
	const pos_width *a = pa, *b = pb;
	if (a->width != b->width)
		return a->width > b->width ? -1 : 1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* What makes the traces look like more or less than one job. */
/* Two ranks that are one trace: the same own rank (or none), kernels,
 * kernel time, busy time and span to the nanosecond (no two GPUs of a job
 * time alike). The first such pair in *a, *b. */
static bool duplicate(const ts_multi *m, size_t *a, size_t *b)
{
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = i + 1; j < m->n; j++) {
			const ts_rank_summary *x = &m->ranks[i], *y = &m->ranks[j];
			if (x->kernels && x->trace_rank == y->trace_rank && x->kernels == y->kernels &&
			    x->kernel_ns == y->kernel_ns &&
			    x->busy_ns == y->busy_ns && x->span_ns == y->span_ns) {
				*a = i;
				*b = j;
				return true;
			}
		}
	return false;
}

size_t ts_report_job_notes(const ts_multi *m, char (*notes)[160], size_t max)
{
	size_t n = 0;
	int64_t world = -1;
	bool worlds_differ = false, gpus_differ = false;
	const char *gpu = NULL;
	for (size_t i = 0; i < m->n; i++) {
		const ts_rank_summary *r = &m->ranks[i];
		if (r->world_size >= 0) {
			if (world >= 0 && r->world_size != world)
				worlds_differ = true;
			world = r->world_size;
		}
		if (r->gpu[0]) {
			if (gpu && strcmp(gpu, r->gpu) != 0)
				gpus_differ = true;
			gpu = r->gpu;
		}
	}
	if (worlds_differ && n < max)
		snprintf(notes[n++], 160, "the traces give different world sizes: more than one job?");
	else if (world >= 0 && (size_t)world < m->n && n < max)
		snprintf(notes[n++], 160, "%zu traces for a job of %" PRId64 " rank%s: a rank given "
			 "more than once, or not one job", m->n, world, world == 1 ? "" : "s");
	else if (world >= 0 && (size_t)world != m->n && n < max)
		snprintf(notes[n++], 160, "%zu of the job's %" PRId64 " ranks are given", m->n, world);
	if (gpus_differ && n < max)
		snprintf(notes[n++], 160, "the ranks ran on different GPUs");
	size_t a, b;
	if (n < max && duplicate(m, &a, &b))
		snprintf(notes[n++], 160, "ranks %" PRId64 " and %" PRId64 " are the same trace (the "
			 "same kernels and times, to the nanosecond): one file given twice?",
			 m->ranks[a].rank, m->ranks[b].rank);
	return n;
}

const char *ts_report_job_numbering(const ts_multi *m)
{
	return m->own_ranks ? "from their distributedInfo"
			    : "numbered by their order: the traces' own ranks are missing or repeat";
}

static bool name_sep(char c)
{
	return c == '_' || c == '-' || c == '.' || c == '/';
}

/*
 * The part of rank i's file name that tells it from the others: the names
 * less what all of them begin and end with, the word the difference
 * starts in (or follows: "rank_0" of trace_rank_0.json) kept whole, the
 * common end cut at a separator. The whole name when there is one rank or
 * nothing is left.
 */
static void rank_label(const ts_multi *m, size_t i, char *buf, size_t n)
{
	const char *me = ts_path_label(m->ranks[i].path, true);
	size_t len = strlen(me), pre = len, suf = len;
	/* the processes of one file ("FILE (pid N)"): the pid tells them apart */
	const char *pid = strstr(me, " (pid ");
	bool one_file = pid && me[len - 1] == ')' && m->n > 1;
	for (size_t j = 0; j < m->n && one_file; j++)
		one_file = strncmp(ts_path_label(m->ranks[j].path, true), me, (size_t)(pid - me) + 6) == 0;
	if (one_file) {
		snprintf(buf, n, "%.*s", (int)(me + len - 1 - (pid + 2)), pid + 2);
		return;
	}
	for (size_t j = 0; j < m->n; j++) {
		const char *o = ts_path_label(m->ranks[j].path, true);
		size_t ol = strlen(o), k = 0;
		while (k < pre && k < ol && o[k] == me[k])
			k++;
		pre = k;
		for (k = 0; k < suf && k < ol && o[ol - 1 - k] == me[len - 1 - k]; k++)
			;
		suf = k;
	}
	if (m->n < 2 || pre + suf >= len) {
		snprintf(buf, n, "%s", me);
		return;
	}
	if (pre && name_sep(me[pre - 1]))
		pre--;                        /* the word before the difference */
	while (pre && !name_sep(me[pre - 1]))
		pre--;
	while (suf && !name_sep(me[len - suf]))
		suf--;                        /* the common end from a separator */
	snprintf(buf, n, "%.*s", (int)(len - suf - pre), me + pre);
}

int ts_report_ranks_text(FILE *out, const ts_multi *m)
{
	const ts_skew *k = m->skew;
	fprintf(out, "\nJOB: %zu traces, one per rank (ranks %s)\n", m->n, ts_report_job_numbering(m));
	char notes[4][160];
	size_t nn = ts_report_job_notes(m, notes, 4);
	for (size_t i = 0; i < nn; i++)
		fprintf(out, "note: %s\n", notes[i]);
	fputc('\n', out);
	fprintf(out, "RANKS\n");
	fprintf(out, "%5s  %-28s %-22s %9s %11s %11s %10s %10s %6s %7s %7s", "rank", "trace", "GPU",
		"kernels", "kernel ms", "busy ms", "comm ms", "wait ms", "wait%", "passes", "layers");
	for (int st = 0; st < TS_PSTAGE_COUNT; st++)
		if (stage_used(m, st))
			fprintf(out, " %11s", ts_pstage_name((ts_pstage)st));
	fputc('\n', out);
	for (size_t i = 0; i < m->n; i++) {
		const ts_rank_summary *r = &m->ranks[i];
		const char *gpu = r->gpu[0] ? r->gpu : "-";
		fprintf(out, "%5" PRId64 "  ", r->rank);
		char label[256];
		rank_label(m, i, label, sizeof label);
		put_tail(out, label, 28);
		fprintf(out, " %-22.22s %9" PRIu64 " %11.3f %11.3f %10.3f %10.3f %6.1f %7" PRIu64
			" %7" PRIu32, gpu, r->kernels, ms(r->kernel_ns),
			ms(r->busy_ns), ms(r->comm_ns), ms(k->wait[i].wait_ns),
			pct(k->wait[i].wait_ns, r->comm_ns), r->passes, r->layers_per_pass);
		for (int st = 0; st < TS_PSTAGE_COUNT; st++)
			if (stage_used(m, st)) {
				if (r->stage_passes[st])
					fprintf(out, " %11.3f", ms(r->stage_ns[st]));
				else
					fprintf(out, " %11s", "-");
			}
		if (r->err.status != TS_OK)
			fprintf(out, "  %s: %s", r->partial ? "partial" : "failed", r->err.msg);
		fputc('\n', out);
	}
	fprintf(out, "\nSKEW over %zu ranks (ms)%*s %12s %12s %12s  slowest\n", m->n,
		m->n < 10 ? 5 : 4, "", "min", "median", "max");
	text_spread(out, m, "kernel time", &k->kernel);
	text_spread(out, m, "busy time", &k->busy);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		char what[64];
		snprintf(what, sizeof what, "stage %s", ts_pstage_name((ts_pstage)st));
		text_spread(out, m, what, &k->stage[st]);
	}
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		if (!k->npos[st])
			continue;
		pos_width *w = malloc(k->npos[st] * sizeof *w);
		if (!w)
			return -1;
		uint32_t nw = 0;
		for (uint32_t p = 0; p < k->npos[st]; p++) {
			const ts_spread *s = &k->pos[st][p];
			if (s->n >= 2 && s->median > 0 && s->max > s->min)
				w[nw++] = (pos_width){ p, (double)(s->max - s->min) / (double)s->median };
		}
		qsort(w, nw, sizeof *w, by_width);
		if (nw)
			fprintf(out, "  %s layers: the %u widest of %" PRIu32 " positions (max - min over the median)\n",
				ts_pstage_name((ts_pstage)st), nw < TEXT_POSITIONS ? nw : TEXT_POSITIONS,
				k->npos[st]);
		else
			fprintf(out, "  %s layers: no spread at any of %" PRIu32 " positions\n",
				ts_pstage_name((ts_pstage)st), k->npos[st]);
		for (uint32_t i = 0; i < nw && i < TEXT_POSITIONS; i++) {
			char what[64];
			snprintf(what, sizeof what, "  layer %u (%.1f%%)", w[i].pos, 100.0 * w[i].width);
			text_spread(out, m, what, &k->pos[st][w[i].pos]);
		}
		free(w);
	}
	char st[400];
	ts_report_straggler(m, st, sizeof st);
	fprintf(out, "\nstraggler: %s\n", st);
	return ferror(out) ? -1 : 0;
}

void ts_report_straggler(const ts_multi *m, char *buf, size_t n)
{
	const ts_skew *k = m->skew;
	if (k->straggler >= 0 && k->straggler_by_waits)
		snprintf(buf, n, "rank %" PRId64 ", by the collective waits: it waits %.3f ms in its "
			 "collectives, the other ranks %.3f ms (median): they wait for it",
			 m->ranks[k->straggler].rank, ms(k->straggler_wait_ns), ms(k->others_wait_ns));
	else if (k->straggler >= 0)
		snprintf(buf, n, "rank %" PRId64 " is the slowest at %" PRIu32 " of %" PRIu32
			 " layer positions where the ranks differ, %.1f%% over the median on average",
			 m->ranks[k->straggler].rank, k->straggler_slowest, k->straggler_positions,
			 100.0 * k->straggler_over_median);
	else
		snprintf(buf, n, "none (no rank is the slowest at two thirds of the layer positions "
			 "where the ranks differ, nor waits in its collectives a quarter or less of "
			 "what the others wait)");
}

static void json_spread(ts_jw *w, const char *k, const ts_multi *m, const ts_spread *s)
{
	ts_jw_key(w, k);
	if (s->n == 0) {
		ts_jw_null(w);
		return;
	}
	ts_jw_obj(w);
	ts_jw_kus(w, "min_us", s->min);
	ts_jw_kus(w, "median_us", s->median);
	ts_jw_kus(w, "max_us", s->max);
	ts_jw_kint(w, "slowest_rank", m->ranks[s->slowest].rank);
	ts_jw_kuint(w, "ranks", s->n);
	ts_jw_end_obj(w);
}

static void json_rank(ts_jw *w, const ts_multi *m, size_t i)
{
	const ts_rank_summary *r = &m->ranks[i];
	const ts_rank_wait *wt = &m->skew->wait[i];
	ts_jw_nl(w, 4);
	ts_jw_obj(w);
	ts_jw_kint(w, "rank", r->rank);
	ts_jw_kopt_int(w, "trace_rank", r->trace_rank >= 0, r->trace_rank);
	ts_jw_kopt_int(w, "world_size", r->world_size >= 0, r->world_size);
	ts_jw_kstr(w, "path", r->path);
	ts_jw_kstr(w, "status", r->err.status == TS_OK ? "ok" : ts_strerror(r->err.status));
	ts_jw_kbool(w, "partial", r->partial);
	ts_jw_kstr(w, "error", r->err.status != TS_OK ? r->err.msg : NULL);
	ts_jw_kstr(w, "gpu", r->gpu[0] ? r->gpu : NULL);
	ts_jw_nl(w, 5);
	ts_jw_kuint(w, "kernels", r->kernels);
	ts_jw_kus(w, "kernel_time_us", r->kernel_ns);
	ts_jw_kus(w, "busy_us", r->busy_ns);
	ts_jw_kus(w, "span_us", r->span_ns);
	ts_jw_kus(w, "comm_us", r->comm_ns);
	ts_jw_kus(w, "wait_us", wt->wait_ns);
	ts_jw_knum(w, "wait_pct", "%.2f", pct(wt->wait_ns, r->comm_ns));
	ts_jw_kuint(w, "passes", r->passes);
	ts_jw_kuint(w, "layers_per_pass", r->layers_per_pass);
	ts_jw_member(w, 5, "stages");
	ts_jw_obj(w);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		if (!r->stage_passes[st])
			continue;
		ts_jw_key(w, ts_pstage_name((ts_pstage)st));
		ts_jw_obj(w);
		ts_jw_kuint(w, "passes", r->stage_passes[st]);
		ts_jw_kus(w, "gpu_us", r->stage_ns[st]);
		ts_jw_end_obj(w);
	}
	ts_jw_end_obj(w);
	ts_jw_member(w, 5, "collectives");
	ts_jw_arr(w);
	for (size_t c = 0; c < r->ncoll; c++) {
		ts_jw_obj(w);
		ts_jw_kstr(w, "name", r->coll[c].name);
		ts_jw_kuint(w, "count", r->coll[c].count);
		ts_jw_kus(w, "total_us", r->coll[c].ns);
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_kus(w, "collectives_rest_us", r->coll_rest_ns);
	ts_jw_end_obj(w);
}

static void json_skew(ts_jw *w, const ts_multi *m)
{
	const ts_skew *k = m->skew;
	ts_jw_member(w, 2, "skew");
	ts_jw_obj(w);
	ts_jw_kuint(w, "ranks", m->n);
	ts_jw_kstr(w, "rank_source", m->own_ranks ? "trace" : "order");
	ts_jw_nl(w, 4);
	json_spread(w, "kernel_time", m, &k->kernel);
	ts_jw_nl(w, 4);
	json_spread(w, "busy", m, &k->busy);
	ts_jw_member(w, 4, "stages");
	ts_jw_obj(w);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++)
		if (k->stage[st].n)
			json_spread(w, ts_pstage_name((ts_pstage)st), m, &k->stage[st]);
	ts_jw_end_obj(w);
	ts_jw_member(w, 4, "layers");
	ts_jw_obj(w);
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		if (!k->npos[st])
			continue;
		ts_jw_nl(w, 6);
		ts_jw_key(w, ts_pstage_name((ts_pstage)st));
		ts_jw_arr(w);
		for (uint32_t p = 0; p < k->npos[st]; p++) {
			ts_jw_obj(w);
			ts_jw_kuint(w, "index", p);
			json_spread(w, "spread", m, &k->pos[st][p]);
			ts_jw_end_obj(w);
		}
		ts_jw_end_arr(w);
	}
	ts_jw_end_obj(w);
	ts_jw_member(w, 4, "collective_wait");
	ts_jw_arr(w);
	for (size_t i = 0; i < m->n; i++) {
		ts_jw_obj(w);
		ts_jw_kint(w, "rank", m->ranks[i].rank);
		ts_jw_kus(w, "comm_us", k->wait[i].comm_ns);
		ts_jw_kus(w, "wait_us", k->wait[i].wait_ns);
		ts_jw_knum(w, "wait_pct", "%.2f", pct(k->wait[i].wait_ns, k->wait[i].comm_ns));
		ts_jw_end_obj(w);
	}
	ts_jw_end_arr(w);
	ts_jw_member(w, 4, "notes");
	ts_jw_arr(w);
	char notes[4][160];
	size_t nn = ts_report_job_notes(m, notes, 4);
	for (size_t i = 0; i < nn; i++)
		ts_jw_str(w, notes[i]);
	ts_jw_end_arr(w);
	/* not the ranks of one run: why ("9 GPU kinds, 4 layer counts a pass") */
	char why[96];
	ts_jw_member(w, 4, "not_one_job");
	ts_jw_str(w, ts_job_unrelated(m, why, sizeof why) ? why : NULL);
	ts_jw_member(w, 4, "straggler");
	if (k->straggler >= 0) {
		ts_jw_obj(w);
		ts_jw_kint(w, "rank", m->ranks[k->straggler].rank);
		ts_jw_kstr(w, "by", k->straggler_by_waits ? "collective_waits" : "layer_positions");
		ts_jw_kuint(w, "slowest_at", k->straggler_slowest);
		ts_jw_kuint(w, "positions", k->straggler_positions);
		ts_jw_knum(w, "over_median_pct", "%.2f", 100.0 * k->straggler_over_median);
		ts_jw_kopt_us(w, "wait_us", k->straggler_by_waits, k->straggler_wait_ns);
		ts_jw_kopt_us(w, "others_wait_median_us", k->straggler_by_waits, k->others_wait_ns);
		ts_jw_end_obj(w);
	} else {
		ts_jw_null(w);
	}
	ts_jw_end_obj(w);
}

void ts_report_ranks_json(ts_jw *w, const ts_multi *m)
{
	ts_jw_member(w, 2, "ranks");
	ts_jw_arr(w);
	for (size_t i = 0; i < m->n; i++)
		json_rank(w, m, i);
	ts_jw_nl(w, 2);
	ts_jw_end_arr(w);
	json_skew(w, m);
}
