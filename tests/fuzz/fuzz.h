/*
 * fuzz.h - the libFuzzer entry points every target defines. A target builds
 * two ways: with clang's -fsanitize=fuzzer (libFuzzer drives it, `make
 * fuzz`) and with replay.c as its main (any compiler; `make test` replays
 * the corpus under ASan + UBSan).
 */
#ifndef TS_FUZZ_H
#define TS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The built-in pattern tables of the source tree ($TRACESTREAM_PATTERNS
 * first), loaded once per process; exits on failure. */
const ts_patterns *fuzz_builtin_patterns(void);

/* The options for an input of size bytes: the built-in tables; odd sizes
 * read in chunks of 1 + size % 4093 bytes; one size in four gets tiny caps
 * (3 kernel names, 2 busy intervals, a 4 KB join). */
ts_pipeline_opts fuzz_opts(size_t size);

/* Analyse size bytes (through a memfd, so that the reader, gzip included,
 * is the one users run). res->path points into path[], which must outlive
 * res. -1 when the memfd could not be made. */
int fuzz_run_bytes(const uint8_t *data, size_t size, const ts_pipeline_opts *po,
		   ts_result *res, char path[static 64]);

#endif
