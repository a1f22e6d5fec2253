/*
 * layers_steps.c - the CPU-side evidence of captures, training and a
 * front-end process; each pass's step windows and the time between
 * passes; where a pass ends (layers_int.h); in a speculative step, which
 * pass is the target, and the passes held till their step ends. The step
 * annotations themselves are analysis/structure/steps.c's.
 */
#include "analysis/layers/layers_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/structure/drafts.h"
#include "input/base/intern.h"
#include "input/base/satmath.h"
#include "input/base/grow.h"
#include "input/numtext.h"
#include "input/base/strfind.h"

/* ATen ops that compute: a CPU-only profile of a model holds them, an API
 * server's does not. */
static bool compute_op(const char *s, size_t n)
{
	static const char *const ops[] = { "aten::mm", "aten::addmm", "aten::bmm", "aten::matmul",
					   "aten::linear", "aten::conv", "aten::baddbmm",
					   "aten::scaled_dot_product_attention" };
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (ts_begins(s, n, ops[i]))
			return true;
	return false;
}

#define PY_LOOKED 4096          /* python_function names read for words */

/* A Python function: an API server's (its modules' words) in a trace with
 * no kernel is a front-end process. */
void ts_layers_python(ts_layers *l, const ts_event *ev)
{
	static const char *const words[] = { "prometheus_client", "uvicorn", "fastapi",
					     "starlette", "entrypoints", "async_llm",
					     "aiohttp", "api_server", "openai" };
	if (l->cpu.py_events++ >= PY_LOOKED)
		return;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (ts_has(ev->name, ev->name_len, words[i])) {
			l->cpu.py_server++;
			return;
		}
}

void ts_layers_cpu_event(ts_layers *l, const ts_event *ev)
{
	if (ev->cat == TS_CAT_CPU_OP) {
		ts_steps_cpu_op(l->steps, ev);
		l->cpu.cpu_ops++;
		l->cpu.compute_ops += compute_op(ev->name, ev->name_len);
		if (ts_begins(ev->name, ev->name_len, "autograd::engine::evaluate_function"))
			l->cpu.backward_ops++;
		/* a token embedding: a language model reads tokens */
		if (ts_has(ev->name, ev->name_len, "::embedding"))
			l->cpu.generation |= TS_GEN_EMBEDDING;
		return;
	}
	ts_idle_runtime(l->idle, ev);
	if (l->waiting.nwait)
		ts_lay_wait_drain(l);   /* kernels that waited for this launch */
	if (ts_has(ev->name, ev->name_len, "LaunchKernel") ||
	    ts_has(ev->name, ev->name_len, "GraphLaunch") ||
	    ts_has(ev->name, ev->name_len, "ModuleLaunch")) {
		l->cpu.launches++;
		if ((ev->has & TS_HAS_CORRELATION) && (ev->has & TS_HAS_TS) &&
		    ev->correlation > l->cpu.launch_corr) {
			l->cpu.launch_corr = ev->correlation;
			l->cpu.launch_ts = ev->ts_ns;
		}
	}
	if (ev->name_len > 12 && ev->name_len < 64 &&
		   ts_has(ev->name, ev->name_len, "StreamBeginCapture")) {
		l->cpu.captures++;
		l->cpu.capture_calls++;
	}
}

/* The trace ends inside the pass's step: the GPU window the profiler drew
 * for the step runs on past the last kernel the trace holds, by more than
 * a twentieth of the pass so far and WINDOW_ON_NS (a step's window closes
 * with its GPU work). */
#define WINDOW_ON_NS 50000

static bool window_runs_on(const ts_layers *l)
{
	const ts_pass *p = &l->pass.cur;
	int64_t wf, wt, sf, st;
	if (l->pass.kfrontier == INT64_MIN || p->last_end <= p->first_ts ||
	    !ts_steps_gpu_window(l->steps, p->first_ts, p->last_end, &wf, &wt, &sf, &st))
		return false;
	int64_t span = p->last_end - p->first_ts;
	int64_t margin = span / 20 > WINDOW_ON_NS ? span / 20 : WINDOW_ON_NS;
	return st > ts_sat_add(l->pass.kfrontier, margin);
}

/* The latest kernel or graph launch call came after every kernel's (its
 * kernels never reached the trace) and inside the pass's step on the CPU
 * (a CPU running a step ahead launches the next step's; a graph capture's
 * launches run nothing). */
static bool launch_lost(const ts_layers *l)
{
	if (l->cpu.captures || l->cpu.launch_corr <= l->cpu.kernel_corr || l->pass.hints.step < 0)
		return false;
	int64_t ann = ts_steps_at(l->steps, l->cpu.launch_ts, false);
	return ann >= 0 && ts_steps_step(l->steps, ann) == l->pass.hints.step;
}

bool ts_lay_cut_in_step(const ts_layers *l)
{
	return window_runs_on(l) || launch_lost(l);
}

