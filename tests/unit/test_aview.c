/*
 * The attribution's record (analysis/views/aview.h), built from two
 * bundled captures of one dense decoder and checked against what their
 * generator wrote down (torch_dense_*_h200.truth.json: hidden 1024, 16
 * heads and 4 KV heads of 64, 8 layers, batch 2, a prompt of 96 tokens,
 * 1 prefill pass and 5 decode steps, the LM head on the last token only,
 * a vocabulary of 32000, 3223 kernels). Eager, every kernel has its op,
 * and the workloads follow from the model: the fused QKV projection is
 * gemm_n1536_k1024 ((16 + 2 x 4) x 64 by 1024), run once a layer a pass
 * (48 calls), on 192 tokens in the prefill (2 x 96) and 2 in a decode
 * step, so 2 x 1536 x 1024 x (8 x 192 + 40 x 2) FLOPs; the LM head
 * gemm_n32000_k1024 once a pass on 2 tokens; attention masked in the
 * prefill's 8 layers and ragged in the decode steps' 40. With CUDA graphs
 * for the decode the 5 replays are one graph row of 5 calls, the rest of
 * the kernels the prefill's. Then the decode stage's record, and that of a
 * result without the attribution: zeros, never a NULL to trip on.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/views/aview.h"
#include "pipeline.h"
#include "unit.h"
#include "unit_tables.h"

#define KERNELS 3223
#define PREFILL_TOKENS 192      /* batch 2 x 96 */
#define DECODE_TOKENS 2         /* batch 2 x 1 */

static const ts_aview_wl *wl_named(const ts_aview *v, const char *name)
{
	for (size_t i = 0; i < v->nwls; i++)
		if (v->wls[i].len == strlen(name) && memcmp(v->wls[i].name, name, v->wls[i].len) == 0)
			return &v->wls[i];
	return NULL;
}

static const ts_aview_op *op_named(const ts_aview *v, const char *name)
{
	for (size_t i = 0; i < v->nops; i++)
		if (v->ops[i].len == strlen(name) && memcmp(v->ops[i].name, name, v->ops[i].len) == 0)
			return &v->ops[i];
	return NULL;
}

/* A workload of calls calls on lo..hi tokens (lo < 0: not in the view). */
static void wl_is(const ts_aview *v, const char *name, const char *kind, uint64_t calls,
		  int64_t lo, int64_t hi, const char *what)
{
	const ts_aview_wl *w = wl_named(v, name);
	if (lo < 0) {
		CHECK(!w, "%s: no %s in the view", what, name);
		return;
	}
	CHECK(w && w->r->calls == calls && w->r->m_min == lo && w->r->m_max == hi &&
	      strcmp(w->rule->kind, kind) == 0 && strcmp(w->dtype, "c10::BFloat16") == 0,
	      "%s: %s, a %s in bf16 of %llu calls on %lld..%lld tokens (got %llu, %lld..%lld)",
	      what, name, kind, (unsigned long long)calls, (long long)lo, (long long)hi,
	      w ? (unsigned long long)w->r->calls : 0ull, w ? (long long)w->r->m_min : -1ll,
	      w ? (long long)w->r->m_max : -1ll);
}

/* The rows are ordered: ops by their time (memops' with it), each one's
 * running sum of kernel time; workloads by kind, then name. Their
 * kernels add up to kernels. */
static void rows_ordered(const ts_aview *v, uint64_t kernels, const char *what)
{
	size_t by_time = 0, cum = 0, named = 0;
	uint64_t k = 0;
	int64_t sum = 0;
	for (size_t i = 0; i < v->nops; i++) {
		const ts_aview_op *o = &v->ops[i];
		int64_t t = o->r->ns + o->r->mem_ns;
		by_time += i == 0 || t <= v->ops[i - 1].r->ns + v->ops[i - 1].r->mem_ns;
		sum += o->r->ns;
		cum += o->cum_ns == sum;
		named += o->name && o->len > 0 && o->all && o->nsites <= TS_ATTRIB_CALLSITES;
		k += o->r->kernels;
	}
	CHECK(v->nops > 0 && by_time == v->nops && cum == v->nops && named == v->nops,
	      "%s: %zu ops by time, each named, with its running sum", what, v->nops);
	CHECK(k == kernels, "%s: the ops' kernels are every kernel (%llu of %llu)", what,
	      (unsigned long long)k, (unsigned long long)kernels);
	size_t sorted = 0;
	for (size_t i = 1; i < v->nwls; i++) {
		const ts_aview_wl *a = &v->wls[i - 1], *b = &v->wls[i];
		int c = strcmp(a->rule->kind, b->rule->kind);
		sorted += c != 0 || strncmp(a->name, b->name, a->len < b->len ? a->len : b->len) <= 0;
	}
	CHECK(v->nwls > 0 && sorted + 1 == v->nwls, "%s: %zu workloads by kind, then name", what,
	      v->nwls);
}

