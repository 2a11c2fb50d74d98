"""Benchmark: the ν-SVM regularization path and leave-one-out along it (Loosli & Canu 2006).

Run by hand:  .venv/bin/python bench/bench_path.py [--sizes 200 500] [--loo-evals 30] [--seed 0]

For each n (banana data, Gaussian kernel σ = 1, the page's default):
1. the whole path (every breakpoint, exact) against, in the same run, (a) one sklearn ``NuSVC`` solve
   at ν = 0.5 ("one SVM solve", the issue's ≤ 3× target) and (b) ``NuSVC`` at every breakpoint's ν
   (what the path replaces), with the median and largest difference of the decision values (relative
   to max |f|, after NuSVC's positive scale 1/ρ) where NuSVC converged and b is unique (both classes
   have a margin point; otherwise any threshold in an interval is optimal and libsvm takes its
   midpoint);
2. LOO1/LOO2 at ``--loo-evals`` λ along the path (refitting only E ∪ L, warm-started, numba threads)
   against (a) one NuSVC solve and (b) the sklearn way: ``NuSVC`` refits without each point of E ∪ L at
   the same λ (brute force on a few λ, extrapolated per refit), with the largest LOO1 difference.
"""
from __future__ import annotations

import argparse
import warnings

import numpy as np
from _common import Timer, machine
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import NuSVC

from svmviz.data import banana
from svmviz.kernels import gram
from svmviz.path import GROUP_E, default_loo_lambdas, loo_path, nu_path

SIGMA = 1.0
GAMMA = 1.0 / (2 * SIGMA ** 2)


def nusvc(X, y, nu):
    clf = NuSVC(nu=nu, kernel="rbf", gamma=GAMMA, tol=1e-6, cache_size=500)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", ConvergenceWarning)
        try:
            clf.fit(X, y)
        except ValueError:  # libsvm's ρ = 0 at the sparse end: "dual coefficients ... not finite"
            return clf, False
    return clf, not any(issubclass(x.category, ConvergenceWarning) for x in w)


def path_rows(n, seed):
    ds = banana(n=n, seed=seed)
    X, y = ds.X, ds.y
    loo_path(nu_path(X[:30], y[:30], sigma=SIGMA), max_evals=2)  # JIT / cache load outside the timings
    with Timer() as t_path:
        p = nu_path(X, y, sigma=SIGMA)
    one = []
    for _ in range(5):  # one solve is ~10 ms: take the median of five
        with Timer() as t:
            nusvc(X, y, 0.5)
        one.append(t.seconds)
    t_one = float(np.median(one))
    nus = np.unique(p.nus[(p.nus > 0) & (p.nus <= 1)])
    diffs, n_conv = [], 0
    with Timer() as t_all:
        fits = [(nu, *nusvc(X, y, nu)) for nu in nus]
    for nu, clf, ok in fits:
        if not ok:
            continue
        n_conv += 1
        f_ref = clf.decision_function(X)
        f = p.decision_function(X, nu * p.m)
        # NuSVC reports f/ρ: compare after the best positive scale
        scale = float(f @ f_ref) / float(f_ref @ f_ref) if np.any(f_ref) else 1.0
        g = p.groups_at(nu * p.m)
        unique_b = np.any((g == GROUP_E) & (y > 0)) and np.any((g == GROUP_E) & (y < 0))
        if unique_b:  # a class without a margin point has an interval of optimal thresholds
            diffs.append(np.abs(f - scale * f_ref).max() / max(np.abs(f).max(), 1e-300))
    print(f"{n:>5} {p.n_breakpoints:>7} {t_path.seconds:>9.3f} {t_one:>11.4f} "
          f"{t_path.seconds / t_one:>8.1f}x {t_all.seconds:>12.2f} "
          f"{t_all.seconds / t_path.seconds:>8.1f}x {np.median(diffs):>8.1e} {np.max(diffs):>8.1e} "
          f"{n_conv:>5}/{nus.size}")
    return ds, p, t_one


def loo_rows(ds, p, t_one, evals, n_brute):
    X, y = ds.X, ds.y
    lams = default_loo_lambdas(p, evals)
    with Timer() as t_loo:
        lp = loo_path(p, lams)
    refits = int(lp.n_sv.sum())
    # brute force with sklearn on a few λ spread along the path: NuSVC without each point of E ∪ L
    pick = np.unique(np.round(np.linspace(0, lams.size - 1, n_brute)).astype(int))
    n_ref, secs, worst, skipped = 0, 0.0, 0.0, 0
    for j in pick:
        lam = lams[j]
        a = p.alpha_at(lam)
        wrong = 0
        for i in np.flatnonzero(a > 0):
            keep = np.arange(y.size) != i
            yk = y[keep]
            # same λ on the reduced set: ν' = λ/(m−1), clipped to its largest feasible value
            nu = min(lam, 2 * min(np.sum(yk > 0), np.sum(yk < 0))) / yk.size
            with Timer() as t:
                clf, ok = nusvc(X[keep], yk, nu)
            secs += t.seconds
            n_ref += 1
            if not ok:
                skipped += 1
                continue
            wrong += int(y[i] * clf.decision_function(X[i:i + 1])[0] <= 0)
        # points of R keep the full solution; their LOO error is the training error there
        f = p.decision_function(X, lam)
        wrong += int(np.sum((y * f <= 0) & (a <= 0)))
        worst = max(worst, abs(wrong / y.size - lp.loo1[j]))
    per_refit = secs / max(n_ref, 1)
    est = per_refit * refits
    print(f"{y.size:>5} {lams.size:>6} {refits:>7} {lp.seconds:>9.2f} {lp.seconds / lams.size:>10.3f} "
          f"{lp.seconds / lams.size / t_one:>10.1f}x {est:>12.1f} {est / lp.seconds:>8.1f}x "
          f"{worst:>9.3f} {skipped:>4}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 500])
    ap.add_argument("--loo-evals", type=int, default=30)
    ap.add_argument("--brute-lambdas", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print(f"# bench_path: banana, Gaussian σ = {SIGMA}, seed {a.seed}; {machine()}")
    print("== whole path vs NuSVC (tol 1e-6) in the same run")
    print(f"{'n':>5} {'bkpts':>7} {'path s':>9} {'1 NuSVC s':>11} {'path/1':>9} {'NuSVC@all s':>12} "
          f"{'all/path':>9} {'med|Δf|':>8} {'max|Δf|':>8} {'conv':>11}")
    done = [path_rows(n, a.seed) for n in a.sizes]
    print(f"== LOO1/LOO2 at {a.loo_evals} λ along the path vs NuSVC refits without each point of E ∪ L")
    print(f"{'n':>5} {'evals':>6} {'refits':>7} {'LOO s':>9} {'s per λ':>10} {'per λ/1':>11} "
          f"{'sklearn s':>12} {'ratio':>9} {'max ΔLOO1':>9} {'nc':>4}")
    for ds, p, t_one in done:
        loo_rows(ds, p, t_one, a.loo_evals, a.brute_lambdas)


if __name__ == "__main__":
    main()
