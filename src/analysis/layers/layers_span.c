/*
 * layers_span.c - the online layout's spans: a layer closed at its start
 * marker (with the norm's own cast before it), or split by structure in
 * the gap between two attention units when no marker came; kernels moved
 * across a boundary keep the figures and the --debug-layers listing right.
 */
#include "analysis/layers/layers_int.h"
#include "input/base/satmath.h"

bool ts_lay_is_layer(const ts_layers *l, lmark m)
{
	if (l->opts.split_half_layers)
		return m & (M_ATTN | M_MLP);
	return m & M_ATTN;
}

/* Close the span since the last boundary: a layer, or orphan kernels. */
void ts_lay_close_span(ts_layers *l)
{
	cur_layer *s = &l->online.walk.seg;
	if (s->kernels == 0)
		return;
	/* Layer work before the pass's first boundary: the capture began
	 * inside a layer, so the pass is not whole. */
	if (l->online.walk.nlayers == 0 && !l->online.walk.seen_boundary && (s->marks & (M_ATTN | M_MLP)))
		l->pass.cur.cut_start = true;
	if (!ts_lay_is_layer(l, s->marks))   /* not a layer: no layer in the listing */
		for (size_t i = l->listing.dbg_span; i < l->listing.ndbg_cur; i++)
			l->listing.dbg_cur[i].layer = UINT32_MAX;
	l->listing.dbg_span = l->listing.ndbg_cur;
	if (ts_lay_is_layer(l, s->marks)) {
		/* GEMMs after the attention beyond its output projection: an
		 * MLP no marker named */
		if (!(s->marks & M_MLP) && s->post_gemms >= 3 && !l->opts.split_half_layers)
			s->marks |= M_FC;
		if (l->online.walk.nlayers < TS_MAX_LAYERS)
			l->online.layers[l->online.walk.nlayers] = *s;
		else
			l->online.walk.layers_dropped++;
		l->online.walk.nlayers++;
		l->pass.cur.between_ns = ts_sat_add(l->pass.cur.between_ns, l->online.walk.pend_between);
		l->online.walk.pend_between = 0;
	} else {
		l->pass.cur.orphan_kernels += s->kernels;
		l->pass.cur.orphan_ns = ts_sat_add(l->pass.cur.orphan_ns, s->ns);
		if (l->online.walk.nlayers)
			l->online.walk.pend_between = ts_sat_add(l->online.walk.pend_between, s->ns > 0 ? s->ns : 0);
	}
	*s = (cur_layer){ 0 };
	l->online.walk.start_after_attn = false;
}

/* Take the last n kernels of the open span out of it (they go to the next
 * span or to the pass's orphans); *out gets their sum. The listing of
 * --debug-layers follows them. */
void ts_lay_take_tail(ts_layers *l, const gap_ent *g, uint32_t n, cur_layer *out)
{
	*out = (cur_layer){ 0 };
	for (uint32_t i = 0; i < n; i++) {
		out->ns = ts_sat_add(out->ns, g[i].dur);
		out->kernels++;
		out->marks |= (lmark)(g[i].marks & (M_ATTN | M_MLP));
		out->gemms += (g[i].marks & M_GEMM) && out->gemms < UINT16_MAX;
		if ((g[i].marks & M_GEMM) && l->online.walk.seg.post_gemms)
			l->online.walk.seg.post_gemms--;
	}
	l->online.walk.seg.ns -= out->ns;
	l->online.walk.seg.kernels -= out->kernels;
}

/* Where the next layer begins in the gap before a new attention unit, when
 * no layer-start marker placed it: the gap's index b (its kernels b..n-1
 * are the next layer's head). */
static uint32_t place_boundary(const ts_layers *l)
{
	const gap_ent *g = l->online.gap;
	uint32_t n = l->online.walk.ngap;
	if (n == 0)
		return 0;
	/* a start marker as far from the attention as the one that opened
	 * layer 0 (a later one on a tie) */
	if (l->online.walk.pre_start >= 0) {
		int64_t best = -1, bestd = INT64_MAX;
		for (uint32_t i = 0; i < n; i++) {
			if (!(g[i].marks & M_START))
				continue;
			int64_t d = (int64_t)(n - i) - l->online.walk.pre_start;
			if (d < 0)
				d = -d;
			if (d <= bestd) {
				bestd = d;
				best = i;
			}
		}
		if (best >= 0)
			return (uint32_t)best;
	}
	/* the period: layer 0's head is the longest run at the end of the
	 * segment before its attention that also ends this gap */
	uint32_t k = 0;
	while (k + 1 < n && k < l->online.walk.npre && g[n - 1 - k].key != TS_INTERN_NONE &&
	       g[n - 1 - k].key == l->online.pre[l->online.walk.npre - 1 - k].key)
		k++;
	if (k > 0)
		return n - k;
	if (l->online.walk.tail_len >= 0 && (uint32_t)l->online.walk.tail_len <= n)
		return (uint32_t)l->online.walk.tail_len;
	return n;
}

/* Relabel the --debug-layers listing: the last n kernels now belong to
 * layer `to` (UINT32_MAX: to no layer). */
