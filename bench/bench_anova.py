"""SS-ANOVA kernels against the Gaussian at n = 500: grams, one SVM fit, the λ sequence, criteria, LOO.

    python bench/bench_anova.py [n] [d]        (default n = 500, d = 10; data: anova_structure)

For each kernel — Gaussian on all variables, SS-ANOVA additive and two-way (cubic-spline base) —
prints the wall time of
  * the gram matrix (ours: numba; scikit-learn's ``rbf_kernel`` for the Gaussian as the reference;
    the SS-ANOVA gram has no scikit-learn counterpart),
  * the per-coordinate grams once plus one assembly (the θ-grid path, memory d·n² floats),
  * one SVM fit at λ = 1e-4: ours end to end (``SVMClassifier`` with the kernel: validation, gram, solve),
    ours on the precomputed gram (``fit_lambda_sequence`` with one λ), and scikit-learn's ``SVC`` on the
    same gram (``kernel="precomputed"``, C = 1/(2nλ), same tol 1e-3) — the ratio SVC / ours-on-the-gram
    is at equal resources (one thread each, same matrix),
  * the warm-started λ sequence of 11 values with GACV/XA (``gram_criteria_curves``), and with exact LOO,
  * the largest decision-value difference between ours and SVC (relative to max |f|).
Best of 3 runs for the short timings (the machine is shared: the load average is printed).

    python bench/bench_anova.py --page [n]    (default n = 200)

The Kernels page's computation of one warm Seed + 1 (three kernels, 11 λ, exact LOO, a test sample):
the fits then exact LOO from them (``compare_kernels(loo=False)`` + ``add_exact_loo``, what the page runs) against the fits then ``compare_kernels(loo=True)`` (before: every kernel
fitted twice), alternated in one process, CPU time (``time.process_time``, every thread) and wall time,
median of 7 pairs, each pair on a fresh seed; each also split into the fits (``compare_kernels(loo=False)``
with the 2000 test points' grams and errors) and what follows. CPU time counts every thread: also a BLAS
thread busy-waiting for work after a product (OpenBLAS), which the test errors no longer leave behind.
"""
from __future__ import annotations

import sys
import time

import numpy as np
from _common import Timer, machine
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC

from svmviz import anova
from svmviz.data import make_dataset
from svmviz.kernels import COMPONENT_GRAM_BUDGET, SSANOVAKernel, fit_kernel, gram
from svmviz.svm import SVMClassifier, fit_lambda_sequence
from svmviz.tuning import gram_criteria_curves

LAM = 1e-4
LAMBDAS = np.logspace(-6, -1, 11)


def best_of(fn, reps=3):
    out, best = None, np.inf
    for _ in range(reps):
        with Timer() as t:
            out = fn()
        best = min(best, t.seconds)
    return out, best


