/*
 * result.h - what one analysis holds when it is done: the run's facts
 * (path, status, bytes, the first error and its byte), the trace's
 * metadata, and the analysis objects it owns (aggregates, layers,
 * attribution, contexts, replays), with what was decided from them
 * (platform, model family, GPU peaks, framework). Filled by the pipeline
 * (pipeline.h) or by merging saved partials; read by comparison, ranks and
 * reporters. All state of an analysis lives here: no globals.
 */
#ifndef TS_RESULT_H
#define TS_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/agg.h"
#include "analysis/attrib/attrib.h"
#include "analysis/attrib/capture.h"
#include "analysis/context.h"
#include "input/event.h"
#include "tables/gpu.h"
#include "analysis/layers/layers.h"
#include "analysis/layers/model.h"
#include "input/order.h"
#include "input/parser.h"
#include "analysis/api.h"
#include "analysis/comm.h"
#include "analysis/attrib/replay.h"
#include "input/base/status.h"

#define TS_MODULES_MAX 8          /* analyses on the one interface (module.h) */

typedef struct {
	const char *path;           /* as given ("-" for stdin); borrowed */
	ts_error err;               /* err.status: TS_OK or what ended the run;
				     * what and where (without the file) */
	bool opened;                /* false: the input could not be opened */
	int open_errno;
	bool partial;               /* the report covers only part of the input */
	bool gzip;
	uint64_t input_bytes;       /* raw bytes read */
	uint64_t json_bytes;        /* JSON bytes parsed */
	int64_t input_size;         /* file size, -1 for pipes */
	double seconds;             /* wall time of the run */
	int parse_threads;          /* threads that parsed pieces (0: in order) */
	uint64_t pieces, pieces_in_order; /* pieces cut; of them, parsed again in order */
	ts_meta meta;
	ts_parser_stats pstats;
	ts_agg *agg;
	ts_layers *layers;
	ts_attrib *attrib;
	ts_ctx *ctx;                /* context rules (kernel meaning by position) */
	ts_comm *comm;              /* collectives: sizes and bandwidth */
	ts_api *api;                /* runtime and driver calls by name */
	ts_replay *replay;          /* graph replays matched to --capture, or NULL */
	ts_capmap *record;          /* recording a capture trace's graphs, or NULL */
	ts_capmap *merged_captures; /* merged partials: their captures (owned;
				     * res->replay reads them), or NULL */
	ts_platform platform;
	const char *platform_source;
	const ts_patterns *patterns;  /* as given in the options */
	ts_model model;
	const ts_gpu *gpu;          /* peaks for the roofline; NULL: unknown GPU */
	const char *gpu_how;        /* "name", "sms and memory" or "--device" */
	const char *framework;      /* SGLang, vLLM, ... from Python frames and
				     * step annotations; NULL unknown */
	uint32_t framework_hits[8];
	void *mods[TS_MODULES_MAX]; /* each module's state, in ts_modules order */
	/* the events' order (input/order.h): what the watch saw; out of the
	 * order the analysis reads, and then sorted first (a file) or read
	 * as they came (a pipe: it cannot be read twice) */
	ts_order_watch order;
	bool order_out, order_sorted;
	uint64_t sorted_events, sort_runs, sort_file_bytes;
	ts_sorter *sorter;          /* while a sorted run reads */
	char sort_failed[320];      /* why the sorter could not (then: as they came) */
	const ts_api_pick *only;    /* one process of the file (api.h), or NULL */
	bool order_resort;          /* events out of order stop the read, to
				     * begin again sorted (a file, no capture) */
} ts_result;

void ts_result_free(ts_result *res);

/* The deviceProperties entry of the device the kernels ran on (the busiest
 * one), or NULL when the trace has none. */
const ts_devprop *ts_result_devprop(const ts_result *res);

/* Every module's warnings about what the numbers do not cover, in the
 * order of the pipeline (closed: the count of those not kept is the last
 * line). */
void ts_result_warnings(const ts_result *res, ts_warns *w);

#endif
