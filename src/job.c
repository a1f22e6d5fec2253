/*
 * job.c - the modes of the command: one trace, the ranks of a job, a merge
 * of saved partials, a comparison, and the --capture traces they read
 * first. Only the command prints diagnostics; each mode returns the exit
 * code.
 */
#include "job.h"
#include "patterns_cmd.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "multi.h"
#include "annotate.h"
#include "partial.h"
#include "pipeline.h"
#include "input/base/label.h"
#include "input/pparse.h"
#include "report/outfile.h"
#include "report/report.h"
#include "tables/classify.h"
#include "tables/gpu.h"

static bool want_progress(const options *o)
{
	if (o->progress >= 0)
		return o->progress;
	const char *ci = getenv("CI");
	return isatty(STDERR_FILENO) && !(ci && *ci) && !o->quiet;
}

static int text_width(const options *o)
{
	if (o->width >= 0)
		return o->width;
	if (o->output && strcmp(o->output, "-") != 0)
		return 0;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

/* Regexes of the tables that gave up on a name (PCRE2's limits): a table
 * error, after the report. */
static bool regex_limits(const ts_patterns *p)
{
	char lines[8][TS_PATTERN_ERR_LEN];
	size_t n = ts_patterns_regex_limits(p, lines, 8);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "tracestream: %s\n", lines[i]);
	return n > 0;
}

/* --csv-dir DIR: every table (of a trace, or of compare c) as
 * DIR/NAME.csv, DIR made when missing; all of them or none: each is
 * written beside its name, and they are put in place once all are. */
static bool csv_dir(const char *dir, const ts_result *res, const ts_report_opts *ro,
		    const ts_compare *c)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "tracestream: %s: cannot make the directory: %s\n", dir, strerror(errno));
		return false;
	}
	const char *const *names = c ? ts_tview_compare_tables : ts_tview_tables;
	size_t nnames = 0, held = 0;
	while (names[nnames])
		nnames++;
	ts_outfile *of = calloc(nnames ? nnames : 1, sizeof *of);
	if (!of) {
		fprintf(stderr, "tracestream: %s: out of memory\n", dir);
		return false;
	}
	bool good = true;
	for (size_t i = 0; names[i] && good; i++) {
		if (!c && !ts_report_table_applies(res, ro, names[i]))
			continue;
		char path[PATH_MAX];
		if (snprintf(path, sizeof path, "%s/%s.csv", dir, names[i]) >= (int)sizeof path) {
			fprintf(stderr, "tracestream: %s: path too long\n", dir);
			good = false;
			break;
		}
		ts_outfile *o = &of[held];
		if (!ts_outfile_open(o, path) ||
		    !ts_outfile_close_held(o, (c ? ts_report_compare_csv(o->f, c, names[i])
						  : ts_report_csv(o->f, res, ro, names[i])) == 0)) {
			ts_outfile_perror(o, NULL);
			good = false;
			break;
		}
		held++;
	}
	for (size_t i = 0; i < held; i++) {
		if (!good) {
			ts_outfile_discard(&of[i]);
		} else if (!ts_outfile_commit(&of[i])) {
			ts_outfile_perror(&of[i], NULL);
			good = false;
		}
	}
	free(of);
	return good;
}

static bool write_csv_dir(const char *dir, const ts_result *res, const ts_report_opts *ro)
{
	return csv_dir(dir, res, ro, NULL);
}

static bool write_cmp_csv_dir(const char *dir, const ts_compare *c)
{
	return csv_dir(dir, NULL, NULL, c);
}

/* Every warning of a run, a line each on stderr. */
static void print_warnings(const ts_result *res)
{
	ts_warns w;
	ts_result_warnings(res, &w);
	for (size_t i = 0; i < w.n; i++)
		fprintf(stderr, "tracestream: warning: %s\n", w.line[i]);
}

static void print_error(const ts_result *res, const char *side)
{
	char buf[PATH_MAX + 64];
	const char *what = ts_path_label(res->path, false);
	if (side) {
		snprintf(buf, sizeof buf, "%s: %s", side, what);
		what = buf;
	}
	ts_error_print(stderr, what, res->gzip, res->opened, &res->err);
	if (!res->opened) {
		if (res->open_errno == ENOENT)
			fprintf(stderr, "hint: check the path; use - to read standard input\n");
		return;
	}
	if (res->partial)
		fprintf(stderr, "tracestream: the report covers only what was read before this point (marked partial)\n");
}

static void print_verbose(const ts_result *res)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double mb = (double)res->json_bytes / 1e6;
	fprintf(stderr,
		"tracestream: %.1f MB of JSON in %.3f s (%.1f MB/s), peak RSS %.1f MB, tables %.1f KB\n",
		mb, res->seconds, res->seconds > 0 ? mb / res->seconds : 0.0,
		(double)ru.ru_maxrss / 1024.0,
		res->agg ? (double)ts_agg_bytes(res->agg) / 1024.0 : 0.0);
	if (res->parse_threads)
		fprintf(stderr, "tracestream: parsed on %d threads: %llu pieces, %llu of them again "
			"in order\n", res->parse_threads, (unsigned long long)res->pieces,
			(unsigned long long)res->pieces_in_order);
}

