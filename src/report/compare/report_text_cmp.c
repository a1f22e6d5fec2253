/*
 * report_text_cmp.c - compare's terminal report: the two sides, the
 * operation groups with their kernels, layers, and the kernels of a typical
 * layer aligned.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/aview.h"
#include "report/report.h"
#include "input/base/label.h"
#include "report/report_text_int.h"
#include "report/version.h"

/* ------------------------------------------------------------ compare */

static void fmt_ratio(char *buf, size_t n, double r)
{
	if (r < 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2fx", r);
}

/* Signed microseconds from a double of ns, 3 decimals. */
static void fmt_gap(char *buf, size_t n, double ns)
{
	snprintf(buf, n, "%+.3f", ns / 1000.0);
}

static void side_passes(char *buf, size_t n, int s, const ts_compare *c)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int st = 0; st < TS_PSTAGE_COUNT && c->stage[st][s]; st++) {
		if (c->o.staged && (ts_pstage)st != c->o.stage)
			continue;
		const ts_stage_total *t = c->stage[st][s];
		if (!t->passes)
			continue;
		int w = snprintf(buf + k, n - k, "%s%s %" PRIu32 " (%" PRIu32 " complete)",
				 k ? ", " : "", ts_pstage_name((ts_pstage)st), t->passes,
				 t->complete_passes);
		if (w < 0 || (size_t)w >= n - k)
			break;
		k += (size_t)w;
	}
	if (!k)
		snprintf(buf, n, "none");
}

static void side_layers(char *buf, size_t n, const ts_compare *c, int s)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		if (!c->layer_count[st][s])
			continue;
		int w = snprintf(buf + k, n - k, "%s%s %" PRIu32, k ? ", " : "",
				 ts_pstage_name((ts_pstage)st), c->layer_count[st][s]);
		if (w < 0 || (size_t)w >= n - k)
			break;
		k += (size_t)w;
	}
	if (!k)
		snprintf(buf, n, "none");
}

static void side_gpu(char *buf, size_t n, const ts_result *r)
{
	const ts_devprop *d = ts_report_devprop(r);
	snprintf(buf, n, "%s%s%s", ts_platform_name(r->platform), d ? ", " : "",
		 d ? ((d->has & TS_DEV_HAS_NAME) && d->name[0] ? d->name : "(unnamed)") : "");
}

static void put_cmp_line(FILE *out, const char *label, const char *a, const char *b,
			 const char *tail)
{
	fprintf(out, "  %-16s %-34s %-34s %s\n", label, a, b, tail ? tail : "");
}

static const char *step_word(int from)
{
	return from == TS_TOKEN_STEPS ? "start to start" : from == TS_TOKEN_WINDOW ? "its window"
										  : "its pass wall";
}

/* Both sides' steps replayed: the mean step along what each start
 * waited for, kernels by type, A, B and B - A (each side's adds up to its
 * replayed steps' mean, which may be fewer steps than the table above). */
static void put_cmp_replayed(FILE *out, const ts_cmp_latency *l, const char *stage)
{
	if (!l->wi[0] || !l->wi[1])
		return;
	char label[64];
	snprintf(label, sizeof label, "replayed, along each start's wait");
	fprintf(out, "  %-36s %12s %12s %12s\n", label, "A", "B", "B - A");
	double n[2] = { (double)l->wi[0]->steps, (double)l->wi[1]->steps };
	for (int k = 0; k < TS_CP_COUNT; k++) {
		double a = (double)l->wi[0]->cause_ns[k] / n[0], b = (double)l->wi[1]->cause_ns[k] / n[1];
		if (a < 500 && b < 500)     /* under half a us a step on both sides */
			continue;
		char what[64];
		snprintf(what, sizeof what, k < TS_TYPE_COUNT ? "%s kernels" : "%s", ts_cp_name(k));
		fprintf(out, "    %-34.34s %9.3f ms %9.3f ms %+9.3f ms\n", what, a / 1e6, b / 1e6,
			(b - a) / 1e6);
	}
	(void)stage;
}

/* Each stage's step, per token, and the step's difference by cause: what
 * a request waits for, before the kernels that make it up. */
