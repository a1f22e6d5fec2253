/*
 * platform.h - which GPU vendor a trace comes from, and how we know.
 *
 * Trust order: runtime-version keys in the trace header (cuda_* / cupti_*
 * versus roctracer_* / hip_*), then deviceProperties (warpSize 64 is AMD,
 * vendor name in the device name), then the names of runtime calls
 * (cudaLaunchKernel versus hipLaunchKernel), then kernel-name evidence.
 * Evidence functions return +1 for NVIDIA, -1 for AMD, 0 for neither.
 */
#ifndef TS_PLATFORM_H
#define TS_PLATFORM_H

#include <stddef.h>

#include "input/event.h"

int ts_platform_kernel_evidence(const char *name, size_t len);
int ts_platform_runtime_evidence(const char *name, size_t len);

typedef struct ts_agg ts_agg;

/* Decide; *source names the signal used ("runtime_version_keys",
 * "deviceProperties", "runtime_names", "kernel_names" or "none"). */
ts_platform ts_platform_decide(const ts_meta *meta, const ts_agg *agg,
			       const char **source);

#endif
