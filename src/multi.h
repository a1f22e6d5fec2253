/*
 * multi.h - many traces of one job (one per rank): each analysed by its own
 * pipeline, at most `jobs` at a time on threads of their own; once done, a
 * rank is saved as a partial (partial.h: a rank summary and its
 * aggregates, some hundred kilobytes) and its analysis freed, and the
 * partials are merged, in command-line order, into one result for the
 * whole job. Memory is that of `jobs` analyses plus the partials waiting
 * for their turn.
 */
#ifndef TS_MULTI_H
#define TS_MULTI_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline.h"
#include "analysis/views/ranks.h"


/*
 * Expand the arguments: files and "-" as given, a directory into its trace
 * files (*.json, *.json.gz, *.pt.trace.json[.gz], ...; sorted by name).
 * *paths (free with ts_multi_paths_free) holds *n paths. An entry named
 * as a trace that is no regular file (a FIFO, a dangling symbolic link, a
 * link loop) is not read: a line on stderr names it and what it is, and
 * *unread counts it. false with the problem in *err: an unreadable
 * directory (TS_ERR_IO), one without traces or "-" twice (TS_ERR_USAGE),
 * out of memory (TS_ERR_NOMEM).
 */
bool ts_multi_paths(char *const *args, size_t nargs, char ***paths, size_t *n, size_t *unread,
		    ts_error *err);
void ts_multi_paths_free(char **paths, size_t n);

/* Whether any argument names a directory (it makes a run over ranks). */
bool ts_multi_any_dir(char *const *args, size_t nargs);

/* Ranks analysed at a time, at most, per core the process may run on. */
#define TS_JOBS_PER_CORE 4

/* Analyse every path with po (progress is not drawn), jobs at a time, and
 * merge them into m->job (settled, labelled label). A thread that cannot
 * start leaves its ranks to the others (none: to this thread). Not TS_OK when the
 * run could not be set up or a rank's analysis could not be merged, with
 * which and why in *err; each rank's own status is in its summary. */
ts_status ts_multi_run(char *const *paths, size_t n, const ts_pipeline_opts *po, int jobs,
		       const char *label, ts_multi *m, ts_error *err);

/* The same, each path read as one process of it (picks[i], shown as
 * labels[i]: one file holding several processes, api.h). */
ts_status ts_multi_run_procs(char *const *paths, const ts_api_pick *picks, char *const *labels,
			     size_t n, const ts_pipeline_opts *po, int jobs, const char *label,
			     ts_multi *m, ts_error *err);

/* Number the ranks and measure their skew (after filling m->ranks). */
ts_status ts_multi_finish(ts_multi *m);
void ts_multi_free(ts_multi *m);

#endif
