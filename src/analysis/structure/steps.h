/*
 * steps.h - step annotations and which step each kernel belongs to.
 *
 * A serving framework opens a window on the CPU for each step it runs
 * (SGLang step[DECODE bs=16], vLLM execute_..._context_N_generation_M,
 * PyTorch ProfilerStep#N), and some profilers draw the same window on the
 * GPU (gpu_user_annotation). Windows nested in another of their side, or a
 * GPU window of the same name as the CPU window before it, are one step.
 *
 * Annotations and steps have ids that never change (the order they came
 * in), so a caller may hold them; a step's annotations are dropped only
 * when the table is full and their windows ended before the time the
 * caller said it still looks up (ts_steps_hold).
 *
 * Memory is bounded: TS_STEPS_MAX annotations (past it, new ones are
 * counted and dropped) and their names interned once.
 */
#ifndef TS_STEPS_H
#define TS_STEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/structure/pstage.h"
#include "input/event.h"

#define TS_STEPS_MAX 65536            /* step annotations held */
#define TS_STEPS_NAMES 4096           /* distinct names of them */

/* What one annotation says of its step. */
typedef struct {
	ts_pstage stage;          /* the stage it names; unknown: none */
	int64_t batch, tokens;    /* -1: not said */
	uint32_t name;            /* interned name (ts_steps_name); TS_INTERN_NONE past the cap */
} ts_step_says;

typedef struct ts_steps ts_steps;

ts_steps *ts_steps_new(void);
void ts_steps_free(ts_steps *s);

/* What an annotation was. */
typedef enum {
	TS_STEP_NOT,      /* not a step annotation */
	TS_STEP_CAPTURE,  /* a graph capture's (capture_<bs>_DECODE, capture_<n>_PIECEWISE) */
	TS_STEP_PLAIN,    /* a step that names no stage or token count */
	TS_STEP_STAGED,   /* a step naming a stage or its tokens */
	TS_STEP_DROPPED,  /* a step, not held: the table is full */
} ts_step_kind;

/* A user_annotation or gpu_user_annotation (other events: TS_STEP_NOT). */
ts_step_kind ts_steps_annotation(ts_steps *s, const ts_event *ev);

/* What the caller still looks up: kernels from time `from` on
 * (INT64_MIN: from the start), and the annotation `keep` (-1: none); clock
 * moves with the kernels read. A full table drops the annotations whose
 * windows ended before `from`, once per clock. */
void ts_steps_hold(ts_steps *s, int64_t from, int64_t keep, int64_t clock);

/* A CPU op: the step window it was recorded in (at its start), for the
 * kernels it launches (by its External id). Ops come in the order they
 * were recorded, their ids counting up: the ids of one window's ops are
 * kept as runs, a run a window. */
void ts_steps_cpu_op(ts_steps *s, const ts_event *ev);

/* The step annotation a kernel belongs to: the window it was launched in.
 * That is the window its op was recorded in (by External id), else the
 * CPU window that holds its launch (launch: the runtime call's time,
 * INT64_MIN unknown; a graph's kernels carry its launch's correlation),
 * else the GPU step window it runs in. Never the step that was open on
 * the GPU when it ran: with asynchronous steps the CPU launches step N+1
 * while the GPU runs step N. An annotation id, or -1. */
int64_t ts_steps_of_kernel(const ts_steps *s, const ts_event *ev, int64_t launch);

/* The step annotation that started last at or before ts on one side (CPU
 * or GPU); among those of its step, one that names a stage wins. For the
 * GPU side the window must still be open at ts. An id, or -1. */
int64_t ts_steps_at(const ts_steps *s, int64_t ts, bool gpu);

/* The step of annotation `ann` (-1 when ann is -1 or was dropped). */
int64_t ts_steps_step(const ts_steps *s, int64_t ann);

/* What the step of annotation `ann` says: the annotation of its step that
 * says most (a stage, then batch and tokens; SGLang's own step[...] over
 * the execute_ window it opens). false when ann is unknown. */
bool ts_steps_says(const ts_steps *s, int64_t ann, ts_step_says *out);

/* The end of a step's GPU window, or -1 (none seen). */
int64_t ts_steps_gpu_end(const ts_steps *s, int64_t step);

/* A step's CPU window: its first annotation's start to the last one's end.
 * false: no such step (or no CPU window of it is held). */
bool ts_steps_cpu_window(const ts_steps *s, int64_t step, int64_t *from, int64_t *to);

/* The GPU windows of the step whose windows overlap [from, to] the most,
 * joined (*wf, *wt), and of them the windows named as the annotation of
 * the step that says most (*sf, *st: SGLang's step[DECODE bs=16], not
 * the execute_ window around it; all of them, joined, when none has its
 * name). false: none. */
bool ts_steps_gpu_window(const ts_steps *s, int64_t from, int64_t to, int64_t *wf, int64_t *wt,
			 int64_t *sf, int64_t *st);

/* The size (tokens, else batch) the CPU step annotation open at ts names,
 * or -1. */
int64_t ts_steps_size_at(const ts_steps *s, int64_t ts);

/* Whether any GPU step window is held; any step annotation at all. */
bool ts_steps_any_gpu(const ts_steps *s);
bool ts_steps_any(const ts_steps *s);

/* Whether the op of External id ext was recorded in a step window. */
bool ts_steps_op_placed(const ts_steps *s, int64_t ext);

/* Annotation names: an interned name's text (NULL for an id < 0), and a
 * name interned (a saved partial's), TS_INTERN_NONE past the cap. */
const char *ts_steps_name(const ts_steps *s, int id);
uint32_t ts_steps_intern(ts_steps *s, const char *name, size_t n);

/* Step annotations not held: the table was full. */
uint64_t ts_steps_dropped(const ts_steps *s);
/* Ops not placed in a window's run: the runs were full (dropped), or
 * their id was below the runs' (unordered). */
void ts_steps_op_counts(const ts_steps *s, uint64_t *dropped, uint64_t *unordered);
void ts_steps_add_dropped(ts_steps *s, uint64_t n);

#endif
