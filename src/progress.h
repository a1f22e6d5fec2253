/*
 * progress.h - a one-line progress display on a terminal (stderr).
 *
 * At most four updates a second; percent and ETA when the input size is
 * known. The caller decides whether to show progress at all (only on a
 * terminal, never in CI); this module only draws and clears the line.
 */
#ifndef TS_PROGRESS_H
#define TS_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

typedef struct ts_progress ts_progress;

/* total_in is the input size in bytes, or -1 when unknown (a pipe). */
ts_progress *ts_progress_new(FILE *out, int64_t total_in);
void ts_progress_free(ts_progress *p);

/* The input size, once known (-1: unknown). */
void ts_progress_set_total(ts_progress *p, int64_t total_in);

/* in_bytes: raw bytes read (for percent); json_bytes: for the rate. */
void ts_progress_update(ts_progress *p, uint64_t in_bytes, uint64_t json_bytes);

/* Erase the line. */
void ts_progress_clear(ts_progress *p);

#endif