void ts_lay_debug_relabel(ts_layers *l, uint32_t n, uint32_t from, uint32_t to)
{
	for (size_t i = l->listing.ndbg_cur; i-- > 0 && n > 0; n--)
		if (l->listing.dbg_cur[i].layer == from)
			l->listing.dbg_cur[i].layer = to;
}

/* A new attention unit while the open span already holds one: no marker
 * closed the layer, so split the gap between the two by structure. */
void ts_lay_structural_boundary(ts_layers *l)
{
	uint32_t n = l->online.walk.ngap, b = place_boundary(l), h = n - b;
	cur_layer head;
	ts_lay_take_tail(l, l->online.gap + b, h, &head);
	l->online.walk.seg.marks = (lmark)(l->online.walk.marks_at_gap | head.marks);
	for (uint32_t i = 0; i < b; i++)
		l->online.walk.seg.marks |= (lmark)(l->online.gap[i].marks & (M_ATTN | M_MLP));
	if (l->listing.track)
		ts_lay_debug_relabel(l, h, l->online.walk.nlayers, l->online.walk.nlayers + 1);
	/* Layer 0 with no start marker: it began as far before its attention
	 * as this head does; what came before is the pass preamble. When the
	 * preamble ends like the layers' tails, the capture began inside a
	 * layer. */
	if (l->online.walk.nlayers == 0 && !l->online.walk.seen_boundary) {
		if (l->online.walk.pre_len > h) {
			int64_t head_ns = 0;
			for (uint32_t i = 0; i < h && i < l->online.walk.npre; i++)
				head_ns = ts_sat_add(head_ns, l->online.pre[l->online.walk.npre - 1 - i].dur);
			uint32_t pk = l->online.walk.pre_len - h;
			int64_t pns = l->online.walk.pre_ns - head_ns;
			l->online.walk.seg.ns -= pns;
			l->online.walk.seg.kernels -= pk;
			l->pass.cur.orphan_kernels += pk;
			l->pass.cur.orphan_ns = ts_sat_add(l->pass.cur.orphan_ns, pns);
			if (l->listing.track) {
				/* the last h listed before the unit are the head */
				size_t i = l->online.walk.dbg_pre_end < l->listing.ndbg_cur ? l->online.walk.dbg_pre_end : l->listing.ndbg_cur;
				for (uint32_t k = 0; i-- > 0;) {
					if (l->listing.dbg_cur[i].layer == UINT32_MAX)
						continue;
					if (k < h)
						k++;
					else
						l->listing.dbg_cur[i].layer = UINT32_MAX;
				}
			}
			uint32_t same = 0;
			while (same < b && h + same < l->online.walk.npre &&
			       l->online.pre[l->online.walk.npre - 1 - h - same].key == l->online.gap[b - 1 - same].key)
				same++;
			if (same >= 2 && 2 * same >= b)
				l->pass.cur.cut_start = true;
		} else if (h > 0) {
			/* all of it looks like a layer's head and there is no
			 * preamble (a pass has one: the embedding at least) */
			l->pass.cur.cut_start = true;
		}
		l->online.walk.seen_boundary = true;
	}
	ts_lay_close_span(l);
	l->online.walk.seg = head;
	l->online.walk.tail_len = (int32_t)b;
	l->online.structural++;
	l->online.walk.pass_structural++;
}

/* Close the open span at a layer's start marker. The copies or casts
 * right before the marker (an eager norm casts to float first: at most
 * two) are the new layer's first kernels, in its figures and its listing;
 * so is bookkeeping a layer ends with (a planner the pass runs once before
 * its final norm is the tail's). */
void ts_lay_open_at_norm(ts_layers *l)
{
	uint32_t nc = 0, nm = 0;
	bool layer = ts_lay_is_layer(l, l->online.walk.seg.marks);
	while (nc < 2 && nc < l->online.walk.ngap && (l->online.gap[l->online.walk.ngap - 1 - nc].marks & M_COPY))
		nc++;
	while (layer && nm < 2 && nc < l->online.walk.ngap && (l->online.gap[l->online.walk.ngap - 1 - nc].marks & M_META)) {
		nc++;
		nm++;
	}
	if (nc > l->online.walk.seg.kernels)
		nc = (uint32_t)l->online.walk.seg.kernels;
	bool listed = nc && l->listing.track && l->listing.ndbg_cur >= nc;
	for (uint32_t i = 0; listed && i < nc; i++)
		listed = l->listing.dbg_cur[l->listing.ndbg_cur - 1 - i].layer == l->online.walk.nlayers;
	cur_layer cast = { 0 };
	if (nc)
		ts_lay_take_tail(l, l->online.gap + l->online.walk.ngap - nc, nc, &cast);
	if (listed)
		l->listing.ndbg_cur -= nc;      /* out of the span close_span lists */
	ts_lay_close_span(l);
	if (listed) {
		for (uint32_t i = 0; i < nc; i++)
			l->listing.dbg_cur[l->listing.ndbg_cur + i].layer = l->online.walk.nlayers;
		l->listing.ndbg_cur += nc;
	}
	l->online.walk.seg.ns = cast.ns;
	l->online.walk.seg.kernels = cast.kernels;
}

