"""Compile svmviz's numba functions once per installation: ``svmviz warmup``.

numba compiles a function on its first call and keeps it in an on-disk cache (:mod:`svmviz._jit`):
after an install — or an edit of a compiled function's source — the first use of each page or
estimator waits for its compilation (a minute for the ν-path on two cores). :func:`run` does all of
it ahead of time by calling the public functions on small data, one step after the other, as a user
would: every compiled function the app and the estimators use is compiled, or loaded from the cache,
with the argument types they are called with. Then a stamp (:func:`~svmviz._jit.stamp_path`) marks
the cache as current for this source and this numba; a second run says so and returns at once.

On a machine with two cores or more (those this process may run on, :func:`default_processes`)
``svmviz warmup`` compiles in two processes at once: the first runs the steps that compile the SVM and
IRWLS solvers, the second (started once the Gram-matrix functions every step calls are in the cache)
the steps of :data:`SECOND_PROCESS`, whose solvers are others. On two idle cores the wait is about
half; the CPU time is a little more, as each process starts its own interpreter and compiles its own
copies of numba's implementations of numpy (``np.empty``, sorting, the linear algebra), which numba
caches only inside the functions that call them. On one core, or with ``--processes 1``, one process
runs every step.

``svmviz app`` (and ``streamlit run app.py``) start the same warm-up in one background process (one,
whatever the cores: the server's visitors come first) at low priority when the cache is not current (:func:`start_background`); a function that must still
compile says so once, in plain words (:func:`svmviz._jit.compile_notice`). A Streamlit server also
runs :data:`STEPS` in a thread of its own to load the cached functions ahead of its visitors
(:mod:`svmviz.ui._preload`).

Shared internal module of svmviz: its names serve the package's other modules; not public API.

Examples
--------
>>> from svmviz import _warmup
>>> [step.name for step in _warmup.STEPS][:2]
['gram', 'svm-grid']
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from typing import Callable, NamedTuple

import numpy as np

from ._jit import COMPILE_GROUPS, cache_folder, compile_notice, is_current, notices_to, stamp_path  # noqa: F401


NICE = 10
"""Niceness of the background warm-up (``os.nice``): a visitor's page comes first on the same cores."""


class Step(NamedTuple):
    name: str
    what: str  # the compiled functions, in the words of :func:`svmviz._jit.compile_notice`
    run: Callable[[], object]
    minutes: float  # CPU minutes on an empty cache (measured: 75 s of CPU for all the steps)


# ------------------------------------------------------------------------------------------ steps
def _data(name="esl_mixture", n=40, seed=0, **params):
    from svmviz.data import make_dataset

    return make_dataset(name, n=n, seed=seed, **params)


def _gram():
    from svmviz.kernels import SSANOVAKernel, gram

    X = _data("wahba2001").X
    for kernel in ("rbf", "linear"):
        gram(X, kernel=kernel, sigma=1.0)
    for order in ("additive", "two-way"):
        SSANOVAKernel(order=order).fit(X)(X, X)


def _svm_grid():
    from svmviz.figures.tuning import compute_decision_curves
    from svmviz.svm import SVMClassifier
    from svmviz.tuning import criteria_surface

    ds = _data("wahba2001")
    p = ds.p_true(ds.X)
    lambdas, sigmas = np.array([1e-3, 1e-2]), np.array([0.5, 1.0])
    surf = criteria_surface(ds.X, ds.y, lambdas, sigmas, p_true=p, loo=True)
    compute_decision_curves(surf, {"gacv": (0, 0)}, p_true=ds.p_true, resolution=20)
    for strategy in ("full", "rows"):  # one fit on the whole kernel matrix, and on kernel rows computed on demand
        SVMClassifier(C=1.0, gamma=0.5, strategy=strategy).fit(ds.X, ds.y)
    # rows of a small cache, shortened once shrinking has left few points active and lengthened again to
    # unshrink (the cache's restride, compiled on its own)
    big = _data("wahba2001", n=150)
    SVMClassifier(C=10.0, gamma=0.5, strategy="rows", cache_size=0.05).fit(big.X, big.y)


