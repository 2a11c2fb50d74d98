"""Benchmark: the ν-SVM regularization path and leave-one-out along it (Loosli & Canu 2006).

Run by hand:  .venv/bin/python bench/bench_path.py [--sizes 500 1000 2000] [--big 5000] [--loo-evals 30]
              .venv/bin/python bench/bench_path.py --breakdown 500 [--sizes ...]   (where the time goes)

For each n (banana data, Gaussian kernel σ = 1, the page's default), at equal resources (one thread
each: the path follower is sequential, libsvm is too):
1. the whole path (every breakpoint, exact) against, in the same run, (a) one sklearn ``NuSVC`` solve
   at ν = 0.5 ("one SVM solve"): medians of ``--repeats`` rounds, each timing the path then the solve,
   one thread each (BLAS and numba limited to one thread; the follower and libsvm are sequential), and
   (b) ``NuSVC`` at every breakpoint's ν (what the path replaces; only for n ≤ 1000), with the median
   and largest difference of the decision values (relative to max |f|, after NuSVC's positive scale
   1/ρ) where NuSVC converged and b is unique (both classes have a margin point; otherwise any
   threshold in an interval is optimal and libsvm takes its midpoint);
2. ``--big``: the path alone at a large n in a fresh process — its time and peak memory (ru_maxrss);
3. LOO1/LOO2 at ``--loo-evals`` λ along the path (refitting only E ∪ L, warm-started, numba threads)
   against (a) one NuSVC solve and (b) the sklearn way: ``NuSVC`` refits without each point of E ∪ L at
   the same λ (brute force on a few λ, extrapolated per refit), with the largest LOO1 difference.

``--breakdown``: the path follower's time per breakpoint by phase (thresholds with the KKT
violation, the KKT decision, working set, derivative QP, event search and step, exact
recomputations, refactorizations, corrections, recording) and, inside the active-set QP, its
working-set solve (the product with the bordered inverse and its iterative refinement against the
bordered matrix), its step ``G[:, W] d_W`` and its pricing, with its iterations per breakpoint,
measured with the CPU's cycle counter in an instrumented copy of
:mod:`svmviz.path._solver` (made in a temporary folder; the package itself is not touched), beside the
floor: one product ``G[:, W] d_W`` (O(m·|W|), what finding the next event needs) and one O(m) pass.
Each of its seven path runs is followed by one ``NuSVC`` solve at ν = 0.5 (one thread each), and it
prints the floor of the path's route against that solve: the phases whose rounding the breakpoints
depend on (the QP's working-set solves with their refinement and its steps ``G[:, W]·d_W``, the
rank-one updates of the bordered inverse, the exact ``s = Gα`` and the periodic refactorizations:
where points are tied — duplicated points, a linear kernel's rank, a nearly flat kernel — a solve
rounded differently takes another route of events), in µs per breakpoint and as a multiple of one
solve, and what a given multiple (``--target``, 5×) leaves per breakpoint for the rest of the loop
(its O(m) passes), beside what the rest measures.
"""
from __future__ import annotations

import argparse
import os
import re
import time
import warnings

import numba
import numpy as np
from _common import Timer, machine
from bench_gram import interleaved
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import NuSVC
from threadpoolctl import threadpool_limits

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


def path_rows(n, seed, all_nus, repeats):
    ds = banana(n=n, seed=seed)
    X, y = ds.X, ds.y
    loo_path(nu_path(X[:30], y[:30], sigma=SIGMA), max_evals=2)  # JIT / cache load outside the timings
    nusvc(X, y, 0.5)
    # one thread each (BLAS builds the kernel matrix; the follower and libsvm are sequential), the
    # path and one NuSVC solve in turn: medians of ``repeats`` rounds
    n_threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        with threadpool_limits(1):
            t_path, t_one, p, _ = interleaved(lambda: nu_path(X, y, sigma=SIGMA), lambda: nusvc(X, y, 0.5), repeats)
    finally:
        numba.set_num_threads(n_threads)
    E = (p.groups == GROUP_E).sum(axis=1)
    row = (f"{n:>5} {p.n_breakpoints:>7} {E.mean():>6.0f} {t_path:>8.3f} {t_path / p.n_breakpoints * 1e6:>8.1f} "
           f"{t_one:>10.4f} {t_path / t_one:>7.1f}x")
    if not all_nus:
        print(row + f" {'—':>12} {'—':>9} {'—':>8} {'—':>8} {'—':>11}", flush=True)
        return ds, p, t_one
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
    print(row + f" {t_all.seconds:>12.2f} {t_all.seconds / t_path:>8.1f}x {np.median(diffs):>8.1e} "
          f"{np.max(diffs):>8.1e} {n_conv:>5}/{nus.size}", flush=True)
    return ds, p, t_one


