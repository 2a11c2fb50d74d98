"""Deprecated alias of :mod:`svmviz.published`, the papers' numbers' one source (kept for one release):
every name read from here warns ``DeprecationWarning`` and is :mod:`svmviz.published`'s."""
from __future__ import annotations

from .. import published as _published
from .._aliases import alias_getattr

__getattr__ = alias_getattr(__name__, _published)
