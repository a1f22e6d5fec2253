/*
 * progress.c - the one-line progress display of a run on a terminal
 * (stderr): percent and ETA when the input size is known (see progress.h).
 */
#include "progress.h"

#include <stdlib.h>
#include <time.h>

#define MIN_INTERVAL 0.25 /* seconds between redraws */

struct ts_progress {
	FILE *out;
	int64_t total;
	double start, last;
	int drawn;
};

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

ts_progress *ts_progress_new(FILE *out, int64_t total_in)
{
	ts_progress *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->out = out;
	p->total = total_in;
	p->start = p->last = now();
	return p;
}

void ts_progress_free(ts_progress *p)
{
	free(p);
}

void ts_progress_set_total(ts_progress *p, int64_t total_in)
{
	p->total = total_in;
}

static void human(char *buf, size_t n, double bytes)
{
	if (bytes >= 1e9)
		snprintf(buf, n, "%.2f GB", bytes / 1e9);
	else
		snprintf(buf, n, "%.1f MB", bytes / 1e6);
}

void ts_progress_update(ts_progress *p, uint64_t in_bytes, uint64_t json_bytes)
{
	double t = now();
	if (t - p->last < MIN_INTERVAL)
		return;
	p->last = t;
	double el = t - p->start;
	double rate = el > 0 ? (double)json_bytes / el / 1e6 : 0;
	char done[32], total[32];
	human(done, sizeof done, (double)in_bytes);
	if (p->total > 0) {
		double frac = (double)in_bytes / (double)p->total;
		if (frac > 1)
			frac = 1;
		human(total, sizeof total, (double)p->total);
		double eta = frac > 0 ? el * (1 - frac) / frac : 0;
		fprintf(p->out, "\r\033[K%5.1f%%  %s of %s  %.0f MB/s  ETA %d:%02d",
			frac * 100, done, total, rate, (int)eta / 60, (int)eta % 60);
	} else {
		fprintf(p->out, "\r\033[K%s read  %.0f MB/s", done, rate);
	}
	fflush(p->out);
	p->drawn = 1;
}

void ts_progress_clear(ts_progress *p)
{
	if (p && p->drawn) {
		fprintf(p->out, "\r\033[K");
		fflush(p->out);
		p->drawn = 0;
	}
}