def _losses():
    from svmviz.losses import gacv_curves

    ds = _data("wahba2001")
    gacv_curves(ds.X, ds.y, np.array([1e-3, 1e-2]), 1.0, p_true=ds.p_true(ds.X), loo=True, ran_gacv_replicates=2)


def _nu_path():
    from svmviz.data import fresh_sample
    from svmviz.path import default_loo_lambdas, loo_path, nu_path

    ds = _data("banana")
    te = fresh_sample(ds, 50, 0, role="test")
    for kwargs in (dict(kernel="rbf", sigma=1.0), dict(kernel="linear")):
        p = nu_path(ds.X, ds.y, **kwargs)
        loo_path(p, default_loo_lambdas(p, 4), X_test=te.X, y_test=te.y)
        loo_path(p, default_loo_lambdas(p, 4))


def _usvc():
    from svmviz.figures.usvc import compute_error_surface, compute_trajectory
    from svmviz.usvc import IRWLSClassifier, kernel_comparison, table1_study

    ds = _data("usvc_B")
    clf = IRWLSClassifier(C=10.0, loss="smooth_step", s=2.0).fit(ds.X, ds.y)
    compute_trajectory(clf)
    for loss in ("hinge", "smooth_step"):
        compute_error_surface(ds.X[:, 0], ds.y, loss=loss, n_th=11, n_w=9)
    table1_study("A", n_trials=1, n_train=40, n_test=40)
    ds2 = _data("esl_mixture")
    kernel_comparison(ds2.X, ds2.y, n_prototypes=5, X_test=ds2.X, y_test=ds2.y)


def _ivm():
    from svmviz.ivm import (IVMClassifier, KernelLogisticRegression, ivm_lambda_path, klr_lambda_path,
                            paper_lambdas, svm_lambda_path)

    ds, tune = _data("esl_mixture"), _data("esl_mixture", seed=1)
    lams = paper_lambdas(3)
    ivm_lambda_path(ds.X, ds.y, tune.X, tune.y, lams=lams, max_import=5)
    klr_lambda_path(ds.X, ds.y, tune.X, tune.y, lams=lams)
    svm_lambda_path(ds.X, ds.y, tune.X, tune.y, lams_ivm=lams)
    IVMClassifier(max_import=5).fit(ds.X, ds.y)
    three = _data("esl_mixture", n_classes=3, n=45)
    IVMClassifier(max_import=5).fit(three.X, three.y)
    KernelLogisticRegression().fit(ds.X, ds.y)


def _anova():
    from svmviz.anova import (add_exact_loo, compare_kernels, decompose, expansion_from_dual, importances,
                              theta_lambda_grid)
    from svmviz.kernels import SSANOVAKernel

    ds = _data("wahba2001")
    p = ds.p_true(ds.X)
    lambdas = np.array([1e-3, 1e-2])
    kernels = {"Gaussian": "rbf", "additive": SSANOVAKernel(order="additive"), "two-way": SSANOVAKernel(order="two-way")}
    kc = compare_kernels(ds.X, ds.y, lambdas, kernels, p_true=p, X_test=ds.X, y_test=ds.y)
    add_exact_loo(kc, ds.y)
    for q in (1, 2):  # the fitted function's components and importances, per SS-ANOVA kernel
        curves = kc.curves[q]
        exp = expansion_from_dual(kc.kernels[q], ds.X, ds.y, curves.alphas[0], curves.b[0], lambdas[0])
        decompose(exp, ds.X)
        importances(exp)
    for loo in (False, True):
        theta_lambda_grid(ds.X, ds.y, lambdas, SSANOVAKernel(order="additive"), np.array([0.1, 1.0]), coordinate=0,
                          p_true=p, loo=loo)


