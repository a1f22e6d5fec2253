/*
 * model.h - which model family a trace comes from.
 *
 * Each family's `detect` rules (patterns/models/NAME.yaml) are selectors with
 * weights; a rule counts once if any distinct kernel in the trace matches
 * it. The family with the highest positive score wins; ties and scores of
 * zero or less give no family. --model NAME skips detection.
 */
#ifndef TS_MODEL_H
#define TS_MODEL_H

#include "analysis/agg.h"
#include "tables/patterns.h"

#define TS_EVIDENCE_MAX 8

typedef struct {
	const ts_family *family;   /* NULL: unknown */
	const char *source;        /* "detected", "forced" or "none" */
	long score;
	const ts_family *runner_up;
	long runner_up_score;
	int nevidence;             /* the winning family's matched rules */
	const ts_selector *evidence[TS_EVIDENCE_MAX];
} ts_model;

/* forced: a family name given by the user, or NULL. TS_ERR_USAGE when the
 * name is not a known family. */
ts_status ts_model_choose(const ts_patterns *p, const ts_agg *a,
			  const char *forced, ts_model *out);

/* "type moe", "category Norm-QK", "match 'regex'": for reports. */
void ts_selector_describe(const ts_patterns *p, const ts_selector *s, char *buf,
			  size_t len);

#endif
