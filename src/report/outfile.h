/*
 * outfile.h - report files that appear whole or not at all, and targets
 * that are not files written as they are.
 *
 * What a report named with -o (or --save-state, annotate -o, a table of
 * --csv-dir) does depends on what the name is when the report is opened:
 *
 *   - a regular file, or no file yet: the report is written to a temporary
 *     file beside it, then renamed over it once every byte is written and
 *     flushed (rename is atomic: a reader sees the old file or the new one,
 *     never part of it); the old file's permission bits (and, as root, its
 *     owner) carry over. On any failure the temporary file is removed and
 *     the old file is left as it was.
 *   - a symbolic link: followed (through every link, a dangling one too)
 *     to the file it names, which is then treated as above; the link stays.
 *   - a device, a FIFO or a socket: opened and written in place, as a
 *     shell's `>` would (a FIFO waits for its reader); nothing is renamed
 *     over it, and its errors are reported (/dev/full: "No space left on
 *     device").
 *   - the file standard output already is (`-o /dev/stdout`): standard
 *     output itself, so an append (`>>`) stays an append.
 *   - a directory: an error, before anything is written.
 *
 * Without a path (or with "-") the report goes to standard output.
 */
#ifndef TS_OUTFILE_H
#define TS_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "input/base/status.h"

typedef struct {
	FILE *f;                 /* where to write */
	const char *path;        /* the name given; NULL: standard output */
	char *final;             /* the regular file renamed over: path, its
				  * links followed; NULL when none is */
	char *tmp;               /* the temporary file, while open */
	FILE *dest;              /* a named writer's stream its bytes go to at
				  * the end (standard output or a device);
				  * NULL: tmp is renamed */
	bool in_place;           /* f (or dest) is the target itself, opened */
	ts_error err;            /* what failed, after a failure... */
	char err_file[512];      /* ...and with which file */
} ts_outfile;

/* Open path for writing (NULL or "-": standard output). false with the
 * reason in o->err (ts_outfile_perror prints it). */
bool ts_outfile_open(ts_outfile *o, const char *path);

/* The same for a writer that takes a file name (a library that writes the
 * file itself): o->tmp is the name to write, even for standard output or a
 * device, which then get the file's bytes at ts_outfile_close. o->f is
 * closed (NULL): the writer opens tmp by its name. */
bool ts_outfile_open_named(ts_outfile *o, const char *path);

/* Finish: with ok, flush and put the file in place; without ok (the
 * writer failed), remove it. false with the reason in o->err (a failed
 * writer's errno when ok was false). */
bool ts_outfile_close(ts_outfile *o, bool ok);

/* For a set of files that appear all or none (the tables of --csv-dir):
 * close_held finishes the temporary file without putting it in place
 * (false, the file removed, on a failure; a target written in place is
 * simply closed); commit then puts it in place, discard removes it. */
bool ts_outfile_close_held(ts_outfile *o, bool ok);
bool ts_outfile_commit(ts_outfile *o);
void ts_outfile_discard(ts_outfile *o);

/* The failure's one line on stderr; ctx (an option's name) or NULL. */
void ts_outfile_perror(const ts_outfile *o, const char *ctx);

#endif
