#!/usr/bin/env python3
"""Subset match of tracestream's JSON output against a hand-written expectation.

Usage:
  expect.py EXPECT.json ACTUAL.json RC     compare; prints one mismatch per line,
                                           exit 0 when all match, 1 otherwise
  expect.py --us-format ACTUAL.json        check every *_us number is printed
                                           with exactly 3 decimals
  expect.py --batch LIST                   run for t_fixtures.sh (one Python
                                           start for all fixtures): LIST has one
                                           tab-separated line per fixture:
      NAME FIXTURE EXPECT JSON_OUT JSON_RC JSON_ERR TEXT_OUT TEXT_RC TEXT_ERR
                                           prints ok/not ok lines (see main)

EXPECT is a partial document: only the keys it gives are compared.
  - "$exit": the expected exit code (default 0).
  - "$partial_kernel_rows": true: the expected "kernels" list need not name
    every kernel, and the row-count invariants are not checked (for inputs
    where the contract leaves open whether a kernel gets a row).
  - "kernels": matched by "name"; the expected list must name every kernel the
    tool reports, in the tool's order (total desc, then name asc); each
    expected kernel object is itself a subset.
  - "memory": matched by "kind"; the expected list names every kind reported.
  - numbers are compared as Decimals parsed from their text (never floats):
    exact, except p50_us/p90_us/p99_us (1% relative + 0.001), stddev_us
    (0.1% relative + 0.001), avg_us (+-0.001) and pct (+-0.011).
  - strings, booleans and null compare exactly.
Independent invariants checked on every output: the event categories sum to
trace.events, kernel counts sum to trace.kernels, one row per distinct kernel,
kernels sorted by total desc then name asc.
"""
import decimal
import json
import re
import sys
from decimal import Decimal

D = Decimal

TOL = {
    "p50_us": ("rel", D("0.01")),
    "p90_us": ("rel", D("0.01")),
    "p99_us": ("rel", D("0.01")),
    "stddev_us": ("rel", D("0.001")),
    "avg_us": ("abs", D("0.001")),
    "pct": ("abs", D("0.011")),
}


