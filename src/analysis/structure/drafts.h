/*
 * drafts.h - a speculative draft model's forwards told from its target's
 * where no step annotation groups them: by the cycle of the passes'
 * layer counts.
 *
 * Speculative decoding runs, each step, k forwards of a draft model (a
 * token each) and one of the target (verifying them all): the complete
 * passes' counts read D^k T D^k T ... (a prompt's T first). Where the
 * trace has no step annotation, that cycle is the only evidence of the
 * step. Pure functions.
 */
#ifndef TS_DRAFTS_H
#define TS_DRAFTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Counts of n complete passes in order (0: a pass not complete, which
 * breaks no run). True where exactly two counts ran and they cycle: one
 * (the target, *target) each time alone, two times at least, the other
 * (the draft's, *draft) in runs of one length k of two or more (the first
 * and the last run may be shorter: the capture cut them; the target's
 * first or last run may hold two, a prompt's forward beside a verify,
 * where its inner runs are alone; a draft deeper
 * than its target, two whole runs at least); or, one of each
 * alternating (k = 1, four passes at least), the deeper the target. False
 * otherwise (one count, or two that do not cycle: a pass misread among
 * the model's is no draft). */
bool ts_drafts_cycle(const uint32_t *counts, size_t n, uint32_t *target, uint32_t *draft);

#endif
