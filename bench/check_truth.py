#!/usr/bin/env python3
"""Compare facts about a generated trace with gen_trace's --truth file.

  check_truth.py TRUTH --report REPORT   tracestream --format json output
  check_truth.py TRUTH --trace TRACE     recompute from the trace itself
                                         (plain or .gz; small files only)

--report checks what an analyzer says against the exact truth.  --trace
checks the generator itself: it recomputes every figure with Python's json
module and also checks the block order that real Kineto files have.
Exit 0 when everything matches, 1 on any mismatch.
"""
import argparse
import gzip
import json
import sys

CATS = ("kernel", "gpu_memcpy", "gpu_memset", "cpu_op", "cuda_runtime",
        "cuda_driver", "user_annotation", "gpu_user_annotation",
        "python_function")
CPU_CATS = ("user_annotation", "cpu_op", "python_function")


def us_to_ns(text):
    """Microseconds as written in the trace -> integer ns, exactly."""
    whole, _, frac = str(text).partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def ns_of(value):
    """A report's *_us number -> integer ns (reports print 3 decimals)."""
    return round(value * 1000)


def category(ev):
    if ev.get("ph") == "M":
        return "metadata"
    cat = ev.get("cat")
    if cat == "ac2g":
        return "flow"
    for dev in ("mtia", "xpu", "hpu", "privateuse1"):   # another accelerator's
        if isinstance(cat, str) and cat.startswith(dev + "_"):
            return dev
    return cat if cat in CATS else "other"


class Checker:
    def __init__(self):
        self.errors = 0

    def eq(self, what, got, want):
        if got != want:
            self.errors += 1
            print(f"MISMATCH {what}: got {got!r}, want {want!r}")


