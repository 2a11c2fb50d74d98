"""Benchmark and reproduction for the Import Vector Machine (Zhu & Hastie 2002).

Run by hand:  .venv/bin/python bench/bench_ivm.py [--sizes 200 1000] [--seeds 10] [--skip-b2]

1. Timing: the λ path of the paper (21 values, e^10 … e^−10) on the ESL mixture at each N, with
   (B2*) one-step scoring, (B2) a full Newton solve per candidate, our full KLR (Newton on all N
   basis functions), and "the sklearn way" — LogisticRegression(newton-cholesky) on features
   Φ = V Λ^{1/2} (K = VΛV', so ΦΦ' = K and ‖w‖² = a'Ka; C = 1/λ) — all in one run, with ratios.
2. Reproduction (Zhu & Hastie 2002, Fig. 2, Fig. 4): mean over seeds of the tuning-set minimum, its λ and |S|,
   the tuned SVM's support points and test errors, the 3-class |S| at λ = e^−1, and the Bayes error.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--skip-b2", action="store_true", help="skip the slow basic algorithm (B2)")
    ap.add_argument("--skip-timing", action="store_true")
    ap.add_argument("--skip-repro", action="store_true")
    a = ap.parse_args()
    if not a.skip_timing:
        timing(a.sizes, a.skip_b2)
    if not a.skip_repro:
        reproduction(a.seeds)


if __name__ == "__main__":
    main()
