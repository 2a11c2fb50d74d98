"""Benchmark and reproduction for the Import Vector Machine (Zhu & Hastie 2002).

Run by hand:  .venv/bin/python bench/bench_ivm.py [--sizes 200 1000] [--seeds 10] [--skip-b2]
             .venv/bin/python bench/bench_ivm.py --fig4-replicate [--replicates 0 1 2 3 4] [--against DIR ...]

1. Timing: the λ path of the paper (21 values, e^10 … e^−10) on the ESL mixture at each N, with
   (B2*) one-step scoring, (B2) a full Newton solve per candidate, our full KLR (Newton on all N
   basis functions), and "the sklearn way" — LogisticRegression(newton-cholesky) on features
   Φ = V Λ^{1/2} (K = VΛV', so ΦΦ' = K and ‖w‖² = a'Ka; C = 1/λ) — all in one run, with ratios.
2. Reproduction (Zhu & Hastie 2002, Fig. 2, Fig. 4): mean over seeds of the tuning-set minimum, its λ and |S|,
   the tuned SVM's support points and test errors, the 3-class |S| at λ = e^−1, and the Bayes error.
3. ``--fig4-replicate``: CPU seconds of one replicate of the ready-made study ``zhu_hastie2002_fig4``
   (the three-class IVM, N = 300, λ tuned along e^10 … e^−10 on 300 independent points:
   ``svmviz.studies.tasks.run_task``), in one worker process per checkout — this one and every
   ``--against DIR`` (another checkout with its own ``DIR/.venv``) — asked for the replicates in turn,
   so that all see the same load. Each worker runs replicate 0 once untimed first (numba's cache
   loaded or compiled), then times each replicate (CPU seconds of the process, one thread per
   library: OMP/OpenBLAS/numba threads = 1) and, untimed, the replicate's λ path again for its
   import set at every λ. The results of every checkout are compared with this one's: the chosen λ,
   |S|, the tuning, training and test errors, the status, and the import points (in import order)
   at every λ of the path.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _common import machine  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

from svmviz.data import make_dataset  # noqa: E402
from svmviz.ivm import (DEFAULT_SIGMA, IVMClassifier, ivm_lambda_path, klr_lambda_path,  # noqa: E402
                        paper_lambdas, svm_lambda_path)
from svmviz.kernels import gram  # noqa: E402


def sklearn_klr_path(X, y, Xt, yt, lams, sigma):
    """Full KLR along the grid with sklearn on eigen-features (warm-started)."""
    t0 = time.perf_counter()
    K = gram(X, sigma=sigma)
    ev, V = np.linalg.eigh(K)
    ev = np.clip(ev, 0.0, None)
    Phi = V * np.sqrt(ev)
    # tuning features: K(xt, X) a = K(xt, X) V Λ^{-1/2} w on the range of K
    keep = ev > ev.max() * 1e-12
    Kt = gram(Xt, X, sigma=sigma)
    Phit = np.zeros((Xt.shape[0], X.shape[0]))
    Phit[:, keep] = (Kt @ V[:, keep]) / np.sqrt(ev[keep])
    errs = []
    clf = LogisticRegression(solver="newton-cholesky", tol=1e-8, max_iter=200, warm_start=True)
    for lam in lams:
        clf.set_params(C=1.0 / lam)
        clf.fit(Phi, y)
        errs.append(np.mean(clf.predict(Phit) != yt))
    return np.array(errs), time.perf_counter() - t0


def timing(sizes, skip_b2, seed=0):
    lams = paper_lambdas(21)
    print(f"== λ path timing: ESL mixture, σ = {DEFAULT_SIGMA:.4f}, 21 λ from e^10 to e^-10, "
          f"tuning set = 1000 independent points, seed {seed}")
    print(f"{'N':>6} {'method':<34} {'seconds':>9} {'vs B2*':>8} {'min tune err':>12} {'|S| at min':>10}")
    for n in sizes:
        ds = make_dataset("esl_mixture", n=n, seed=seed)
        tu = ds.test_sample(1000, seed=10_000 + seed)
        rows = []
        # warm the JIT (cached on disk; the first call in a process still loads it)
        ivm_lambda_path(ds.X[:40], ds.y[:40], tu.X[:40], tu.y[:40], lams=lams[:2])
        p1 = ivm_lambda_path(ds.X, ds.y, tu.X, tu.y, lams=lams)
        rows.append(("IVM (B2*) one-step", p1.seconds, p1.tune_error.min(), p1.n_import[p1.best_index]))
        if not skip_b2:
            p2 = ivm_lambda_path(ds.X, ds.y, tu.X, tu.y, lams=lams, method="full")
            rows.append(("IVM (B2) full Newton / candidate", p2.seconds, p2.tune_error.min(),
                         p2.n_import[p2.best_index]))
            same = sum(np.array_equal(a, b) for a, b in zip(p1.import_indices, p2.import_indices))
        kp = klr_lambda_path(ds.X, ds.y, tu.X, tu.y, lams=lams)
        rows.append(("full KLR (ours, Newton)", kp.seconds, kp.tune_error.min(), n))
        se, st = sklearn_klr_path(ds.X, ds.y, tu.X, tu.y, lams, DEFAULT_SIGMA)
        rows.append(("full KLR (sklearn newton-cholesky)", st, se.min(), n))
        for name, sec, err, q in rows:
            print(f"{n:>6} {name:<34} {sec:>9.2f} {sec / p1.seconds:>7.1f}x {err:>12.3f} {q:>10}")
        if not skip_b2:
            print(f"{'':>6} B2* and B2 import sets identical at {same} of 21 λ; final |S| "
                  f"{p1.n_import[-1]} (B2*) vs {p2.n_import[-1]} (B2)")
        sys.stdout.flush()


def reproduction(n_seeds):
    lams = paper_lambdas(21)
    print(f"\n== Reproduction (mean ± sd over {n_seeds} seeds; training N = 200, tuning set 200 "
          f"independent points, test 5000; σ = {DEFAULT_SIGMA:.4f})")
    rec = []
    for seed in range(n_seeds):
        ds = make_dataset("esl_mixture", n=200, seed=seed)
        tu = ds.test_sample(200, seed=10_000 + seed)
        te = ds.test_sample(5000, seed=20_000 + seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            p = ivm_lambda_path(ds.X, ds.y, tu.X, tu.y, lams=lams)
            sp = svm_lambda_path(ds.X, ds.y, tu.X, tu.y, lams_ivm=lams)
            kp = klr_lambda_path(ds.X, ds.y, tu.X, tu.y, lams=lams)
        m = p.estimator
        rec.append(dict(err=p.tune_error[p.best_index], lnlam=np.log(p.best_lam), S=m.n_import_,
                        test=np.mean(m.predict(te.X) != te.y), klr=kp.tune_error.min(),
                        sv=sp.estimator.support_.size, svm_tune=sp.tune_error[sp.best_index],
                        svm_test=np.mean(sp.estimator.predict(te.X) != te.y)))
    bayes = ds.bayes_error

    def ms(k):
        v = np.array([r[k] for r in rec], dtype=float)
        return f"{v.mean():.3f} ± {v.std():.3f}"

    print(f"  Bayes error of the mixture:            {bayes:.3f}")
    print(f"  IVM min tuning misclassification:     {ms('err')}   (paper 0.219)")
    print(f"  chosen ln λ:                           {ms('lnlam')}   (paper −2, λ = 0.135)")
    print(f"  |S| at the chosen λ (path):            {ms('S')}   (paper 21)")
    print(f"  IVM test error at the chosen λ:        {ms('test')}")
    print(f"  full KLR min tuning misclassification: {ms('klr')}")
    print(f"  SVM (tuned) support points:            {ms('sv')}")
    print(f"  SVM min tuning / test error:           {ms('svm_tune')} / {ms('svm_test')}")
    print(f"  per seed (ln λ, err, |S|): "
          + ", ".join(f"({r['lnlam']:.0f}, {r['err']:.3f}, {r['S']})" for r in rec))
    S3, E3 = [], []
    for seed in range(n_seeds):
        ds3 = make_dataset("esl_mixture3", n=300, seed=seed)
        te3 = ds3.test_sample(5000, seed=20_000 + seed)
        m3 = IVMClassifier(lam=np.exp(-1.0)).fit(ds3.X, ds3.y)
        S3.append(m3.n_import_)
        E3.append(np.mean(m3.predict(te3.X) != te3.y))
    print(f"  3 classes, N = 300, λ = e^−1: |S| = {np.mean(S3):.1f} ± {np.std(S3):.1f} (paper 32), "
          f"test error {np.mean(E3):.3f} (Bayes {ds3.bayes_error:.3f})")


#: The worker of ``--fig4-replicate``: run with a checkout's own interpreter, ``sys.argv[1]`` = that
#: checkout. It reads replicate numbers from stdin, one a line, and answers each with one JSON line.
FIG4_WORKER = r"""
import json, sys, time, warnings
sys.path.insert(0, sys.argv[1])
import numpy as np
from sklearn.exceptions import ConvergenceWarning
from svmviz.ivm import ivm_lambda_path, paper_lambdas
from svmviz.studies.spec import load_spec, ready_made_path
from svmviz.studies.tasks import make_task_data, run_task