static void put_cmp_latency(FILE *out, const ts_compare *c)
{
	char a[160], b[160], t[160], x[48];
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		const ts_cmp_latency *l = &c->latency[st];
		if (!l->has)
			continue;
		const char *name = ts_pstage_name((ts_pstage)st);
		char label[64];
		snprintf(label, sizeof label, "%s step", name);
		for (int s = 0; s < 2; s++)
			snprintf(s ? b : a, sizeof a, "%.3f ms (%" PRIu32 " step%s: %s)",
				 l->split[s].step_ns / 1e6, l->split[s].steps,
				 l->split[s].steps == 1 ? "" : "s", step_word(l->split[s].from));
		fmt_ratio(x, sizeof x, l->ratio);
		snprintf(t, sizeof t, "%s, %+.3f ms, %s", x, l->gap_ns / 1e6,
			 ts_cmp_status_name(l->status));
		put_cmp_line(out, label, a, b, t);
		if (st == TS_PSTAGE_DECODE && l->token_ratio > 0) {
			for (int s = 0; s < 2; s++) {
				const ts_sview *p = &l->steps[s];
				int k = snprintf(s ? b : a, sizeof a, "%.3f ms", (double)p->token_ns / 1e6);
				if (p->tokens_per_s > 0)
					snprintf((s ? b : a) + k, sizeof a - (size_t)k, ", %.0f tokens/s",
						 p->tokens_per_s);
			}
			fmt_ratio(t, sizeof t, l->token_ratio);
			put_cmp_line(out, "per output token", a, b, t);
		} else if (st == TS_PSTAGE_PREFILL && l->steps[0].tokens_per_s > 0 &&
			   l->steps[1].tokens_per_s > 0) {
			snprintf(a, sizeof a, "%.0f tokens/s", l->steps[0].tokens_per_s);
			snprintf(b, sizeof b, "%.0f tokens/s", l->steps[1].tokens_per_s);
			fmt_ratio(t, sizeof t, l->steps[0].tokens_per_s / l->steps[1].tokens_per_s);
			put_cmp_line(out, "prompt tokens", a, b, t);
		}
		snprintf(label, sizeof label, "the %s step by cause (mean)", name);
		fprintf(out, "  %-36s %12s %12s %12s\n", label, "A", "B", "B - A");
		for (int k = 0; k < TS_CAUSE_COUNT; k++) {
			double pa = l->split[0].part_ns[k], pb = l->split[1].part_ns[k];
			if (pa == 0 && pb == 0)
				continue;
			fprintf(out, "    %-34s %9.3f ms %9.3f ms %+9.3f ms\n", ts_cause_name((ts_cause)k),
				pa / 1e6, pb / 1e6, (pb - pa) / 1e6);
		}
		put_cmp_replayed(out, l, name);
	}
}

/* What compare's text rows need beyond the table's cells: the compare
 * (its op groups in the table's order: row i is c->ops[i]) and how kernel
 * names show. */
typedef struct {
	const ts_compare *c;
	char (*shorts[2])[TS_SHORT_MAX + 1];
	bool full;
	int width;
} cmp_text;

static const ts_cmp_op *cmp_row(const ts_text_table *t)
{
	const cmp_text *x = t->ctx;
	return &x->c->ops[t->rows];
}

/* "      A: k1 xN t us, k2 ..., +N more; op X at site": one side's first
 * three kernels and the op that launched them. */
static void put_cmp_kernels(const ts_text_table *t, int s, FILE *out)
{
	const cmp_text *x = t->ctx;
	const ts_compare *c = x->c;
	const ts_cmp_op *r = cmp_row(t);
	const ts_attrib *at = c->r[s]->attrib;
	fprintf(out, "      %c:", s ? 'B' : 'A');
	if (!r->nk[s])
		fputs(" (none)", out);
	size_t show = r->nk[s] < 3 ? r->nk[s] : 3;
	for (size_t i = 0; i < show; i++) {
		const ts_cmp_kernel *k = &r->k[s][i];
		char b1[48];
		fputs(i ? "," : "", out);
		fputc(' ', out);
		if (x->full) {
			size_t len;
			const char *nm = ts_cmp_kernel_name(c, s, k, &len);
			ts_text_name(out, nm, len, x->width > 0 ? x->width : 0);
		} else {
			fputs(k->row == UINT32_MAX || !x->shorts[s] ? k->cls->short_name
			      : x->shorts[s][k->row], out);
		}
		fprintf(out, " x%" PRIu64 " %s us", k->count, ts_text_us(b1, sizeof b1, k->ns));
	}
	if (r->nk[s] > show)
		fprintf(out, ", +%zu more", r->nk[s] - show);
	if (r->op[s] >= 0 && at) {
		char lab[300];
		ts_aview_op_label(at, (size_t)r->op[s], lab, sizeof lab);
		fprintf(out, "; op %s", lab);
		size_t cl = r->callsite_len[s];
		if (r->callsite[s])
			fprintf(out, " at %.*s", (int)(cl > 120 ? 120 : cl), r->callsite[s]);
	}
	fputc('\n', out);
}

