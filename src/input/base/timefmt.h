/*
 * timefmt.h - a duration as the reports say it: milliseconds with three
 * significant digits or so ("123 ms", "2.72 ms"), microseconds below one
 * millisecond ("812.3 us"). Every statement of the first screen and the
 * what-if projections writes its times this one way. And a duration as
 * the tables and the JSON report write it: exact microseconds.
 */
#ifndef TS_TIMEFMT_H
#define TS_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/* ns nanoseconds into buf (n bytes, NUL-terminated, cut where short). */
void ts_fmt_ms(char *buf, size_t n, double ns);

/* Exact microseconds from nanoseconds: "1234.567", "-0.001". */
void ts_fmt_us(char *buf, size_t n, int64_t ns);

#endif
