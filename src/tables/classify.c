/*
 * classify.c - a kernel name to its type, category, stage hint and short
 * name, by the pattern tables' rules, once per distinct name (see
 * classify.h).
 */
#include "tables/classify.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "input/base/strfind.h"

/* Write at most TS_SHORT_MAX bytes, cutting with "..." when longer. */
static void put_short(char *out, const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n > TS_SHORT_MAX) {
		memcpy(out, s, TS_SHORT_MAX - 3);
		memcpy(out + TS_SHORT_MAX - 3, "...", 4);
		return;
	}
	memcpy(out, s, n);
	out[n] = '\0';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Wrapper kernels whose own name says nothing: the interesting part is a
 * template argument (the functor, or the real kernel type). */
static bool is_wrapper(const char *s, size_t n)
{
	static const char *const w[] = {
		"kentry", "Kernel", "Kernel2", "kernel", "device_kernel",
		"trampoline_kernel", "elementwise_kernel", "vectorized_elementwise_kernel",
		"unrolled_elementwise_kernel", "elementwise_kernel_manual_unroll",
		"index_elementwise_kernel", "multi_tensor_apply_kernel", "reduce_kernel",
		"elementwise_kernel_with_index",
	};
	for (size_t i = 0; i < sizeof w / sizeof *w; i++)
		if (strlen(w[i]) == n && memcmp(w[i], s, n) == 0)
			return true;
	return false;
}

/* Functor templates that only wrap the interesting one. */
static bool generic_functor(const char *s, size_t n)
{
	static const char *const g[] = {
		"BinaryFunctor", "AUnaryFunctor", "BUnaryFunctor", "UnaryFunctor",
		"gpu_kernel_impl", "gpu_kernel_impl_nocast", "gpu_index_kernel",
		"func_wrapper_t", "ReduceOp",
	};
	for (size_t i = 0; i < sizeof g / sizeof *g; i++)
		if (strlen(g[i]) == n && memcmp(g[i], s, n) == 0)
			return true;
	return false;
}

/* Does identifier s[0..n) name a functor or an op implementation? */
static bool is_detail(const char *s, size_t n)
{
	static const char *const suffix[] = { "Ops", "functor", "_kernel_cuda",
					      "_kernel_impl", "KernelImpl", "Kernel", "_kernel" };
	if (generic_functor(s, n) || (n == 7 && memcmp(s, "Functor", 7) == 0) ||
	    (n == 6 && memcmp(s, "Kernel", 6) == 0))
		return false;
	if (ts_has(s, n, "Functor"))
		return true;
	for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++) {
		size_t k = strlen(suffix[i]);
		if (n > k && memcmp(s + n - k, suffix[i], k) == 0)
			return true;
	}
	return false;
}

/* The most specific detail identifier in a template argument list: the last
 * functor (MulFunctor inside BinaryFunctor), else the first op kernel. */
static bool find_detail(const char *s, size_t n, const char **d, size_t *dn)
{
	const char *best = NULL;
	size_t best_n = 0;
	for (size_t i = 0; i < n;) {
		if (!ident_char(s[i])) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && ident_char(s[j]))
			j++;
		if (is_detail(s + i, j - i)) {
			bool functor = ts_has(s + i, j - i, "unctor") || ts_has(s + i, j - i, "Ops");
			if (functor || !best) {
				best = s + i;
				best_n = j - i;
			}
		}
		i = j;
	}
	if (!best)
		return false;
	/* "direct_copy_kernel_cuda" -> "direct_copy". */
	static const char *const strip[] = { "_kernel_cuda", "_kernel_impl", "_kernel" };
	for (size_t i = 0; i < 3; i++) {
		size_t k = strlen(strip[i]);
		if (best_n > k && memcmp(best + best_n - k, strip[i], k) == 0) {
			best_n -= k;
			break;
		}
	}
	*d = best;
	*dn = best_n;
	return true;
}

/* Itanium-mangled names: _ZN <len><id>... E or _Z <len><id>. Writes the
 * function's identifier, and for wrapper functions the first identifier of
 * the template arguments. */
