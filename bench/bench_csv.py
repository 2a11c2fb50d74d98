"""CSV loading: the pandas-based ``dataset_from_csv`` against the hand-written parser it replaced.

Writes a CSV of ``--rows`` rows × 5 numeric columns + a label (1e6 rows ≈ 56 MB) and loads it in a
fresh process per run with

* ``new``: :func:`svmviz.data.dataset_from_csv` (layout sniffed from the first rows, then
  ``pandas.read_csv``, C engine),
* ``old``: the hand-written parser of commit ``OLD_COMMIT`` (``csv`` module, one Python float per
  cell), loaded from git,
* ``pandas``: a bare ``pandas.read_csv(path)`` — the floor for a loader built on it.

Reported per run: wall seconds of the load alone, peak RSS of the process and the increase over
the RSS just before the load (imports done). Usage::

    .venv/bin/python bench/bench_csv.py [--rows 1000000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

OLD_COMMIT = "a1362b9"  # the last commit with the hand-written CSV parser
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_CHILD = r"""
import importlib.util, json, os, resource, subprocess, sys, time
sys.path.insert(0, {root!r})
import numpy as np, pandas as pd
import svmviz.data as new

def rss_mb():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")

which, path = sys.argv[1], sys.argv[2]
if which == "old":
    src = subprocess.run(["git", "-C", {root!r}, "show", "{commit}:svmviz/data.py"], check=True,
                         capture_output=True, text=True).stdout
    tmp = os.path.join(os.path.dirname(path), "_data_before_pandas.py")
    with open(tmp, "w") as fh:
        fh.write(src)
    spec = importlib.util.spec_from_file_location("svmviz._data_before_pandas", tmp)
    old = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = old
    spec.loader.exec_module(old)
    load = lambda: old.dataset_from_csv(path)
elif which == "new":
    load = lambda: new.dataset_from_csv(path)
else:
    load = lambda: pd.read_csv(path)
before = rss_mb()
t0 = time.perf_counter()
out = load()
seconds = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
shape = list(out.X.shape) if hasattr(out, "X") else list(out.shape)
print(json.dumps({{"seconds": seconds, "peak_mb": peak, "before_mb": before, "shape": shape}}))
"""


def write_csv(path: str, rows: int, seed: int = 0) -> None:
    import pandas as pd

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, 5)) * np.array([1.0, 10.0, 100.0, 0.1, 1000.0])
    y = np.where(X[:, 0] + rng.normal(size=rows) > 0, "yes", "no")
    df = pd.DataFrame(X, columns=[f"x{j}" for j in range(5)]).assign(label=y)
    df.to_csv(path, index=False, float_format="%.6f")


def run(which: str, path: str) -> dict:
    code = _CHILD.format(root=ROOT, commit=OLD_COMMIT)
    env = dict(os.environ, NUMBA_CACHE_DIR=os.environ.get("NUMBA_CACHE_DIR", os.path.join(ROOT, ".numba_cache")))
    res = subprocess.run([sys.executable, "-c", code, which, path], capture_output=True, text=True, env=env)
    if res.returncode != 0:
        raise RuntimeError(f"{which} failed:\n{res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.csv")
        write_csv(path, args.rows)
        size = os.path.getsize(path) / 1e6
        print(f"{args.rows} rows × 5 numeric columns + label: {size:.1f} MB")
        results = {w: [run(w, path) for _ in range(args.repeat)] for w in ("old", "new", "pandas")}
    print(f"{'loader':<8} {'seconds':>16} {'peak RSS MB':>18} {'RSS increase MB':>18}")
    for w, rs in results.items():
        s = [r["seconds"] for r in rs]
        p = [r["peak_mb"] for r in rs]
        inc = [r["peak_mb"] - r["before_mb"] for r in rs]
        print(f"{w:<8} {min(s):7.2f}–{max(s):<7.2f}  {min(p):8.0f}–{max(p):<8.0f}  {min(inc):8.0f}–{max(inc):<8.0f}")
    old = np.median([r["seconds"] for r in results["old"]])
    new = np.median([r["seconds"] for r in results["new"]])
    pdm = np.median([r["seconds"] for r in results["pandas"]])
    inc = {w: np.median([r["peak_mb"] - r["before_mb"] for r in rs]) for w, rs in results.items()}
    print(f"median: new is {old / new:.1f}× faster than old and takes {new / pdm:.2f}× bare pandas.read_csv; "
          f"memory increase old/new = {inc['old'] / inc['new']:.1f}×")
    assert all(r["shape"][0] == args.rows for rs in results.values() for r in rs)


if __name__ == "__main__":
    main()
