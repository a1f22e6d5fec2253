/*
 * report_ranks.c - a job over many ranks: the rank table, the skew between
 * ranks (per stage and per layer position) and the straggler, as text and
 * JSON. Reads ts_multi only.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

static const char *base(const char *path)
{
	if (strcmp(path, "-") == 0)
		return "<stdin>";
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
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
static size_t job_notes(const ts_multi *m, char (*notes)[160], size_t max)
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
	else if (world >= 0 && (size_t)world != m->n && n < max)
		snprintf(notes[n++], 160, "%zu of the job's %" PRId64 " ranks are given", m->n, world);
	if (gpus_differ && n < max)
		snprintf(notes[n++], 160, "the ranks ran on different GPUs");
	return n;
}

int ts_report_ranks_text(FILE *out, const ts_multi *m)
{
	const ts_skew *k = m->skew;
	fprintf(out, "\nJOB: %zu traces, one per rank (ranks %s)\n", m->n,
		m->own_ranks ? "from their distributedInfo"
			     : "numbered by their order: the traces' own ranks are missing or repeat");
	char notes[4][160];
	size_t nn = job_notes(m, notes, 4);
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
		put_tail(out, base(r->path), 28);
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
		if (r->status != TS_OK)
			fprintf(out, "  %s: %s", r->partial ? "partial" : "failed", r->error);
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
	if (k->straggler >= 0)
		fprintf(out, "\nstraggler: rank %" PRId64 " is the slowest at %" PRIu32 " of %" PRIu32
			" layer positions where the ranks differ, %.1f%% over the median on average\n",
			m->ranks[k->straggler].rank, k->straggler_slowest, k->straggler_positions,
			100.0 * k->straggler_over_median);
	else
		fprintf(out, "\nstraggler: none (no rank is the slowest at two thirds of the layer positions where the ranks differ)\n");
	return ferror(out) ? -1 : 0;
}

static void json_us(FILE *out, int64_t ns)
{
	char b[40];
	ts_fmt_us(b, sizeof b, ns);
	fputs(b, out);
}

static void json_spread(FILE *out, const ts_multi *m, const ts_spread *s)
{
	if (s->n == 0) {
		fputs("null", out);
		return;
	}
	fputs("{\"min_us\": ", out);
	json_us(out, s->min);
	fputs(", \"median_us\": ", out);
	json_us(out, s->median);
	fputs(", \"max_us\": ", out);
	json_us(out, s->max);
	fprintf(out, ", \"slowest_rank\": %" PRId64 ", \"ranks\": %zu}", m->ranks[s->slowest].rank, s->n);
}

static void json_rank(FILE *out, const ts_multi *m, size_t i)
{
	const ts_rank_summary *r = &m->ranks[i];
	const ts_rank_wait *w = &m->skew->wait[i];
	fprintf(out, "    {\"rank\": %" PRId64 ", ", r->rank);
	if (r->trace_rank >= 0)
		fprintf(out, "\"trace_rank\": %" PRId64 ", ", r->trace_rank);
	else
		fputs("\"trace_rank\": null, ", out);
	if (r->world_size >= 0)
		fprintf(out, "\"world_size\": %" PRId64 ", ", r->world_size);
	else
		fputs("\"world_size\": null, ", out);
	fputs("\"path\": ", out);
	ts_json_str(out, r->path, strlen(r->path));
	fprintf(out, ", \"status\": \"%s\", \"partial\": %s, \"error\": ",
		r->status == TS_OK ? "ok" : ts_strerror(r->status), r->partial ? "true" : "false");
	if (r->status != TS_OK)
		ts_json_str(out, r->error, strlen(r->error));
	else
		fputs("null", out);
	fputs(", \"gpu\": ", out);
	if (r->gpu[0])
		ts_json_str(out, r->gpu, strlen(r->gpu));
	else
		fputs("null", out);
	fprintf(out, ",\n     \"kernels\": %" PRIu64 ", \"kernel_time_us\": ", r->kernels);
	json_us(out, r->kernel_ns);
	fputs(", \"busy_us\": ", out);
	json_us(out, r->busy_ns);
	fputs(", \"span_us\": ", out);
	json_us(out, r->span_ns);
	fputs(", \"comm_us\": ", out);
	json_us(out, r->comm_ns);
	fputs(", \"wait_us\": ", out);
	json_us(out, w->wait_ns);
	fprintf(out, ", \"wait_pct\": %.2f, \"passes\": %" PRIu64 ", \"layers_per_pass\": %" PRIu32
		",\n     \"stages\": {", pct(w->wait_ns, r->comm_ns), r->passes, r->layers_per_pass);
	bool first = true;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		if (!r->stage_passes[st])
			continue;
		fprintf(out, "%s\"%s\": {\"passes\": %" PRIu64 ", \"gpu_us\": ", first ? "" : ", ",
			ts_pstage_name((ts_pstage)st), r->stage_passes[st]);
		json_us(out, r->stage_ns[st]);
		fputc('}', out);
		first = false;
	}
	fputs("},\n     \"collectives\": [", out);
	for (size_t c = 0; c < r->ncoll; c++) {
		fprintf(out, "%s{\"name\": ", c ? ", " : "");
		ts_json_str(out, r->coll[c].name, strlen(r->coll[c].name));
		fprintf(out, ", \"count\": %" PRIu64 ", \"total_us\": ", r->coll[c].count);
		json_us(out, r->coll[c].ns);
		fputc('}', out);
	}
	fputs("], \"collectives_rest_us\": ", out);
	json_us(out, r->coll_rest_ns);
	fputc('}', out);
}

void ts_report_ranks_json(FILE *out, const ts_multi *m)
{
	const ts_skew *k = m->skew;
	fputs("  \"ranks\": [\n", out);
	for (size_t i = 0; i < m->n; i++) {
		json_rank(out, m, i);
		fputs(i + 1 < m->n ? ",\n" : "\n", out);
	}
	fprintf(out, "  ],\n  \"skew\": {\"ranks\": %zu, \"rank_source\": \"%s\",\n    \"kernel_time\": ",
		m->n, m->own_ranks ? "trace" : "order");
	json_spread(out, m, &k->kernel);
	fputs(",\n    \"busy\": ", out);
	json_spread(out, m, &k->busy);
	fputs(",\n    \"stages\": {", out);
	bool first = true;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		if (!k->stage[st].n)
			continue;
		fprintf(out, "%s\"%s\": ", first ? "" : ", ", ts_pstage_name((ts_pstage)st));
		json_spread(out, m, &k->stage[st]);
		first = false;
	}
	fputs("},\n    \"layers\": {", out);
	first = true;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		if (!k->npos[st])
			continue;
		fprintf(out, "%s\n      \"%s\": [", first ? "" : ",", ts_pstage_name((ts_pstage)st));
		for (uint32_t p = 0; p < k->npos[st]; p++) {
			fprintf(out, "%s{\"index\": %" PRIu32 ", \"spread\": ", p ? ", " : "", p);
			json_spread(out, m, &k->pos[st][p]);
			fputc('}', out);
		}
		fputc(']', out);
		first = false;
	}
	fputs("},\n    \"collective_wait\": [", out);
	for (size_t i = 0; i < m->n; i++) {
		fprintf(out, "%s{\"rank\": %" PRId64 ", \"comm_us\": ", i ? ", " : "", m->ranks[i].rank);
		json_us(out, k->wait[i].comm_ns);
		fputs(", \"wait_us\": ", out);
		json_us(out, k->wait[i].wait_ns);
		fprintf(out, ", \"wait_pct\": %.2f}", pct(k->wait[i].wait_ns, k->wait[i].comm_ns));
	}
	fputs("],\n    \"notes\": [", out);
	char notes[4][160];
	size_t nn = job_notes(m, notes, 4);
	for (size_t i = 0; i < nn; i++) {
		if (i)
			fputs(", ", out);
		ts_json_str(out, notes[i], strlen(notes[i]));
	}
	fputs("],\n    \"straggler\": ", out);
	if (k->straggler >= 0)
		fprintf(out, "{\"rank\": %" PRId64 ", \"slowest_at\": %" PRIu32
			", \"positions\": %" PRIu32 ", \"over_median_pct\": %.2f}",
			m->ranks[k->straggler].rank, k->straggler_slowest, k->straggler_positions,
			100.0 * k->straggler_over_median);
	else
		fputs("null", out);
	fputs("}\n", out);
}
