"""The two decorators of the ν-path's kernels: :data:`entry` and :data:`helper`.

Both are :func:`svmviz._jit.njit` with ``cache=True``. numba gives every compiled kernel two
wrappers besides its native code: a CPython wrapper (the call from Python) and a C-callable
wrapper (a kernel passed as a first-class function). Each is generated, optimised by LLVM and
written to the cache per kernel; none of these kernels is passed as a function value, and most
are called only by other kernels, whose native code they call directly. Leaving the wrappers out
cut the path follower's first compilation (``nu_path_kernel`` and everything it calls, an empty
cache, banana n = 500) by about 15 % of CPU — 16.1 → 13.7 s and 21.1 → 18.1 s in back-to-back
pairs on a shared machine (load 1.7–2.1) — its breakpoints identical and its run time unchanged
(issue 13, "Fast from the first click").

- :data:`entry` — kernels called from Python (the public layer, :mod:`svmviz.path`,
  :mod:`svmviz._path_loo`, and the helpers ``tests/test_nu_path_internals.py`` calls directly);
- :data:`helper` — kernels called only by other kernels: no CPython wrapper. Calling one from
  Python CRASHES the interpreter (segmentation fault, no exception): a kernel any Python code
  calls is an :data:`entry` — ``tests/test_path4_decorators.py`` checks every Python caller in
  svmviz, bench/ and tests/;
- :data:`helper_inline` — :data:`helper` inlined into its caller by numba (``inline='always'``).

Each kernel also takes a cross-process lock while it compiles (:mod:`svmviz._nu_path._compile_lock`):
a process that needs a kernel another process is compiling waits for it and loads it from the cache
instead of compiling it a second time (the warm-up's kernel task beside the server's first path).
"""
from __future__ import annotations

from .._jit import njit
from ._compile_lock import coordinate


def _coordinated(decorator):
    """``decorator`` whose dispatchers take the compilation lock (:func:`coordinate`)."""
    def decorate(fn):
        return coordinate(decorator(fn))
    return decorate


entry = _coordinated(njit(cache=True, no_cfunc_wrapper=True))
helper = _coordinated(njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True))
helper_inline = _coordinated(njit(cache=True, inline='always', no_cfunc_wrapper=True, no_cpython_wrapper=True))
