/*
 * attrib_int.h - attribution's own state, shared by its files and by no
 * one else: attrib.c (the joins: CPU ops, runtime launches, kernels,
 * captured graph nodes), attrib_results.c (the ops and workloads tables
 * reports read) and attrib_wire.c (their part of a saved partial).
 */
#ifndef TS_ATTRIB_INT_H
#define TS_ATTRIB_INT_H

#include "analysis/attrib/attrib.h"
#include "input/base/intern.h"
#include "input/base/satmath.h"
#include "analysis/attrib/opindex.h"

#define M_MASK 0x7fffffffu

/*
 * A small open-addressed table int64 -> int64 without deletion (a resolved
 * entry keeps its slot with val TS_GONE). Two generations make it a bounded
 * window: when the young one is full the old one is retired.
 */
#define TS_GONE INT64_MIN

typedef struct {
	uint64_t *key;           /* key + 1 (keys 0 .. INT64_MAX); 0 empty */
	int64_t *val;
	uint32_t *cnt;           /* kernels summed in val (a graph replays many) */
	size_t cap, n;
	size_t max;              /* cap grows by doubling up to max */
} corr_table;

#define CT_FIRST_CAP 1024

/* The ops that launched a kernel row's calls: a space-saving top 4 (exact
 * for up to four ops; an op with over a quarter of the calls is always
 * kept). The parent op is the one with most calls; of those tied, the one
 * that launched the earliest call. */
#define PARENT_TOP 4
typedef struct {
	uint32_t op[PARENT_TOP];
	uint32_t n[PARENT_TOP];      /* calls (0: an empty slot) */
	uint32_t first[PARENT_TOP];  /* the row's call count when it came in */
	uint32_t calls;
} parent_vote;

/* The most frequent call sites of a row: a space-saving top 4. */
#define CS_TOP TS_ATTRIB_CALLSITES
typedef struct {
	uint32_t id[CS_TOP];
	uint64_t w[CS_TOP];
} cs_top;

/* Per op name: its bucket, the operator rules its name matches (computed
 * once), its call sites. */
typedef struct {
	uint8_t via;             /* ts_attr_bucket */
	uint8_t ncand;
	uint16_t cand[6];        /* operator rule indexes, in rule order */
	uint8_t seq_skip;        /* bit s: the skip of sequence s matches */
	uint64_t seq_step;       /* bit s * 8 + k: step k of sequence s matches */
	cs_top cs;
} name_info;

/*
 * Per CPU thread: the tokens of its latest GEMM (T in expressions: a QK
 * norm over tokens x heads rows learns its tokens from the QKV GEMM before
 * it) and the sequence rules in progress. Fixed: TS_THREADS threads, the
 * least recently seen one is forgotten for a new one.
 */
#define TS_THREADS 8
#define SEQ_MEMBERS 48

typedef struct {
	uint8_t k;               /* steps matched; 0: none */
	uint8_t nmem;
	uint16_t heads;
	int64_t end;             /* end of the latest step or skipped op */
	uint32_t wl, m;
	uint64_t flops, bytes;
	int64_t mem[SEQ_MEMBERS]; /* External ids of the ops so far; [0] step 0 */
} seq_try;

typedef struct {
	int64_t tid;
	uint64_t seen;           /* 0: free */
	uint32_t tokens;         /* T */
	seq_try s[TS_SEQ_RULES];
} thread_state;

/*
 * Workloads of recent shapes. Decode steps repeat the same op with the same
 * shapes thousands of times; the template evaluation (about 2,000
 * instructions) is remembered under a key made of the op's name row and
 * every event field the templates and rules read (operand ranks, dims,
 * dtypes, concrete inputs), compared whole, so a hit gives exactly the
 * result the evaluation would. Fixed size: WL_MEMO_SLOTS direct-mapped.
 */
#define WL_MEMO_SLOTS 256
#define WL_MEMO_KEY 800     /* 4 + 4 + 1 + 8 * (1 + 6 * 8) + 1 + 8 * 24 + 2 + 16 * 8 < 800 */

typedef struct {
	uint32_t len;            /* 0: empty */
	uint32_t wl;             /* workload row, or TS_INTERN_NONE */
	uint32_t m;              /* M after the rule (it depends on the key only) */
	uint16_t heads;
	uint64_t flops, bytes;   /* of the call, 0 unknown */
	unsigned char key[WL_MEMO_KEY];
} wl_memo;

struct ts_attrib {
	const ts_patterns *patterns;
	const ts_meta *meta;     /* the trace's facts (W), or NULL */
	size_t join_mem;
	ts_opindex *ops;         /* External id -> op record */
	ts_intern *names;
	ts_op_row *rows[TS_ATTRIB_VIEWS];
	name_info *info;
	size_t rows_cap[TS_ATTRIB_VIEWS], info_cap;
	ts_intern *wl_names;     /* "NAME\\x1fDTYPE" */
	ts_wl_row *wl[TS_ATTRIB_VIEWS];
	size_t wl_cap[TS_ATTRIB_VIEWS];
	uint32_t *wl_rule;
	size_t wl_rule_cap;
	wl_memo *memo;           /* WL_MEMO_SLOTS */
	parent_vote *parent;     /* per kernel row */
	size_t parent_cap;
	corr_table rt[2];        /* runtime correlation -> rt_pack(); [0] young */
	corr_table wait[2];      /* kernels waiting for their launch: dur */
	uint32_t unlinked_row;
	ts_callsites *cs;
	uint16_t seq_rule[TS_SEQ_RULES]; /* sequence s: its operator rule */
	int nseq;
	thread_state *th;        /* TS_THREADS */
	uint64_t th_clock;
	ts_capmap *rec;          /* recording a capture trace, or NULL */
	/* per node of the capture map in use: its op row, workload row and
	 * call site here, made when a replayed kernel first needs them */
	const ts_capmap *cap_map;
	uint32_t (*cap_ids)[3];
	size_t cap_ids_n;
	ts_attrib_totals t;
};

/* --- shared between attribution's files --- */
/* ts_att_name_row_h: with s's ts_hash_bytes already made (0: make it). */
uint32_t ts_att_name_row_h(ts_attrib *a, const char *s, size_t len, uint64_t hash,
			   ts_attr_bucket via);
static inline uint32_t ts_att_name_row(ts_attrib *a, const char *s, size_t len,
				       ts_attr_bucket via)
{
	return ts_att_name_row_h(a, s, len, 0, via);
}
ts_op_row *ts_att_op_row(ts_attrib *a, int view, uint32_t name);
ts_wl_row *ts_att_wl_row(ts_attrib *a, int view, uint32_t wl);
/* Count n calls of op in a row's parent ops (first: the row's call count
 * when the first of them came). */
void ts_att_parent_add(parent_vote *v, uint32_t op, uint32_t n, uint32_t first);
void ts_att_vote_callsite(cs_top *t, uint32_t cs, uint64_t w);

#endif
