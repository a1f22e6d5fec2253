#include "capture.h"

#include <stdlib.h>
#include <string.h>

#include "intern.h"

/* A window open on one thread: the graph being recorded. */
typedef struct {
	int64_t pid, tid;
	int64_t begin;           /* ts of its BeginCapture */
	uint32_t node0;          /* its first node */
	bool open;
} window;

/* A closed window until the file ends: when it began, where its nodes are. */
typedef struct {
	int64_t pid, tid, begin;
	uint32_t node0, nnodes;
} pending_graph;

typedef struct {
	int64_t ts, end, pid, tid, size;
	uint32_t name;
} capture_ann;

struct ts_capmap {
	ts_intern *strs;
	ts_capnode *nodes;
	size_t nnodes, nodes_cap;
	int64_t *ext;            /* per node of the file being recorded: its External id */
	size_t ext_cap;
	ts_capgraph *graphs;
	size_t ngraphs, graphs_cap;
	/* the file being recorded */
	uint32_t file;
	size_t file_node0;       /* its first node */
	window win[TS_CAPTURE_THREADS];
	pending_graph *pend;
	size_t npend, pend_cap;
	capture_ann *ann;
	size_t nann, ann_cap;
	uint32_t file_graphs;
	ts_capture_totals t;
};

ts_capmap *ts_capmap_new(void)
{
	ts_capmap *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->strs = ts_intern_new(1u << 20, 64u << 20);
	if (!m->strs) {
		free(m);
		return NULL;
	}
	return m;
}

void ts_capmap_free(ts_capmap *m)
{
	if (!m)
		return;
	ts_intern_free(m->strs);
	free(m->nodes);
	free(m->ext);
	free(m->graphs);
	free(m->pend);
	free(m->ann);
	free(m);
}

static bool reserve(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 64;
	while (n < need)
		n *= 2;
	void *p = realloc(*arr, n * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = n;
	return true;
}

static uint32_t str_id(ts_capmap *m, const char *s, size_t len)
{
	uint32_t id;
	if (!s || ts_intern_put(m->strs, s, len, &id) != TS_OK)
		return TS_INTERN_NONE;
	return id;
}

ts_status ts_capmap_begin_file(ts_capmap *m, const char *path)
{
	memset(m->win, 0, sizeof m->win);
	m->npend = m->nann = 0;
	m->file_graphs = 0;
	m->file_node0 = m->nnodes;
	m->file = str_id(m, path, strlen(path));
	m->t.files++;
	return TS_OK;
}

static bool contains(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, lit, k) == 0)
			return true;
	return false;
}

/* A kernel launch: cudaLaunchKernel(ExC), cuLaunchKernel(Ex),
 * hipLaunchKernel, hip(Ext)ModuleLaunchKernel, cudaLaunchCooperativeKernel;
 * not a graph launch, a copy or a set. */
static bool is_kernel_launch(const char *s, size_t n)
{
	return contains(s, n, "Launch") && contains(s, n, "Kernel") && !contains(s, n, "Graph");
}

static window *window_of(ts_capmap *m, int64_t pid, int64_t tid, bool make)
{
	window *free_slot = NULL;
	for (int i = 0; i < TS_CAPTURE_THREADS; i++) {
		window *w = &m->win[i];
		if (w->open && w->pid == pid && w->tid == tid)
			return w;
		if (!w->open && !free_slot)
			free_slot = w;
	}
	if (!make || !free_slot)
		return NULL;
	*free_slot = (window){ pid, tid, 0, 0, false };
	return free_slot;
}

