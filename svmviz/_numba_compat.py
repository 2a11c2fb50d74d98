"""The four private internals of numba that svmviz uses: a cache folder for svmviz's compiled functions
only, one compilation per argument types for a call from compiled code, no C-callable wrapper, and
one copy of an inlined function's scope per copy of its IR.

The cache folder
----------------

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

Plain argument types for calls from compiled code
-------------------------------------------------

Why. numba types a call from one compiled function to another with the literal types of the constants
the caller passes (``f(x, 0)`` is typed ``(float64, Literal[int](0))``) and compiles the callee once
for each such signature, beside the one a call from Python compiles (``(float64, int64)``): svmviz's
solvers take their modes (a loss, a kernel, shrinking or not, a phase to resume at) as int or bool
arguments, which their callers pass as constants, so one function would compile once per mode its
callers name and once more for Python — each time with every function it calls linked in and
optimised again. One compilation per argument types suffices: a literal argument only lets numba
prune the branches of the other modes, which the compiled code spends next to nothing on.

What. A dispatcher's ``get_call_template(args, kws)`` (numba's ``_DispatcherBase``, through which
``types.Dispatcher.get_call_type`` types every call from compiled code and compiles what it lacks) is
wrapped on the dispatcher by :func:`plain_call_types` to drop the literal types first
(``numba.types.unliteral``): the callee compiles for the types a call from Python has, and a constant
is cast to its type at the call.

Fallback. A numba without that method: the dispatcher is left as it is (a callee may compile once
more per constant, with the same results).

Canary: ``tests/test_numba_compat.py`` (a callee called from compiled code with two different
constants has one signature, the one a call from Python has, and computes the same).

No C-callable wrapper
---------------------

Why. For every signature it compiles, numba's CPU target builds the function itself, a CPython
wrapper (what a call from Python runs: unboxing the arguments, boxing the result) and a C-callable
wrapper (``cfunc`` wrapper), which only a function used as a first-class function value reaches
(numba's ``FunctionType``: a compiled function stored in a container or typed by its address).
svmviz calls its compiled functions from Python and by name from other compiled functions, where
numba links the function itself, never through a function pointer: the C wrapper would be generated,
optimised, linked and cached with each function for nothing.

What. numba's CPU target option ``no_cfunc_wrapper`` (``numba.core.options``, a ``TargetOptions``
mapping onto the compiler flag of that name that numba sets itself for its internal functions; not in
the documented options of ``numba.jit``): :func:`without_cfunc_wrapper` adds it to the options of a
decoration.

Fallback. A numba whose CPU target lacks that option: the options are passed as they are (each
function also compiles its C wrapper, with the same results).

Canary: ``tests/test_numba_compat.py`` (a function compiled with the option computes the same and its
library holds no C wrapper, while numba's default one holds it; every dispatcher svmviz's ``njit`` makes
carries the option).

One copy of an inlined function's scope per copy of its IR
----------------------------------------------------------

Why. numba inlines a function decorated ``inline='always'`` into its caller in its untyped pass
``InlineInlinables``: the callee's IR is copied (twice: one copy to edit, one kept unedited), block by
block, each block by its own ``copy.deepcopy`` (``InlineWorker.inline_ir``, ``copy_ir``). Each block's
variables refer to the function's one scope, which holds every variable of the function: every
block's deep copy copies the whole scope again, so a copy costs the number of blocks times the number
of variables (a cost numba's issue tracker discusses as "Spurious deep copies in inlining"). svmviz's
solvers inline large helpers (the IRWLS exact finish, its dual guess): with numba's own pass these
copies cost seconds of their first compilation (``bench_coldstart.py --compiles`` lists the rest).

What. svmviz's compiled functions compile with their own pipeline (numba's documented
``pipeline_class`` option: :class:`OneCopyInlineCompiler`, numba's nopython pipeline with
``InlineInlinables`` replaced by a subclass). While that pass runs — under numba's compiler lock, so
that no other compilation of the process runs meanwhile — the name ``copy`` of numba's module
``numba.core.inline_closurecall`` is an object whose ``deepcopy`` copies the blocks of one IR with one
shared memo (:class:`_BlockCopier`): the scope and each variable once per copy of the IR, as
``copy.deepcopy`` of the whole IR would. A block copied a second time, or a block of another scope,
starts a new memo: two copies never share an object. The copy holds the same statements, variables
and labels, and the functions compile to the same code (the same optimised LLVM IR for every
function of the warm-up). Afterwards the module's name is restored.

Fallback. A numba without these names (the pass, the module's ``copy``, ``ir.Block``): no pipeline
is given, numba's own (the same results, the copies as numba makes them).

Canary: ``tests/test_numba_compat.py`` (a function inlining a helper with many blocks compiles to the
same results with svmviz's pipeline and with numba's, copies each block's scope once per copy of the
IR, and leaves numba's module as it was).

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import copy
import threading

import numba
from numba import types

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


try:
    from numba.core.dispatcher import Dispatcher as _Dispatcher
except ImportError:  # pragma: no cover — a numba without this module: the fallback
    _Dispatcher = None

CALL_TYPES_SUPPORTED = _Dispatcher is not None and hasattr(_Dispatcher, "get_call_template")
"""Whether this numba types calls from compiled code through the method :func:`plain_call_types` wraps."""


def plain_call_types(dispatcher):
    """Make calls to ``dispatcher`` from compiled code compile it for the arguments' plain types
    (``int64`` for a constant ``0``, ``bool`` for ``True``), never for their literal types.

    Parameters
    ----------
    dispatcher : numba dispatcher
        Made by ``numba.njit``; changed in place.

    Returns
    -------
    numba dispatcher
        ``dispatcher`` itself.
    """
    if not CALL_TYPES_SUPPORTED or not hasattr(dispatcher, "get_call_template"):
        return dispatcher
    typed = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


try:
    from numba.core.cpu import CPUTargetOptions as _CPUTargetOptions
    from numba.core.options import TargetOptions as _TargetOptions
except ImportError:  # pragma: no cover — a numba without these modules: the fallback
    _CPUTargetOptions = _TargetOptions = None

NO_CFUNC_WRAPPER_SUPPORTED = _CPUTargetOptions is not None and isinstance(
    getattr(_CPUTargetOptions, "no_cfunc_wrapper", None), _TargetOptions.Mapping)
"""Whether this numba's CPU target takes the option :func:`without_cfunc_wrapper` adds."""


