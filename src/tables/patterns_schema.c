/*
 * patterns_schema.c - the pattern tables' YAML documents: the libcyaml
 * schema of kernel tables (categories, rules, operators, contexts, devices,
 * ...) and model family files, and loading one, its errors at
 * FILE:LINE:COLUMN; the *.yaml files of a directory (patterns_int.h).
 */
#include "tables/patterns_int.h"
#include "input/base/label.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define REQ CYAML_FLAG_POINTER

static const cyaml_schema_value_t str_schema = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t mixer_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_mixer, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("label", REQ, y_mixer, label, 1, TS_MIXER_LABEL_MAX - 1),
	CYAML_FIELD_STRING_PTR("says", REQ, y_mixer, says, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_mixer, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("rank", OPT, y_mixer, rank, 1, CYAML_UNLIMITED),
	CYAML_FIELD_BOOL("linear", OPT, y_mixer, linear),
	CYAML_FIELD_BOOL("default", OPT, y_mixer, is_default),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t mixer_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_mixer, mixer_fields),
};

static const cyaml_schema_field_t category_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_category, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("type", REQ, y_category, type, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_category, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("mixer", OPT, y_category, mixer, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("collective", OPT, y_category, collective, 1, CYAML_UNLIMITED),
	CYAML_FIELD_BOOL("bookkeeping", OPT, y_category, bookkeeping),
	CYAML_FIELD_BOOL("by_op", OPT, y_category, by_op),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t category_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_category, category_fields),
};

