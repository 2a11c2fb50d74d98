"""What the grid engine's first compilation compiles (the first chart of the Tuning and Kernels
pages; an empty numba cache, in a process of its own: other tests compile other variants)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_GRID = r"""
import json
import numpy as np
from numba.core import event
from numba.core.registry import CPUDispatcher

from svmviz import data, svm
from svmviz.svm import _smo

names = []

class _L(event.Listener):
    def on_start(self, ev):
        names.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass

event.register("numba:compile", _L())
ds = data.make_dataset("wahba2001", n=60, seed=0)
svm.fit_sigma_lambda_grid(ds.X, ds.y, [1e-3, 1e-2], [0.5, 1.0], n_threads=1)
print(json.dumps({"compiled": names,
                  "dispatchers": [n for n in ("rbf_sigma_sequence", "lambda_sequence", "solve_dual")
                                  if isinstance(getattr(_smo, n), CPUDispatcher)]}))
"""


def _run(code: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="svmviz-grid-compile-"), PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_grid_compiles_the_smo_without_shrinking_and_no_kernel_around_the_sequence():
    """The grid (no shrinking, svm.GRID_SHRINKING) compiles the SMO variant without shrinking and the
    compacting solve around it (libsvm's rule _be_shrunk, once per solve), inlined into the λ sequence,
    its one caller — not the index-list shrinking (_shrink / _select / _unshrink), which it never runs —
    and no kernel of its own around the λ sequence (each level links and optimises its callees again)."""
    got = _run(_GRID)
    compiled = got["compiled"]
    assert "_lambda_sequence_whole" in compiled and "_solve_whole" in compiled
    assert "_be_shrunk" in compiled and "_shrink_thresholds" in compiled  # the compacting solve's callees
    assert "_solve_compacting" not in compiled  # compiled inside the sequence only
    for name in ("_shrink", "_select", "_unshrink", "_solve_shrinking", "rbf_sigma_sequence",
                 "lambda_sequence", "_lambda_sequence_shrinking", "_descending_order"):
        assert name not in compiled, name
    assert compiled.count("_solve_whole") == 1 and compiled.count("_lambda_sequence_whole") == 1
    assert got["dispatchers"] == []  # Python over kernels


def test_lambda_sequence_solves_from_the_largest_lambda_down_ties_in_the_order_given():
    """The solving order (from Python since the sequence kernel takes it): any input order gives each
    λ the solution it has in the sorted sequence, bit for bit (the same warm starts), ties included."""
    import numpy as np

    from svmviz import data
    from svmviz.kernels import gram
    from svmviz.svm import fit_lambda_sequence

    ds = data.make_dataset("wahba2001", n=80, seed=4)
    K = gram(ds.X, sigma=0.8)
    lams = np.array([1e-2, 1e-4, 1e-3, 1e-3, 1e-1])
    order = [4, 0, 2, 3, 1]  # largest first, the tied pair in the order given
    got = fit_lambda_sequence(K, ds.y, lams)
    ref = fit_lambda_sequence(K, ds.y, lams[order])
    for q, k in enumerate(order):
        np.testing.assert_array_equal(got.alphas[k], ref.alphas[q])
        np.testing.assert_array_equal(got.f[k], ref.f[q])
        assert got.b[k] == ref.b[q] and got.n_iter[k] == ref.n_iter[q]