void ts_layers_annotation(ts_layers *l, const ts_event *ev)
{
	switch (ts_steps_annotation(l->steps, ev)) {
	case TS_STEP_CAPTURE:
		l->cpu.captures++;
		break;
	case TS_STEP_STAGED:
		l->cpu.generation |= TS_GEN_ANNOTATION;
		break;
	default:
		break;
	}
}

int64_t ts_layers_step_size(const ts_layers *l, int64_t ts)
{
	return ts_steps_size_at(l->steps, ts);
}

/* The time from the last pass's end to this one's start (layers.h). */
void ts_lay_add_between(ts_layers *l, const ts_idle_pass *d)
{
	if (!d->span_ns)
		return;
	int64_t gap = l->stats.prev_end == INT64_MIN ? 0 : d->start_ns - l->stats.prev_end;
	ts_between *b = &l->stats.between;
	if (gap > 0) {
		int64_t idle = d->idle_from_ns != INT64_MIN ? d->idle_from_ns : l->pass.frontier_at_start;
		if (idle < l->stats.prev_end || idle > d->start_ns)
			idle = l->stats.prev_end;
		int64_t wait = d->start_ns - idle;
		b->gaps++;
		b->ns = ts_sat_add(b->ns, gap);
		b->wait_ns = ts_sat_add(b->wait_ns, wait);
		if (gap > b->largest_ns)
			b->largest_ns = gap;
		if (d->first_launch_ns != INT64_MIN) {
			b->checked++;
			if (wait > 0 && d->first_launch_ns > idle) {
				b->late++;
				b->late_ns = ts_sat_add(b->late_ns, wait);
			}
		}
	}
	int64_t end = d->start_ns + d->span_ns;
	if (end > l->stats.prev_end)
		l->stats.prev_end = end;
}

/* Each kept pass's step windows on the GPU: the profiler writes them
 * after the kernels, so they are read at the end of the trace. */
void ts_lay_pass_windows(ts_layers *l)
{
	for (size_t i = 0; ts_steps_any_gpu(l->steps) && i < l->records.npasses; i++) {
		ts_pass *p = &l->records.passes[i];
		int64_t from = p->idle.start_ns, to = ts_sat_add(from, p->idle.span_ns);
		if (p->idle.span_ns > 0 && p->annotation >= 0 &&
		    !ts_steps_gpu_window(l->steps, from, to, &p->win_from, &p->win_to, &p->step_from,
					 &p->step_to))
			p->win_from = p->win_to = p->step_from = p->step_to = INT64_MIN;
	}
}

const char *ts_layers_annotation_name(const ts_layers *l, int i)
{
	return ts_steps_name(l->steps, i);
}

/* ----------------------------------------------------------- pass edges */

/* Kernels after a pass's embedding past which another embedding is the
 * next pass's. */
#define EMBED_AGAIN 8
#define GRAPH_FORWARD 8         /* kernels of a graph that may be a whole forward */
#define INPUTS_AFTER 32         /* kernels of a pass (no layer known) past which a
				 * step's inputs copied in begin the next */

/* How many of the open pass's kernels so far are row. */
static size_t runs_in_pass(const ts_layers *l, uint32_t row)
{
	size_t n = 0;
	for (size_t i = l->staged.kbuf0; i < l->staged.nkbuf; i++)
		n += l->staged.kbuf[i].row == row;
	return n;
}

/* Where neither a step annotation nor a name marks where a pass begins
 * (an embedding, sampling: none ran in this pass; a graph-replayed decode
 * step has no ops to name them where the eager prefill had), the stream
 * says it: the kernel that began
 * the pass runs again after the GPU waited longer than at any point
 * inside the pass (the host between two steps). */
