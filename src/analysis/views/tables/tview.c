/*
 * tview.c - the report's tables by name (tview.h): which there are,
 * which apply to a result, and each sent to a sink by the file of its
 * family (tview_int.h). One list (TABLES) says each table once: its
 * name, the function that builds it (every one of one shape,
 * ts_tview_fn), and whether it applies; the public name list and the
 * dispatch table are both made from it.
 */
#include <string.h>

#include "analysis/views/memory.h"
#include "analysis/views/tables/tview_int.h"

/* Does the table apply to the result? NULL: always. */
typedef bool (*tview_pred)(const ts_result *res, const ts_tview_opts *o);

/* replays: only with --capture */
static bool has_replays(const ts_result *res, const ts_tview_opts *o)
{
	(void)o;
	return res->replay != NULL;
}

/* ranks and skew: only for a job over ranks */
static bool has_ranks(const ts_result *res, const ts_tview_opts *o)
{
	(void)res;
	return o->ranks != NULL;
}

/* the device memory tables: only with allocator events */
static bool has_devices(const ts_result *res, const ts_tview_opts *o)
{
	(void)o;
	return ts_memory_ndevices(ts_memory_of(res)) > 0;
}

/* the owners: only where a device's peak was found */
static bool has_peaks(const ts_result *res, const ts_tview_opts *o)
{
	(void)o;
	const ts_memory *m = ts_memory_of(res);
	for (size_t i = 0; i < ts_memory_ndevices(m); i++)
		if (ts_memory_peak(m, i)->status == TS_MEMPEAK_DONE)
			return true;
	return false;
}

/* The tables, in the report's order: name, builder, applies. */
#define TABLES(X)                                                \
	X("kernels", ts_tview_kernels, NULL)                     \
	X("types", ts_tview_types, NULL)                         \
	X("categories", ts_tview_categories, NULL)               \
	X("unclassified", ts_tview_unclassified, NULL)           \
	X("ops", ts_tview_ops, NULL)                             \
	X("workloads", ts_tview_workloads, NULL)                 \
	X("layers", ts_tview_layers, NULL)                       \
	X("passes", ts_tview_passes, NULL)                       \
	X("stages", ts_tview_stages, NULL)                       \
	X("memory", ts_tview_memory, NULL)                       \
	X("collectives", ts_tview_collectives, NULL)             \
	X("api", ts_tview_api, NULL)                             \
	X("opportunities", ts_tview_opportunities, NULL)         \
	X("gaps", ts_tview_gaps, NULL)                           \
	X("replays", ts_tview_replays, has_replays)              \
	X("ranks", ts_tview_ranks, has_ranks)                    \
	X("skew", ts_tview_skew, has_ranks)                      \
	X("device_memory", ts_tview_device_memory, has_devices)  \
	X("memory_passes", ts_tview_memory_passes, has_devices)  \
	X("memory_owners", ts_tview_memory_owners, has_peaks)

#define NAME_OF(name, fn, applies) name,
#define ENTRY_OF(name, fn, applies) { name, fn, applies },

const char *const ts_tview_tables[] = { TABLES(NAME_OF) NULL };

static const struct {
	const char *name;
	ts_tview_fn *fn;
	tview_pred applies;
} tables[] = { TABLES(ENTRY_OF) };

/* The index in tables of that name, or -1. */
static int find(const char *name)
{
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		if (strcmp(tables[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool ts_tview_known(const char *name)
{
	return find(name) >= 0;
}

int ts_tview_table(const ts_result *res, const ts_tview_opts *o, const char *name,
		   const ts_table_sink *sink)
{
	int i = find(name);
	if (i < 0)
		return -2;
	ts_kview v = ts_kview_of(res, o->staged, o->stage);
	int rc = tables[i].fn(res, o, &v, sink);
	return rc || sink->end(sink->ctx) ? -1 : 0;
}

bool ts_tview_applies(const ts_result *res, const ts_tview_opts *o, const char *name)
{
	int i = find(name);
	return i < 0 || !tables[i].applies || tables[i].applies(res, o);
}
