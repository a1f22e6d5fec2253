/*
 * tview_ranks.c - a job's tables (tview.h, ranks.h): a row per rank, and
 * the spread of each figure over the ranks.
 */
#include "analysis/views/tables/tview_int.h"

/* A job over ranks: one row per rank, as JSON "ranks" (with the wait of
 * "skew.collective_wait" and whether it is the straggler). */
_Static_assert(TS_PSTAGE_COUNT == 4, "a passes and a time column per stage");

int ts_tview_ranks(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		   const ts_table_sink *k)
{
	(void)res, (void)v;
	const ts_multi *m = o->ranks;
	static const char *const cols[] = {
		"rank", "trace_rank", "world_size", "path", "status", "partial", "gpu", "kernels",
		"kernel_time_us", "busy_us", "span_us", "comm_us", "wait_us", "wait_pct", "passes",
		"layers_per_pass", "prefill_passes", "prefill_us", "decode_passes", "decode_us",
		"mixed_passes", "mixed_us", "unknown_passes", "unknown_us", "straggler",
	};
	int rc = BEGIN(k, "ranks", cols);
	for (size_t i = 0; m && i < m->n && rc == 0; i++) {
		const ts_rank_summary *r = &m->ranks[i];
		const ts_rank_wait *w = &m->skew->wait[i];
		ts_cell row[sizeof cols / sizeof *cols] = {
			c_int(r->rank), c_opt_int(r->trace_rank >= 0, r->trace_rank),
			c_opt_int(r->world_size >= 0, r->world_size), c_cstr(r->path),
			c_cstr(r->err.status == TS_OK ? "ok" : ts_strerror(r->err.status)),
			c_bool(r->partial), r->gpu[0] ? c_cstr(r->gpu) : c_null(), c_uint(r->kernels),
			c_us(r->kernel_ns), c_us(r->busy_ns), c_us(r->span_ns), c_us(r->comm_ns),
			c_us(w->wait_ns), c_num(share(w->wait_ns, r->comm_ns), 2), c_uint(r->passes),
			c_uint(r->layers_per_pass),
		};
		size_t at = 16;
		for (int st = 0; st < TS_PSTAGE_COUNT; st++) {
			bool has = r->stage_passes[st] > 0;
			row[at++] = c_uint(r->stage_passes[st]);
			row[at++] = has ? c_us(r->stage_ns[st]) : c_null();
		}
		row[at] = c_bool(m->skew->straggler >= 0 && (size_t)m->skew->straggler == i);
		rc = ROW(k, row);
	}
	return rc;
}

/* A job over ranks: the spread of each figure over the ranks (JSON "skew":
 * kernel time, busy time, each stage, each layer position of each stage). */
int ts_tview_skew(const ts_result *res, const ts_tview_opts *o, const ts_kview *v,
		  const ts_table_sink *k)
{
	(void)res, (void)v;
	const ts_multi *m = o->ranks;
	static const char *const cols[] = { "figure", "stage", "layer", "ranks", "min_us",
					    "median_us", "max_us", "spread_pct", "slowest_rank" };
	int rc = BEGIN(k, "skew", cols);
	if (!m || rc)
		return rc;
	const ts_skew *sk = m->skew;
	typedef struct {
		const char *figure;
		int stage;
		long layer;
		const ts_spread *s;
	} fig;
	fig top[2 + TS_PSTAGE_COUNT];
	size_t n = 0;
	top[n++] = (fig){ "kernel_time", -1, -1, &sk->kernel };
	top[n++] = (fig){ "busy", -1, -1, &sk->busy };
	for (int st = 0; st < TS_PSTAGE_COUNT; st++)
		top[n++] = (fig){ "stage", st, -1, &sk->stage[st] };
	for (int st = -1; st < TS_PSTAGE_COUNT && rc == 0; st++) {
		/* the job's figures first, then each stage's layer positions */
		size_t cnt = st < 0 ? n : sk->npos[st];
		for (size_t i = 0; i < cnt && rc == 0; i++) {
			fig f = st < 0 ? top[i] : (fig){ "layer", st, (long)i, &sk->pos[st][i] };
			if (!f.s->n)
				continue;
			ts_cell row[] = {
				c_cstr(f.figure), f.stage >= 0 ? c_cstr(ts_pstage_name((ts_pstage)f.stage)) : c_null(),
				c_opt_int(f.layer >= 0, f.layer), c_uint(f.s->n), c_us(f.s->min),
				c_us(f.s->median), c_us(f.s->max),
				c_num(share(f.s->max - f.s->min, f.s->median), 2),
				c_int(m->ranks[f.s->slowest].rank),
			};
			rc = ROW(k, row);
		}
	}
	return rc;
}
