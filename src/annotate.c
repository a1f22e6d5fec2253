/*
 * annotate.c - tracestream annotate TRACE -o OUT: the trace written back,
 * every original byte as it was, with tracks for Perfetto added at the end
 * of traceEvents: a slice per forward pass (stage, batch, tokens, evidence),
 * per layer of each pass (index, type, kernels) and per idle gap of 5 us or
 * more inside a pass (launch-bound ones named so), on a process of their
 * own.
 *
 * Two passes over the file: the new events are known only once the passes
 * are (the first pass is the usual analysis, which also notes where
 * traceEvents' last event ends and where its ']' is); the second copies the
 * bytes through and writes the new events before that ']'. So a pipe cannot
 * be annotated (the command refuses '-'). Memory: the analysis's, plus the
 * new events (a few hundred bytes per pass and per layer). A trace cut
 * short is annotated as far as it was read: the copy stops after its last
 * whole event, the new events follow, the document is closed, and a
 * metadata event says it is partial; never a broken JSON file.
 */
#include "annotate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "input/base/intern.h"
#include "analysis/views/kview.h"
#include "analysis/views/memory.h"
#include "input/reader.h"
#include "report/jsonw.h"
#include "report/outfile.h"

#define ANNOT_PID 999999999  /* the tracks' own process */

/* Where the copy goes: the file, deflated when its name ends in .gz. */
typedef struct {
	FILE *f;
	bool gz;
	z_stream z;
	bool failed;
	unsigned char out[65536];
} sink;

static void sink_write(sink *s, const void *p, size_t n, int flush)
{
	if (s->failed)
		return;
	if (!s->gz) {
		if (n && fwrite(p, 1, n, s->f) != n)
			s->failed = true;
		return;
	}
	s->z.next_in = (Bytef *)p;
	s->z.avail_in = (uInt)n;
	do {
		s->z.next_out = s->out;
		s->z.avail_out = sizeof s->out;
		int r = deflate(&s->z, flush);
		if (r == Z_STREAM_ERROR) {
			s->failed = true;
			return;
		}
		size_t k = sizeof s->out - s->z.avail_out;
		if (k && fwrite(s->out, 1, k, s->f) != k) {
			s->failed = true;
			return;
		}
	} while (s->z.avail_out == 0 || (flush == Z_FINISH && s->z.avail_in > 0));
}

