/*
 * partial.h - saved partials: a finished analysis (or a merge of several)
 * as a small binary file that `tracestream merge` reads back, in any
 * number and any grouping, into one report (docs/partial-format.md).
 *
 * A partial holds the result's trace facts, kernel aggregates, attribution
 * and layers (every report reads only those), and the rank summaries of
 * the traces it stands for, so that merging partials of partials gives
 * the report of merging the traces' own partials.
 */
#ifndef TS_PARTIAL_H
#define TS_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline.h"
#include "analysis/views/ranks.h"
#include "input/base/wire.h"

#define TS_PARTIAL_VERSION 21

/* The file's bytes for res and the rank summaries it stands for. */
ts_status ts_partial_save(const ts_result *res, const ts_rank_summary *ranks, size_t nranks,
			  ts_wbuf *w);

/* Rank summaries read from partials, owned (ts_partial_ranks_free). */
typedef struct {
	ts_rank_summary *r;
	size_t n, cap;
} ts_partial_ranks;

/*
 * Merge the n bytes of a partial into res (from ts_result_empty) and append
 * its rank summaries to *ranks. TS_ERR_PARTIAL with what is wrong and at
 * which byte in *err (not a partial, another version or byte order, cut
 * short, a checksum mismatch, a section that does not hold together);
 * TS_ERR_NOMEM. Call ts_result_settle after the last merge.
 */
ts_status ts_partial_merge(ts_result *res, const unsigned char *p, size_t n,
			   ts_partial_ranks *ranks, unsigned flags, ts_error *err);

/* flags: the fuzz target reads past a wrong checksum, to reach the
 * sections (a crafted file can carry a right one). */
#define TS_PARTIAL_NO_CHECKSUM 1u
void ts_partial_ranks_free(ts_partial_ranks *ranks);

/*
 * --capture PARTIAL: add the capture map a partial carries (saved by a run
 * with --capture) to map. The whole file is checked as by a merge; only
 * its captures section is read. *present false: the partial's run had no
 * --capture (it carries no map). Errors as ts_partial_merge's.
 */
ts_status ts_partial_captures(ts_capmap *map, const ts_patterns *patterns,
			      const unsigned char *p, size_t n, bool *present, ts_error *err);
/* Do these first bytes begin a partial (its magic number)? */
bool ts_partial_is(const unsigned char *p, size_t n);

/* A whole file into memory (*p, free it); TS_ERR_IO with errno's message. */
ts_status ts_partial_read_file(const char *path, unsigned char **p, size_t *n, ts_error *err);

#endif
