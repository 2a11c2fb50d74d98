"""A warm-up kernel task does not import streamlit (issue 13, the path page's first chart with the
warm-up on).

bench_coldstart cold-now: the path page's kernel task (``path-kernels``) runs beside the server's
first path on two cores; its worker imported streamlit's testing API (``AppTest``, 0.6-1.0 s of CPU)
before compiling anything, although only a page task runs a page. Every CPU second it spends there
is taken from the follower's compilation the first chart waits for.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROG = r"""
import json, sys
from svmviz.ui import warmup
task = warmup.Task("k", "path", {}, (), (("svmviz._nu_path.kkt", "kkt_tol", "f8, f8, f8"),))
seconds, compiled = warmup.run_task(task)
print(json.dumps({"streamlit": sorted(m for m in sys.modules if m.split(".")[0] == "streamlit")[:5],
                  "sklearn": "sklearn" in sys.modules}))
"""


def test_a_kernel_task_imports_neither_streamlit_nor_scikit_learn():
    env = {**os.environ, "PYTHONPATH": ROOT}
    out = subprocess.run([sys.executable, "-c", PROG], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"streamlit": [], "sklearn": False}
