#!/usr/bin/env python3
"""A trace whose bytes try every way a piece cut can go wrong.

    mktricky.py [--compact] [--events N] > trace.json

The parallel parse cuts traceEvents where the bytes read `}`, a comma and
`{`; this trace puts that pattern where it is not a cut: inside names
("a},{b", "x}, {\\"ph\\": 1}"), inside args (an array of objects), in an
object nested in an array nested in args; it has items that are not
events (a number, an array, a string holding "},{"), a long name (about
200 KB, longer than 8 small pieces), metadata keys after traceEvents
(deviceProperties, distributedInfo, a second trace-level key), and events
of every kind the analysis reads (cpu ops with shapes, runtime launches,
kernels linked to them, annotations, python frames). Deterministic.
"""
import argparse
import json
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--compact", action="store_true")
ap.add_argument("--events", type=int, default=400)
a = ap.parse_args()

ev = []
t = 1000.0
ev.append({"ph": "X", "cat": "user_annotation", "name": "step},{0", "pid": 1, "tid": 1,
           "ts": t, "dur": 50.0 * a.events})
for i in range(a.events):
    ext, corr = 10 + i, 5000 + i
    tricky = ["a},{b", 'x}, {"ph": "X"}', "plain", "q\\n},\\n{", "u\u00e9},{"][i % 5]
    ev.append({"ph": "X", "cat": "python_function", "name": "model.py(%d): forward %s" % (i, tricky),
               "pid": 1, "tid": 1, "ts": t + 1, "dur": 30.0,
               "args": {"Python id": i + 1, "Python parent id": 0,
                        "nested": [{"k": "},{"}, {"k": [{"z": 1}, {"z": 2}]}]}})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
               "ts": t + 2, "dur": 20.0,
               "args": {"External id": ext, "Input Dims": [[64 + i % 3, 4096], [4096, 1024]],
                        "Input type": ["c10::BFloat16", "c10::BFloat16"],
                        "Concrete Inputs": ["", ""], "odd": [{"a": 1}, {"b": "},{"}]}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
               "ts": t + 5, "dur": 4.0, "args": {"External id": ext, "correlation": corr}})
    ev.append({"ph": "X", "cat": "kernel",
               "name": "sm90_xmma_gemm_bf16bf16_bf16f32_%s" % ("a" if i % 2 else "b"),
               "pid": 0, "tid": 7, "ts": t + 10, "dur": 15.0 + i % 7,
               "args": {"External id": ext, "correlation": corr, "device": 0, "stream": 7,
                        "grid": [132, 1, 1], "block": [128, 1, 1]}})
    if i % 97 == 5:
        ev.append(12345)                      # not an event
        ev.append(["},{", {"x": 1}])          # not an event either
        ev.append("},{ a string item },{")
    if i == a.events // 2:
        ev.append({"ph": "i", "cat": "cpu_instant_event", "name": "long " + "},{" * 70000,
                   "pid": 1, "tid": 1, "ts": t + 3})
    t += 50.0
doc = {"schemaVersion": 1, "traceEvents": ev,
       "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85018279936,
                             "computeMajor": 9, "computeMinor": 0, "numSms": 132, "warpSize": 32}],
       "distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 2},
       "cuda_runtime_version": 12040, "traceName": "},{"}
if a.compact:
    json.dump(doc, sys.stdout, separators=(",", ":"))
else:
    json.dump(doc, sys.stdout, indent=1)