static bool repeat_edge(ts_layers *l, const ts_event *ev, uint32_t row, int64_t gap, bool in_graph)
{
	/* one graph launch's kernels run with no host between them: a wait
	 * or a kernel again inside it says nothing of steps (a capture cut
	 * inside a replayed step begins with a layer's kernels) */
	if (l->pass.hints.step >= 0 || row == TS_INTERN_NONE || in_graph)
		return false;
	/* where a name marked the pass (its embedding, its sampling), the GPU's
	 * waits say nothing: only its head kernels running again do */
	bool by_waits = !l->pass.pass_named;
	int h = -1;
	for (int i = 0; i < l->pass.nhead_rows && h < 0; i++)
		if (l->pass.head_rows[i] == row)
			h = i;
	/* after the GPU waited twice as long as anywhere in a pass of some
	 * length (the host between two steps), once the pass has as many
	 * layers as the passes before it most often had (a forward is not
	 * over before its layers are: the CPU late inside it is idle of its
	 * step): a graph-replayed kernel or one after a graph-replayed kernel
	 * (no op: a graph's first may be no kernel the eager pass before
	 * began with), or one of the pass's first kernels again (an eager or
	 * compiled layer's kernel after a wait is the CPU late inside the
	 * pass) */
	bool replayed = !(ev->has & TS_HAS_EXTERNAL_ID) || l->pass.last_replayed;
	/* (not in a piecewise pass: graphs begun after its eager attention,
	 * a wait before a piece is the CPU late inside the pass) */
	replayed &= l->pass.graph_pieces == 0;
	/* a first kernel that ran again inside the layers is a layer's (the
	 * capture began inside one): the CPU late before it is no step's end */
	bool head = h >= 0 && !(l->pass.head_in_layers & (1u << h));
	/* (with no layer known as the kernels come, no name: as many
	 * kernels as half the last complete pass's at least) */
	bool short_k = !l->online.walk.nlayers && 2 * l->pass.cur.kernels < l->pass.whole_kernels;
	if (by_waits && (replayed || head) && l->pass.cur.kernels >= 16 && !short_k &&
	    gap > 2 * l->pass.pass_maxgap && gap >= 20000 && !ts_lay_short_pass(l, l->online.walk.nlayers))
		return true;
	if (l->pass.cur.kernels < 4)
		return false;
	/* the trace's first pass may begin inside a layer (the capture cut
	 * it): its first kernel runs again a layer later, no pass head; a
	 * pass's head again comes two layers later at least (where no name
	 * marks attention, a few dozen kernels) */
	bool first = l->pass.frontier_at_start == INT64_MIN;
	/* (nor in a piecewise pass, graphs begun after its eager attention:
	 * Inductor begins each piece with the kernel the first began with) */
	bool piecewise = l->pass.graph_pieces > 0;
	if (by_waits && row == l->pass.head_rows[0] && gap > l->pass.pass_maxgap &&
	    !(l->pass.head_in_layers & 1u) &&
	    (!(first || piecewise) || l->online.walk.units >= 2 || l->pass.cur.kernels >= 64))
		return true;
	/* where nothing else says (no name, no op: a GPU-only capture whose
	 * steps run back to back, the GPU never waiting), the pass's first
	 * kernel again, or the one the pass before began with (a wait inside
	 * a step ended that pass early), after a layer's worth of kernels at
	 * least (64) in which it never ran: a kernel once a forward, its
	 * head's (a layer's kernel runs again a layer later) */
	if (by_waits && !l->online.walk.units && l->pass.cur.kernels >= 64 && row != TS_INTERN_NONE &&
	    (row == l->pass.head_rows[0] || row == l->pass.prev_head) &&
	    runs_in_pass(l, row) == (row == l->pass.head_rows[0] ? 1u : 0u))
		return true;
	/* or, where the GPU waits as long inside a pass (an eager model:
	 * every launch late), one of the pass's first kernels again after
	 * two attention units (attention by its op) when it never ran inside
	 * them: a kernel of the pass's head (its first may be one the layers
	 * run too: an arange for the positions) */
	if (h < 0)
		return false;
	/* the second only right after the first (the head's two kernels in
	 * their order: an expert's kernel that no token ran in the first
	 * layers is no head), in a pass of some length (a window cut across
	 * two layers is one fragment) */
	/* (not in the trace's first pass where the capture began inside a
	 * layer: its head is that layer's, and a layer of the same kind,
	 * its next attention layer in a hybrid, begins with it again; so it
	 * began where its head was launched by no op and this kernel by one:
	 * the head's launch came before the capture's CPU side) */
	bool uncaptured = !l->pass.head_op && (ev->has & TS_HAS_EXTERNAL_ID);
	bool again = l->online.walk.units >= 2 && !(l->pass.head_in_layers & (1u << h)) &&
		     (h == 0 || (l->pass.last_row == l->pass.head_rows[0] && l->pass.cur.kernels >= 32)) &&
		     !(first && (l->pass.cur.cut_start || uncaptured));
	if (l->online.walk.units > 0)
		l->pass.head_in_layers |= (uint8_t)(1u << h);
	return again;
}

/* One of the pass's first kernels: its first two distinct rows are where
 * the next pass is looked for. */
void ts_lay_head_row(ts_layers *l, uint32_t row)
{
	if (row == TS_INTERN_NONE || l->pass.nhead_rows >= 2)
		return;
	for (int i = 0; i < l->pass.nhead_rows; i++)
		if (l->pass.head_rows[i] == row)
			return;
	l->pass.head_rows[l->pass.nhead_rows++] = row;
}

/* A replayed graph's kernels share its launch's correlation (and have no
 * op, so no External id); eager kernels have one each. A graph whose own
 * kernels ran two attention units or more (graph_units) held whole
 * layers: a CUDA graph of a whole forward (a decode step, each of a
 * speculative draft's forwards), not a piece between two eager
 * attentions (piecewise graphs). The next graph after such a one begins
 * the next forward, whatever ran between (its sampling, the next one's
 * input staging); where no attention is known, a graph begun as the
 * pass's first one was (below). */