def without_cfunc_wrapper(options: dict) -> dict:
    """The options of a ``numba.njit`` decoration, with the C-callable wrapper left out when this numba
    can (``no_cfunc_wrapper=True``, see the module).

    Parameters
    ----------
    options : dict
        Options of ``numba.njit`` (``cache``, ``nogil``, ``fastmath``…); not changed.

    Returns
    -------
    dict
        A new dict: ``options`` and ``no_cfunc_wrapper=True``, or ``options`` as they are on a numba
        without that option. An explicit ``no_cfunc_wrapper`` in ``options`` is kept.
    """
    if not NO_CFUNC_WRAPPER_SUPPORTED:
        return dict(options)
    return {"no_cfunc_wrapper": True, **options}


try:
    from numba.core import inline_closurecall as _inline_closurecall
    from numba.core import ir as _ir
    from numba.core.compiler import CompilerBase as _CompilerBase
    from numba.core.compiler import DefaultPassBuilder as _DefaultPassBuilder
    from numba.core.compiler_machinery import register_pass as _register_pass
    from numba.core.untyped_passes import InlineInlinables as _InlineInlinables
except ImportError:  # pragma: no cover — a numba without these names: the fallback
    _inline_closurecall = _ir = _CompilerBase = _DefaultPassBuilder = _register_pass = _InlineInlinables = None

ONE_COPY_INLINE_SUPPORTED = (_InlineInlinables is not None and getattr(_inline_closurecall, "copy", None) is copy
                             and hasattr(_ir, "Block"))
"""Whether this numba has the pass and the module :class:`OneCopyInlineCompiler` relies on (False: the fallback)."""


class _BlockCopier:
    """The module ``copy`` as numba's inliner sees it while :class:`OneCopyInlineCompiler`'s inlining pass
    runs: ``deepcopy`` of an IR block without a memo uses one memo for consecutive blocks of one scope
    (one copy of an IR, see the module); everything else is the module ``copy`` itself."""

    def __init__(self):
        self._scope = None
        self._memo = None

    def __getattr__(self, name):
        return getattr(copy, name)

    def deepcopy(self, x, memo=None):
        if memo is not None or type(x) is not _ir.Block:
            return copy.deepcopy(x, memo)
        if x.scope is not self._scope or id(x) in self._memo:  # another IR, or a new copy of this one
            self._scope, self._memo = x.scope, {}
        return copy.deepcopy(x, self._memo)


if ONE_COPY_INLINE_SUPPORTED:
    @_register_pass(mutates_CFG=True, analysis_only=False)
    class _InlineInlinablesOneCopy(_InlineInlinables):
        """numba's ``InlineInlinables`` with one copy of each inlined IR's scope per copy of the IR."""

        _name = "svmviz_inline_inlinables_one_copy"

        def run_pass(self, state):
            saved = _inline_closurecall.copy
            _inline_closurecall.copy = _BlockCopier()
            try:
                return super().run_pass(state)
            finally:
                _inline_closurecall.copy = saved

    class OneCopyInlineCompiler(_CompilerBase):
        """numba's compiler (``numba.core.compiler.Compiler``) with :class:`_InlineInlinablesOneCopy` in
        place of ``InlineInlinables``; the object-mode pipeline as numba's."""

        def define_pipelines(self):
            if self.state.flags.force_pyobject:
                return [_DefaultPassBuilder.define_objectmode_pipeline(self.state)]
            pm = _DefaultPassBuilder.define_nopython_pipeline(self.state)
            pm.passes = [(_InlineInlinablesOneCopy if pss is _InlineInlinables else pss, desc) for pss, desc in pm.passes]
            pm.finalize()
            return [pm]
else:  # pragma: no cover — the fallback
    OneCopyInlineCompiler = None


def with_one_copy_inline(options: dict) -> dict:
    """The options of a ``numba.njit`` decoration with svmviz's pipeline (``pipeline_class``,
    :class:`OneCopyInlineCompiler`) when this numba allows it (see the module).

    Parameters
    ----------
    options : dict
        Options of ``numba.njit``; not changed.

    Returns
    -------
    dict
        A new dict: ``options`` and ``pipeline_class=OneCopyInlineCompiler``, or ``options`` as they are
        on a numba without the names it needs. An explicit ``pipeline_class`` in ``options`` is kept.
    """
    if not ONE_COPY_INLINE_SUPPORTED:
        return dict(options)
    return {"pipeline_class": OneCopyInlineCompiler, **options}
