#!/usr/bin/env python3
"""Independent reference ("oracle") for tracestream, Python 3 stdlib only.

Usage: oracle.py TRACE            (TRACE: .json or gzip, detected by magic; '-' = stdin)

Prints one JSON document with the facts tracestream must report, computed
directly and plainly from the whole trace loaded in memory:

  events, categories{...}, kernels, distinct_kernels, kernel_time_ns,
  busy_time_ns (exact union of kernel [ts, ts+dur) per args.device),
  span_ns, gpu_span_ns, base_time_ns, bytes (uncompressed JSON size),
  per_name{name: {count, total_ns, min_ns, max_ns, p50_ns, p90_ns, p99_ns,
                  stddev_ns}},
  memory{kind: {count, total_ns, bytes}},
  platform, gpu, device{id, sm_count, memory_bytes, warp_size}|null,
  world_size, rank

All times are integer nanoseconds: the microsecond text of ts/dur is parsed as
a Decimal (never a float), multiplied by 1000 and rounded half away from zero.
Percentiles are nearest rank: the smallest x with at least ceil(q*n) values
<= x.  stddev is the sample standard deviation (n-1; 0 when n == 1).
"""
import decimal
import gzip
import json
import sys
from fractions import Fraction

decimal.getcontext().prec = 60

CATS = ("kernel", "gpu_memcpy", "gpu_memset", "cpu_op", "cuda_runtime",
        "cuda_driver", "user_annotation", "gpu_user_annotation",
        "python_function")
DEVICES = ("mtia", "xpu", "hpu", "privateuse1")   # another accelerator's event kinds
ALL_CATS = CATS + ("flow", "metadata") + DEVICES + ("other",)
# PyTorch 1.8 / 1.9 spell these differently (kineto's own tb_plugin samples)
OLD_CATS = {"Kernel": "kernel", "Memcpy": "gpu_memcpy", "memcpy": "gpu_memcpy",
            "Memset": "gpu_memset", "memset": "gpu_memset", "Runtime": "cuda_runtime",
            "runtime": "cuda_runtime", "Operator": "cpu_op", "operator": "cpu_op"}
FLOW_CATS = ("ac2g", "async", "async_gpu", "async_cpu_to_gpu")
MEM_KINDS = ("HtoD", "DtoH", "DtoD", "HtoH", "PtoP")


def load(path):
    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        # gzip.decompress handles concatenated members.
        raw = gzip.decompress(raw)
    return json.loads(raw.decode("utf-8"), parse_float=decimal.Decimal), len(raw)


def to_ns(v):
    """Microseconds (int or Decimal) -> integer ns, half away from zero.
    None / missing / non-numeric -> None."""
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v * 1000
    if isinstance(v, decimal.Decimal):
        return int((v * 1000).quantize(decimal.Decimal(1),
                                       rounding=decimal.ROUND_HALF_UP))
    return None


def category(ev):
    if ev.get("ph") == "M":
        return "metadata"
    cat = ev.get("cat")
    if cat in FLOW_CATS:
        return "flow"
    cat = OLD_CATS.get(cat, cat)
    if cat in CATS:
        return cat
    for dev in DEVICES:
        if isinstance(cat, str) and cat.startswith(dev + "_"):
            return dev
    return "other"


