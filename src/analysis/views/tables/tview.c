/*
 * tview.c - the report's tables by name (tview.h): which there are,
 * which apply to a result, and each sent to a sink by the file of its
 * family (tview_int.h).
 */
#include <string.h>

#include "analysis/views/memory.h"
#include "analysis/views/tables/tview_int.h"

const char *const ts_tview_tables[] = {
	"kernels", "types", "categories", "unclassified", "ops", "workloads",
	"layers", "passes", "stages", "memory", "collectives", "api", "opportunities", "gaps",
	"replays", "ranks", "skew", "device_memory", "memory_passes", "memory_owners", NULL,
};

bool ts_tview_known(const char *name)
{
	for (size_t i = 0; ts_tview_tables[i]; i++)
		if (strcmp(ts_tview_tables[i], name) == 0)
			return true;
	return false;
}

int ts_tview_table(const ts_result *res, const ts_tview_opts *o, const char *name,
		   const ts_table_sink *sink)
{
	ts_kview v = ts_kview_of(res, o->staged, o->stage);
	int rc;
	if (strcmp(name, "kernels") == 0)
		rc = ts_tview_kernels(res, &v, sink);
	else if (strcmp(name, "types") == 0 || strcmp(name, "categories") == 0)
		rc = ts_tview_buckets(res, &v, sink, name[0] == 'c');
	else if (strcmp(name, "unclassified") == 0)
		rc = ts_tview_unclassified(&v, sink);
	else if (strcmp(name, "ops") == 0)
		rc = ts_tview_ops(res, &v, sink);
	else if (strcmp(name, "workloads") == 0)
		rc = ts_tview_workloads(res, &v, sink);
	else if (strcmp(name, "layers") == 0)
		rc = ts_tview_layers(res, &v, sink);
	else if (strcmp(name, "passes") == 0)
		rc = ts_tview_passes(res, &v, sink);
	else if (strcmp(name, "stages") == 0)
		rc = ts_tview_stages(res, sink);
	else if (strcmp(name, "memory") == 0)
		rc = ts_tview_memory(res, &v, sink);
	else if (strcmp(name, "collectives") == 0)
		rc = ts_tview_collectives(res, &v, sink);
	else if (strcmp(name, "api") == 0)
		rc = ts_tview_api(res, sink);
	else if (strcmp(name, "opportunities") == 0)
		rc = ts_tview_opportunities(res, &v, sink);
	else if (strcmp(name, "gaps") == 0)
		rc = ts_tview_gaps(res, &v, sink);
	else if (strcmp(name, "replays") == 0)
		rc = ts_tview_replays(res, sink);
	else if (strcmp(name, "ranks") == 0)
		rc = ts_tview_ranks(o->ranks, sink);
	else if (strcmp(name, "skew") == 0)
		rc = ts_tview_skew(o->ranks, sink);
	else if (strcmp(name, "device_memory") == 0)
		rc = ts_tview_device_memory(res, sink);
	else if (strcmp(name, "memory_passes") == 0)
		rc = ts_tview_memory_passes(res, sink);
	else if (strcmp(name, "memory_owners") == 0)
		rc = ts_tview_memory_owners(res, sink);
	else
		return -2;
	return rc || sink->end(sink->ctx) ? -1 : 0;
}

bool ts_tview_applies(const ts_result *res, const ts_tview_opts *o, const char *name)
{
	if (strcmp(name, "replays") == 0)
		return res->replay != NULL;
	if (strcmp(name, "ranks") == 0 || strcmp(name, "skew") == 0)
		return o->ranks != NULL;
	const ts_memory *m = ts_memory_of(res);
	if (strcmp(name, "memory_owners") == 0) {
		for (size_t i = 0; i < ts_memory_ndevices(m); i++)
			if (ts_memory_peak(m, i)->status == TS_MEMPEAK_DONE)
				return true;
		return false;
	}
	if (strcmp(name, "device_memory") == 0 || strcmp(name, "memory_passes") == 0)
		return ts_memory_ndevices(m) > 0;
	return true;
}
