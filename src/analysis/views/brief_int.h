/*
 * brief_int.h - what brief.c (the record and most of its sections) hands
 * brief_pass.c (the time per pass by stage): the record being built, the
 * helpers that add a statement to it, and a stage's passes as the first
 * screen counts them.
 */
#ifndef TS_BRIEF_INT_H
#define TS_BRIEF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/views/brief.h"
#include "input/base/timefmt.h"

typedef struct {
	ts_brief *b;
	const ts_result *res;
	const ts_brief_opts *o;
	const ts_kview *v;
	const ts_breakdown *bd;
} bf_build;

/* A statement at the end of the record, its text from fmt; NULL where
 * memory ran out (b->nomem says so, and the helpers below take NULL). */
ts_brief_stmt *bf_add(bf_build *s, ts_brief_section sec, ts_brief_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* head and text broken at the layout's width, the next lines indented ind. */
ts_brief_stmt *bf_wrap(bf_build *s, ts_brief_section sec, const char *head, const char *text,
		       int ind);
/* What st says instead of its text when `when` holds. */
void bf_alt(bf_build *s, ts_brief_stmt *st, ts_brief_alt when, const char *text);
/* A figure st rests on, its JSON field from fmt ("" none). */
void bf_figure(ts_brief_stmt *st, double value, const char *unit, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Under --stage, only that stage's rows. */
bool bf_shown_stage(const ts_brief_opts *o, int st);

/* A stage's passes as the per-pass row counts them: complete passes only,
 * the partial ones (cut by the profile window) counted beside them. When
 * there is no complete pass, the partial ones, marked so. */
typedef struct {
	uint32_t n, partial;
	uint32_t drafts, draft_layers;   /* a speculative draft's forwards */
	uint8_t draft_by;                /* what told them from the target */
	bool of_partials;
	int64_t gpu_ns;
	ts_idle_pass idle;
} bf_pass_sum;

void bf_stage_passes(const ts_layers *l, int st, bf_pass_sum *ps);

/* The time per pass by stage, busy and idle (brief_pass.c). */
void bf_pass_times(bf_build *s);

#endif