STEPS = tuple(Step(name, COMPILE_GROUPS[name][0], run, COMPILE_GROUPS[name][1]) for name, run in (
    ("gram", _gram), ("svm-grid", _svm_grid), ("losses", _losses), ("nu-path", _nu_path), ("usvc", _usvc),
    ("ivm", _ivm), ("anova", _anova)))
"""What :func:`run` does, in order; each step compiles one group of :data:`svmviz._jit.COMPILE_GROUPS`."""

SECOND_PROCESS = frozenset({"nu-path", "ivm", "anova"})
"""The steps :func:`run` gives a second process when it runs two: the ν-path solver and the KLR/IVM
and SS-ANOVA kernels call none of the functions the SVM-grid, losses and IRWLS steps compile but the
Gram-matrix functions (compiled first, before the second process starts) and the SVM solver that the
IVM and SS-ANOVA steps fit, which the first process has compiled by then (the ν-path step comes first).
Every other step, and any step added to :data:`STEPS`, runs in the first process."""


# ------------------------------------------------------------------------------------------ running
def default_processes() -> int:
    """The processes :func:`run` compiles in by default: 2 when this process may run on two cores or more
    (``os.sched_getaffinity``, else ``os.cpu_count``), 1 on one core, where a second process would only
    add its CPU time.

    Returns
    -------
    int
        1 or 2.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # a platform without CPU affinity
        cores = os.cpu_count() or 1
    return 2 if cores >= 2 else 1


def run(*, force: bool = False, out=None, processes: int | None = None) -> float:
    """Compile (or load) every compiled function; returns the seconds taken.

    Parameters
    ----------
    force : bool, default False
        Run the steps even when the cache is current (:func:`svmviz._jit.is_current`).
    out : file-like, optional
        Where the progress lines go (default ``sys.stdout``): one per step with its seconds, as each
        step ends, then the total.
    processes : {1, 2}, optional
        1: every step in this process, one after the other. 2: the first step here, then the steps of
        :data:`SECOND_PROCESS` in a second process while this one runs the others (about half the wait
        on two idle cores, a little more CPU time: see the module). Default: :func:`default_processes`.

    Returns
    -------
    float
        The seconds the run took.

    Raises
    ------
    ValueError
        ``processes`` is not 1 or 2.
    RuntimeError
        The second process failed (its error output is in the message); the cache is not stamped current.
    """
    if processes is None:
        processes = default_processes()
    if processes not in (1, 2) or isinstance(processes, bool):
        raise ValueError(f"processes must be 1 or 2, got {processes!r}")
    out = sys.stdout if out is None else out
    t0 = time.perf_counter()
    if not force and is_current():
        print(f"svmviz warmup: the cache of compiled functions is current ({os.path.dirname(stamp_path())}); nothing to do.",
              file=out, flush=True)
        return time.perf_counter() - t0
    where = "two processes" if processes == 2 else "one process"
    print(f"svmviz warmup: compiling the numba functions into {_where()} in {where} "
          "(about 1.5 minutes of CPU, once per installation)",
          file=out, flush=True)
    lock = threading.Lock()
    numbered = [(i, step) for i, step in enumerate(STEPS, start=1)]
    if processes == 1:
        _run_steps(numbered, out, lock)
    else:
        first, rest = numbered[:1], numbered[1:]
        _run_steps(first, out, lock)
        second = [(i, step) for i, step in rest if step.name in SECOND_PROCESS]
        child = _start_second([step.name for _, step in second]) if second else None
        relay = threading.Thread(target=_relay, args=(child, out, lock), daemon=True) if child else None
        if relay is not None:
            relay.start()
        try:
            _run_steps([(i, step) for i, step in rest if step.name not in SECOND_PROCESS], out, lock)
        except BaseException:
            if child is not None:
                child.kill()
            raise
        finally:
            if child is not None:
                child.wait()
                relay.join()
        if child is not None and child.returncode != 0:
            child.errors.seek(0)
            raise RuntimeError(f"svmviz warmup: the second process failed (exit {child.returncode}):\n"
                               + child.errors.read()[-3000:])
    total = time.perf_counter() - t0
    path = stamp_path()
    if path is not None:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(f"compiled by svmviz warmup in {total:.1f} s\n")
    print(f"svmviz warmup: done in {total:.1f} s", file=out, flush=True)
    return total


def _run_steps(numbered, out, lock) -> None:
    """Run the steps ``numbered`` ((number, step) pairs) here, one after the other, a line each as it ends."""
    for i, step in numbered:
        t = time.perf_counter()
        with notices_to(lambda _text: None), warnings.catch_warnings():  # these lines say it already
            warnings.simplefilter("ignore")  # small data: convergence warnings say nothing here
            step.run()
        with lock:
            print(f"  [{i}/{len(STEPS)}] {step.name:9s} {time.perf_counter() - t:6.1f} s  {step.what}", file=out,
                  flush=True)


def _start_second(names: list[str]) -> subprocess.Popen:
    """``python -m svmviz._warmup --steps NAME,…``: the steps ``names`` in a process of their own, with
    this process's environment and this copy of svmviz first on its path."""
    env = dict(os.environ)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = top + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return _popen([sys.executable, "-m", "svmviz._warmup", "--steps", ",".join(names)], env)