def load_trace(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        # parse_float keeps the text so ts/dur convert to ns exactly
        return json.load(f, parse_float=str)


def union_ns(intervals):
    busy, end = 0, -1
    for a, b in sorted(intervals):
        if b <= end:
            continue
        busy += b - max(a, end)
        end = b
    return busy


def kernel_facts(events):
    per_name, intervals = {}, []
    for ev in events:
        if ev.get("cat") != "kernel":
            continue
        ts, dur = us_to_ns(ev["ts"]), us_to_ns(ev["dur"])
        st = per_name.setdefault(ev["name"], [0, 0, None, None])
        st[0] += 1
        st[1] += dur
        st[2] = dur if st[2] is None else min(st[2], dur)
        st[3] = dur if st[3] is None else max(st[3], dur)
        intervals.append((ts, ts + dur))
    return per_name, intervals


def check_order(c, events):
    """Block order of real files: all CPU events, then GPU, then M at the end;
    every External id a kernel carries was defined by an earlier cpu_op."""
    first_gpu = next(i for i, e in enumerate(events)
                     if e.get("cat") in ("kernel", "cuda_runtime"))
    last_cpu = max(i for i, e in enumerate(events) if e.get("cat") in CPU_CATS)
    c.eq("CPU block ends before the GPU block", last_cpu < first_gpu, True)
    seen_ext, missing = set(), 0
    for e in events:
        ext = (e.get("args") or {}).get("External id")
        if e.get("cat") == "cpu_op":
            seen_ext.add(ext)
        elif e.get("cat") == "kernel" and ext is not None and ext not in seen_ext:
            missing += 1
    c.eq("kernels whose External id has no earlier cpu_op", missing, 0)
    starts = {e["id"] for e in events if e.get("ph") == "s"}
    kernels = [e for e in events if e.get("cat") == "kernel"]
    c.eq("kernels without a flow start",
         sum(1 for k in kernels if k["args"]["correlation"] not in starts), 0)


def check_trace(c, truth, events):
    t = truth["trace"]
    cats = {k: 0 for k in truth["events"]}
    for ev in events:
        cats[category(ev)] += 1
    c.eq("events by category", cats, truth["events"])
    c.eq("events", len(events), t["events"])
    per_name, intervals = kernel_facts(events)
    c.eq("kernels", sum(v[0] for v in per_name.values()), t["kernels"])
    c.eq("distinct_kernels", len(per_name), t["distinct_kernels"])
    c.eq("kernel_time_ns", sum(v[1] for v in per_name.values()), t["kernel_time_ns"])
    c.eq("busy_time_ns", union_ns(intervals), t["busy_time_ns"])
    for k in truth["kernels"]:
        got = per_name.get(k["name"], [0, 0, 0, 0])
        c.eq("kernel " + k["name"][:60],
             (got[0], got[1], got[2], got[3]),
             (k["count"], k["total_ns"], us_to_ns(k["min_us"]), us_to_ns(k["max_us"])))
    mem = {}
    for e in events:
        if e.get("cat") in ("gpu_memcpy", "gpu_memset"):
            kind = "Memset" if e["cat"] == "gpu_memset" else e["name"].split()[1]
            m = mem.setdefault(kind, [0, 0, 0])
            m[0] += 1
            m[1] += us_to_ns(e["dur"])
            m[2] += int(e["args"]["bytes"])
    c.eq("memory", mem, {m["kind"]: [m["count"], us_to_ns(m["total_us"]), m["bytes"]]
                         for m in truth["memory"]})
    timed = [e for e in events if e.get("ph") != "M"]
    first = min(us_to_ns(e["ts"]) for e in timed)
    last = max(us_to_ns(e["ts"]) + us_to_ns(e.get("dur", "0")) for e in timed)
    c.eq("span_ns", last - first, us_to_ns(t["span_us"]))
    gpu = min(a for a, _ in intervals), max(b for _, b in intervals)
    c.eq("gpu_span_ns", gpu[1] - gpu[0], us_to_ns(t["gpu_span_us"]))
    check_order(c, events)


def check_report(c, truth, rep):
    t, r = truth["trace"], rep["trace"]
    for key in ("events", "kernels", "distinct_kernels"):
        c.eq(key, r.get(key), t[key])
    for key in ("kernel_time_us", "busy_time_us", "span_us", "gpu_span_us"):
        if r.get(key) is None:
            c.eq(key, None, t[key])
        else:
            c.eq(key + " (ns)", ns_of(r[key]), us_to_ns(t[key]))
    c.eq("bytes", r.get("bytes"), t["bytes"])
    c.eq("platform", r.get("platform"), t["platform"])
    c.eq("gpu", r.get("gpu"), t["gpu"])
    c.eq("base_time_ns", r.get("base_time_ns"), t["base_time_ns"])
    # a category the generator never writes (another accelerator's) is
    # reported as 0: the same as absent from the truth
    got_ev = {k: v for k, v in (rep.get("events") or {}).items() if v or k in truth["events"]}
    c.eq("events by category", got_ev, truth["events"])
    got = {k["name"]: k for k in rep.get("kernels", [])}
    for k in truth["kernels"]:
        g = got.get(k["name"])
        if g is None:
            c.eq("kernel present: " + k["name"][:60], None, k["count"])
            continue
        c.eq("kernel " + k["name"][:60],
             (g["count"], ns_of(g["total_us"]), ns_of(g["min_us"]), ns_of(g["max_us"])),
             (k["count"], k["total_ns"], us_to_ns(k["min_us"]), us_to_ns(k["max_us"])))
    # nothing dropped from the joins: every op and frame indexed or counted
    a = rep.get("attribution") or {}
    py = a.get("python") or {}
    c.eq("ops indexed", a.get("ops_indexed"), truth["events"].get("cpu_op", 0))
    c.eq("ops dropped", a.get("ops_dropped"), 0)
    c.eq("python frames", py.get("frames"), truth["events"].get("python_function", 0))
    c.eq("python frames dropped", py.get("dropped"), 0)
    mem = {m["kind"]: m for m in rep.get("memory", [])}
    for m in truth["memory"]:
        g = mem.get(m["kind"], {})
        c.eq("memory " + m["kind"],
             (g.get("count"), ns_of(g.get("total_us", 0)), g.get("bytes")),
             (m["count"], us_to_ns(m["total_us"]), m["bytes"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("truth")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--report", help="tracestream --format json output")
    src.add_argument("--trace", help="the generated trace (small files only)")
    args = ap.parse_args()

    with open(args.truth) as f:
        truth = json.load(f, parse_float=str)
    c = Checker()
    if args.trace:
        check_trace(c, truth, load_trace(args.trace)["traceEvents"])
    else:
        with open(args.report) as f:
            check_report(c, truth, json.load(f))
    print("check_truth: %s" % ("OK" if c.errors == 0 else "%d mismatches" % c.errors))
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main())
