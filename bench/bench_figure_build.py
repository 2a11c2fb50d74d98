"""Server CPU seconds a page spends building its figures at a rerun, and what each way of building costs.

For every page of the app (AppTest, the page's default view): the page is run once (computing and
caching its results), then rerun ``--reruns`` times; each ``svmviz.figures.<module>.plot_*`` call of a
rerun is timed with ``time.process_time``. Then every figure the last rerun built is rebuilt from its
own ``to_dict()`` (without the template, which both ways set unvalidated) both ways the figures can
be built — validated (``go.Figure(data, layout)``, what ``go.*`` construction costs at least) and unvalidated (``svmviz.figures._plotly_compat.figure``, what
:mod:`svmviz.figures.build` does) — each ``--repeat`` times, best taken. Print the machine's load
beside the figures: they are CPU seconds, but a loaded machine still slows them.

Run: ``python bench/bench_figure_build.py [--pages tuning losses …] [--reruns 3] [--repeat 5]``.
"""
from __future__ import annotations

import argparse
import functools
import os
import time

import plotly.graph_objects as go

PAGES = ("tuning", "losses", "path", "usvc", "ivm", "anova", "studies")
FIGURE_MODULES = ("tuning", "losses", "path", "usvc", "ivm", "anova", "studies", "edit")


class _Timer:
    def __init__(self):
        self.depth = 0
        self.seconds = 0.0
        self.figures = []

    def wrap(self, fn):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            self.depth += 1
            t0 = time.process_time()
            try:
                out = fn(*args, **kwargs)
            finally:
                self.depth -= 1
            if self.depth == 0:
                self.seconds += time.process_time() - t0
                if isinstance(out, go.Figure):
                    self.figures.append(out)
            return out
        return timed


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", nargs="*", default=list(PAGES), choices=PAGES)
    ap.add_argument("--reruns", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    import importlib

    from streamlit.testing.v1 import AppTest

    from svmviz.figures import _plotly_compat

    timer = _Timer()
    for name in FIGURE_MODULES:
        mod = importlib.import_module(f"svmviz.figures.{name}")
        for attr in dir(mod):
            if attr.startswith("plot_") and callable(getattr(mod, attr)):
                setattr(mod, attr, timer.wrap(getattr(mod, attr)))

    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} at start")
    print(f"{'page':8} {'figs':>4} {'plot_* CPU s/rerun':>19} {'validated s':>12} {'unvalidated s':>14}")
    for page in args.pages:
        at = AppTest.from_string(f"from svmviz.ui import {page}\n{page}.page()\n", default_timeout=1800)
        at.run()
        if at.exception:
            print(f"{page:8} failed: {at.exception[0].message}")
            continue
        per_rerun = []
        for _ in range(args.reruns):
            timer.seconds, timer.figures = 0.0, []
            at.run()
            per_rerun.append(timer.seconds)
        dicts = [f.to_dict() for f in timer.figures]
        for d in dicts:  # both ways set plotly_white's template without validating it (svmviz.figures.theme)
            d["layout"].pop("template", None)
        validated = sum(_best(lambda d=d: go.Figure(data=d["data"], layout=d["layout"]), args.repeat) for d in dicts)
        unvalidated = sum(_best(lambda d=d: _plotly_compat.figure(d["data"], d["layout"]), args.repeat)
                          for d in dicts)
        runs = " ".join(f"{s:.3f}" for s in per_rerun)
        print(f"{page:8} {len(dicts):4d} {runs:>19} {validated:12.3f} {unvalidated:14.3f}   "
              f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
