/*
 * result.c - ts_result: what one analysis holds when it is done (run
 * facts, metadata, the analysis objects it owns), read by compare, ranks
 * and the reporters (see result.h).
 */
#include "analysis/views/result.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "analysis/views/aview.h"
#include "analysis/views/module.h"

const ts_devprop *ts_result_devprop(const ts_result *res)
{
	const ts_meta *m = &res->meta;
	if (m->ndev == 0)
		return NULL;
	const ts_device *d = res->agg ? ts_agg_main_device(res->agg) : NULL;
	if (d) {
		for (int i = 0; i < m->ndev; i++)
			if ((m->dev[i].has & TS_DEV_HAS_ID) && m->dev[i].id == d->id)
				return &m->dev[i];
	}
	/* AMD traces number devices by node (device 5) but list one entry;
	 * not one whose name is the other vendor's (a file merged from two
	 * processes keeps the first one's properties) */
	const char *name = m->dev[0].name;
	bool nvidia = strstr(name, "NVIDIA") != NULL, amd = strstr(name, "AMD") || strstr(name, "Instinct");
	if ((nvidia && res->platform == TS_PLATFORM_AMD) || (amd && res->platform == TS_PLATFORM_NVIDIA))
		return NULL;
	return &m->dev[0];
}

void ts_result_free(ts_result *res)
{
	if (!res)
		return;
	ts_agg_free(res->agg);
	res->agg = NULL;
	ts_layers_free(res->layers);
	ts_attrib_free(res->attrib);
	ts_ctx_free(res->ctx);
	res->ctx = NULL;
	ts_comm_free(res->comm);
	res->comm = NULL;
	ts_api_free(res->api);
	res->api = NULL;
	ts_replay_free(res->replay);
	res->replay = NULL;
	ts_capmap_free(res->merged_captures);
	res->merged_captures = NULL;
	ts_sorter_free(res->sorter);
	res->sorter = NULL;
	res->attrib = NULL;
	res->layers = NULL;
	for (size_t i = 0; ts_modules[i]; i++) {
		if (res->mods[i])
			ts_modules[i]->free(res->mods[i]);
		res->mods[i] = NULL;
	}
}

/* Events out of the order the analysis reads (input/order.h): what the
 * watch saw, and what was done. */
static void order_warning(const ts_result *res, ts_warns *w)
{
	const ts_order_watch *o = &res->order;
	if (!res->order_out)
		return;
	char why[260];
	/* the read stops at the 64th: the counts are those seen by then */
	int n = snprintf(why, sizeof why, "%s", o->late >= 64 || o->back >= 64 || o->cpu_back >= 64 ?
			 "at least " : "");
	if (o->late)
		n += snprintf(why + n, sizeof why - (size_t)n, "%" PRIu64 " CPU events after the GPU's first operation",
			      o->late);
	if (o->back && n < (int)sizeof why)
		n += snprintf(why + n, sizeof why - (size_t)n, "%s%" PRIu64 " GPU operations earlier than the one "
			      "before on their stream", o->late ? ", " : "", o->back);
	if (o->cpu_back && n < (int)sizeof why)
		snprintf(why + n, sizeof why - (size_t)n, "%s%" PRIu64 " CPU events earlier than the one before "
			 "on their thread", o->late || o->back ? ", " : "", o->cpu_back);
	char how[80] = "";
	if (res->sort_runs)
		snprintf(how, sizeof how, ", through a temporary file of %.1f MB",
			 (double)res->sort_file_bytes / 1e6);
	if (res->order_sorted)
		ts_warn(w, "the trace's events are out of time order (%s): they were sorted first (%" PRIu64
			" events%s), as the analysis reads them", why, res->sorted_events, how);
	else if (*res->sort_failed)
		ts_warn(w, "the trace's events are out of time order (%s) and could not be sorted (%s): "
			"they were analysed as they came, and passes, layers and steps may be wrong; "
			"--sort-mem or TMPDIR gives the sorter room", why, res->sort_failed);
	else
		ts_warn(w, "the trace's events are out of time order (%s): they were analysed as they "
			"came (a pipe, or a --capture trace, is read once), and passes, layers and steps may "
			"be wrong: given as a file, tracestream sorts them first", why);
}

void ts_result_warnings(const ts_result *res, ts_warns *w)
{
	*w = (ts_warns){ .n = 0 };
	if (!res->agg)
		return;
	ts_agg_warnings(res->agg, w);
	ts_parser_warnings(&res->pstats, w);
	if (res->layers)
		ts_layers_warnings(res->layers, &res->model, res->agg, w);
	if (res->attrib) {
		ts_attrib_warnings(res->attrib, res->replay != NULL, w);
		if (res->gpu)
			ts_roofline_warnings(res->attrib, res->gpu, w);
	}
	if (res->replay)
		ts_replay_warnings(res->replay, w);
	ts_api_warnings(res->api, res->agg->ndev, w);
	for (size_t i = 0; ts_modules[i]; i++)
		if (res->mods[i] && ts_modules[i]->warnings)
			ts_modules[i]->warnings(res->mods[i], w);
	ts_meta_warnings(&res->meta, w);
	order_warning(res, w);
	ts_warns_close(w);
}
