"""A PEP 517 build backend for the tracestream package, written with the
standard library only: `pip install ./python` builds the wheel with nothing
downloaded (no setuptools, no wheel), so it installs offline.

The wheel carries the engine: the C binary built from the repository's
sources (make, with the Debian packages scripts/deps.sh names; a missing
one stops the build with the apt-get command that installs it) and its
pattern tables, in tracestream/_engine/, so analyze(), python -m
tracestream and the tracestream command work after the install alone;
the wheel is tagged for this platform. An sdist of this directory carries
the engine's sources (engine/), and an editable wheel (PEP 660) points at
the package's sources and builds the repository's binary in place. The metadata come from pyproject.toml's
[project] table (name, version, description, readme, requires-python,
license, optional-dependencies), read with tomllib where the Python has it
and by a small reader of those keys where it does not (3.8 to 3.10).
"""
import base64
import hashlib
import io
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = 'tracestream'
# what building the engine needs from the repository (an sdist's engine/)
ENGINE_PARTS = ('Makefile', 'src', 'patterns', 'scripts/deps.sh', 'docs/report.schema.json')


def _engine_root():
    """The C sources: the repository around this directory, else an sdist's
    engine/ folder."""
    for d in (os.path.dirname(ROOT), os.path.join(ROOT, 'engine')):
        if os.path.isfile(os.path.join(d, 'Makefile')) and os.path.isdir(os.path.join(d, 'src')):
            return d
    raise RuntimeError('tracestream: the engine\'s C sources are not here (the repository\'s '
                       'src/ and Makefile beside python/): install from the repository, '
                       'pip install ./python')