static bool graph_edge(ts_layers *l, const ts_event *ev, uint32_t row, lmark m, bool comm)
{
	if (!lay_no_op(ev)) {
		l->pass.op_since_graph = true;
		/* sampling, or a collective (the logits' gather) */
		l->pass.work_since_graph |= !(m & M_SAMPLE) && !comm;
		return false;
	}
	if (ev->correlation == l->pass.graph_corr) {
		l->pass.graph_kernels++;
		return false;
	}
	bool whole = l->pass.in_pass && l->pass.graph_corr >= 0 && l->pass.graph_units >= 2;
	/* after a whole forward's graph, a collective or the sampler alone
	 * under its correlation is the forward's own tail (its logits'
	 * gather, its sampling: eager kernels whose launch the capture
	 * missed), no next graph: the graph before stays the one held */
	if (whole && (comm || (m & M_SAMPLE)))
		return false;
	bool forward = l->pass.in_pass && l->pass.graph_corr >= 0 && l->pass.graph_in_pass &&
		       l->pass.graph_kernels >= GRAPH_FORWARD;
	if (forward && l->pass.forward_row == TS_INTERN_NONE)
		l->pass.forward_row = l->pass.graph_row;
	/* where no name marks attention: a graph replayed after one of
	 * GRAPH_FORWARD kernels at least, beginning with the kernel that one
	 * and the pass's first such graph began with (its embedding), is the
	 * next forward (a speculative draft's graph, then the target's), when
	 * nothing but sampling or a collective ran between them (the draft's
	 * argmax, its logits' gather; an eager attention, typed or not, is a
	 * piecewise forward's, between its pieces), in a pass of fewer than
	 * three graphs begun after an op's kernel (a piece may follow one
	 * directly, begun with the kernel every piece begins with, which
	 * Inductor names alike), and where the graph before was the only
	 * one of the pass in a row begun so (a draft's forward is one graph;
	 * two such pieces in a row, then a third, are one forward's, before
	 * its third eager attention), and where no attention of the pass
	 * was an op's (a piecewise forward's graphs, two back to back where
	 * a dense first layer's MLP piece meets the next layer's) */
	whole |= forward && l->pass.graph_pieces < 3 && !l->pass.work_since_graph &&
		 !l->pass.hints.attn_launched &&
		 row != TS_INTERN_NONE && row == l->pass.graph_row && row == l->pass.forward_row &&
		 l->pass.row_graphs <= 1;
	l->pass.row_graphs = l->pass.graph_in_pass && row == l->pass.graph_row ? l->pass.row_graphs + 1 : 1;
	l->pass.graph_pieces += l->pass.op_since_graph;
	l->pass.op_since_graph = l->pass.work_since_graph = false;
	l->pass.graph_corr = ev->correlation;
	l->pass.graph_units = 0;
	l->pass.graph_row = row;
	l->pass.graph_kernels = 1;
	l->pass.graph_in_pass = true;
	return whole;
}

/* The capture began while the CPU was between two steps, or inside one:
 * a pass whose kernels were all launched before it (their runtime calls
 * are not in the trace) ends at the first kernel the capture saw
 * launched where the GPU had run all the earlier step's work (the
 * remainder of a forward the capture cut, or its tail alone) and the
 * next had not begun: the GPU waited for that launch longer than
 * anywhere in the pass (twice as long, 5 us at least), after a kernel
 * that ran once in it (the sampling that ends a forward), and the kernel
 * is none the pass ran (the next one's head). Where the CPU was inside a
 * step, its queued kernels run on into the launched ones, a layer's
 * kernels on both sides, with or without a wait. */
static bool capture_edge(ts_layers *l, const ts_event *ev, uint32_t row, int64_t gap)
{
	if (!l->pass.before_capture || !(ev->has & TS_HAS_CORRELATION) || ev->correlation < 0 ||
	    ts_idle_before_capture(l->idle, ev->correlation))
		return false;
	l->pass.before_capture = false;
	return l->pass.cur.kernels >= 4 && gap > 2 * l->pass.pass_maxgap && gap >= 5000 &&
	       l->pass.last_row != TS_INTERN_NONE && runs_in_pass(l, l->pass.last_row) == 1 &&
	       row != TS_INTERN_NONE && runs_in_pass(l, row) == 0;
}

void ts_lay_inputs_copied(ts_layers *l, int64_t ts)
{
	l->pass.inputs_ts[l->pass.ninputs++ % 4] = ts;
}

/* A step's inputs were copied in since the pass's last kernel began,
 * before this one: the host staged the next forward. */
static bool inputs_staged(const ts_layers *l, int64_t ts)
{
	for (uint32_t i = 0; i < 4 && i < l->pass.ninputs; i++)
		if (l->pass.inputs_ts[i] > l->pass.prev_ts && l->pass.inputs_ts[i] < ts)
			return true;
	return false;
}

/* Whether the kernel ends the open pass: its step annotation changed or
 * its step's GPU window is over, an embedding after layer work, the first
 * kernel after sampling, or the pass's first kernel again (repeat_edge).
 * Gives the kernel's step annotation (*an, -1 none) and step group. comm:
 * the kernel is a collective (by its class). */
