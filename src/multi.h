/*
 * multi.h - many traces of one job (one per rank): each analysed by its own
 * pipeline, at most `jobs` at a time on threads of their own, and kept as a
 * rank summary (ranks.h) once done, so memory is that of `jobs` analyses
 * plus a few kilobytes a rank.
 */
#ifndef TS_MULTI_H
#define TS_MULTI_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline.h"
#include "ranks.h"

typedef struct {
	ts_rank_summary *ranks;     /* in command-line order */
	size_t n;
	bool own_ranks;             /* numbered by their distributedInfo ranks */
	ts_skew *skew;
} ts_multi;

/*
 * Expand the arguments: files and "-" as given, a directory into its trace
 * files (*.json, *.json.gz, *.pt.trace.json[.gz], ...; sorted by name).
 * *paths (free with ts_multi_paths_free) holds *n paths. false with a
 * message in err: an unreadable directory, one without traces, "-" twice.
 */
bool ts_multi_paths(char *const *args, size_t nargs, char ***paths, size_t *n,
		    char *err, size_t errlen);
void ts_multi_paths_free(char **paths, size_t n);

/* Whether any argument names a directory (it makes a run over ranks). */
bool ts_multi_any_dir(char *const *args, size_t nargs);

/* Analyse every path with po (progress is not drawn), jobs at a time.
 * TS_ERR_NOMEM when the run could not be set up; each rank's own status is
 * in its summary. */
ts_status ts_multi_run(char *const *paths, size_t n, const ts_pipeline_opts *po, int jobs,
		       ts_multi *m);
void ts_multi_free(ts_multi *m);

#endif