def _popen(cmd: list[str], env: dict) -> subprocess.Popen:
    """Start ``cmd``: its output lines to read as they come, its error output kept in a file
    (``proc.errors``) so that a long one cannot block it."""
    errors = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, text=True)
    proc.errors = errors
    return proc


def _relay(child: subprocess.Popen, out, lock) -> None:
    """The second process's progress lines, to ``out`` as they come."""
    for line in child.stdout:
        with lock:
            print(line.rstrip("\n"), file=out, flush=True)


def _where() -> str:
    return cache_folder() or "numba's default cache"


_BACKGROUND: dict = {"proc": None, "lock": threading.Lock()}


def start_background() -> subprocess.Popen | None:
    """Start ``svmviz warmup`` in one background process at low priority, unless the cache is current
    or this process (or the ``svmviz app`` command that became this server) started one already, or
    ``SVMVIZ_WARMUP=0``; returns the process (None: nothing started).

    The process outlives nobody's interest: it only fills the cache, and a server that stops leaves
    it to finish (a second start after it finds the cache current). A server also loads what its pages
    use in a thread of its own (:mod:`svmviz.ui._preload`, which calls this function)."""
    with _BACKGROUND["lock"]:
        proc = _BACKGROUND["proc"]
        if os.environ.get("SVMVIZ_WARMUP") in ("0", "started") or (proc is not None and proc.poll() is None) \
                or is_current():
            return None
        code = ("import os, sys\n"
                "try:\n    os.nice(%d)\nexcept (AttributeError, OSError):\n    pass\n"
                "from svmviz._warmup import run\nrun(processes=1)\n" % NICE)
        proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        _BACKGROUND["proc"] = proc
        os.environ["SVMVIZ_WARMUP"] = "started"  # `svmviz app` execs the server: it must not start another
        return proc


def main(argv: list[str] | None = None) -> int:
    """``python -m svmviz._warmup [--force]``: as ``svmviz warmup``. ``--steps NAME,…``: only those
    steps, here, with no stamp (the second process of :func:`run`)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--steps" in argv:
        names = argv[argv.index("--steps") + 1].split(",")
        unknown = sorted(set(names) - {step.name for step in STEPS})
        if unknown:
            raise SystemExit(f"svmviz warmup: no step named {', '.join(unknown)}")
        _run_steps([(i, step) for i, step in enumerate(STEPS, start=1) if step.name in names], sys.stdout,
                   threading.Lock())
        return 0
    run(force="--force" in argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
