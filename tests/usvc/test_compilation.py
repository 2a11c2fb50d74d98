"""What the IRWLS solver compiles: the exact line search's median is a selection of its own (the k-th
order statistic, as numpy's partition gives it), the Table 1 study is a loop in Python over the one
compiled solver, whose every call has the argument types of the estimator's."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from numba.core.registry import CPUDispatcher

from svmviz.usvc import _irwls

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@settings(max_examples=200, deadline=None)
@given(values=hst.lists(hst.sampled_from([0.0, 1.0, 1.0, 2.5, 3.0, -1.0, np.inf, 1e-300, 7.0]) | hst.floats(
    -1e6, 1e6, allow_nan=False), min_size=1, max_size=40), data=hst.data())
def test_kth_smallest_is_numpys_partition_at_k(values, data):
    x = np.array(values, dtype=np.float64)
    k = data.draw(hst.integers(0, x.size - 1))
    before = x.copy()
    got = _irwls._kth_smallest(x, k)
    assert np.float64(got).tobytes() == np.partition(x, k)[k].tobytes()
    np.testing.assert_array_equal(x, before)  # the selection works on a copy


@pytest.mark.parametrize("n", [1, 2, 3, 100, 1001])
def test_kth_smallest_of_every_rank_of_shuffled_ties(n):
    rng = np.random.default_rng(n)
    x = rng.integers(0, max(1, n // 3), n).astype(np.float64) * 0.1  # many ties
    for k in range(0, n, max(1, n // 17)):
        assert _irwls._kth_smallest(x, k) == np.sort(x)[k]


_PROBE = """
import json, warnings
from numba.core.registry import CPUDispatcher
from svmviz.data import make_dataset
from svmviz.usvc import IRWLSClassifier, table1_study, _irwls
warnings.simplefilter("ignore")
ds = make_dataset("usvc_B", n=60, seed=0)
IRWLSClassifier(C=10.0, loss="smooth_step", s=2.0).fit(ds.X, ds.y)
table1_study("A", n_trials=2, n_train=40, n_test=40)
print(json.dumps({n: len(o.signatures) for n, o in vars(_irwls).items() if isinstance(o, CPUDispatcher)}))
"""


def test_table1_study_calls_the_estimators_solver_from_python():
    # a process of its own: other tests may have called the solver with other argument types
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=600, cwd=_ROOT)
    assert out.returncode == 0, out.stderr
    sigs = json.loads(out.stdout.strip().splitlines()[-1])
    assert sigs["irwls"] == 1, sigs  # the study's fits take the estimator's compiled solver as it is
    assert all(v <= 1 for v in sigs.values()), sigs
    assert not isinstance(_irwls.table1_trials, CPUDispatcher)  # no kernel around the solver
