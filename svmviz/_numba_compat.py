"""The three private internals of numba that svmviz uses: a cache folder for svmviz's compiled functions
only, one compilation per argument types for a call from compiled code, and no C-callable wrapper.

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

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

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
