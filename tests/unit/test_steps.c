/* Step annotations (analysis/structure/steps.c): what each names, which
 * windows are one step, which step a kernel belongs to, and a full table
 * that drops only windows its caller no longer looks up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/intern.h"
#include "analysis/structure/steps.h"
#include "unit.h"

static ts_event ann(const char *name, int64_t ts, int64_t dur, bool gpu, int64_t ext)
{
	ts_event e = { 0 };
	e.cat = gpu ? TS_CAT_GPU_USER_ANNOTATION : TS_CAT_USER_ANNOTATION;
	e.name = name;
	e.name_len = strlen(name);
	e.ts_ns = ts;
	e.dur_ns = dur;
	e.has = TS_HAS_TS | TS_HAS_DUR | TS_HAS_NAME;
	if (ext >= 0) {
		e.external_id = ext;
		e.has |= TS_HAS_EXTERNAL_ID;
	}
	return e;
}

static ts_event kernel(int64_t ts, int64_t ext)
{
	ts_event e = { 0 };
	e.cat = TS_CAT_KERNEL;
	e.ts_ns = ts;
	e.dur_ns = 10;
	e.has = TS_HAS_TS | TS_HAS_DUR;
	if (ext >= 0) {
		e.external_id = ext;
		e.has |= TS_HAS_EXTERNAL_ID;
	}
	return e;
}

static ts_step_kind add(ts_steps *s, const char *name, int64_t ts, int64_t dur, bool gpu,
			int64_t ext)
{
	ts_event e = ann(name, ts, dur, gpu, ext);
	return ts_steps_annotation(s, &e);
}

static void names(void)
{
	ts_steps *s = ts_steps_new();
	ts_step_kind k1 = add(s, "step[DECODE bs=16]", 0, 100, false, -1);
	ts_step_kind k2 = add(s, "execute_context_1(888_788544)_generation_0(0)", 200, 100, false, -1);
	ts_step_kind k3 = add(s, "ProfilerStep#6", 400, 100, false, -1);
	ts_step_kind k4 = add(s, "capture_8192_PIECEWISE", 600, 100, false, -1);
	ts_step_kind k5 = add(s, "forward", 800, 100, false, -1);
	CHECK(k1 == TS_STEP_STAGED, "SGLang decode is a staged step");
	CHECK(k2 == TS_STEP_STAGED, "vLLM prefill is a staged step");
	CHECK(k3 == TS_STEP_PLAIN, "ProfilerStep is a step naming no stage");
	CHECK(k4 == TS_STEP_CAPTURE, "a capture annotation");
	CHECK(k5 == TS_STEP_NOT, "another annotation is no step");
	ts_step_says a;
	CHECK(ts_steps_says(s, ts_steps_at(s, 50, false), &a) && a.stage == TS_PSTAGE_DECODE &&
	      a.batch == 16 && a.tokens == 16, "step[DECODE bs=16]: decode, batch and tokens 16");
	CHECK(ts_steps_says(s, ts_steps_at(s, 250, false), &a) && a.stage == TS_PSTAGE_PREFILL &&
	      a.batch == 1 && a.tokens == 888, "execute_context_1(888_...): prefill of 888 tokens");
	CHECK(strcmp(ts_steps_name(s, (int)a.name), "execute_context_1(888_788544)_generation_0(0)") == 0,
	      "the step's name is kept");
	CHECK(ts_steps_says(s, ts_steps_at(s, 450, false), &a) && a.stage == TS_PSTAGE_UNKNOWN &&
	      a.batch == -1, "ProfilerStep: no stage, no batch");
	CHECK(ts_steps_size_at(s, 250) == 888 && ts_steps_size_at(s, 350) == -1,
	      "the size open at a time: inside a window, none after it");
	ts_event mixed = ann("execute_8192_context_9(sq8155)_generation_37(sq37)", 1000, 10, false, -1);
	ts_steps_annotation(s, &mixed);
	CHECK(ts_steps_says(s, ts_steps_at(s, 1005, false), &a) && a.stage == TS_PSTAGE_MIXED &&
	      a.tokens == 8192 && a.batch == 46, "a mixed vLLM batch: 8192 tokens, 46 requests");
	ts_steps_free(s);
}

static void grouping(void)
{
	ts_steps *s = ts_steps_new();
	/* SGLang opens step[...] inside its execute_ window: one step, and
	 * the step[...] says most */
	add(s, "execute_16_context_0(sq0)_generation_16(sq16)", 1000, 500, false, 10);
	add(s, "step[DECODE bs=16]", 1010, 400, false, 11);
	int64_t a1 = ts_steps_at(s, 1005, false), a2 = ts_steps_at(s, 1200, false);
	CHECK(a1 >= 0 && a2 >= 0 && ts_steps_step(s, a1) == ts_steps_step(s, a2),
	      "a window opened inside another of its side is the same step");
	ts_step_says a;
	CHECK(ts_steps_says(s, a1, &a) && strcmp(ts_steps_name(s, (int)a.name), "step[DECODE bs=16]") == 0,
	      "SGLang's step[...] names the step over the execute_ window");
	/* the GPU side: the window of the same name after it */
	add(s, "step[DECODE bs=16]", 1300, 600, true, -1);
	int64_t g = ts_steps_at(s, 1400, true);
	CHECK(g >= 0 && ts_steps_step(s, g) == ts_steps_step(s, a1), "the GPU window joins its CPU step");
	CHECK(ts_steps_gpu_end(s, ts_steps_step(s, a1)) == 1900, "the step's GPU window ends at 1900");
	int64_t from = 0, to = 0;
	CHECK(ts_steps_cpu_window(s, ts_steps_step(s, a1), &from, &to) && from == 1000 && to == 1500,
	      "its CPU window: 1000..1500");
	add(s, "step[DECODE bs=16]", 2000, 500, false, 20);
	CHECK(ts_steps_step(s, ts_steps_at(s, 2100, false)) != ts_steps_step(s, a1),
	      "a window after the last one ended is another step");
	/* kernels with no op and no launch: by the GPU window they run in */
	ts_event k = kernel(1500, -1);
	CHECK(ts_steps_step(s, ts_steps_of_kernel(s, &k, INT64_MIN)) == ts_steps_step(s, a1),
	      "a kernel inside the GPU window, with nothing else known, is that step's");
	k = kernel(5000, -1);
	CHECK(ts_steps_of_kernel(s, &k, INT64_MIN) == -1, "a kernel outside every window with no op: no step");
	CHECK(ts_steps_step(s, ts_steps_of_kernel(s, &k, 2100)) == ts_steps_step(s, ts_steps_at(s, 2100, false)),
	      "a kernel launched inside the second window is the second step's, whenever it runs");
	CHECK(ts_steps_of_kernel(s, &k, 1700) == -1, "a kernel launched between the windows: no step");
	ts_steps_free(s);
}

