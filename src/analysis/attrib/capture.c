/*
 * capture.c - --capture: the graphs a capture trace recorded, each kernel
 * node with the op, call site and workload that launched it; saved and
 * merged with partials (see capture.h).
 */
#include "analysis/attrib/capture.h"
#include "input/base/grow.h"

#include <stdlib.h>
#include <string.h>

#include "input/base/hash.h"
#include "input/base/intern.h"
#include "input/base/strfind.h"
#include "tables/patterns.h"
#include "input/base/satmath.h"

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

/* A capture trace read (or merged from a partial): what it alone counted,
 * and its graphs (consecutive in graphs[]: files are read one at a time). */
typedef struct {
	uint32_t path;           /* string id */
	ts_capture_totals t;     /* t.files 1 */
	uint32_t graph0, ngraphs;
} capfile;

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
	size_t file_graph0;      /* its first graph */
	ts_capture_totals at_begin;   /* the totals when the file began */
	capfile *files;
	size_t nfiles, files_cap;
	ts_capture_totals t;     /* of every file */
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
	free(m->files);
	free(m);
}

/* The counters of ts_capture_totals, for adding and taking apart. */
#define TOTALS_U64(X) X(windows) X(unclosed) X(overlapping) X(launches) X(nodes_no_op) \
	X(nodes_dropped) X(graphs) X(graphs_dropped) X(empty) X(annotations_dropped)

static void totals_add(ts_capture_totals *d, const ts_capture_totals *a)
{
#define ADD(f) d->f = ts_sat_addu(d->f, a->f);
	TOTALS_U64(ADD)
#undef ADD
	d->files = d->files + a->files < d->files ? UINT32_MAX : d->files + a->files;
}

static ts_capture_totals totals_since(const ts_capture_totals *now, const ts_capture_totals *then)
{
	ts_capture_totals d = { 0 };
#define SUB(f) d.f = now->f - then->f;
	TOTALS_U64(SUB)
#undef SUB
	d.files = now->files - then->files;
	return d;
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
	m->file_graph0 = m->ngraphs;
	m->file = str_id(m, path, strlen(path));
	m->at_begin = m->t;
	m->t.files++;
	return TS_OK;
}

/* A kernel launch: cudaLaunchKernel(ExC), cuLaunchKernel(Ex),
 * hipLaunchKernel, hip(Ext)ModuleLaunchKernel, cudaLaunchCooperativeKernel;
 * not a graph launch, a copy or a set. */
