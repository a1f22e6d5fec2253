"""tracestream in a notebook: the command's JSON report as tables.

This package drives the ``tracestream`` engine, the C binary (it does not
parse traces itself): the binary is where the speed and the fixed memory
are, and it stays the one implementation the tests check. ``pip install
./python`` builds it from the repository's sources and installs it inside
the package, with its pattern tables. It is found, in order, as the
``binary`` argument, ``$TRACESTREAM``, the engine installed with the
package, ``tracestream`` on ``PATH``, or the binary of the repository this
package sits in. ``python -m tracestream`` (and the ``tracestream``
command pip installs) runs it.

    r = analyze("trace.json.gz", stage="decode")
    r.kernels, r.types, r.categories, r.passes, r.layers, r.ops,
    r.workloads, r.stages            # and r.ranks, r.skew for several ranks
    c = compare("a.json.gz", "b.json.gz")
    c.ops, c.layers, c.alignment
    for chunk in r.launches(chunksize=100_000):   # a row per kernel launch,
        ...                                       # streamed, a chunk at a time

Tables are pandas DataFrames when pandas imports, lists of dicts otherwise
(once, a warning says so: Debian's python3-pandas is seen from a venv made
with --system-site-packages); ``.raw`` is the JSON document as the command
wrote it; ``.first_screen`` the report's first screen as text. In Jupyter
a report shows itself as the HTML page (``-f html``). Nested objects of a
row are flattened with ``_`` (``idle.busy_us`` is ``idle_busy_us``).
"""

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

__all__ = ["analyze", "compare", "launches", "Report", "CompareReport", "TracestreamError",
           "find_binary"]

# the engine pip built and installed with the package, and its tables
_ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_engine")
__version__ = "0.2.0"

try:  # pandas is optional: tables are lists of dicts without it
    import pandas as _pd
except Exception:  # pragma: no cover - depends on the machine
    _pd = None


class TracestreamError(Exception):
    """The command failed: ``exit_code`` (see ``tracestream --help``: 1 a bad
    or cut trace, 2 usage or I/O, 3 pattern tables, 4 --verify-ops, 5 compare
    --fail-if-slower), ``message`` (its stderr) and, where it still wrote
    one (a cut trace is reported as far as it was read), ``report``."""

    def __init__(self, exit_code, message, report=None):
        super().__init__("tracestream exited with %d: %s" % (exit_code, message.strip()))
        self.exit_code = exit_code
        self.message = message
        self.report = report


def _script(path):
    """Is path a script (the ``tracestream`` command pip installs runs this
    package), not the engine itself?"""
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return True


def find_binary(binary=None):
    """The tracestream executable to run."""
    on_path = shutil.which("tracestream")
    for cand in (binary, os.environ.get("TRACESTREAM"), os.path.join(_ENGINE, "tracestream"),
                 on_path if on_path and not _script(on_path) else None,
                 os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                              "tracestream")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    raise TracestreamError(2, "the tracestream binary was not found: pip install ./python "
                              "builds it into the package; or build it (make), put it on PATH, "
                              "set $TRACESTREAM or pass binary=")


def engine_env(binary):
    """The environment to run binary in: the engine installed with the
    package reads the pattern tables installed beside it."""
    env = dict(os.environ)
    tables = os.path.join(_ENGINE, "patterns")
    if os.path.dirname(os.path.abspath(binary)) == _ENGINE and os.path.isdir(tables):
        env.setdefault("TRACESTREAM_PATTERNS", tables)
    return env


def _args(options):
    """Keyword options as the command's long options."""
    out = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            out.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                out += [flag, str(v)]
        else:
            out += [flag, str(value)]
    return out


def _in_notebook():
    return "ipykernel" in sys.modules