def main(n=500, d=10):
    ds = make_dataset("anova_structure", n=n, seed=0, d=d)
    X, y = ds.X, ds.y
    sigma = float(np.sqrt(d / 3.0))  # ≈ the median distance of U(−1, 1)^d points / √2
    print(f"# SS-ANOVA vs Gaussian, anova_structure n = {n}, d = {d}; {machine()} (shared with other engineers)")
    kernels = {"Gaussian": "rbf", "SS-ANOVA additive": SSANOVAKernel(),
               "SS-ANOVA two-way": SSANOVAKernel(order="two-way")}
    gram(X[:5], kernel=fit_kernel(SSANOVAKernel(order="two-way"), X))  # compile outside the timings
    SVMClassifier(lam=1e-2).fit(X[:20], y[:20])
    print(f"{'kernel':<20}{'comp.':>6}{'gram s':>9}{'sklearn':>9}{'coord+asm':>10}{'fit s':>8}{'solve s':>8}"
          f"{'SVC s':>8}{'ratio':>7}{'max|Δf|':>9}{'λ-seq s':>9}{'+LOO s':>8}")
    for label, kern in kernels.items():
        kf = fit_kernel(kern, X)
        K, t_gram = best_of(lambda: gram(X, kernel=kf, sigma=sigma))
        t_ref = coord = float("nan")
        if kf == "rbf":
            _, t_ref = best_of(lambda: rbf_kernel(X, gamma=1 / (2 * sigma**2)))
            ncomp = 1
        else:
            ncomp = kf.n_components
            _, coord = best_of(lambda: kf.gram_from_coordinate_grams(kf.coordinate_grams(X)))
        model, t_fit = best_of(lambda: SVMClassifier(lam=LAM, kernel=kern, sigma=sigma).fit(X, y))
        _, t_solve = best_of(lambda: fit_lambda_sequence(K, y, [LAM]))
        C = 1 / (2 * n * LAM)
        ref, t_svc = best_of(lambda: SVC(kernel="precomputed", C=C).fit(K, y))
        f_ours, f_ref = model.decision_function(X), ref.decision_function(K)
        diff = np.abs(f_ours - f_ref).max() / np.abs(f_ref).max()
        with Timer() as t_seq:
            gram_criteria_curves(K, y, LAMBDAS)
        with Timer() as t_loo:
            gram_criteria_curves(K, y, LAMBDAS, loo=True)
        print(f"{label:<20}{ncomp:>6}{t_gram:>9.3f}{t_ref:>9.3f}{coord:>10.3f}{t_fit:>8.3f}{t_solve:>8.3f}"
              f"{t_svc:>8.3f}{t_svc / t_solve:>7.2f}{diff:>9.1e}{t_seq.seconds:>9.2f}{t_loo.seconds:>8.2f}")
    mb = 8 * d * n * n / 2**20
    print(f"# per-coordinate grams: {d} × {n}² floats = {mb:.0f} MiB (refused above "
          f"{COMPONENT_GRAM_BUDGET / 2**20:.0f} MiB); the two-way interactions ({d * (d - 1) // 2} of them) are "
          "products formed on the fly, never stored")


def page(n=200, pairs=7):
    """The Kernels page's fits + exact LOO at its defaults, the two ways (see the module docstring)."""
    kernels = {"Gaussian": "rbf", "SS-ANOVA additive": SSANOVAKernel(),
               "SS-ANOVA two-way": SSANOVAKernel(order="two-way")}
    print(f"# Kernels page, one Seed + 1: anova_structure n = {n}, d = 6, 3 kernels x 11 λ, exact LOO; {machine()}")

    def run(seed, way):
        ds = make_dataset("anova_structure", n=n, seed=seed)
        t = ds.test_sample(2000, seed=10_000 + seed)
        kw = dict(sigma=1.4, p_true=ds.p_true, X_test=t.X, y_test=t.y)
        c0, w0 = time.process_time(), time.perf_counter()
        fits = anova.compare_kernels(ds.X, ds.y, LAMBDAS, kernels, loo=False, **kw)
        c1, w1 = time.process_time(), time.perf_counter()
        if way == "twice":
            anova.compare_kernels(ds.X, ds.y, LAMBDAS, kernels, loo=True, **kw)
        else:
            anova.add_exact_loo(fits, ds.y)
        c2, w2 = time.process_time(), time.perf_counter()
        return c2 - c0, w2 - w0, c1 - c0, w1 - w0, c2 - c1, w2 - w1

    run(0, "once"), run(0, "twice")  # compile / load outside the timings
    res = {"once": [], "twice": []}
    for i in range(pairs):
        for way in (("once", "twice") if i % 2 == 0 else ("twice", "once")):
            res[way].append(run(100 + i, way))
    for way, label in (("twice", "fits, then compare_kernels(loo=True) (before)"),
                       ("once", "fits, then add_exact_loo (the page now)")):
        cpu, wall, fc, fw, lc, lw = np.median(np.array(res[way]), axis=0)
        print(f"{label:<48} CPU {cpu:.3f} s  wall {wall:.3f} s  (median of {pairs}; the fits CPU {fc:.3f} / "
              f"wall {fw:.3f} s, then CPU {lc:.3f} / wall {lw:.3f} s)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--page"]:
        page(*[int(a) for a in sys.argv[2:]])
    else:
        args = [int(a) for a in sys.argv[1:]]
        main(*args)
