/*
 * layers_launch.c - kernels wait for their launch to be read, so that each
 * joins the step it was launched in (steps.h).
 *
 * A kernel's step is the window its op was recorded in, else the window
 * that holds its runtime launch. A graph-replayed kernel has no op, and
 * NVIDIA writes a graph's kernels before its graph launch (up to about
 * 1,350 events before), an eager kernel one or two events before its
 * launch: where the trace has step annotations and an op does not say
 * the step already, the kernel waits, in order, until its launch is read.
 * At most MAX_WAIT wait; past them the oldest goes on without.
 */
#include "analysis/layers/layers_int.h"

#include <stdlib.h>

/* Whether the kernel's step needs its launch, not read yet. */
static bool waits(const ts_layers *l, const ts_event *ev)
{
	int64_t t;
	if (!ts_steps_any(l->steps) || !(ev->has & TS_HAS_CORRELATION) || ev->correlation < 0 ||
	    ts_idle_launch(l->idle, ev->correlation, &t))
		return false;
	return !(ev->has & TS_HAS_EXTERNAL_ID) || !ts_steps_op_placed(l->steps, ev->external_id);
}

/* The event of a waiting kernel, as the machine reads it. */
static ts_event event_of(const wait_ent *w)
{
	ts_event ev = { .cat = TS_CAT_KERNEL, .ph = 'X', .has = w->has, .ts_ns = w->ts,
			.dur_ns = w->dur, .stream = w->stream, .correlation = w->corr,
			.external_id = w->ext };
	ev.grid[0] = w->grid0;
	return ev;
}

static void release_head(ts_layers *l)
{
	wait_ent *w = &l->waiting.wait[l->waiting.wait_head];
	if (w->inputs) {
		l->waiting.wait_head = (l->waiting.wait_head + 1) % MAX_WAIT;
		l->waiting.nwait--;
		ts_lay_inputs_copied(l, w->ts);
		return;
	}
	ts_event ev = event_of(w);
	lmark m = ts_lay_marks_now(l, w->row, &w->cls, w->slot, w->marks);
	l->waiting.wait_head = (l->waiting.wait_head + 1) % MAX_WAIT;
	l->waiting.nwait--;
	ts_lay_take_kernel(l, &ev, w->row, &w->cls, &w->ref, w->slot, m);
}

void ts_lay_wait_drain(ts_layers *l)
{
	while (l->waiting.nwait) {
		wait_ent *w = &l->waiting.wait[l->waiting.wait_head];
		ts_event ev = event_of(w);
		if (!w->inputs && waits(l, &ev))
			return;
		release_head(l);
	}
}

void ts_lay_wait_flush(ts_layers *l)
{
	while (l->waiting.nwait)
		release_head(l);
}

void ts_lay_wait_kernel(ts_layers *l, const ts_event *ev, uint32_t row, const ts_kclass *c,
			const ts_kref *ref, unsigned slot, lmark m)
{
	if (l->waiting.nwait == 0 && !waits(l, ev)) {
		ts_lay_take_kernel(l, ev, row, c, ref, slot, m);
		return;
	}
	if (!l->waiting.wait && !(l->waiting.wait = malloc(MAX_WAIT * sizeof *l->waiting.wait))) {
		ts_lay_wait_flush(l);   /* no room to wait: as before, in order */
		ts_lay_take_kernel(l, ev, row, c, ref, slot, m);
		return;
	}
	if (l->waiting.nwait == MAX_WAIT)
		release_head(l);        /* the oldest waited long enough */
	l->waiting.wait[(l->waiting.wait_head + l->waiting.nwait++) % MAX_WAIT] = (wait_ent){
		.ts = ev->ts_ns, .dur = ev->dur_ns, .stream = ev->stream,
		.corr = ev->correlation, .ext = ev->external_id, .has = ev->has,
		.grid0 = ev->grid[0], .row = row, .marks = m, .slot = (uint8_t)slot,
		.cls = *c, .ref = *ref };
	ts_lay_wait_drain(l);
}

/* A copy on the GPU: one that brings a step's inputs (step_inputs:) takes
 * its place among the kernels waiting, so that the machine reads it in
 * their order. */
void ts_layers_copy(ts_layers *l, const ts_event *ev, const ts_kclass *c)
{
	if (!l || !c || !l->patterns || !(ev->has & TS_HAS_TS) ||
	    !ts_selectors_any(ts_patterns_step_inputs(l->patterns), c->category, c->type, ev->name,
			      ev->name_len))
		return;
	if (l->waiting.nwait == 0 || !l->waiting.wait) {
		ts_lay_inputs_copied(l, ev->ts_ns);
		return;
	}
	if (l->waiting.nwait == MAX_WAIT)
		release_head(l);
	l->waiting.wait[(l->waiting.wait_head + l->waiting.nwait++) % MAX_WAIT] =
		(wait_ent){ .ts = ev->ts_ns, .inputs = true };
}