static void put_a_kernels(const ts_text_table *t, const ts_cell *row, FILE *out)
{
	(void)row;
	put_cmp_kernels(t, 0, out);
}

static void put_b_kernels(const ts_text_table *t, const ts_cell *row, FILE *out)
{
	(void)row;
	put_cmp_kernels(t, 1, out);
}

/* The categories of one side's kernels in a row, "MoE-Sort, MoE-Align". */
static void row_categories(const ts_compare *c, const ts_cmp_op *r, int s, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < r->nk[s] && k < n; i++) {
		int cat = r->k[s][i].cls->category;
		const char *nm = cat >= 0 ? ts_patterns_category(c->patterns, (size_t)cat)->name
			       : "unclassified";
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = r->k[s][j].cls->category == cat;
		if (seen)
			continue;
		int w = snprintf(buf + k, n - k, "%s%s", k ? ", " : "", nm);
		if (w < 0)
			return;
		k += (size_t)w;
	}
}

/* A "(rest)" row with kernels on both sides compares different work. */
static void fmt_unpaired(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const cmp_text *x = t->ctx;
	if (!ts_text_cell(t, row, "unpaired")->u)
		return;
	char a[200], b[200];
	row_categories(x->c, cmp_row(t), 0, a, sizeof a);
	row_categories(x->c, cmp_row(t), 1, b, sizeof b);
	snprintf(buf, n, "not paired: A runs %s, B runs %s; neither runs the other's, so this "
		 "gap compares different work", a, b);
}

/* The fusion one side runs in one kernel and the other in parts. */
static void fmt_fused(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const cmp_text *x = t->ctx;
	const ts_cmp_op *r = cmp_row(t);
	(void)row;
	if (r->fusion < 0)
		return;
	const ts_fusion *f = ts_patterns_fusion(x->c->patterns, (size_t)r->fusion);
	snprintf(buf, n, "fused: %s runs %s in one (%s); %s runs the parts separately",
		 r->fused_side ? "B" : "A", f->name, f->description, r->fused_side ? "A" : "B");
}

/* The op group's name, its first 30 bytes. */
static void fmt_group(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *op = ts_text_cell(t, row, "op");
	snprintf(buf, n, "%.*s", (int)(op->len < 30 ? op->len : 30), op->s ? op->s : "");
}

/* A signed gap, "+12.345" (the cell's us, 3 decimals). */
static void fmt_signed_us(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	snprintf(buf, n, "%+.3f", ts_text_cell(t, row, "gap_us")->d);
}

