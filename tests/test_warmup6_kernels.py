"""The warm-up's kernel task for the path page (issue 13, "Fast from the first click"):
:data:`svmviz.ui.warmup.PATH_KERNELS` is exactly what numba compiles for the ν-path follower, in the
reverse of its typing order, and once compiled into the cache they are LOADED by the follower's
compilation (not compiled again) — the follower's first compilation then takes ~1/3 of its CPU.

Each check runs in a process of its own on an empty cache (``NUMBA_CACHE_DIR`` in ``tmp_path``): in
this process the kernels may be compiled already, with other argument types by other tests.
About 15 s of CPU each (the follower's compilation).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRELUDE = r"""
import json, sys
import numpy as np
from numba.core import event
stack, compiled = [], []
class L(event.Listener):
    def on_start(self, ev):
        d = ev.data["dispatcher"]
        name = (d.py_func.__module__, d.py_func.__qualname__)
        compiled.append((name, str(tuple(ev.data["args"])), [s[1] for s in stack]))
        stack.append(name)
    def on_end(self, ev):
        stack.pop()
event.register("numba:compile", L())
from svmviz import path
from svmviz.ui import warmup
rng = np.random.default_rng(0)
X = rng.normal(size=(120, 2))
y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=120) > 0, 1, -1)
def follow():
    # the page's call (svmviz.ui.path: nu_path with the RBF kernel)
    del compiled[:]
    res = path.nu_path(X, y, kernel="rbf", sigma=1.0)
    return [(m, f, a, parents) for (m, f), a, parents in compiled if m.startswith("svmviz._nu_path")]
"""


def _run(body: str, tmp_path) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": ROOT}
    out = subprocess.run([sys.executable, "-c", PRELUDE + body], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_path_kernels_are_what_the_follower_compiles_in_reverse_typing_order(tmp_path):
    got = _run(r"""
seen = follow()
callees = [(m, f, a) for m, f, a, parents in seen if "_follow" in parents]
listed = [(m, f, str(warmup.kernel_types(sig))) for m, f, sig in warmup.PATH_KERNELS]
print(json.dumps({"callees": callees, "listed": listed}))
""", tmp_path)
    callees = [tuple(c) for c in got["callees"]]
    listed = [tuple(c) for c in got["listed"]]
    assert len(set(callees)) == len(callees)  # one signature each: one compilation each
    assert listed == callees[::-1], ("PATH_KERNELS is stale: set it to the follower's callees, reversed",
                                     sorted(set(listed) - set(callees)), sorted(set(callees) - set(listed)))


def test_the_follower_loads_the_cached_kernels_instead_of_compiling_them(tmp_path):
    got = _run(r"""
stale = warmup.compile_kernels(warmup.PATH_KERNELS)
pre = [(m, f) for (m, f), a, parents in compiled if m.startswith("svmviz._nu_path")]
seen = follow()
print(json.dumps({"stale": stale, "pre": pre, "follower": [(m, f) for m, f, a, parents in seen]}))
""", tmp_path)
    assert got["stale"] == []
    assert sorted(map(tuple, got["pre"])) == sorted((m, f) for m, f, _ in __import__(
        "svmviz.ui.warmup", fromlist=["x"]).PATH_KERNELS)  # each compiled once, nothing else
    # the follower's compilation compiles itself, nothing it calls: every callee came from the cache
    # (its state is allocated in Python: asqp.path_work is numpy, not a kernel)
    assert sorted(f for _, f in got["follower"]) == ["_follow"]


def test_a_stale_entry_is_reported_and_skipped_not_fatal():
    from svmviz.ui import warmup

    bad = (("svmviz._nu_path.kkt", "no_such_kernel", "f8"), ("svmviz._nu_path.kkt", "kkt_tol", "f8, f8, f8"),
           ("svmviz._nu_path.kkt", "kkt_tol", "f8, f8[::1]"))
    failed = warmup.compile_kernels(bad)
    assert len(failed) == 2 and "no_such_kernel" in failed[0] and "kkt_tol" in failed[1]


def test_the_ivm_pages_calls_load_the_cached_ivm_kernels(tmp_path):
    """IVM_KERNELS compiled first (an empty cache): the IVM page's λ path (B2*, the page's default
    scoring) and KLR path compile neither, and call them with exactly the listed types."""
    got = _run(r"""
from svmviz import ivm, _klr
stale = warmup.compile_kernels(warmup.IVM_KERNELS)
del compiled[:]
Xt, yt = X[:40], y[:40]
ivm.ivm_lambda_path(X, y, Xt, yt, lams=ivm.paper_lambdas(3), method="onestep")
ivm.klr_lambda_path(X, y, Xt, yt, lams=ivm.paper_lambdas(3))
names = [f for (m, f), a, parents in compiled if m == "svmviz._klr"]
sigs = {f: [str(s) for s in getattr(_klr, f).signatures] for _, f, _ in warmup.IVM_KERNELS}
listed = {f: [str(warmup.kernel_types(sig))] for _, f, sig in warmup.IVM_KERNELS}
print(json.dumps({"stale": stale, "compiled": names, "sigs": sigs, "listed": listed}))
""", tmp_path)
    assert got["stale"] == []
    assert "_newton_fit" in got["compiled"]  # the page's own compilation…
    assert not {f for f in got["listed"]} & set(got["compiled"])  # …loads the listed ones
    assert got["sigs"] == got["listed"]  # called with the listed types only
