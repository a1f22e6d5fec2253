/*
 * model.h - what model a trace comes from: described from what ran, and a
 * family of the tables where the evidence agrees.
 *
 * Each family's `detect` rules (patterns/models/NAME.yaml) are selectors with
 * weights; a rule counts once if any distinct kernel in the trace matches
 * it. The family with the highest positive score wins; a tie names both and
 * picks neither; scores of zero or less give no family. After the run the
 * family must also fit what ran (ts_model_check): its layer count among
 * its num_hidden_layers, MoE or dense, hybrid or not; where it does not,
 * no family is named and the model is described instead ("a dense
 * hybrid: 48 linear-attention (GDN) + 16 attention layers"). MoE is said
 * only where MoE ran: expert routing or grouped-expert kernels, MoE
 * layers, or an expert all-to-all. --model NAME skips detection and checks.
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
	const ts_family *tie;      /* source "tie": scored as much as runner_up */
	const ts_family *unlike;   /* source "unlike": detected, but unlike what ran */
	char unlike_why[200];
	long unlike_score;
	char described[240];       /* what ran: "a dense hybrid: ..."; "" no layers */
	bool moe;                  /* MoE ran */
	/* the attention's heads, where its ops' shapes gave them (the
	 * workload of most time): kind "GQA", "MQA" or "MHA"; NULL unknown */
	const char *attn_kind;
	long attn_heads, attn_kv;
	bool attn_per_rank;        /* of one rank of several (tensor parallel) */
} ts_model;

/* forced: a family name given by the user, or NULL. TS_ERR_USAGE when the
 * name is not a known family. */
ts_status ts_model_choose(const ts_patterns *p, const ts_agg *a,
			  const char *forced, ts_model *out);

/* After the run (l finished): describe the model from the layers and
 * kernels that ran, and drop a detected family that does not fit them. */
struct ts_layers;
void ts_model_check(ts_model *m, const ts_patterns *p, const ts_agg *a,
		    const struct ts_layers *l);

/* The attention's kind from its recorded shapes (the attention workload
 * with most time: query heads against KV heads), said in m->described;
 * nothing where no attention op had shapes. world: the trace's world size
 * (its ranks hold shares of the heads), 1 or less alone. */
struct ts_attrib;
void ts_model_attention(ts_model *m, const struct ts_attrib *at, int64_t world);

/* "type moe", "category Norm-QK", "match 'regex'": for reports. */
void ts_selector_describe(const ts_patterns *p, const ts_selector *s, char *buf,
			  size_t len);

/* The layers per pass the model's family expects (ts_layers_expected with
 * its family, whether it was forced, its score); why in why. */
long ts_model_expected_layers(const struct ts_layers *l, const ts_model *m, char *why, size_t n);

/* What the layers say against the model: complete passes with another
 * layer count than the family's, layers far off the typical one (the
 * kernel that made it, by a's classes), the annotations and passes past
 * their caps; as warnings. */
void ts_layers_warnings(const struct ts_layers *l, const ts_model *m, const ts_agg *a,
			ts_warns *w);

#endif
