"""Deprecated alias of :mod:`svmviz.figures.build`, the figure builder (kept for one release): every
name read from here warns ``DeprecationWarning`` and is :mod:`svmviz.figures.build`'s. The switch
:data:`svmviz.figures.build.VALIDATE` is set on :mod:`svmviz.figures.build` itself."""
from __future__ import annotations

from .. import _aliases
from . import build as _build

__getattr__ = _aliases.alias_getattr(__name__, _build)
