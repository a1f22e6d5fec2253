/*
 * job.h - what the command runs once its options are parsed: one trace,
 * the ranks of a job, a merge of saved partials, a comparison (each with
 * its --capture traces read first). It returns the process exit code
 * (README.md, "Errors and exit codes") and prints its own diagnostics;
 * the patterns subcommand is patterns_cmd.h's.
 */
#ifndef TS_JOB_H
#define TS_JOB_H

#include "options.h"

/* The analysis the options ask for (o->path set). */
int ts_job_run(const options *o);
/* tracestream schema: the JSON Schema of the JSON report, to stdout or -o. */
int ts_job_schema(const options *o);

#endif
