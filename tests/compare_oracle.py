#!/usr/bin/env python3
"""Compare tracestream's JSON output for one trace with tests/oracle.py's answer.

Usage: compare_oracle.py ORACLE.json TOOL.json RC TRACE_PATH [STDERR_FILE]

Prints one TAP-like line per aspect group ("ok - ...", "not ok - ...: details")
and always exits 0 (exit 2 only for bad usage).  Times are compared in integer
nanoseconds: tool *_us values are parsed from their text as Decimals.
Also checks the facts MANIFEST.md gives for the real traces in ../shared/traces.
"""
import json
import os
import sys
from decimal import Decimal as D

# Facts from ../shared/traces/MANIFEST.md ("Truth per trace" and "Facts worth
# knowing"); gpu is a model token that must occur in the device name ("" means
# the device name is empty).  mb is the raw JSON size in MB (10^6 bytes).
MANIFEST = {
    "vllm_gptoss120b_b200_tp8_eager_prefill.json.gz":
        dict(mb="14.2", events=24656, kernels=768, distinct=29, platform="NVIDIA",
             gpu="B200", world_size=8, metadata=0),
    "sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz":
        dict(mb="1.3", events=4033, kernels=713, distinct=34, platform="NVIDIA",
             gpu="B300", world_size=1),
    "sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz":
        dict(mb="1.4", events=4112, kernels=802, distinct=31, platform="AMD",
             gpu="MI300X", world_size=1, longest_name=2006),
    "sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz":
        dict(mb="15.3", events=60315, kernels=527, distinct=27, platform="AMD",
             gpu="MI300X", world_size=1, metadata=0),
    "sglang_qwen3-8b_mi300x_decode_bs32_cudagraph.json.gz":
        dict(mb="0.6", events=2058, kernels=555, distinct=27, platform="AMD",
             gpu="MI300X", world_size=1, metadata=0),
    "vllm_mi300x_mixed_prefilldecode_piecewise_graph.json.gz":
        dict(mb="4.5", events=19289, kernels=413, distinct=22, platform="AMD",
             gpu="", sm_count=304, warp_size=64, metadata=0),
    "vllm_mi300x_graph_capture_bs8192_piecewise.pt.trace.json.gz":
        dict(mb="31.7", events=122257, kernels=99, distinct=4, platform="AMD",
             gpu="", python_function=110876),
    "hf_qwen1.5-0.5b-chat_h100.json.gz":
        dict(mb="8.6", events=18221, kernels=1465, distinct=26, platform="NVIDIA",
             gpu="H100"),
    "hta_a100_ddp_training_nccl.json.gz":
        dict(mb="9.8", events=40573, kernels=2700, distinct=70, platform="NVIDIA",
             gpu="A100"),
    "switchtransformers_toy-moe_a100_train.json":
        dict(mb="3.2", events=11073, kernels=484, distinct=29, platform="NVIDIA",
             gpu="A100", compressed=False),
}

CATS = ("kernel", "gpu_memcpy", "gpu_memset", "cpu_op", "cuda_runtime",
        "cuda_driver", "user_annotation", "gpu_user_annotation",
        "python_function", "flow", "metadata", "mtia", "xpu", "hpu", "privateuse1",
        "other")


class Bad(Exception):
    pass


def ns(v, what):
    """Tool *_us value (Decimal or int) -> integer ns; must be exact."""
    if isinstance(v, bool) or not isinstance(v, (int, D)):
        raise Bad("%s is not a number: %r" % (what, v))
    x = D(v) * 1000
    if x != x.to_integral_value():
        raise Bad("%s=%s is not a whole number of ns" % (what, v))
    return int(x)


def emit(label, what, problems):
    if problems:
        more = "" if len(problems) <= 4 else " (+%d more)" % (len(problems) - 4)
        print("not ok - %s: %s: %s%s" % (label, what, "; ".join(problems[:4]), more))
    else:
        print("ok - %s: %s" % (label, what))


def group(label, what, fn):
    problems = []
    try:
        fn(problems)
    except Bad as e:
        problems.append(str(e))
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        problems.append("output shape: %s: %r" % (type(e).__name__, e))
    emit(label, what, problems)


def short(s, n=60):
    s = json.dumps(s, ensure_ascii=True)
    return s if len(s) <= n else s[:n] + '..."'


