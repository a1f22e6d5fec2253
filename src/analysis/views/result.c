/*
 * result.c - ts_result: what one analysis holds when it is done (run
 * facts, metadata, the analysis objects it owns), read by compare, ranks
 * and the reporters (see result.h).
 */
#include "analysis/views/result.h"
#include "analysis/views/module.h"
#include "analysis/views/roofline.h"

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
	/* AMD traces number devices by node (device 5) but list one entry. */
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
	res->attrib = NULL;
	res->layers = NULL;
	for (size_t i = 0; ts_modules[i]; i++) {
		if (res->mods[i])
			ts_modules[i]->free(res->mods[i]);
		res->mods[i] = NULL;
	}
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
	ts_warns_close(w);
}