/* Does the file begin as a saved partial does? */
static bool is_partial_file(const char *path)
{
	unsigned char head[8];
	if (strcmp(path, "-") == 0)
		return false;
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t got = fread(head, 1, sizeof head, f);
	fclose(f);
	return ts_partial_is(head, got);
}

/* --capture PARTIAL: the capture map a partial saved with --capture
 * carries. false: it could not be read (*fatal) or was bad (printed). */
static bool take_partial_captures(ts_capmap *map, const char *flag, const char *path,
				  const ts_patterns *patterns, bool *fatal)
{
	unsigned char *p;
	size_t n;
	ts_error err = { 0 };
	bool present = false;
	char what[PATH_MAX + 64];
	snprintf(what, sizeof what, "%s: %s", flag, path);
	ts_status st = ts_partial_read_file(path, &p, &n, &err);
	if (st != TS_OK) {   /* a bad header is a bad partial, as below */
		ts_error_print(stderr, what, false, st == TS_ERR_PARTIAL, &err);
		*fatal = st != TS_ERR_PARTIAL;
		return false;
	}
	st = ts_partial_captures(map, patterns, p, n, &present, &err);
	free(p);
	if (st != TS_OK) {
		ts_error_print(stderr, what, false, st != TS_ERR_NOMEM, &err);
		*fatal = st == TS_ERR_NOMEM;
		return false;
	}
	if (!present) {
		fprintf(stderr, "tracestream: %s: %s: a saved partial with no capture map "
			"(its run had no --capture)\n", flag, path);
		return false;
	}
	return true;
}

/* --capture (or compare's --capture-b, the flag named in messages): read
 * every capture trace of the list, recording its graphs, and the capture
 * maps of saved partials. Errors are printed; graphs of the windows read
 * before one are kept. Returns the map (NULL: out of memory, or a capture
 * that could not be opened) and in *bad whether a capture was bad. */
static ts_capmap *read_captures(const options *o, const char *flag, const char *const *list,
				size_t nlist, const ts_pipeline_opts *base, bool *bad)
{
	char **paths = NULL;
	size_t n = 0;
	ts_error err;
	size_t unread;
	*bad = false;
	if (!ts_multi_paths((char *const *)list, nlist, &paths, &n, &unread, &err)) {
		fprintf(stderr, "tracestream: %s: %s\n", flag, err.msg);
		return NULL;
	}
	*bad = unread > 0;
	ts_capmap *map = ts_capmap_new();
	if (!map) {
		fprintf(stderr, "tracestream: %s: out of memory\n", flag);
		ts_multi_paths_free(paths, n);
		return NULL;
	}
	ts_pipeline_opts po = *base;
	po.progress = NULL;
	po.captures = NULL;
	po.record = map;
	po.layers.debug = 0;
	for (size_t i = 0; i < n; i++) {
		if (is_partial_file(paths[i])) {
			bool fatal = false;
			if (!take_partial_captures(map, flag, paths[i], base->patterns, &fatal))
				*bad = true;
			if (fatal) {
				ts_capmap_free(map);
				ts_multi_paths_free(paths, n);
				return NULL;
			}
			continue;
		}
		ts_result res;
		ts_status st = ts_pipeline_run(paths[i], &po, &res);
		if (!res.opened || st == TS_ERR_NOMEM) {
			print_error(&res, flag);
			ts_result_free(&res);
			ts_capmap_free(map);
			ts_multi_paths_free(paths, n);
			return NULL;
		}
		if (st != TS_OK) {
			res.partial = false;   /* it is the capture that was cut, not the report */
			print_error(&res, flag);
			fprintf(stderr, "tracestream: %s: the graphs captured before that point are used\n",
				flag);
			*bad = true;
		}
		ts_result_free(&res);
	}
	ts_multi_paths_free(paths, n);
	const ts_capture_totals *t = ts_capmap_totals(map);
	if (!ts_capmap_ngraphs(map) && !o->quiet)
		fprintf(stderr, "tracestream: warning: %s: no graph captures found "
			"(no StreamBeginCapture .. StreamEndCapture window with kernel launches) "
			"in %u file%s\n", flag, t->files, t->files == 1 ? "" : "s");
	if (o->verbose)
		fprintf(stderr, "tracestream: %s: %llu graphs (%zu distinct, %zu kernel nodes) "
			"from %u file%s, %.1f KB\n", flag, (unsigned long long)t->graphs,
			ts_capmap_ngraphs(map), ts_capmap_nnodes(map), t->files,
			t->files == 1 ? "" : "s", (double)ts_capmap_bytes(map) / 1024.0);
	return map;
}

/* Parse threads for each of `sharing` traces analysed at once. By
 * default the cores shared among them, at most TS_PPARSE_DEFAULT_MAX. An
 * explicit -T is one trace's: traces parsed at once share the larger of
 * it and the cores, so that the process never runs more parse threads
 * than that in all (-j 1024 -T 256 would be 262,144 threads, past the
 * kernel's mappings). At least 1 (in order, no worker thread). */
