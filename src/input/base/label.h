/*
 * label.h - how a report names its input: "<stdin>" for "-", else the
 * path, or its last component; and what a path is when it is no regular
 * file to read.
 */
#ifndef TS_LABEL_H
#define TS_LABEL_H

#include <stdbool.h>

/* How a report names the input at path: "<stdin>" for "-", else the path,
 * or with base its last component (the whole path where that is empty). */
const char *ts_path_label(const char *path, bool base);

/* What an entry of a folder is when it is no regular file to read ("a
 * FIFO", "a symbolic link to nothing", "a symbolic link loop", "a
 * directory", ...), NULL when it is one. A folder scan names each such
 * entry it was meant to read rather than skip it unsaid (a FIFO would
 * block the read forever). */
const char *ts_path_not_regular(const char *path);

#endif
