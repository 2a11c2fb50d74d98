"""Benchmark: one edit of the data editor at n = 100 and n = 300, warm.

Run by hand: ``.venv/bin/python bench/bench_edit.py``. Three timings per n (median of the repeats,
after a warm-up; the load average is printed beside them):

* editor — what the server does for a click before the browser redraws the editor: the selection
  handler adds a point, the standard SVM is refitted (SVMClassifier, Wahba et al. 2001 eq. 1) and
  evaluated on the 90 × 90 mesh, the figure is built and serialized to JSON (what
  ``st.plotly_chart`` sends). Beside it, the scikit-learn way at equal resources in the same run:
  ``SVC(C=1/(2nλ), gamma=1/(2σ²))`` fit + ``decision_function`` on the same mesh.
* tuning page — the whole Tuning criteria page's rerun after the edit (AppTest, default 20 × 20
  (λ, σ) grid, no exact LOO): the editor plus the criteria surfaces, decision curves and table.
* path page — the whole Regularization path page's rerun after the edit (AppTest), with leave-one-out
  along the path off, then on (the page's default up to n = 300: drawn after the path's charts).

The browser's own redraw (Plotly, ~0.1–0.3 s) comes on top; tests/test_browser_edit.py prints the
click-to-settled time it sees.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                      ".numba_cache"))

from _common import machine  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

from svmviz import data as _data  # noqa: E402
from svmviz.figures import edit as fig_edit  # noqa: E402
from svmviz.ui import edit  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAM, SIGMA = 1e-2, 1.0
REPS = 7


def click(x1, x2):
    return {"points": [{"customdata": [x1, x2]}], "box": [], "lasso": []}


def spots(ds, k, seed=0):
    """k click positions inside the data's box (new points of alternating class)."""
    rng = np.random.default_rng(seed)
    lo, hi = ds.X.min(axis=0), ds.X.max(axis=0)
    return lo + rng.random((k, 2)) * (hi - lo)


def editor_edit(n: int) -> tuple[float, float, float]:
    """Median seconds of (one editor edit, its fit + mesh alone, the scikit-learn way's fit + mesh)."""
    ds = _data.make_dataset("banana", n=n - 1, seed=0)
    total, fit, skl = [], [], []
    for r, (x1, x2) in enumerate(spots(ds, REPS + 1)):
        st_ = edit.EditState(("banana", n - 1, 0), ds)
        t = time.perf_counter()
        st_.apply_selection(click(x1, x2), "pos" if r % 2 else "neg")
        t1 = time.perf_counter()
        v = st_.view(LAM, SIGMA)
        t2 = time.perf_counter()
        fig_edit.plot_edit_view(v).to_json()
        t3 = time.perf_counter()
        mesh = np.c_[np.tile(v.xs, v.xs.size), np.repeat(v.ys, v.ys.size)]
        t4 = time.perf_counter()
        SVC(C=1.0 / (2 * n * LAM), gamma=1.0 / (2 * SIGMA**2)).fit(st_.X, st_.y).decision_function(mesh)
        t5 = time.perf_counter()
        if r:  # the first is the warm-up
            total.append(t3 - t)
            fit.append(t2 - t1)
            skl.append(t5 - t4)
    return statistics.median(total), statistics.median(fit), statistics.median(skl)


def page_edit(page: str, n: int, query: dict) -> float:
    """Median seconds of a page's rerun after one edit (AppTest, warm: the data set's own
    computations already cached before the first edit, every edit a new data set)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(os.path.join(ROOT, "pages", page), default_timeout=600)
    for k, v in {"data": "edited", "ebase": "banana", "n": str(n - 1), "seed": "0", **query}.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    st_ = at.session_state[edit.STATE]
    times = []
    for r, (x1, x2) in enumerate(spots(st_.base_ds, REPS + 1, seed=1)):
        st_.apply_selection(click(x1, x2), "pos" if r % 2 else "neg")
        t = time.perf_counter()
        at.run()
        dt = time.perf_counter() - t
        assert not at.exception, [e.value for e in at.exception]
        st_.undo()  # back to n - 1 points: every edit measured at n points
        if r:
            times.append(dt)
    return statistics.median(times)


def main():
    warnings.simplefilter("ignore")
    print(f"bench_edit — {machine()}")
    print(f"one edit = a click adding a point to n − 1 points (banana, λ = {LAM:g}, σ = {SIGMA:g}); "
          f"median of {REPS} edits, warm")
    for n in (100, 300):
        total, fit, skl = editor_edit(n)
        print(f"n = {n:3d}  editor edit (handler + fit + 90×90 mesh + figure JSON): {total * 1000:6.0f} ms; "
              f"SVMClassifier fit + mesh {fit * 1000:5.0f} ms vs sklearn SVC fit + mesh {skl * 1000:5.0f} ms "
              f"(ratio {fit / skl:.2f})   [{machine()}]")
        tp = page_edit("1_Tuning_criteria.py", n, {})
        print(f"n = {n:3d}  Tuning criteria page rerun after the edit (20 × 20 grid): {tp:6.2f} s   [{machine()}]")
        pp = page_edit("3_Regularization_path.py", n, {"ploo": "0"})
        print(f"n = {n:3d}  Regularization path page rerun after the edit (LOO off): {pp:6.2f} s   [{machine()}]")
        pl = page_edit("3_Regularization_path.py", n, {"ploo": "1"})
        print(f"n = {n:3d}  Regularization path page rerun after the edit, with leave-one-out along the path "
              f"(30 evaluations, the page's default up to n = 300): {pl:6.2f} s   [{machine()}]")


if __name__ == "__main__":
    main()
