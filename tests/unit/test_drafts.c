/* A draft model's forwards from the cycle of the passes' layer counts
 * (analysis/structure/drafts.c): the target alone each time, the draft in
 * runs of one length; and the sequences that are no cycle. */
#include <stddef.h>

#include "analysis/structure/drafts.h"
#include "unit.h"

#define N(a) (sizeof (a) / sizeof *(a))

static bool says(const uint32_t *c, size_t n, uint32_t want_t, uint32_t want_d)
{
	uint32_t t = 0, d = 0;
	bool ok = ts_drafts_cycle(c, n, &t, &d);
	return want_t ? ok && t == want_t && d == want_d : !ok;
}

int main(void)
{
	/* SGLang EAGLE: the prompt's 36 layers, four drafts of 4, a verify */
	uint32_t a[] = { 36, 4, 4, 4, 4, 36 };
	CHECK(says(a, N(a), 36, 4), "prompt, 4 drafts, verify: target 36, draft 4");
	/* TRT-LLM: three drafts a step, deeper target after them */
	uint32_t b[] = { 4, 4, 4, 11, 4, 4, 4, 11, 4, 4, 4, 11 };
	CHECK(says(b, N(b), 11, 4), "3 drafts then the target, three steps: target 11");
	/* the capture cut the first step: a shorter first run, a partial
	 * pass (0) breaks nothing */
	uint32_t c[] = { 0, 1, 1, 10, 1, 1, 1, 1, 10, 1, 1, 1, 1, 10 };
	CHECK(says(c, N(c), 10, 1), "a cut first step and a partial pass: target 10, draft 1");
	/* a draft deeper than its target: the one that runs once verifies */
	uint32_t d[] = { 2, 4, 4, 4, 2, 4, 4, 4, 2 };
	CHECK(says(d, N(d), 2, 4), "three 4-layer drafts beside a 2-layer target: target 2");
	/* one of each, alternating: the deeper */
	uint32_t e[] = { 6, 15, 6, 15, 6, 15 };
	CHECK(says(e, N(e), 15, 6), "one draft a step, alternating: the deeper, 15");
	uint32_t q[] = { 15, 1, 1, 15, 1, 1, 15, 15 };
	CHECK(says(q, N(q), 15, 1), "a prompt's forward after the last verify: the target's edge run of two");
	uint32_t r[] = { 64, 12, 64, 12, 64, 64 };
	CHECK(says(r, N(r), 64, 12), "alternating, then a prompt beside the last verify: the deeper, 64");
	/* a prompt beside the first verify, then one draft forward a step
	 * (TRT-LLM's three drafts in one graph, laid out as one) */
	uint32_t s[] = { 46, 46, 3, 46, 3 };
	CHECK(says(s, N(s), 46, 3), "a prompt beside the first verify, then alternating: the deeper, 46");
	/* no cycle: one count; a pass misread among the model's; drafts in
	 * runs of changing length; three counts; a lone target */
	uint32_t f[] = { 64, 64, 64, 64 };
	CHECK(says(f, N(f), 0, 0), "one count: no draft");
	uint32_t g[] = { 64, 12, 64, 64, 64 };
	CHECK(says(g, N(g), 0, 0), "a pass misread among the model's (12 once): no draft");
	uint32_t h[] = { 36, 4, 4, 36, 4, 4, 4, 36, 4, 36 };
	CHECK(says(h, N(h), 0, 0), "runs of 2, 3 between targets: no cycle");
	uint32_t i[] = { 36, 4, 4, 36, 5, 5, 36 };
	CHECK(says(i, N(i), 0, 0), "three counts: no cycle of two");
	uint32_t j[] = { 36, 4, 4, 4, 4 };
	CHECK(says(j, N(j), 0, 0), "one target only: no cycle yet");
	uint32_t m[] = { 64, 12, 64, 64, 12, 64 };
	CHECK(says(m, N(m), 0, 0), "a pass misread twice among the model's, shallower: no target");
	uint32_t k[] = { 6, 15, 6 };
	CHECK(says(k, N(k), 0, 0), "three passes alternating: too few to say");
	return unit_failed != 0;
}
