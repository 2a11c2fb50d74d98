"""Peak memory and time of ``predict`` on many rows: SVMClassifier (rows in blocks) vs scikit-learn's SVC.

    python bench/bench_predict_memory.py [m] [n_train]     (default m = 2_000_000 test rows, n_train = 4000)
    python bench/bench_predict_memory.py --throughput-only

Both machines are fitted (in this process) to the same noisy two-class problem with the same C and
gamma (SVMClassifier(C, gamma) is SVC(C, gamma): the same support vectors to the solvers'
tolerance) and pickled. Each ``predict`` runs in a child process that loads the fitted model; the
child resets its peak resident memory (``/proc/self/clear_refs``) before the call and reads it
(``VmHWM``) after, so the figure is the memory the call itself added (the test rows, 32 MB at
m = 2·10⁶ × 2, are made before). ``ru_maxrss`` would not do: it keeps the parent's peak across exec. Then the throughput of SVMClassifier's blocks against one big block
on ``m_block`` = 50,000 rows (one block of m_block × n_SV doubles, ~1 GB at 2,600 support vectors),
three alternated pairs, wall and CPU time (CPU time is what a loaded machine inflates least).
Prints the load average beside the figures.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap

from _common import machine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = textwrap.dedent("""
    import json, pickle, sys, time
    sys.path.insert(0, {root!r})
    import numpy as np
    from svmviz import _validation

    with open({model!r}, "rb") as fh:
        est = pickle.load(fh)          # fitted in the parent: the fit's own peak is not in this process
    m, block = {m}, {block}
    n_sv = int(est.support_.size)
    Xt = np.random.default_rng(1).normal(size=(m, 2))
    if block == -1:
        _validation.PREDICT_BLOCK_BYTES = 8 * m * n_sv  # one block for every row
    elif block:
        _validation.PREDICT_BLOCK_BYTES = block
    est.predict(Xt[:100])                                 # compiled, warm

    def status(field):
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) * 1024 for line in fh if line.startswith(field + ":"))

    with open("/proc/self/clear_refs", "w") as fh:  # "5": reset the peak RSS (VmHWM) to the current RSS
        fh.write("5")
    before = status("VmRSS")
    t0, c0 = time.perf_counter(), time.process_time()
    est.predict(Xt)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = status("VmHWM")
    print(json.dumps(dict(n_sv=n_sv, added=peak - before, peak=peak, seconds=seconds, cpu=cpu)))
""")


def fit_models(n_train: int, folder: str) -> dict:
    """SVMClassifier(C, gamma) and SVC(C, gamma) on one noisy problem, pickled: {name: path}."""
    import pickle

    import numpy as np
    from sklearn.svm import SVC

    from svmviz.svm import SVMClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_train, 2))
    y = (X[:, 0] + 1.5 * rng.normal(size=n_train) > 0).astype(int)  # noisy: many support vectors
    paths = {}
    for name, est in (("ours", SVMClassifier(C=1.0, gamma=0.5)), ("sklearn SVC", SVC(C=1.0, gamma=0.5))):
        paths[name] = os.path.join(folder, name.replace(" ", "_") + ".pkl")
        with open(paths[name], "wb") as fh:
            pickle.dump(est.fit(X, y), fh)
    return paths


def run(model: str, m: int, block: int = 0) -> dict:
    """One child's predict on m rows: ``block`` 0 the default blocks, −1 one block, else its bytes."""
    code = CHILD.format(root=ROOT, model=model, m=m, block=block)
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=3600)
    if out.returncode != 0:
        raise SystemExit(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    m = int(args[0]) if args else 2_000_000
    n_train = int(args[1]) if len(args) > 1 else 4000
    m_block = 50_000
    with tempfile.TemporaryDirectory() as folder:
        models = fit_models(n_train, folder)
        if "--throughput-only" not in sys.argv:
            print(f"predict on m = {m:,} rows × 2, trained on n = {n_train}; {machine()}")
            for which, path in models.items():
                r = run(path, m)
                print(f"  {which:12s} n_SV = {r['n_sv']:5d}: peak memory added by predict {r['added'] / 1e6:8.1f} MB "
                      f"(process peak {r['peak'] / 1e6:7.1f} MB), {r['seconds']:6.2f} s ({r['cpu']:.2f} s CPU), "
                      f"{m / r['seconds'] / 1e6:.3f} M rows/s   [{machine()}]")
        for rep in range(3):  # alternated: the machine's load changes between runs
            blocks = run(models["ours"], m_block)
            one = run(models["ours"], m_block, block=-1)
            print(f"throughput on m = {m_block:,} rows: blocks {blocks['seconds']:.3f} s ({blocks['cpu']:.3f} s CPU, "
                  f"{blocks['added'] / 1e6:.1f} MB added), one block {one['seconds']:.3f} s ({one['cpu']:.3f} s CPU, "
                  f"{one['added'] / 1e6:.1f} MB added); CPU blocks / one block = {blocks['cpu'] / one['cpu']:.2f}   "
                  f"[{machine()}]")
        sizes = (2**19, 2**21, 2**23, 2**25, -1)
        cpu = {b: [] for b in sizes}
        for rep in range(2):
            for b in sizes:
                cpu[b].append(run(models["ours"], m_block, block=b)["cpu"])
        print("CPU s by block size on m = 50,000 rows (best of 2): " + ", ".join(
            f"{'one block' if b == -1 else f'{b / 2**20:g} MiB'} {min(v):.3f}" for b, v in cpu.items())
            + f"   [{machine()}]")


if __name__ == "__main__":
    main()
