/*
 * patterns_regex.c - the tables' regular expressions: PCRE2, compiled once
 * with the limits that keep a pathological pattern from backtracking for
 * seconds, matched without allocation (patterns_int.h).
 */
#include "tables/patterns_int.h"
#include "input/base/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Compile a regex; on error report it at the value's position plus the
 * offset PCRE2 gives (the value's column is that of its opening quote when
 * quoted: close enough to point at the problem). */
ts_regex *ts_pat_compile_flags(ts_patterns *p, const char *src, uint32_t flags,
			       const char *file, const ts_ypath *path, int depth)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED, flags,
				       &code, &off, NULL);
	if (!re) {
		PCRE2_UCHAR buf[256];
		pcre2_get_error_message(code, buf, sizeof buf);
		ts_pat_error_at(p, file, path, depth, (int)off,
			 "invalid regex '%s': %s (at offset %zu)", src, (char *)buf,
			 (size_t)off);
		return NULL;
	}
	ts_regex *r = calloc(1, sizeof *r);
	if (!r || !ts_grow((void **)&p->regexes, &p->regexes_cap, p->nregexes + 1,
			 sizeof(void *), 32, SIZE_MAX, false)) {
		free(r);
		pcre2_code_free(re);
		ts_pat_fail(p, file, 0, 0, "out of memory");
		return NULL;
	}
	r->code = re;
	r->src = src;
	r->file = file;
	r->depth = depth < 6 ? depth : 6;
	memcpy(r->path, path, (size_t)r->depth * sizeof *path);
	atomic_init(&r->limit_hits, 0);
	atomic_init(&r->limit_len, 0);
	p->regexes[p->nregexes++] = r;
	return r;
}

ts_regex *ts_pat_compile(ts_patterns *p, const char *src, const char *file,
			 const ts_ypath *path, int depth)
{
	return ts_pat_compile_flags(p, src, 0, file, path, depth);
}

/* Match data is made per call, not kept in the regex, so that tables can be
 * shared by analyses running in several threads. Matching happens once per
 * distinct kernel name, never per event. */
int ts_regex_match(const ts_regex *re, const char *s, size_t len, size_t *ov,
		   int ov_pairs)
{
	ts_regex *rw = (ts_regex *)re;   /* only the atomic counters change */
	if (atomic_load(&rw->limit_hits))
		return 0;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re->code, NULL);
	pcre2_match_context *mc = pcre2_match_context_create(NULL);
	if (!md || !mc) {
		pcre2_match_data_free(md);
		pcre2_match_context_free(mc);
		return 0;
	}
	pcre2_set_match_limit(mc, TS_REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(mc, TS_REGEX_DEPTH_LIMIT);
	int rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, 0, md, mc);
	pcre2_match_context_free(mc);
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT) {
		if (atomic_fetch_add(&rw->limit_hits, 1) == 0)
			atomic_store(&rw->limit_len, len);
	}
	if (rc <= 0) {
		pcre2_match_data_free(md);
		return 0;
	}
	PCRE2_SIZE *v = pcre2_get_ovector_pointer(md);
	uint32_t n = pcre2_get_ovector_count(md);
	int pairs = (int)n < ov_pairs ? (int)n : ov_pairs;
	for (int i = 0; i < pairs; i++) {
		bool unset = v[2 * i] == PCRE2_UNSET;
		ov[2 * i] = unset ? 0 : v[2 * i];
		ov[2 * i + 1] = unset ? 0 : v[2 * i + 1];
	}
	pcre2_match_data_free(md);
	return pairs > 0 ? pairs : 1;
}

int ts_pat_capture_count(const ts_regex *re)
{
	uint32_t n = 0;
	pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &n);
	return (int)n;
}