static int parse_threads(const options *o, int sharing)
{
	int cores = ts_cores();
	if (sharing < 1)
		sharing = 1;
	if (o->threads > 0) {
		int all = o->threads > cores ? o->threads : cores;
		int n = all / sharing;
		return n < 1 ? 1 : n > o->threads ? o->threads : n;
	}
	int n = cores / sharing;
	return n < 1 ? 1 : n > TS_PPARSE_DEFAULT_MAX ? TS_PPARSE_DEFAULT_MAX : n;
}

/* Ranks analysed at a time: -j or the cores, at most TS_JOBS_PER_CORE a
 * core (each holds a pipeline's memory and a thread; past the cores they
 * only wait on slow reads). */
static int rank_jobs(const options *o, int cores)
{
	int most = cores * TS_JOBS_PER_CORE;
	int jobs = o->jobs > 0 ? o->jobs : cores;
	return jobs > most ? most : jobs;
}

static ts_pipeline_opts pipeline_opts(const options *o, const ts_patterns *patterns)
{
	ts_pipeline_opts po = { .read_size = o->read_size, .no_mmap = o->no_mmap, .limits = o->limits,
				.threads = parse_threads(o, 1),
				.piece_size = o->piece_size,
				.join_mem = o->join_mem, .sort_mem = o->sort_mem,
				.patterns = patterns, .model = o->model, .gpu = o->gpu,
				.layers = { .split_half_layers = o->split_half_layers,
					    .model = o->model, .expect_layers = o->expect_layers,
					    .decode_threshold = o->decode_threshold,
					    .debug = o->debug, .debug_pass = o->debug_pass,
					    .debug_stage = o->stage > 0 ? o->stage - 1 : -1 } };
	memcpy(po.layers.debug_layers, o->debug_layers, sizeof po.layers.debug_layers);
	return po;
}

/* One side of a comparison, run on its own thread. */
typedef struct {
	const char *path;
	const ts_pipeline_opts *po;
	ts_result res;
	ts_status st;
} side_run;

static void *run_side(void *arg)
{
	side_run *s = arg;
	s->st = ts_pipeline_run(s->path, s->po, &s->res);
	return NULL;
}

/* tracestream compare A B: both analyses at once, one report. */
/* compare A B: both analysed at once; --capture serves both, unless B has
 * its own (--capture-b). */
