#!/usr/bin/env python3
"""A hand-made Kineto trace with known FLOPs, bytes and kernel times.

    mkroof.py [--gpu NAME] [--sms N] [--mem BYTES] [--amd] > trace.json

Two aten::mm calls, bf16 [512, 4096] x [4096, 1024], 50 us of kernel each;
one _C::rms_norm(out [512, 4096], x, w, eps) with a 10 us kernel; one
aten::mm [8192, 8192] x [8192, 8192] whose kernel lasts 1 us (faster than
any GPU: the roofline must refuse its percentage). Each op launches its
kernel through cudaLaunchKernel (correlation) and the kernel carries the
op's External id.
"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("--gpu", default="NVIDIA H100 80GB HBM3")
ap.add_argument("--sms", type=int, default=132)
ap.add_argument("--mem", type=int, default=85018279936)
ap.add_argument("--amd", action="store_true", help="an AMD trace (hip, roctracer, warpSize 64)")
a = ap.parse_args()

BF = "c10::BFloat16"
calls = [  # op, dims, types, kernel name, kernel us
    ("aten::mm", [[512, 4096], [4096, 1024]], [BF, BF], "sm90_xmma_gemm_bf16bf16_bf16f32", 50.0),
    ("aten::mm", [[512, 4096], [4096, 1024]], [BF, BF], "sm90_xmma_gemm_bf16bf16_bf16f32", 50.0),
    ("_C::rms_norm", [[512, 4096], [512, 4096], [4096], []], [BF, BF, BF, "Scalar"],
     "void vllm::rms_norm_kernel<c10::BFloat16>", 10.0),
    ("aten::mm", [[8192, 8192], [8192, 8192]], [BF, BF], "sm90_xmma_gemm_bf16bf16_bf16f32_big", 1.0),
]
ev = []
t = 1000.0
for i, (op, dims, types, kname, kus) in enumerate(calls):
    ext, corr = 100 + i, 500 + i
    ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1, "tid": 1, "ts": t, "dur": 20.0,
               "args": {"External id": ext, "Input Dims": dims, "Input type": types,
                        "Concrete Inputs": [""] * len(dims)}})
    ev.append({"ph": "X", "cat": "cuda_runtime",
               "name": "hipLaunchKernel" if a.amd else "cudaLaunchKernel", "pid": 1, "tid": 1,
               "ts": t + 5, "dur": 5.0, "args": {"External id": ext, "correlation": corr}})
    ev.append({"ph": "X", "cat": "kernel", "name": kname, "pid": 0, "tid": 7, "ts": t + 30,
               "dur": kus, "args": {"External id": ext, "correlation": corr, "device": 0,
                                    "stream": 7, "grid": [132, 1, 1], "block": [128, 1, 1]}})
    t += 200.0
doc = {"schemaVersion": 1,
       "deviceProperties": [{"id": 0, "name": a.gpu, "totalGlobalMem": a.mem,
                             "computeMajor": 9, "computeMinor": 0, "numSms": a.sms,
                             "warpSize": 64 if a.amd else 32}],
       "traceEvents": ev}
doc["roctracer_version" if a.amd else "cuda_runtime_version"] = 4 if a.amd else 12040
json.dump(doc, __import__("sys").stdout, indent=1)
