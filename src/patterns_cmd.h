/*
 * patterns_cmd.h - the pattern tables as the command loads them (every
 * error printed), and `tracestream patterns list|check|explain`. Each
 * returns or prints as the command does (README.md, "Errors and exit
 * codes"); job.c loads the tables through it.
 */
#ifndef TS_PATTERNS_CMD_H
#define TS_PATTERNS_CMD_H

#include "input/base/status.h"
#include "options.h"
#include "tables/patterns.h"

/* tracestream patterns list|check|explain (o->path NULL): the exit code. */
int ts_patterns_cmd(const options *o);
/* Load the tables; on failure print every error and return NULL. */
ts_patterns *ts_patterns_cmd_load(const char *const *dirs, size_t ndirs, ts_status *st);

#endif
