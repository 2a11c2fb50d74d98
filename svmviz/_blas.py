"""BLAS on one thread inside svmviz's own computations.

numpy's and SciPy's wheels bundle OpenBLAS, which by default runs a product on every core and waits
for its threads by spinning. svmviz's products are many and small (a kernel block sized to the cache,
the (p × N)(N × p) Newton products of a kernel logistic fit) and they often run inside svmviz's own
thread pools or beside another app session: there a multithreaded BLAS spends more time starting,
synchronising and spinning than computing — several times the one-thread time on a busy two-core
machine. One thread also makes each product's rounding the same on every machine, as in the studies'
workers (``OPENBLAS_NUM_THREADS=1``).

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager

_CONTROLLER = []  # threadpoolctl's ThreadpoolController, made at the first call
_LOCK = threading.Lock()
_STATE = {"depth": 0, "limiter": None}  # computations inside the limit, and the limit itself


@contextmanager
def one_blas_thread():
    """A context in which BLAS (numpy's products and numba's ``np.dot``, which calls SciPy's BLAS) runs
    on one thread.

    The limit is process-wide, and computations of several app sessions may overlap in threads: the
    first to enter sets it and the last to leave restores the original thread counts (two nested
    limits restoring each other's saved counts out of order would leave BLAS on one thread for good).
    Entering and leaving cost microseconds once the controller exists.
    """
    with _LOCK:
        if not _CONTROLLER:
            import scipy.linalg.cython_blas  # noqa: F401  (numba's np.dot calls this BLAS)
            from threadpoolctl import ThreadpoolController

            _CONTROLLER.append(ThreadpoolController())
        if _STATE["depth"] == 0:
            _STATE["limiter"] = _CONTROLLER[0].limit(limits=1, user_api="blas")
        _STATE["depth"] += 1
    try:
        yield
    finally:
        with _LOCK:
            _STATE["depth"] -= 1
            if _STATE["depth"] == 0:
                _STATE["limiter"].restore_original_limits()
                _STATE["limiter"] = None