static bool short_mangled(const char *s, size_t n, char *out)
{
	size_t i = 2;
	bool nested = i < n && s[i] == 'N';
	if (nested)
		i++;
	const char *last = NULL;
	size_t last_n = 0;
	while (i < n) {
		while (i < n && (s[i] == 'K' || s[i] == 'V' || s[i] == 'r' || s[i] == 'L'))
			i++;
		if (i + 1 < n && s[i] == 'S' && s[i + 1] == 't') {   /* std:: */
			i += 2;
			continue;
		}
		if (i >= n || !isdigit((unsigned char)s[i]))
			break;
		size_t len = 0;
		while (i < n && isdigit((unsigned char)s[i]))
			len = len * 10 + (size_t)(s[i++] - '0');
		if (len == 0 || i + len > n)
			return false;
		last = s + i;
		last_n = len;
		i += len;
		if (!nested)
			break;
	}
	if (!last)
		return false;
	char buf[256];
	size_t k = last_n < 200 ? last_n : 200;
	memcpy(buf, last, k);
	if (is_wrapper(last, last_n)) {
		/* Next identifier with a length prefix: the real kernel type. */
		for (; i < n; i++) {
			if (!isdigit((unsigned char)s[i]) || (i > 0 && isdigit((unsigned char)s[i - 1])))
				continue;
			size_t j = i, len = 0;
			while (j < n && isdigit((unsigned char)s[j]))
				len = len * 10 + (size_t)(s[j++] - '0');
			if (len > 3 && j + len <= n && (isalpha((unsigned char)s[j]) || s[j] == '_') &&
			    s[i - 1] != 'L' && s[i - 1] != 'i') {
				size_t m = len < 200 ? len : 200;
				memcpy(buf, s + j, m);
				k = m;
				break;
			}
		}
	}
	put_short(out, buf, k);
	return true;
}

void ts_short_generic(const char *s, size_t n, char *out)
{
	if (n > 2 && s[0] == '_' && s[1] == 'Z' && short_mangled(s, n, out))
		return;
	/* "std::enable_if<...>::type ns::f<...>(...)": start after "::type ". */
	for (size_t i = n; i-- > 7;) {
		if (memcmp(s + i - 7, "::type ", 7) == 0) {
			s += i;
			n -= i;
			break;
		}
	}
	/* Find the parameter list: the first '(' outside template brackets
	 * that does not open "(anonymous namespace)". */
	static const char anon[] = "(anonymous namespace)";
	const size_t anon_len = sizeof anon - 1;
	size_t depth = 0, paren = n;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '<')
			depth++;
		else if (s[i] == '>' && depth)
			depth--;
		else if (s[i] == '(' && n - i >= anon_len && memcmp(s + i, anon, anon_len) == 0)
			i += anon_len - 1;
		else if (s[i] == '(' && depth == 0 && i > 0) {
			paren = i;
			break;
		}
	}
	/* The qualified name starts after the return type: the last space
	 * outside brackets. */
	size_t start = 0;
	depth = 0;
	for (size_t i = 0; i < paren; i++) {
		if (s[i] == '<')
			depth++;
		else if (s[i] == '>' && depth)
			depth--;
		else if (s[i] == ' ' && depth == 0)
			start = i + 1;
	}
	/* Template arguments at the end of the qualified name. */
	size_t name_end = paren, targs = paren;
	if (paren > start && s[paren - 1] == '>') {
		depth = 0;
		for (size_t i = paren; i-- > start;) {
			if (s[i] == '>')
				depth++;
			else if (s[i] == '<' && --depth == 0) {
				name_end = targs = i;
				break;
			}
		}
	}
	/* The last component: after the last "::" outside brackets. */
	size_t base = start;
	depth = 0;
	for (size_t i = start; i + 1 < name_end; i++) {
		if (s[i] == '(' && name_end - i >= anon_len && memcmp(s + i, anon, anon_len) == 0)
			i += anon_len - 1;
		else if (s[i] == '<')
			depth++;
		else if (s[i] == '>' && depth)
			depth--;
		else if (depth == 0 && s[i] == ':' && s[i + 1] == ':')
			base = i + 2;
	}
	if (name_end <= base) {
		put_short(out, s, n);
		return;
	}
	const char *b = s + base;
	size_t bn = name_end - base;
	const char *d;
	size_t dn;
	if (is_wrapper(b, bn) && find_detail(s + targs, paren - targs, &d, &dn)) {
		/* "vectorized_elementwise_kernel" -> "elementwise FillFunctor". */
		const char *label = ts_has(b, bn, "reduce") ? "reduce"
				  : ts_has(b, bn, "multi_tensor") ? "multi_tensor"
				  : ts_has(b, bn, "index") ? "index"
				  : ts_has(b, bn, "elementwise") ? "elementwise" : NULL;
		char buf[256];
		if (label && strlen(label) == dn && memcmp(label, d, dn) == 0)
			label = NULL;
		int k = label ? snprintf(buf, sizeof buf, "%s %.*s", label, (int)dn, d)
			      : snprintf(buf, sizeof buf, "%.*s", (int)dn, d);
		put_short(out, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
		return;
	}
	if (is_wrapper(b, bn) && targs < paren) {
		/* No functor: the first type named in the arguments (the real
		 * kernel of cutlass::device_kernel<...>, ck_tile::kentry<...>). */
		const char *t = s + targs;
		size_t tn = paren - targs;
		for (size_t i = 0; i < tn;) {
			if (t[i] == '(' && tn - i >= anon_len && memcmp(t + i, anon, anon_len) == 0) {
				i += anon_len;   /* a namespace, not a name */
				continue;
			}
			if (!ident_char(t[i]) || isdigit((unsigned char)t[i])) {
				i++;
				continue;
			}
			size_t j = i;
			while (j < tn && ident_char(t[j]))
				j++;
			bool ns = j + 1 < tn && t[j] == ':' && t[j + 1] == ':';
			bool word = (j - i == 6 && memcmp(t + i, "lambda", 6) == 0) ||
				    (j - i == 8 && memcmp(t + i, "operator", 8) == 0);
			if (!ns && !word && j - i > 3) {
				put_short(out, t + i, j - i);
				return;
			}
			i = j;
		}
	}
	put_short(out, b, bn);
}