static void put_cmp_ops(FILE *out, const ts_compare *c, const ts_report_opts *o)
{
	cmp_text x = { .c = c, .full = o->full_names, .width = o->width };
	for (int s = 0; s < 2; s++)
		x.shorts[s] = ts_kview_short_names(c->r[s]->agg);
	bool pp = c->per_pass;
	const ts_text_col cols[] = {
		{ .col = "op", .title = "Operation", .width = -30, .decimals = -1, .gap = 2,
		  .fmt = fmt_group },
		{ .col = "a_count", .title = "A calls", .width = 8, .decimals = -1 },
		{ .col = "a_per_layer", .title = "A/layer", .width = 8, .decimals = 2 },
		{ .col = "a_total_us", .title = "A total us", .width = 12, .decimals = -1 },
		{ .col = "b_count", .title = "B calls", .width = 8, .decimals = -1 },
		{ .col = "b_per_layer", .title = "B/layer", .width = 8, .decimals = 2 },
		{ .col = "b_total_us", .title = "B total us", .width = 12, .decimals = -1 },
		{ .col = "ratio", .title = "B/A", .width = 7, .decimals = 2, .suffix = "x" },
		{ .col = "gap_us", .title = pp ? "Gap us/pass" : "Gap us", .width = 13,
		  .decimals = -1, .fmt = fmt_signed_us },
		{ .col = "status", .title = "Status", .width = 0, .decimals = -1, .gap = 2 },
		{ .col = "fused", .width = 6, .decimals = -1, .fmt = fmt_fused,
		  .place = TS_TEXT_BELOW },
		{ .col = "unpaired", .width = 6, .decimals = -1, .fmt = fmt_unpaired,
		  .place = TS_TEXT_BELOW },
		{ .col = "a_kernels", .place = TS_TEXT_BELOW, .put = put_a_kernels },
		{ .col = "b_kernels", .place = TS_TEXT_BELOW, .put = put_b_kernels },
	};
	fprintf(out, "\nOPERATIONS (worst gap first; gap = B - A%s; similar within %.3g us or %.3g%%)\n",
		pp ? ", per pass" : "", c->o.threshold_us, c->o.threshold_pct);
	size_t show = o->top > 0 && (size_t)o->top < c->nops ? (size_t)o->top : c->nops;
	ts_text_table t = { .out = out, .cols = cols, .ncols = sizeof cols / sizeof *cols,
			    .ctx = &x, .max_rows = show };
	ts_table_sink k = ts_text_sink(&t);
	ts_tview_compare_table(c, "ops", &k);
	if (show < c->nops)
		fprintf(out, "  ... %zu more rows (--top 0 shows all)\n", c->nops - show);
	if (c->fusions_unsure) {
		const ts_fusion *f = ts_patterns_fusion(c->patterns, (size_t)c->unsure_fusion);
		fprintf(out, "  not claimed: %s runs %s in one (%s); %s runs a kernel that may fuse it "
			"too (its name cannot say)%s\n", c->unsure_side ? "B" : "A", f->name,
			f->description, c->unsure_side ? "A" : "B",
			c->fusions_unsure > 1 ? ", and other fusions alike" : "");
	}
	free(x.shorts[0]);
	free(x.shorts[1]);
}

/* Collectives per kind on both sides: calls, time, message bytes and the
 * bus bandwidth (compare's collectives table). */
static void comm_title(void *ctx, FILE *out, const char *group)
{
	(void)ctx, (void)group;
	fputs("\nCOLLECTIVES (per kind; busbw: bus bandwidth, GB/s, weighted by time)\n", out);
}

static void put_cmp_comm(FILE *out, const ts_compare *c)
{
	static const ts_text_col cols[] = {
		{ .col = "kind", .title = "Kind", .width = -15, .decimals = -1, .gap = 2 },
		{ .col = "a_calls", .title = "A calls", .width = 8, .decimals = -1 },
		{ .col = "a_total_us", .title = "A total us", .width = 14, .decimals = -1 },
		{ .col = "a_bytes", .title = "A bytes", .width = 12, .decimals = -1 },
		{ .col = "a_busbw_gbps", .title = "A busbw", .width = 9, .decimals = 2 },
		{ .col = "b_calls", .title = "B calls", .width = 8, .decimals = -1 },
		{ .col = "b_total_us", .title = "B total us", .width = 14, .decimals = -1 },
		{ .col = "b_bytes", .title = "B bytes", .width = 12, .decimals = -1 },
		{ .col = "b_busbw_gbps", .title = "B busbw", .width = 9, .decimals = 2 },
	};
	/* a section (title and column titles) only where a kind ran: the
	 * kind column groups, one heading at the first row */
	ts_text_table t = { .out = out, .cols = cols, .ncols = sizeof cols / sizeof *cols,
			    .group = "", .heading = comm_title };
	ts_table_sink k = ts_text_sink(&t);
	ts_tview_compare_table(c, "collectives", &k);
}