static int run_compare(const options *o, const ts_pipeline_opts *base, const ts_capmap *captures_b)
{
	ts_pipeline_opts po = *base;
	po.layers.sample = true;
	po.progress = NULL;     /* two progress lines would fight over stderr */
	po.threads = parse_threads(o, 2);   /* the two sides share the cores */
	ts_pipeline_opts po_b = po;
	if (captures_b)
		po_b.captures = captures_b;
	side_run side[2] = { { .path = o->path, .po = &po }, { .path = o->path_b, .po = &po_b } };
	pthread_t th;
	bool threaded = pthread_create(&th, NULL, run_side, &side[1]) == 0;
	run_side(&side[0]);
	if (threaded)
		pthread_join(th, NULL);
	else
		run_side(&side[1]);
	const char *tag[2] = { "A", "B" };
	int code = TS_EXIT_OK;
	for (int s = 0; s < 2; s++)
		if (!side[s].res.opened || !side[s].res.agg) {
			print_error(&side[s].res, tag[s]);
			code = ts_exit_code(side[s].st);
		}
	if (code != TS_EXIT_OK) {
		ts_result_free(&side[0].res);
		ts_result_free(&side[1].res);
		return code;
	}
	ts_cmp_opts co = { .threshold_us = o->threshold_us, .threshold_pct = o->threshold_pct,
			   .staged = o->stage > 0,
			   .stage = o->stage > 0 ? (ts_pstage)(o->stage - 1) : TS_PSTAGE_UNKNOWN };
	const char *na = o->names[0] ? o->names[0] : ts_path_label(o->path, true);
	const char *nb = o->names[1] ? o->names[1] : ts_path_label(o->path_b, true);
	ts_compare *c = ts_compare_new(&side[0].res, &side[1].res, na, nb, &co);
	if (!c) {
		fprintf(stderr, "tracestream: compare: out of memory\n");
		ts_result_free(&side[0].res);
		ts_result_free(&side[1].res);
		return TS_EXIT_USAGE_IO;
	}
	ts_report_opts ro = { .top = o->top, .width = text_width(o), .full_names = o->full_names };
	ts_outfile of;
	if (o->csv_dir && !write_cmp_csv_dir(o->csv_dir, c)) {
		code = TS_EXIT_USAGE_IO;
	} else if (!ts_outfile_open(&of, o->output)) {
		ts_outfile_perror(&of, NULL);
		code = TS_EXIT_USAGE_IO;
	} else {
		int wr = o->format == FMT_JSON	 ? ts_report_compare_json(of.f, c, &ro)
			 : o->format == FMT_HTML ? ts_report_compare_html(of.f, c, &ro)
			 : o->format == FMT_CSV	 ? ts_report_compare_csv(of.f, c, o->table)
						 : ts_report_compare_text(of.f, c, &ro);
		if (!ts_outfile_close(&of, wr == 0)) {
			ts_outfile_perror(&of, NULL);
			code = TS_EXIT_USAGE_IO;
		}
	}
	for (int s = 0; s < 2 && code == TS_EXIT_OK; s++)
		if (side[s].st != TS_OK)
			print_error(&side[s].res, tag[s]);
	for (int s = 0; s < 2; s++) {
		if (side[s].st != TS_OK && code == TS_EXIT_OK)
			code = ts_exit_code(side[s].st);
		if (!o->quiet) {
			ts_warns w;
			ts_result_warnings(&side[s].res, &w);
			for (size_t i = 0; i < w.n; i++)
				fprintf(stderr, "tracestream: warning: %s: %s\n", tag[s], w.line[i]);
		}
		if (o->verbose) {
			double mb = (double)side[s].res.json_bytes / 1e6;
			fprintf(stderr, "tracestream: %s: %.1f MB of JSON in %.3f s (%.1f MB/s)\n", tag[s],
				mb, side[s].res.seconds,
				side[s].res.seconds > 0 ? mb / side[s].res.seconds : 0.0);
		}
	}
	if (o->verbose) {
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		fprintf(stderr, "tracestream: compare: peak RSS %.1f MB\n", (double)ru.ru_maxrss / 1024.0);
	}
	if (code == TS_EXIT_OK && o->fail_if_slower >= 0 && c->cmp_total[0] > 0) {
		double pct = 100.0 * (c->cmp_total[1] - c->cmp_total[0]) / c->cmp_total[0];
		if (pct > o->fail_if_slower) {
			fprintf(stderr, "tracestream: compare: B's %skernel time is %.2f%% above A's "
					"(more than %g%%)%s\n", co.staged ? "stage " : "", pct,
				o->fail_if_slower, c->per_pass ? ", per pass" : "");
			size_t shown = 0;
			for (size_t i = 0; i < c->nops && shown < 5; i++)
				if (c->ops[i].status == TS_CMP_SLOWER) {
					char r[32];
					if (c->ops[i].ratio < 0)
						snprintf(r, sizeof r, "A has none");
					else
						snprintf(r, sizeof r, "%.2fx", c->ops[i].ratio);
					fprintf(stderr, "tracestream:   %-34s %+.3f us (%s)\n", c->ops[i].name,
						c->ops[i].gap / 1000.0, r);
					shown++;
				}
			code = TS_EXIT_SLOWER;
		}
	}
	if (regex_limits(base->patterns) && code == TS_EXIT_OK)
		code = TS_EXIT_PATTERNS;
	ts_compare_free(c);
	ts_result_free(&side[0].res);
	ts_result_free(&side[1].res);
	return code;
}

/* Errors of the ranks, one line each, like print_error. */
static void print_rank_errors(const ts_multi *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const ts_rank_summary *r = &m->ranks[i];
		if (r->err.status == TS_OK)
			continue;
		if (!r->opened) {
			ts_error e = { .status = r->err.status };
			ts_error_set(&e, r->err.status, "cannot open: %s", r->err.status == TS_ERR_IO
				     ? strerror(r->open_errno) : ts_strerror(r->err.status));
			ts_error_print(stderr, r->path, false, false, &e);
		} else {
			ts_error_print(stderr, ts_path_label(r->path, true), r->gzip, true, &r->err);
		}
	}
}

/* Write the saved partial of res (standing for ranks) to path, whole or
 * not at all. */
static bool save_state(const char *path, const ts_result *res, const ts_rank_summary *ranks,
		       size_t nranks)
{
	ts_wbuf w = { 0 };
	ts_status st = ts_partial_save(res, ranks, nranks, &w);
	ts_outfile of;
	bool ok = st == TS_OK;
	if (!ok) {
		fprintf(stderr, "tracestream: --save-state: %s\n", ts_strerror(st));
	} else if (!ts_outfile_open(&of, path)) {
		ts_outfile_perror(&of, "--save-state");
		ok = false;
	} else {
		bool wrote = fwrite(w.p, 1, w.n, of.f) == w.n;
		if (!ts_outfile_close(&of, wrote)) {
			ts_outfile_perror(&of, "--save-state");
			ok = false;
		}
	}
	ts_wbuf_free(&w);
	return ok;
}

/* The report of a job: the merged result with its rank table and skew. */
/* The report of res (one trace, or a job: ro->ranks) in o's format to o's
 * output (written whole or not at all), after the --csv-dir tables. false:
 * a write failed (said on stderr). */
