/* Busy time: union of intervals, exact within the window, bounded beyond. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "unit.h"

static int64_t exact_union(int64_t (*iv)[2], size_t n)
{
	/* O(n^2)-free reference: sort by start, sweep. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && iv[j - 1][0] > iv[j][0]; j--) {
			int64_t t0 = iv[j][0], t1 = iv[j][1];
			iv[j][0] = iv[j - 1][0], iv[j][1] = iv[j - 1][1];
			iv[j - 1][0] = t0, iv[j - 1][1] = t1;
		}
	int64_t total = 0, s = 0, e = 0;
	int open = 0;
	for (size_t i = 0; i < n; i++) {
		if (iv[i][1] <= iv[i][0])
			continue;
		if (!open || iv[i][0] > e) {
			if (open)
				total += e - s;
			s = iv[i][0], e = iv[i][1], open = 1;
		} else if (iv[i][1] > e) {
			e = iv[i][1];
		}
	}
	return open ? total + e - s : total;
}

static void hand_cases(void)
{
	ts_busy *b = ts_busy_new(16);
	ts_busy_add(b, 0, 10);
	ts_busy_add(b, 5, 15);     /* overlap */
	ts_busy_add(b, 20, 30);
	ts_busy_add(b, 22, 25);    /* nested */
	ts_busy_add(b, 30, 40);    /* touching */
	ts_busy_add(b, 16, 18);    /* out of order, in a gap */
	ts_busy_add(b, 50, 50);    /* empty */
	CHECK(ts_busy_total(b) == 15 + 20 + 2, "overlap, nesting, touching and late gaps: 37");
	ts_busy_add(b, 14, 21);    /* bridges three intervals */
	CHECK(ts_busy_total(b) == 40, "an interval bridging three merges them: [0,40)");
	CHECK(ts_busy_late(b) == 0, "nothing late within the window");
	ts_busy_free(b);
	ts_busy_free(NULL);
}

/* N intervals a gap apart (at most), each at most dur long, one in
 * every `bridge` as long as ten gaps; then pairs up to `far` apart
 * swapped: the union against the sorted sweep, with a window of `window`
 * (inserts land near the newest, near the oldest and between: both sides
 * of the array move). */
static void random_shuffled(int64_t gap, int64_t dur, size_t far, uint32_t window,
			    unsigned bridge, const char *what)
{
	enum { N = 20000 };
	static int64_t iv[N][2], copy[N][2];
	unsigned long long seed = 99;
	int64_t t = 0;
	for (size_t i = 0; i < N; i++) {
		t += (int64_t)(unit_rand(&seed) % (unsigned long long)gap);
		iv[i][0] = t;
		iv[i][1] = t + (int64_t)(unit_rand(&seed) % (unsigned long long)dur);
		if (bridge && unit_rand(&seed) % bridge == 0)
			iv[i][1] = t + 10 * gap;
	}
	for (size_t i = 0; i + far < N; i += 7) {
		size_t j = i + unit_rand(&seed) % far;
		int64_t a = iv[i][0], c = iv[i][1];
		iv[i][0] = iv[j][0], iv[i][1] = iv[j][1];
		iv[j][0] = a, iv[j][1] = c;
	}
	memcpy(copy, iv, sizeof iv);
	ts_busy *b = ts_busy_new(window);
	for (size_t i = 0; i < N; i++)
		ts_busy_add(b, iv[i][0], iv[i][1]);
	int64_t want = exact_union(copy, N);
	CHECK(ts_busy_total(b) == want && ts_busy_late(b) == 0,
	      "20000 %s intervals: exact union with a %u window", what, window);
	ts_busy_free(b);
}

static void too_late(void)
{
	ts_busy *b = ts_busy_new(4);
	for (int i = 0; i < 100; i++)
		ts_busy_add(b, i * 10, i * 10 + 5);
	ts_busy_add(b, 0, 5);      /* far too late: counted, not merged */
	CHECK(ts_busy_total(b) == 500 && ts_busy_late(b) == 1,
	      "an interval older than the window is counted as late and not double counted");
	ts_busy_free(b);
}

int main(void)
{
	hand_cases();
	random_shuffled(50, 120, 40, 256, 0, "locally shuffled");
	random_shuffled(200, 150, 200, 400, 0, "sparse, shuffled 200 apart,");
	random_shuffled(200, 150, 200, 400, 50, "sparse with bridges, shuffled 200 apart,");
	random_shuffled(200, 150, 30, 4096, 20, "sparse with bridges, a wide window,");
	too_late();
	return unit_failed != 0;
}