spec = load_spec(ready_made_path("zhu_hastie2002_fig4"))
run_task(spec, 0, 0, n_threads=1)
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    rep = int(line)
    c0 = time.process_time()
    frame = run_task(spec, 0, rep, n_threads=1)
    cpu = time.process_time() - c0
    row = frame.iloc[0]
    td = make_task_data(spec, 0, rep)
    tune = td.train.test_sample(spec.ivm.tune_size, td.seeds.tune)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        path = ivm_lambda_path(td.train.X, td.train.y, tune.X, tune.y, lams=paper_lambdas(), sigma=spec.ivm.sigma)
    out = {"cpu": cpu, "lam": float(row["lam"]), "n_import": int(row["machine_size"]),
           "tune_error": float(row["tune_error"]), "train_error": float(row["train_error"]),
           "test_error": float(row["test_error"]), "status": int(row["status"]),
           "path_imports": [ix.tolist() for ix in path.import_indices],
           "path_status": path.status.tolist(), "path_tune_error": path.tune_error.tolist()}
    print(json.dumps(out), flush=True)
"""

FIG4_FIELDS = ("lam", "n_import", "tune_error", "train_error", "test_error", "status", "path_imports",
               "path_status", "path_tune_error")


def _fig4_worker(root: str) -> subprocess.Popen:
    """A worker of :data:`FIG4_WORKER` on the checkout ``root`` (its ``.venv``, else this interpreter)."""
    py = os.path.join(root, ".venv", "bin", "python")
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               NUMBA_NUM_THREADS="1")
    return subprocess.Popen([py if os.path.exists(py) else sys.executable, "-c", FIG4_WORKER, root],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)


def _ask(worker: subprocess.Popen, rep: int | None = None) -> dict:
    if rep is not None:
        worker.stdin.write(f"{rep}\n")
        worker.stdin.flush()
    line = worker.stdout.readline()
    if not line:
        raise SystemExit(f"a worker ended early (exit status {worker.wait()})")
    return json.loads(line)


def fig4_replicate(replicates, against):
    """One replicate of ``zhu_hastie2002_fig4`` in each checkout, interleaved; CPU seconds and results."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    roots = [("this", here)] + [(os.path.abspath(d), os.path.abspath(d)) for d in against]
    print(f"== zhu_hastie2002_fig4: one replicate (run_task), CPU seconds, 1 thread per library; {machine()}")
    workers = {name: _fig4_worker(root) for name, root in roots}
    for w in workers.values():
        _ask(w)  # replicate 0 once untimed: numba's cache loaded (or compiled)
    print(f"   ready; {machine()}")
    print(f"{'replicate':>9} {'checkout':<28} {'CPU s':>7} {'vs this':>8} {'ln λ':>6} {'|S|':>4} {'test err':>8} "
          f"{'status':>6}  same results as this")
    cpu = {name: [] for name in workers}
    n_diff = 0
    for rep in replicates:
        res = {name: _ask(w, rep) for name, w in workers.items()}
        for name in workers:
            r = res[name]
            cpu[name].append(r["cpu"])
            diff = [k for k in FIG4_FIELDS if r[k] != res["this"][k]]
            n_diff += bool(diff)
            print(f"{rep:>9} {name[-28:]:<28} {r['cpu']:>7.2f} {r['cpu'] / res['this']['cpu']:>7.2f}x "
                  f"{np.log(r['lam']):>6.1f} {r['n_import']:>4} {r['test_error']:>8.4f} {r['status']:>6}  "
                  + ("yes" if not diff else "NO: " + ", ".join(diff)))
        sys.stdout.flush()
    for w in workers.values():
        w.stdin.close()
        w.wait()
    print(f"   mean CPU s per replicate: " + ", ".join(f"{name[-28:]} {np.mean(v):.2f}" for name, v in cpu.items())
          + f"; {machine()}")
    print("   every result identical" if n_diff == 0 else f"   {n_diff} (replicate, checkout) pairs differ")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--skip-b2", action="store_true", help="skip the slow basic algorithm (B2)")
    ap.add_argument("--skip-timing", action="store_true")
    ap.add_argument("--skip-repro", action="store_true")
    ap.add_argument("--fig4-replicate", action="store_true",
                    help="time replicates of zhu_hastie2002_fig4 only (section 3), here and in every --against")
    ap.add_argument("--replicates", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--against", metavar="DIR", nargs="*", default=[],
                    help="other checkouts (each with its own .venv) timed interleaved with this one")
    a = ap.parse_args()
    if a.fig4_replicate:
        fig4_replicate(a.replicates, a.against)
        return
    if not a.skip_timing:
        timing(a.sizes, a.skip_b2)
    if not a.skip_repro:
        reproduction(a.seeds)


if __name__ == "__main__":
    main()
