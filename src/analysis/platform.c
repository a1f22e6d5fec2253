/*
 * platform.c - which GPU vendor a trace comes from, and how we know:
 * runtime-version keys, device properties, runtime call names, kernel
 * names, in that order of trust (see platform.h).
 */
#include "analysis/platform.h"

#include <string.h>

#include "analysis/agg.h"
#include "input/base/strfind.h"

/* Substrings that only one vendor's libraries put in kernel names. The
 * pattern tables will take these over; until then they are few and safe. */
static const char *const nvidia_marks[] = {
	"nvjet", "cutlass", "cudnn", "cublas", "xmma", "sm80_", "sm90_",
	"sm100", "ampere_", "volta_", "turing_", "hopper_", "fmhaSm", "cub::",
};
static const char *const amd_marks[] = {
	"Cijk_", "__amd_rocclr", "ck::", "ck_tile", "rocprim", "hipcub",
	"_mfma", "rccl", "aiter", "wvSplitK",
};

int ts_platform_kernel_evidence(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof amd_marks / sizeof *amd_marks; i++)
		if (ts_has(name, len, amd_marks[i]))
			return -1;
	for (size_t i = 0; i < sizeof nvidia_marks / sizeof *nvidia_marks; i++)
		if (ts_has(name, len, nvidia_marks[i]))
			return 1;
	return 0;
}

int ts_platform_runtime_evidence(const char *name, size_t len)
{
	if (len >= 3 && memcmp(name, "hip", 3) == 0)
		return -1;
	if (len >= 2 && memcmp(name, "cu", 2) == 0)
		return 1;
	return 0;
}

static int devprop_vote(const ts_meta *m)
{
	int v = 0;
	for (int i = 0; i < m->ndev; i++) {
		const ts_devprop *d = &m->dev[i];
		if ((d->has & TS_DEV_HAS_WARP) && d->warp_size == 64)
			v--;
		else if ((d->has & TS_DEV_HAS_WARP) && d->warp_size == 32)
			v++;
		if ((d->has & TS_DEV_HAS_NAME) && (strstr(d->name, "AMD") || strstr(d->name, "Instinct")))
			v--;
		else if ((d->has & TS_DEV_HAS_NAME) && strstr(d->name, "NVIDIA"))
			v++;
	}
	return v;
}

static ts_platform sign(long v)
{
	return v > 0 ? TS_PLATFORM_NVIDIA : v < 0 ? TS_PLATFORM_AMD
		     : TS_PLATFORM_UNKNOWN;
}

ts_platform ts_platform_decide(const ts_meta *m, const ts_agg *a,
			       const char **source)
{
	long v = (long)m->nvidia_keys - m->amd_keys;
	if (v) {
		*source = "runtime_version_keys";
		return sign(v);
	}
	if ((v = devprop_vote(m))) {
		*source = "deviceProperties";
		return sign(v);
	}
	if (a && (v = (long)a->nvidia_runtime - (long)a->amd_runtime)) {
		*source = "runtime_names";
		return sign(v);
	}
	if (a && (v = (long)a->nvidia_names - a->amd_names)) {
		*source = "kernel_names";
		return sign(v);
	}
	*source = "none";
	return TS_PLATFORM_UNKNOWN;
}