void ts_capmap_runtime(ts_capmap *m, const ts_event *ev, const char *site, size_t site_len)
{
	if (!(ev->has & TS_HAS_TS))
		return;
	int64_t pid = ev->has & TS_HAS_PID ? ev->pid : -1;
	int64_t tid = ev->has & TS_HAS_TID ? ev->tid : -1;
	const char *s = ev->name;
	size_t n = ev->name_len;
	if (contains(s, n, "StreamBeginCapture")) {
		window *w = window_of(m, pid, tid, true);
		if (!w)
			return;
		if (w->open) {
			/* a second begin with no end: the first is lost */
			m->t.unclosed++;
			if (w->node0 != UINT32_MAX)
				m->nnodes = w->node0;
		}
		w->open = true;
		w->begin = ev->ts_ns;
		w->node0 = (uint32_t)m->nnodes;
		/* Nodes are recorded one window at a time: a capture on another
		 * thread at the same moment would interleave them, so it is
		 * dropped, counted, never mixed in. */
		for (int i = 0; i < TS_CAPTURE_THREADS; i++)
			if (&m->win[i] != w && m->win[i].open) {
				m->t.overlapping++;
				w->node0 = UINT32_MAX;
				break;
			}
		return;
	}
	window *w = window_of(m, pid, tid, false);
	if (!w)
		return;
	if (contains(s, n, "StreamEndCapture")) {
		w->open = false;
		m->t.windows++;
		if (w->node0 == UINT32_MAX)
			return;   /* lost to the node cap, or overlapping */
		if (m->nnodes == w->node0) {
			m->t.empty++;
			return;
		}
		if (m->ngraphs + m->npend >= TS_CAPTURE_MAX_GRAPHS) {
			m->t.graphs_dropped++;
			m->t.nodes_dropped += m->nnodes - w->node0;
			m->nnodes = w->node0;
			return;
		}
		if (!reserve((void **)&m->pend, &m->pend_cap, m->npend + 1, sizeof *m->pend)) {
			m->t.nodes_dropped += m->nnodes - w->node0;
			m->nnodes = w->node0;
			return;
		}
		m->pend[m->npend++] = (pending_graph){ pid, tid, w->begin, w->node0,
						       (uint32_t)(m->nnodes - w->node0) };
		return;
	}
	if (!is_kernel_launch(s, n) || ev->ts_ns < w->begin)
		return;
	m->t.launches++;
	if (w->node0 == UINT32_MAX) {
		m->t.nodes_dropped++;
		return;
	}
	if (m->nnodes >= TS_CAPTURE_MAX_NODES ||
	    !reserve((void **)&m->nodes, &m->nodes_cap, m->nnodes + 1, sizeof *m->nodes) ||
	    !reserve((void **)&m->ext, &m->ext_cap, m->nnodes - m->file_node0 + 1, sizeof *m->ext)) {
		/* the whole graph goes: a graph cut short would match wrongly */
		m->t.nodes_dropped += m->nnodes - w->node0 + 1;
		m->nnodes = w->node0;
		w->node0 = UINT32_MAX;
		return;
	}
	ts_capnode *nd = &m->nodes[m->nnodes];
	memset(nd, 0, sizeof *nd);
	nd->kname = nd->op = nd->cs = nd->wl = TS_INTERN_NONE;
	if (ev->has & TS_HAS_KERNEL) {
		nd->khash = ts_hash_bytes(ev->kname, ev->kname_len) | 1;
		nd->kname = str_id(m, ev->kname, ev->kname_len);
	}
	if ((ev->has & TS_HAS_GRID) && ev->grid[0] > 0)
		memcpy(nd->grid, ev->grid, sizeof nd->grid);
	if (site)
		nd->cs = str_id(m, site, site_len);
	m->ext[m->nnodes - m->file_node0] = ev->has & TS_HAS_EXTERNAL_ID ? ev->external_id : INT64_MIN;
	m->nnodes++;
}

int64_t ts_capture_size(const char *s, size_t n)
{
	size_t at = SIZE_MAX;
	for (size_t i = 0; i + 7 <= n && at == SIZE_MAX; i++) {
		size_t k = 0;
		while (k < 7 && (s[i + k] | 0x20) == "capture"[k])
			k++;
		if (k == 7)
			at = i + 7;
	}
	if (at == SIZE_MAX)
		return -1;
	size_t from = at;
	for (size_t i = at; i + 3 <= n; i++)
		if (memcmp(s + i, "bs=", 3) == 0) {
			from = i + 3;
			break;
		}
	for (size_t i = from; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			continue;
		int64_t v = 0;
		for (size_t j = i; j < n && s[j] >= '0' && s[j] <= '9'; j++) {
			if (v > (INT64_MAX - 9) / 10)
				return -1;
			v = v * 10 + (s[j] - '0');
		}
		return v;
	}
	return -1;
}

