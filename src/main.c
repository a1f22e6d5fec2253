/*
 * main.c - the front door: parse the options, run what they ask for.
 *
 * Exit codes (README.md): 0 ok, 1 bad or truncated trace (a partial report
 * is still printed), 2 usage or I/O error (including a failed write to
 * stdout; a closed pipe is SIGPIPE's quiet end instead), 3 patterns, 4 --verify-ops found a required operator missing,
 * 5 compare --fail-if-slower found B slower than allowed. Only the command
 * (this file, options.c, job.c, patterns_cmd.c) prints diagnostics.
 */
#include <malloc.h>
#include <signal.h>

#include "job.h"
#include "options.h"
#include "patterns_cmd.h"

int main(int argc, char **argv)
{
	options o;
	ts_options_parse(argc, argv, &o);
	/* A reader that stops early (| head) ends the run quietly, as it ends
	 * cat or jq: SIGPIPE's default, whatever the parent left us. */
	signal(SIGPIPE, SIG_DFL);
	/* A file past ulimit -f is a write error to report, its temporary
	 * file removed, not a kill that leaves it behind. */
	signal(SIGXFSZ, SIG_IGN);
	/* One malloc arena for every thread: the parse threads allocate a few
	 * buffers a piece, and an arena each would reserve 64 MB of address
	 * space apiece (ulimit -v counts it). */
	mallopt(M_ARENA_MAX, 1);
	if (o.mode == MODE_PATTERNS)
		return ts_patterns_cmd(&o);
	if (o.mode == MODE_SCHEMA)
		return ts_job_schema(&o);
	return ts_job_run(&o);
}