_BIG = """
import resource, sys, time
import numpy as np
from svmviz.data import banana
import svmviz.path
from svmviz.path import nu_path
n, seed, sigma = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
svmviz.path.MAX_N = max(svmviz.path.MAX_N, n)  # measure beyond the public limit (the α array is T·n doubles)
ds = banana(n=n, seed=seed)
nu_path(ds.X[:30], ds.y[:30], sigma=sigma)
t0 = time.perf_counter()
p = nu_path(ds.X, ds.y, sigma=sigma)
t = time.perf_counter() - t0
print(n, p.n_breakpoints, t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, p.alphas.nbytes / 2**20,
      p.status)
"""


def big_row(n, seed):
    """The path alone at a large n, in a fresh process (its peak memory is the path's)."""
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", _BIG, str(n), str(seed), str(SIGMA)], cwd=root, check=True,
                         capture_output=True, text=True).stdout.split()
    n_, T, secs, rss, amb, status = int(out[0]), int(out[1]), float(out[2]), float(out[3]), float(out[4]), int(out[5])
    print(f"{n_:>5} {T:>7} {secs:>8.2f} {secs / T * 1e6:>8.1f} {rss:>12.0f} {amb:>12.0f} {status:>6}", flush=True)


_MARKS = [  # (phase name, the start of the line of follower._follow's loop that starts the NEXT phase)
    ("record, loop", "# ---- thresholds (and a jump"),
    ("thresholds, violation", "# ---- KKT check"),
    ("KKT decision", "# ---- bounds of the derivative QP"),
    ("QP bounds, pivots", "ok, nw = sync_working_set("),
    ("working set (rank-one)", "# ---- the derivative QP ----"),
    ("derivative QP", "n_dep += _count_dependent("),
    ("dependent count", "# ---- step to the nearest event"),
    ("events, step", "t[0] += h * dt0"),
    ("λ snap", "step_count += 1\n"),
    ("exact s = Gα", "if step_count % MINV_REFRESH_EVERY == 0:"),
    ("refactorization", "if not at_end:  # the settle where g drifted on E"),
    ("settle, class sums", "t_end[0] = t[0]"),
]
_TSC = """
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic


@intrinsic
def rdtsc(typingctx):
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen
"""


_QP_MARKS = [  # inside the active-set QP (asqp.asqp), every call of the path (direction, settle): name, the
    # line the timer starts before, the line it stops before; plus its iteration count
    ("working-set solve, refinement", "        _solve_working_set(y, grad, Minv, Mb, widx, nw, sol, solb",
     "        dmax = 0.0\n"),
    ("step G[:, W]·d_W, grad update", "        if tau > 0.0 and dmax > 0.0:\n", "        if blk >= 0:\n"),
    ("pricing", "        best = _price(y, x, grad", "        if best < 0:\n"),
    ("iterations", None, None),
]


def _instrument_asqp(fn):
    """The copy's active-set QP adds the cycles of its working-set solve, its step and its pricing, and
    its iteration count, to an extra row of its work space (``work[-1]``), which the instrumented
    follow_path adds to ``T``'s last entries."""
    src = open(fn).read()
    rows = re.search(r"^QP_WORK_ROWS = (\d+) ", src, re.M)  # one row more, the copy's last
    assert rows, "asqp changed: update bench_path._instrument_asqp (QP_WORK_ROWS)"
    for a, b in [("from .events import ratio_test", "from .events import ratio_test\nfrom .tsc import rdtsc"),
                 (rows.group(0), f"QP_WORK_ROWS = {int(rows.group(1)) + 1} "),
                 ("np.empty((QP_WORK_ROWS, n + 2))", "np.zeros((QP_WORK_ROWS, n + 2))"),
                 ("    while it < max_iter:\n        it += 1\n",
                  f"    while it < max_iter:\n        it += 1\n        work[-1, {len(_QP_MARKS) - 1}] += 1.0\n")]:
        assert src.count(a) == 1, f"asqp changed: update bench_path._instrument_asqp ({a!r})"
        src = src.replace(a, b)
    for k, (_, start, stop) in enumerate(_QP_MARKS[:-1]):
        assert src.count(start) == 1, f"asqp changed: update bench_path._QP_MARKS ({start!r})"
        i = src.index(start)
        src = src[:i] + "        _q0 = rdtsc()\n" + src[i:]
        j = src.index(stop, i)
        src = src[:j] + f"        work[-1, {k}] += rdtsc() - _q0\n" + src[j:]
    with open(fn, "w") as f:
        f.write(src)


