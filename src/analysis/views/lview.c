/*
 * lview.c - the layer machine's findings as a record, built once from a
 * finished result (see lview.h), and what a trace with no complete
 * forward pass is, from what it holds (another accelerator, a CPU-only
 * profile, a front-end process, a capture, an empty trace, a cut): never
 * a silent zero.
 */
#include "analysis/views/lview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/agg.h"
#include "analysis/layers/layers.h"
#include "analysis/layers/model.h"

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

/* ------------------------------------------------------------ the record */

/* The passes: each with its annotation's name and evidence; the layers,
 * complete passes and drafts of those that are no draft, and what told
 * most drafts from their targets. */
static int lv_passes(const ts_layers *l, ts_lview *v)
{
	size_t n = ts_layers_npasses(l);
	if (n && !(v->passes = calloc(n, sizeof *v->passes)))
		return -1;
	v->npasses = n;
	uint64_t by[TS_DRAFT_BY_COUNT] = { 0 };
	for (size_t i = 0; i < n; i++) {
		const ts_pass *p = ts_layers_pass(l, i);
		ts_lview_pass *vp = &v->passes[i];
		vp->p = p;
		vp->annotation = ts_layers_annotation_name(l, p->annotation);
		ts_pass_evidence(l, p, vp->evidence, sizeof vp->evidence);
		v->drafts += p->draft;
		if (p->draft && p->draft_by < TS_DRAFT_BY_COUNT)
			by[p->draft_by]++;
		if (p->draft)
			continue;
		v->layers += p->layers;
		v->complete += p->complete;
	}
	int most = TS_DRAFT_NOT;
	for (int b = TS_DRAFT_UNKNOWN; b < TS_DRAFT_BY_COUNT; b++)
		if (by[b] > by[most])
			most = b;
	v->drafts_by = (ts_draft_by)most;
	return 0;
}

static void lv_stage(const ts_layers *l, ts_pstage s, ts_lview_stage *st)
{
	st->total = *ts_layers_stage(l, s);
	st->rows = ts_layers_stage_rows(l, s, &st->other, &st->all);
	st->nindex = ts_layers_max_index(l, s);
	st->index = st->nindex ? ts_layers_stat(l, s, 0) : NULL;
	st->noutliers = ts_layers_outliers(l, s, st->outliers, TS_LVIEW_OUTLIERS, &st->typical_ns);
}

/* The typical layer of stage s: the anatomy's sums, and its rows in
 * layer order with each one's kernel and call. */
static int lv_anat(const ts_anatomy *a, int s, size_t ncat, ts_lview_anat *an)
{
	an->layers = ts_anatomy_layers(a, s);
	if (!an->layers)
		return 0;
	an->passes = ts_anatomy_passes(a, s);
	an->skipped = ts_anatomy_skipped(a, s);
	an->total = ts_anatomy_total(a, s);
	an->layer_time = ts_anatomy_layer_time(a, s);
	an->layer_wall = ts_anatomy_layer_wall(a, s);
	an->other_rows = ts_anatomy_other_rows(a, s);
	for (int t = 0; t < TS_TYPE_COUNT; t++)
		an->type[t] = ts_anatomy_type(a, s, t);
	if (!(an->category = calloc(ncat + 1, sizeof *an->category)))
		return -1;
	for (int c = -1; c < (int)ncat; c++)
		an->category[c + 1] = ts_anatomy_category(a, s, c);
	size_t nr;
	uint32_t *ids = ts_anatomy_rows(a, s, &nr);
	if (!ids || (nr && !(an->rows = calloc(nr, sizeof *an->rows)))) {
		free(ids);
		return -1;
	}
	for (size_t i = 0; i < nr; i++) {
		ts_lview_anat_row *r = &an->rows[i];
		r->r = ts_anatomy_row(a, s, ids[i]);
		r->kernel = ts_anatomy_row_kernel(a, s, ids[i], &r->call);
	}
	an->nrows = nr;
	free(ids);
	return 0;
}

int ts_lview_of(const ts_result *res, ts_lview *out)
{
	static const ts_stat none;
	memset(out, 0, sizeof *out);
	out->tables = res->patterns;
	for (int s = 0; s < TS_PSTAGE_COUNT; s++)
		out->stage[s].other = out->stage[s].all = &none;
	const ts_layers *l = res->layers;
	if (!l)
		return 0;
	if (lv_passes(l, out) != 0)
		return -1;
	out->per_pass = ts_layers_per_pass(l);
	out->expected = ts_model_expected_layers(l, &res->model, out->expected_from,
						 sizeof out->expected_from);
	for (int t = 0; t < TS_LT_COUNT; t++)
		out->types[t] = ts_layers_type_count(l, (ts_ltype)t);
	out->structural = ts_layers_structural(l);
	out->once_units = ts_layers_once_units(l);
	out->generation = ts_layers_generation(l);
	out->diffusion = ts_layers_diffusion(l);
	out->encoder = ts_layers_encoder(l);
	out->orphans = ts_layers_orphans(l, &out->orphan_ns);
	out->nodd = ts_layers_odd(l, &out->odd, &out->odd_total);
	out->doubt = *ts_layers_doubt(l);
	out->has_note = ts_note_passes(res, out->note, sizeof out->note);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++)
		lv_stage(l, (ts_pstage)s, &out->stage[s]);
	out->anatomy = ts_layers_anatomy(l);
	if (out->anatomy)
		out->ncategories = ts_anatomy_ncategories(out->anatomy);
	for (int s = 0; out->anatomy && s < TS_PSTAGE_COUNT; s++)
		if (lv_anat(out->anatomy, s, out->ncategories, &out->stage[s].anat) != 0)
			return -1;
	out->debug.n = ts_layers_debug(l, &out->debug.k);
	out->debug.listed = ts_layers_debug_pass(l, &out->debug.index, &out->debug.stage,
						 &out->debug.complete);
	const ts_layers_opts *lo = ts_layers_options(l);
	out->debug.want_pass = lo->debug_pass;
	out->debug.want_stage = lo->debug_stage;
	return 0;
}

void ts_lview_free(ts_lview *v)
{
	free(v->passes);
	for (int s = 0; s < TS_PSTAGE_COUNT; s++) {
		ts_lview_anat *an = &v->stage[s].anat;
		free(an->category);
		free(an->rows);
		an->category = NULL;
		an->rows = NULL;
		an->nrows = 0;
	}
	v->passes = NULL;
	v->npasses = 0;
}