def _build_engine():
    """Build the engine (make) and return (its binary, its patterns/)."""
    top = _engine_root()
    deps = subprocess.run(['sh', os.path.join(top, 'scripts', 'deps.sh'), '--check'],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if deps.returncode != 0:
        raise RuntimeError('tracestream: building the engine needs Debian packages:\n' +
                           deps.stdout.decode('utf-8', 'replace'))
    jobs = str(os.cpu_count() or 2)
    sys.stderr.write('tracestream: building the engine (make in %s)\n' % top)
    p = subprocess.run(['make', '-C', top, '-s', '-j' + jobs, 'BRIEF=1', 'tracestream'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise RuntimeError('tracestream: building the engine failed (make in %s):\n%s' %
                           (top, p.stdout.decode('utf-8', 'replace')[-4000:]))
    return os.path.join(top, 'tracestream'), os.path.join(top, 'patterns')


def _engine_files():
    """The engine and its tables as wheel entries (path, bytes, mode)."""
    binary, tables = _build_engine()
    files = [(PACKAGE + '/_engine/tracestream', open(binary, 'rb').read(), 0o755)]
    for d, dirs, names in os.walk(tables):
        dirs.sort()
        for n in sorted(names):
            if n.endswith('.yaml') or n == 'README.md':
                full = os.path.join(d, n)
                rel = os.path.relpath(full, tables).replace(os.sep, '/')
                files.append((PACKAGE + '/_engine/patterns/' + rel, open(full, 'rb').read(), 0o644))
    return files


def _platform_tag():
    return re.sub(r'[^A-Za-z0-9]', '_', sysconfig.get_platform())


def _project():
    text = open(os.path.join(ROOT, 'pyproject.toml'), encoding='utf-8').read()
    try:
        import tomllib
        return tomllib.loads(text)['project']
    except ImportError:
        pass
    proj, extras, table = {}, {}, None
    for line in text.splitlines():
        line = line.strip()
        head = re.match(r'^\[(.+)\]$', line)
        if head:
            table = head.group(1)
            continue
        kv = re.match(r'^([A-Za-z0-9_-]+)\s*=\s*(.+)$', line)
        if not kv:
            continue
        key, val = kv.groups()
        if table == 'project':
            s = re.match(r'^"(.*)"$', val)
            t = re.search(r'text\s*=\s*"([^"]*)"', val)
            proj[key] = s.group(1) if s else ({'text': t.group(1)} if t else val)
        elif table == 'project.optional-dependencies':
            extras[key] = re.findall(r'"([^"]+)"', val)
    proj['optional-dependencies'] = extras
    return proj


def _metadata():
    p = _project()
    lines = ['Metadata-Version: 2.1', 'Name: ' + p['name'], 'Version: ' + p['version']]
    if p.get('description'):
        lines.append('Summary: ' + p['description'])
    if p.get('requires-python'):
        lines.append('Requires-Python: ' + p['requires-python'])
    lic = p.get('license')
    if isinstance(lic, dict) and lic.get('text'):
        lines.append('License: ' + lic['text'])
    for extra, reqs in sorted(p.get('optional-dependencies', {}).items()):
        lines.append('Provides-Extra: ' + extra)
        lines += ['Requires-Dist: %s; extra == "%s"' % (r, extra) for r in reqs]
    body = ''
    if p.get('readme'):
        lines.append('Description-Content-Type: text/markdown')
        body = open(os.path.join(ROOT, p['readme']), encoding='utf-8').read()
    return p['name'], p['version'], '\n'.join(lines) + '\n\n' + body


def _dist_info(name, version):
    return '%s-%s.dist-info' % (name.replace('-', '_'), version)


ENTRY_POINTS = b'[console_scripts]\ntracestream = tracestream.__main__:main\n'


def _wheel(directory, files, tag='py3-none-any'):
    """Write a wheel of files [(path in the wheel, bytes[, mode])]; return
    its name. A wheel with a platform tag holds the engine (not pure)."""
    name, version, meta = _metadata()
    info = _dist_info(name, version)
    pure = tag.endswith('-any')
    files = [f if len(f) == 3 else (f[0], f[1], 0o644) for f in files] + [
        (info + '/METADATA', meta.encode('utf-8'), 0o644),
        (info + '/entry_points.txt', ENTRY_POINTS, 0o644),
        (info + '/WHEEL', ('Wheel-Version: 1.0\nGenerator: tracestream-backend\n'
                           'Root-Is-Purelib: %s\nTag: %s\n' % ('true' if pure else 'false', tag)
                           ).encode('utf-8'), 0o644),
    ]
    record = []
    for path, data, _ in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=')
        record.append('%s,sha256=%s,%d' % (path, digest.decode(), len(data)))
    record.append(info + '/RECORD,,')
    files.append((info + '/RECORD', ('\n'.join(record) + '\n').encode('utf-8'), 0o644))
    whl = '%s-%s-%s.whl' % (name.replace('-', '_'), version, tag)
    with zipfile.ZipFile(os.path.join(directory, whl), 'w', zipfile.ZIP_DEFLATED) as z:
        for path, data, mode in files:
            zi = zipfile.ZipInfo(path, (2020, 1, 1, 0, 0, 0))
            zi.external_attr = (0o100000 | mode) << 16   # a file, its mode (pip keeps x)
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return whl


def _sources():
    top = os.path.join(ROOT, PACKAGE)
    for d, dirs, names in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x != '__pycache__')
        for n in sorted(names):
            if n.endswith('.py') or n == 'py.typed':
                full = os.path.join(d, n)
                yield os.path.relpath(full, ROOT).replace(os.sep, '/'), full


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    name, version, meta = _metadata()
    info = _dist_info(name, version)
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    with open(os.path.join(metadata_directory, info, 'METADATA'), 'w', encoding='utf-8') as f:
        f.write(meta)
    return info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = [(rel, open(full, 'rb').read()) for rel, full in _sources()] + _engine_files()
    return _wheel(wheel_directory, files, 'py3-none-' + _platform_tag())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # the sources themselves, and the repository's binary built in place
    # (found beside them: tracestream/../../tracestream)
    _build_engine()
    pth = (ROOT + '\n').encode('utf-8')
    return _wheel(wheel_directory, [('_tracestream_editable.pth', pth)])


def build_sdist(sdist_directory, config_settings=None):
    name, version, meta = _metadata()
    base = '%s-%s' % (name.replace('-', '_'), version)
    tgz = base + '.tar.gz'
    members = [('pyproject.toml', os.path.join(ROOT, 'pyproject.toml')),
               ('README.md', os.path.join(ROOT, 'README.md')),
               ('_build/backend.py', os.path.abspath(__file__))] + list(_sources())
    top = _engine_root()
    for part in ENGINE_PARTS:
        full = os.path.join(top, part)
        if os.path.isfile(full):
            members.append(('engine/' + part, full))
        for d, dirs, names in os.walk(full):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(('.c', '.h', '.yaml', '.md')):
                    f = os.path.join(d, n)
                    members.append(('engine/' + os.path.relpath(f, top).replace(os.sep, '/'), f))
    with tarfile.open(os.path.join(sdist_directory, tgz), 'w:gz', format=tarfile.PAX_FORMAT) as t:
        for rel, full in members:
            t.add(full, arcname=base + '/' + rel)
        data = meta.encode('utf-8')
        info = tarfile.TarInfo(base + '/PKG-INFO')
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return tgz