bool ts_lay_pass_edge(ts_layers *l, const ts_event *ev, uint32_t row, lmark m, bool comm, bool has_work,
		      int64_t *an_out, int64_t *step_out, bool *step_edge_out)
{
	int64_t gap = l->pass.kfrontier != INT64_MIN && ev->ts_ns > l->pass.kfrontier ? ev->ts_ns - l->pass.kfrontier : 0;
	/* Step annotations split passes (steps.h). */
	int64_t launch = INT64_MIN;
	if (!(ev->has & TS_HAS_CORRELATION) || !ts_idle_launch(l->idle, ev->correlation, &launch))
		launch = INT64_MIN;
	int64_t an = ts_steps_of_kernel(l->steps, ev, launch);
	int64_t step = ts_steps_step(l->steps, an);
	bool step_edge = false, edge = false;
	/* Past the end of the pass's GPU step window: that step is over. */
	int64_t gpu_end = l->pass.in_pass && an < 0 && has_work ? ts_steps_gpu_end(l->steps, l->pass.hints.step) : -1;
	if (gpu_end >= 0 && ev->ts_ns >= gpu_end)
		step_edge = true;
	if (l->pass.in_pass && step >= 0 && step != l->pass.hints.step)
		step_edge = true;
	/* Pass edges: an embedding starts a pass once the current one has
	 * layer work; the first kernel after sampling starts the next. */
	if (m & (M_EMBED | M_SAMPLE))
		l->pass.pass_named = true;
	/* A pass embeds its tokens once: an embedding after layer work, or
	 * well past the pass's own embedding (where no name says what the
	 * kernels between were; GPT-2's token and position lookups run back
	 * to back), begins the next. */
	bool embed_again = l->pass.hints.embed_at >= 0 &&
			   l->pass.cur.kernels >= (uint64_t)l->pass.hints.embed_at + EMBED_AGAIN;
	bool in_graph = lay_no_op(ev) && ev->correlation == l->pass.graph_corr;
	bool graph = graph_edge(l, ev, row, m, comm);
	bool capture = l->pass.in_pass && capture_edge(l, ev, row, gap);
	/* where no step holds it: a step's inputs copied in after the
	 * pass's layer work (the host staged the next forward); in the
	 * capture's first pass, where the capture may have begun inside a
	 * forward, after its first kernels too (a later pass begins where
	 * one ended: kernels and copies before its layer work are its own
	 * step's preparation, its inputs staged and its metadata built) */
	bool first = l->records.pass_count == 0;
	bool inputs = step < 0 && (has_work || (first && l->pass.cur.kernels >= INPUTS_AFTER)) &&
		      inputs_staged(l, ev->ts_ns);
	if (l->pass.in_pass && (step_edge || graph || capture || inputs || ((m & M_EMBED) && (has_work || embed_again)) ||
			   (l->pass.hints.after_sampling && !(m & M_SAMPLE)) ||
			   (step < 0 && !ts_steps_any(l->steps) && repeat_edge(l, ev, row, gap, in_graph))))
		edge = true;
	else if (l->pass.in_pass && gap > l->pass.pass_maxgap && l->pass.cur.kernels >= 4)
		l->pass.pass_maxgap = gap;    /* past the pass's first kernels (a lone fill before its work) */
	l->pass.last_replayed = lay_no_op(ev);
	l->pass.prev_ts = ev->ts_ns;
	*an_out = an;
	*step_out = step;
	*step_edge_out = step_edge;
	return edge;
}

/* ------------------------------------------------ a speculative step */

/* The count of step s's target among its passes held (and last's, the
 * step's last pass, 0 none; a cut one is no pass of its count, but where
 * the step held two complete passes or more, a cut target's layers are
 * the most): the pass that ran once beside two or more complete ones of
 * one other count (a draft proposes its tokens a forward each, the
 * target verifies them in one), or beside one of another count, the
 * count a step showed alone before (the prompt's); *once where so. Else
 * the most layers a pass had. */
uint32_t ts_lay_step_target(ts_layers *l, int64_t s, uint32_t last, bool last_whole, uint8_t *by)
{
	uint32_t most = last, whole = last_whole ? last : 0, c[2] = { 0, 0 }, n[2] = { 0, 0 };
	bool more = false;
	for (size_t k = 0; s >= 0 && k <= l->held.npending; k++) {
		const ts_pass *q = k < l->held.npending ? &l->records.passes[l->held.pending[k].pass] : NULL;
		if (q && (!l->held.pending[k].step_open || l->held.pending[k].step != s))
			continue;
		uint32_t x = q ? q->layers : last;
		most = x > most ? x : most;
		if (!x || (q ? !q->complete : !last_whole))
			continue;
		whole = x > whole ? x : whole;
		int i = c[0] == x || !n[0] ? 0 : c[1] == x || !n[1] ? 1 : -1;
		more |= i < 0;
		if (i >= 0) {
			c[i] = x;
			n[i]++;
		}
	}
	/* a step whose target the capture cut (or lost), its complete passes
	 * all of the count an earlier step told a draft's beside a deeper
	 * target: that target's count */
	const lay_stats *st = &l->stats;
	if (s >= 0 && !more && n[0] && !n[1] && c[0] == st->draft_layers &&
	    st->target_layers > st->draft_layers) {
		*by = TS_DRAFT_DEEPER;
		return st->target_layers;
	}
	uint32_t alone = l->stats.alone_layers;
	if (s >= 0 && !more && n[0] == 1 && !n[1])
		l->stats.alone_layers = c[0];
	bool pair = n[0] == 1 && n[1] == 1 && alone && (c[0] == alone || c[1] == alone);
	bool once = s >= 0 && !more && n[0] && n[1] && ((n[0] == 1) != (n[1] == 1) || pair);
	*by = !once ? TS_DRAFT_DEEPER : pair ? TS_DRAFT_ALONE : TS_DRAFT_ONCE;
	if (!once)
		return more || n[0] + n[1] >= 2 ? most : whole;
	return pair ? alone : c[n[0] == 1 ? 0 : 1];
}