def nearest_rank(sorted_vals, q):
    n = len(sorted_vals)
    x = Fraction(q) * n
    k = -(-x.numerator // x.denominator)  # ceil(q*n), exact
    k = max(1, min(n, k))
    return sorted_vals[k - 1]


def stddev(vals):
    n = len(vals)
    if n < 2:
        return 0.0
    mean = Fraction(sum(vals), n)
    ss = sum((Fraction(v) - mean) ** 2 for v in vals)
    var = ss / (n - 1)
    # sqrt with Decimal for good precision
    d = decimal.Decimal(var.numerator) / decimal.Decimal(var.denominator)
    return float(d.sqrt())


def union_length(intervals):
    total = 0
    cur_s = cur_e = None
    for s, e in sorted(intervals):
        if e < s:
            e = s
        if cur_s is None:
            cur_s, cur_e = s, e
        elif s <= cur_e:
            if e > cur_e:
                cur_e = e
        else:
            total += cur_e - cur_s
            cur_s, cur_e = s, e
    if cur_s is not None:
        total += cur_e - cur_s
    return total


def mem_kind(ev, cat):
    if cat == "gpu_memset":
        return "Memset"
    name = ev.get("name")
    if isinstance(name, str):
        parts = name.split()
        if len(parts) >= 2 and parts[0] == "Memcpy" and parts[1] in MEM_KINDS:
            return parts[1]
    return "other"


def int_or_none(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, decimal.Decimal) and v == v.to_integral_value():
        return int(v)
    return None


def platform_of(doc):
    keys = set(doc.keys())
    if "roctracer_version" in keys or any(k.startswith("hip_") for k in keys):
        return "AMD"
    if any(k.startswith("cuda") or k.startswith("cupti") for k in keys):
        return "NVIDIA"
    dp = doc.get("deviceProperties")
    if isinstance(dp, list):
        for d in dp:
            if isinstance(d, dict):
                ws = int_or_none(d.get("warpSize"))
                if ws == 64:
                    return "AMD"
                if ws == 32:
                    return "NVIDIA"
    return "unknown"


def analyze(doc):
    evs = doc.get("traceEvents") or []
    cats = {c: 0 for c in ALL_CATS}
    per_name = {}
    kernel_time = 0
    by_device = {}
    kdev_count = {}
    span_lo = span_hi = None
    g_lo = g_hi = None
    memory = {}

    for ev in evs:
        if not isinstance(ev, dict):
            cats["other"] += 1
            continue
        c = category(ev)
        cats[c] += 1
        ts = to_ns(ev.get("ts"))
        dur = to_ns(ev.get("dur"))
        d0 = dur if dur is not None else 0
        if c != "metadata" and ts is not None:
            if span_lo is None or ts < span_lo:
                span_lo = ts
            if span_hi is None or ts + d0 > span_hi:
                span_hi = ts + d0
        if c == "kernel":
            name = ev.get("name")
            if not isinstance(name, str):
                name = ""
            st = per_name.setdefault(name, [])
            st.append(d0)
            kernel_time += d0
            args = ev.get("args") if isinstance(ev.get("args"), dict) else {}
            dev = args.get("device")
            dev = int_or_none(dev) if dev is not None else None
            kdev_count[dev] = kdev_count.get(dev, 0) + 1
            if ts is not None:
                by_device.setdefault(dev, []).append((ts, ts + d0))
                if g_lo is None or ts < g_lo:
                    g_lo = ts
                if g_hi is None or ts + d0 > g_hi:
                    g_hi = ts + d0
        elif c in ("gpu_memcpy", "gpu_memset"):
            k = mem_kind(ev, c)
            m = memory.setdefault(k, {"count": 0, "total_ns": 0, "bytes": 0})
            m["count"] += 1
            m["total_ns"] += d0
            args = ev.get("args") if isinstance(ev.get("args"), dict) else {}
            b = int_or_none(args.get("bytes"))
            if b is not None:
                m["bytes"] += b

    names = {}
    for name, durs in per_name.items():
        s = sorted(durs)
        names[name] = {
            "count": len(s), "total_ns": sum(s), "min_ns": s[0], "max_ns": s[-1],
            "p50_ns": nearest_rank(s, Fraction(1, 2)),
            "p90_ns": nearest_rank(s, Fraction(9, 10)),
            "p99_ns": nearest_rank(s, Fraction(99, 100)),
            "stddev_ns": stddev(s),
        }

    busy = sum(union_length(iv) for iv in by_device.values())

    # GPU: the deviceProperties entry whose id is the device most kernels ran
    # on; else the first entry.
    gpu = ""
    device = None
    dp = doc.get("deviceProperties")
    if isinstance(dp, list) and dp:
        entries = [d for d in dp if isinstance(d, dict)]
        chosen = entries[0] if entries else None
        if kdev_count:
            top = max(kdev_count.items(), key=lambda kv: kv[1])[0]
            for d in entries:
                if int_or_none(d.get("id")) == top:
                    chosen = d
                    break
        if chosen is not None:
            nm = chosen.get("name")
            gpu = nm if isinstance(nm, str) else ""
            device = {"id": int_or_none(chosen.get("id")),
                      "sm_count": int_or_none(chosen.get("numSms")),
                      "memory_bytes": int_or_none(chosen.get("totalGlobalMem")),
                      "warp_size": int_or_none(chosen.get("warpSize"))}

    di = doc.get("distributedInfo")
    ws = rank = None
    if isinstance(di, dict):
        ws = int_or_none(di.get("world_size"))
        rank = int_or_none(di.get("rank"))

    return {
        "events": len(evs),
        "categories": cats,
        "kernels": cats["kernel"],
        "distinct_kernels": len(per_name),
        "kernel_time_ns": kernel_time,
        "busy_time_ns": busy,
        "span_ns": (span_hi - span_lo) if span_lo is not None else 0,
        "gpu_span_ns": (g_hi - g_lo) if g_lo is not None else 0,
        "base_time_ns": int_or_none(doc.get("baseTimeNanoseconds")),
        "per_name": names,
        "memory": memory,
        "platform": platform_of(doc),
        "gpu": gpu,
        "device": device,
        "world_size": ws,
        "rank": rank,
    }


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: oracle.py TRACE\n")
        return 2
    doc, nbytes = load(argv[1])
    out = analyze(doc)
    out["bytes"] = nbytes
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
