/*
 * unit_int.h - what the unit finder's files share (unit.c: the keys, the
 * alignments, the grid and the layout; unit_phase.c: where a layer starts
 * inside the period). Not for other stages: unit.h is the interface.
 */
#ifndef TS_UNIT_INT_H
#define TS_UNIT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/structure/unit.h"
#include "input/base/grow.h"

#define BAND 8                  /* edits an edge walk allows either way */
#define MAX_CELLS (4u << 20)    /* alignment cells, beyond: approximate */
#define NEAR 0.85               /* one kind, up to a kernel or two */

typedef struct {
	const uint32_t *k;
	uint32_t n;
	uint32_t at;             /* where it starts in the pass */
} slice;

typedef struct {
	uint32_t nblock;         /* keys in the repeating block */
	uint32_t first;          /* first position of the anchor */
	uint32_t key;            /* the anchor */
} cand;

/* The questions a search asked of the durations (as_long: is the kernel
 * at i about as long as the one at ref?) and their answers, in order. */
typedef struct {
	uint32_t *ask;           /* 2 x n: i, ref */
	uint8_t *said;
	size_t n, cap;
	bool over;               /* more than it may hold */
} unit_asks;

/* The last search, to answer a pass just like it without searching
 * (unit_memo.c): its keys and marks, what it found, and what it asked of
 * the durations. The search is a function of the keys, the marks and
 * those answers alone, so the same keys and marks, and the same answers
 * from the new durations, give the same result. */
typedef struct {
	bool valid, found, names, durs;
	size_t n, cap;
	uint32_t *key;
	uint8_t *mark;
	ts_unit_result out;
	unit_asks asks;
} unit_memo;

/* The pass folded (unit_fold.c): each run of a loop body kept once, and
 * for each folded kernel its index in the pass; the first search's layers
 * kept while the folded one runs. */
typedef struct {
	uint32_t *key, *map;
	uint8_t *mark;
	int64_t *dur;
	size_t cap;
	uint32_t *keep;
	size_t keep_cap;
	bool active;             /* the search runs on the folded pass */
} unit_fold;

struct ts_unit {
	size_t n;                /* the pass */
	const uint8_t *mark;     /* NULL: no names */
	const int64_t *dur;      /* NULL: no durations */
	uint32_t *id;            /* n: dense key ids */
	size_t id_cap;
	uint32_t nk;             /* distinct keys */
	uint32_t *cnt, *off, *first, *fill;   /* per key */
	uint8_t *cls, *inref;    /* per key: class by name, in the reference */
	size_t key_cap;
	uint32_t *pos;           /* n: positions, by key */
	size_t pos_cap;
	uint32_t *htab;          /* remap: key + 1 -> id + 1 */
	size_t hcap;
	uint32_t *hkey;
	uint32_t *byc;           /* keys sorted by count, then gap hash */
	uint64_t *gh;            /* per key: gap hash */
	cand *cands;
	size_t cands_cap;
	uint32_t *kind;          /* per segment: its kind (index of its first) */
	size_t kind_cap;
	uint32_t *B;             /* v - 1 boundaries */
	size_t B_cap;
	uint32_t *start, *end;
	size_t out_cap;
	uint32_t grid_lo, grid_hi;   /* the grid's first and last anchor */
	int32_t *dp;             /* alignment scratch */
	size_t dp_cap;
	uint32_t *map;           /* lcs_map output */
	size_t map_cap;
	uint8_t *dir;            /* lcs traceback */
	size_t dir_cap;
	unit_memo memo;
	unit_fold fold;
	unit_asks *asking;       /* the search's questions go here (memo) */
};

/* A template read in walking order: t[j % n], or reversed. */
typedef struct {
	slice s;
	bool rev;
} tpl;

typedef struct {
	uint32_t keys, cols;     /* kernels and template columns covered */
	int32_t score;           /* match +2, same class +1, else -2; a skipped
				  * kernel -2, a skipped column -1 */
} walked;

/* A scratch array of the finder's with room for need elements. */
static inline bool ts_unit_grow(void *arr, size_t *cap, size_t need, size_t elem)
{
	return ts_grow((void **)arr, cap, need ? need : 1, elem, 64, SIZE_MAX / 16, false);
}

/* How alike (unit_align.c): the longest common subsequence of a and b
 * (beyond MAX_CELLS the multiset overlap), over the longer's length
 * (likeness); for each index of a the index of b it aligns with, in
 * u->map (lcs_map: false when too large); the longest run both hold in a
 * row and where it starts in each, the latest in a of the longest (run_at;
 * ia, ib may be NULL); the same keys in the same order. */
uint32_t ts_unit_lcs(ts_unit *u, slice a, slice b);
double ts_unit_likeness(ts_unit *u, slice a, slice b);
bool ts_unit_lcs_map(ts_unit *u, slice a, slice b);
uint32_t ts_unit_run_at(ts_unit *u, slice a, slice b, uint32_t *ia, uint32_t *ib);
uint32_t ts_unit_common_run(ts_unit *u, slice a, slice b);
bool ts_unit_same(slice a, slice b);