class _Progress:
    """The command's progress line (on stderr, after carriage returns),
    shown in a notebook cell as it moves."""

    def __init__(self):
        self.handle = None
        self.shown = False
        try:
            from IPython.display import display
            self.handle = display("", display_id=True)
        except Exception:
            self.handle = None

    def show(self, text):
        text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text).strip()
        if not text:
            return
        self.shown = True
        if self.handle is not None:
            self.handle.update(text)
        else:
            sys.stderr.write("\r" + text)
            sys.stderr.flush()

    def done(self):
        if self.handle is None and self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _run(cmd, progress):
    """Run cmd with its report to a temporary file; (exit code, the JSON
    document or None, stderr without progress lines)."""
    fd, out = tempfile.mkstemp(prefix="tracestream.", suffix=".json")
    os.close(fd)
    try:
        show = progress if progress is not None else _in_notebook()
        cmd = cmd + ["-o", out, "--progress" if show else "--no-progress"]
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=engine_env(cmd[0]))
        err, bar, pending = [], _Progress() if show else None, b""
        while True:
            chunk = p.stderr.read1(4096) if hasattr(p.stderr, "read1") else p.stderr.read(4096)
            if not chunk:
                break
            pending += chunk
            # progress lines end in \r, messages in \n
            while True:
                cut = min([i for i in (pending.find(b"\r"), pending.find(b"\n")) if i >= 0],
                          default=-1)
                if cut < 0:
                    break
                piece, sep, pending = pending[:cut], pending[cut:cut + 1], pending[cut + 1:]
                text = piece.decode("utf-8", "replace")
                if sep == b"\r" or "\x1b[K" in text:
                    if bar and text.strip():
                        bar.show(text)
                elif text.strip():
                    err.append(text)
        if pending.strip():
            err.append(pending.decode("utf-8", "replace"))
        rc = p.wait()
        if bar:
            bar.done()
        doc = None
        if os.path.getsize(out) > 0:
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
        return rc, doc, "\n".join(err)
    finally:
        os.unlink(out)


def _flat(row, prefix=""):
    """One row: nested objects flattened with "_"; lists kept as they are."""
    out = {}
    for k, v in row.items():
        key = prefix + k
        if isinstance(v, dict):
            out.update(_flat(v, key + "_"))
        else:
            out[key] = v
    return out


_told_no_pandas = False


def _table(rows):
    global _told_no_pandas
    rows = [_flat(r) if isinstance(r, dict) else r for r in (rows or [])]
    if _pd is not None:
        return _pd.DataFrame(rows)
    if not _told_no_pandas:
        _told_no_pandas = True
        import warnings
        warnings.warn("tracestream: tables are lists of dicts; with pandas they are DataFrames "
                      "(pip install pandas, or Debian's python3-pandas, seen from a venv made "
                      "with --system-site-packages)", stacklevel=4)
    return rows