static bool write_report(const options *o, const ts_result *res, const ts_report_opts *ro)
{
	if (o->csv_dir && !write_csv_dir(o->csv_dir, res, ro))
		return false;
	ts_outfile of;
	bool named = o->format == FMT_XLSX;
	if (!(named ? ts_outfile_open_named(&of, o->output) : ts_outfile_open(&of, o->output))) {
		ts_outfile_perror(&of, NULL);
		return false;
	}
	int wr = o->format == FMT_JSON   ? ts_report_json(of.f, res, ro)
		 : o->format == FMT_CSV  ? ts_report_csv(of.f, res, ro, o->table)
		 : o->format == FMT_XLSX ? ts_report_xlsx(of.tmp, res, ro)
		 : o->format == FMT_HTML ? ts_report_html(of.f, res, ro)
		 : o->format == FMT_MD   ? ts_report_md(of.f, res, ro)
					 : ts_report_text(of.f, res, ro);
	if (!ts_outfile_close(&of, wr == 0)) {
		ts_outfile_perror(&of, NULL);
		return false;
	}
	return true;
}

static int report_job(const options *o, ts_multi *m)
{
	ts_report_opts ro = { .top = o->top, .width = text_width(o), .full_names = o->full_names,
			      .filter_stage = o->stage > 0,
			      .stage = o->stage > 0 ? (ts_pstage)(o->stage - 1) : TS_PSTAGE_UNKNOWN,
			      .ranks = m };
	int code = write_report(o, &m->job, &ro) ? TS_EXIT_OK : TS_EXIT_USAGE_IO;
	if (o->save_state && !save_state(o->save_state, &m->job, m->ranks, m->n))
		code = TS_EXIT_USAGE_IO;
	if (!o->quiet) {
		print_warnings(&m->job);
	}
	return code;
}

/* The worst rank decides: unreadable (2) over bad trace (1). */
static int ranks_exit(const ts_multi *m, int code)
{
	for (size_t i = 0; i < m->n && code != TS_EXIT_USAGE_IO; i++) {
		int c = ts_exit_code(m->ranks[i].err.status);
		if (c > code)
			code = c;
	}
	return code;
}

/* Several traces, the ranks of one job: a pipeline each, -j at a time. */
static int run_multi(const options *o, const ts_pipeline_opts *po)
{
	char **paths;
	size_t n, unread;
	ts_error err;
	if (!ts_multi_paths(o->args, (size_t)o->nargs, &paths, &n, &unread, &err)) {
		fprintf(stderr, "tracestream: %s\n", err.msg);
		return TS_EXIT_USAGE_IO;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(paths[i], "-") == 0 && isatty(STDIN_FILENO)) {
			fprintf(stderr, "tracestream: refusing to read a trace from a terminal\n");
			ts_multi_paths_free(paths, n);
			return TS_EXIT_USAGE_IO;
		}
	int cores = ts_cores();
	int jobs = rank_jobs(o, cores);
	/* the cores shared among the traces analysed at a time */
	ts_pipeline_opts pr = *po;
	int at_once = (size_t)jobs < n ? jobs : (int)n;
	pr.threads = parse_threads(o, at_once);
	char label[64];
	if (unread)
		snprintf(label, sizeof label, "%zu traces (%zu more named so, not read)", n, unread);
	else
		snprintf(label, sizeof label, "%zu traces", n);
	ts_multi m;
	ts_status st = ts_multi_run(paths, n, &pr, jobs, label, &m, &err);
	int code = TS_EXIT_OK;
	if (st != TS_OK) {
		fprintf(stderr, "tracestream: %s\n", err.msg);
		code = TS_EXIT_USAGE_IO;
	} else {
		code = report_job(o, &m);
		print_rank_errors(&m);
		code = ranks_exit(&m, code);
		/* an entry named as a rank that could not be read: the job
		 * lacks it, as it lacks an unreadable file */
		if (unread)
			code = TS_EXIT_USAGE_IO;
	}
	ts_multi_free(&m);
	ts_multi_paths_free(paths, n);
	return code;
}

/* tracestream merge PART...: saved partials into one report. */
static int run_merge(const options *o, const ts_pipeline_opts *po)
{
	ts_multi m;
	memset(&m, 0, sizeof m);
	char label[64];
	snprintf(label, sizeof label, "%d partial%s", o->nargs - 1, o->nargs == 2 ? "" : "s");
	if (ts_result_empty(po, label, &m.job) != TS_OK) {
		fprintf(stderr, "tracestream: merge: out of memory\n");
		return TS_EXIT_USAGE_IO;
	}
	ts_partial_ranks pr = { 0 };
	int code = TS_EXIT_OK;
	for (int i = 1; i < o->nargs && code == TS_EXIT_OK; i++) {
		const char *path = o->args[i];
		unsigned char *p;
		size_t n;
		ts_error err = { 0 };
		ts_status st = ts_partial_read_file(path, &p, &n, &err);
		if (st != TS_OK) {   /* a bad header: a bad partial (exit 1) */
			ts_error_print(stderr, path, false, st == TS_ERR_PARTIAL, &err);
			code = st == TS_ERR_PARTIAL ? TS_EXIT_TRACE : TS_EXIT_USAGE_IO;
			break;
		}
		st = ts_partial_merge(&m.job, p, n, &pr, 0, &err);
		free(p);
		if (st != TS_OK) {
			ts_error_print(stderr, path, false, true, &err);
			code = st == TS_ERR_PARTIAL ? TS_EXIT_TRACE : TS_EXIT_USAGE_IO;
		}
	}
	m.ranks = pr.r;
	m.n = pr.n;
	for (size_t i = 0; i < m.n; i++)
		m.ranks[i].order = (int64_t)i;
	if (code == TS_EXIT_OK) {
		ts_result_settle(&m.job, po);
		if (ts_multi_finish(&m) != TS_OK) {
			fprintf(stderr, "tracestream: merge: out of memory\n");
			code = TS_EXIT_USAGE_IO;
		} else {
			code = report_job(o, &m);
			code = ranks_exit(&m, code);
		}
	}
	ts_multi_free(&m);
	return code;
}

