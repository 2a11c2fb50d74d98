"""``svmviz warmup`` compiles every kernel the app's pages use: after it, on the same fresh cache,
every page's default view (and the path page's linear kernel) compiles no svmviz kernel.

One process on an empty cache (the warm-up, about a minute of CPU), then one that opens the pages
under AppTest and counts numba's compilations of svmviz's kernels (numba's event API)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PAGES = r"""
import collections, json
from numba.core import event
from streamlit.testing.v1 import AppTest

compiled = collections.Counter()

class Count(event.Listener):
    def on_start(self, ev):
        fn = getattr(ev.data.get("dispatcher"), "py_func", None)
        if fn is not None and fn.__module__.startswith("svmviz."):
            compiled[f"{fn.__module__}.{fn.__qualname__}"] += 1

    def on_end(self, ev):
        pass

event.register("numba:compile", Count())
out = {}
for module, query in [("tuning", {}), ("path", {}), ("path", {"pkernel": "linear"}), ("losses", {}),
                      ("usvc", {}), ("ivm", {}), ("anova", {})]:
    compiled.clear()
    at = AppTest.from_string(f"from svmviz.ui import {module}\n{module}.page()\n", default_timeout=900)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    out[f"{module}{query}"] = {"compiled": dict(compiled), "exceptions": [str(e.value) for e in at.exception]}
print(json.dumps(out))
"""


def test_pages_compile_nothing_after_the_warmup(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(SVMVIZ_CACHE_DIR=str(tmp_path), PYTHONPATH=ROOT, SVMVIZ_WARMUP="0")
    warm = subprocess.run([sys.executable, "-m", "svmviz.cli", "warmup"], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=1800)
    assert warm.returncode == 0, warm.stderr[-3000:]
    assert "done in" in warm.stdout
    res = subprocess.run([sys.executable, "-c", PAGES], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=1800)
    assert res.returncode == 0, res.stderr[-3000:]
    pages = json.loads(res.stdout.strip().splitlines()[-1])
    assert all(not p["exceptions"] for p in pages.values()), pages
    assert {name: p["compiled"] for name, p in pages.items() if p["compiled"]} == {}
