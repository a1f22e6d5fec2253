/*
 * report.c - the reporters' front: a finished ts_result to the format
 * asked for (text, JSON, CSV, HTML, XLSX), and the warnings after it (see
 * report.h).
 */
#include "report/report.h"
#include "input/hash.h"
#include "analysis/satmath.h"
#include "analysis/views/roofline.h"
#include "analysis/stat.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

ts_kview ts_report_view(const ts_result *res, const ts_report_opts *o)
{
	return ts_kview_of(res, o && o->filter_stage, o ? o->stage : TS_PSTAGE_UNKNOWN);
}

size_t ts_utf8_len(const unsigned char *s, size_t n)
{
	size_t need;
	if (n == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4;
	else
		return 0;
	if (n < need)
		return 0;
	for (size_t i = 1; i < need; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* the second byte's range: no overlong form, surrogate or past U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return need;
}

void ts_fmt_us(char *buf, size_t n, int64_t ns)
{
	uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	snprintf(buf, n, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", u / 1000,
		 (unsigned)(u % 1000));
}

const ts_devprop *ts_report_devprop(const ts_result *res)
{
	return ts_result_devprop(res);
}

typedef struct {
	const char *s;
	uint32_t row;
} short_key;

static int by_short(const void *pa, const void *pb)
{
	const short_key *a = pa, *b = pb;
	int c = strcmp(a->s, b->s);
	return c ? c : (a->row > b->row) - (a->row < b->row);
}

char (*ts_report_short_names(const ts_agg *a))[TS_SHORT_MAX + 1]
{
	uint32_t n = ts_intern_count(a->names);
	char (*out)[TS_SHORT_MAX + 1] = calloc(n + 1, sizeof *out);
	short_key *k = malloc((n + 1) * sizeof *k);
	if (!out || !k) {
		free(out);
		free(k);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		memcpy(out[i], a->classes[i].short_name, sizeof out[i]);
		k[i] = (short_key){ a->classes[i].short_name, i };
	}
	qsort(k, n, sizeof *k, by_short);
	for (uint32_t i = 0; i < n; i++) {
		bool dup = (i > 0 && strcmp(k[i].s, k[i - 1].s) == 0) ||
			   (i + 1 < n && strcmp(k[i].s, k[i + 1].s) == 0);
		if (!dup)
			continue;
		size_t len;
		const char *full = ts_intern_str(a->names, k[i].row, &len);
		unsigned h = (unsigned)(ts_hash_bytes(full, len) & 0xffff);
		char *dst = out[k[i].row];
		size_t keep = strlen(dst);
		if (keep > TS_SHORT_MAX - 6)
			keep = TS_SHORT_MAX - 6;
		snprintf(dst + keep, TS_SHORT_MAX + 1 - keep, " ~%04x", h);
	}
	free(k);
	return out;
}

void ts_report_op_label(const ts_attrib *a, size_t i, char *buf, size_t n)
{
	size_t len;
	const char *name = ts_attrib_op_name(a, i, &len);
	switch (ts_attrib_op_via(a, i)) {
	case TS_ATTR_GRAPH:
		snprintf(buf, n, "[graph] %.*s", (int)len, name);
		break;
	case TS_ATTR_LAUNCH:
		snprintf(buf, n, "[launch] %.*s", (int)len, name);
		break;
	default:
		snprintf(buf, n, "%.*s", (int)len, name);
	}
}

/* "0-3, 5" from the sorted rank numbers r[0..n). */
static void rank_list(const int64_t *r, size_t n, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && k < len; ) {
		size_t j = i;
		while (j + 1 < n && r[j + 1] == r[j] + 1)
			j++;
		if (j > i)
			k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64 "-%" PRId64, i ? ", " : "",
					      r[i], r[j]);
		else
			k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64, i ? ", " : "", r[i]);
		i = j + 1;
	}
}

size_t ts_report_job_gpus(const ts_multi *m, char *buf, size_t n)
{
	if (n)
		buf[0] = '\0';
	if (!m || m->n < 2 || n == 0)
		return 0;
	int64_t *r = malloc(m->n * sizeof *r);
	bool *done = calloc(m->n, sizeof *done);
	size_t k = 0, distinct = 0;
	for (size_t i = 0; r && done && i < m->n; i++) {
		if (done[i])
			continue;
		const char *g = m->ranks[i].gpu[0] ? m->ranks[i].gpu : "(GPU unknown)";
		size_t nr = 0;
		for (size_t j = i; j < m->n; j++) {
			const char *h = m->ranks[j].gpu[0] ? m->ranks[j].gpu : "(GPU unknown)";
			if (!done[j] && strcmp(g, h) == 0) {
				done[j] = true;
				r[nr++] = m->ranks[j].rank;
			}
		}
		ts_sort_i64(r, nr);
		char list[160];
		rank_list(r, nr, list, sizeof list);
		if (k < n)
			k += (size_t)snprintf(buf + k, n - k, "%s%s (rank%s %s)", distinct ? ", " : "",
					      g, nr > 1 ? "s" : "", list);
		distinct++;
	}
	free(r);
	free(done);
	return distinct;
}

const char *ts_report_dtype(const char *d)
{
	return strncmp(d, "c10::", 5) == 0 ? d + 5 : *d ? d : "-";
}