static int run_mode_of(const options *o, ts_pipeline_opts *po, const ts_capmap *captures_b,
		       const ts_patterns *patterns);

/* --model and --device name what the tables hold: a usage error else. */
static bool known_names(const options *o, const ts_patterns *patterns)
{
	if (o->model && !ts_patterns_find_family(patterns, o->model)) {
		fprintf(stderr, "tracestream: --model: unknown model family '%s'; known:", o->model);
		for (size_t i = 0; i < ts_patterns_nfamilies(patterns); i++)
			fprintf(stderr, " %s", ts_patterns_family(patterns, i)->name);
		fprintf(stderr, "\nhint: tracestream patterns list\n");
		return false;
	}
	if (o->gpu && !ts_gpu_named(patterns, o->gpu)) {
		fprintf(stderr, "tracestream: --device: unknown device '%s'; known:", o->gpu);
		for (size_t i = 0; i < ts_patterns_ngpus(patterns); i++)
			fprintf(stderr, " '%s'", ts_patterns_gpu(patterns, i)->name);
		fprintf(stderr, "\nhint: the devices: table is patterns/devices.yaml\n");
		return false;
	}
	return true;
}

int ts_job_schema(const options *o)
{
	ts_outfile of;
	if (!ts_outfile_open(&of, o->output)) {
		ts_outfile_perror(&of, NULL);
		return TS_EXIT_USAGE_IO;
	}
	bool ok = fputs(ts_report_schema, of.f) >= 0;
	if (!ts_outfile_close(&of, ok)) {
		ts_outfile_perror(&of, NULL);
		return TS_EXIT_USAGE_IO;
	}
	return 0;
}

int ts_job_run(const options *o)
{
	bool reads_stdin = strcmp(o->path, "-") == 0 || (o->path_b && strcmp(o->path_b, "-") == 0);
	if (o->mode != MODE_RANKS && o->mode != MODE_MERGE && reads_stdin && isatty(STDIN_FILENO)) {
		fprintf(stderr, "tracestream: refusing to read a trace from a terminal\n"
				"hint: pipe a trace in (zcat trace.json.gz | tracestream -) or name a file\n");
		return TS_EXIT_USAGE_IO;
	}
	ts_status pst;
	ts_patterns *patterns = ts_patterns_cmd_load(o->pattern_dirs, o->npattern_dirs, &pst);
	if (!patterns)
		return pst == TS_ERR_IO ? TS_EXIT_USAGE_IO : TS_EXIT_PATTERNS;
	int rc = TS_EXIT_USAGE_IO;
	ts_capmap *captures = NULL, *captures_b = NULL;
	bool capture_bad = false, capture_b_bad = false;
	ts_pipeline_opts po = pipeline_opts(o, patterns);
	if (!known_names(o, patterns))
		goto out;
	if (o->ncaptures && o->mode != MODE_MERGE) {
		captures = read_captures(o, "--capture", o->captures, o->ncaptures, &po, &capture_bad);
		if (!captures)
			goto out;
		po.captures = captures;
	}
	if (o->ncaptures_b) {
		captures_b = read_captures(o, "--capture-b", o->captures_b, o->ncaptures_b, &po,
					   &capture_b_bad);
		if (!captures_b)
			goto out;
		capture_bad |= capture_b_bad;
	}
	rc = run_mode_of(o, &po, captures_b, patterns);
	if (capture_bad && rc == TS_EXIT_OK)
		rc = TS_EXIT_TRACE;
out:
	ts_capmap_free(captures);
	ts_capmap_free(captures_b);
	ts_patterns_free(patterns);
	free(o->names[0]);
	return rc;
}

/* annotate: one trace into -o OUT, or several (the ranks of a job) each
 * into -o DIR under its own file name; the exit code is the worst. */
