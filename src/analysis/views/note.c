/*
 * note.c - what a trace with no complete forward pass is, from what it
 * holds (another accelerator, a CPU-only profile, a front-end process, a
 * capture, an empty trace, a cut): never a silent zero (see note.h).
 */
#include "analysis/views/note.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/agg.h"
#include "analysis/layers/layers.h"

/* Another accelerator's events: "1200 MTIA events (mtia_*)". */
static bool other_device(const ts_agg *a, char *buf, size_t n)
{
	static const struct { ts_cat cat; const char *name, *kinds; } dev[] = {
		{ TS_CAT_MTIA, "MTIA", "mtia_*" },
		{ TS_CAT_XPU, "Intel XPU", "xpu_*" },
		{ TS_CAT_HPU, "Gaudi HPU", "hpu_*" },
		{ TS_CAT_PRIVATEUSE1, "PrivateUse1 backend", "privateuse1_*" },
	};
	size_t best = 0;
	for (size_t i = 1; i < sizeof dev / sizeof *dev; i++)
		if (a->counts[dev[i].cat] > a->counts[dev[best].cat])
			best = i;
	uint64_t k = a->counts[dev[best].cat];
	if (!k)
		return false;
	snprintf(buf, n, "no CUDA or HIP kernel: a trace of another accelerator (%" PRIu64
		 " %s events, %s), which tracestream reads but does not analyse",
		 k, dev[best].name, dev[best].kinds);
	return true;
}

/* A trace read whole with no kernel event. */
static void no_kernels(const ts_result *res, char *buf, size_t n)
{
	const ts_agg *a = res->agg;
	ts_cpu_side c;
	ts_layers_cpu_side(res->layers, &c);
	char train[96] = "";
	if (c.backward_ops)
		snprintf(train, sizeof train, " of a training step (%" PRIu64 " autograd backward ops)",
			 c.backward_ops);
	if (other_device(a, buf, n))
		return;
	if (c.captures)
		snprintf(buf, n, "a CUDA/HIP graph capture with no kernel run (%" PRIu64 " capture%s "
			 "begun, %" PRIu64 " launches): a launch into a capture records a graph node, it "
			 "runs nothing; profile the replays", c.captures, c.captures == 1 ? "" : "s",
			 c.launches);
	else if (c.launches)
		snprintf(buf, n, "no GPU kernels, though the CPU launched %" PRIu64 "%s: the profiler "
			 "recorded no GPU activity (profile with ProfilerActivity.CUDA)", c.launches, train);
	else if (c.compute_ops || (c.cpu_ops && !c.py_server))
		snprintf(buf, n, "no GPU activity recorded: a CPU-only profile%s (%" PRIu64 " CPU ops, %"
			 PRIu64 " of them computing ATen ops such as aten::mm, no kernel launch); profile "
			 "with ProfilerActivity.CUDA to see the GPU", train, c.cpu_ops, c.compute_ops);
	else if (c.py_server)
		snprintf(buf, n, "no GPU kernels: a front-end process, such as an API server (%" PRIu64
			 " Python function events, %" PRIu64 " of the first %" PRIu64 " in an API server's "
			 "modules, %" PRIu64 " CPU ops, no kernel launch); profile the worker that runs "
			 "the model", c.py_events, c.py_server, c.py_events < 4096 ? c.py_events : 4096,
			 c.cpu_ops);
	else if (c.py_events)
		snprintf(buf, n, "no GPU kernels and no CPU op: %" PRIu64 " Python function events only "
			 "(a profile of Python code, with no PyTorch op or GPU activity recorded)",
			 c.py_events);
	else if (!a->events)
		snprintf(buf, n, "traceEvents is empty: the profiler recorded nothing (a schedule that "
			 "never became active, or stopped before its first step?)");
	else
		snprintf(buf, n, "no kernels in the trace (%" PRIu64 " events, none a kernel, an op or "
			 "a launch)", a->events);
}

bool ts_note_passes(const ts_result *res, char *buf, size_t n)
{
	if (!res->layers || !ts_layers_note(res->layers, res->partial, buf, n))
		return false;
	if (!res->partial && res->agg && res->agg->kernels == 0)
		no_kernels(res, buf, n);
	return true;
}
