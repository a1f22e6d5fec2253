/*
 * gpu.c - which devices: entry (peaks) a trace's GPU is, for the roofline,
 * and the dtype class whose peak a workload is held against (see gpu.h).
 */
#include "tables/gpu.h"

#include <string.h>
#include <strings.h>

int ts_dtype_class(const char *t)
{
	if (!t)
		return -1;
	if (strcmp(t, "c10::BFloat16") == 0)
		return TS_DT_BF16;
	if (strcmp(t, "c10::Half") == 0)
		return TS_DT_FP16;
	if (strcmp(t, "float") == 0)
		return TS_DT_FP32;
	if (strncmp(t, "c10::Float8_", 12) == 0)
		return TS_DT_FP8;
	if (strncmp(t, "c10::Float4_", 12) == 0)
		return TS_DT_FP4;
	if (strcmp(t, "signed char") == 0)
		return TS_DT_INT8;
	return -1;
}

const ts_gpu *ts_gpu_find(const ts_patterns *p, const char *gpu, int64_t sms,
				int64_t memory_bytes, ts_platform vendor, const char **how)
{
	size_t n = ts_patterns_ngpus(p);
	if (gpu && *gpu) {
		for (size_t i = 0; i < n; i++) {
			const ts_gpu *d = ts_patterns_gpu(p, i);
			size_t ov[6];
			if (d->sms && sms > 0 && d->sms != sms)
				continue;
			if (ts_regex_match(d->re, gpu, strlen(gpu), ov, 3) > 0) {
				*how = "name";
				return d;
			}
		}
		return NULL;
	}
	if (sms <= 0 || memory_bytes <= 0)
		return NULL;
	double gb = (double)memory_bytes / 1e9;
	for (size_t i = 0; i < n; i++) {
		const ts_gpu *d = ts_patterns_gpu(p, i);
		if (d->vendor != vendor || d->sms != sms || d->memory_gb <= 0)
			continue;
		/* marketed GB against what the driver reports (GiB or GB,
		 * less what it reserves) */
		if (gb > d->memory_gb * 0.9 && gb < d->memory_gb * 1.1) {
			*how = "sms and memory";
			return d;
		}
	}
	return NULL;
}

const ts_gpu *ts_gpu_named(const ts_patterns *p, const char *name)
{
	for (size_t i = 0; i < ts_patterns_ngpus(p); i++)
		if (strcasecmp(ts_patterns_gpu(p, i)->name, name) == 0)
			return ts_patterns_gpu(p, i);
	return NULL;
}
