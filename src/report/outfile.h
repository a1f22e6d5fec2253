/*
 * outfile.h - report files that appear whole or not at all.
 *
 * A report named with -o (or a CSV table of --csv-dir) is written to a
 * temporary file beside it, then renamed over the final name once every
 * byte is written and flushed (rename is atomic: a reader sees the old
 * file or the new one, never part of it); on any failure the temporary file is
 * removed and the final name is left as it was. Without a path the report
 * goes to standard output.
 */
#ifndef TS_OUTFILE_H
#define TS_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "input/status.h"

typedef struct {
	FILE *f;                 /* where to write */
	const char *path;        /* the final name; NULL: standard output */
	char *tmp;               /* the temporary file, while open */
	bool copy_out;           /* tmp goes to standard output at the end */
	ts_error err;            /* what failed, after a failure... */
	char err_file[512];      /* ...and with which file */
} ts_outfile;

/* Open path for writing (NULL or "-": standard output). false with the
 * reason in o->err (ts_outfile_perror prints it). */
bool ts_outfile_open(ts_outfile *o, const char *path);

/* The same for a writer that takes a file name (a library that writes the
 * file itself): o->tmp is the name to write, even for standard output,
 * which then gets the file's bytes at ts_outfile_close. */
bool ts_outfile_open_named(ts_outfile *o, const char *path);

/* Finish: with ok, flush and put the file in place; without ok (the
 * writer failed), remove it. false with the reason in o->err (a failed
 * writer's errno when ok was false). */
bool ts_outfile_close(ts_outfile *o, bool ok);

/* The failure's one line on stderr; ctx (an option's name) or NULL. */
void ts_outfile_perror(const ts_outfile *o, const char *ctx);

#endif
