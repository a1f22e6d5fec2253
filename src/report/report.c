/*
 * report.c - the reporters' front: a finished ts_result to the format
 * asked for (text, JSON, CSV, HTML, XLSX), and the warnings after it (see
 * report.h).
 */
#include "report/report.h"
#include "input/hash.h"
#include "analysis/satmath.h"
#include "analysis/views/roofline.h"
#include "analysis/stat.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

ts_kview ts_report_view(const ts_result *res, const ts_report_opts *o)
{
	return ts_kview_of(res, o && o->filter_stage, o ? o->stage : TS_PSTAGE_UNKNOWN);
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
		uint32_t bad = 0, got = 0, complete = 0, per = ts_layers_per_pass(l);
		bool agree = true;
		for (size_t i = 0; i < ts_layers_npasses(l); i++) {
			const ts_pass *p = ts_layers_pass(l, i);
			if (!p->complete)
				continue;
			if (complete++ && p->layers != per)
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
		if (ts_layers_odd(l, &odd, &odd_total) && odd->slow_row != TS_INTERN_NONE) {
			const ts_kclass *c = ts_kview_row_class(res->agg, odd->slow_row);
			WARN("%" PRIu64 " layer%s far off the typical layer of %s type in %s pass (under 0.5x "
			     "or over 2x its time or kernels): layer %" PRIu32 " of pass %" PRIu32
			     " (%s) has %.1f us against %.1f us with the same %" PRIu32 " kernels, and one %s "
			     "call took %.1f us against %.1f us (%.1fx)%s%s", odd_total,
			     odd_total > 1 ? "s are" : " is", odd_total > 1 ? "their" : "its",
			     odd_total > 1 ? "their" : "its", odd->layer, odd->pass,
			     ts_ltype_name(odd->type), (double)odd->ns / 1e3, (double)odd->typical_ns / 1e3,
			     odd->kernels, c->short_name, (double)odd->slow_ns / 1e3,
			     (double)odd->slow_typical_ns / 1e3,
			     odd->slow_typical_ns > 0 ? (double)odd->slow_ns / (double)odd->slow_typical_ns : 0,
			     c->type == TS_TYPE_COMMUNICATION ? ": a collective, waiting on the other ranks" : "",
			     odd_total > 1 ? " (the first; layers.odd in JSON lists them)" : "");
		} else if (odd_total) {
			WARN("%" PRIu64 " layer%s far off the typical layer of %s type in %s pass (under 0.5x "
			     "or over 2x its time or kernels): layer %" PRIu32 " of pass %" PRIu32
			     " (%s) has %.1f us and %" PRIu32 " kernels against %.1f us and %" PRIu32 "%s%s",
			     odd_total, odd_total > 1 ? "s are" : " is",
			     odd_total > 1 ? "their" : "its", odd_total > 1 ? "their" : "its",
			     odd->layer, odd->pass, ts_ltype_name(odd->type), (double)odd->ns / 1e3,
			     odd->kernels, (double)odd->typical_ns / 1e3, odd->typical_kernels,
			     odd->same_kernels ? "" : ", its kernels differ: a sign of a misplaced layer boundary",
			     odd_total > 1 ? " (the first; layers.odd in JSON lists them)" : "");
		}
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
				WARN("%zu workloads ran faster than the %s peaks allow: their kernels are not the calls' own (mislinked) or a flops:/bytes: rule or the peak is wrong; no rate of theirs is printed (JSON workloads[].over_peak_tflops, over_peak_tbps)",
				     over, res->gpu->name);
		}
		if (t->lookahead_overflow)
			WARN("%" PRIu64 " kernels waited past the look-ahead of %d for their launch and count as unlinked",
			     t->lookahead_overflow, TS_ATTRIB_LOOKAHEAD);
		if (all && t->ns[TS_ATTR_GRAPH] > all / 2)
			WARN("%.1f%% of kernel time was replayed from CUDA/HIP graphs with no CPU op detail%s",
			     100.0 * (double)t->ns[TS_ATTR_GRAPH] / (double)all,
			     res->replay ? "" : ": a trace of the graph capture (the server's warm-up) "
					       "given with --capture gives them their ops back");
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

/* "0-3, 5" from the sorted rank numbers r[0..n). */
static void rank_list(const int64_t *r, size_t n, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && k < len; ) {
		size_t j = i;
		while (j + 1 < n && r[j + 1] == r[j] + 1)
			j++;
		if (j > i)
			k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64 "-%" PRId64, i ? ", " : "",
					      r[i], r[j]);
		else
			k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64, i ? ", " : "", r[i]);
		i = j + 1;
	}
}

size_t ts_report_job_gpus(const ts_multi *m, char *buf, size_t n)
{
	if (n)
		buf[0] = '\0';
	if (!m || m->n < 2 || n == 0)
		return 0;
	int64_t *r = malloc(m->n * sizeof *r);
	bool *done = calloc(m->n, sizeof *done);
	size_t k = 0, distinct = 0;
	for (size_t i = 0; r && done && i < m->n; i++) {
		if (done[i])
			continue;
		const char *g = m->ranks[i].gpu[0] ? m->ranks[i].gpu : "(GPU unknown)";
		size_t nr = 0;
		for (size_t j = i; j < m->n; j++) {
			const char *h = m->ranks[j].gpu[0] ? m->ranks[j].gpu : "(GPU unknown)";
			if (!done[j] && strcmp(g, h) == 0) {
				done[j] = true;
				r[nr++] = m->ranks[j].rank;
			}
		}
		ts_sort_i64(r, nr);
		char list[160];
		rank_list(r, nr, list, sizeof list);
		if (k < n)
			k += (size_t)snprintf(buf + k, n - k, "%s%s (rank%s %s)", distinct ? ", " : "",
					      g, nr > 1 ? "s" : "", list);
		distinct++;
	}
	free(r);
	free(done);
	return distinct;
}

const char *ts_report_dtype(const char *d)
{
	return strncmp(d, "c10::", 5) == 0 ? d + 5 : *d ? d : "-";
}
