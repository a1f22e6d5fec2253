#include "report.h"
#include "satmath.h"
#include "roofline.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

ts_kview ts_report_view(const ts_result *res, const ts_report_opts *o)
{
	const ts_agg *a = res->agg;
	ts_kview v = { .agg = a, .rows = a->rows, .other = &a->other, .all = &a->all };
	if (o && o->filter_stage && res->layers) {
		v.staged = true;
		v.stage = o->stage;
		v.rows = ts_layers_stage_rows(res->layers, o->stage, &v.other, &v.all);
	}
	return v;
}

const ts_stat *ts_report_row(const ts_kview *v, uint32_t row)
{
	static const ts_stat empty;
	if (row == TS_ROW_OTHER)
		return v->other;
	return v->rows ? &v->rows[row] : &empty;
}

const char *ts_report_row_name(const ts_agg *a, uint32_t row, size_t *len)
{
	if (row == TS_ROW_OTHER) {
		*len = 7;
		return "(other)";
	}
	return ts_intern_str(a->names, row, len);
}

/* qsort has no context argument in C11; the order needs the agg. Sorting
 * (total, row) pairs keeps it reentrant. */
typedef struct {
	int64_t total;
	const char *name;
	size_t len;
	uint32_t row;
} sort_key;

static int by_total_then_name(const void *pa, const void *pb)
{
	const sort_key *a = pa, *b = pb;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

uint32_t *ts_report_kernel_order(const ts_kview *v, size_t *n)
{
	const ts_agg *a = v->agg;
	uint32_t rows = ts_intern_count(a->names);
	size_t cnt = 0;
	sort_key *keys = malloc((rows + 1) * sizeof *keys);
	uint32_t *order = malloc((rows + 1) * sizeof *order);
	if (!keys || !order) {
		free(keys);
		free(order);
		*n = 0;
		return NULL;
	}
	for (uint32_t i = 0; i <= rows; i++) {
		uint32_t row = i == rows ? TS_ROW_OTHER : i;
		const ts_stat *s = ts_report_row(v, row);
		if (s->count == 0)
			continue;
		sort_key *k = &keys[cnt++];
		k->total = s->total;
		k->row = row;
		k->name = ts_report_row_name(a, row, &k->len);
	}
	qsort(keys, cnt, sizeof *keys, by_total_then_name);
	for (size_t i = 0; i < cnt; i++)
		order[i] = keys[i].row;
	free(keys);
	*n = cnt;
	return order;
}

size_t ts_utf8_len(const unsigned char *s, size_t n)
{
	size_t need;
	if (n == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4;
	else
		return 0;
	if (n < need)
		return 0;
	for (size_t i = 1; i < need; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* the second byte's range: no overlong form, surrogate or past U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return need;
}

void ts_fmt_us(char *buf, size_t n, int64_t ns)
{
	uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	snprintf(buf, n, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", u / 1000,
		 (unsigned)(u % 1000));
}

const ts_devprop *ts_report_devprop(const ts_result *res)
{
	return ts_result_devprop(res);
}

#define WARN(...)                                                          \
	do {                                                               \
		if (k < max)                                               \
			snprintf(lines[k++], TS_WARN_LEN, __VA_ARGS__);    \
	} while (0)

size_t ts_report_warnings(const ts_result *res, char (*lines)[TS_WARN_LEN],
			  size_t max)
{
	size_t k = 0;
	const ts_agg *a = res->agg;
	const ts_parser_stats *ps = &res->pstats;
	if (!a)
		return 0;
	if (a->other.count)
		WARN("%" PRIu64 " kernel launches past the cap of %u distinct kernel names were folded into the (other) row",
		     a->other.count, a->lim.max_kernel_names);
	if (a->untimed_kernels)
		WARN("%" PRIu64 " kernel events without ts or dur were counted but not timed",
		     a->untimed_kernels);
	if (a->dev_overflow)
		WARN("%" PRIu64 " kernels ran on devices past the cap of %u and are left out of busy time",
		     a->dev_overflow, a->lim.max_devices);
	uint64_t late = ts_agg_busy_late(a);
	if (late)
		WARN("%" PRIu64 " kernels arrived more than %u intervals out of order; GPU busy time is approximate",
		     late, a->lim.busy_window);
	if (ps->long_names)
		WARN("%" PRIu64 " event names longer than %d bytes were cut", ps->long_names,
		     TS_NAME_MAX);
	if (ps->bad_numbers)
		WARN("%" PRIu64 " ts/dur/id values were not numbers in range and were ignored",
		     ps->bad_numbers);
	if (ps->bad_times)
		WARN("%" PRIu64 " events have a ts outside -2^61 .. 2^62 ns or a dur that is negative or over "
		     "2^40 ns (18 minutes), the first near byte %" PRIu64 "; they are left untimed",
		     ps->bad_times, ps->bad_time_byte);
	if (ps->bad_items)
		WARN("%" PRIu64 " traceEvents items were not objects", ps->bad_items);
	if (res->layers) {
		const ts_layers *l = res->layers;
		const ts_family *f = res->model.family;
		char why[200];
		long want = ts_layers_expected(l, f, strcmp(res->model.source, "forced") == 0,
					       res->model.score, why, sizeof why);
		uint32_t bad = 0, got = 0, complete = 0;
		bool agree = true;
		for (size_t i = 0; i < ts_layers_npasses(l); i++) {
			const ts_pass *p = ts_layers_pass(l, i);
			if (!p->complete)
				continue;
			if (complete++ && p->layers != ts_layers_per_pass(l))
				agree = false;
			if (want > 0 && p->layers != (uint32_t)want) {
				bad++;
				got = p->layers;
			}
		}
		/* The family's count is a hint: passes that agree with each other
		 * are more likely a size the table does not list. */
		if (bad && agree && complete > 1 && ts_layers_options(l)->expect_layers <= 0)
			WARN("every complete pass has %" PRIu32 " layers, where %s gives %ld%s: a size the "
			     "table does not list (add it to num_hidden_layers) or a boundary misplaced alike "
			     "in every pass", got, why, want,
			     ts_layers_options(l)->split_half_layers ? " (two half-layers each)" : "");
		else if (bad)
			WARN("%" PRIu32 " complete passes have a layer count other than %ld (e.g. %" PRIu32
			     "), the number expected from %s%s", bad, want, got, why,
			     ts_layers_options(l)->split_half_layers ? ", counted as two half-layers each" : "");
		const ts_odd_layer *odd;
		uint64_t odd_total;
		if (ts_layers_odd(l, &odd, &odd_total))
			WARN("%" PRIu64 " layer%s far off the typical layer of %s type in %s pass (under 0.5x "
			     "or over 2x its time or kernels), a sign of a misplaced layer boundary: layer %"
			     PRIu32 " of pass %" PRIu32 " (%s) has %.1f us and %" PRIu32 " kernels against %.1f us and %"
			     PRIu32 "%s", odd_total, odd_total > 1 ? "s are" : " is",
			     odd_total > 1 ? "their" : "its", odd_total > 1 ? "their" : "its",
			     odd->layer, odd->pass, ts_ltype_name(odd->type), (double)odd->ns / 1e3,
			     odd->kernels, (double)odd->typical_ns / 1e3, odd->typical_kernels,
			     odd_total > 1 ? " (the first; layers.odd in JSON lists them)" : "");
		if (ts_layers_annotations_dropped(l))
			WARN("%" PRIu64 " step annotations past the first %d held were not used for passes and stages",
			     ts_layers_annotations_dropped(l), TS_MAX_ANNOTATIONS);
		if (ts_layers_passes_dropped(l))
			WARN("%" PRIu64 " passes past the first %d are in the stage totals but not in passes[]",
			     ts_layers_passes_dropped(l), TS_MAX_PASSES);
	}
	if (res->attrib) {
		const ts_attrib_totals *t = ts_attrib_get_totals(res->attrib);
		int64_t all = 0;
		for (int b = 0; b < TS_ATTR_COUNT; b++)
			all = ts_sat_add(all, t->ns[b]);
		if (t->ops_dropped)
			WARN("%" PRIu64 " CPU ops past --join-mem (%zu bytes, %" PRIu64
			     " ops) were not indexed; their kernels count as launch or unlinked",
			     t->ops_dropped, t->index_bytes, t->ops_indexed);
		const ts_callsite_totals *cs = ts_attrib_callsite_totals(res->attrib);
		if (cs->dropped)
			WARN("%" PRIu64 " Python frames past --join-mem or the thread and name caps were not indexed; launches under them may show an outer call site",
			     cs->dropped);
		if (cs->out_of_order)
			WARN("%" PRIu64 " Python frames came out of start order on their thread and were not indexed",
			     cs->out_of_order);
		if (t->workloads_dropped)
			WARN("%" PRIu64 " op calls past the %d workload definitions kept have no workload",
			     t->workloads_dropped, TS_ATTRIB_MAX_WORKLOADS);
		if (res->gpu) {
			size_t over = 0, n = ts_attrib_nworkloads(res->attrib);
			for (size_t i = 0; i < n; i++) {
				const ts_wl_row *w = ts_attrib_workload(res->attrib, TS_ATTRIB_ALL, i);
				size_t len;
				const char *dtype;
				ts_roofline rf;
				if (w->calls == 0)
					continue;
				ts_attrib_workload_name(res->attrib, i, &len, &dtype);
				ts_roofline_of(w, dtype, res->gpu, &rf);
				over += rf.exceeds_peak;
			}
			if (over)
				WARN("%zu workloads ran faster than the %s peaks allow: their kernels are not the calls' own (mislinked) or a flops:/bytes: rule or the peak is wrong; their pct_of_peak is left out",
				     over, res->gpu->name);
		}
		if (t->lookahead_overflow)
			WARN("%" PRIu64 " kernels waited past the look-ahead of %d for their launch and count as unlinked",
			     t->lookahead_overflow, TS_ATTRIB_LOOKAHEAD);
		if (all && 2 * t->ns[TS_ATTR_GRAPH] > all)
			WARN("%.1f%% of kernel time was replayed from CUDA/HIP graphs with no CPU op detail",
			     100.0 * (double)t->ns[TS_ATTR_GRAPH] / (double)all);
	}
	if (res->replay) {
		const ts_replay_totals *rt = ts_replay_get_totals(res->replay);
		const ts_capture_totals *ct = ts_capmap_totals(ts_replay_map(res->replay));
		if (rt->refused)
			WARN("%" PRIu64 " of %" PRIu64 " graph replays matched no captured graph and keep no op (the reasons: Graph replays)",
			     rt->refused, rt->replays);
		if (rt->forced)
			WARN("%" PRIu64 " graph replays were decided before they were complete: more than %d kernels waited",
			     rt->forced, TS_REPLAY_HOLD);
		if (ct->unclosed || ct->overlapping)
			WARN("--capture: %" PRIu64 " capture windows with no end and %" PRIu64 " begun while another thread's was open were left out",
			     ct->unclosed, ct->overlapping);
		if (ct->nodes_dropped)
			WARN("--capture: %" PRIu64 " kernel nodes past %u nodes or %u graphs (or out of memory) were left out, with their graphs",
			     ct->nodes_dropped, TS_CAPTURE_MAX_NODES, TS_CAPTURE_MAX_GRAPHS);
	}
	if (res->meta.devprops_dropped)
		WARN("%d deviceProperties entries past the first %d were ignored",
		     res->meta.devprops_dropped, TS_MAX_DEVPROPS);
	return k;
}

const ts_kclass *ts_report_row_class(const ts_agg *a, uint32_t row)
{
	if (row == TS_ROW_OTHER)
		return &ts_other_class;
	/* the context with most of the name's time (see ts_agg_context) */
	if (a->ctx && a->ctx[row].category >= 0 && 2 * a->ctx[row].ns > a->rows[row].total)
		return &a->ctx[row].cls;
	return &a->classes[row];
}

typedef struct {
	const char *s;
	uint32_t row;
} short_key;

static int by_short(const void *pa, const void *pb)
{
	const short_key *a = pa, *b = pb;
	int c = strcmp(a->s, b->s);
	return c ? c : (a->row > b->row) - (a->row < b->row);
}

char (*ts_report_short_names(const ts_agg *a))[TS_SHORT_MAX + 1]
{
	uint32_t n = ts_intern_count(a->names);
	char (*out)[TS_SHORT_MAX + 1] = calloc(n + 1, sizeof *out);
	short_key *k = malloc((n + 1) * sizeof *k);
	if (!out || !k) {
		free(out);
		free(k);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		memcpy(out[i], a->classes[i].short_name, sizeof out[i]);
		k[i] = (short_key){ a->classes[i].short_name, i };
	}
	qsort(k, n, sizeof *k, by_short);
	for (uint32_t i = 0; i < n; i++) {
		bool dup = (i > 0 && strcmp(k[i].s, k[i - 1].s) == 0) ||
			   (i + 1 < n && strcmp(k[i].s, k[i + 1].s) == 0);
		if (!dup)
			continue;
		size_t len;
		const char *full = ts_intern_str(a->names, k[i].row, &len);
		unsigned h = (unsigned)(ts_hash_bytes(full, len) & 0xffff);
		char *dst = out[k[i].row];
		size_t keep = strlen(dst);
		if (keep > TS_SHORT_MAX - 6)
			keep = TS_SHORT_MAX - 6;
		snprintf(dst + keep, TS_SHORT_MAX + 1 - keep, " ~%04x", h);
	}
	free(k);
	return out;
}

void ts_report_pieces(const ts_result *res, const ts_kview *v, bool with_mem,
		      ts_piece_fn fn, void *ctx)
{
	const ts_agg *a = res->agg;
	uint32_t n = ts_intern_count(a->names);
	const ts_ctx_stat *sctx = v->staged && res->layers
				  ? ts_layers_stage_ctx(res->layers, v->stage) : NULL;
	for (uint32_t i = 0; i < n; i++) {
		const ts_stat *s = ts_report_row(v, i);
		if (s->count == 0)
			continue;
		/* the part of a name's time that ran in a context goes to the
		 * context's category */
		uint64_t cc = 0;
		int64_t cns = 0;
		if (a->ctx[i].category >= 0) {
			cc = v->staged ? (sctx ? sctx[i].count : 0) : a->ctx[i].count;
			cns = v->staged ? (sctx ? sctx[i].ns : 0) : a->ctx[i].ns;
		}
		if (s->count > cc)
			fn(ctx, &(ts_piece){ i, &a->classes[i], s->count - cc, s->total - cns, -1 });
		if (cc)
			fn(ctx, &(ts_piece){ i, &a->ctx[i].cls, cc, cns, -1 });
	}
	if (v->other->count)
		fn(ctx, &(ts_piece){ TS_ROW_OTHER, &ts_other_class, v->other->count,
				      v->other->total, -1 });
	for (int k = 0; k < TS_MEM_COUNT && with_mem && !v->staged; k++)
		if (a->mem[k].count)
			fn(ctx, &(ts_piece){ TS_ROW_OTHER, &a->mem_class[k], a->mem[k].count,
					      a->mem[k].total_ns, k });
}

static void add_bucket(void *ctx, const ts_piece *p)
{
	ts_breakdown *b = ctx;
	const ts_kclass *c = p->cls;
	b->types[c->type].count += p->count;
	b->types[c->type].total_ns = ts_sat_add(b->types[c->type].total_ns, p->ns);
	size_t ci = c->category < 0 ? b->ncats : (size_t)c->category;
	b->cats[ci].count += p->count;
	b->cats[ci].total_ns = ts_sat_add(b->cats[ci].total_ns, p->ns);
	b->total_ns = ts_sat_add(b->total_ns, p->ns);
	if (p->mem < 0 && c->type != TS_TYPE_OTHER)
		b->classified_ns = ts_sat_add(b->classified_ns, p->ns);
}

int ts_report_breakdown(const ts_result *res, const ts_kview *v, ts_breakdown *b)
{
	memset(b, 0, sizeof *b);
	b->ncats = res->patterns ? ts_patterns_ncategories(res->patterns) : 0;
	b->cats = calloc(b->ncats + 1, sizeof *b->cats);
	if (!b->cats)
		return -1;
	ts_report_pieces(res, v, true, add_bucket, b);
	return 0;
}

void ts_breakdown_free(ts_breakdown *b)
{
	free(b->cats);
	b->cats = NULL;
}

const char *ts_breakdown_cat_name(const ts_result *res, size_t i)
{
	if (!res->patterns || i >= ts_patterns_ncategories(res->patterns))
		return "Other";
	return ts_patterns_category(res->patterns, i)->name;
}

ts_ktype ts_breakdown_cat_type(const ts_result *res, size_t i)
{
	if (!res->patterns || i >= ts_patterns_ncategories(res->patterns))
		return TS_TYPE_OTHER;
	return ts_patterns_category(res->patterns, i)->type;
}

uint32_t *ts_report_unclassified(const ts_kview *v, size_t *n)
{
	const ts_agg *a = v->agg;
	size_t all;
	uint32_t *order = ts_report_kernel_order(v, &all);
	size_t k = 0;
	for (size_t i = 0; order && i < all; i++)
		if (order[i] != TS_ROW_OTHER && a->classes[order[i]].rule < 0)
			order[k++] = order[i];
	*n = k;
	return order;
}

size_t ts_report_sort_buckets(const ts_bucket *b, size_t n, size_t *idx)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (b[i].count)
			idx[k++] = i;
	/* Insertion sort: at most a few dozen buckets. */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && b[idx[j]].total_ns > b[idx[j - 1]].total_ns; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	return k;
}

int ts_report_nbuckets(const ts_result *res)
{
	bool some = res->attrib && ts_attrib_get_totals(res->attrib)->kernels[TS_ATTR_GRAPH_OP];
	return res->replay || some ? TS_ATTR_COUNT : TS_ATTR_GRAPH_OP;
}

int ts_report_attrib_view(const ts_kview *v)
{
	return v->staged ? (int)v->stage : TS_ATTRIB_ALL;
}

void ts_report_op_label(const ts_attrib *a, size_t i, char *buf, size_t n)
{
	size_t len;
	const char *name = ts_attrib_op_name(a, i, &len);
	switch (ts_attrib_op_via(a, i)) {
	case TS_ATTR_GRAPH:
		snprintf(buf, n, "[graph] %.*s", (int)len, name);
		break;
	case TS_ATTR_LAUNCH:
		snprintf(buf, n, "[launch] %.*s", (int)len, name);
		break;
	default:
		snprintf(buf, n, "%.*s", (int)len, name);
	}
}

static void cover(const ts_result *res, int view, const char *kind, bool required,
		  ts_opcov *c)
{
	*c = (ts_opcov){ .kind = kind, .required = required };
	size_t n = ts_attrib_nworkloads(res->attrib);
	for (size_t i = 0; i < n; i++) {
		const ts_wl_row *w = ts_attrib_workload(res->attrib, view, i);
		if (!w->calls || strcmp(ts_attrib_workload_rule(res->attrib, i)->kind, kind) != 0)
			continue;
		c->calls += w->calls;
		c->definitions++;
	}
}

int ts_report_coverage(const ts_result *res, const ts_kview *v, ts_opcov *out,
		       int *missing)
{
	*missing = 0;
	const ts_family *f = res->model.family;
	if (!f || !res->attrib)
		return -1;
	int view = ts_report_attrib_view(v), n = 0;
	for (size_t i = 0; i < f->nops_required && n < TS_MAX_OPCOV; i++) {
		cover(res, view, f->ops_required[i], true, &out[n]);
		*missing += out[n].calls == 0;
		n++;
	}
	for (size_t i = 0; i < f->nops_optional && n < TS_MAX_OPCOV; i++, n++)
		cover(res, view, f->ops_optional[i], false, &out[n]);
	return n;
}
