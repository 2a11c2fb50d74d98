"""The decorators of the ν-path's kernels: :data:`entry`, :data:`helper` and their variants.

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
- :data:`helper_inline` — :data:`helper` inlined into its caller by numba (``inline='always'``);
- :data:`entry_alone` — an :data:`entry` whose own code LLVM optimises before its large callees are
  linked in, which then stay as their own compilation optimised them (:func:`optimise_alone`): the
  follower's loop (``follower._follow``).

Each kernel also takes a cross-process lock while it compiles (:mod:`svmviz._nu_path._compile_lock`):
a process that needs a kernel another process is compiling waits for it and loads it from the cache
instead of compiling it a second time (the warm-up's kernel task beside the server's first path).
"""
from __future__ import annotations

from numba.core import codegen as _codegen
from numba.core.compiler_lock import require_global_compiler_lock

from .._jit import njit
from ._compile_lock import coordinate


def _coordinated(decorator):
    """``decorator`` whose dispatchers take the compilation lock (:func:`coordinate`)."""
    def decorate(fn):
        return coordinate(decorator(fn))
    return decorate


class _AloneLibrary(_codegen.JITCodeLibrary):
    """numba's code library of a kernel compiled by :func:`optimise_alone`: finalised in another order."""

    def finalize(self):
        require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        # numba's CPUCodeLibrary.finalize links the callees' libraries, then optimises the whole
        # module; here the kernel's own functions (and the small callees) are optimised first, the
        # other callees being declarations, and those are linked in afterwards
        libraries = list(dict.fromkeys(self._linking_libraries))
        small = [lib for lib in libraries if _instructions(lib._get_module_for_linking(), SMALL_CALLEE) <= SMALL_CALLEE]
        self._link_callees(small)
        self._optimize_final_module()
        self._link_callees([lib for lib in libraries if lib not in small])
        self._final_module.verify()
        self._finalize_final_module()

    def _link_callees(self, libraries):
        for library in libraries:
            self._reload_init.update(library._reload_init)
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)


SMALL_CALLEE = 200
"""A callee of at most this many LLVM instructions (with its own callees) is linked into the kernel
before LLVM optimises it, where it may be inlined: numba's ``min``/``max``, the tolerance and scale
helpers (``kkt_tol``, ``tie_tolerance``, ``gram_scale``, …). Linked after the pass as call targets,
they cost the follower 1–2.6 % of run time per breakpoint (same-process A/B, n = 500–1000); linked
before, run time is that of numba's usual finalisation within 0–1.5 %, for ≈ 0.1 s more of the
pass. The larger callees (the QP, the working-set updates, …: 400–9500 instructions) are linked after."""


def _instructions(module, limit: int) -> int:
    """The number of instructions of ``module``'s defined functions, counted up to ``limit + 1``."""
    n = 0
    for fn in module.functions:
        if fn.is_declaration:
            continue
        for block in fn.blocks:
            for _ in block.instructions:
                n += 1
                if n > limit:
                    return n
    return n


_ALONE: set = set()  # names of the kernels optimise_alone is compiling (under numba's compiler lock)
_FINALIZE_PARTS = ("_optimize_final_module", "_get_module_for_linking", "_finalize_final_module", "_raise_if_finalized")


def optimise_alone(dispatcher):
    """Let LLVM optimise ``dispatcher``'s own code before its callees are linked into it; returns it.

    numba links into a kernel's module every kernel it calls — each already optimised and emitted
    by its own compilation — and then runs LLVM's full optimisation over the whole module again:
    for the follower's loop (``follower._follow``, ~35 callees, an empty cache) that pass took
    0.86–1.0 s of CPU out of its 3.0–3.3 s, on the path page's first chart's serial tail (the
    callees are compiled on both cores first; issue 13). Here the kernel's own functions get that
    same pass with the large callees as declarations (the small ones, :data:`SMALL_CALLEE`, linked
    before it, are inlined as usual), and the large ones are linked afterwards as their compilation
    left them: LLVM's pass 0.86–1.0 → 0.13–0.2 s, and the module emitted is smaller (no callee
    copied into the loop). The follower's own compilation with its callees compiled (empty cache,
    three alternated pairs, load 3.2–4.3): 3.37 / 3.57 / 3.68 → 2.50 / 2.80 / 2.73 s of CPU. Its
    paths are bitwise the same (10 data sets, 16,629 breakpoints) and its run time per breakpoint
    0.990–1.016× that of numba's usual finalisation (same process, alternated, best of 11, n =
    200–1000). The path page's first chart with the warm-up on (``bench_coldstart.py --pages path
    --scenarios cold-now``, three alternated pairs, load 2.0–2.8): 12.0 / 11.8 / 11.8 → 10.2 / 10.7 /
    10.6 s, the tail from the warm-up's kernel task done to the path computed 3.13 / 2.91 / 3.10 →
    2.15 / 2.34 / 2.36 s. Compiled so in every process (the decorator), cached and loaded as any
    kernel: numba's cache index does not depend on how the module was optimised.

    Only while this dispatcher compiles (under numba's global compiler lock) and only for the library
    named after this function does the codegen create an :class:`_AloneLibrary`; the callees it
    compiles meanwhile get numba's own. A numba without the internals this relies on compiles as
    usual."""
    compiler = getattr(dispatcher, "_compiler", None)
    codegen = dispatcher.targetctx.codegen() if compiler is not None else None
    if (codegen is None or getattr(codegen, "_library_class", None) is not _codegen.JITCodeLibrary
            or not hasattr(codegen, "_check_llvm_bugs")
            or not all(hasattr(_codegen.CPUCodeLibrary, a) for a in _FINALIZE_PARTS)):
        return dispatcher
    name = dispatcher.py_func.__qualname__
    compile_ = compiler.compile

    def create_library(library_name, **kwargs):
        cls = _AloneLibrary if library_name in _ALONE else codegen._library_class
        return cls(codegen, library_name, **kwargs)

    def compile_alone(args, return_type):
        outer = name in _ALONE
        codegen.create_library = create_library  # an instance attribute over the method: removed below
        _ALONE.add(name)
        try:
            return compile_(args, return_type)
        finally:
            if not outer:
                _ALONE.discard(name)
            if not _ALONE:
                codegen.__dict__.pop("create_library", None)

    compiler.compile = compile_alone
    return dispatcher


entry = _coordinated(njit(cache=True, no_cfunc_wrapper=True))
helper = _coordinated(njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=True))
helper_inline = _coordinated(njit(cache=True, inline='always', no_cfunc_wrapper=True, no_cpython_wrapper=True))


def entry_alone(fn):
    """:data:`entry` optimised by LLVM before its callees are linked in (:func:`optimise_alone`)."""
    return coordinate(optimise_alone(njit(cache=True, no_cfunc_wrapper=True)(fn)))
