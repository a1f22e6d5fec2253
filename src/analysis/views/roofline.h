/*
 * roofline.h - a workload held against its GPU's peaks.
 *
 * The operator rules give each call's FLOPs and bytes moved from its shapes
 * (flops: and bytes: in patterns/operators.yaml); the workload row sums them
 * with the kernel time of exactly those calls. Achieved TFLOP/s and TB/s are
 * those sums over that time; the arithmetic intensity is FLOPs per byte; the
 * bound is memory when the intensity is below the device's ridge point
 * (peak FLOP/s over peak bytes/s), else compute, and the percentage is of
 * the bound's peak: the dense TFLOP/s of the workload's dtype, or the memory
 * bandwidth. With only FLOPs known the bound is compute, with only bytes
 * memory.
 */
#ifndef TS_ROOFLINE_H
#define TS_ROOFLINE_H

#include <stdbool.h>

#include "analysis/attrib/attrib.h"
#include "analysis/layers/anatomy.h"
#include "analysis/views/result.h"
#include "tables/patterns.h"

typedef enum { TS_BOUND_UNKNOWN, TS_BOUND_COMPUTE, TS_BOUND_MEMORY } ts_bound;

typedef struct {
	bool has_flops, has_bytes;
	double flops, bytes;         /* of the calls that have them */
	double tflops, tbps;         /* achieved; 0 when unknown */
	double intensity;            /* FLOPs per byte; 0 unless both known */
	int dtclass;                 /* ts_dtclass of the dtype, -1 none */
	double peak_tflops;          /* of the dtype on the device; 0 none */
	double peak_tbps;            /* 0: no device */
	ts_bound bound;
	double pct_of_peak;          /* of the bound's peak; -1 unknown */
	/* achieved above the device's peak: the kernels linked to the calls are
	 * not theirs (old traces link some kernels to the wrong op) or the
	 * rule or the peak is wrong. No rate is then given as fact: has_flops
	 * and has_bytes are false, tflops, tbps and pct_of_peak unknown, and
	 * the figures that would have been printed are over_tflops, over_tbps
	 * (the evidence; counted and warned about) */
	bool exceeds_peak;
	double over_tflops, over_tbps;
} ts_roofline;

/* The roofline of workload row w, whose dtype is dtype, on device d (NULL:
 * achieved rates only). */
void ts_roofline_of(const ts_wl_row *w, const char *dtype, const ts_gpu *d,
		    ts_roofline *r);

const char *ts_bound_name(ts_bound b);

/* Workloads whose calls ran faster than gpu's peaks allow (mislinked
 * kernels, or a wrong rule or peak), as a warning. */
void ts_roofline_warnings(const ts_attrib *a, const ts_gpu *gpu, ts_warns *w);

/* The roofline of a sum of kernels (a type or row of the layer
 * anatomy), its workload's dtype from the run's attribution. */
void ts_roofline_sum(const ts_result *res, const ts_anat_sum *s, ts_roofline *r);

#endif