void ts_capmap_annotation(ts_capmap *m, const ts_event *ev)
{
	if (ev->cat != TS_CAT_USER_ANNOTATION || !(ev->has & TS_HAS_TS))
		return;
	int64_t size = ts_capture_size(ev->name, ev->name_len);
	if (size < 0)
		return;
	if (m->nann >= TS_CAPTURE_ANNOTATIONS ||
	    !reserve((void **)&m->ann, &m->ann_cap, m->nann + 1, sizeof *m->ann)) {
		m->t.annotations_dropped++;
		return;
	}
	m->ann[m->nann++] = (capture_ann){
		ev->ts_ns, ev->has & TS_HAS_DUR ? ev->ts_ns + ev->dur_ns : INT64_MAX,
		ev->has & TS_HAS_PID ? ev->pid : -1, ev->has & TS_HAS_TID ? ev->tid : -1,
		size, str_id(m, ev->name, ev->name_len < 200 ? ev->name_len : 200),
	};
}

/* The innermost capture annotation around a window (latest start; one on
 * the window's thread first). */
static const capture_ann *annotation_of(const ts_capmap *m, const pending_graph *g)
{
	const capture_ann *best = NULL;
	for (size_t i = 0; i < m->nann; i++) {
		const capture_ann *a = &m->ann[i];
		if (a->ts > g->begin || a->end < g->begin)
			continue;
		bool same = a->pid == g->pid && a->tid == g->tid;
		bool best_same = best && best->pid == g->pid && best->tid == g->tid;
		if (!best || (same && !best_same) || (same == best_same && a->ts >= best->ts))
			best = a;
	}
	return best;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t node_attr(const ts_capnode *n)
{
	uint64_t h = mix(0, n->op);
	h = mix(h, n->cs);
	h = mix(h, n->wl);
	h = mix(h, n->m);
	h = mix(h, n->heads);
	h = mix(h, (uint64_t)n->first << 8 | n->cont);
	h = mix(h, n->flops);
	return mix(h, n->bytes);
}

static bool same_nodes(const ts_capnode *a, const ts_capnode *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].khash != b[i].khash || memcmp(a[i].grid, b[i].grid, sizeof a[i].grid) ||
		    a[i].op != b[i].op || a[i].cs != b[i].cs || a[i].wl != b[i].wl ||
		    a[i].rule != b[i].rule || a[i].m != b[i].m || a[i].heads != b[i].heads ||
		    a[i].first != b[i].first || a[i].cont != b[i].cont ||
		    a[i].flops != b[i].flops || a[i].bytes != b[i].bytes)
			return false;
	return true;
}

/*
 * The file is over: windows still open are lost (a capture cut short);
 * each recorded node gets its op's attribution; graphs are kept in the
 * order their windows began, identical ones folded, and the nodes of the
 * folded ones given back.
 */
