/*
 * lexguard.c - lexical position over the bytes yajl takes (see lexguard.h).
 *
 * The same small machine serves both uses: scanning bytes yajl has lexed
 * (it validates them) and dropping bytes it will never see (so we validate
 * them here, as its lexer would).
 */
#include "input/lexguard.h"

#include <stdbool.h>

#define ESC_LETTER 5   /* after a backslash; 1..4: hex digits of \uXXXX */

static bool is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static bool is_escape_letter(unsigned char c)
{
	switch (c) {
	case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
		return true;
	}
	return false;
}

static bool in_number(unsigned char c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

/* One string byte after the opening quote; false at the closing quote. */
static bool string_byte(ts_lexguard *g, unsigned char c)
{
	if (g->esc == 0) {
		if (c == '"')
			return false;
		if (c == '\\')
			g->esc = ESC_LETTER;
	} else if (g->esc == ESC_LETTER) {
		g->esc = c == 'u' ? 4 : 0;
	} else {
		g->esc--;
	}
	g->len++;
	return true;
}

void ts_lexguard_scan(ts_lexguard *g, const char *b, size_t n, uint64_t off)
{
	const unsigned char *u = (const unsigned char *)b;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = u[i];
		switch (g->where) {
		case TS_LX_STR:
			/* the long stretches: plain bytes of a string */
			while (g->esc == 0 && c != '"' && c != '\\') {
				g->len++;
				if (++i == n)
					return;
				c = u[i];
			}
			if (!string_byte(g, c))
				g->where = TS_LX_OUT;
			break;
		case TS_LX_WORD:
			if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
				g->len++;
				break;
			}
			g->where = TS_LX_OUT;
			goto out;
		case TS_LX_NUM:
			if (in_number(c)) {
				g->len++;
				break;
			}
			g->where = TS_LX_OUT;
			/* the byte after a number is outside it */
			/* fall through */
		case TS_LX_OUT:
		out:
			if (c == '"') {
				g->where = TS_LX_STR;
				g->esc = 0;
				g->start = off + i;
				g->len = 0;
			} else if (c == '-' || (c >= '0' && c <= '9')) {
				g->where = TS_LX_NUM;
				g->start = off + i;
				g->len = 1;
			} else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
				g->where = TS_LX_WORD;
				g->start = off + i;
				g->len = 1;
			}
			break;
		}
	}
}

size_t ts_lexguard_escape_tail(ts_lexguard *g, const char *b, size_t n)
{
	size_t i = 0;
	while (i < n && g->esc != 0)
		string_byte(g, (unsigned char)b[i++]);
	return i;
}

size_t ts_lexguard_drop(ts_lexguard *g, const char *b, size_t n, uint64_t off)
{
	const unsigned char *u = (const unsigned char *)b;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = u[i];
		bool ok;
		if (g->esc == 0) {
			if (c == '"')
				return i;
			ok = c >= 0x20;
		} else if (g->esc == ESC_LETTER) {
			ok = c == 'u' || is_escape_letter(c);
		} else {
			ok = is_hex(c);
		}
		if (!ok) {
			g->bad = g->esc == 0 ? TS_LX_CTRL : TS_LX_ESCAPE;
			g->bad_off = off + i;
			return i;
		}
		string_byte(g, c);
	}
	return n;
}
