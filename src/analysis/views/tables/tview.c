/*
 * tview.c - the report's tables by name (tview.h): which there are,
 * which apply to a result, and each sent to a sink by the file of its
 * family (tview_int.h). One list (TABLES) says each table once: its
 * name, the adapter that builds it, and whether it applies; the public
 * name list and the dispatch table are both made from it.
 */
#include <string.h>

#include "analysis/views/memory.h"
#include "analysis/views/tables/tview_int.h"

/* Every table's builder has this shape; an adapter passes on what its
 * table reads. */
typedef int (*tview_fn)(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			const ts_table_sink *k);
/* Does the table apply to the result? NULL: always. */
typedef bool (*tview_pred)(const ts_result *res, const ts_tview_opts *o);

static int t_kernels(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		     const ts_table_sink *k)
{
	(void)o;
	return ts_tview_kernels(res, v, k);
}

static int t_types(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		   const ts_table_sink *k)
{
	(void)o;
	return ts_tview_buckets(res, v, k, false);
}

static int t_categories(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			const ts_table_sink *k)
{
	(void)o;
	return ts_tview_buckets(res, v, k, true);
}

static int t_unclassified(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			  const ts_table_sink *k)
{
	(void)res, (void)o;
	return ts_tview_unclassified(v, k);
}

static int t_ops(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		 const ts_table_sink *k)
{
	(void)o;
	return ts_tview_ops(res, v, k);
}

static int t_workloads(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		       const ts_table_sink *k)
{
	(void)o;
	return ts_tview_workloads(res, v, k);
}

static int t_layers(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		    const ts_table_sink *k)
{
	(void)o;
	return ts_tview_layers(res, v, k);
}

static int t_passes(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		    const ts_table_sink *k)
{
	(void)o;
	return ts_tview_passes(res, v, k);
}

static int t_stages(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		    const ts_table_sink *k)
{
	(void)o, (void)v;
	return ts_tview_stages(res, k);
}

static int t_memory(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		    const ts_table_sink *k)
{
	(void)o;
	return ts_tview_memory(res, v, k);
}

static int t_collectives(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			 const ts_table_sink *k)
{
	(void)o;
	return ts_tview_collectives(res, v, k);
}

static int t_api(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		 const ts_table_sink *k)
{
	(void)o, (void)v;
	return ts_tview_api(res, k);
}

static int t_opportunities(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			   const ts_table_sink *k)
{
	(void)o;
	return ts_tview_opportunities(res, v, k);
}

static int t_gaps(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		  const ts_table_sink *k)
{
	(void)o;
	return ts_tview_gaps(res, v, k);
}

static int t_replays(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		     const ts_table_sink *k)
{
	(void)o, (void)v;
	return ts_tview_replays(res, k);
}

static int t_ranks(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		   const ts_table_sink *k)
{
	(void)res, (void)v;
	return ts_tview_ranks(o->ranks, k);
}

static int t_skew(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		  const ts_table_sink *k)
{
	(void)res, (void)v;
	return ts_tview_skew(o->ranks, k);
}

static int t_device_memory(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			   const ts_table_sink *k)
{
	(void)o, (void)v;
	return ts_tview_device_memory(res, k);
}

static int t_memory_passes(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			   const ts_table_sink *k)
{
	(void)o, (void)v;
	return ts_tview_memory_passes(res, k);
}

static int t_memory_owners(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
			   const ts_table_sink *k)
{
	(void)o, (void)v;
	return ts_tview_memory_owners(res, k);
}

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

/* The tables, in the report's order: name, adapter, applies. */
#define TABLES(X)                                               \
	X("kernels", t_kernels, NULL)                           \
	X("types", t_types, NULL)                               \
	X("categories", t_categories, NULL)                     \
	X("unclassified", t_unclassified, NULL)                 \
	X("ops", t_ops, NULL)                                   \
	X("workloads", t_workloads, NULL)                       \
	X("layers", t_layers, NULL)                             \
	X("passes", t_passes, NULL)                             \
	X("stages", t_stages, NULL)                             \
	X("memory", t_memory, NULL)                             \
	X("collectives", t_collectives, NULL)                   \
	X("api", t_api, NULL)                                   \
	X("opportunities", t_opportunities, NULL)               \
	X("gaps", t_gaps, NULL)                                 \
	X("replays", t_replays, has_replays)                    \
	X("ranks", t_ranks, has_ranks)                          \
	X("skew", t_skew, has_ranks)                            \
	X("device_memory", t_device_memory, has_devices)        \
	X("memory_passes", t_memory_passes, has_devices)        \
	X("memory_owners", t_memory_owners, has_peaks)

#define NAME_OF(name, fn, applies) name,
#define ENTRY_OF(name, fn, applies) { name, fn, applies },

const char *const ts_tview_tables[] = { TABLES(NAME_OF) NULL };

static const struct {
	const char *name;
	tview_fn fn;
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
