/*
 * report_text_cmp.c - compare's terminal report: the two sides, the
 * operation groups with their kernels, layers, and the kernels of a typical
 * layer aligned.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "input/reader.h"
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

static void side_passes(char *buf, size_t n, const ts_result *r, const ts_compare *c)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int st = 0; st < TS_PSTAGE_COUNT && r->layers; st++) {
		if (c->o.staged && (ts_pstage)st != c->o.stage)
			continue;
		const ts_stage_total *t = ts_layers_stage(r->layers, (ts_pstage)st);
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

static void put_cmp_kernels(FILE *out, const ts_compare *c, const ts_cmp_op *r, int s,
			    char (*shorts)[TS_SHORT_MAX + 1], int full, int width)
{
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
		if (full) {
			size_t len;
			const char *nm = ts_cmp_kernel_name(c, s, k, &len);
			ts_text_name(out, nm, len, width > 0 ? width : 0);
		} else {
			fputs(k->row == UINT32_MAX || !shorts ? k->cls->short_name : shorts[k->row], out);
		}
		fprintf(out, " x%" PRIu64 " %s us", k->count, ts_text_us(b1, sizeof b1, k->ns));
	}
	if (r->nk[s] > show)
		fprintf(out, ", +%zu more", r->nk[s] - show);
	if (r->op[s] >= 0 && at) {
		char lab[300];
		ts_report_op_label(at, (size_t)r->op[s], lab, sizeof lab);
		fprintf(out, "; op %s", lab);
		size_t cl;
		const char *cs = ts_attrib_op_callsite(at, (size_t)r->op[s], &cl);
		if (cs)
			fprintf(out, " at %.*s", (int)(cl > 120 ? 120 : cl), cs);
	}
	fputc('\n', out);
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
static void put_unpaired(FILE *out, const ts_compare *c, const ts_cmp_op *r)
{
	char a[200], b[200];
	row_categories(c, r, 0, a, sizeof a);
	row_categories(c, r, 1, b, sizeof b);
	fprintf(out, "      not paired: A runs %s, B runs %s; neither runs the other's, so this "
		"gap compares different work\n", a, b);
}

static void put_cmp_ops(FILE *out, const ts_compare *c, const ts_report_opts *o)
{
	char (*shorts[2])[TS_SHORT_MAX + 1];
	for (int s = 0; s < 2; s++)
		shorts[s] = ts_report_short_names(c->r[s]->agg);
	fprintf(out, "\nOPERATIONS (worst gap first; gap = B - A%s; similar within %.3g us or %.3g%%)\n",
		c->per_pass ? ", per pass" : "", c->o.threshold_us, c->o.threshold_pct);
	fprintf(out, "  %-30s %8s %8s %12s %8s %8s %12s %7s %13s  %s\n", "Operation",
		"A calls", "A/layer", "A total us", "B calls", "B/layer", "B total us",
		"B/A", c->per_pass ? "Gap us/pass" : "Gap us", "Status");
	size_t show = o->top > 0 && (size_t)o->top < c->nops ? (size_t)o->top : c->nops;
	for (size_t i = 0; i < show; i++) {
		const ts_cmp_op *r = &c->ops[i];
		char pa[24], pb[24], ta[48], tb[48], ra[24], g[48];
		if (r->per_layer[0] >= 0)
			snprintf(pa, sizeof pa, "%.2f", r->per_layer[0]);
		else
			snprintf(pa, sizeof pa, "-");
		if (r->per_layer[1] >= 0)
			snprintf(pb, sizeof pb, "%.2f", r->per_layer[1]);
		else
			snprintf(pb, sizeof pb, "-");
		fmt_ratio(ra, sizeof ra, r->ratio);
		fmt_gap(g, sizeof g, r->gap);
		fprintf(out, "  %-30.30s %8" PRIu64 " %8s %12s %8" PRIu64 " %8s %12s %7s %13s  %s\n",
			r->name, r->count[0], pa, ts_text_us(ta, sizeof ta, r->ns[0]), r->count[1], pb,
			ts_text_us(tb, sizeof tb, r->ns[1]), ra, g, ts_cmp_status_name(r->status));
		if (r->fusion >= 0) {
			const ts_fusion *f = ts_patterns_fusion(c->patterns, (size_t)r->fusion);
			fprintf(out, "      fused: %s runs %s in one (%s); %s runs the parts separately\n",
				r->fused_side ? "B" : "A", f->name, f->description,
				r->fused_side ? "A" : "B");
		}
		if (r->unpaired)
			put_unpaired(out, c, r);
		for (int s = 0; s < 2; s++)
			put_cmp_kernels(out, c, r, s, shorts[s], o->full_names, o->width);
	}
	if (show < c->nops)
		fprintf(out, "  ... %zu more rows (--top 0 shows all)\n", c->nops - show);
	if (c->fusions_unsure) {
		const ts_fusion *f = ts_patterns_fusion(c->patterns, (size_t)c->unsure_fusion);
		fprintf(out, "  not claimed: %s runs %s in one (%s); %s runs a kernel that may fuse it "
			"too (its name cannot say)%s\n", c->unsure_side ? "B" : "A", f->name,
			f->description, c->unsure_side ? "A" : "B",
			c->fusions_unsure > 1 ? ", and other fusions alike" : "");
	}
	free(shorts[0]);
	free(shorts[1]);
}

/* Collectives per kind on both sides: calls, time, message bytes and the
 * bus bandwidth (comm.h). */
