/*
 * api.h - the CUDA / HIP API summary: every runtime and driver call by
 * name (cudaLaunchKernel, cudaGraphLaunch, cudaMemcpyAsync,
 * cudaStreamSynchronize, hipLaunchKernel, cuLaunchKernel, ...) with its
 * calls, total, min, median and max, as nsys stats' cuda_api_sum; and the
 * calls that make the CPU wait for the GPU, kept with their times so that
 * one inside a forward pass can be named.
 *
 * A call synchronizes when its name says it (...Synchronize), when it is
 * a blocking copy (a cudaMemcpy, hipMemcpy or cuMemcpy that is not Async)
 * or a free (cudaFree, hipFree, cuMemFree: they wait for the device).
 *
 * Fixed memory: TS_API_ROWS names (the calls of any more in one "(other)"
 * row) and TS_API_SYNC_KEEP synchronizing calls with their times (past it
 * they are counted, not placed).
 */
#ifndef TS_API_H
#define TS_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/stat.h"
#include "input/base/wire.h"
#include "input/event.h"
#include "input/base/status.h"

#define TS_API_ROWS 128
#define TS_API_SYNC_KEEP 4096

typedef struct {
	const char *name;           /* the table's; "(other)" for the rest */
	bool sync;
	ts_stat stat;
} ts_api_row;

/* A synchronizing call: when and how long on the CPU, its row, and its
 * trace (0: read here; n: the n-th saved partial merged, as ts_pass's). */
typedef struct {
	int64_t ts_ns, dur_ns;
	uint32_t row;
	uint32_t source;
} ts_api_sync;

typedef struct ts_api ts_api;

ts_api *ts_api_new(void);
void ts_api_free(ts_api *a);

/* A runtime or driver call with a timestamp and a duration. */
ts_status ts_api_call(ts_api *a, const ts_event *ev);

/* Processes: Kineto writes one a file; a file holding the runtime calls
 * of two or more (TS_API_PID_MIN calls each: users merge ranks into one
 * file to view them together) gets a warning, devices the GPUs its
 * kernels ran on. */
#define TS_API_PIDS 8
#define TS_API_PID_MIN 16
#define TS_API_DEVICES 32
void ts_api_warnings(const ts_api *a, int devices, ts_warns *w);

/* A GPU operation: joined by correlation to the call that launched it,
 * it says which process's launches ran on its device. */
void ts_api_gpu_op(ts_api *a, const ts_event *ev);

/* The processes of the file (TS_API_PID_MIN calls each) and the devices
 * each one's launches ran on (bit d: device d). True where they part
 * cleanly: two or more, each with a device of its own, none shared. */
typedef struct {
	int n;
	int64_t pid[TS_API_PIDS];
	uint32_t devices[TS_API_PIDS];
} ts_api_procs;
bool ts_api_processes(const ts_api *a, ts_api_procs *out);

/* One process of such a file: its pid and its devices. Whether an event
 * is its own: a GPU operation, GPU annotation or flow end on one of its
 * devices, or metadata of one of them; anything else of its pid (of no
 * pid: only metadata: a profiler span with a string pid is any one's). */
typedef struct {
	int64_t pid;
	uint32_t devices;
} ts_api_pick;
bool ts_api_picks(const ts_api_pick *k, const ts_event *ev);

/* Whether a call of this name makes the CPU wait for the GPU. */
bool ts_api_is_sync(const char *name, size_t len);

size_t ts_api_nrows(const ts_api *a);
const ts_api_row *ts_api_row_at(const ts_api *a, size_t i);
/* The rows by total time, largest first (free the array); *n rows. */
size_t *ts_api_order(const ts_api *a, size_t *n);
/* Every call's time summed. */
int64_t ts_api_total_ns(const ts_api *a);

/* The synchronizing calls kept (in arrival order), and how many were not. */
const ts_api_sync *ts_api_syncs(const ts_api *a, size_t *n, uint64_t *unkept);

void ts_api_save(const ts_api *a, ts_wbuf *w);
/* Add saved calls to a. TS_ERR_PARTIAL (r->err says what) or TS_ERR_NOMEM. */
ts_status ts_api_load(ts_api *a, ts_rbuf *r);

#endif