/* Expand a short-name template: $0..$9 are capture groups, $$ a dollar. */
static void expand(const char *tmpl, const char *name, const size_t *ov,
		   int pairs, char *out)
{
	char buf[512];
	size_t k = 0;
	for (const char *t = tmpl; *t && k < sizeof buf - 1; t++) {
		if (t[0] == '$' && t[1] == '$') {
			buf[k++] = '$';
			t++;
		} else if (t[0] == '$' && t[1] >= '0' && t[1] <= '9') {
			int g = t[1] - '0';
			t++;
			if (g < pairs) {
				size_t len = ov[2 * g + 1] - ov[2 * g];
				if (len > sizeof buf - 1 - k)
					len = sizeof buf - 1 - k;
				memcpy(buf + k, name + ov[2 * g], len);
				k += len;
			}
		} else {
			buf[k++] = *t;
		}
	}
	put_short(out, buf, k);
}

/* The types no rule may give name: those of every bound matching it. */
static int64_t bounds_of(const ts_patterns *p, const char *name, size_t len, int *first)
{
	uint32_t never = 0;
	size_t n = ts_patterns_nbounds(p);
	for (size_t i = 0; i < n; i++) {
		const ts_kbound *b = ts_patterns_bound(p, i);
		size_t ov[2];
		if (ts_regex_match(b->re, name, len, ov, 1) > 0) {
			never |= b->never;
			if (*first < 0)
				*first = (int)i;
		}
	}
	return never;
}

void ts_classify(const ts_patterns *p, ts_cat cat, const char *name,
		 size_t len, ts_kclass *out)
{
	unsigned bit = cat == TS_CAT_GPU_MEMCPY ? TS_RULE_MEMCPY
		     : cat == TS_CAT_GPU_MEMSET ? TS_RULE_MEMSET : TS_RULE_KERNEL;
	out->rule = -1;
	out->words = false;
	out->bound = -1;
	out->passed = -1;
	out->category = -1;
	out->type = bit == TS_RULE_KERNEL ? TS_TYPE_OTHER : TS_TYPE_MEMORY;
	out->stage = TS_STAGE_NONE;
	size_t n = p ? ts_patterns_nrules(p) : 0;
	int64_t never = -1;      /* the bounds' types, found at the first match */
	for (size_t i = 0; i < n; i++) {
		const ts_rule *r = ts_patterns_rule(p, i);
		if (!(r->events & bit))
			continue;
		size_t ov[20];
		int pairs = ts_regex_match(r->re, name, len, ov, 10);
		if (pairs == 0)
			continue;
		ts_ktype type = ts_patterns_category(p, (size_t)r->category)->type;
		if (never < 0)
			never = bounds_of(p, name, len, &out->bound);
		if (never & (1u << type)) {
			if (out->passed < 0)
				out->passed = (int)i;
			continue;   /* what the kernel is bounds what it can be */
		}
		out->rule = (int)i;
		out->category = r->category;
		out->type = type;
		out->words = r->words;
		out->stage = r->stage;
		if (r->short_tmpl)
			expand(r->short_tmpl, name, ov, pairs, out->short_name);
		else
			ts_short_generic(name, len, out->short_name);
		return;
	}
	ts_short_generic(name, len, out->short_name);
}

const ts_category *ts_kclass_cat(const ts_patterns *p, const ts_kclass *c)
{
	return p && c && c->category >= 0 ? ts_patterns_category(p, (size_t)c->category) : NULL;
}

const char *ts_kclass_category(const ts_patterns *p, const ts_kclass *c)
{
	if (!p || c->category < 0)
		return "Other";
	return ts_patterns_category(p, (size_t)c->category)->name;
}
