"""Deprecated aliases of renamed public modules and functions, each with a ``DeprecationWarning``
naming what to use instead, for one release.

An alias module holds nothing of its own; its ``__getattr__`` (:pep:`562`), made by
:func:`alias_getattr`, hands out the new module's names. ``import old`` alone warns nothing; reading
a name from it (``old.x``, ``from old import x``) warns once per place that reads it (Python's
default ``warnings`` filter shows a ``DeprecationWarning`` where the code importing it is
``__main__``, and in tests).

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import types
import warnings
from typing import Callable


def alias_getattr(old: str, new: types.ModuleType) -> Callable[[str], object]:
    """The module ``__getattr__`` of the deprecated alias ``old`` (a dotted module name) of ``new``.

    Parameters
    ----------
    old : str
        The alias module's dotted name (its ``__name__``).
    new : module
        The module where the names live.

    Returns
    -------
    callable
        ``__getattr__(name)``: ``new``'s attribute ``name`` after a ``DeprecationWarning`` saying to import
        it from ``new``; dunder names (``__path__``, ``__all__``…) raise ``AttributeError`` as for a
        module without them.
    """
    def __getattr__(name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        value = getattr(new, name)  # an unknown name raises AttributeError naming the new module
        warn_deprecated(old, f"import {name} from {new.__name__}", stacklevel=3)
        return value

    return __getattr__


def warn_deprecated(old: str, instead: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated: a ``DeprecationWarning`` saying what to do ``instead``.

    Parameters
    ----------
    old : str
        The deprecated name (a module, or a function with its module).
    instead : str
        What to use instead, as an imperative ("call plan_script(…)").
    stacklevel : int
        ``warnings.warn``'s: 3 points at the caller of the function that calls this one.
    """
    warnings.warn(f"{old} is deprecated and will be removed in the next release; {instead} instead.",
                  DeprecationWarning, stacklevel=stacklevel)
