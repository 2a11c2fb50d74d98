"""Memory: one function (svmviz._validation.memory_room) takes the tightest of MemAvailable,
RLIMIT_AS / RLIMIT_DATA and the cgroup's limit; the entry points refuse before allocating with a
MemoryError naming the size and the largest n that fits; decision values stream in row blocks."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from svmviz import _validation
from svmviz.svm import _classes as svm_classes
from svmviz.svm import SVMClassifier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_cgroup_v2_limit_of_the_group_and_its_ancestors(tmp_path):
    proc = tmp_path / "cgroup"
    proc.write_text("0::/slurm/job7/step0\n")
    root = tmp_path / "fs"
    _write(root / "slurm/job7/step0/memory.max", "max\n")
    _write(root / "slurm/job7/step0/memory.current", "100\n")
    _write(root / "slurm/job7/memory.max", str(3 * 2**30) + "\n")
    _write(root / "slurm/job7/memory.current", str(2**30) + "\n")
    room, source = _validation._cgroup_room(str(proc), str(root))
    assert room == 2 * 2**30 and "memory.max" in source and "v2" in source


def test_cgroup_v1_limit(tmp_path):
    proc = tmp_path / "cgroup"
    proc.write_text("4:memory:/docker/abc\n0::/\n")
    root = tmp_path / "fs"
    _write(root / "memory/docker/abc/memory.limit_in_bytes", str(2 * 10**9))
    _write(root / "memory/docker/abc/memory.usage_in_bytes", str(5 * 10**8))
    _write(root / "memory/memory.limit_in_bytes", str(9223372036854771712))  # v1's "no limit"
    room, source = _validation._cgroup_room(str(proc), str(root))
    assert room == 15 * 10**8 and "limit_in_bytes" in source


def test_no_cgroup_limit_is_none(tmp_path):
    proc = tmp_path / "cgroup"
    proc.write_text("0::/\n")
    _write(tmp_path / "fs/memory.max", "max")
    assert _validation._cgroup_room(str(proc), str(tmp_path / "fs")) is None


def test_memory_room_is_the_tightest(monkeypatch):
    monkeypatch.setattr(_validation, "_meminfo_available", lambda: 8 * 10**9)
    monkeypatch.setattr(_validation, "_rlimit_room", lambda: (3 * 10**9, "RLIMIT_AS (4.00 GB)"))
    monkeypatch.setattr(_validation, "_cgroup_room", lambda: (5 * 10**9, "cgroup"))
    assert _validation.memory_room() == (3 * 10**9, "RLIMIT_AS (4.00 GB)")
    monkeypatch.setattr(_validation, "_cgroup_room", lambda: (10**9, "cgroup"))
    assert _validation.memory_room() == (10**9, "cgroup")


def _no_kernel(*args, **kwargs):
    raise AssertionError("the kernel matrix was computed before the memory check")


def test_svm_fit_refuses_before_the_kernel_with_size_and_largest_n(monkeypatch):
    """SVMClassifier.fit on 200,000 × 2 (a 320 GB kernel matrix): a MemoryError naming the size."""
    monkeypatch.setattr(_validation, "memory_room", lambda: (2 * 10**9, "RLIMIT_AS (2.00 GB)"))
    monkeypatch.setattr(svm_classes, "gram", _no_kernel)
    X = np.random.default_rng(0).normal(size=(200_000, 2))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(MemoryError) as exc:
        SVMClassifier(strategy="full").fit(X, y)
    msg = str(exc.value)
    assert "n = 200000" in msg and "360.03 GB of working memory" in msg and "RLIMIT_AS" in msg
    n_max = int(msg.split("largest n that fits is about ")[1].split(".")[0])
    assert svm_classes._fit_memory(n_max) <= 2 * 10**9 < svm_classes._fit_memory(n_max + 1)


def test_svm_fit_refusal_under_ulimit_v_in_a_child():
    """A real RLIMIT_AS (resource.setrlimit in a child process): refused by the check, not by a failed
    allocation, and the check's largest n is one that then fits."""
    code = textwrap.dedent(f"""
        import resource, sys
        sys.path.insert(0, {ROOT!r})
        import numpy as np
        from svmviz import _validation
        from svmviz.svm import SVMClassifier
        rng = np.random.default_rng(0)
        X = rng.normal(size=(20_000, 2)); y = (X[:, 0] > 0).astype(int)
        SVMClassifier().fit(X[:50], y[:50])  # compiled (or loaded from the cache) before the limit
        vm = _validation._status_bytes("VmSize")
        resource.setrlimit(resource.RLIMIT_AS, (vm + 400 * 2**20, resource.RLIM_INFINITY))
        room, source = _validation.memory_room()
        assert "RLIMIT_AS" in source, source
        try:
            SVMClassifier(strategy="full").fit(X, y)
        except MemoryError as exc:
            msg = str(exc)
            assert "SVMClassifier.fit at n = 20000" in msg and "RLIMIT_AS" in msg, msg
            n_max = int(msg.split("largest n that fits is about ")[1].split(".")[0])
        else:
            raise SystemExit("not refused")
        m = min(n_max, 2000)
        SVMClassifier().fit(X[:m], y[:m])
        print("ok", n_max)
    """)
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", NUMBA_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0 and out.stdout.startswith("ok"), out.stdout[-2000:] + out.stderr[-3000:]


