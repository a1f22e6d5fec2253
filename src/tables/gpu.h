/*
 * gpu.h - which GPU a trace ran on, for the roofline, and the dtype
 * class whose peak a workload is held against.
 *
 * The devices: table (patterns/devices.yaml) is tried in order. A trace
 * that names its GPU (deviceProperties "name") gets the first device whose
 * regex matches it and, when the device gives sms, whose SM/CU count is the
 * trace's. A trace without a name (vLLM on ROCm writes "") gets the first
 * device of its vendor with the same SM/CU count and memory within 10%.
 */
#ifndef TS_GPU_H
#define TS_GPU_H

#include <stdint.h>

#include "tables/patterns.h"

/* The dtype class of an "Input type" (c10::BFloat16 -> bf16, float ->
 * fp32, c10::Float8_e4m3fn -> fp8, c10::Float4_e2m1fn_x2 -> fp4); -1 for
 * integers, lists and unknown names. */
int ts_dtype_class(const char *dtype);

/* The device of a trace, or NULL; *how says by what ("name", "sms and
 * memory"). */
const ts_gpu *ts_gpu_find(const ts_patterns *p, const char *gpu, int64_t sms,
				int64_t memory_bytes, ts_platform vendor, const char **how);

/* The device whose name is name (case-insensitive), for --device. */
const ts_gpu *ts_gpu_named(const ts_patterns *p, const char *name);

#endif
