"""The server's objects that live as long as it are frozen out of the garbage collector's scans
(issue 13, warm interaction): Streamlit collects every generation after each script run
(``runner.postScriptGC``), which scanned the ~220k objects of the pages' modules at every rerun
(~0.1 s of CPU, the GIL held). :func:`svmviz.ui.frame.freeze_long_lived` runs in a fresh interpreter
here: freezing is process-wide."""
from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROG = r"""
import gc, json, time, weakref
from svmviz.ui import frame
import svmviz.ui.path, svmviz.ui.tuning  # the pages' modules (numba, scikit-learn, plotly)

class Node:
    pass

a, b = Node(), Node()
a.other, b.other = b, a  # a reference cycle: garbage only the collector frees
dead = weakref.ref(a)
del a, b

def full_gc():
    t = time.process_time()
    gc.collect(2)
    return time.process_time() - t

before = min(full_gc() for _ in range(3))
tracked = len(gc.get_objects())
first = frame.freeze_long_lived()
cycle_freed = dead() is None
frozen = gc.get_freeze_count()
after = min(full_gc() for _ in range(3))
again = frame.freeze_long_lived()  # nothing new imported: no second freeze
import svmviz.ui.ivm  # a page's first visit imports more
third = frame.freeze_long_lived()
print(json.dumps({"first": first, "again": again, "third": third, "cycle_freed": cycle_freed,
                  "frozen": frozen, "tracked": tracked, "before": before, "after": after}))
"""


def test_a_run_that_imported_modules_freezes_what_lives_and_collects_the_rest():
    env = {**os.environ, "PYTHONPATH": ROOT}
    out = subprocess.run([sys.executable, "-c", PROG], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["first"] and not got["again"] and got["third"], got
    assert got["cycle_freed"], got  # collected before the freeze: garbage is never frozen
    assert got["frozen"] > 0.9 * got["tracked"] > 50_000, got
    assert got["after"] < 0.25 * got["before"], got  # a full collection no longer scans them
