"""A PEP 517 build backend for the tracestream package, written with the
standard library only: `pip install ./python` builds the wheel with nothing
downloaded (no setuptools, no wheel), so it installs offline.

It builds a pure-Python wheel (py3-none-any) of the package directory
tracestream/, an sdist of this directory, and an editable wheel (PEP 660)
that points at the sources. The metadata come from pyproject.toml's
[project] table (name, version, description, readme, requires-python,
license, optional-dependencies), read with tomllib where the Python has it
and by a small reader of those keys where it does not (3.8 to 3.10).
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = 'tracestream'


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


def _wheel(directory, files):
    """Write a wheel of files [(path in the wheel, bytes)]; return its name."""
    name, version, meta = _metadata()
    info = _dist_info(name, version)
    files = list(files) + [
        (info + '/METADATA', meta.encode('utf-8')),
        (info + '/WHEEL', b'Wheel-Version: 1.0\nGenerator: tracestream-backend\n'
                          b'Root-Is-Purelib: true\nTag: py3-none-any\n'),
    ]
    record = []
    for path, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=')
        record.append('%s,sha256=%s,%d' % (path, digest.decode(), len(data)))
    record.append(info + '/RECORD,,')
    files.append((info + '/RECORD', ('\n'.join(record) + '\n').encode('utf-8')))
    whl = '%s-%s-py3-none-any.whl' % (name.replace('-', '_'), version)
    with zipfile.ZipFile(os.path.join(directory, whl), 'w', zipfile.ZIP_DEFLATED) as z:
        for path, data in files:
            z.writestr(zipfile.ZipInfo(path, (2020, 1, 1, 0, 0, 0)), data)
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
    return _wheel(wheel_directory, [(rel, open(full, 'rb').read()) for rel, full in _sources()])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    pth = (ROOT + '\n').encode('utf-8')
    return _wheel(wheel_directory, [('_tracestream_editable.pth', pth)])


def build_sdist(sdist_directory, config_settings=None):
    name, version, meta = _metadata()
    base = '%s-%s' % (name.replace('-', '_'), version)
    tgz = base + '.tar.gz'
    members = [('pyproject.toml', os.path.join(ROOT, 'pyproject.toml')),
               ('README.md', os.path.join(ROOT, 'README.md')),
               ('_build/backend.py', os.path.abspath(__file__))] + list(_sources())
    with tarfile.open(os.path.join(sdist_directory, tgz), 'w:gz', format=tarfile.PAX_FORMAT) as t:
        for rel, full in members:
            t.add(full, arcname=base + '/' + rel)
        data = meta.encode('utf-8')
        info = tarfile.TarInfo(base + '/PKG-INFO')
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return tgz
