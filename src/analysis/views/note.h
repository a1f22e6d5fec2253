/*
 * note.h - what a trace is, said from what it holds, when it has no
 * complete forward pass: never a silent zero.
 *
 * A file with kernels gets the layer machine's reason (layers.h:
 * ts_layers_note: a capture, a training step, a window that cuts every
 * pass). A file without one is said to be what its events show: another
 * accelerator's trace (mtia_*, xpu_*, hpu_*, privateuse1_* events, read and
 * not analysed), a profile without GPU activity (kernel launches or
 * computing ATen ops on the CPU, no kernel: ProfilerActivity.CUDA was not
 * on), a front-end process (Python functions of an API server, no op), an
 * empty traceEvents. A trace cut short says only what the cut explains.
 */
#ifndef TS_NOTE_H
#define TS_NOTE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/views/result.h"

/* true and the note in buf; false when the trace has a complete pass. */
bool ts_note_passes(const ts_result *res, char *buf, size_t n);

#endif