static int run_annotate(const options *o, ts_pipeline_opts *po)
{
	if (o->nargs == 2)
		return ts_annotate(o->path, o->output, po, o->quiet,
				   o->verbose ? print_verbose : NULL);
	if (mkdir(o->output, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "tracestream: %s: cannot make the directory: %s\n", o->output,
			strerror(errno));
		return TS_EXIT_USAGE_IO;
	}
	int worst = TS_EXIT_OK;
	for (int i = 1; i < o->nargs; i++) {
		const char *base = strrchr(o->args[i], '/');
		base = base ? base + 1 : o->args[i];
		char out[PATH_MAX];
		if (snprintf(out, sizeof out, "%s/%s", o->output, base) >= (int)sizeof out) {
			fprintf(stderr, "tracestream: %s/%s: path too long\n", o->output, base);
			worst = TS_EXIT_USAGE_IO;
			continue;
		}
		ts_pipeline_opts one = *po;
		int rc = ts_annotate(o->args[i], out, &one, o->quiet,
				     o->verbose ? print_verbose : NULL);
		if (rc > worst)
			worst = rc;
	}
	return worst;
}

/* --table launches: a row per kernel written as the layer machine stages
 * it, to the output opened before the run. */
typedef struct {
	const ts_result *res;
	ts_table_sink sink;
	int rc;
} launch_out;

static void on_launch(void *ctx, const ts_launch *k)
{
	launch_out *x = ctx;
	if (x->rc == 0)
		x->rc = ts_tview_launch_row(x->res, k, &x->sink);
}

/* The launches of one trace to o's output; the exit code. */
static int run_launches(const options *o, ts_pipeline_opts *po)
{
	ts_outfile of;
	if (!ts_outfile_open(&of, o->output)) {
		ts_outfile_perror(&of, NULL);
		return TS_EXIT_USAGE_IO;
	}
	ts_result res;
	launch_out x = { .res = &res, .sink = ts_csv_sink(of.f) };
	x.rc = ts_tview_launches_begin(&x.sink);
	po->layers.launch = on_launch;
	po->layers.launch_ctx = &x;
	ts_status st = ts_pipeline_run(o->path, po, &res);
	bool wrote = x.rc == 0 && res.opened;
	if (!ts_outfile_close(&of, wrote) && res.opened) {
		ts_outfile_perror(&of, NULL);
		ts_result_free(&res);
		return TS_EXIT_USAGE_IO;
	}
	if (st != TS_OK)
		print_error(&res, NULL);
	if (!o->quiet && res.opened)
		print_warnings(&res);
	ts_result_free(&res);
	return ts_exit_code(st);
}

/* The report of one trace (or its ops). */
/* "267 on GPU 0" (GPUs 0,1), after sep, into b; the bytes it took. */
static size_t say_process(char *b, size_t cap, const char *sep, int64_t pid, uint32_t devs)
{
	size_t k = (size_t)snprintf(b, cap, "%s%" PRId64 " on GPU%s ", sep, pid,
				    __builtin_popcount(devs) > 1 ? "s" : "");
	bool first = true;
	for (int d = 0; d < TS_API_DEVICES && k < cap; d++)
		if (devs & (1u << d)) {
			k += (size_t)snprintf(b + k, cap - k, "%s%d", first ? "" : ",", d);
			first = false;
		}
	return k < cap ? k : cap - 1;
}

/* One file holding several processes' traces (users merge ranks into one
 * file to view them): each process analysed as its own rank, as a folder
 * of rank files would be. */
static int run_processes(const options *o, const ts_pipeline_opts *po, const ts_api_procs *pr)
{
	size_t n = (size_t)pr->n;
	/* by pid: the same ranks whatever order the file wrote them in */
	ts_api_procs by = *pr;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && by.pid[j] < by.pid[j - 1]; j--) {
			int64_t t = by.pid[j];
			uint32_t dv = by.devices[j];
			by.pid[j] = by.pid[j - 1], by.devices[j] = by.devices[j - 1];
			by.pid[j - 1] = t, by.devices[j - 1] = dv;
		}
	pr = &by;
	char *paths[TS_API_PIDS], *labels[TS_API_PIDS];
	ts_api_pick picks[TS_API_PIDS];
	char said[256] = "";
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		paths[i] = (char *)o->path;
		picks[i] = (ts_api_pick){ pr->pid[i], pr->devices[i] };
		int len = snprintf(NULL, 0, "%s (pid %" PRId64 ")", o->path, pr->pid[i]);
		labels[i] = malloc((size_t)len + 1);
		if (!labels[i]) {
			while (i-- > 0)
				free(labels[i]);
			fprintf(stderr, "tracestream: out of memory\n");
			return TS_EXIT_USAGE_IO;
		}
		snprintf(labels[i], (size_t)len + 1, "%s (pid %" PRId64 ")", o->path, pr->pid[i]);
		if (k < sizeof said)
			k += say_process(said + k, sizeof said - k, i ? ", " : "", pr->pid[i], pr->devices[i]);
	}
	ts_pipeline_opts pr_opts = *po;
	pr_opts.progress = NULL;
	int jobs = rank_jobs(o, ts_cores());
	pr_opts.threads = parse_threads(o, jobs < (int)n ? jobs : (int)n);
	ts_multi m;
	ts_error err;
	ts_status st = ts_multi_run_procs(paths, picks, labels, n, &pr_opts, jobs, o->path, &m, &err);
	int code;
	if (st != TS_OK) {
		fprintf(stderr, "tracestream: %s\n", err.msg);
		code = TS_EXIT_USAGE_IO;
	} else {
		code = report_job(o, &m);
		if (!o->quiet)
			fprintf(stderr, "tracestream: note: %s holds %zu processes (pids %s): each was read as "
				"its own rank\n", o->path, n, said);
		print_rank_errors(&m);
		code = ranks_exit(&m, code);
	}
	ts_multi_free(&m);
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	return code;
}

