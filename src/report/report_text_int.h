/*
 * report_text_int.h - what the two text reports share (report_text.c,
 * report_text_cmp.c) and no one else.
 */
#ifndef TS_REPORT_TEXT_INT_H
#define TS_REPORT_TEXT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exact microseconds from integer ns, in buf. */
const char *ts_text_us(char *buf, size_t n, int64_t ns);
/* A kernel name for a terminal, shortened to at most w bytes (0: whole). */
void ts_text_name(FILE *out, const char *s, size_t len, int w);

#endif