static const cyaml_schema_field_t rule_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_rule, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("match", REQ, y_rule, match, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("category", REQ, y_rule, category, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("stage", OPT, y_rule, stage, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("short", OPT, y_rule, short_tmpl, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("events", OPT, y_rule, events, &str_schema, 1, 3),
	CYAML_FIELD_BOOL("words", OPT, y_rule, words),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t rule_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_rule, rule_fields),
};

static const cyaml_schema_field_t bound_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_bound, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("match", REQ, y_bound, match, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("never", REQ, y_bound, never, &str_schema, 1, 16),
	CYAML_FIELD_STRING_PTR("description", OPT, y_bound, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t bound_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_bound, bound_fields),
};

static const cyaml_schema_field_t wkind_fields[] = {
	CYAML_FIELD_STRING_PTR("kind", REQ, y_wkind, kind, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("types", REQ, y_wkind, types, &str_schema, 1, 16),
	CYAML_FIELD_STRING_PTR("description", OPT, y_wkind, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t wkind_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_wkind, wkind_fields),
};

static const cyaml_schema_field_t operator_fields[] = {
	CYAML_FIELD_STRING_PTR("kind", REQ, y_operator, kind, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("op", OPT, y_operator, op, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("steps", OPT, y_operator, steps, &str_schema, 2, TS_SEQ_STEPS),
	CYAML_FIELD_STRING_PTR("skip", OPT, y_operator, skip, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("shapes", OPT, y_operator, shapes, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("where", OPT, y_operator, where, &str_schema, 1, TS_OP_CONDS),
	CYAML_FIELD_STRING_PTR("heads", OPT, y_operator, heads, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("ranks", OPT, y_operator, ranks, &str_schema, 1, TS_MAX_OPERANDS),
	CYAML_FIELD_STRING_PTR("workload", REQ, y_operator, workload, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("tokens", OPT, y_operator, tokens, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("flops", OPT, y_operator, flops, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("bytes", OPT, y_operator, bytes, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("dtype", OPT, y_operator, dtype, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("attends", OPT, y_operator, attends, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_operator, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t operator_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_operator, operator_fields),
};

static const cyaml_schema_field_t skip_fields[] = {
	CYAML_FIELD_STRING_PTR("match", REQ, y_skip, match, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_skip, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t skip_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_skip, skip_fields),
};

static const cyaml_schema_field_t sel_fields[] = {
	CYAML_FIELD_STRING_PTR("category", OPT, y_sel, category, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("type", OPT, y_sel, type, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("match", OPT, y_sel, match, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("weight", OPT, y_sel, weight, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t sel_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_sel, sel_fields),
};

#define SEL_SEQ(key, type, member) \
	CYAML_FIELD_SEQUENCE(key, OPT, type, member, &sel_schema, 0, CYAML_UNLIMITED)

static const cyaml_schema_field_t context_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_context, name, 1, CYAML_UNLIMITED),
	SEL_SEQ("kernels", y_context, kernels),
	CYAML_FIELD_STRING_PTR("op", OPT, y_context, op, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("callsite", OPT, y_context, callsite, 1, CYAML_UNLIMITED),
	SEL_SEQ("after", y_context, after),
	SEL_SEQ("until", y_context, until),
	CYAML_FIELD_STRING_PTR("category", REQ, y_context, category, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_context, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t context_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_context, context_fields),
};

static const cyaml_schema_field_t group_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_group, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_group, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("split", OPT, y_group, split, 1, CYAML_UNLIMITED),
	SEL_SEQ("kernels", y_group, kernels),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t group_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_group, group_fields),
};

static const cyaml_schema_field_t fusion_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_fusion, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_fusion, description, 0, CYAML_UNLIMITED),
	SEL_SEQ("fused", y_fusion, fused),
	SEL_SEQ("maybe", y_fusion, maybe),
	CYAML_FIELD_SEQUENCE("parts", OPT, y_fusion, parts, &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t fusion_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_fusion, fusion_fields),
};

static const cyaml_schema_field_t align_fields[] = {
	CYAML_FIELD_STRING_PTR("same_category", OPT, y_align, same_category, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("same_group", OPT, y_align, same_group, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fused", OPT, y_align, fused, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("join", OPT, y_align, join, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("gap", OPT, y_align, gap, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("different", OPT, y_align, different, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t peaks_fields[] = {
	CYAML_FIELD_STRING_PTR("fp32", OPT, y_peaks, fp32, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("tf32", OPT, y_peaks, tf32, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("bf16", OPT, y_peaks, bf16, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fp16", OPT, y_peaks, fp16, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fp8", OPT, y_peaks, fp8, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("int8", OPT, y_peaks, int8, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fp6", OPT, y_peaks, fp6, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("fp4", OPT, y_peaks, fp4, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t attain_fields[] = {
	CYAML_FIELD_STRING_PTR("compute", OPT, y_attain, compute, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("memory", OPT, y_attain, memory, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("source", REQ, y_attain, source, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t link_fields[] = {
	CYAML_FIELD_STRING_PTR("fabric", REQ, y_link, fabric, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("gbps", REQ, y_link, gbps, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("source", REQ, y_link, source, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t device_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_device, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("vendor", REQ, y_device, vendor, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("match", REQ, y_device, match, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("sms", OPT, y_device, sms, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("memory_gb", OPT, y_device, memory_gb, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("hbm_tbps", REQ, y_device, hbm_tbps, 1, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("tflops", REQ, y_device, tflops, peaks_fields),
	CYAML_FIELD_STRING_PTR("source", REQ, y_device, source, 1, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("attainable", OPT, y_device, attainable, attain_fields),
	CYAML_FIELD_MAPPING_PTR("links", OPT, y_device, links, link_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t device_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_device, device_fields),
};

static const cyaml_schema_field_t kernels_fields[] = {
	CYAML_FIELD_SEQUENCE("mixers", OPT, y_kernels, mixers, &mixer_schema, 0, TS_MIXERS_MAX),
	CYAML_FIELD_SEQUENCE("categories", OPT, y_kernels, categories,
			     &category_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("rules", OPT, y_kernels, rules, &rule_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("bounds", OPT, y_kernels, bounds, &bound_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("workload_kinds", OPT, y_kernels, workload_kinds, &wkind_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("operators", OPT, y_kernels, operators, &operator_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("callsite_skip", OPT, y_kernels, callsite_skip, &skip_schema, 0,
			     CYAML_UNLIMITED),
	SEL_SEQ("token_grids", y_kernels, token_grids),
	SEL_SEQ("query_grids", y_kernels, query_grids),
	SEL_SEQ("row_grids", y_kernels, row_grids),
	SEL_SEQ("step_inputs", y_kernels, step_inputs),
	SEL_SEQ("training_kernels", y_kernels, training_kernels),
	CYAML_FIELD_SEQUENCE("contexts", OPT, y_kernels, contexts, &context_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("groups", OPT, y_kernels, groups, &group_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("fusions", OPT, y_kernels, fusions, &fusion_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("align", OPT, y_kernels, align, align_fields),
	CYAML_FIELD_SEQUENCE("devices", OPT, y_kernels, devices, &device_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_END
};

const cyaml_schema_value_t ts_pat_kernels_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, y_kernels, kernels_fields),
};

static const cyaml_schema_field_t layer_fields[] = {
	SEL_SEQ("start", y_layer, start),
	SEL_SEQ("attention", y_layer, attention),
	SEL_SEQ("moe", y_layer, moe),
	SEL_SEQ("fc", y_layer, fc),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t stage_fields[] = {
	SEL_SEQ("prefill", y_stage, prefill),
	SEL_SEQ("decode", y_stage, decode),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t opset_fields[] = {
	CYAML_FIELD_SEQUENCE("required", OPT, y_opset, required, &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("optional", OPT, y_opset, optional, &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t moecfg_fields[] = {
	CYAML_FIELD_STRING_PTR("name", REQ, y_moecfg, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("experts", REQ, y_moecfg, experts, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("topk", REQ, y_moecfg, topk, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("hidden", REQ, y_moecfg, hidden, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("intermediate", REQ, y_moecfg, intermediate, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("weight_bits", OPT, y_moecfg, weight_bits, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t moecfg_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, y_moecfg, moecfg_fields),
};

static const cyaml_schema_field_t family_fields[] = {
	CYAML_FIELD_STRING_PTR("family", REQ, y_family, family, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("description", OPT, y_family, description, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("examples", OPT, y_family, examples, &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("num_hidden_layers", OPT, y_family, num_hidden_layers,
			     &str_schema, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("attention", REQ, y_family, attention, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("mlp", REQ, y_family, mlp, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("half_layers", OPT, y_family, half_layers, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("sure_score", OPT, y_family, sure_score, 1, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("layer", OPT, y_family, layer, layer_fields),
	CYAML_FIELD_MAPPING_PTR("stage", OPT, y_family, stage, stage_fields),
	SEL_SEQ("detect", y_family, detect),
	CYAML_FIELD_MAPPING_PTR("operators", OPT, y_family, operators, opset_fields),
	CYAML_FIELD_SEQUENCE("moe_configs", OPT, y_family, moe_configs, &moecfg_schema, 0, 64),
	CYAML_FIELD_END
};

const cyaml_schema_value_t ts_pat_family_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, y_family, family_fields),
};

/* --------------------------------------------------------- cyaml errors */

void ts_pat_cyaml_log(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	ts_patterns *p = ctx;
	if (level < CYAML_LOG_ERROR)
		return;
	size_t n = strlen(p->cyaml_log);
	if (n + 1 < sizeof p->cyaml_log)
		vsnprintf(p->cyaml_log + n, sizeof p->cyaml_log - n, fmt, args);
}

/*
 * libcyaml reports "Load: <what>" and then a backtrace, innermost first:
 * "  in mapping field 'k' (line: L, column: C)", "  in sequence entry 'N'
 * (...)", "  in mapping (...)". Its positions point near, not at, the
 * problem (for an unexpected key, at the previous value), so we rebuild the
 * YAML path from the backtrace and find the node with libyaml.
 */
static void report_cyaml(ts_patterns *p, const char *file, cyaml_err_t err)
{
	const char *log = p->cyaml_log;
	char what[300] = "";
	const char *w = strstr(log, "Load: ");
	if (err == CYAML_ERR_ALIAS) {
		snprintf(what, sizeof what, "YAML aliases (*name) are not accepted in pattern "
			 "tables: write the value out");
	} else if (w) {
		w += 6;
		size_t n = strcspn(w, "\n");
		snprintf(what, sizeof what, "%.*s", (int)n, w);
	} else {
		size_t n = strcspn(log, "\n");
		snprintf(what, sizeof what, "%s%.*s", err == CYAML_ERR_LIBYAML_PARSER ?
			 "YAML syntax error: " : "", (int)n, n ? log : cyaml_strerror(err));
	}
	/* Backtrace -> path (outermost first). */
	enum { MAXP = 12 };
	char keys[MAXP][100];
	ts_ypath rev[MAXP];
	int depth = 0;
	unsigned long line = 0, col = 0;
	for (const char *l = strstr(log, "  in "); l && depth < MAXP; l = strstr(l + 1, "  in ")) {
		unsigned long ln, cn;
		const char *pos = strstr(l, "(line: ");
		if (pos && sscanf(pos, "(line: %lu, column: %lu)", &ln, &cn) == 2 && line == 0)
			line = ln, col = cn;
		if (sscanf(l, "  in mapping field '%99[^']'", keys[depth]) == 1) {
			rev[depth] = (ts_ypath){ keys[depth], 0 };
			depth++;
		} else {
			unsigned idx;
			/* libcyaml counts entries from 1 */
			if (sscanf(l, "  in sequence entry '%u'", &idx) == 1 && idx > 0)
				rev[depth++] = (ts_ypath){ NULL, (int)idx - 1 };
		}
	}
	/* "Missing required mapping field" names the last field read as the
	 * innermost place: drop it to point at the mapping itself. */
	bool missing = strncmp(what, "Missing required mapping field", 30) == 0;
	int skip = missing && depth > 0 && rev[0].key ? 1 : 0;
	ts_ypath path[MAXP + 1];
	depth -= skip;
	for (int i = 0; i < depth; i++)
		path[i] = rev[depth - 1 - i + skip];
	int pl = 0, pc = 0;
	bool found = false;
	char key[100];
	if (sscanf(what, "Unexpected key: %99s", key) == 1 && depth < MAXP) {
		path[depth] = (ts_ypath){ key, 0 };
		found = ts_yaml_locate(file, path, depth + 1, true, &pl, &pc);
	} else if (strncmp(what, "libyaml: ", 9) == 0) {
		char msg[200];
		if (ts_yaml_syntax_error(file, &pl, &pc, msg, sizeof msg)) {
			snprintf(what, sizeof what, "YAML syntax error: %s", msg);
			found = true;
		}
	} else if (missing) {
		/* Point at the mapping that lacks it: the sequence entry or
		 * the value of the key around it. */
		found = depth > 0 && ts_yaml_locate(file, path, depth, false, &pl, &pc);
		if (!found)
			pl = 1, pc = 1, found = true;
	} else if (depth > 0) {
		found = ts_yaml_locate(file, path, depth, false, &pl, &pc);
	}
	if (!found) {
		pl = line ? (int)line : 1;
		pc = col ? (int)col : 1;
	}
	ts_pat_fail(p, file, pl, pc, "%s", what);
}

/* Does a backslash escape a NUL at s[i] ("\\0", "\\x00", "\\u0000",
 * "\\U00000000")? Its length past the backslash, or 0. */
static size_t nul_escape(const char *s, size_t i, size_t n)
{
	static const char *const forms[] = { "0", "x00", "u0000", "U00000000" };
	for (size_t k = sizeof forms / sizeof *forms; k-- > 0;) {
		size_t len = strlen(forms[k]);
		if (i + 1 + len <= n && memcmp(s + i + 1, forms[k], len) == 0)
			return len;
	}
	return 0;
}

/* What libcyaml would pass over without a word: a NUL (raw, or escaped
 * in a double-quoted scalar: the C string is cut there, and "a\0b"
 * matches every name holding an a) and a second document after "---"
 * (libcyaml loads the first only: its rules would never load). Each an
 * error at its LINE:COLUMN; false when one was found. */
static bool yaml_text_ok(ts_patterns *p, const char *file, const char *s, size_t n)
{
	int line = 1, col = 1;
	bool content = false, bol = true;
	for (size_t i = 0; i < n; i++) {
		if (bol) {
			size_t e = i;
			while (e < n && s[e] != '\n')
				e++;
			bool sep = e - i >= 3 && memcmp(s + i, "---", 3) == 0 &&
				   (e - i == 3 || s[i + 3] == ' ' || s[i + 3] == '\t' || s[i + 3] == '\r');
			if (sep && content) {
				ts_pat_fail(p, file, line, 1, "a second YAML document: a pattern file holds "
					    "one (libcyaml would load the first alone)");
				return false;
			}
			size_t f = i;
			while (f < e && (s[f] == ' ' || s[f] == '\t' || s[f] == '\r'))
				f++;
			content |= !sep && f < e && s[f] != '#' && s[f] != '%';
			bol = false;
		}
		if (s[i] == '\0') {
			ts_pat_fail(p, file, line, col, "a NUL byte: YAML text holds none");
			return false;
		}
		if (s[i] == '\\') {
			size_t len = nul_escape(s, i, n);
			if (len) {
				ts_pat_fail(p, file, line, col, "an escaped NUL (\\%.*s): a name or pattern "
					    "would be cut there", (int)len, s + i + 1);
				return false;
			}
			if (i + 1 < n && s[i + 1] != '\n') {
				i++;   /* the escaped character */
				col++;
			}
		}
		if (s[i] == '\n') {
			line++;
			col = 1;
			bol = true;
		} else {
			col++;
		}
	}
	return true;
}

/* The text of file (within the cap), NUL-free or not, in *n bytes; NULL
 * with the error added. */
static char *read_text(ts_patterns *p, const char *file, size_t *n)
{
	FILE *f = fopen(file, "rb");
	struct stat st;
	if (!f || fstat(fileno(f), &st) != 0) {
		ts_pat_fail(p, file, 0, 0, "%s", strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	if (st.st_size > TS_PATTERN_FILE_MAX) {
		ts_pat_fail(p, file, 0, 0, "%lld bytes: a pattern table is at most %d MB (the built-in "
			    "ones are a few KB)", (long long)st.st_size, TS_PATTERN_FILE_MAX >> 20);
		fclose(f);
		return NULL;
	}
	/* one byte more than its size: a file that grew is not read in part */
	size_t want = (size_t)st.st_size + 1;
	char *text = malloc(want);
	*n = text ? fread(text, 1, want, f) : 0;
	bool whole = text && !ferror(f) && *n < want;
	fclose(f);
	if (!whole) {
		ts_pat_fail(p, file, 0, 0, "%s", !text ? "out of memory" : "cannot read it whole");
		free(text);
		return NULL;
	}
	return text;
}

void *ts_pat_load_doc(ts_patterns *p, const char *file, const cyaml_schema_value_t *schema)
{
	void *doc = NULL;
	/* the text first, then libcyaml on the same bytes */
	size_t n;
	char *text = read_text(p, file, &n);
	if (!text)
		return NULL;
	if (!yaml_text_ok(p, file, text, n)) {
		free(text);
		return NULL;
	}
	p->cyaml_log[0] = '\0';
	cyaml_err_t err = cyaml_load_data((const uint8_t *)text, n, &p->cyaml, schema,
					  (cyaml_data_t **)&doc, NULL);
	free(text);
	if (err != CYAML_OK) {
		report_cyaml(p, file, err);
		return NULL;
	}
	return doc;
}

/* ------------------------------------------------------------ directories */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.yaml files of dir, sorted; at most max. */
size_t ts_pat_list_yaml(ts_patterns *p, const char *dir, char **out, size_t max)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < max) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 6 ||
		    (strcmp(e->d_name + len - 5, ".yaml") != 0 &&
		     strcmp(e->d_name + len - 4, ".yml") != 0))
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		const char *what = ts_path_not_regular(path);
		if (what) {   /* named as a table, no file to read */
			ts_pat_fail(p, path, 0, 0, "%s, no pattern file", what);
			continue;
		}
		out[n] = strdup(path);
		if (out[n])
			n++;
	}
	closedir(d);
	qsort(out, n, sizeof *out, cmp_str);
	return n;
}

bool ts_pat_is_dir(const char *path)
{
	struct stat sb;
	return path && *path && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}