static int analyse(const ts_patterns *pats, const char *path, ts_result *res)
{
	ts_pipeline_opts po = { .limits = ts_limits_default(), .patterns = (ts_patterns *)pats };
	ts_status st = ts_pipeline_run(path, &po, res);
	CHECK(st == TS_OK, "%s analyses", path);
	return st == TS_OK ? 0 : -1;
}

static int record(const ts_result *res, bool staged, ts_pstage stage, ts_aview *v,
		  const char *what)
{
	ts_kview kv = ts_kview_of(res, staged, stage);
	int rc = ts_aview_of(res, &kv, v);   /* CHECK reads its condition twice */
	CHECK(rc == 0, "%s: the record builds", what);
	return rc;
}

static void eager(const ts_patterns *pats)
{
	ts_result res;
	ts_aview v;
	if (analyse(pats, "tests/data/torch_dense_eager_h200.json.gz", &res) != 0)
		return;
	if (record(&res, false, TS_PSTAGE_UNKNOWN, &v, "eager") == 0) {
		const ts_aview_totals *t = &v.tot;
		CHECK(t->present && t->nbuckets == TS_ATTR_GRAPH_OP && v.view == TS_ATTRIB_ALL,
		      "eager: the buckets of a run without --capture, all kernels' view");
		CHECK(t->t.kernels[TS_ATTR_OP] == KERNELS && t->t.kernels[TS_ATTR_GRAPH] == 0 &&
		      t->t.kernels[TS_ATTR_LAUNCH] == 0 && t->t.kernels[TS_ATTR_UNLINKED] == 0,
		      "eager: all %d kernels have their op (%llu)", KERNELS,
		      (unsigned long long)t->t.kernels[TS_ATTR_OP]);
		CHECK(t->all_ns == t->t.ns[TS_ATTR_OP] && t->all_ns == res.agg->all.total,
		      "eager: the buckets' time is the kernel time");
		CHECK(t->t.ops_with_shapes > 0 && t->cs.frames > 0 && t->cs.found == t->cs.lookups,
		      "eager: ops with shapes, Python frames, a call site for every launch");
		rows_ordered(&v, KERNELS, "eager");
		const ts_aview_op *mm = op_named(&v, "aten::mm");
		CHECK(mm && mm->via == TS_ATTR_OP && mm->site && mm->nsites >= 1,
		      "eager: aten::mm, reached by its op, with its call site");
		wl_is(&v, "gemm_n1536_k1024", "gemm", 48, DECODE_TOKENS, PREFILL_TOKENS, "eager");
		wl_is(&v, "gemm_n1024_k1024", "gemm", 48, DECODE_TOKENS, PREFILL_TOKENS, "eager");
		wl_is(&v, "gemm_n32000_k1024", "gemm", 6, DECODE_TOKENS, DECODE_TOKENS, "eager");
		wl_is(&v, "gqa_masked_h16_kv4_d64", "gqa", 8, PREFILL_TOKENS, PREFILL_TOKENS, "eager");
		wl_is(&v, "gqa_ragged_decode_h16_kv4_d64", "gqa", 40, DECODE_TOKENS, DECODE_TOKENS,
		      "eager");
		const ts_aview_wl *qkv = wl_named(&v, "gemm_n1536_k1024");
		uint64_t flops = 2ull * 1536 * 1024 * (8 * PREFILL_TOKENS + 40 * DECODE_TOKENS);
		CHECK(qkv && qkv->r->flops == flops && qkv->r->flops_calls == 48 &&
		      qkv->rf.flops == (double)flops,
		      "eager: the QKV projection's FLOPs, 2 x N x K a token (%llu), in its roofline",
		      (unsigned long long)flops);
	}
	ts_aview_free(&v);
	CHECK(v.nops == 0 && !v.ops && v.nwls == 0 && !v.wls, "freed, the record holds no row");
	/* the decode steps alone: 5 steps of 8 layers on 2 tokens */
	if (record(&res, true, TS_PSTAGE_DECODE, &v, "eager decode") == 0) {
		ts_kview kv = ts_kview_of(&res, true, TS_PSTAGE_DECODE);
		CHECK(v.view == TS_PSTAGE_DECODE, "eager decode: the decode stage's view");
		rows_ordered(&v, kv.all->count, "eager decode");
		wl_is(&v, "gemm_n1536_k1024", "gemm", 40, DECODE_TOKENS, DECODE_TOKENS, "eager decode");
		wl_is(&v, "gemm_n32000_k1024", "gemm", 5, DECODE_TOKENS, DECODE_TOKENS, "eager decode");
		wl_is(&v, "gqa_masked_h16_kv4_d64", "gqa", 0, -1, -1, "eager decode");
		wl_is(&v, "gqa_ragged_decode_h16_kv4_d64", "gqa", 40, DECODE_TOKENS, DECODE_TOKENS,
		      "eager decode");
	}
	ts_aview_free(&v);
	size_t len;
	CHECK(ts_aview_op_name(&res, TS_INTERN_NONE, &len) == NULL && len == 0,
	      "eager: no op row, no name");
	ts_result_free(&res);
}