static void put_cmp_comm(FILE *out, const ts_compare *c)
{
	bool any = false;
	for (int k = 0; k < TS_COMM_KINDS; k++) {
		ts_comm_total t[2];
		ts_comm_kind_total(c->r[0]->comm, (ts_comm_kind)k, &t[0]);
		ts_comm_kind_total(c->r[1]->comm, (ts_comm_kind)k, &t[1]);
		if (!t[0].calls && !t[1].calls)
			continue;
		if (!any)
			fprintf(out, "\nCOLLECTIVES (per kind; busbw: bus bandwidth, GB/s, weighted by time)\n"
				     "  %-15s %8s %14s %12s %9s %8s %14s %12s %9s\n", "Kind", "A calls",
				"A total us", "A bytes", "A busbw", "B calls", "B total us", "B bytes",
				"B busbw");
		any = true;
		char tu[2][32], bw[2][24];
		for (int s = 0; s < 2; s++) {
			ts_text_us(tu[s], sizeof tu[s], t[s].ns);
			if (t[s].busbw >= 0)
				snprintf(bw[s], sizeof bw[s], "%.2f", t[s].busbw);
			else
				snprintf(bw[s], sizeof bw[s], "-");
		}
		fprintf(out, "  %-15s %8" PRIu64 " %14s %12" PRId64 " %9s %8" PRIu64 " %14s %12" PRId64
			" %9s\n", ts_comm_kind_name((ts_comm_kind)k), t[0].calls, tu[0], t[0].bytes,
			bw[0], t[1].calls, tu[1], t[1].bytes, bw[1]);
	}
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

/* compare's layers table (report_table.c), a section per stage. */
static void put_cmp_layers(FILE *out, const ts_compare *c)
{
	static const ts_text_col cols[] = {
		{ .col = "layer", .title = "Layer", .width = 5, .decimals = -1, .suffix = "", .gap = 2 },
		{ .col = "a_us", .title = "A mean us", .width = 12, .decimals = 3, .suffix = "" },
		{ .col = "a_p50_us", .title = "A p50 us", .width = 10, .decimals = -1, .suffix = "" },
		{ .col = "a_kernels", .title = "A kernels", .width = 9, .decimals = 1, .suffix = "" },
		{ .col = "b_us", .title = "B mean us", .width = 12, .decimals = 3, .suffix = "" },
		{ .col = "b_p50_us", .title = "B p50 us", .width = 10, .decimals = -1, .suffix = "" },
		{ .col = "b_kernels", .title = "B kernels", .width = 9, .decimals = 1, .suffix = "" },
		{ .col = "ratio", .title = "B/A", .width = 7, .decimals = 2, .suffix = "x" },
		{ .col = "gap_us", .title = "Gap us", .width = 11, .decimals = -1, .suffix = "",
		  .fmt = fmt_layer_gap },
		{ .col = "status", .title = "Status", .width = 0, .decimals = -1, .suffix = "",
		  .gap = 2, .fmt = fmt_layer_status },
	};
	ts_text_table t = { .out = out, .cols = cols, .ncols = sizeof cols / sizeof *cols,
			    .group = "stage", .heading = cmp_layer_heading, .ctx = (void *)c };
	ts_table_sink k = ts_text_sink(&t);
	ts_report_compare_table(c, "layers", &k);
}

static void put_cmp_align(FILE *out, const ts_compare *c)
{
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
		fprintf(out, " (A layer %" PRIu32 " of %" PRIu32 ", mean of %" PRIu32
			     "; B layer %" PRIu32 " of %" PRIu32 ", mean of %" PRIu32 "%s)\n",
			al->s[0]->layer, al->s[0]->layers, al->s[0]->instances,
			al->s[1]->layer, al->s[1]->layers, al->s[1]->instances,
			al->truncated ? "; first kernels only" : "");
		fprintf(out, "  %-36s %10s   %-36s %10s  %s\n", "A kernel", "A us", "B kernel",
			"B us", "Pair");
		for (size_t i = 0; i < al->npairs; i++) {
			const ts_cmp_pair *p = &al->pairs[i];
			uint32_t lines = p->na > p->nb ? p->na : p->nb;
			for (uint32_t k = 0; k < lines; k++) {
				const char *an = k < p->na ? al->s[0]->k[p->a0 + k].cls.short_name
					       : (k == 0 ? "-" : "");
				const char *bn = k < p->nb ? al->s[1]->k[p->b0 + k].cls.short_name
					       : (k == 0 ? "-" : "");
				char ta[32] = "", tb[32] = "", kind[80] = "";
				if (k == 0) {
					if (p->na)
						snprintf(ta, sizeof ta, "%.3f", p->a_ns / 1000.0);
					if (p->nb)
						snprintf(tb, sizeof tb, "%.3f", p->b_ns / 1000.0);
					snprintf(kind, sizeof kind, "%s%s%s", ts_pair_kind_name(p->kind),
						 p->fusion >= 0 ? " " : "",
						 p->fusion >= 0 ? ts_patterns_fusion(c->patterns, (size_t)p->fusion)->name : "");
				}
				fprintf(out, "  %-36.36s %10s   %-36.36s %10s  %s\n", an, ta, bn, tb, kind);
			}
		}
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
		int64_t ba = ts_agg_busy_ns(c->r[0]->agg), bb = ts_agg_busy_ns(c->r[1]->agg);
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
	side_passes(a, sizeof a, c->r[0], c);
	side_passes(b, sizeof b, c->r[1], c);
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