/* Align up to maxcols columns of t against the kernels from frm stepping
 * step (+1, -1), edits within BAND (unit_align.c). */
walked ts_unit_walk(ts_unit *u, tpl t, size_t frm, int step, uint32_t maxcols, bool names);

/* The phase (unit_phase.c): the column of the reference segment r where a
 * layer starts, by name (-1: names do not say), by structure (o: the
 * anchors, no of them; *alt another phase the structure allows, or
 * UINT32_MAX), and the names' start snapped to the norm nearest the
 * structure's where r holds no attention by name. */
int32_t ts_unit_names_beta(const ts_unit *u, slice r);
uint32_t ts_unit_structural_beta(ts_unit *u, const uint32_t *o, size_t no, slice r, uint32_t *alt);
bool ts_unit_has_attn(const ts_unit *u, slice r);
uint32_t ts_unit_nearest_norm(const ts_unit *u, slice r, uint32_t sb, uint32_t dflt);
/* Offset b of a boundary in segment s, moved to where r's pair around
 * column beta runs (within two kernels) when s's kernel at b is not r's. */
uint32_t ts_unit_near_pair(slice s, slice r, uint32_t beta, uint32_t b);

/* unit_phase.c: is the kernel at i about as long as its counterpart at
 * ref (the durations' one question; as_long also records it). */
bool ts_unit_as_long(const ts_unit *u, size_t i, size_t ref);

/* unit_keys.c: dense ids for the n keys (u->n), their counts, first
 * places, classes and places in order; false when out of memory. */
bool ts_unit_index_keys(ts_unit *u, const uint32_t *key);

/* unit.c: room for n layers in start and end; does [from, to) begin at a
 * norm by name (past its cast)? */
bool ts_unit_out_room(ts_unit *u, size_t n);
/* A layer [from, to) put before the nl laid out (side 0) or after them
 * (1); false when out of memory. */
bool ts_unit_put_edge(ts_unit *u, size_t nl, int side, size_t from, size_t to);
bool ts_unit_normed_at(const ts_unit *u, size_t from, size_t to);
/* unit_named.c: layers by name at the edges of the nl laid out (L: the
 * reference's length); false when out of memory. */
bool ts_unit_grow_named(ts_unit *u, size_t *pnl, uint32_t L);
/* ... does [from, to) run a mixer, MLP work, then a mixer (two layers)? */
bool ts_unit_two_mixers(const ts_unit *u, size_t from, size_t to);
/* ... and where the later of the two layers begins (its input norm), 0
 * none. */
size_t ts_unit_later_start(const ts_unit *u, size_t from, size_t to);
/* ... where a layer walked back to from, before at, begins by name (its
 * input norm within lim kernels before from; from when none). */
size_t ts_unit_named_start(const ts_unit *u, size_t from, size_t at, size_t lim);
/* ... and an edge layer's two halves taken as two layers, joined. */
void ts_unit_join_halves(ts_unit *u, size_t *pnl);
/* ... and an edge unit holding two layers' mixers by name split in two
 * at the later one's input norm; false when out of memory. */
bool ts_unit_split_edges(ts_unit *u, size_t *pnl);

/* unit_grid.c: the candidate anchors of v runs (u->cands[0..*nc), best
 * first; gk: scratch for u->nk keys), and an anchor's runs o[0..v) with a
 * stray run at an edge left out (false: the run beside the edge is the
 * odd one, no anchor at all). */
typedef struct {
	uint64_t h;              /* hash of the gaps between its runs */
	uint32_t first, key;
} ts_unit_gkey;
bool ts_unit_candidates(ts_unit *u, uint32_t v, ts_unit_gkey *gk, size_t *nc);
bool ts_unit_stray_ends(ts_unit *u, const uint32_t **o, uint32_t *v);

/* unit.c: the search itself, on u->n kernels of key (u->mark, u->dur). */
bool ts_unit_search(ts_unit *u, const uint32_t *key, bool names, ts_unit_result *out);
/* unit_fold.c: the search again on the pass with its loops folded, when
 * the first found no layers or left half a layer or more at an edge; its
 * layers (in the pass's kernels) when there are more of them. The pass's
 * own index of kernel i of the pass searched; the folded arrays freed. */
bool ts_unit_refold(ts_unit *u, const uint32_t *key, bool found, ts_unit_result *out);
size_t ts_unit_own_index(const ts_unit *u, size_t i);
void ts_unit_fold_free(ts_unit *u);

/* unit_memo.c: the last search's result for the same pass (keys, marks,
 * u->dur's answers): 1 found, 0 not, -1 no memo. begin / end frame a
 * search that makes the next memo. */
int ts_unit_memo_find(ts_unit *u, const uint32_t *key, const uint8_t *mark, size_t n,
		      ts_unit_result *out);
void ts_unit_memo_begin(ts_unit *u);
void ts_unit_memo_end(ts_unit *u, const uint32_t *key, const uint8_t *mark, size_t n, bool found,
		      const ts_unit_result *out);
void ts_unit_asked(unit_asks *a, size_t i, size_t ref, bool said);
void ts_unit_memo_free(unit_memo *m);

#endif
