#include "input/event.h"

#include <string.h>

static const char *const cat_names[TS_CAT_COUNT] = {
	[TS_CAT_KERNEL] = "kernel",
	[TS_CAT_GPU_MEMCPY] = "gpu_memcpy",
	[TS_CAT_GPU_MEMSET] = "gpu_memset",
	[TS_CAT_CPU_OP] = "cpu_op",
	[TS_CAT_CUDA_RUNTIME] = "cuda_runtime",
	[TS_CAT_CUDA_DRIVER] = "cuda_driver",
	[TS_CAT_USER_ANNOTATION] = "user_annotation",
	[TS_CAT_GPU_USER_ANNOTATION] = "gpu_user_annotation",
	[TS_CAT_PYTHON_FUNCTION] = "python_function",
	[TS_CAT_FLOW] = "flow",
	[TS_CAT_METADATA] = "metadata",
	[TS_CAT_OTHER] = "other",
};

const char *ts_cat_name(ts_cat cat)
{
	return (unsigned)cat < TS_CAT_COUNT ? cat_names[cat] : "other";
}

#define IS(lit) (len == sizeof(lit) - 1 && memcmp(s, lit, len) == 0)

ts_cat ts_cat_from(const char *s, size_t len)
{
	switch (len) {
	case 4:
		if (IS("ac2g"))
			return TS_CAT_FLOW;
		break;
	case 6:
		if (IS("kernel"))
			return TS_CAT_KERNEL;
		if (IS("cpu_op"))
			return TS_CAT_CPU_OP;
		break;
	case 10:
		if (IS("gpu_memcpy"))
			return TS_CAT_GPU_MEMCPY;
		if (IS("gpu_memset"))
			return TS_CAT_GPU_MEMSET;
		break;
	case 11:
		if (IS("cuda_driver"))
			return TS_CAT_CUDA_DRIVER;
		break;
	case 12:
		if (IS("cuda_runtime"))
			return TS_CAT_CUDA_RUNTIME;
		break;
	case 15:
		if (IS("user_annotation"))
			return TS_CAT_USER_ANNOTATION;
		if (IS("python_function"))
			return TS_CAT_PYTHON_FUNCTION;
		break;
	case 19:
		if (IS("gpu_user_annotation"))
			return TS_CAT_GPU_USER_ANNOTATION;
		break;
	}
	return TS_CAT_OTHER;
}

const char *ts_platform_name(ts_platform p)
{
	switch (p) {
	case TS_PLATFORM_NVIDIA:
		return "NVIDIA";
	case TS_PLATFORM_AMD:
		return "AMD";
	default:
		return "unknown";
	}
}
