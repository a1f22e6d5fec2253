/*
 * pipeline.h - one analysis of one trace: reader -> parser -> aggregates.
 *
 * ts_pipeline_run reads the whole input once, in fixed memory, and fills a
 * ts_result (analysis/views/result.h) that reporters read. All state lives in the result and the
 * objects it owns, so several analyses can run in one process. On a bad or
 * cut-short input the result holds everything read before the failure,
 * marked partial, with the error and its byte offset.
 */
#ifndef TS_PIPELINE_H
#define TS_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/attrib/capture.h"
#include "analysis/layers/layers.h"
#include "input/parser.h"
#include "progress.h"
#include "analysis/views/result.h"
#include "input/base/status.h"

typedef struct {
	size_t read_size;       /* bytes per read (0: default) */
	bool no_mmap;           /* read a plain file through a buffer, not mapped */
	int threads;            /* parse threads (pparse.h); 1 or less: in order */
	size_t piece_size;      /* bytes per piece (0: default) */
	ts_limits limits;
	ts_progress *progress;  /* NULL: no progress line */
	const ts_patterns *patterns; /* borrowed; NULL: no classification */
	const char *model;      /* --model NAME, or NULL to detect */
	ts_layers_opts layers;
	size_t join_mem;        /* --join-mem (0: default) */
	size_t sort_mem;        /* --sort-mem (0: default): events held to sort */
	const char *gpu;        /* --device NAME (checked by the caller), or NULL */
	/* --capture: graphs captured, read-only; replays in this trace are
	 * matched to them (NULL: none, and nothing changes) */
	const ts_capmap *captures;
	/* reading a capture trace: record its graphs here (NULL: not one) */
	ts_capmap *record;
	/* one process of a file holding several (its CPU events and the
	 * devices its launches ran on: api.h), shown as label; NULL: all */
	const ts_api_pick *only;
	const char *label;
} ts_pipeline_opts;


/* Run one analysis. Fills *res (free with ts_result_free). Returns
 * res->status. TS_ERR_NOMEM when the pipeline cannot be set up. */
ts_status ts_pipeline_run(const char *path, const ts_pipeline_opts *o,
			  ts_result *res);

/* An empty result to merge saved partials into (partial.h): the objects of
 * a run, no input read; path is the label reports show. Graph replays come
 * from the partials (o->captures is not used). */
ts_status ts_result_empty(const ts_pipeline_opts *o, const char *label, ts_result *res);
/* What a run decides at its end from what it holds: framework, platform,
 * model family, GPU peaks (a run calls it; so does a merge). */
void ts_result_settle(ts_result *res, const ts_pipeline_opts *o);
/* The framework names a result can give, and one by name (NULL unknown). */
const char *ts_framework_named(const char *s, size_t n);
size_t ts_framework_count(void);

#endif
