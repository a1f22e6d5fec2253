/*
 * tview_compare.c - compare's tables (tview.h): the op groups of A
 * against B, the layers, the kernels of a typical layer aligned, the
 * collectives on both sides. One list (CMP_TABLES) names each table
 * once, with its builder; the public name list and the dispatch are
 * made from it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/views/tables/tview_int.h"
#include "input/base/timefmt.h"

/* One side's kernels of an op group: "short xN total us; ..." by time. */
static const char *cmp_kernels(const ts_compare *c, const ts_cmp_op *r, int s,
			       char (*shorts)[TS_SHORT_MAX + 1], char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < r->nk[s] && k < n; i++) {
		const ts_cmp_kernel *kn = &r->k[s][i];
		char t[32];
		ts_fmt_us(t, sizeof t, kn->ns);
		k += (size_t)snprintf(buf + k, n - k, "%s%s x%" PRIu64 " %s us", i ? "; " : "",
				      kn->row == UINT32_MAX || !shorts ? kn->cls->short_name
				      : shorts[kn->row], kn->count, t);
	}
	(void)c;
	return r->nk[s] ? buf : NULL;
}

static int t_cmp_ops(const ts_compare *c, const ts_table_sink *k)
{
	static const char *const cols[] = {
		"op", "status", "a_count", "b_count", "a_total_us", "b_total_us", "a_compared_us",
		"b_compared_us", "gap_us", "ratio", "fused", "a_kernels", "b_kernels",
		"a_per_layer", "b_per_layer", "fused_side", "unpaired",
	};
	int rc = BEGIN(k, "ops", cols);
	char (*shorts[2])[TS_SHORT_MAX + 1] = { ts_kview_short_names(c->r[0]->agg),
						ts_kview_short_names(c->r[1]->agg) };
	char *kb[2] = { malloc(4096), malloc(4096) };
	for (size_t i = 0; i < c->nops && rc == 0 && kb[0] && kb[1]; i++) {
		const ts_cmp_op *r = &c->ops[i];
		const char *fused = r->fusion >= 0 ? ts_patterns_fusion(c->patterns, (size_t)r->fusion)->name
						   : NULL;
		ts_cell row[] = {
			c_cstr(r->name), c_cstr(ts_cmp_status_name(r->status)), c_uint(r->count[0]),
			c_uint(r->count[1]), c_us(r->ns[0]), c_us(r->ns[1]), c_num(r->cmp[0] / 1e3, 3),
			c_num(r->cmp[1] / 1e3, 3), c_num(r->gap / 1e3, 3), c_ratio(r->ratio), c_cstr(fused),
			c_cstr(cmp_kernels(c, r, 0, shorts[0], kb[0], 4096)),
			c_cstr(cmp_kernels(c, r, 1, shorts[1], kb[1], 4096)),
			c_opt_num(r->per_layer[0] >= 0, r->per_layer[0], 4),
			c_opt_num(r->per_layer[1] >= 0, r->per_layer[1], 4),
			c_cstr(r->fusion < 0 ? NULL : r->fused_side ? "b" : "a"), c_bool(r->unpaired),
		};
		rc = ROW(k, row);
	}
	if (!kb[0] || !kb[1])
		rc = -1;
	free(kb[0]);
	free(kb[1]);
	free(shorts[0]);
	free(shorts[1]);
	return rc;
}

/* The kernels of a typical layer of each stage, A's and B's aligned: one
 * row per pair (same, similar, fused, a_only, b_only), as compare's text
 * KERNEL ALIGNMENT. */
static int t_cmp_alignment(const ts_compare *c, const ts_table_sink *k)
{
	static const char *const cols[] = { "stage", "pair", "kind", "fusion", "a_kernels",
					    "a_us", "b_kernels", "b_us" };
	int rc = BEGIN(k, "alignment", cols);
	char ka[2048], kb[2048];
	for (int st = 0; st < TS_PSTAGE_COUNT && rc == 0; st++) {
		const ts_cmp_align *al = &c->align[st];
		for (size_t i = 0; al->pairs && i < al->npairs && rc == 0; i++) {
			const ts_cmp_pair *p = &al->pairs[i];
			char *buf[2] = { ka, kb };
			uint32_t from[2] = { p->a0, p->b0 }, cnt[2] = { p->na, p->nb };
			for (int s = 0; s < 2; s++) {
				size_t m = 0;
				buf[s][0] = '\0';
				for (uint32_t j = 0; j < cnt[s] && m < sizeof ka; j++)
					m += (size_t)snprintf(buf[s] + m, sizeof ka - m, "%s%s", j ? "; " : "",
							      al->s[s]->k[from[s] + j].cls.short_name);
			}
			ts_cell row[] = {
				c_cstr(ts_pstage_name((ts_pstage)st)), c_uint(i), c_cstr(ts_pair_kind_name(p->kind)),
				c_cstr(p->fusion >= 0 ? ts_patterns_fusion(c->patterns, (size_t)p->fusion)->name
						      : NULL),
				c_cstr(p->na ? ka : NULL), c_opt_num(p->na > 0, p->a_ns / 1e3, 3),
				c_cstr(p->nb ? kb : NULL), c_opt_num(p->nb > 0, p->b_ns / 1e3, 3),
			};
			rc = ROW(k, row);
		}
	}
	return rc;
}