static void put(sink *s, const char *text)
{
	sink_write(s, text, strlen(text), Z_NO_FLUSH);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* ------------------------------------------------------------ new events */

static void ev_begin(ts_jw *w, const char *ph, const char *name, int tid)
{
	ts_jw_nl(w, 0);
	ts_jw_obj(w);
	ts_jw_kstr(w, "ph", ph);
	ts_jw_kstr(w, "cat", "tracestream");
	ts_jw_kstr(w, "name", name);
	ts_jw_kint(w, "pid", ANNOT_PID);
	ts_jw_kint(w, "tid", tid);
}

static void ev_span(ts_jw *w, int64_t start_ns, int64_t dur_ns)
{
	ts_jw_knum(w, "ts", "%.3f", (double)start_ns / 1e3);
	ts_jw_knum(w, "dur", "%.3f", (double)(dur_ns > 0 ? dur_ns : 0) / 1e3);
}

static void meta_name(ts_jw *w, const char *what, int tid, const char *name)
{
	ev_begin(w, "M", what, tid);
	ts_jw_key(w, "args");
	ts_jw_obj(w);
	ts_jw_kstr(w, "name", name);
	ts_jw_end_obj(w);
	ts_jw_end_obj(w);
}

static const char *kernel_name(const ts_result *res, uint32_t row)
{
	if (row == TS_INTERN_NONE || row >= ts_intern_count(res->agg->names))
		return NULL;
	const ts_kclass *c = ts_kview_row_class(res->agg, row);
	return c ? c->short_name : NULL;
}

/* Is pass idx among the passes the report lists (they are in index
 * order)? Only those get tracks: a stretch the layer machine closed as a
 * pass but did not keep (no layer, a training step undone) gets none. */
static const ts_pass *listed(const ts_layers *l, uint32_t idx)
{
	size_t lo = 0, hi = ts_layers_npasses(l);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const ts_pass *p = ts_layers_pass(l, mid);
		if (p->index == idx)
			return p;
		if (p->index < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The tracks: the new events, as a JSON array's items (no brackets). */
/* Device memory as a counter track (where the trace has the allocator's
 * events): the allocated bytes of the GPU with the most events, each
 * point the peak of its stretch of the trace. */
#define ANNOT_MEM_POINTS 4096
static void write_memory(ts_jw *w, const ts_result *res)
{
	int64_t *t = malloc(2 * ANNOT_MEM_POINTS * sizeof *t);
	if (!t)
		return;
	int64_t *a = t + ANNOT_MEM_POINTS;
	size_t n = ts_memory_series(ts_memory_of(res), t, a, ANNOT_MEM_POINTS);
	for (size_t i = 0; i < n; i++) {
		ev_begin(w, "C", "device memory allocated", 0);
		ts_jw_knum(w, "ts", "%.3f", (double)t[i] / 1e3);
		ts_jw_key(w, "args");
		ts_jw_obj(w);
		ts_jw_kint(w, "bytes", a[i]);
		ts_jw_end_obj(w);
		ts_jw_end_obj(w);
	}
	free(t);
}

static void write_events(ts_jw *w, const ts_result *res)
{
	/* the array the items go into is the writer's only container */
	meta_name(w, "process_name", 0, "tracestream: passes, layers, idle");
	meta_name(w, "thread_name", 1, "forward passes");
	meta_name(w, "thread_name", 2, "layers");
	meta_name(w, "thread_name", 3, "idle gaps (5 us or more)");
	if (res->partial) {
		ev_begin(w, "M", "tracestream_partial", 0);
		ts_jw_key(w, "args");
		ts_jw_obj(w);
		ts_jw_kbool(w, "partial", true);
		ts_jw_kstr(w, "error", res->err.msg);
		ts_jw_end_obj(w);
		ts_jw_end_obj(w);
	}
	const ts_layers *l = res->layers;
	for (size_t i = 0; l && i < ts_layers_npasses(l); i++) {
		const ts_pass *p = ts_layers_pass(l, i);
		char name[64], ev[160];
		snprintf(name, sizeof name, "%s pass %" PRIu32, ts_pstage_name(p->stage), p->index);
		ev_begin(w, "X", name, 1);
		int64_t start = p->idle.span_ns > 0 ? p->idle.start_ns : p->first_ts;
		ev_span(w, start, p->idle.span_ns);
		ts_jw_key(w, "args");
		ts_jw_obj(w);
		ts_jw_kuint(w, "index", p->index);
		ts_jw_kstr(w, "stage", ts_pstage_name(p->stage));
		ts_jw_kbool(w, "complete", p->complete);
		ts_jw_kuint(w, "layers", p->layers);
		ts_jw_kuint(w, "kernels", p->kernels);
		ts_jw_kus(w, "gpu_time_us", p->gpu_ns);
		ts_jw_kopt_int(w, "batch", p->batch >= 0, p->batch);
		ts_jw_kopt_int(w, "tokens", p->tokens >= 0, p->tokens);
		ts_pass_evidence(l, p, ev, sizeof ev);
		ts_jw_kstr(w, "evidence", ev);
		ts_jw_knum(w, "busy_pct", "%.2f", p->idle.span_ns > 0
			   ? 100.0 * (double)p->idle.busy_ns / (double)p->idle.span_ns : 0.0);
		ts_jw_kus(w, "idle_us", p->idle.idle_ns);
		ts_jw_kuint(w, "launch_bound_gaps", p->idle.launch_gaps);
		ts_jw_end_obj(w);
		ts_jw_end_obj(w);
	}
	const ts_gap_span *g;
	uint64_t gdropped;
	size_t ng = l ? ts_layers_gaps(l, &g, &gdropped) : 0;
	for (size_t i = 0; i < ng; i++) {
		/* within the pass as it was finally laid out (its edges may have
		 * been cut after its gaps were told) */
		const ts_pass *p = listed(l, g[i].pass);
		if (!p || g[i].start < p->idle.start_ns ||
		    g[i].start + g[i].len > p->idle.start_ns + p->idle.span_ns)
			continue;
		ev_begin(w, "X", g[i].launch_bound ? "idle (launch-bound)" : "idle", 3);
		ev_span(w, g[i].start, g[i].len);
		ts_jw_key(w, "args");
		ts_jw_obj(w);
		ts_jw_kuint(w, "pass", g[i].pass);
		ts_jw_kbool(w, "launch_bound", g[i].launch_bound);
		ts_jw_kstr(w, "after", kernel_name(res, g[i].after));
		ts_jw_kstr(w, "before", kernel_name(res, g[i].before));
		ts_jw_end_obj(w);
		ts_jw_end_obj(w);
	}
	write_memory(w, res);
	const ts_layer_span *s;
	uint64_t dropped;
	size_t n = l ? ts_layers_spans(l, &s, &dropped) : 0;
	for (size_t i = 0; i < n; i++) {
		if (!listed(l, s[i].pass))
			continue;
		char name[64];
		snprintf(name, sizeof name, "layer %" PRIu32 " (%s)", s[i].layer,
			 ts_ltype_name(res->patterns, (ts_ltype)s[i].type));
		ev_begin(w, "X", name, 2);
		ev_span(w, s[i].start, s[i].end - s[i].start);
		ts_jw_key(w, "args");
		ts_jw_obj(w);
		ts_jw_kuint(w, "pass", s[i].pass);
		ts_jw_kuint(w, "layer", s[i].layer);
		ts_jw_kstr(w, "type", ts_ltype_name(res->patterns, (ts_ltype)s[i].type));
		ts_jw_kuint(w, "kernels", s[i].kernels);
		ts_jw_end_obj(w);
		ts_jw_end_obj(w);
	}
}

/* The new events as text: ",\n" before each one (the first one's comma
 * left out when traceEvents is empty). */
static char *events_text(const ts_result *res, size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);
	if (!m)
		return NULL;
	ts_jw w;
	if (!ts_jw_init(&w, m)) {
		fclose(m);
		free(buf);
		return NULL;
	}
	ts_jw_arr(&w);
	write_events(&w, res);
	ts_jw_nl(&w, 0);
	ts_jw_end_arr(&w);
	int rc = ts_jw_finish(&w);
	if (fclose(m) != 0 || rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ------------------------------------------------------------ the copy */

/* Copy the JSON text's bytes [from, to) (to: UINT64_MAX for the end). */
static bool copy_range(ts_reader *r, sink *s, uint64_t *at, uint64_t to, char *buf, size_t cap)
{
	while (*at < to) {
		size_t want = cap;
		if (to != UINT64_MAX && to - *at < want)
			want = (size_t)(to - *at);
		size_t n;
		const char *p;
		if (ts_reader_view(r, buf, want, &p, &n) != TS_OK)
			return false;
		if (n == 0)
			return to == UINT64_MAX;
		sink_write(s, p, n, Z_NO_FLUSH);
		*at += n;
	}
	return true;
}

int ts_annotate(const char *path, const char *out_path, ts_pipeline_opts *po, bool quiet,
		void (*verbose)(const ts_result *res))
{
	struct stat a, b;
	if (out_path && strcmp(out_path, "-") != 0 && stat(path, &a) == 0 && stat(out_path, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		fprintf(stderr, "tracestream: %s: annotate would write over the trace it reads: name "
			"another file\n", out_path);
		return TS_EXIT_USAGE_IO;
	}
	po->layers.spans = true;
	ts_result res;
	ts_status st = ts_pipeline_run(path, po, &res);
	const ts_meta *m = &res.meta;
	if (verbose && res.opened)
		verbose(&res);
	int code = ts_exit_code(st);
	if (!res.opened || !res.agg || m->events_in_array == 0) {
		if (res.err.status == TS_OK)
			ts_error_set(&res.err, TS_ERR_NOT_TRACE, "not a trace: nothing in traceEvents to "
				     "annotate");
		ts_error_print(stderr, path, res.gzip, res.opened, &res.err);
		ts_result_free(&res);
		return code ? code : TS_EXIT_TRACE;
	}
	bool cut = st != TS_OK;
	/* the copy stops at traceEvents' ']' (whole trace), or after its last
	 * whole event (cut trace: the rest is lost, the document is closed) */
	uint64_t stop = !cut && m->events_close ? m->events_close - 1 : m->last_event_end;
	size_t elen;
	char *events = events_text(&res, &elen);
	ts_outfile of;
	if (!events) {
		fprintf(stderr, "tracestream: annotate: out of memory\n");
		ts_result_free(&res);
		return TS_EXIT_USAGE_IO;
	}
	if (!ts_outfile_open(&of, out_path)) {
		ts_outfile_perror(&of, NULL);
		free(events);
		ts_result_free(&res);
		return TS_EXIT_USAGE_IO;
	}
	bool ok = true;
	sink s = { .f = of.f, .gz = out_path && ends_with(out_path, ".gz") };
	if (ok && s.gz && deflateInit2(&s.z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		s.failed = true;
	ts_status rst = TS_OK;
	ts_reader *r = ok ? ts_reader_open(path, 0, true, &rst) : NULL;
	char *buf = malloc(1 << 18);
	if (ok && r && buf) {
		uint64_t at = 0;
		ok = copy_range(r, &s, &at, stop, buf, 1 << 18);
		/* the items of the events' array, after traceEvents' own */
		const char *items = strchr(events, '\n');   /* past the "[" */
		const char *end = events + elen;
		while (end > items && (end[-1] == '\n' || end[-1] == ']'))
			end--;
		put(&s, ",");
		sink_write(&s, items, (size_t)(end - items), Z_NO_FLUSH);
		put(&s, "\n");
		if (cut)
			put(&s, "]}\n");
		else if (ok)
			ok = copy_range(r, &s, &at, UINT64_MAX, buf, 1 << 18);
		if (s.gz)
			sink_write(&s, "", 0, Z_FINISH);
	} else {
		ok = false;
	}
	if (s.gz)
		deflateEnd(&s.z);
	bool written = ts_outfile_close(&of, ok && !s.failed);
	if (!written)
		ts_outfile_perror(&of, NULL);
	else if (cut)
		ts_error_print(stderr, path, res.gzip, true, &res.err);
	if (written && cut && !quiet)
		fprintf(stderr, "tracestream: the annotated trace holds what was read before this "
			"point (marked partial)\n");
	ts_reader_free(r);
	free(buf);
	free(events);
	ts_result_free(&res);
	if (!written)
		return TS_EXIT_USAGE_IO;
	return cut ? code : TS_EXIT_OK;
}