static ts_event op(int64_t ts, int64_t ext)
{
	ts_event e = { 0 };
	e.cat = TS_CAT_CPU_OP;
	e.ts_ns = ts;
	e.dur_ns = 5;
	e.has = TS_HAS_TS | TS_HAS_DUR | TS_HAS_EXTERNAL_ID;
	e.external_id = ext;
	return e;
}

/* A kernel's step is the window its op was recorded in, whatever id the
 * annotation has (the independent generator gives a step's annotation an
 * id after its ops'; real files, before) and wherever the kernel runs
 * (asynchronous steps: step N+1 launched while step N runs). */
static void by_op(void)
{
	for (int late_ids = 0; late_ids < 2; late_ids++) {
		ts_steps *s = ts_steps_new();
		int64_t ext = 100;
		int64_t steps[3];
		for (int st = 0; st < 3; st++) {
			int64_t t0 = 10000 * st;
			int64_t first = ext;
			const char *name = st == 0 ? "step[EXTEND bs=2 toks=512]" : "step[DECODE bs=2]";
			if (!late_ids)
				add(s, name, t0, 5000, false, ext++);
			else
				add(s, name, t0, 5000, false, first + 50);
			steps[st] = ts_steps_step(s, ts_steps_at(s, t0 + 1, false));
			for (int i = 0; i < 20; i++) {
				ts_event o = op(t0 + 100 + 200 * i, ext++);
				ts_steps_cpu_op(s, &o);
			}
			/* an op between steps (the sampler after the window) */
			ts_event o = op(t0 + 7000, ext++);
			ts_steps_cpu_op(s, &o);
			if (late_ids)
				ext = first + 51;
		}
		int right = 0, between = 0;
		/* the kernels run late: step 0's during step 1's window */
		for (int64_t x = 100; x < ext; x++) {
			int64_t want = -1;
			for (int st = 0; st < 3; st++) {
				int64_t base = late_ids ? 100 + 51 * st : 100 + 22 * st + 1;
				if (x >= base && x < base + 20)
					want = steps[st];
				if (x == base + 20)
					want = -2;   /* the op between steps */
			}
			if (want == -1)
				continue;
			ts_event k = kernel(50000 + x, x);
			int64_t got = ts_steps_step(s, ts_steps_of_kernel(s, &k, INT64_MIN));
			if (want == -2)
				between += got == -1;
			else
				right += got == want;
		}
		CHECK(right == 60 && between == 3,
		      "annotation ids %s their ops': 60 of 60 kernels in the step their op was recorded in (%d), "
		      "3 of 3 whose op ran between windows in none (%d)",
		      late_ids ? "after" : "before", right, between);
		ts_steps_free(s);
	}
}

/* A full table drops only what ended before the time held, and keeps the
 * annotation held; ids stay. */
static void full(void)
{
	ts_steps *s = ts_steps_new();
	char name[64];
	for (int i = 0; i < TS_STEPS_MAX; i++) {
		snprintf(name, sizeof name, "step[DECODE bs=%d]", 1 + i % 7);
		add(s, name, (int64_t)i * 100, 50, false, i);
	}
	ts_step_kind k = add(s, "step[DECODE bs=1]", (int64_t)TS_STEPS_MAX * 100, 50, false, TS_STEPS_MAX);
	CHECK(k == TS_STEP_STAGED && ts_steps_dropped(s) == 1,
	      "before any kernel a full table drops the new annotation, counted");
	int64_t keep = ts_steps_at(s, 1000 * 100 + 10, false);
	int64_t keep_step = ts_steps_step(s, keep);
	ts_steps_hold(s, 60000 * 100, keep, 1);
	add(s, "step[EXTEND bs=2 toks=99]", (int64_t)(TS_STEPS_MAX + 1) * 100, 50, false, TS_STEPS_MAX + 1);
	ts_step_says a;
	CHECK(ts_steps_dropped(s) == 1 && ts_steps_says(s, ts_steps_at(s, (int64_t)(TS_STEPS_MAX + 1) * 100 + 5, false), &a) &&
	      a.tokens == 99, "with kernels at 6,000,000 the windows before it go and the new one is held");
	CHECK(ts_steps_step(s, keep) == keep_step && ts_steps_says(s, keep, &a) && a.batch == 1 + 1000 % 7,
	      "the annotation held keeps its id and step");
	CHECK(ts_steps_at(s, 2000 * 100 + 10, false) == keep, "a dropped window's time finds the held one before it");
	ts_steps_free(s);
}

int main(void)
{
	names();
	grouping();
	by_op();
	full();
	return unit_failed ? 1 : 0;
}
