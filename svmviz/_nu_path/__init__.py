"""Private numba kernels of the ν-SVM regularization path and of leave-one-out refits along it.

Loosli & Canu 2006; SPEC §4. The public wrappers that validate input are in :mod:`svmviz.path`.
Every kernel takes arrays and scalars only and returns named status codes. Modules, from the leaves:

- :mod:`~svmviz._nu_path.config` — status codes, the reasons a path is lost, every tolerance (why
  its value);
- :mod:`~svmviz._nu_path.kkt` — the KKT system: bordered inverse with rank-one updates, working set,
  thresholds, KKT checks, the scale of the problem's numbers;
- :mod:`~svmviz._nu_path.events` — event search and the one step routine (ratio test, step to the
  nearest event, snapping ties) of the path, the leave-one-out homotopy and the active set;
- :mod:`~svmviz._nu_path.asqp` — the primal active-set QP (Simple-ν-SVM);
- :mod:`~svmviz._nu_path.follower` — :func:`nu_path_kernel`, the path follower;
- :mod:`~svmviz._nu_path.loo` — :func:`loo_kernel`, :func:`loo_kernel_parallel`: leave-one-out
  homotopy refits.

numba's cache and this package. numba keys a cached kernel on the source of its own file only
("changes in symbols defined in another file are not detected", numba's notes on caching), and it
compiles into each kernel the kernels it calls and the constants of :mod:`~svmviz._nu_path.config`.
The modules here call one another, so an edit in one would leave stale code in the cached kernels of
the others. While the modules are imported (their ``@njit(cache=True)`` decorators choose their cache
folder then), numba's cache folder is therefore a subfolder named after a digest of all the
package's sources (:func:`_cache_keyed_on_sources`): any edit compiles afresh. Old subfolders are not
removed (other checkouts may share the cache): ``rm -rf "$NUMBA_CACHE_DIR"/svmviz-nu-path-*`` does.
"""
from __future__ import annotations

import contextlib
import hashlib
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
CACHE_PREFIX = "svmviz-nu-path-"


def _source_digest() -> str:
    """A digest of every module of this package (names and contents)."""
    h = hashlib.sha256()
    for name in sorted(os.listdir(_HERE)):
        if name.endswith(".py"):
            with open(os.path.join(_HERE, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()[:16]


@contextlib.contextmanager
def _cache_keyed_on_sources():
    """numba's cache folder (``NUMBA_CACHE_DIR``) is ``<it>/svmviz-nu-path-<digest>`` for the kernels
    defined inside the block. Without a cache folder set, numba's default (next to the sources, or
    the user's cache) is left alone."""
    from numba.core import config

    base = config.CACHE_DIR
    if not base:
        yield
        return
    config.CACHE_DIR = os.path.join(base, CACHE_PREFIX + _source_digest())
    try:
        yield
    finally:
        config.CACHE_DIR = base


with _cache_keyed_on_sources():
    from .config import (LOO_NUMERICAL, LOO_OK, LOO_QP_FAILED, LOST_REASONS, QP_MAX_ITER, QP_NUMERICAL, QP_OK,
                         STATUS_LOST, STATUS_MAX_BREAKPOINTS, STATUS_OK)
    from .follower import nu_path_kernel
    from .loo import loo_kernel, loo_kernel_parallel

__all__ = ["nu_path_kernel", "loo_kernel", "loo_kernel_parallel", "LOST_REASONS", "STATUS_OK",
           "STATUS_MAX_BREAKPOINTS", "STATUS_LOST", "QP_OK", "QP_MAX_ITER", "QP_NUMERICAL", "LOO_OK",
           "LOO_QP_FAILED", "LOO_NUMERICAL"]