def load(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"), parse_float=Decimal)


def is_num(v):
    return isinstance(v, (int, Decimal)) and not isinstance(v, bool)


def num_ok(key, want, got):
    if key in TOL:
        kind, t = TOL[key]
        slack = (abs(D(want)) * t + D("0.001")) if kind == "rel" else t
        return abs(D(got) - D(want)) <= slack
    return D(got) == D(want)


PARTIAL_ROWS = False


def compare(want, got, path, out):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            out.append("%s: want an object, got %s" % (path, json.dumps(got, default=str)[:80]))
            return
        for k, w in want.items():
            if k.startswith("$"):
                continue
            p = "%s.%s" % (path, k) if path else k
            if k not in got:
                out.append("%s: missing" % p)
                continue
            if k == "kernels" and isinstance(w, list) and path == "":
                compare_rows(w, got[k], "name", p, out, ordered=True)
            elif k == "memory" and isinstance(w, list) and path == "":
                compare_rows(w, got[k], "kind", p, out, ordered=False)
            else:
                compare(w, got[k], p, out)
        return
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            out.append("%s: want %s, got %s" % (path, dumps(want), dumps(got)))
            return
        for i, (w, g) in enumerate(zip(want, got)):
            compare(w, g, "%s[%d]" % (path, i), out)
        return
    if isinstance(want, bool) or want is None or isinstance(want, str):
        if type(got) is not type(want) or got != want:
            out.append("%s: want %s, got %s" % (path, dumps(want), dumps(got)))
        return
    if is_num(want):
        key = path.rsplit(".", 1)[-1]
        if not is_num(got) or not num_ok(key, want, got):
            out.append("%s: want %s, got %s" % (path, dumps(want), dumps(got)))
        return
    out.append("%s: unsupported expectation %r" % (path, want))


def dumps(v):
    s = json.dumps(v, default=str, ensure_ascii=True)
    return s if len(s) <= 200 else s[:200] + "..."


def compare_rows(want, got, key, path, out, ordered):
    if not isinstance(got, list):
        out.append("%s: want a list, got %s" % (path, dumps(got)))
        return
    gmap = {}
    for g in got:
        if isinstance(g, dict):
            gmap[g.get(key)] = g
    wkeys = [w.get(key) for w in want]
    gkeys = [g.get(key) if isinstance(g, dict) else None for g in got]
    if PARTIAL_ROWS and key == "name":
        missing = [k for k in wkeys if k not in gmap]
        if missing:
            out.append("%s: missing %s %s" % (path, key, dumps(missing)))
    elif sorted(map(str, wkeys)) != sorted(map(str, gkeys)):
        out.append("%s: want %s %s, got %s" % (path, key, dumps(wkeys), dumps(gkeys)))
    elif ordered and wkeys != gkeys:
        out.append("%s: want order %s, got %s" % (path, dumps(wkeys), dumps(gkeys)))
    for w in want:
        k = w.get(key)
        if k in gmap:
            compare(w, gmap[k], "%s[%s]" % (path, dumps(k)), out)


def invariants(doc, out):
    try:
        tr = doc["trace"]
        ev = doc["events"]
        ks = doc["kernels"]
        if sum(ev.values()) != tr["events"]:
            out.append("invariant: sum(events.*) = %d != trace.events %d"
                       % (sum(ev.values()), tr["events"]))
        if not PARTIAL_ROWS and sum(k["count"] for k in ks) != tr["kernels"]:
            out.append("invariant: sum(kernels[].count) = %d != trace.kernels %d"
                       % (sum(k["count"] for k in ks), tr["kernels"]))
        if len(ks) != tr["distinct_kernels"]:
            out.append("invariant: len(kernels) %d != trace.distinct_kernels %d"
                       % (len(ks), tr["distinct_kernels"]))
        if ev.get("kernel") != tr["kernels"]:
            out.append("invariant: events.kernel != trace.kernels")
        keyed = [(-D(k["total_us"]), k["name"]) for k in ks]
        if keyed != sorted(keyed):
            out.append("invariant: kernels not sorted by total desc, name asc")
        if doc.get("schema") != 1:
            out.append("invariant: schema != 1")
    except (KeyError, TypeError, AttributeError, decimal.InvalidOperation) as e:
        out.append("invariant: output shape: %r" % (e,))


def us_format(path):
    """*_us values must be printed with exactly 3 decimals."""
    bad = []

    def walk(v, p):
        if isinstance(v, dict):
            for k, x in v.items():
                q = "%s.%s" % (p, k) if p else k
                if k.endswith("_us") and x is not None:
                    if not isinstance(x, Decimal) or x.as_tuple().exponent != -3:
                        bad.append("%s=%s" % (q, x))
                walk(x, q)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, "%s[%d]" % (p, i))
    walk(load(path), "")
    return bad


def check(exp_path, actual_path, rc):
    """Mismatches of one output against one expectation, as strings."""
    global PARTIAL_ROWS
    want = load(exp_path)
    PARTIAL_ROWS = want.get("$partial_kernel_rows") is True
    out = []
    if rc != want.get("$exit", 0):
        out.append("exit code %d, want %d" % (rc, want.get("$exit", 0)))
    try:
        got = load(actual_path)
    except (ValueError, OSError) as e:
        out.append("output is not JSON: %s" % e)
        got = None
    if got is not None:
        compare(want, got, "", out)
        invariants(got, out)
    return out


def oracle_shaped(o):
    """tests/oracle.py's answer in the shape of tracestream's JSON (for the
    cross-check of the hand-computed answers; rounding as the tool rounds)."""
    def us(n):
        return (D(n) / 1000).quantize(D("0.001"))
    kt = o["kernel_time_ns"]
    rows = []
    for n, s in o["per_name"].items():
        rows.append({"name": n, "count": s["count"], "total_us": us(s["total_ns"]),
                     "avg_us": us(D(s["total_ns"]) / s["count"]),
                     "min_us": us(s["min_ns"]), "max_us": us(s["max_ns"]),
                     "stddev_us": us(D(repr(s["stddev_ns"]))),
                     "p50_us": us(s["p50_ns"]), "p90_us": us(s["p90_ns"]),
                     "p99_us": us(s["p99_ns"]),
                     "pct": (D(100 * s["total_ns"]) / kt if kt else D(0)).quantize(D("0.01"))})
    rows.sort(key=lambda r: (-r["total_us"], r["name"]))
    tr = {k: o[k] for k in ("platform", "gpu", "device", "world_size", "rank",
                            "base_time_ns", "events", "kernels", "distinct_kernels")}
    tr.update(partial=False, error=None, compressed=False)
    for k in ("kernel_time", "busy_time", "span", "gpu_span"):
        tr[k + "_us"] = us(o[k + "_ns"])
    return {"schema": 1, "tool": "tracestream", "trace": tr, "events": o["categories"],
            "kernels": rows,
            "memory": [{"kind": k, "count": m["count"], "total_us": us(m["total_ns"]),
                        "bytes": m["bytes"]} for k, m in o["memory"].items()]}