/* One stage's layers side by side: how many each side has. */
static void cmp_layer_heading(void *ctx, FILE *out, const char *stage)
{
	const ts_compare *c = ctx;
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		if (strcmp(stage, ts_pstage_name((ts_pstage)st)) != 0)
			continue;
		uint32_t na = c->layer_count[st][0], nb = c->layer_count[st][1];
		fprintf(out, "\nLAYERS, %s (mean over complete passes; A %" PRIu32 ", B %" PRIu32
			     " layers)\n", stage, na, nb);
		if (na != nb)
			fprintf(out, "  the layer counts differ: layers %" PRIu32 "-%" PRIu32 " are %s only\n",
				na < nb ? na : nb, (na > nb ? na : nb) - 1, na > nb ? "A" : "B");
	}
}

/* A gap in signed microseconds, where both sides have the layer. */
static void fmt_layer_gap(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *g = ts_text_cell(t, row, "gap_us");
	if (g->kind == TS_CELL_NUM)
		snprintf(buf, n, "%+.3f", g->d);
	else
		snprintf(buf, n, "-");
}

static void fmt_layer_status(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *s = ts_text_cell(t, row, "status");
	size_t len = s->kind == TS_CELL_STR ? s->len : 0;
	if (len == 6 && !memcmp(s->s, "a_only", 6))
		snprintf(buf, n, "A only");
	else if (len == 6 && !memcmp(s->s, "b_only", 6))
		snprintf(buf, n, "B only");
	else
		snprintf(buf, n, "%.*s", (int)len, len ? s->s : "");
}

/* compare's layers table (tview.h), a section per stage. */
static void put_cmp_layers(FILE *out, const ts_compare *c)
{
	static const ts_text_col cols[] = {
		{ .col = "layer", .title = "Layer", .width = 5, .decimals = -1, .gap = 2 },
		{ .col = "a_us", .title = "A mean us", .width = 12, .decimals = 3 },
		{ .col = "a_p50_us", .title = "A p50 us", .width = 10, .decimals = -1 },
		{ .col = "a_kernels", .title = "A kernels", .width = 9, .decimals = 1 },
		{ .col = "b_us", .title = "B mean us", .width = 12, .decimals = 3 },
		{ .col = "b_p50_us", .title = "B p50 us", .width = 10, .decimals = -1 },
		{ .col = "b_kernels", .title = "B kernels", .width = 9, .decimals = 1 },
		{ .col = "ratio", .title = "B/A", .width = 7, .decimals = 2, .suffix = "x" },
		{ .col = "gap_us", .title = "Gap us", .width = 11, .decimals = -1,
		  .fmt = fmt_layer_gap },
		{ .col = "status", .title = "Status", .width = 0, .decimals = -1,
		  .gap = 2, .fmt = fmt_layer_status },
	};
	ts_text_table t = { .out = out, .cols = cols, .ncols = sizeof cols / sizeof *cols,
			    .group = "stage", .heading = cmp_layer_heading, .ctx = (void *)c };
	ts_table_sink k = ts_text_sink(&t);
	ts_tview_compare_table(c, "layers", &k);
}

/* compare's alignment table, one stage at a time: the pair of a row is
 * the stage's pairs[pair]. */
typedef struct {
	const ts_compare *c;
	int st;
} align_text;

static const ts_cmp_pair *align_pair(const ts_text_table *t, const ts_cell *row,
				     const ts_cmp_align **al)
{
	const align_text *x = t->ctx;
	*al = &x->c->align[x->st];
	return &(*al)->pairs[ts_text_cell(t, row, "pair")->u];
}

static bool align_stage(const ts_text_table *t, const ts_cell *row)
{
	const align_text *x = t->ctx;
	const ts_cell *st = ts_text_cell(t, row, "stage");
	const char *name = ts_pstage_name((ts_pstage)x->st);
	return st->len == strlen(name) && memcmp(st->s, name, st->len) == 0;
}

/* The k-th kernel of side s in a pair: its short name, "-" for none on the
 * first line, nothing after it. */
static const char *pair_kernel(const ts_cmp_align *al, const ts_cmp_pair *p, int s, uint32_t k)
{
	uint32_t n = s ? p->nb : p->na, from = s ? p->b0 : p->a0;
	return k < n ? al->s[s]->k[from + k].cls.short_name : (k == 0 ? "-" : "");
}

