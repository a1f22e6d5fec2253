/*
 * report.c - the reporters' front: a finished ts_result to the format
 * asked for (text, JSON, CSV, HTML, XLSX), and the warnings after it (see
 * report.h).
 */
#include "report/report.h"
#include "input/base/hash.h"
#include "input/base/satmath.h"

#include <ctype.h>
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

/* A kernel name's words: runs of letters, digits and '.' (template
 * arguments, tile shapes, functors), at most MAX_WORDS. */
#define MAX_WORDS 128

typedef struct {
	const char *p;
	uint8_t n;
} word;

static size_t words_of(const char *s, size_t len, word *w)
{
	size_t n = 0;
	for (size_t i = 0; i < len && n < MAX_WORDS;) {
		while (i < len && !isalnum((unsigned char)s[i]) && s[i] != '.')
			i++;
		size_t j = i;
		while (j < len && (isalnum((unsigned char)s[j]) || s[j] == '.'))
			j++;
		if (j > i)
			w[n++] = (word){ s + i, (uint8_t)(j - i < 255 ? j - i : 255) };
		i = j;
	}
	return n;
}

static bool same_word(const word *x, const word *y)
{
	return x->n == y->n && memcmp(x->p, y->p, x->n) == 0;
}

/* The first index from `from` where two word lists differ (the shorter
 * one's end when one is the other's start; SIZE_MAX: the same). */
static size_t first_diff(const word *x, size_t nx, const word *y, size_t ny, size_t from)
{
	size_t i = from;
	while (i < nx && i < ny && same_word(&x[i], &y[i]))
		i++;
	return i == nx && i == ny ? SIZE_MAX : i;
}

/* Word x where it parts from y (x's next 12 bytes from the first byte that
 * differs: "s6", "CausalP16Var"), after `sep`. */
static size_t put_part(char *out, size_t n, const char *sep, const word *x, const word *y)
{
	size_t d = 0;
	while (y && d < x->n && d < y->n && x->p[d] == y->p[d])
		d++;
	if (d >= x->n || x->n <= 12)
		d = 0;
	size_t k = x->n - d < 12 ? x->n - d : 12;
	int w = snprintf(out, n, "%s%.*s", sep, (int)k, x->p + d);
	return w > 0 && (size_t)w < n ? (size_t)w : 0;
}

/*
 * What tells kernel `me` from the others of its group (the same short
 * name): its words where they first part from each other name's (the
 * template argument or tile that differs), the two earliest such places,
 * each as it reads from its first differing byte; with one other name,
 * where they part next: "s6 ldgsts" against "s5 rgTma", "unrolled 3"
 * against "elementwise 3" and "unrolled 4". "" when it has no word of its
 * own there.
 */
static void differs(const ts_agg *a, const short_key *g, size_t ng, uint32_t me, char *out,
		    size_t n)
{
	word mine[MAX_WORDS], other[MAX_WORDS], ref[2][MAX_WORDS];
	size_t len, nm, at[2] = { SIZE_MAX, SIZE_MAX }, nref[2] = { 0, 0 };
	const char *s = ts_intern_str(a->names, me, &len);
	nm = words_of(s, len, mine);
	for (size_t j = 0; j < ng; j++) {
		if (g[j].row == me)
			continue;
		size_t ol;
		const char *o = ts_intern_str(a->names, g[j].row, &ol);
		size_t no = words_of(o, ol, other);
		size_t i = first_diff(mine, nm, other, no, 0);
		if (i == SIZE_MAX || i == at[0] || i == at[1])
			continue;
		int slot = i < at[0] ? 0 : i < at[1] ? 1 : -1;
		if (slot < 0)
			continue;
		if (slot == 0) {           /* the earliest moves to second */
			at[1] = at[0];
			nref[1] = nref[0];
			memcpy(ref[1], ref[0], nref[0] * sizeof *ref[0]);
		}
		at[slot] = i;
		nref[slot] = no;
		memcpy(ref[slot], other, no * sizeof *other);
	}
	out[0] = '\0';
	if (at[0] >= nm)
		return;
	if (at[1] == SIZE_MAX) {           /* one place: where it parts next */
		at[1] = first_diff(mine, nm, ref[0], nref[0], at[0] + 1);
		nref[1] = nref[0];
		memcpy(ref[1], ref[0], nref[0] * sizeof *ref[0]);
	}
	size_t k = put_part(out, n, "", &mine[at[0]], at[0] < nref[0] ? &ref[0][at[0]] : NULL);
	if (k && at[1] < nm)
		put_part(out + k, n - k, " ", &mine[at[1]], at[1] < nref[1] ? &ref[1][at[1]] : NULL);
}

#define MAX_GROUP 64              /* kernels of one short name told apart by words */

/* dst (a short name) with " label" after it, cut to fit. */
static void append_label(char *dst, const char *label)
{
	size_t keep = strlen(dst), dl = strlen(label);   /* dl < 32 */
	if (keep + 1 + dl > TS_SHORT_MAX)
		keep = TS_SHORT_MAX - dl - 1;
	dst[keep] = ' ';
	memcpy(dst + keep + 1, label, dl + 1);
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
	/* a short name that several kernels share: each says what differs
	 * (its own words; a group past MAX_GROUP, where that would cost the
	 * square of its size, and a label another shares: a hash of its full
	 * name) */
	char (*d)[32] = malloc(MAX_GROUP * sizeof *d);
	for (uint32_t i = 0; i < n;) {
		uint32_t e = i + 1;
		while (e < n && strcmp(k[e].s, k[i].s) == 0)
			e++;
		size_t g = e - i;
		for (size_t j = 0; d && g > 1 && g <= MAX_GROUP && j < g; j++)
			differs(a, k + i, g, k[i + j].row, d[j], sizeof d[j]);
		for (size_t j = 0; g > 1 && j < g; j++) {
			bool alone = d && g <= MAX_GROUP && d[j][0];
			for (size_t m = 0; alone && m < g; m++)
				alone = m == j || strcmp(d[j], d[m]) != 0;
			char h[32];
			if (!alone) {
				size_t len;
				const char *full = ts_intern_str(a->names, k[i + j].row, &len);
				snprintf(h, sizeof h, "~%04x", (unsigned)(ts_hash_bytes(full, len) & 0xffff));
			}
			append_label(out[k[i + j].row], alone ? d[j] : h);
		}
		i = e;
	}
	free(d);
	free(k);
	return out;
}

const char *ts_report_dtype(const char *d)
{
	return strncmp(d, "c10::", 5) == 0 ? d + 5 : *d ? d : "-";
}