def _text(cmd):
    """The command's stdout (a report in another format), or raise."""
    p = subprocess.run(cmd + ["--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=engine_env(cmd[0]))
    if p.returncode != 0 and not p.stdout:
        raise TracestreamError(p.returncode, p.stderr.decode("utf-8", "replace"))
    return p.stdout.decode("utf-8", "replace")


def _frame(page):
    """An HTML page as a notebook cell shows it: in a frame of its own (its
    styles and scripts kept to it)."""
    import html
    return ('<iframe srcdoc="%s" style="width:100%%;height:900px;border:1px solid #ddd">'
            '</iframe>' % html.escape(page, quote=True))


def _owner_rows(devices):
    """Who held each GPU's peak, as the CSV table memory_owners has it:
    what was allocated before the capture, then the owners."""
    rows = []
    for d in devices or []:
        pk = d.get("at_peak") or {}
        if not pk.get("known"):
            continue
        rows.append(dict(device=d["device"], owner="before_capture", op=None,
                         bytes=pk["before_capture_bytes"], allocations=None))
        rows += [dict(device=d["device"], **o) for o in pk["owners"]]
    return rows


class Report:
    """A single trace's (or a job's) report. Tables: kernels, types,
    categories, unclassified, passes, layers (per layer index and stage),
    ops, workloads, stages, memory (copies), collectives, api (runtime and
    driver calls, as nsys' cuda_api_sum), opportunities; device_memory,
    memory_passes and memory_owners (the allocator's events,
    profile_memory=True: who held each GPU's peak); for
    several ranks ranks and skew. ``raw`` is the JSON document; ``partial`` and ``error`` say
    whether the trace was read whole."""

    TABLES = ("kernels", "types", "categories", "unclassified", "passes", "layers",
              "ops", "workloads", "stages", "memory", "collectives", "api", "opportunities",
              "ranks", "skew", "device_memory", "memory_passes", "memory_owners")

    def __init__(self, doc, source=None):
        self.raw = doc
        self._source = source        # (binary, path, options) of analyze()
        self._first = self._page = None
        trace = doc.get("trace", {})
        self.partial = bool(trace.get("partial"))
        self.error = trace.get("error")
        self.warnings = list(doc.get("warnings", []))
        self.kernels = _table(doc.get("kernels"))
        self.types = _table(doc.get("types"))
        self.categories = _table(doc.get("categories"))
        self.unclassified = _table(doc.get("unclassified"))
        self.passes = _table(doc.get("passes"))
        self.layers = _table(doc.get("layer_table"))
        self.ops = _table(doc.get("ops"))
        self.workloads = _table(doc.get("workloads"))
        self.stages = _table([dict(stage=s, **v) for s, v in (doc.get("stages") or {}).items()])
        self.memory = _table(doc.get("memory"))
        self.collectives = _table(doc.get("collectives"))
        self.api = _table(doc.get("api"))
        self.opportunities = _table(doc.get("opportunities"))
        self.ranks = _table(doc.get("ranks"))
        self.skew = _table(_skew_rows(doc.get("skew")))
        dm = doc.get("device_memory") or {}
        self.device_memory = _table(dm.get("devices"))      # profile_memory=True
        self.memory_passes = _table(dm.get("passes"))
        self.memory_owners = _table(_owner_rows(dm.get("devices")))

    @property
    def tables(self):
        return {name: getattr(self, name) for name in self.TABLES}

    def _again(self, fmt_args):
        """The same trace and options, reported again in another form."""
        if not self._source:
            raise ValueError("a report of analyze(path) only")
        binary, paths, options = self._source
        return _text([find_binary(binary)] + fmt_args + _args(options) + paths)

    @property
    def first_screen(self):
        """The report's first screen, as ``tracestream --brief`` prints it."""
        if self._first is None:
            self._first = self._again(["--brief"])
        return self._first

    def _repr_html_(self):
        """In Jupyter: the report's page (first screen, charts, tables)."""
        if self._page is None:
            self._page = self._again(["--format", "html"])
        return _frame(self._page)

    def launches(self, chunksize=100_000):
        """The trace's kernel launches, a row each (start_us, dur_us, stream,
        name, short, type, category, stage, pass, layer, op, callsite), in
        chunks of at most ``chunksize`` rows: the trace is read again by the
        command, which streams them, so a 10 GB trace never sits in memory
        whole. One trace only (not the ranks of a job)."""
        if not self._source or len(self._source[1]) != 1:
            raise ValueError("launches: one trace, from analyze(path)")
        binary, paths, options = self._source
        return launches(paths[0], chunksize=chunksize, binary=binary, **options)

    def __repr__(self):
        t = self.raw.get("trace", {})
        return "<tracestream.Report %s: %s kernels, %s us of kernel time%s>" % (
            t.get("path"), t.get("kernels"), t.get("kernel_time_us"),
            ", partial" if self.partial else "")


def _skew_rows(skew):
    """The skew of a job as rows, as `--table skew` has them."""
    if not skew:
        return []
    rows = []

    def add(figure, stage, layer, s):
        if s:
            rows.append(dict(figure=figure, stage=stage, layer=layer, **s))
    add("kernel_time", None, None, skew.get("kernel_time"))
    add("busy", None, None, skew.get("busy"))
    for st, s in (skew.get("stages") or {}).items():
        add("stage", st, None, s)
    for st, positions in (skew.get("layers") or {}).items():
        for p in positions:
            add("layer", st, p["index"], p.get("spread"))
    return rows


class CompareReport:
    """compare A B: tables ops (operation groups, with each side's kernels),
    layers, layer_counts, alignment, collectives (one row per kernel pair of a typical
    layer); ``total``, ``a`` and ``b`` are the summary; ``raw`` the JSON."""

    TABLES = ("ops", "layers", "layer_counts", "alignment", "collectives")

    def __init__(self, doc, source=None):
        self.raw = doc
        self._source = source        # (binary, a, b, options) of compare()
        self._page = None
        self.a, self.b, self.total = doc.get("a"), doc.get("b"), doc.get("total")
        self.ops = _table(doc.get("ops"))
        self.layers = _table(doc.get("layers"))
        self.layer_counts = _table(doc.get("layer_counts"))
        rows = []
        for al in doc.get("alignment") or []:
            for i, p in enumerate(al.get("pairs", [])):
                rows.append(dict(stage=al["stage"], pair=i, kind=p["kind"], fusion=p["fusion"],
                                 a_kernels="; ".join(k["short"] for k in p["a"]), a_us=p["a_us"],
                                 b_kernels="; ".join(k["short"] for k in p["b"]), b_us=p["b_us"]))
        self.alignment = _table(rows)
        self.collectives = _table(doc.get("collectives"))

    @property
    def tables(self):
        return {name: getattr(self, name) for name in self.TABLES}

    def _repr_html_(self):
        """In Jupyter: the compare page."""
        if self._page is None and self._source:
            binary, a, b, options = self._source
            self._page = _text([find_binary(binary), "compare", "--format", "html"] +
                               _args(options) + [a, b])
        return _frame(self._page) if self._page else None

    def __repr__(self):
        t = self.total or {}
        return "<tracestream.CompareReport B/A %s, gap %s us (%s)>" % (
            t.get("ratio"), t.get("gap_us"), t.get("status"))


def _paths(path):
    if isinstance(path, (list, tuple)):
        return [os.fspath(p) for p in path]
    return [os.fspath(path)]


def analyze(path, binary=None, progress=None, **options):
    """Analyze a trace (a path; a list of paths or a directory: the ranks of
    one job). Options are the command's long options (``stage="decode"``,
    ``top=0``, ``patterns=["dir"]``, ``split_half_layers=True``). Raises
    TracestreamError when the command fails; ``progress`` shows the
    command's progress line (default: in a notebook)."""
    cmd = [find_binary(binary), "--format", "json"] + _args(options) + _paths(path)
    rc, doc, err = _run(cmd, progress)
    report = Report(doc, (binary, _paths(path), options)) if doc is not None else None
    if rc != 0:
        raise TracestreamError(rc, err, report)
    return report


_LAUNCH_NUM = {"start_us": float, "dur_us": float, "stream": int, "pass": int, "layer": int}


def launches(path, chunksize=100_000, binary=None, **options):
    """Iterate over a trace's kernel launches in chunks of at most
    ``chunksize`` rows (DataFrames with pandas, lists of dicts otherwise),
    as ``tracestream --format csv --table launches`` streams them: memory
    holds one chunk. An unknown value is None. Raises TracestreamError when
    the command fails (after the rows it wrote)."""
    if chunksize < 1:
        raise ValueError("chunksize must be at least 1")
    cmd = [find_binary(binary), "--format", "csv", "--table", "launches", "--no-progress"] + \
        _args(options) + [os.fspath(path)]
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, env=engine_env(cmd[0]))
        try:
            rows = csv.DictReader(io.TextIOWrapper(p.stdout, encoding="utf-8", newline=""))
            chunk = []
            for r in rows:
                chunk.append({k: (None if v == "" else _LAUNCH_NUM[k](v) if k in _LAUNCH_NUM else v)
                              for k, v in r.items()})
                if len(chunk) == chunksize:
                    yield _table(chunk)
                    chunk = []
            if chunk:
                yield _table(chunk)
        finally:
            p.stdout.close()
            rc = p.wait()
        if rc != 0:
            err.seek(0)
            raise TracestreamError(rc, err.read().decode("utf-8", "replace"))


def compare(a, b, binary=None, progress=None, **options):
    """compare A B (where B spends more GPU time than A), with the command's
    options (``names="h100,mi300x"``, ``stage="decode"``,
    ``fail_if_slower=5``). Raises TracestreamError when the command fails
    (exit 5 from --fail-if-slower carries the report)."""
    cmd = [find_binary(binary), "compare", "--format", "json"] + _args(options) + \
        [os.fspath(a), os.fspath(b)]
    rc, doc, err = _run(cmd, progress)
    report = CompareReport(doc, (binary, os.fspath(a), os.fspath(b), options)) \
        if doc is not None else None
    if rc != 0:
        raise TracestreamError(rc, err, report)
    return report
