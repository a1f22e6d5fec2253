/*
 * event.c - the event record passed down the pipeline one trace event at a
 * time, its categories, and the trace-level facts read beside the events
 * (see event.h).
 */
#include "input/event.h"

#include <inttypes.h>
#include <stdbool.h>
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
	[TS_CAT_MTIA] = "mtia",
	[TS_CAT_XPU] = "xpu",
	[TS_CAT_HPU] = "hpu",
	[TS_CAT_PRIVATEUSE1] = "privateuse1",
	[TS_CAT_OTHER] = "other",
};

const char *ts_cat_name(ts_cat cat)
{
	return (unsigned)cat < TS_CAT_COUNT ? cat_names[cat] : "other";
}

#define IS(lit) (len == sizeof(lit) - 1 && memcmp(s, lit, len) == 0)

static bool prefix(const char *s, size_t len, const char *lit)
{
	size_t k = strlen(lit);
	return len > k && memcmp(s, lit, k) == 0;
}

/* Another accelerator's event kinds, by their prefix. */
static ts_cat other_device(const char *s, size_t len)
{
	if (prefix(s, len, "mtia_"))
		return TS_CAT_MTIA;
	if (prefix(s, len, "xpu_"))
		return TS_CAT_XPU;
	if (prefix(s, len, "hpu_"))
		return TS_CAT_HPU;
	if (prefix(s, len, "privateuse1_"))
		return TS_CAT_PRIVATEUSE1;
	return TS_CAT_OTHER;
}

/*
 * Every spelling Kineto has written (docs/kineto-versions.md): PyTorch 1.8
 * and 1.9 wrote Kernel, Memcpy, Memset, Runtime and Operator (some tools'
 * copies lower-case them) with flows in async / async_gpu; later ones
 * kernel, gpu_memcpy, cuda_runtime, cpu_op... with ac2g flows.
 */
ts_cat ts_cat_from(const char *s, size_t len)
{
	switch (len) {
	case 4:
		if (IS("ac2g"))
			return TS_CAT_FLOW;
		break;
	case 5:
		if (IS("async"))
			return TS_CAT_FLOW;
		break;
	case 6:
		if (IS("kernel") || IS("Kernel"))
			return TS_CAT_KERNEL;
		if (IS("cpu_op"))
			return TS_CAT_CPU_OP;
		if (IS("Memcpy") || IS("memcpy"))
			return TS_CAT_GPU_MEMCPY;
		if (IS("Memset") || IS("memset"))
			return TS_CAT_GPU_MEMSET;
		break;
	case 7:
		if (IS("Runtime") || IS("runtime"))
			return TS_CAT_CUDA_RUNTIME;
		break;
	case 8:
		if (IS("Operator") || IS("operator"))
			return TS_CAT_CPU_OP;
		break;
	case 9:
		if (IS("async_gpu"))
			return TS_CAT_FLOW;
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
	case 16:
		if (IS("async_cpu_to_gpu"))
			return TS_CAT_FLOW;
		break;
	case 19:
		if (IS("gpu_user_annotation"))
			return TS_CAT_GPU_USER_ANNOTATION;
		break;
	}
	return other_device(s, len);
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

void ts_meta_warnings(const ts_meta *m, ts_warns *w)
{
	if (m->devprops_dropped)
		ts_warn(w, "%d deviceProperties entries past the first %d were ignored",
			m->devprops_dropped, TS_MAX_DEVPROPS);
	for (int i = 0; i < m->ndev && i < TS_MAX_DEVPROPS; i++) {
		const ts_devprop *d = &m->dev[i];
		if (!d->bad_sms)
			continue;
		if (d->has & TS_DEV_HAS_SMS)
			ts_warn(w, "deviceProperties of device %" PRId64 ": numSms %" PRId64 " is no GPU's "
				"SM count (its multiProcessorCount is %" PRId64 ", which is used)",
				d->id, d->bad_sms, d->mp_count);
		else
			ts_warn(w, "deviceProperties of device %" PRId64 ": numSms %" PRId64 " is no GPU's "
				"SM count; set aside", d->id, d->bad_sms);
	}
}