static void fmt_a_first(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cmp_align *al;
	const ts_cmp_pair *p = align_pair(t, row, &al);
	snprintf(buf, n, "%.36s", pair_kernel(al, p, 0, 0));
}

static void fmt_b_first(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cmp_align *al;
	const ts_cmp_pair *p = align_pair(t, row, &al);
	snprintf(buf, n, "%.36s", pair_kernel(al, p, 1, 0));
}

/* A side's time, empty where it runs none of the pair. */
static void fmt_side_us(const ts_text_table *t, const ts_cell *row, const char *col, char *buf,
			size_t n)
{
	const ts_cell *x = ts_text_cell(t, row, col);
	if (x->kind == TS_CELL_NUM)
		snprintf(buf, n, "%.3f", x->d);
}

static void fmt_a_us(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	fmt_side_us(t, row, "a_us", buf, n);
}

static void fmt_b_us(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	fmt_side_us(t, row, "b_us", buf, n);
}

static void fmt_pair_kind(const ts_text_table *t, const ts_cell *row, char *buf, size_t n)
{
	const ts_cell *k = ts_text_cell(t, row, "kind"), *f = ts_text_cell(t, row, "fusion");
	snprintf(buf, n, "%.*s%s%.*s", (int)k->len, k->s ? k->s : "", f->s ? " " : "",
		 (int)f->len, f->s ? f->s : "");
}

/* The pair's further kernels, a line each, A's and B's side by side. */
static void put_pair_rest(const ts_text_table *t, const ts_cell *row, FILE *out)
{
	const ts_cmp_align *al;
	const ts_cmp_pair *p = align_pair(t, row, &al);
	uint32_t lines = p->na > p->nb ? p->na : p->nb;
	for (uint32_t k = 1; k < lines; k++)
		fprintf(out, "  %-36.36s %10s   %-36.36s %10s  %s\n", pair_kernel(al, p, 0, k), "",
			pair_kernel(al, p, 1, k), "", "");
}

static void put_cmp_align(FILE *out, const ts_compare *c)
{
	static const ts_text_col cols[] = {
		{ .col = "a_kernels", .title = "A kernel", .width = -36, .decimals = -1, .gap = 2,
		  .fmt = fmt_a_first },
		{ .col = "a_us", .title = "A us", .width = 10, .decimals = -1, .fmt = fmt_a_us },
		{ .col = "b_kernels", .title = "B kernel", .width = -36, .decimals = -1, .gap = 3,
		  .fmt = fmt_b_first },
		{ .col = "b_us", .title = "B us", .width = 10, .decimals = -1, .fmt = fmt_b_us },
		{ .col = "kind", .title = "Pair", .width = 0, .decimals = -1, .gap = 2,
		  .fmt = fmt_pair_kind },
		{ .col = "pair", .place = TS_TEXT_BELOW, .put = put_pair_rest },
	};
	for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
		const ts_cmp_align *al = &c->align[st];
		if (!al->s[0] && !al->s[1])
			continue;
		fprintf(out, "\nKERNEL ALIGNMENT, %s", ts_pstage_name((ts_pstage)st));
		if (!al->pairs) {
			fprintf(out, ": only %s has a complete %s pass\n", al->s[0] ? "A" : "B",
				ts_pstage_name((ts_pstage)st));
			continue;
		}
		fprintf(out, " (A layer %" PRIu32 " of %" PRIu32 ", mean over %" PRIu32 " layers "
			     "with its kernels; B layer %" PRIu32 " of %" PRIu32 ", over %" PRIu32 "%s)\n",
			al->s[0]->layer, al->s[0]->layers, al->s[0]->instances,
			al->s[1]->layer, al->s[1]->layers, al->s[1]->instances,
			al->truncated ? "; first kernels only" : "");
		align_text x = { .c = c, .st = st };
		ts_text_table t = { .out = out, .cols = cols, .ncols = sizeof cols / sizeof *cols,
				    .ctx = &x, .keep = align_stage };
		ts_table_sink k = ts_text_sink(&t);
		ts_tview_compare_table(c, "alignment", &k);
	}
}