def _instrumented_kernel(tmp):
    """A copy of svmviz.path._solver whose path kernel adds the cycles of each phase to an array ``T``."""
    import importlib
    import shutil
    import sys

    import svmviz.path._solver as pkg

    dst = os.path.join(tmp, "nu_path_timed")
    shutil.copytree(os.path.dirname(pkg.__file__), dst, ignore=shutil.ignore_patterns("__pycache__"))
    with open(os.path.join(dst, "__init__.py"), "w"):
        pass
    with open(os.path.join(dst, "tsc.py"), "w") as f:
        f.write(_TSC)
    for name in os.listdir(dst):  # the copy is a top-level package: svmviz._jit by name
        if name.endswith(".py"):
            with open(os.path.join(dst, name)) as f:
                src = f.read()
            with open(os.path.join(dst, name), "w") as f:
                f.write(src.replace("from ..._", "from svmviz._"))
    _instrument_asqp(os.path.join(dst, "asqp.py"))
    fn = os.path.join(dst, "follower.py")
    src = open(fn).read()
    src = src.replace("from .events import", "from .tsc import rdtsc\nfrom .events import", 1)
    # the loop is the kernel _follow, called by follow_path (Python) until the path ends
    for a, b in [("            floats):\n", "            floats, T):\n"),
                 ("def follow_path(K, y, max_breakpoints, tol, refresh, max_qp_iter):",
                  "def follow_path(K, y, max_breakpoints, tol, refresh, max_qp_iter, T):"),
                 ("_follow(*args, *state)", "_follow(*args, *state, T)"),
                 ("    nb = int(ints[_I_NB])\n",  # the active-set QP's counters (asqp's extra work row)
                  f"    nb = int(ints[_I_NB])\n    T[-{len(_QP_MARKS)}:] += work[-1, :{len(_QP_MARKS)}].astype(np.int64)\n"),
                 ("    while True:\n        if resume:", "    _c0 = rdtsc()\n    while True:\n        if resume:")]:
        assert src.count(a) == 1, f"follower._follow changed: update bench_path._instrumented_kernel ({a!r})"
        src = src.replace(a, b)
    for k, (_, mark) in enumerate(_MARKS):
        assert src.count("    " + mark) == 1, f"the loop of follower._follow changed: update bench_path._MARKS ({mark!r})"
        i = src.index("    " + mark) + 4
        line0 = src.rindex("\n", 0, i) + 1  # the mark's line: the timer goes before it, at its indentation
        indent = src[line0:i]
        src = src[:line0] + f"{indent}_c = rdtsc(); T[{k}] += _c - _c0; _c0 = _c\n" + src[line0:]
    with open(fn, "w") as f:
        f.write(src)
    sys.path.insert(0, tmp)
    return importlib.import_module("nu_path_timed.follower").follow_path


def _tsc_now_src(kern):
    """A kernel reading the cycle counter (the instrumented copy's rdtsc intrinsic)."""
    import sys

    rdtsc = sys.modules["nu_path_timed.tsc"].rdtsc

    def tsc_now():
        return rdtsc()
    return tsc_now


def _counter_hz(tsc_now, seconds=0.2):
    """The cycle counter's ticks per second of wall time (a constant rate: the TSC), against the clock."""
    tsc_now()
    w0, c0 = time.perf_counter(), tsc_now()
    while time.perf_counter() - w0 < seconds:
        pass
    w1, c1 = time.perf_counter(), tsc_now()
    return (c1 - c0) / (w1 - w0)


_ROUTE_PHASES = ("working set (rank-one)", "exact s = Gα", "refactorization")  # follower phases in the route's floor
_ROUTE_QP_PHASES = ("working-set solve, refinement", "step G[:, W]·d_W, grad update")  # and inside the QP