/* Is a pass of this many layers a draft's beside target (by: what told
 * the target: by the most layers, fewer; else any other count)? */
bool ts_lay_drafts_beside(uint32_t layers, uint32_t target, uint8_t by)
{
	return by == TS_DRAFT_DEEPER ? layers < target : layers != target;
}

/* A speculative step's target whose name hints all say decode but whose
 * tokens (the cache writes') are k times its drafts' (2 to 16) verifies k
 * tokens a sequence, one step of decoding: decode, not prefill. */
void ts_lay_verify_stage(ts_pass *q, int64_t draft_tokens)
{
	if (draft_tokens <= 0 || q->draft || !q->complete || q->stage != TS_PSTAGE_PREFILL ||
	    !q->hints_decode || q->hints_prefill || q->kv_grid <= draft_tokens ||
	    q->kv_grid % draft_tokens || q->kv_grid / draft_tokens > 16)
		return;
	q->stage = TS_PSTAGE_DECODE;
	q->verify = (uint8_t)(q->kv_grid / draft_tokens);
}

/* ------------------------------------------ passes held till their step ends */

/* Step s is over: of the passes held for it, the complete ones of
 * another count than the target's (ts_lay_step_target; by the most
 * layers, fewer) are a draft's (ts_lay_verify_stage: the target's stage
 * by their tokens); the ones of known stage are staged. The drafts'
 * tokens, -1 none. */
/* The k-th pass of step s held (k = npending: last, the step's closing
 * pass, NULL none); NULL where the k-th held is another step's. */
static const ts_pass *in_step(const ts_layers *l, int64_t s, size_t k, const ts_pass *last)
{
	if (k == l->held.npending)
		return last;
	const pending_pass *pp = &l->held.pending[k];
	return pp->step_open && pp->step == s ? &l->records.passes[pp->pass] : NULL;
}

/* A forward replayed from one graph launch with another (a drafter's
 * steps captured as one graph, SGLang's EAGLE draft runner) is a draft's,
 * whatever its count, where its step (held, and last: the step's last
 * pass, NULL none) holds a complete forward of its count replayed on its
 * own: the target's. */
static bool graph_draft(const ts_layers *l, int64_t s, const ts_pass *q, const ts_pass *last)
{
	if (!q->complete || !q->graph_shared)
		return false;
	for (size_t k = 0; k <= l->held.npending; k++) {
		const ts_pass *r = in_step(l, s, k, last);
		if (r && r->complete && !r->graph_shared && r->layers == q->layers)
			return true;
	}
	return false;
}

/* A pass's tokens: its KV-cache writes', else its layers' rows; -1 none. */
static int64_t pass_tokens(const ts_pass *q)
{
	return q->kv_grid > 0 ? q->kv_grid : q->layer_tokens > 0 ? q->layer_tokens : -1;
}

/* A decode forward of its step beside one of its count that ran k times
 * its tokens (2 to 16), decode too (a token a position sampled): the
 * target verifying the draft's tokens, k a sequence; every pass of the
 * count ran one or the other. A step holding a prompt and its decodes
 * (HF's generate under one ProfilerStep) has no such target: the
 * prompt's pass samples a sequence's last position only (prefill). */
static bool token_draft(const ts_layers *l, int64_t s, const ts_pass *q, const ts_pass *last)
{
	int64_t t = pass_tokens(q);
	if (!q->complete || q->stage != TS_PSTAGE_DECODE || t <= 0)
		return false;
	bool target = false;
	for (size_t k = 0; k <= l->held.npending; k++) {
		const ts_pass *r = in_step(l, s, k, last);
		if (!r || !r->complete || r->layers != q->layers)
			continue;
		int64_t tr = pass_tokens(r);
		if (tr == t)
			continue;
		if (r->stage != TS_PSTAGE_DECODE || tr < 2 * t || tr % t || tr / t > 16)
			return false;
		target = true;
	}
	return target;
}

/* Decode forwards of one count alike in their kernels, two or more,
 * beside one decode forward of that count that ran other kernels (a
 * drafter as deep as its target with its own GEMMs, or the target's
 * batch of verified tokens): the one verifies once, the rest propose. */
