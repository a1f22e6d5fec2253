/*
 * lexguard.h - keeps yajl's token buffer bounded, whatever the token.
 *
 * yajl keeps a token that a chunk boundary cuts in two and lexes it again
 * from its first byte with every further chunk, so a 50 MB string costs time
 * in the square of its length and memory in its length. The guard follows
 * where the JSON text stands lexically (outside tokens, in a string, in an
 * escape, in a number) over the bytes yajl has taken, so that the parser can
 * tell at each chunk boundary how long the open token already is, and then
 * drop the middle of an over-long string before yajl sees it: the string
 * reaches the parser cut (every name past TS_NAME_MAX is cut anyway) and the
 * byte offsets of everything after it stay those of the input. Numbers have
 * a fixed bound instead (TS_NUMBER_MAX, an error past it).
 *
 * The dropped bytes are checked as yajl would check them (no control
 * characters, escapes well formed), so dropping never hides an error.
 * Plain state, no allocation; one guard per parser.
 */
#ifndef TS_LEXGUARD_H
#define TS_LEXGUARD_H

#include <stddef.h>
#include <stdint.h>

/* Raw bytes of a string yajl is given before the rest is dropped: at most 6
 * raw bytes ("\u0041") make one decoded byte, so 8 x TS_NAME_MAX keeps more
 * than TS_NAME_MAX decoded bytes and the parser still sees a long name. */
#define TS_STRING_KEEP (512 * 1024)

/* Longest number token accepted (bytes); longer is malformed input. */
#define TS_NUMBER_MAX 1024

/* where: outside tokens, in a string, in a number, in a literal (true,
 * false, null, or letters yajl is about to refuse) */
enum { TS_LX_OUT, TS_LX_STR, TS_LX_NUM, TS_LX_WORD };

/* What was wrong with a dropped byte (ts_lexguard.bad). */
enum { TS_LX_OK, TS_LX_CTRL, TS_LX_ESCAPE };

typedef struct {
	uint8_t where;     /* TS_LX_OUT, TS_LX_STR, TS_LX_NUM or TS_LX_WORD */
	uint8_t esc;       /* in a string: 0, ESC_LETTER, or hex digits to come */
	uint8_t bad;       /* set by ts_lexguard_drop */
	uint64_t start;    /* input offset (0-based) of the open token */
	uint64_t len;      /* bytes of the open token so far */
	uint64_t bad_off;  /* input offset (0-based) of the bad byte */
} ts_lexguard;

/* Advance over n bytes yajl has taken, the first at input offset off. Call
 * with a guard in TS_LX_OUT to start from a known point (just after a token
 * yajl reported). */
void ts_lexguard_scan(ts_lexguard *g, const char *b, size_t n, uint64_t off);

/* In a string: how many of the n bytes finish an escape the last byte given
 * to yajl opened (0 when none is open). Those bytes go to yajl, already
 * scanned. */
size_t ts_lexguard_escape_tail(ts_lexguard *g, const char *b, size_t n);

/*
 * In a string past TS_STRING_KEEP: how many of the n bytes (the first at
 * input offset off) to drop. Stops before the closing quote (yajl takes it;
 * the guard stays in the string until ts_lexguard_scan passes the quote) or
 * at a byte yajl would refuse: g->bad says which and g->bad_off where, and
 * the parser reports it.
 */
size_t ts_lexguard_drop(ts_lexguard *g, const char *b, size_t n, uint64_t off);

#endif
