/*
 * strfind.h - the literal searches in a name that is not NUL-terminated
 * (an event's name or category as the parser hands it over): does it
 * contain a literal, does it begin with one.
 */
#ifndef TS_STRFIND_H
#define TS_STRFIND_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Does s[0..n) contain the NUL-terminated lit? */
static inline bool ts_has(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	if (k == 0)
		return true;
	if (k > n)
		return false;
	/* each place its first byte is (memchr: many bytes a step), then
	 * the rest */
	const char *p = s, *last = s + (n - k);
	while (p <= last && (p = memchr(p, lit[0], (size_t)(last - p) + 1)) != NULL) {
		if (memcmp(p + 1, lit + 1, k - 1) == 0)
			return true;
		p++;
	}
	return false;
}

/* Does s[0..n) begin with lit? */
static inline bool ts_begins(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && memcmp(s, lit, k) == 0;
}

#endif