static bool kernels_draft(const ts_layers *l, int64_t s, const ts_pass *q, const ts_pass *last)
{
	if (!q->complete || q->stage != TS_PSTAGE_DECODE)
		return false;
	uint32_t same = 0, other = 0;
	for (size_t k = 0; k <= l->held.npending; k++) {
		const ts_pass *r = in_step(l, s, k, last);
		if (!r || !r->complete || r->layers != q->layers)
			continue;
		if (r->stage != TS_PSTAGE_DECODE)
			return false;
		if (r->rows_sig == q->rows_sig)
			same++;
		else
			other++;
	}
	return same >= 2 && other == 1;
}

static int64_t settle_step(ts_layers *l, int64_t s, uint32_t target, uint8_t by, const ts_pass *last)
{
	int64_t draft_tokens = -1;
	for (size_t k = 0; k < l->held.npending; k++) {
		pending_pass *pp = &l->held.pending[k];
		if (!pp->step_open || pp->step != s)
			continue;
		ts_pass *q = &l->records.passes[pp->pass];
		bool shared = graph_draft(l, s, q, last), tok = !shared && token_draft(l, s, q, last);
		bool alike = !shared && !tok && kernels_draft(l, s, q, last);
		q->draft = shared || tok || alike || (q->complete && ts_lay_drafts_beside(q->layers, target, by));
		if (q->draft) {
			q->draft_by = shared ? TS_DRAFT_GRAPH : tok ? TS_DRAFT_TOKENS : alike ? TS_DRAFT_ONCE : by;
			l->stats.draft_layers = q->layers;
			l->stats.target_layers = target;
			draft_tokens = q->kv_grid > 0 ? q->kv_grid : draft_tokens;
		}
	}
	for (size_t k = 0; k < l->held.npending;) {
		pending_pass *pp = &l->held.pending[k];
		if (!pp->step_open || pp->step != s) {
			k++;
			continue;
		}
		pp->step_open = false;
		ts_pass *q = &l->records.passes[pp->pass];
		ts_lay_verify_stage(q, draft_tokens);
		if (q->stage != TS_PSTAGE_UNKNOWN)
			ts_lay_resolve_pending(l, k);   /* shifts the rest down */
		else
			k++;
	}
	return draft_tokens;
}

/* Complete passes in no step of a trace with no step annotation, held
 * (pseudo step NOSTEP) until their layer counts' cycle says which are a
 * draft's (drafts.h): CYCLE_PASSES of them, or the trace's end. Decided
 * once: the counts then known, later passes are flagged as they close
 * (close_step's stray drafts). No cycle: no draft (target 0). */
#define NOSTEP (-2)
#define CYCLE_PASSES 16

/* The trace's first pass, held (for the cycle, or in no step of an
 * annotated trace: its annotation not captured) where nothing said it
 * began at a forward's start: where the complete passes after it show
 * another count, more layers, twice at least, its own is no draft's and
 * it ran fewer kernels than any of them (a forward misread runs as
 * many), the capture began inside it (a cut forward's last layers and
 * its tail look whole where no name marks a layer's start): cut. */
void ts_lay_first_cut(ts_layers *l, const pending_pass *first, uint32_t draft)
{
	ts_pass *q = &l->records.passes[first->pass];
	uint32_t own = q->layers < TS_MAX_LAYERS ? q->layers : TS_MAX_LAYERS, most = 0, times = 0;
	for (uint32_t c = 1; c <= TS_MAX_LAYERS; c++) {
		uint32_t h = l->stats.whole_hist[c] - (c == own && l->stats.whole_hist[c]);
		if (c != draft && h && h >= times)
			most = c, times = h;
	}
	uint64_t fewest = UINT64_MAX;
	for (size_t i = 0; i < l->records.npasses; i++) {
		const ts_pass *r = &l->records.passes[i];
		if (i != first->pass && r->complete && r->layers == most && r->kernels < fewest)
			fewest = r->kernels;
	}
	if (times < 2 || q->layers >= most || q->layers == draft || !q->complete || q->kernels >= fewest)
		return;
	q->cut_start = true;
	q->complete = false;
	if (l->stats.whole_hist[own])
		l->stats.whole_hist[own]--;
	for (uint32_t i = 0; i < first->nlayers; i++)   /* a cut pass's types count as it closes */
		l->stats.type_count[ts_lay_layer_type(l, first->layers[i].marks)]++;
}

void ts_lay_settle_cycle(ts_layers *l)
{
	uint32_t counts[MAX_PENDING];
	size_t n = 0;
	for (size_t k = 0; k < l->held.npending; k++) {
		const pending_pass *pp = &l->held.pending[k];
		if (pp->step_open && pp->step == NOSTEP)
			counts[n++] = l->records.passes[pp->pass].layers;
	}
	l->held.cycle_done = true;
	uint32_t target, draft;
	if (!ts_drafts_cycle(counts, n, &target, &draft))
		target = draft = 0;
	for (size_t k = 0; k < l->held.npending; k++)
		if (l->held.pending[k].step_open && l->held.pending[k].step == NOSTEP &&
		    l->held.first_open && l->held.pending[k].pass == l->held.first_open - 1)
			ts_lay_first_cut(l, &l->held.pending[k], draft);
	settle_step(l, NOSTEP, target, target ? TS_DRAFT_CYCLE : TS_DRAFT_DEEPER, NULL);
}

