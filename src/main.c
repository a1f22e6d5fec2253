/*
 * main.c - the front door: parse the options, run what they ask for.
 *
 * Exit codes (README.md): 0 ok, 1 bad or truncated trace (a partial report
 * is still printed), 2 usage or I/O error (including a failed write to
 * stdout), 3 patterns, 4 --verify-ops found a required operator missing,
 * 5 compare --fail-if-slower found B slower than allowed. Only the command
 * (this file, options.c, job.c, patterns_cmd.c) prints diagnostics.
 */
#include <signal.h>

#include "job.h"
#include "options.h"

int main(int argc, char **argv)
{
	options o;
	ts_options_parse(argc, argv, &o);
	/* A closed pipe must be an error we report, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	if (!o.path)
		return ts_job_patterns(&o);
	return ts_job_run(&o);
}
