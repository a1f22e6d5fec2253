/*
 * intern.h - bounded string interning: a string maps to a small integer id.
 *
 * Strings given to ts_intern_put are borrowed for the call and copied into the
 * table's arena; strings returned by ts_intern_str belong to the table and
 * live until ts_intern_free. The table is bounded by a string count and an
 * arena size fixed at creation, so memory never grows with the number of
 * events, only with the number of distinct strings, up to the caps.
 */
#ifndef TS_INTERN_H
#define TS_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "input/base/status.h"

typedef struct ts_intern ts_intern;

#define TS_INTERN_NONE UINT32_MAX

/* A table for at most max_strings strings totalling at most max_bytes. */
ts_intern *ts_intern_new(uint32_t max_strings, size_t max_bytes);
void ts_intern_free(ts_intern *in);

/*
 * Find or add a string. On success *id is its id (ids are dense, from 0 in
 * insertion order). TS_ERR_FULL when the string is new and a cap is reached,
 * TS_ERR_NOMEM when memory runs out; *id is TS_INTERN_NONE then.
 */
ts_status ts_intern_put(ts_intern *in, const char *s, size_t len, uint32_t *id);
/* The same with the string's ts_hash_bytes already made (0: make it). */
ts_status ts_intern_put_hashed(ts_intern *in, const char *s, size_t len, uint64_t hash,
			       uint32_t *id);

/* The id of a string already in the table, or TS_INTERN_NONE. */
uint32_t ts_intern_find(const ts_intern *in, const char *s, size_t len);

/* The string of an id (NUL-terminated, length in *len when len is not NULL). */
const char *ts_intern_str(const ts_intern *in, uint32_t id, size_t *len);

uint32_t ts_intern_count(const ts_intern *in);

/* Bytes held by the table (arena and index), for memory reports. */
size_t ts_intern_bytes(const ts_intern *in);

#endif