/* Hold the complete pass just recorded for the cycle, where no step
 * annotation holds it; true when held. */
bool ts_lay_hold_cycle(ts_layers *l, const ts_pass *p, size_t idx, uint32_t n, bool kept)
{
	if (l->held.cycle_done || l->pass.hints.step >= 0 || !p->complete || !kept)
		return false;
	if (ts_steps_any(l->steps)) {
		l->held.cycle_done = true;
		return false;
	}
	if (!ts_lay_hold_pending(l, idx, n))
		return false;
	l->held.pending[l->held.npending - 1].step_open = true;
	l->held.pending[l->held.npending - 1].step = NOSTEP;
	/* the passes laid out meanwhile (graph-replayed decodes, no names)
	 * take the layer count of a pass whose mixers are known: the deepest
	 * held till the cycle is known */
	uint32_t mixers = 0;
	for (uint32_t i = 0; i < n; i++)
		mixers += (l->online.layers[i].marks & M_ATTN) != 0;
	if (n == p->layers && 2 * mixers >= n && n > l->finder.mixer_layers)
		l->finder.mixer_layers = n;
	size_t held = 0;
	for (size_t k = 0; k < l->held.npending; k++)
		held += l->held.pending[k].step_open && l->held.pending[k].step == NOSTEP;
	if (held >= CYCLE_PASSES)
		ts_lay_settle_cycle(l);
	return true;
}

/* The steps held open other than now (a step, or -1: every one) are
 * over: a step's last pass may end inside it (its sampling follows), so
 * the next step's first pass, or the trace's end, closes it. The passes
 * held for their cycle wait on while passes come in no step (-1). */
void ts_lay_settle_ended(ts_layers *l, int64_t now)
{
	for (size_t k = 0; k < l->held.npending; k++)
		if (l->held.pending[k].step_open && l->held.pending[k].step == NOSTEP) {
			if (now == -1)
				continue;   /* a pass in no step: the cycle goes on */
			ts_lay_settle_cycle(l);
			k = (size_t)-1;
		} else if (l->held.pending[k].step_open && l->held.pending[k].step != now) {
			int64_t s = l->held.pending[k].step;
			uint8_t by;
			uint32_t target = ts_lay_step_target(l, s, 0, false, &by);
			settle_step(l, s, target, by, NULL);
			k = (size_t)-1;   /* from the start: the list moved */
		}
}

/*
 * The step of pass p (record idx, SIZE_MAX none) ends with it. A step may
 * hold more than one forward: speculative decoding runs a small draft
 * model's forwards beside the target's (SGLang's EAGLE before its verify
 * pass, vLLM's drafter after its target), and a chunked prefill runs its
 * chunks. Its complete passes of another count than its target's
 * (ts_lay_step_target) are the draft's (and a complete pass in no step, of
 * the count drafts had beside their target: the capture ended inside a step,
 * its annotation lost, after its drafts): reported as passes of their
 * own, never as the model's (its layers per pass, types, statistics,
 * anatomy, latency). The step's held passes are then staged, or wait on
 * for the relative stage signals.
 */
void ts_lay_close_step(ts_layers *l, ts_pass *p, size_t idx)
{
	int64_t step = l->pass.hints.step;
	uint8_t by;
	uint32_t target = ts_lay_step_target(l, step, p->layers, p->complete, &by);
	lay_stats *st = &l->stats;
	bool stray = step < 0 && p->complete && st->draft_layers && p->layers == st->draft_layers &&
		     st->target_layers != st->draft_layers;
	bool shared = graph_draft(l, step, p, NULL), tok = !shared && token_draft(l, step, p, NULL);
	bool alike = !shared && !tok && kernels_draft(l, step, p, p);
	if (p->complete && (ts_lay_drafts_beside(p->layers, target, by) || stray || shared || tok || alike)) {
		p->draft = true;
		p->draft_by = shared ? TS_DRAFT_GRAPH : tok ? TS_DRAFT_TOKENS : alike ? TS_DRAFT_ONCE
			    : stray ? TS_DRAFT_STRAY : by;
		if (idx != SIZE_MAX) {
			l->records.passes[idx].draft = true;
			l->records.passes[idx].draft_by = p->draft_by;
		}
		if (!stray) {
			st->draft_layers = p->layers;
			st->target_layers = target;
		}
	}
	ts_lay_verify_stage(p, settle_step(l, step, target, by, p));
	if (idx != SIZE_MAX) {
		l->records.passes[idx].stage = p->stage;
		l->records.passes[idx].verify = p->verify;
	}
}

