/*
 * job.h - what the command runs once its options are parsed: one trace,
 * the ranks of a job, a merge of saved partials, a comparison (each with
 * its --capture traces read first), or the patterns subcommand. Each
 * returns the process exit code (README.md, "Errors and exit codes") and
 * prints its own diagnostics.
 */
#ifndef TS_JOB_H
#define TS_JOB_H

#include "input/status.h"
#include "options.h"
#include "tables/patterns.h"

/* The analysis the options ask for (o->path set). */
int ts_job_run(const options *o);
/* tracestream patterns list|check|explain (o->path NULL). */
int ts_job_patterns(const options *o);
/* Load the tables; on failure print every error and return NULL. */
ts_patterns *ts_job_load_patterns(const char *const *dirs, size_t ndirs, ts_status *st);

#endif