static void graphed(const ts_patterns *pats)
{
	ts_result res;
	ts_aview v;
	if (analyse(pats, "tests/data/torch_dense_graph_h200.json.gz", &res) != 0)
		return;
	if (record(&res, false, TS_PSTAGE_UNKNOWN, &v, "graph") == 0) {
		const ts_attrib_totals *t = &v.tot.t;
		CHECK(t->kernels[TS_ATTR_OP] + t->kernels[TS_ATTR_GRAPH] == KERNELS &&
		      t->kernels[TS_ATTR_GRAPH] > t->kernels[TS_ATTR_OP],
		      "graph: %d kernels, most replayed from the graph (%llu), the rest by op (%llu)",
		      KERNELS, (unsigned long long)t->kernels[TS_ATTR_GRAPH],
		      (unsigned long long)t->kernels[TS_ATTR_OP]);
		rows_ordered(&v, KERNELS, "graph");
		const ts_aview_op *g = op_named(&v, "cudaGraphLaunch");
		char lab[64] = "";
		if (g)
			ts_aview_op_label(res.attrib, g->op, lab, sizeof lab);
		CHECK(g && g->via == TS_ATTR_GRAPH && g->r->calls == 5 &&
		      g->r->kernels == t->kernels[TS_ATTR_GRAPH] && strcmp(lab, "[graph] cudaGraphLaunch") == 0,
		      "graph: the 5 decode steps are one graph row of 5 calls, \"%s\"", lab);
		/* the workloads are the prefill's: the replays record no op */
		wl_is(&v, "gemm_n1536_k1024", "gemm", 8, PREFILL_TOKENS, PREFILL_TOKENS, "graph");
		wl_is(&v, "gemm_n32000_k1024", "gemm", 1, DECODE_TOKENS, DECODE_TOKENS, "graph");
		wl_is(&v, "gqa_masked_h16_kv4_d64", "gqa", 8, PREFILL_TOKENS, PREFILL_TOKENS, "graph");
		wl_is(&v, "gqa_ragged_decode_h16_kv4_d64", "gqa", 0, -1, -1, "graph");
	}
	ts_aview_free(&v);
	ts_result_free(&res);
}

int main(void)
{
	ts_patterns *pats = unit_tables();
	if (!pats)
		return 1;
	eager(pats);
	graphed(pats);
	/* no attribution: a record of zeros */
	ts_result none;
	memset(&none, 0, sizeof none);
	ts_aview v;
	ts_kview kv = { .staged = false };
	int rc = ts_aview_of(&none, &kv, &v);
	ts_aview_totals t;
	ts_aview_totals_of(&none, &t);
	CHECK(rc == 0 && !v.tot.present && v.nops == 0 && v.nwls == 0 && !v.ops && !v.wls &&
	      v.tot.all_ns == 0 && !t.present && t.nbuckets == 0,
	      "without the attribution: no rows, zero totals");
	ts_aview_free(&v);
	ts_patterns_free(pats);
	return unit_failed != 0;
}
