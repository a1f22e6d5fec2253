/*
 * parser_int.h - the streaming parser's own state, shared by its two files
 * and no one else: parser.c (the yajl callbacks: what each key and value
 * of an event does) and parser_feed.c (bytes to yajl, the lexical guard,
 * failures and their offsets).
 */
#ifndef TS_PARSER_INT_H
#define TS_PARSER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <yajl/yajl_parse.h>

#include "input/lexguard.h"
#include "input/parser.h"

/* Containers we track by role; anything deeper or elsewhere is R_SKIP. */
typedef enum {
	R_NONE, R_TOP, R_EVENTS, R_EVENT, R_ARGS, R_GRID, R_BLOCK,
	R_DIMS, R_DIM, R_TYPES, R_CONC, R_DEVPROPS, R_DEVPROP, R_DIST, R_SKIP
} role;

/* Keys we act on, per containing role. */
typedef enum {
	K_OTHER,
	/* top level */
	K_TRACE_EVENTS, K_DEVPROPS, K_DIST, K_BASE_TIME, K_NVIDIA_VER, K_AMD_VER,
	/* event */
	K_PH, K_CAT, K_NAME, K_TS, K_DUR, K_PID, K_TID, K_ID, K_ARGS,
	/* args */
	K_DEVICE, K_STREAM, K_CORRELATION, K_EXTERNAL_ID, K_BYTES, K_GRID, K_BLOCK,
	K_KERNEL,
	K_INPUT_DIMS, K_INPUT_TYPE, K_CONCRETE, K_COLLECTIVE,
	K_IN_NELEMS, K_OUT_NELEMS, K_GROUP_SIZE, K_MSG_DTYPE,
	K_MEM_ALLOC, K_MEM_RESERVED, K_MEM_BYTES, K_MEM_DEVICE, K_MEM_DEVTYPE, K_MEM_ADDR,
	/* deviceProperties item */
	K_DEV_ID, K_DEV_NAME, K_DEV_SMS, K_DEV_MEM, K_DEV_WARP, K_DEV_MPC,
	/* distributedInfo */
	K_RANK, K_WORLD_SIZE,
} key;

/*
 * What the next scalar does, decided once when its key arrives (maps) or
 * its container opens (arrays), so most scalars cost one test: A_SKIP for
 * values nobody reads, a direct store for the fields on every event, and
 * A_SLOW (on_scalar, which handles every case) for the rest.
 */
typedef enum {
	A_SKIP, A_SLOW, A_DIM, A_PH, A_CAT, A_NAME, A_TS, A_DUR, A_ID, A_PID,
	A_TID, A_ARG_NUM, A_GRID, A_BLOCK, A_TYPE, A_CONC, A_KNAME, A_COLL, A_MSG_DTYPE,
} action;

#define MAX_DEPTH 8
#define HOLD_AT 256            /* an open string this long at a chunk end... */
#define HOLD_BUF (64 * 1024)   /* ...has small chunks gathered to this size */

struct ts_parser {
	yajl_handle h;
	ts_event_fn fn;
	void *ud;
	ts_meta *meta;
	int depth;                 /* open containers */
	role roles[MAX_DEPTH];
	role cur;                  /* role of the innermost container */
	key cur_key;               /* last key of the innermost tracked map */
	action act;                /* what the next scalar does */
	int arr_idx;               /* position in grid/block arrays */
	bool top_seen;
	ts_event ev;               /* event under construction */
	char *name;                /* TS_NAME_MAX bytes */
	char *kname;               /* TS_NAME_MAX bytes: a launch's args.kernel */
	uintptr_t lent_lo, lent_hi;   /* bytes whose strings may be borrowed */
	ts_parser_stats stats;
	uint64_t fed;              /* bytes fed before the current span */
	unsigned char head[8];     /* the input's first bytes, to say what they are */
	size_t nhead;
	uint64_t cancel_off;       /* where a cancelling callback points, or 0 */
	ts_lexguard lx;            /* lexical position at the end of the span */
	bool cutting;              /* dropping the rest of an over-long string */
	bool cut_begun;            /* ...and the escape yajl had begun is done */
	bool closed;               /* an event closed in the current span */
	size_t close_at;           /* span bytes yajl had taken at that close */
	char *held;                /* HOLD_BUF bytes gathered for yajl, or NULL */
	size_t nheld;
	char *fix;                 /* a span with its raw control bytes read as '?' */
	size_t fix_cap;
	ts_error e;                /* why we stopped, and at which byte */
};

extern const yajl_callbacks ts_prs_callbacks;

/* Stop the parse with st and msg (returns 0, yajl's "cancel"). */
int ts_prs_cancel(ts_parser *p, ts_status st, const char *msg);

/* A number longer than TS_NUMBER_MAX starting at byte offset start. */
int ts_prs_number_too_long(ts_parser *p, uint64_t start);
/* The event under construction emptied, its name buffers in place. */
void ts_prs_reset_event(ts_parser *p);
/* What a scalar does in a container of role r before any key. */
action ts_prs_role_action(role r);

#endif