static int t_cmp_layers(const ts_compare *c, const ts_table_sink *k)
{
	static const char *const cols[] = { "stage", "layer", "a_us", "b_us", "a_kernels",
					    "b_kernels", "gap_us", "ratio", "status", "a_p50_us",
					    "b_p50_us" };
	int rc = BEGIN(k, "layers", cols);
	for (size_t i = 0; i < c->nlayers && rc == 0; i++) {
		const ts_cmp_layer *L = &c->layers_rows[i];
		bool both = L->has[0] && L->has[1];
		ts_cell row[] = {
			c_cstr(ts_pstage_name(L->stage)), c_int(L->layer),
			c_opt_num(L->has[0], L->mean[0] / 1e3, 3), c_opt_num(L->has[1], L->mean[1] / 1e3, 3),
			c_opt_num(L->has[0], L->kernels[0], 2), c_opt_num(L->has[1], L->kernels[1], 2),
			c_opt_num(both, L->gap / 1e3, 3), c_ratio(L->ratio),
			c_cstr(both ? ts_cmp_status_name(L->status) : L->has[0] ? "a_only" : "b_only"),
			L->has[0] ? c_us(L->p50[0]) : c_null(), L->has[1] ? c_us(L->p50[1]) : c_null(),
		};
		rc = ROW(k, row);
	}
	return rc;
}

/* Collectives per kind on both sides (a kind either side ran): calls,
 * time, message bytes, bus bandwidth weighted by time (comm.h). */
static int t_cmp_collectives(const ts_compare *c, const ts_table_sink *k)
{
	static const char *const cols[] = { "kind", "a_calls", "a_total_us", "a_bytes",
					    "a_busbw_gbps", "b_calls", "b_total_us", "b_bytes",
					    "b_busbw_gbps" };
	int rc = BEGIN(k, "collectives", cols);
	for (int kd = 0; kd < TS_COMM_KINDS && rc == 0; kd++) {
		const ts_comm_total *t = c->comm[kd];
		if (!t[0].calls && !t[1].calls)
			continue;
		ts_cell row[] = {
			c_cstr(ts_comm_kind_name((ts_comm_kind)kd)),
			c_uint(t[0].calls), c_us(t[0].ns), c_int(t[0].bytes),
			c_opt_num(t[0].busbw >= 0, t[0].busbw, 2),
			c_uint(t[1].calls), c_us(t[1].ns), c_int(t[1].bytes),
			c_opt_num(t[1].busbw >= 0, t[1].busbw, 2),
		};
		rc = ROW(k, row);
	}
	return rc;
}

/* compare's tables, in the report's order: name and builder. */
#define CMP_TABLES(X)                             \
	X("ops", t_cmp_ops)                       \
	X("layers", t_cmp_layers)                 \
	X("alignment", t_cmp_alignment)           \
	X("collectives", t_cmp_collectives)

#define CMP_NAME_OF(name, fn) name,
#define CMP_ENTRY_OF(name, fn) { name, fn },

const char *const ts_tview_compare_tables[] = { CMP_TABLES(CMP_NAME_OF) NULL };

static const struct {
	const char *name;
	int (*fn)(const ts_compare *c, const ts_table_sink *k);
} cmp_tables[] = { CMP_TABLES(CMP_ENTRY_OF) };

int ts_tview_compare_table(const ts_compare *c, const char *name, const ts_table_sink *sink)
{
	for (size_t i = 0; i < sizeof cmp_tables / sizeof *cmp_tables; i++)
		if (strcmp(cmp_tables[i].name, name) == 0)
			return cmp_tables[i].fn(c, sink) || sink->end(sink->ctx) ? -1 : 0;
	return -2;
}