ts_status ts_capmap_end_file(ts_capmap *m, ts_opinfo_fn info, void *ctx)
{
	for (int i = 0; i < TS_CAPTURE_THREADS; i++)
		if (m->win[i].open) {
			m->t.unclosed++;
			m->win[i].open = false;
		}
	size_t base = m->file_node0;
	for (size_t i = base; i < m->nnodes; i++) {
		ts_capnode *nd = &m->nodes[i];
		int64_t ext = m->ext[i - base];
		ts_opinfo oi = { 0 };
		if (ext == INT64_MIN || !info(ctx, ext, &oi) || !oi.op) {
			m->t.nodes_no_op++;
			continue;
		}
		nd->op = str_id(m, oi.op, oi.op_len);
		if (oi.wl) {
			nd->wl = str_id(m, oi.wl, oi.wl_len);
			nd->rule = oi.rule;
		}
		nd->m = oi.m;
		nd->heads = oi.heads;
		nd->cont = oi.cont;
		nd->flops = oi.flops;
		nd->bytes = oi.bytes;
	}
	/* windows in begin order (they close in that order on one thread) */
	for (size_t i = 1; i < m->npend; i++) {
		pending_graph g = m->pend[i];
		size_t j = i;
		for (; j > 0 && m->pend[j - 1].begin > g.begin; j--)
			m->pend[j] = m->pend[j - 1];
		m->pend[j] = g;
	}
	/* Copy the kept graphs' nodes down to base, in order (a graph's nodes
	 * are contiguous: one window records at a time). */
	ts_capnode *tmp = NULL;
	size_t total = m->nnodes - base;
	if (total && !(tmp = malloc(total * sizeof *tmp)))
		return TS_ERR_NOMEM;
	if (total)
		memcpy(tmp, m->nodes + base, total * sizeof *tmp);
	size_t out = base;
	for (size_t gi = 0; gi < m->npend; gi++) {
		const pending_graph *pg = &m->pend[gi];
		m->t.graphs++;
		m->file_graphs++;
		const ts_capnode *src = tmp + (pg->node0 - base);
		for (uint32_t k = 0; k < pg->nnodes; k++) {
			/* the first kernel node of its op call */
			int64_t e = m->ext[pg->node0 - base + k];
			int64_t prev = k ? m->ext[pg->node0 - base + k - 1] : INT64_MIN;
			tmp[pg->node0 - base + k].first = e != INT64_MIN && e != prev;
		}
		const capture_ann *an = annotation_of(m, pg);
		int64_t size = an ? an->size : -1;
		uint64_t attr = mix(0, pg->nnodes);
		for (uint32_t k = 0; k < pg->nnodes; k++)
			attr = mix(attr, node_attr(&src[k]));
		bool folded = false;
		for (size_t h = 0; h < m->ngraphs && !folded; h++) {
			ts_capgraph *o = &m->graphs[h];
			if (o->file == m->file && o->size == size && o->nnodes == pg->nnodes &&
			    o->attr == attr && same_nodes(m->nodes + o->node0, src, pg->nnodes)) {
				o->copies++;
				folded = true;
			}
		}
		if (folded)
			continue;
		if (!reserve((void **)&m->graphs, &m->graphs_cap, m->ngraphs + 1, sizeof *m->graphs)) {
			m->t.nodes_dropped += pg->nnodes;
			continue;
		}
		memmove(m->nodes + out, src, pg->nnodes * sizeof *src);
		m->graphs[m->ngraphs++] = (ts_capgraph){
			size, (uint32_t)out, pg->nnodes, m->file, m->file_graphs,
			an ? an->name : TS_INTERN_NONE, 1, attr,
		};
		out += pg->nnodes;
	}
	free(tmp);
	m->nnodes = out;
	m->npend = 0;
	m->nann = 0;
	/* the External ids were needed for this file only */
	free(m->ext);
	m->ext = NULL;
	m->ext_cap = 0;
	return TS_OK;
}

size_t ts_capmap_ngraphs(const ts_capmap *m)
{
	return m->ngraphs;
}

const ts_capgraph *ts_capmap_graph(const ts_capmap *m, size_t i)
{
	return &m->graphs[i];
}

const ts_capnode *ts_capmap_node(const ts_capmap *m, size_t i)
{
	return &m->nodes[i];
}

size_t ts_capmap_nnodes(const ts_capmap *m)
{
	return m->nnodes;
}

const char *ts_capmap_str(const ts_capmap *m, uint32_t id, size_t *len)
{
	if (id == TS_INTERN_NONE) {
		if (len)
			*len = 0;
		return NULL;
	}
	return ts_intern_str(m->strs, id, len);
}

const ts_capture_totals *ts_capmap_totals(const ts_capmap *m)
{
	return &m->t;
}

size_t ts_capmap_bytes(const ts_capmap *m)
{
	return sizeof *m + m->nodes_cap * sizeof *m->nodes + m->graphs_cap * sizeof *m->graphs +
	       ts_intern_bytes(m->strs);
}
