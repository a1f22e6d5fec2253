#!/usr/bin/env python3
"""A hand-made Kineto trace with known FLOPs, bytes and kernel times.

    mkroof.py [--gpu NAME] [--sms N] [--mem BYTES] [--amd] > trace.json

Two aten::mm calls, bf16 [512, 4096] x [4096, 1024], 50 us of kernel each;
one _C::rms_norm(out [512, 4096], x, w, eps) with a 10 us kernel; one
aten::mm [8192, 8192] x [8192, 8192] whose kernel lasts 1 us (faster than
any GPU: the roofline must refuse its percentage). Each op launches its
kernel through cudaLaunchKernel (correlation) and the kernel carries the
op's External id.

With --moe, the trace is rank 0 of 2 (distributedInfo) and adds three MoE
calls of 16 tokens with a 400 us kernel each: SGLang's
fused_experts(x [16, 2048], w1 [128, 1536, 2048], w2 [128, 2048, 768],
topk_weights [16, 8], topk_ids [16, 8]), whose shapes say everything; vLLM's
moe_forward(x [16, 2048], router_logits [16, 128]), which records neither
the top-k nor the expert size (Qwen3-30B-A3B's: 128 experts, top-8, hidden
2048, expert intermediate 768); and moe_forward with 96 experts, a model no
table knows.
"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("--gpu", default="NVIDIA H100 80GB HBM3")
ap.add_argument("--sms", type=int, default=132)
ap.add_argument("--mem", type=int, default=85018279936)
ap.add_argument("--amd", action="store_true", help="an AMD trace (hip, roctracer, warpSize 64)")
ap.add_argument("--moe", action="store_true", help="rank 0 of 2, with three MoE calls")
a = ap.parse_args()

BF = "c10::BFloat16"
calls = [  # op, dims, types, kernel name, kernel us
    ("aten::mm", [[512, 4096], [4096, 1024]], [BF, BF], "sm90_xmma_gemm_bf16bf16_bf16f32", 50.0),
    ("aten::mm", [[512, 4096], [4096, 1024]], [BF, BF], "sm90_xmma_gemm_bf16bf16_bf16f32", 50.0),
    ("_C::rms_norm", [[512, 4096], [512, 4096], [4096], []], [BF, BF, BF, "Scalar"],
     "void vllm::rms_norm_kernel<c10::BFloat16>", 10.0),
    ("aten::mm", [[8192, 8192], [8192, 8192]], [BF, BF], "sm90_xmma_gemm_bf16bf16_bf16f32_big", 1.0),
]
if a.moe:
    calls += [
        ("sglang::inplace_fused_experts",
         [[16, 2048], [128, 1536, 2048], [128, 2048, 768], [16, 8], [16, 8]],
         [BF, BF, BF, "float", "int"], "fused_moe_kernel", 400.0),
        ("vllm::moe_forward", [[16, 2048], [16, 128], []], [BF, BF, "ScalarList"],
         "fused_moe_kernel", 400.0),
        ("vllm::moe_forward", [[16, 2048], [16, 96], []], [BF, BF, "ScalarList"],
         "fused_moe_kernel", 400.0),
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
if a.moe:
    doc = {"distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2}, **doc}
doc["roctracer_version" if a.amd else "cuda_runtime_version"] = 4 if a.amd else 12040
json.dump(doc, __import__("sys").stdout, indent=1)
