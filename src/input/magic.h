/*
 * magic.h - what an input's first bytes say it is where the JSON parser
 * refuses them: another compressor's data, an archive, a byte order
 * mark, UTF-16, a TOML or INI file. The parser's error names it.
 */
#ifndef TS_MAGIC_H
#define TS_MAGIC_H

#include <stddef.h>

/* What head[0..n) is, with what to do about it; NULL: nothing known. */
const char *ts_magic_kind(const unsigned char *head, size_t n);

#endif
