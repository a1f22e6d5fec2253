/*
 * annotate.h - tracestream annotate: the trace written back with tracks
 * for Perfetto (annotate.c).
 */
#ifndef TS_ANNOTATE_H
#define TS_ANNOTATE_H

#include <stdbool.h>

#include "pipeline.h"

/* Annotate path into out_path (".gz": gzip; NULL or "-": stdout). Returns
 * the exit code: 0, 1 (a cut or bad trace: annotated as far as it was
 * read, when anything was), 2 (I/O). verbose, when not NULL, is shown the
 * analysis once it is done (-v). */
int ts_annotate(const char *path, const char *out_path, ts_pipeline_opts *po, bool quiet,
		void (*verbose)(const ts_result *res));

#endif