/* Whether a file's result holds several processes that can be read
 * apart (a file read again: not stdin, not a capture being recorded). */
static bool processes_apart(const options *o, const ts_pipeline_opts *po, const ts_result *res,
			    ts_api_procs *pr)
{
	return strcmp(o->path, "-") != 0 && !po->record && res->api &&
	       res->err.status == TS_OK && ts_api_processes(res->api, pr);
}

static int run_one(const options *o_, ts_pipeline_opts *pop, const ts_patterns *patterns)
{
	options o = *o_;
	ts_pipeline_opts po = *pop;
	if (want_progress(&o))
		po.progress = ts_progress_new(stderr, -1);
	if (o.table && strcmp(o.table, "launches") == 0) {
		int code = run_launches(&o, &po);
		ts_progress_free(po.progress);
		return code;
	}
	ts_result res;
	ts_status st = ts_pipeline_run(o.path, &po, &res);
	ts_progress_free(po.progress);

	/* Nothing to report: not opened, or stopped before a single event (an
	 * empty file, a binary one, JSON that is not a trace). The error alone
	 * says it; an empty report marked partial would pass for a trace. */
	if (!res.opened || !res.agg || (st != TS_OK && res.agg->events == 0)) {
		res.partial = false;
		print_error(&res, NULL);
		ts_result_free(&res);
		return ts_exit_code(st);
	}
	ts_api_procs procs;
	if (processes_apart(&o, &po, &res, &procs)) {
		ts_result_free(&res);
		return run_processes(&o, &po, &procs);
	}

	ts_report_opts ro = { .top = o.top, .width = text_width(&o),
			      .full_names = o.full_names, .show_layers = o.show_layers,
			      .debug_layers = o.debug, .filter_stage = o.stage > 0,
			      .stage = o.stage > 0 ? (ts_pstage)(o.stage - 1) : TS_PSTAGE_UNKNOWN,
			      .verify_ops = o.verify_ops, .ops_only = o.mode == MODE_OPS,
			      .brief = o.brief };
	bool written = write_report(&o, &res, &ro);
	if (written && o.save_state) {
		ts_rank_summary sum;
		written = ts_rank_summarize(&res, 0, &sum) == TS_OK &&
			  save_state(o.save_state, &res, &sum, 1);
		ts_rank_summary_free(&sum);
	}
	if (!written) {
		ts_result_free(&res);
		return TS_EXIT_USAGE_IO;
	}
	if (st != TS_OK)
		print_error(&res, NULL);
	if (!o.quiet) {
		print_warnings(&res);
	}
	if (o.verbose)
		print_verbose(&res);
	int code = ts_exit_code(st);
	if (regex_limits(patterns) && code == TS_EXIT_OK)
		code = TS_EXIT_PATTERNS;
	if (code == TS_EXIT_OK && o.verify_ops) {
		ts_opcov cov[TS_MAX_OPCOV];
		int missing;
		ts_kview v = ts_report_view(&res, &ro);
		int n = ts_kview_coverage(&res, &v, cov, &missing);
		if (n < 0 || missing) {
			fprintf(stderr, "tracestream: --verify-ops: %s\n", n < 0
				? "no model family detected; name one with --model"
				: "a required operator is missing (see OPERATOR COVERAGE)");
			/* graph replay hides the ops: the capture gives them back */
			const ts_attrib_totals *t = res.attrib ? ts_attrib_get_totals(res.attrib) : NULL;
			if (n >= 0 && t && t->kernels[TS_ATTR_GRAPH] > 0 && !res.replay)
				fprintf(stderr, "hint: %" PRIu64 " kernels were replayed from graphs with no op: "
					"a trace of the graph capture given with --capture gives them "
					"their ops back\n", t->kernels[TS_ATTR_GRAPH]);
			code = TS_EXIT_VERIFY;
		}
	}
	ts_result_free(&res);
	return code;
}

/* The command after the tables and captures are read: its mode's run.
 * A report of the run's own (one trace, ranks) fails with the tables' exit
 * code where a regex hit its limits. */
static int run_mode_of(const options *o, ts_pipeline_opts *po, const ts_capmap *captures_b,
		       const ts_patterns *patterns)
{
	int rc;
	switch (o->mode) {
	case MODE_MERGE:
		return run_merge(o, po);
	case MODE_ANNOTATE:
		return run_annotate(o, po);
	case MODE_COMPARE:
		return run_compare(o, po, captures_b);
	case MODE_RANKS:
		rc = run_multi(o, po);
		break;
	default:
		return run_one(o, po, patterns);
	}
	if (regex_limits(patterns) && rc == TS_EXIT_OK)
		rc = TS_EXIT_PATTERNS;
	return rc;
}

