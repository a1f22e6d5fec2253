/*
 * pstage.h - the stage of a forward pass: prefill, decode, a mixed batch,
 * or unknown (no evidence).
 */
#ifndef TS_PSTAGE_H
#define TS_PSTAGE_H

typedef enum {
	TS_PSTAGE_PREFILL, TS_PSTAGE_DECODE, TS_PSTAGE_MIXED, TS_PSTAGE_UNKNOWN,
	TS_PSTAGE_COUNT
} ts_pstage;

const char *ts_pstage_name(ts_pstage s);

#endif