def main(argv):
    if len(argv) not in (5, 6):
        sys.stderr.write(__doc__)
        return 2
    oracle_path, tool_path, rc, trace = argv[1], argv[2], int(argv[3]), argv[4]
    err = ""
    if len(argv) == 6:
        try:
            with open(argv[5], "rb") as f:
                err = f.read(300).decode("utf-8", "replace").replace("\n", " ").strip()
        except OSError:
            pass
    if err:
        err = ", stderr: " + err
    base = os.path.basename(trace)
    label = base
    with open(oracle_path, "rb") as f:
        o = json.loads(f.read().decode("utf-8"))
    try:
        with open(tool_path, "rb") as f:
            t = json.loads(f.read().decode("utf-8"), parse_float=D)
        if not isinstance(t, dict):
            raise ValueError("not an object")
    except (ValueError, OSError) as e:
        print("not ok - %s: exit 0 and one JSON document: rc=%d, %s%s" % (label, rc, e, err))
        return 0
    emit(label, "exit 0 and one JSON document",
         [] if rc == 0 else ["exit code %d%s" % (rc, err)])
    tr = t.get("trace", {})

    def header(p):
        if t.get("schema") != 1:
            p.append("schema=%r" % t.get("schema"))
        if t.get("tool") != "tracestream":
            p.append("tool=%r" % t.get("tool"))
        if tr.get("partial") is not False:
            p.append("partial=%r" % tr.get("partial"))
        if tr.get("error") is not None:
            p.append("error=%r" % tr.get("error"))
        if tr.get("path") != trace:
            p.append("path=%r, want %r" % (tr.get("path"), trace))
        size = os.path.getsize(trace)
        if tr.get("input_bytes") != size:
            p.append("input_bytes=%r, want %d" % (tr.get("input_bytes"), size))
        with open(trace, "rb") as f:
            gz = f.read(2) == b"\x1f\x8b"
        if tr.get("compressed") is not gz:
            p.append("compressed=%r, want %r" % (tr.get("compressed"), gz))
        if tr.get("bytes") != o["bytes"]:
            p.append("bytes=%r, want %d" % (tr.get("bytes"), o["bytes"]))
        if not isinstance(t.get("warnings"), list):
            p.append("warnings is not a list")
    group(label, "header (schema, path, input_bytes, compressed, bytes, partial, error)", header)

    def counts(p):
        for k in ("events", "kernels", "distinct_kernels"):
            if tr.get(k) != o[k]:
                p.append("trace.%s=%r, want %d" % (k, tr.get(k), o[k]))
        ev = t["events"]
        for c in CATS:
            if ev.get(c) != o["categories"][c]:
                p.append("events.%s=%r, want %d" % (c, ev.get(c), o["categories"][c]))
        extra = set(ev) - set(CATS)
        if extra:
            p.append("unexpected event categories %s" % sorted(extra))
    group(label, "event counts per category, kernels, distinct kernels", counts)

    def times(p):
        for k in ("kernel_time", "busy_time", "span", "gpu_span"):
            got = ns(tr.get(k + "_us"), k + "_us")
            want = o[k + "_ns"]
            if got != want:
                p.append("%s_us=%s, want %s (diff %+d ns)"
                         % (k, tr.get(k + "_us"), D(want) / 1000, got - want))
    group(label, "kernel_time, busy_time, span, gpu_span exact to the ns", times)

    rows = t["kernels"] if isinstance(t.get("kernels"), list) else []
    by_name = {}
    for r in rows:
        by_name.setdefault(r.get("name"), []).append(r)

    def per_name_exact(p):
        if not isinstance(t.get("kernels"), list):
            raise Bad("kernels is not a list")
        dup = [n for n, rs in by_name.items() if len(rs) > 1]
        if dup:
            p.append("names listed twice: %s" % ", ".join(short(n) for n in dup[:3]))
        missing = [n for n in o["per_name"] if n not in by_name]
        extra = [n for n in by_name if n not in o["per_name"]]
        if missing:
            p.append("%d names missing, e.g. %s" % (len(missing), short(missing[0])))
        if extra:
            p.append("%d unknown names, e.g. %s" % (len(extra), short(extra[0])))
        for n, s in o["per_name"].items():
            if n not in by_name:
                continue
            r = by_name[n][0]
            if r.get("count") != s["count"]:
                p.append("%s count=%r, want %d" % (short(n), r.get("count"), s["count"]))
            for k in ("total", "min", "max"):
                got = ns(r.get(k + "_us"), k + "_us")
                if got != s[k + "_ns"]:
                    p.append("%s %s_us=%s, want %s" % (short(n), k, r.get(k + "_us"),
                                                       D(s[k + "_ns"]) / 1000))
    group(label, "per-kernel names, count, total, min, max exact", per_name_exact)

    def per_name_stats(p):
        kt = o["kernel_time_ns"]
        for n, s in o["per_name"].items():
            if n not in by_name:
                continue
            r = by_name[n][0]
            for q in ("p50", "p90", "p99"):
                got = ns(r.get(q + "_us"), q + "_us")
                want = s[q + "_ns"]
                if abs(got - want) > D(want) * D("0.01") + 1:
                    p.append("%s %s_us=%s, want %s +-1%%" % (short(n), q, r.get(q + "_us"),
                                                            D(want) / 1000))
            sd = D(ns(r.get("stddev_us"), "stddev_us"))
            want = D(repr(s["stddev_ns"]))
            if abs(sd - want) > want * D("0.001") + 1:
                p.append("%s stddev_us=%s, want %.3f +-0.1%%" % (short(n), r.get("stddev_us"),
                                                                 want / 1000))
            avg = D(ns(r.get("avg_us"), "avg_us"))
            exact = D(s["total_ns"]) / s["count"]
            if abs(avg - exact) > 1:
                p.append("%s avg_us=%s, want %.4f" % (short(n), r.get("avg_us"), exact / 1000))
            pct = r.get("pct")
            want_pct = D(100 * s["total_ns"]) / kt if kt else D(0)
            if not isinstance(pct, (int, D)) or isinstance(pct, bool) or \
                    abs(D(pct) - want_pct) > D("0.011"):
                p.append("%s pct=%r, want %.3f" % (short(n), pct, want_pct))
    group(label, "per-kernel p50/p90/p99 (1%), stddev (0.1%), avg, pct", per_name_stats)

    def order(p):
        keyed = [(-ns(r["total_us"], "total_us"), r["name"]) for r in rows]
        if keyed != sorted(keyed):
            for i in range(1, len(keyed)):
                if keyed[i] < keyed[i - 1]:
                    p.append("row %d %s comes after %s" % (i, short(rows[i]["name"], 40),
                                                          short(rows[i - 1]["name"], 40)))
                    break
    group(label, "kernels sorted by total desc, then name asc", order)

    def memory(p):
        mem = t["memory"]
        if not isinstance(mem, list):
            raise Bad("memory is not a list")
        got = {}
        for m in mem:
            if m.get("kind") in got:
                p.append("kind %r listed twice" % m.get("kind"))
            got[m.get("kind")] = m
        if set(got) != set(o["memory"]):
            p.append("kinds %s, want %s" % (sorted(map(str, got)), sorted(o["memory"])))
        for k, w in o["memory"].items():
            if k not in got:
                continue
            m = got[k]
            if m.get("count") != w["count"]:
                p.append("%s count=%r, want %d" % (k, m.get("count"), w["count"]))
            if ns(m.get("total_us"), "total_us") != w["total_ns"]:
                p.append("%s total_us=%s, want %s" % (k, m.get("total_us"),
                                                      D(w["total_ns"]) / 1000))
            if m.get("bytes") != w["bytes"]:
                p.append("%s bytes=%r, want %d" % (k, m.get("bytes"), w["bytes"]))
    group(label, "memory rows (kind, count, total, bytes)", memory)

    def platform(p):
        for k in ("platform", "gpu", "world_size", "rank", "base_time_ns"):
            if tr.get(k) != o[k] or type(tr.get(k)) is not type(o[k]):
                p.append("%s=%r, want %r" % (k, tr.get(k), o[k]))
        dev = tr.get("device")
        if o["device"] is None:
            if dev is not None:
                p.append("device=%r, want null" % (dev,))
        elif not isinstance(dev, dict):
            p.append("device=%r, want an object" % (dev,))
        else:
            # device.id is not compared: which entry to pick is not specified
            # and all entries agree on the rest in these traces.
            for k in ("sm_count", "memory_bytes", "warp_size"):
                if dev.get(k) != o["device"][k]:
                    p.append("device.%s=%r, want %r" % (k, dev.get(k), o["device"][k]))
    group(label, "platform, gpu, device, world_size, rank, base_time_ns", platform)

    facts = MANIFEST.get(base)
    if facts is None:
        return 0

    def manifest(p):
        f = facts
        if abs(D(tr.get("bytes", 0)) / 1000000 - D(f["mb"])) > D("0.05"):
            p.append("bytes=%r, MANIFEST says %s MB" % (tr.get("bytes"), f["mb"]))
        for k, tk in (("events", "events"), ("kernels", "kernels"),
                      ("distinct", "distinct_kernels"), ("platform", "platform")):
            if tr.get(tk) != f[k]:
                p.append("%s=%r, MANIFEST says %r" % (tk, tr.get(tk), f[k]))
        gpu = tr.get("gpu")
        if f["gpu"] == "":
            if gpu != "":
                p.append("gpu=%r, MANIFEST says empty" % (gpu,))
        elif not isinstance(gpu, str) or f["gpu"] not in gpu:
            p.append("gpu=%r, MANIFEST says %s" % (gpu, f["gpu"]))
        if "world_size" in f and tr.get("world_size") != f["world_size"]:
            p.append("world_size=%r, MANIFEST says TP=%d" % (tr.get("world_size"), f["world_size"]))
        for c in ("metadata", "python_function"):
            if c in f and t["events"].get(c) != f[c]:
                p.append("events.%s=%r, MANIFEST says %d" % (c, t["events"].get(c), f[c]))
        dev = tr.get("device") or {}
        for k in ("sm_count", "warp_size"):
            if k in f and dev.get(k) != f[k]:
                p.append("device.%s=%r, MANIFEST says %d" % (k, dev.get(k), f[k]))
        if "compressed" in f and tr.get("compressed") is not f["compressed"]:
            p.append("compressed=%r, MANIFEST says plain JSON" % (tr.get("compressed"),))
        if "longest_name" in f:
            longest = max((len(r["name"].encode("utf-8")) for r in rows), default=0)
            if longest != f["longest_name"]:
                p.append("longest kernel name %d bytes, MANIFEST says %d"
                         % (longest, f["longest_name"]))
    group(label, "MANIFEST facts", manifest)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
