"""The compiled solver of the ν-SVM regularization path and of leave-one-out refits along it.

Loosli & Canu 2006. The public wrappers that validate input are in :mod:`svmviz.path`.
Every compiled function takes arrays and scalars only and returns named status codes. Modules, from the leaves:

- :mod:`~svmviz.path._solver.config` — status codes, the reasons a path is lost, every tolerance (why
  its value);
- :mod:`~svmviz.path._solver.kkt` — the KKT system: bordered inverse with rank-one updates, working set,
  thresholds, KKT checks, the scale of the problem's numbers;
- :mod:`~svmviz.path._solver.events` — event search and the one step routine (ratio test, step to the
  nearest event, snapping ties) of the path, the leave-one-out homotopy and the active set;
- :mod:`~svmviz.path._solver.asqp` — the primal active-set QP (Simple-ν-SVM);
- :mod:`~svmviz.path._solver.follower` — :func:`follow_path`, the path follower;
- :mod:`~svmviz.path._solver.loo` — :func:`loo_refits`, :func:`loo_refits_parallel`: leave-one-out
  homotopy refits.

numba's cache: the functions here are decorated with :func:`svmviz._jit.njit`, whose cache folder is
keyed on a digest of every numba module of svmviz, this package's included (its functions call one
another and compile in the constants of :mod:`~svmviz.path._solver.config`): any edit compiles afresh.
"""
from __future__ import annotations

from .config import (LOO_NUMERICAL, LOO_OK, LOO_QP_FAILED, LOST_REASONS, QP_MAX_ITER, QP_NUMERICAL, QP_OK,
                     STATUS_LOST, STATUS_MAX_BREAKPOINTS, STATUS_OK)
from .follower import follow_path
from .loo import loo_refits, loo_refits_parallel

__all__ = ["follow_path", "loo_refits", "loo_refits_parallel", "LOST_REASONS", "STATUS_OK",
           "STATUS_MAX_BREAKPOINTS", "STATUS_LOST", "QP_OK", "QP_MAX_ITER", "QP_NUMERICAL", "LOO_OK",
           "LOO_QP_FAILED", "LOO_NUMERICAL"]