def test_predict_in_chunks_equals_one_block_and_bounds_the_block():
    X = np.arange(30.0).reshape(15, 2)
    seen = []

    def fun(rows):
        seen.append(rows.shape[0])
        return rows.sum(axis=1)

    out = _validation.predict_in_chunks(fun, X, n_basis=1, block_bytes=8 * 4)
    np.testing.assert_array_equal(out, X.sum(axis=1))
    assert max(seen) == 4 and sum(seen) == 15


def test_svm_decision_function_streams_rows(monkeypatch):
    from sklearn.datasets import make_moons
    X, y = make_moons(200, noise=0.3, random_state=0)
    clf = SVMClassifier(lam=1e-3, sigma=0.5).fit(X, y)
    whole = clf.decision_function(X)
    monkeypatch.setattr(_validation, "PREDICT_BLOCK_BYTES", 8 * clf.support_.size * 7)
    calls = []
    real = clf._kernel
    monkeypatch.setattr(clf, "_kernel", lambda A, B=None: calls.append(A.shape[0]) or real(A, B))
    np.testing.assert_allclose(clf.decision_function(X), whole, atol=1e-12)
    assert max(calls) == 7 and sum(calls) == 200


def test_every_kernel_entry_point_refuses_before_allocating(monkeypatch):
    """Under a simulated 1 MB limit each n = 600 entry point raises a MemoryError naming the size and
    the largest n; none computes a kernel matrix first."""
    from svmviz import anova, losses, path, tuning
    from svmviz.ivm import IVMClassifier, KernelLogisticRegression
    from svmviz.kernels import SSANOVAKernel

    monkeypatch.setattr(_validation, "memory_room", lambda: (10**6, "the cgroup v2 limit memory.max (0.00 GB)"))
    for mod in (svm_classes, path._nu_path, anova):
        monkeypatch.setattr(mod, "gram", _no_kernel)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 2))
    y = (X[:, 0] > 0).astype(int)
    lam = np.array([1e-2, 1e-1])
    calls = {
        "SVMClassifier.fit": lambda: SVMClassifier().fit(X, y),
        "KernelLogisticRegression": lambda: KernelLogisticRegression().fit(X, y),
        "IVMClassifier": lambda: IVMClassifier().fit(X, y),
        "nu_path": lambda: path.nu_path(X, y),
        "compare_kernels": lambda: anova.compare_kernels(X, y, lam, {"rbf": "rbf"}),
        "theta_lambda_grid": lambda: anova.theta_lambda_grid(X, y, lam, SSANOVAKernel(), [1.0]),
        "gacv_curves": lambda: losses.gacv_curves(X, y, lam, 1.0),
        "criteria surface": lambda: tuning.criteria_surface(X, y, lam, [1.0]),
    }
    for what, call in calls.items():
        with pytest.raises(MemoryError) as exc:
            call()
        msg = str(exc.value)
        assert what in msg and "n = 600" in msg and "GB" in msg and "memory.max" in msg, msg
        assert "largest n" in msg or "use n ≤" in msg, msg


def test_estimators_predict_in_blocks_equal_one_block(monkeypatch):
    """decision_function of every estimator in blocks of 5 rows equals the one-block answer."""
    from sklearn.datasets import make_moons

    from svmviz.ivm import IVMClassifier, KernelLogisticRegression
    from svmviz.path import NuSVMPath
    from svmviz.usvc import IRWLSClassifier

    X, y = make_moons(120, noise=0.3, random_state=0)
    for est in (KernelLogisticRegression(), IVMClassifier(), NuSVMPath(nu=0.3), IRWLSClassifier(kernel="rbf")):
        est.fit(X, y)
        whole = est.decision_function(X)
        monkeypatch.setattr(_validation, "PREDICT_BLOCK_BYTES", 8 * 5 * 120)
        np.testing.assert_allclose(est.decision_function(X), whole, rtol=0, atol=1e-12)
        monkeypatch.undo()