static bool is_kernel_launch(const char *s, size_t n)
{
	return ts_has(s, n, "Launch") && ts_has(s, n, "Kernel") && !ts_has(s, n, "Graph");
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
	if (ts_has(s, n, "StreamBeginCapture")) {
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
	if (ts_has(s, n, "StreamEndCapture")) {
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
		if (!ts_grow((void **)&m->pend, &m->pend_cap, m->npend + 1, sizeof *m->pend, 64, SIZE_MAX, false)) {
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
	    !ts_grow((void **)&m->nodes, &m->nodes_cap, m->nnodes + 1, sizeof *m->nodes, 64, SIZE_MAX, false) ||
	    !ts_grow((void **)&m->ext, &m->ext_cap, m->nnodes - m->file_node0 + 1, sizeof *m->ext, 64, SIZE_MAX, false)) {
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
	    !ts_grow((void **)&m->ann, &m->ann_cap, m->nann + 1, sizeof *m->ann, 64, SIZE_MAX, false)) {
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

static uint64_t node_attr(const ts_capnode *n)
{
	uint64_t h = ts_hash_combine(0, n->op);
	h = ts_hash_combine(h, n->cs);
	h = ts_hash_combine(h, n->wl);
	h = ts_hash_combine(h, n->m);
	h = ts_hash_combine(h, n->heads);
	h = ts_hash_combine(h, (uint64_t)n->first << 8 | n->cont);
	h = ts_hash_combine(h, n->flops);
	return ts_hash_combine(h, n->bytes);
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
		uint64_t attr = ts_hash_combine(0, pg->nnodes);
		for (uint32_t k = 0; k < pg->nnodes; k++)
			attr = ts_hash_combine(attr, node_attr(&src[k]));
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
		if (!ts_grow((void **)&m->graphs, &m->graphs_cap, m->ngraphs + 1, sizeof *m->graphs, 64, SIZE_MAX, false)) {
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
	if (!ts_grow((void **)&m->files, &m->files_cap, m->nfiles + 1, sizeof *m->files, 64, SIZE_MAX, false))
		return TS_ERR_NOMEM;
	m->files[m->nfiles++] = (capfile){ m->file, totals_since(&m->t, &m->at_begin),
					   (uint32_t)m->file_graph0,
					   (uint32_t)(m->ngraphs - m->file_graph0) };
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
	       m->files_cap * sizeof *m->files + ts_intern_bytes(m->strs);
}

/* ------------------------------------------------------- saved partials */

#define NODE_BYTES (3 * 8 + 3 * 4 + 7 * 4 + 2)
#define GRAPH_BYTES (8 + 4 + 4 + 4 + 8)
#define FILE_BYTES (4 + 10 * 8 + 8)

void ts_capmap_save(const ts_capmap *m, const ts_patterns *p, ts_wbuf *w)
{
	uint32_t ns = ts_intern_count(m->strs);
	ts_w_u64(w, ns);
	for (uint32_t i = 0; i < ns; i++) {
		size_t len;
		const char *s = ts_intern_str(m->strs, i, &len);
		ts_w_str(w, s, len);
	}
	/* the operator rules the workloads name, by kind and template, so
	 * that other tables find theirs (ts_patterns_oprule_find) */
	size_t nr = p ? ts_patterns_noprules(p) : 0;
	uint32_t *pos = calloc(nr ? nr : 1, sizeof *pos);
	if (!pos) {
		w->nomem = true;
		return;
	}
	for (size_t i = 0; i < m->nnodes; i++)
		if (m->nodes[i].wl != TS_INTERN_NONE && m->nodes[i].rule < nr)
			pos[m->nodes[i].rule] = 1;
	uint32_t used = 0;
	for (size_t i = 0; i < nr; i++)
		if (pos[i])
			pos[i] = ++used;
	ts_w_u64(w, used);
	for (size_t i = 0; i < nr; i++) {
		if (!pos[i])
			continue;
		const ts_oprule *r = ts_patterns_oprule(p, i);
		ts_w_u32(w, (uint32_t)i);
		ts_w_str(w, r->kind, strlen(r->kind));
		ts_w_str(w, r->workload, strlen(r->workload));
	}
	ts_w_u64(w, m->nfiles);
	for (size_t f = 0; f < m->nfiles; f++) {
		const capfile *cf = &m->files[f];
		ts_w_u32(w, cf->path);
#define PUT(x) ts_w_u64(w, cf->t.x);
		TOTALS_U64(PUT)
#undef PUT
		ts_w_u64(w, cf->ngraphs);
		for (uint32_t gi = cf->graph0; gi < cf->graph0 + cf->ngraphs; gi++) {
			const ts_capgraph *g = &m->graphs[gi];
			ts_w_i64(w, g->size);
			ts_w_u32(w, g->index);
			ts_w_u32(w, g->ann);
			ts_w_u32(w, g->copies);
			ts_w_u64(w, g->nnodes);
			for (uint32_t k = 0; k < g->nnodes; k++) {
				const ts_capnode *nd = &m->nodes[g->node0 + k];
				ts_w_u64(w, nd->khash);
				ts_w_u64(w, nd->flops);
				ts_w_u64(w, nd->bytes);
				for (int d = 0; d < 3; d++)
					ts_w_u32(w, (uint32_t)nd->grid[d]);
				ts_w_u32(w, nd->kname);
				ts_w_u32(w, nd->op);
				ts_w_u32(w, nd->cs);
				ts_w_u32(w, nd->wl);
				ts_w_u32(w, nd->wl != TS_INTERN_NONE && nd->rule < nr
						    ? pos[nd->rule] - 1 : TS_INTERN_NONE);
				ts_w_u32(w, nd->m);
				ts_w_u32(w, nd->heads);
				ts_w_u8(w, nd->first);
				ts_w_u8(w, nd->cont);
			}
		}
	}
	free(pos);
}

/* A section read whole before anything is added to the map. */
typedef struct {
	uint32_t *smap;          /* saved string id -> id here */
	uint64_t nstr;
	long *rmap;              /* saved rule -> rule here, -1 none */
	uint64_t nrules;
	capfile *files;          /* graph0: into graphs */
	uint64_t nfiles;
	ts_capgraph *graphs;     /* node0: into nodes; file: its path here */
	uint64_t ngraphs;
	ts_capnode *nodes;
	uint64_t nnodes;
	size_t nodes_cap;
} loaded;

static void loaded_free(loaded *l)
{
	free(l->smap);
	free(l->rmap);
	free(l->files);
	free(l->graphs);
	free(l->nodes);
}

/* A saved string id: one of the section's, or none. */
static uint32_t sid(ts_rbuf *r, const loaded *l)
{
	uint32_t v = ts_r_u32(r);
	if (v == TS_INTERN_NONE)
		return v;
	if (v >= l->nstr) {
		ts_r_fail(r, "a string index past the strings saved");
		return TS_INTERN_NONE;
	}
	return l->smap[v];
}

static ts_status load_nodes(ts_rbuf *r, loaded *l, ts_capgraph *g, uint64_t nn)
{
	if (!ts_grow((void **)&l->nodes, &l->nodes_cap, l->nnodes + nn, sizeof *l->nodes, 64, SIZE_MAX, false))
		return TS_ERR_NOMEM;
	g->node0 = (uint32_t)l->nnodes;
	g->nnodes = (uint32_t)nn;
	for (uint64_t k = 0; k < nn && !r->err; k++) {
		ts_capnode *nd = &l->nodes[l->nnodes + k];
		memset(nd, 0, sizeof *nd);
		nd->khash = ts_r_u64(r);
		nd->flops = ts_r_u64(r);
		nd->bytes = ts_r_u64(r);
		for (int d = 0; d < 3; d++)
			nd->grid[d] = (int32_t)ts_r_u32(r);
		nd->kname = sid(r, l);
		nd->op = sid(r, l);
		nd->cs = sid(r, l);
		nd->wl = sid(r, l);
		uint32_t rule = ts_r_u32(r);
		nd->m = ts_r_u32(r);
		uint32_t heads = ts_r_u32(r);
		uint8_t first = ts_r_u8(r), cont = ts_r_u8(r);
		if (heads > UINT16_MAX || first > 1 || cont > 1) {
			ts_r_fail(r, "a kernel node out of range");
			break;
		}
		nd->heads = (uint16_t)heads;
		nd->first = first;
		nd->cont = cont;
		if (rule != TS_INTERN_NONE && rule >= l->nrules) {
			ts_r_fail(r, "a rule index past the rules saved");
			break;
		}
		/* a workload whose rule these tables do not have is left out */
		long here = rule == TS_INTERN_NONE ? -1 : l->rmap[rule];
		if (here < 0)
			nd->wl = TS_INTERN_NONE;
		nd->rule = here < 0 ? 0 : (uint32_t)here;
	}
	l->nnodes += nn;
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

static ts_status load_section(ts_capmap *m, const ts_patterns *p, ts_rbuf *r, loaded *l)
{
	l->nstr = ts_r_count(r, 4);
	l->smap = malloc((l->nstr ? l->nstr : 1) * sizeof *l->smap);
	if (!l->smap)
		return TS_ERR_NOMEM;
	for (uint64_t i = 0; i < l->nstr && !r->err; i++) {
		size_t len;
		const char *s = ts_r_str(r, &len);
		l->smap[i] = r->err ? TS_INTERN_NONE : str_id(m, s, len);
	}
	l->nrules = ts_r_count(r, 12);
	l->rmap = malloc((l->nrules ? l->nrules : 1) * sizeof *l->rmap);
	if (!l->rmap)
		return TS_ERR_NOMEM;
	for (uint64_t i = 0; i < l->nrules && !r->err; i++) {
		size_t kl, tl;
		uint32_t at = ts_r_u32(r);
		const char *kind = ts_r_str(r, &kl);
		const char *tmpl = ts_r_str(r, &tl);
		l->rmap[i] = r->err ? -1 : ts_patterns_oprule_find(p, at, kind, kl, tmpl, tl);
	}
	l->nfiles = ts_r_count(r, FILE_BYTES);
	l->files = calloc(l->nfiles ? l->nfiles : 1, sizeof *l->files);
	if (!l->files)
		return TS_ERR_NOMEM;
	size_t gcap = 0;
	for (uint64_t f = 0; f < l->nfiles && !r->err; f++) {
		capfile *cf = &l->files[f];
		cf->path = sid(r, l);
#define GET(x) cf->t.x = ts_r_u64(r);
		TOTALS_U64(GET)
#undef GET
		cf->t.files = 1;
		uint64_t ng = ts_r_count(r, GRAPH_BYTES);
		if (!ts_grow((void **)&l->graphs, &gcap, l->ngraphs + ng, sizeof *l->graphs, 64, SIZE_MAX, false))
			return TS_ERR_NOMEM;
		cf->graph0 = (uint32_t)l->ngraphs;
		cf->ngraphs = (uint32_t)ng;
		for (uint64_t k = 0; k < ng && !r->err; k++) {
			ts_capgraph *g = &l->graphs[l->ngraphs++];
			memset(g, 0, sizeof *g);
			g->file = cf->path;
			g->size = ts_r_i64(r);
			g->index = ts_r_u32(r);
			g->ann = sid(r, l);
			g->copies = ts_r_u32(r);
			uint64_t nn = ts_r_count(r, NODE_BYTES);
			if (!r->err && (nn == 0 || nn > TS_CAPTURE_MAX_NODES || g->copies == 0)) {
				ts_r_fail(r, "a captured graph with no kernel node, too many, or no copy");
				break;
			}
			ts_status st = load_nodes(r, l, g, nn);
			if (st == TS_ERR_NOMEM)
				return st;
		}
	}
	return r->err ? TS_ERR_PARTIAL : TS_OK;
}

/* The file of the map that is this one: the same path, counts and graphs
 * (a capture read by several ranks of one run, or merged twice). */
static long same_file(const ts_capmap *m, const loaded *l, const capfile *cf)
{
	for (size_t f = 0; f < m->nfiles; f++) {
		const capfile *e = &m->files[f];
		if (e->path != cf->path || e->ngraphs != cf->ngraphs ||
		    e->t.windows != cf->t.windows || e->t.launches != cf->t.launches ||
		    e->t.graphs != cf->t.graphs)
			continue;
		bool same = true;
		for (uint32_t k = 0; k < cf->ngraphs && same; k++) {
			const ts_capgraph *a = &m->graphs[e->graph0 + k];
			const ts_capgraph *b = &l->graphs[cf->graph0 + k];
			same = a->size == b->size && a->index == b->index && a->ann == b->ann &&
			       a->copies == b->copies && a->nnodes == b->nnodes &&
			       same_nodes(m->nodes + a->node0, l->nodes + b->node0, a->nnodes);
		}
		if (same)
			return (long)f;
	}
	return -1;
}

ts_status ts_capmap_merge(ts_capmap *m, const ts_patterns *p, ts_rbuf *r, long **gmap,
			  size_t *ngmap)
{
	*gmap = NULL;
	*ngmap = 0;
	loaded l = { 0 };
	ts_status st = load_section(m, p, r, &l);
	long *map = st == TS_OK ? malloc((l.ngraphs ? l.ngraphs : 1) * sizeof *map) : NULL;
	if (st == TS_OK && !map)
		st = TS_ERR_NOMEM;
	for (uint64_t f = 0; f < l.nfiles && st == TS_OK; f++) {
		capfile cf = l.files[f];
		long dup = same_file(m, &l, &cf);
		if (dup >= 0) {
			for (uint32_t k = 0; k < cf.ngraphs; k++)
				map[cf.graph0 + k] = (long)m->files[dup].graph0 + k;
			continue;
		}
		if (!ts_grow((void **)&m->files, &m->files_cap, m->nfiles + 1, sizeof *m->files, 64, SIZE_MAX, false)) {
			st = TS_ERR_NOMEM;
			break;
		}
		capfile kept = cf;
		kept.graph0 = (uint32_t)m->ngraphs;
		kept.ngraphs = 0;
		for (uint32_t k = 0; k < cf.ngraphs; k++) {
			const ts_capgraph *g = &l.graphs[cf.graph0 + k];
			map[cf.graph0 + k] = -1;
			if (m->ngraphs >= TS_CAPTURE_MAX_GRAPHS ||
			    m->nnodes + g->nnodes > TS_CAPTURE_MAX_NODES ||
			    !ts_grow((void **)&m->graphs, &m->graphs_cap, m->ngraphs + 1,
				     sizeof *m->graphs, 64, SIZE_MAX, false) ||
			    !ts_grow((void **)&m->nodes, &m->nodes_cap, m->nnodes + g->nnodes,
				     sizeof *m->nodes, 64, SIZE_MAX, false)) {
				/* left out whole, as when recording */
				kept.t.graphs_dropped++;
				kept.t.nodes_dropped += g->nnodes;
				continue;
			}
			ts_capgraph *d = &m->graphs[m->ngraphs];
			*d = *g;
			d->node0 = (uint32_t)m->nnodes;
			memcpy(m->nodes + m->nnodes, l.nodes + g->node0, g->nnodes * sizeof *m->nodes);
			d->attr = ts_hash_combine(0, g->nnodes);
			for (uint32_t k2 = 0; k2 < g->nnodes; k2++)
				d->attr = ts_hash_combine(d->attr, node_attr(&m->nodes[m->nnodes + k2]));
			m->nnodes += g->nnodes;
			map[cf.graph0 + k] = (long)m->ngraphs++;
			kept.ngraphs++;
		}
		m->files[m->nfiles++] = kept;
		totals_add(&m->t, &kept.t);
	}
	if (st == TS_OK) {
		*gmap = map;
		*ngmap = l.ngraphs;
	} else {
		free(map);
	}
	loaded_free(&l);
	return st;
}