def breakdown(sizes, seed, target):
    """Per-breakpoint time by phase (cycle counter; each phase's fewest cycles over 7 whole paths), the
    floor, and the route's floor against one NuSVC solve (``target``: the multiple of one solve aimed at)."""
    import tempfile

    from numba import njit

    from svmviz.path import EXACT_S_EVERY_MIN, EXACT_S_POINTS_PER_STEP

    @njit(cache=False)
    def product(K, y, inv_m, widx, d, z, reps):  # G[:, W] d_W, row by row (what the QP's step does)
        n = K.shape[0]
        for _ in range(reps):
            for r in range(n):
                z[r] = 0.0
            for k in range(widx.shape[0]):
                w = widx[k]
                c = d[w] * y[w] * inv_m
                for r in range(n):
                    z[r] += c * K[w, r]
            d[widx[0]] += 1e-300  # keep the loop from being hoisted

    @njit(cache=False)
    def one_pass(a, b, reps):  # an O(m) scan
        acc = 0.0
        for _ in range(reps):
            for i in range(a.shape[0]):
                if a[i] > 0.0 and a[i] < 1.0:
                    acc += b[i]
            a[0] += 1e-300
        return acc

    with tempfile.TemporaryDirectory() as tmp:
        kern = _instrumented_kernel(tmp)
        tsc_now = njit(cache=False)(_tsc_now_src(kern))
        for n in sizes:
            ds = banana(n=n, seed=seed)
            K = np.ascontiguousarray(gram(ds.X, kernel="rbf", sigma=SIGMA))
            y = np.where(ds.y == np.unique(ds.y)[1], 1.0, -1.0)
            args = (K, y, 50 * n + 100, 1e-9, max(EXACT_S_EVERY_MIN, n // EXACT_S_POINTS_PER_STEP), 10 * n + 100)
            n_t = len(_MARKS) + len(_QP_MARKS)
            kern(*args, np.zeros(n_t, np.int64))  # compile
            nusvc(ds.X, ds.y, 0.5)
            best, Tmin, t_one = None, None, []
            limits = threadpool_limits(1)  # entered once: its look-up of the loaded libraries takes milliseconds
            for _ in range(7):
                T = np.zeros(n_t, np.int64)
                c0, w0 = time.process_time(), time.perf_counter()
                out = kern(*args, T)
                cpu, wall = time.process_time() - c0, time.perf_counter() - w0
                c1 = time.process_time()
                nusvc(ds.X, ds.y, 0.5)
                t_one.append(time.process_time() - c1)
                Tmin = T.copy() if Tmin is None else np.minimum(Tmin, T)
                if best is None or cpu < best[0]:
                    best = (cpu, T, out[0].shape[0], out[1], wall)
            limits.restore_original_limits()
            secs, T, nb, alphas, wall = best
            # the counter's ticks per second of wall time, measured against the clock (it runs on while
            # the process waits): per CPU second of a run, a run another process preempted made every
            # phase look shorter (a loaded run's phases summed to 10.5 of its 18.5 µs of CPU per
            # breakpoint); per wall second of a run, the work outside the loop (allocating, copying
            # the rows) made them look longer
            hz = _counter_hz(tsc_now)
            # each phase's fewest cycles over the runs: a phase that another process preempted
            # (the cycle counter runs on) is not charged for it
            T, TQ = Tmin[:len(_MARKS)], Tmin[len(_MARKS):]
            nw = int(round(float(np.mean(((alphas > 0) & (alphas < 1)).sum(axis=1))))) + 2
            rng = np.random.default_rng(0)
            widx = rng.choice(n, min(nw, n), replace=False).astype(np.int64)
            d, z = rng.random(n), np.zeros(n)
            product(K, y, 1.0 / n, widx, d, z, 1)
            one_pass(d, z, 1)
            reps = max(10, 2_000_000 // (n * nw))
            with Timer() as tp:
                product(K, y, 1.0 / n, widx, d, z, reps)
            with Timer() as to:
                one_pass(d, z, reps)
            print(f"n = {n}: {nb} breakpoints, {secs * 1e3:.1f} ms CPU ({secs / nb * 1e6:.1f} µs per breakpoint, "
                  f"best of 7), mean |E| + 2 = {nw}; phases: fewest cycles of 7 runs, summing to "
                  f"{T.sum() / hz / nb * 1e6:.1f} µs; {machine()}")
            for (name, _), c in zip(_MARKS, T):
                print(f"   {name:<24} {c / hz / nb * 1e6:8.2f} µs {100 * c / T.sum():5.1f} %")
            print(f"   inside the active-set QP (its calls for the direction and the settle), "
                  f"{TQ[-1] / nb:.2f} iterations per breakpoint:")
            for (name, _, _), c in zip(_QP_MARKS[:-1], TQ[:-1]):
                print(f"      {name:<32} {c / hz / nb * 1e6:8.2f} µs {100 * c / T.sum():5.1f} %")
            fl = tp.seconds / reps * 1e6
            print(f"   floor: G[:, W] d_W {fl:.2f} µs + one O(m) pass {to.seconds / reps * 1e6:.2f} µs per breakpoint "
                  f"(+ O(|W|²) ≈ {nw * nw} multiply-adds for the rank-one update)", flush=True)
            us = dict(zip([m[0] for m in _MARKS], T / hz / nb * 1e6))
            us.update(zip([m[0] for m in _QP_MARKS[:-1]], TQ[:-1] / hz / nb * 1e6))
            route = sum(us[k] for k in _ROUTE_PHASES + _ROUTE_QP_PHASES)
            one = float(np.median(t_one))
            per_one = one / nb * 1e6  # one NuSVC solve, in µs per breakpoint of the path
            print(f"   one NuSVC solve (ν = 0.5, CPU, median of 7, each after a path run) {one * 1e3:.2f} ms = "
                  f"{per_one:.2f} µs per breakpoint: the path {secs / one:.1f}× one solve; its route "
                  f"({', '.join(_ROUTE_QP_PHASES + _ROUTE_PHASES)}) {route:.1f} µs = {route / per_one:.1f}× one "
                  f"solve; {target:g}× leaves {target * per_one - route:.1f} µs per breakpoint for the rest, which "
                  f"measures {T.sum() / hz / nb * 1e6 - route:.1f} µs", flush=True)


def loo_rows(ds, p, t_one, evals, n_brute):
    X, y = ds.X, ds.y
    lams = default_loo_lambdas(p, evals)
    lp = loo_path(p, lams)  # times itself (lp.seconds)
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
    ap.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000])
    ap.add_argument("--all-nus-max", type=int, default=1000, help="NuSVC at every breakpoint up to this n")
    ap.add_argument("--big", type=int, nargs="*", default=[5000])
    ap.add_argument("--loo-sizes", type=int, nargs="*", default=[200, 500])
    ap.add_argument("--loo-evals", type=int, default=30)
    ap.add_argument("--brute-lambdas", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=11, help="interleaved rounds of the path and one NuSVC solve")
    ap.add_argument("--breakdown", action="store_true", help="only the per-breakpoint breakdown, at --sizes")
    ap.add_argument("--target", type=float, default=5.0,
                    help="--breakdown: the multiple of one NuSVC solve the route's floor is set against")
    a = ap.parse_args()
    print(f"# bench_path: banana, Gaussian σ = {SIGMA}, seed {a.seed}; {machine()}")
    if a.breakdown:
        breakdown(a.sizes, a.seed, a.target)
        return
    print(f"== whole path vs one NuSVC solve (tol 1e-6) in the same run, one thread each, medians of {a.repeats} "
          "interleaved rounds")
    print(f"{'n':>5} {'bkpts':>7} {'mean|E|':>6} {'path s':>8} {'µs/bkpt':>8} {'1 NuSVC s':>10} {'path/1':>8} "
          f"{'NuSVC@all s':>12} {'all/path':>9} {'med|Δf|':>8} {'max|Δf|':>8} {'conv':>11}")
    loo_sizes = a.loo_sizes if a.loo_evals > 0 else []  # --loo-evals 0: the path alone
    done = {n: path_rows(n, a.seed, n <= a.all_nus_max, a.repeats) for n in sorted(set(a.sizes) | set(loo_sizes))}
    if a.big:
        print(f"== the path alone at large n, fresh process; {machine()}")
        print(f"{'n':>5} {'bkpts':>7} {'path s':>8} {'µs/bkpt':>8} {'peak RSS MiB':>12} {'α MiB':>12} {'status':>6}")
        for n in a.big:
            big_row(n, a.seed)
    if not loo_sizes:
        return
    print(f"== LOO1/LOO2 at {a.loo_evals} λ along the path vs NuSVC refits without each point of E ∪ L; {machine()}")
    print(f"{'n':>5} {'evals':>6} {'refits':>7} {'LOO s':>9} {'s per λ':>10} {'per λ/1':>11} "
          f"{'sklearn s':>12} {'ratio':>9} {'max ΔLOO1':>9} {'nc':>4}")
    for n in loo_sizes:
        loo_rows(*done[n], a.loo_evals, a.brute_lambdas)


if __name__ == "__main__":
    main()
