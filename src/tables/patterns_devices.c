/*
 * patterns_devices.c - the devices: entries of the tables (GPU peaks for
 * the roofline, and the attainable share of each), checked as they load
 * (patterns_int.h).
 */
#include "tables/patterns_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/base/grow.h"

/* A positive decimal (TFLOP/s, TB/s, GB): strict, no trailing text. */
static bool parse_positive(const char *s, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > hi)
		return false;
	*out = v;
	return true;
}

/* devices: peak figures for the roofline (devices.yaml). A name defined
 * again in a later directory replaces the earlier one. */
void ts_pat_add_devices(ts_patterns *p, const char *file, y_kernels *k)
{
	int *lines = ts_pat_item_lines(file, "devices", k->devices_count);
	for (unsigned i = 0; i < k->devices_count; i++) {
		const y_device *y = &k->devices[i];
		ts_ypath path[] = { { "devices", 0 }, { NULL, (int)i }, { "name", 0 } };
		ts_gpu d = { .name = y->name, .source = y->source, .match = y->match,
			     .attain_compute = TS_ATTAINABLE_DEFAULT,
			     .attain_memory = TS_ATTAINABLE_DEFAULT,
			     .file = file, .line = lines ? lines[i] : 0 };
		bool ok = true;
		if (strcmp(y->vendor, "nvidia") == 0) {
			d.vendor = TS_PLATFORM_NVIDIA;
		} else if (strcmp(y->vendor, "amd") == 0) {
			d.vendor = TS_PLATFORM_AMD;
		} else {
			path[2].key = "vendor";
			ts_pat_error_at(p, file, path, 3, 0, "vendor '%s' is not nvidia or amd", y->vendor);
			ok = false;
		}
		path[2].key = "match";
		d.re = ts_pat_compile_flags(p, y->match, PCRE2_CASELESS, file, path, 3);
		ok &= d.re != NULL;
		long v;
		if (y->sms) {
			if (ts_pat_parse_long(y->sms, 1, 100000, &v)) {
				d.sms = (int)v;
			} else {
				path[2].key = "sms";
				ts_pat_error_at(p, file, path, 3, 0, "sms '%s' is not a whole number from 1 to 100000", y->sms);
				ok = false;
			}
		}
		if (y->memory_gb && !parse_positive(y->memory_gb, 1e6, &d.memory_gb)) {
			path[2].key = "memory_gb";
			ts_pat_error_at(p, file, path, 3, 0, "memory_gb '%s' is not a positive number", y->memory_gb);
			ok = false;
		}
		if (!parse_positive(y->hbm_tbps, 1e4, &d.hbm_tbps)) {
			path[2].key = "hbm_tbps";
			ts_pat_error_at(p, file, path, 3, 0, "hbm_tbps '%s' is not a positive number of TB/s", y->hbm_tbps);
			ok = false;
		}
		const char *peaks[TS_DT_COUNT] = {
			[TS_DT_FP32] = y->tflops->fp32, [TS_DT_TF32] = y->tflops->tf32,
			[TS_DT_BF16] = y->tflops->bf16, [TS_DT_FP16] = y->tflops->fp16,
			[TS_DT_FP8] = y->tflops->fp8, [TS_DT_INT8] = y->tflops->int8,
			[TS_DT_FP6] = y->tflops->fp6, [TS_DT_FP4] = y->tflops->fp4,
		};
		bool any = false;
		for (int c = 0; c < TS_DT_COUNT; c++) {
			if (!peaks[c])
				continue;
			any = true;
			if (!parse_positive(peaks[c], 1e6, &d.tflops[c])) {
				ts_ypath tp[] = { { "devices", 0 }, { NULL, (int)i }, { "tflops", 0 },
						  { ts_dtclass_name((ts_dtclass)c), 0 } };
				ts_pat_error_at(p, file, tp, 4, 0, "%s '%s' is not a positive number of TFLOP/s",
					 ts_dtclass_name((ts_dtclass)c), peaks[c]);
				ok = false;
			}
		}
		if (!any) {
			path[2].key = "tflops";
			ts_pat_error_at(p, file, path, 3, 0, "tflops: needs at least one dtype (fp32, bf16, fp8, ...)");
			ok = false;
		}
		if (y->attainable) {
			const y_attain *a = y->attainable;
			ts_ypath ap[] = { { "devices", 0 }, { NULL, (int)i }, { "attainable", 0 },
					  { "compute", 0 } };
			if (a->compute && !parse_positive(a->compute, 1.0, &d.attain_compute)) {
				ts_pat_error_at(p, file, ap, 4, 0, "attainable compute '%s' is not a share "
						"of the peak above 0 and at most 1", a->compute);
				ok = false;
			}
			ap[3].key = "memory";
			if (a->memory && !parse_positive(a->memory, 1.0, &d.attain_memory)) {
				ts_pat_error_at(p, file, ap, 4, 0, "attainable memory '%s' is not a share "
						"of the peak above 0 and at most 1", a->memory);
				ok = false;
			}
			d.attain_source = a->source;
		}
		if (y->links) {
			ts_ypath lp[] = { { "devices", 0 }, { NULL, (int)i }, { "links", 0 },
					  { "gbps", 0 } };
			if (!parse_positive(y->links->gbps, 1e5, &d.link_gbps)) {
				ts_pat_error_at(p, file, lp, 4, 0, "links gbps '%s' is not a positive "
						"number of GB/s", y->links->gbps);
				ok = false;
			}
			d.link_fabric = y->links->fabric;
			d.link_source = y->links->source;
		}
		if (!ok)
			continue;
		size_t j = 0;
		while (j < p->ngpus && strcmp(p->gpus[j].name, d.name) != 0)
			j++;
		if (j < p->ngpus && strcmp(p->gpus[j].file, file) == 0) {
			path[2].key = "name";
			ts_pat_error_at(p, file, path, 3, 0, "device '%s' is defined twice (first at line %d)",
				 d.name, p->gpus[j].line);
			continue;
		}
		if (j == p->ngpus && !ts_grow((void **)&p->gpus, &p->gpus_cap, p->ngpus + 1,
					      sizeof *p->gpus, 32, SIZE_MAX, false)) {
			ts_pat_fail(p, file, 0, 0, "out of memory");
			break;
		}
		p->gpus[j] = d;
		if (j == p->ngpus)
			p->ngpus++;
	}
	free(lines);
}