int ts_report_compare_text(FILE *out, const ts_compare *c, const ts_report_opts *o)
{
	char a[160], b[160], t[160], x[48], y[48];
	fprintf(out, "tracestream %s compare: A = %s, B = %s%s%s\n", TS_VERSION, c->name[0],
		c->name[1], c->o.staged ? ", stage " : "", c->o.staged ? ts_pstage_name(c->o.stage) : "");
	for (int s = 0; s < 2; s++)
		if (c->r[s]->partial)
			fprintf(out, "PARTIAL %s: %s\n", s ? "B" : "A", c->r[s]->err.msg);
	for (int s = 0; s < 2; s++)
		fprintf(out, "  %c = %s\n", s ? 'B' : 'A',
			ts_path_label(c->r[s]->path, false));
	if (c->models_differ[0])
		fprintf(out, "WARNING: A and B run different models (%s): the rows below compare "
			"different work\n", c->models_differ);
	put_cmp_line(out, "", "A", "B", "B/A, gap, status");
	side_gpu(a, sizeof a, c->r[0]);
	side_gpu(b, sizeof b, c->r[1]);
	put_cmp_line(out, "platform, GPU", a, b, NULL);
	put_cmp_line(out, "model family", c->r[0]->model.family ? c->r[0]->model.family->name : "unknown",
		     c->r[1]->model.family ? c->r[1]->model.family->name : "unknown", NULL);
	put_cmp_latency(out, c);
	snprintf(a, sizeof a, "%" PRIu64 " launches", c->kernels[0]);
	snprintf(b, sizeof b, "%" PRIu64 " launches", c->kernels[1]);
	put_cmp_line(out, "kernels", a, b, NULL);
	snprintf(a, sizeof a, "%s us", ts_text_us(x, sizeof x, c->kernel_ns[0]));
	snprintf(b, sizeof b, "%s us", ts_text_us(y, sizeof y, c->kernel_ns[1]));
	fmt_ratio(x, sizeof x, c->ratio);
	fmt_gap(y, sizeof y, c->gap);
	snprintf(t, sizeof t, "%s, %s us%s, %s", x, y, c->per_pass ? " per pass" : "",
		 ts_cmp_status_name(c->status));
	put_cmp_line(out, "kernel time", a, b, t);
	if (!c->o.staged) {
		int64_t ba = c->busy_ns[0], bb = c->busy_ns[1];
		snprintf(a, sizeof a, "%s us", ts_text_us(x, sizeof x, ba));
		snprintf(b, sizeof b, "%s us", ts_text_us(y, sizeof y, bb));
		fmt_ratio(t, sizeof t, ba > 0 ? (double)bb / (double)ba : -1);
		put_cmp_line(out, "GPU busy", a, b, t);
	}
	if (!c->o.staged) {
		int64_t m[2] = { 0, 0 };
		uint64_t n[2] = { 0, 0 };
		for (int s = 0; s < 2; s++)
			for (int k = 0; k < TS_MEM_COUNT; k++) {
				m[s] += c->r[s]->agg->mem[k].total_ns;
				n[s] += c->r[s]->agg->mem[k].count;
			}
		snprintf(a, sizeof a, "%" PRIu64 ", %s us", n[0], ts_text_us(x, sizeof x, m[0]));
		snprintf(b, sizeof b, "%" PRIu64 ", %s us", n[1], ts_text_us(y, sizeof y, m[1]));
		put_cmp_line(out, "memcpy/memset", a, b, "(not kernels: in no row below)");
	}
	side_passes(a, sizeof a, 0, c);
	side_passes(b, sizeof b, 1, c);
	put_cmp_line(out, "passes", a, b, NULL);
	side_layers(a, sizeof a, c, 0);
	side_layers(b, sizeof b, c, 1);
	put_cmp_line(out, "layers per pass", a, b, NULL);
	if (c->per_pass)
		fprintf(out, "  A has %" PRIu64 " forward passes and B %" PRIu64
			     ": times are compared per pass\n", c->passes[0], c->passes[1]);
	if (c->stages_differ)
		fprintf(out, "  note: the two traces hold passes of different stages; compare like with"
			     " like with --stage\n");
	put_cmp_ops(out, c, o);
	put_cmp_comm(out, c);
	put_cmp_layers(out, c);
	put_cmp_align(out, c);
	return ferror(out) ? -1 : 0;
}
