"""The one private internal of numba that svmviz uses: a cache folder for svmviz's compiled functions only.

Why. numba keys a cached function on the stamp of its own source file ("changes in symbols defined in
another file are not detected", numba's documentation, *Notes on caching*), yet it compiles every
function a compiled function calls into it: after an edit of ``kernels/_gram.py`` (or an upgrade of
svmviz over an old cache) ``svm._smo``'s cached functions would keep the old callee. svmviz's compiled functions are therefore cached
in a folder named after a digest of their sources (:func:`svmviz._jit.cache_folder`): any edit
compiles afresh. numba's public means of choosing a cache folder is ``NUMBA_CACHE_DIR``, read once
when numba is imported and applied to every cached function of the process: setting it would move
the cache of every other numba user of the process (a notebook's own compiled functions) too. numba has no
per-function cache folder.

What. ``numba.core.config.CACHE_DIR`` (the value of ``NUMBA_CACHE_DIR``) is read when a dispatcher
with ``cache=True`` is created (``numba.njit(cache=True)(fn)``, by numba's
``_UserProvidedCacheLocator``); :func:`njit_cached_in` sets it for the moment of that call, under a
lock, and restores it.

Fallback. Without ``numba.core.config.CACHE_DIR`` the function is ``numba.njit(cache=True)`` as is:
numba's own cache locations (``__pycache__`` beside the source, or the user's cache folder), where
an edited callee may go unnoticed until its caller's file changes too.

Canary: ``tests/test_numba_compat.py`` (a function decorated here writes its cache into the folder
given, and nowhere else; numba's own setting is unchanged afterwards).

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import threading

import numba

try:
    from numba.core import config as _config
except ImportError:  # pragma: no cover — a numba without this module: the fallback
    _config = None

_SWITCH = threading.Lock()  # the setting is numba's global: one decoration at a time

SUPPORTED = _config is not None and hasattr(_config, "CACHE_DIR")
"""Whether this numba has the setting :func:`njit_cached_in` switches (False: the fallback)."""


def njit_cached_in(folder: str, fn, **options):
    """``numba.njit(cache=True, **options)(fn)`` with its on-disk cache in ``folder``.

    Parameters
    ----------
    folder : str
        The cache folder of this function (created by numba when it first saves).
    fn : callable
        The Python function to compile.
    **options
        Other options of ``numba.njit`` (``nogil``, ``inline``, ``fastmath``…).

    Returns
    -------
    numba dispatcher
        Compiled on its first call, or loaded from ``folder``.
    """
    if not SUPPORTED:
        return numba.njit(cache=True, **options)(fn)
    with _SWITCH:
        saved = _config.CACHE_DIR
        _config.CACHE_DIR = folder
        try:
            return numba.njit(cache=True, **options)(fn)
        finally:
            _config.CACHE_DIR = saved
