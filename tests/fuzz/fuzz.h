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

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The built-in pattern tables of the source tree ($TRACESTREAM_PATTERNS
 * first), loaded once per process; exits on failure. */
struct ts_patterns;
const struct ts_patterns *fuzz_builtin_patterns(void);

#endif
