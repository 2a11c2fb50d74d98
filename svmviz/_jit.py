"""numba's ``@njit`` for svmviz's kernels, with an on-disk cache that follows every kernel's source.

numba keys a cached kernel on the source of its own file only ("changes in symbols defined in
another file are not detected", numba's notes on caching), yet it compiles into each kernel the
kernels it calls: ``_klr`` and ``_irwls`` call ``_linalg``, ``kernels`` calls ``_ssanova_kernel``…
After an edit of a callee — or a ``pip install --upgrade`` of svmviz over a persistent cache — the
caller's cached copy keeps the old callee: it runs old code, or crashes (measured here:
``NRT_adapt_ndarray_to_python: 'descr' is NULL`` after kernels.py changed under ``_smo``'s cache).

:func:`njit` is ``numba.njit``; with ``cache=True`` and a cache folder set (``NUMBA_CACHE_DIR``,
which ``import svmviz`` chooses when unset), the kernel's cache goes to the subfolder
``svmviz-kernels-<digest>``, the digest of every numba module of svmviz (:func:`source_digest`): any
edit of any of them compiles afresh; unchanged sources load from the cache as before. numba reads
the cache folder when the decorator runs (``UserProvidedCacheLocator.from_function``), so the
folder is switched for that moment only: numba code outside svmviz is not affected. Old subfolders
are not removed (other checkouts may share the cache): ``rm -rf "$NUMBA_CACHE_DIR"/svmviz-kernels-*``.
(:mod:`svmviz._nu_path`'s kernels use it too.) The folder is switched under a lock: pages are
imported by more than one thread (a session's script, the frame's preloading), and a switch seen by
another thread's decorator put kernels in nested folders that the next process did not look in.
"""
from __future__ import annotations

import functools
import hashlib
import os
import threading

import numba
from numba.core import config

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
CACHE_PREFIX = "svmviz-kernels-"
NU_PATH_PREFIX = "svmviz-nu-path-"  # the folder svmviz._nu_path used before it used this module
_SWITCH = threading.Lock()  # config.CACHE_DIR is numba's global: one decorator switches it at a time
_SKIP_DIRS = frozenset({"__pycache__", "ui", "figures", "studies"})  # no kernels there


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
        kernels = {name for name, text in texts.items() if b"numba" in text or b"njit" in text}
        for name, text in texts.items():
            if name in kernels or (root != _PACKAGE and kernels):
                rel = os.path.relpath(os.path.join(root, name), _PACKAGE)
                h.update(rel.encode() + b"\0" + text + b"\0")
    return h.hexdigest()[:16]


def cache_root(base: str) -> str:
    """``base`` without the svmviz subfolders a module may have switched numba to while it is imported
    (a leftover of a switch: ``svmviz._nu_path`` once imported modules of ours inside its own folder)."""
    while True:
        head, tail = os.path.split(base.rstrip(os.sep))
        if not tail.startswith((CACHE_PREFIX, NU_PATH_PREFIX)):
            return base
        base = head


def cache_folder() -> str | None:
    """The folder svmviz's cached kernels are written to (None: numba's own default locations).

    The same folder whatever the order and the threads modules are imported in, or a server compiles
    again what the warm-up — or the last server — already compiled (measured before the lock and
    before ``_nu_path`` used this module: the path page's first chart 20–27 s on a filled cache, its
    kernels written to ``svmviz-nu-path-…/svmviz-kernels-…/``)."""
    base = config.CACHE_DIR
    return os.path.join(cache_root(base), CACHE_PREFIX + source_digest()) if base else None


def njit(*args, **kwargs):
    """``numba.njit`` (same arguments); ``cache=True`` caches under :func:`cache_folder`."""
    if len(args) == 1 and callable(args[0]) and not kwargs:  # bare @njit: nothing cached
        return numba.njit(args[0])
    if not kwargs.get("cache"):
        return numba.njit(*args, **kwargs)

    def decorate(fn):
        with _SWITCH:
            base = config.CACHE_DIR
            if not base:
                return numba.njit(*args, **kwargs)(fn)
            config.CACHE_DIR = cache_folder()
            try:
                return numba.njit(*args, **kwargs)(fn)
            finally:
                config.CACHE_DIR = base

    return decorate
