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
	for (size_t i = 0; i + k <= n; i++)
		if (s[i] == lit[0] && memcmp(s + i, lit, k) == 0)
			return true;
	return false;
}

/* Does s[0..n) begin with lit? */
static inline bool ts_begins(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && memcmp(s, lit, k) == 0;
}

#endif