def one_line(path, n=300):
    try:
        with open(path, "rb") as f:
            return f.read(n).decode("utf-8", "replace").replace("\n", " ").strip()
    except OSError:
        return ""


def batch(list_path):
    """t_fixtures.sh: per fixture a JSON line and a text line; then the *_us
    format line and the oracle cross-check line."""
    import os
    import tempfile
    sys.dont_write_bytecode = True  # no tests/__pycache__ in the work tree
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import oracle
    fmt_bad = []
    disagree = []
    with open(list_path, encoding="utf-8") as f:
        entries = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    for name, fixture, exp, jout, jrc, jerr, tout, trc, terr in entries:
        out = check(exp, jout, int(jrc))
        if out:
            err = one_line(jerr)
            print("not ok - fixture %s: JSON output: %s%s" % (
                name, "; ".join(out[:6]), (" stderr: " + err) if err else ""))
        else:
            print("ok - fixture %s: JSON output matches the hand-computed answer" % name)
        try:
            bad = us_format(jout)
        except (ValueError, OSError):
            bad = []  # already reported as "not JSON"
        if bad:
            fmt_bad.append("%s(%s)" % (name, ", ".join(bad[:2])))
        size = os.path.getsize(tout) if os.path.exists(tout) else 0
        if int(trc) == 0 and size > 0:
            print("ok - fixture %s: text output, exit 0" % name)
        else:
            print("not ok - fixture %s: text output: exit %s, %d bytes on stdout, stderr: %s"
                  % (name, trc, size, one_line(terr)))
        # the hand-computed answer must also be what the oracle computes
        try:
            doc, _ = oracle.load(fixture)
            shaped = oracle_shaped(oracle.analyze(doc))
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as t:
                t.write(dumps_decimal(shaped))
            try:
                diffs = check(exp, t.name, load(exp).get("$exit", 0))
            finally:
                os.unlink(t.name)
        except (ValueError, OSError) as e:
            diffs = ["oracle failed: %s" % e]
        if diffs:
            disagree.append("%s: %s" % (name, "; ".join(diffs[:3])))
    if fmt_bad:
        print("not ok - fixtures: *_us values not printed with 3 decimals: %s" % "; ".join(fmt_bad))
    else:
        print("ok - fixtures: every *_us value printed with exactly 3 decimals")
    if disagree:
        print("not ok - fixtures: hand-computed answers disagree with tests/oracle.py: %s"
              % " | ".join(disagree))
    else:
        print("ok - fixtures: hand-computed answers agree with tests/oracle.py")
    return 0


def dumps_decimal(doc):
    """json.dumps with Decimals written as numbers with their exact text."""
    mark = "\x01DEC:"

    def conv(o):
        if isinstance(o, dict):
            return {k: conv(v) for k, v in o.items()}
        if isinstance(o, list):
            return [conv(v) for v in o]
        if isinstance(o, Decimal):
            return mark + str(o)
        return o
    text = json.dumps(conv(doc))
    return re.sub(r'"\\u0001DEC:([^"]*)"', r"\1", text)


def main(argv):
    if len(argv) == 3 and argv[1] == "--batch":
        return batch(argv[2])
    if len(argv) == 3 and argv[1] == "--us-format":
        try:
            bad = us_format(argv[2])
        except (ValueError, OSError) as e:
            print("cannot read output: %s" % e)
            return 1
        for b in bad[:5]:
            print(b)
        return 1 if bad else 0
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    out = check(argv[1], argv[2], int(argv[3]))
    for line in out:
        print(line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
