"""The ν-path's breakpoint array at large n.

α's breakpoint rows live in an anonymous private mapping in small pages (``follower._breakpoint_rows``:
numpy madvises large arrays into transparent huge pages, whose first-touch faults and compaction
cost banana n = 5000 several seconds of system time) and the path returns its first rows as a view
(no 1.25 GB copy). ``path.groups_from_alpha`` computes the groups with two comparisons on int8
views instead of boolean-indexed writes: the same codes, checked against the plain formula.
"""
from __future__ import annotations

import os
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svmviz.data import banana
from svmviz.path import GROUP_E, GROUP_L, GROUP_R, groups_from_alpha, nu_path
from svmviz.path._nu_path import _ALPHA_TOL
from svmviz.path._solver import follower
from svmviz.path._solver.config import BREAKPOINT_MAP_MIN_BYTES
from svmviz.path._solver.follower import _breakpoint_rows


def _vm_flags(address):
    """The VmFlags of the mapping of this process that contains ``address`` (Linux smaps)."""
    with open("/proc/self/smaps") as f:
        inside = False
        for line in f:
            head = line.split()[0]
            if "-" in head and ":" not in head:
                lo, hi = (int(x, 16) for x in head.split("-"))
                inside = lo <= address < hi
            elif inside and line.startswith("VmFlags:"):
                return line.split()[1:]
    raise AssertionError(f"no mapping holds {address:#x}")


@pytest.mark.skipif(not os.path.exists("/proc/self/smaps"), reason="reads Linux's /proc/self/smaps")
def test_the_breakpoint_array_is_not_in_huge_pages_and_not_copied(monkeypatch):
    """The mapping's threshold lowered to 0 (by default it is m ≥ 1810: a path of a few seconds),
    banana n = 300: the returned α is a view of a mapping advised against huge pages ('nh'), not a
    copy (fails before: np.empty's rows, copied; no threshold)."""
    monkeypatch.setattr(follower, "BREAKPOINT_MAP_MIN_BYTES", 0)
    ds = banana(n=300, seed=0)
    p = nu_path(ds.X, ds.y, sigma=1.0)
    assert p.status == 0 and p.alphas.shape == (p.n_breakpoints, 300)
    assert p.alphas.flags.c_contiguous and p.alphas.dtype == np.float64 and not p.alphas.flags.owndata
    flags = _vm_flags(p.alphas.ctypes.data)
    assert "nh" in flags and "hg" not in flags, flags
    # the rows are the path's: bitwise those of the default allocation, a pickle round trip
    monkeypatch.setattr(follower, "BREAKPOINT_MAP_MIN_BYTES", BREAKPOINT_MAP_MIN_BYTES)
    ref = nu_path(ds.X, ds.y, sigma=1.0)
    assert np.array_equal(ref.alphas, p.alphas) and np.array_equal(ref.lambdas, p.lambdas)
    assert ref.alphas.flags.owndata  # below the threshold: np.empty and a copy, as before
    q = pickle.loads(pickle.dumps(p.alphas))
    assert np.array_equal(q, p.alphas)


def test_breakpoint_rows_shape_and_writes():
    a = _breakpoint_rows(7, 5)
    assert a.shape == (7, 5) and a.dtype == np.float64 and a.flags.c_contiguous and a.flags.writeable
    a[:] = np.arange(35.0).reshape(7, 5)
    assert a[6, 4] == 34.0 and a[:3].sum() == np.arange(15.0).sum()


def _plain_groups(alpha):  # the definition by boolean-indexed writes: R at α ≤ tol, L at α ≥ 1 − tol, else E
    a = np.asarray(alpha)
    g = np.full(a.shape, GROUP_E, dtype=np.int8)
    g[a <= _ALPHA_TOL] = GROUP_R
    g[a >= 1.0 - _ALPHA_TOL] = GROUP_L
    return g


_EDGES = [0.0, -0.0, _ALPHA_TOL, np.nextafter(_ALPHA_TOL, 1.0), np.nextafter(_ALPHA_TOL, 0.0), 1.0 - _ALPHA_TOL,
          np.nextafter(1.0 - _ALPHA_TOL, 0.0), np.nextafter(1.0 - _ALPHA_TOL, 2.0), 1.0, 0.5, -1.0, 2.0,
          np.nan, np.inf, -np.inf]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_EDGES), st.floats(-0.5, 1.5, allow_nan=False)), min_size=0, max_size=40),
       st.integers(1, 4))
def test_groups_from_alpha_are_the_plain_formula(vals, rows):
    a = np.array(vals, dtype=float)
    for arr in (a, np.tile(a, (rows, 1)), np.tile(a, (rows, 1)).T):
        g = groups_from_alpha(arr)
        assert g.dtype == np.int8 and g.shape == arr.shape
        assert np.array_equal(g, _plain_groups(arr))
    for v in vals[:3]:
        assert groups_from_alpha(v) == _plain_groups(v)
    assert np.array_equal(groups_from_alpha(list(vals)), _plain_groups(a))
