"""``numba.njit`` for svmviz's kernels, with an on-disk cache that follows every kernel's source.

numba keys a cached kernel on its own file only, yet it compiles into each kernel the kernels it
calls (``_klr`` and ``_irwls`` call ``_linalg``, ``_smo`` calls ``kernels``…): after an edit of a
callee, or an upgrade of svmviz over an old cache, a caller's cached copy would keep the old callee.
:func:`njit` with ``cache=True`` therefore caches svmviz's kernels in the folder
:func:`cache_folder`, ``<base>/svmviz-kernels-<digest>``, the digest of every numba module of
svmviz (:func:`source_digest`): any edit compiles afresh, unchanged sources load from the cache.
The folder is chosen once per process and applies to svmviz's kernels only: numba's own setting
(``NUMBA_CACHE_DIR``) is read, never changed (how: :mod:`svmviz._numba_compat`).

The base folder (:func:`cache_base`): ``SVMVIZ_CACHE_DIR`` if set, else ``NUMBA_CACHE_DIR`` if set,
else the first writable of ``$XDG_CACHE_HOME/svmviz-numba``, ``~/.cache/svmviz-numba`` and
``$TMPDIR/svmviz-numba-<uid>``. Folders of older sources are not removed (other checkouts may
share the base): ``rm -rf <base>/svmviz-kernels-*`` frees the space.
"""
from __future__ import annotations

import functools
import hashlib
import os

import numba

from . import _warmup
from ._numba_compat import njit_cached_in

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
CACHE_PREFIX = "svmviz-kernels-"
_SKIP_DIRS = frozenset({"__pycache__", "ui", "figures", "studies"})  # no kernels there
_NOT_KERNELS = frozenset({"_jit.py", "_numba_compat.py", "_warmup.py", "cli.py"})  # about numba, no kernels


@functools.lru_cache(maxsize=None)
def source_digest() -> str:
    """A digest of svmviz's numba modules: every ``.py`` file that mentions numba or njit, and every
    module of a sub-package that has one (its constants, e.g. ``_nu_path/config.py``, are compiled in)."""
    h = hashlib.sha256()
    for root, dirs, files in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        texts = {}
        for name in sorted(files):
            if name.endswith(".py"):
                with open(os.path.join(root, name), "rb") as f:
                    texts[name] = f.read()
        kernels = {name for name, text in texts.items()
                   if (b"numba" in text or b"njit" in text) and name not in _NOT_KERNELS}
        for name, text in texts.items():
            if name in kernels or (root != _PACKAGE and kernels):
                rel = os.path.relpath(os.path.join(root, name), _PACKAGE)
                h.update(rel.encode() + b"\0" + text + b"\0")
    return h.hexdigest()[:16]


def _nearest_existing(path: str) -> str:
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def creatable(path: str) -> bool:
    """Whether ``path`` is a writable folder or could be created as one (decided by ``os.access``)."""
    if os.path.isdir(path):
        return os.access(path, os.W_OK | os.X_OK)
    if os.path.exists(path):  # a file in the way
        return False
    anc = _nearest_existing(path)
    return os.path.isdir(anc) and os.access(anc, os.W_OK | os.X_OK)


def _candidates() -> list[str]:
    out = []
    for var in ("SVMVIZ_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(var):
            return [os.environ[var]]
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        out.append(os.path.join(xdg, "svmviz-numba"))
    home = os.path.expanduser("~")
    if home and home != "~":
        out.append(os.path.join(home, ".cache", "svmviz-numba"))
    tmp = os.environ.get("TMPDIR") or os.environ.get("TEMP") or os.environ.get("TMP") or "/tmp"
    out.append(os.path.join(tmp, f"svmviz-numba-{getattr(os, 'getuid', lambda: 'user')()}"))
    return out


def cache_base() -> str | None:
    """The folder holding svmviz's kernel caches (see the module); None when none can be written."""
    for path in _candidates():
        if creatable(path):
            return path
    return None


@functools.lru_cache(maxsize=None)
def cache_folder() -> str | None:
    """The folder svmviz's cached kernels are written to, chosen once per process (None: numba's
    own default locations)."""
    base = cache_base()
    return os.path.join(base, CACHE_PREFIX + source_digest()) if base else None


def njit(*args, **kwargs):
    """``numba.njit`` (same arguments); ``cache=True`` caches under :func:`cache_folder`."""
    if len(args) == 1 and callable(args[0]) and not kwargs:  # bare @njit: nothing cached
        return numba.njit(args[0])
    if args or not kwargs.get("cache"):
        return numba.njit(*args, **kwargs)
    options = {k: v for k, v in kwargs.items() if k != "cache"}

    def decorate(fn):
        folder = cache_folder()
        if folder is None:
            return numba.njit(cache=True, **options)(fn)
        return njit_cached_in(folder, fn, **options)

    return decorate


_warmup.install_notices()  # a kernel that must compile says so once (svmviz._warmup.compile_notice)
