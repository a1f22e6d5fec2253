/*
 * yamlpos.h - where a node sits in a YAML file, for error messages.
 *
 * libcyaml loads documents into structs but does not keep positions, and
 * errors we find after loading (a bad regex, a malformed number, a
 * category that does not exist) must still say FILE:LINE:COLUMN. This
 * re-reads the file with libyaml, only when an error is being reported, and
 * finds the node at a path such as rules[3].match.
 */
#ifndef TS_YAMLPOS_H
#define TS_YAMLPOS_H

#include <stdbool.h>
#include <stddef.h>

/* One step of a path: a mapping key, or (key NULL) a sequence index. */
typedef struct {
	const char *key;
	int index;
} ts_ypath;

/* 1-based line and column of the value at path (of its key, when want_key
 * and the last step is a key); false when not found (then 1:1). */
bool ts_yaml_locate(const char *file, const ts_ypath *path, int depth,
		    bool want_key, int *line, int *col);

/* Lines (1-based) of the items of the top-level sequence under key, in one
 * pass: lines[i] for item i, at most max; returns the number of items. */
int ts_yaml_seq_lines(const char *file, const char *key, int *lines, int max);

/* Parse the whole file with libyaml; when it has a syntax error, store its
 * 1-based position and libyaml's description, and return true. */
bool ts_yaml_syntax_error(const char *file, int *line, int *col, char *msg,
			  size_t len);

#endif
