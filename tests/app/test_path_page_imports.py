"""The path page's first run imports no scikit-learn, pandas or scipy.special: neither its header
(svmviz.ui.presets -> svmviz.published: pandas) nor its data sidebar (svmviz.ui.edit ->
svmviz.figures.edit -> svmviz.figures.tuning -> svmviz.tuning: sklearn) may import them before the
path's computation starts."""
from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PROBE = """
import json, os, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(os.path.join({root!r}, "pages", "3_Regularization_path.py"), default_timeout=600).run()
print(json.dumps({{"charts": len(at.get("plotly_chart")), "exception": len(at.exception), "error": len(at.error),
                  "heavy": [m for m in ("sklearn", "pandas", "scipy.special", "svmviz.tuning") if m in sys.modules]}}))
"""


def test_the_path_pages_first_run_imports_no_scikit_learn_nor_pandas():
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", PROBE.format(root=ROOT)], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["exception"] == 0 and res["error"] == 0 and res["charts"] >= 3, res
    assert res["heavy"] == [], res
