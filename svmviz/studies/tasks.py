"""One task of a study — one data set, one replicate — and the rows of the results table it gives.

A task is a pure function of (spec, data-set index, replicate): every random draw comes from seeds
derived with ``numpy.random.SeedSequence`` (:func:`task_seeds`), so its rows are the same whichever
process, machine or number of workers computes it. Inside a Dask worker the task runs on one thread
(``n_threads=1``): the worker processes already use the cores.
"""
from __future__ import annotations

import time
import warnings
from typing import NamedTuple

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .. import criteria as _criteria
from .. import data as _data
from .results import rows_to_frame
from .spec import IRWLSSpec, IVMSpec, SpecError, StudySpec, SVMSpec

__all__ = ["TaskSeeds", "task_seeds", "TaskData", "make_task_data", "svm_rows", "grid_test_errors",
           "held_out_inefficiency", "irwls_rows", "ivm_rows",
           "run_task"]

SHIPPED = ("breast_cancer", "iris", "wine")


class TaskSeeds(NamedTuple):
    """Seeds of one task: training sample, test sample, folds (and prototypes), tuning sample, ranGACV."""

    data: int
    test: int
    cv: int
    tune: int
    rangacv: int


def task_seeds(seed: int, replicate: int) -> TaskSeeds:
    """The seeds of replicate ``replicate`` of a study seeded with ``seed``.

    The training seed is ``SeedSequence([seed, r])``'s first word — the seed
    :func:`svmviz.tuning.inefficiency_study` gives repetition r, so both draw the same data sets;
    the others are the words of ``SeedSequence([seed, r, 1])``. Data sets of one study share them
    (common random numbers).
    """
    from .._surface import replicate_seed

    other = np.random.SeedSequence([int(seed), int(replicate), 1]).generate_state(4)
    return TaskSeeds(replicate_seed(seed, replicate), *(int(v) for v in other))


class TaskData(NamedTuple):
    """The samples of one task."""

    train: "_data.Dataset"
    X_test: np.ndarray | None
    y_test: np.ndarray | None
    L: tuple
    p: np.ndarray | None  # true P(+1 | x) at the training points
    bayes_error: float
    seeds: TaskSeeds


def _csv_split(arrays, ds_spec, seeds):
    from sklearn.model_selection import train_test_split

    X, y, classes, names = arrays
    n = ds_spec.n
    if n >= X.shape[0] - 2:
        raise SpecError(f"{ds_spec.label}: n = {n} leaves fewer than 2 of the file's {X.shape[0]} rows for testing.")
    idx = np.arange(X.shape[0])
    tr, te = train_test_split(idx, train_size=n, stratify=y, random_state=seeds.data % 2**32)
    tr, te = np.sort(tr), np.sort(te)
    mu, sd = X[tr].mean(axis=0), X[tr].std(axis=0)
    if not ds_spec.standardize:
        mu, sd = np.zeros(X.shape[1]), np.ones(X.shape[1])
    sd = np.where(sd > 0, sd, 1.0)
    train = _data.Dataset(X=np.ascontiguousarray((X[tr] - mu) / sd), y=y[tr], name=ds_spec.label,
                          classes=tuple(classes), feature_names=tuple(names),
                          params={"n": int(n), "seed": seeds.data, "source": ds_spec.path})
    return train, np.ascontiguousarray((X[te] - mu) / sd), y[te]


def make_task_data(spec: StudySpec, index: int, replicate: int, csv_arrays=None) -> TaskData:
    """Draw the training and test samples of one task.

    Simulated data: ``make_dataset(name, n, seed)`` and an independent test sample of
    ``test_size`` points from the generator's test stream. scikit-learn's data sets: a stratified
    subset of n rows, the other rows are the test set. CSV data (``csv_arrays`` = X, ±1 labels,
    classes, feature names, loaded once by the client): a stratified split of n training rows,
    standardized with the training rows' mean and sd.
    """
    ds_spec = spec.datasets[index]
    seeds = task_seeds(spec.seed, replicate)
    if ds_spec.name == "csv":
        if csv_arrays is None:
            raise ValueError(f"{ds_spec.label}: the CSV data were not passed to the task.")
        train, Xt, yt = _csv_split(csv_arrays, ds_spec, seeds)
    else:
        params = dict(ds_spec.params)
        if ds_spec.name == "wahba2001" and spec.setting == "nonstandard":
            params.update(nonstandard=True, **spec.costs)
        train = _data.make_dataset(ds_spec.name, n=ds_spec.n, seed=seeds.data, **params)
        Xt = yt = None
        if train.test_sample is not None:
            size = None if ds_spec.name in SHIPPED else (ds_spec.test_size or spec.test_size)
            test = train.test_sample(size, seeds.test)
            Xt, yt = test.X, test.y
    if train.is_multiclass and not spec.multiclass:
        raise SpecError(f"{ds_spec.label} has {train.n_classes} classes; only a spec whose one section is [ivm] "
                        "with methods = [\"IVM\"] studies more than two (the other machines are binary).")
    if ds_spec.L is not None:
        L = tuple(ds_spec.L)
    else:
        L = (1.0, 1.0) if spec.setting == "standard" else tuple(map(float, train.L))
    p = None if train.p_true is None else np.asarray(train.p_true(train.X), dtype=np.float64)
    bayes = (float(train.bayes_error) if train.bayes_error is not None and tuple(map(float, train.L)) == L
             else np.nan)
    return TaskData(train, Xt, yt, L, p, bayes, seeds)


def _error(f, y, L=(1.0, 1.0)) -> float:
    """(1/m) Σ L(y_i)[−y_i f_i]_*: the (weighted) error rate, f = 0 counted as an error."""
    return float(_criteria.loo_misclass(f, y, L))


def _machine_error(est, X, y, multiclass: bool) -> float:
    """The error rate of a fitted IVM or SVM on (X, y): from the sign of f (two classes, f = 0 an error)
    or, with three or more classes, the share of points whose largest multi-logit is not their class
    (Zhu & Hastie 2002, §5: the class M + 1 is the base, f_{M+1} = 0)."""
    if multiclass:
        return float(np.mean(est.predict(X) != y))
    return _error(est.decision_function(X), y)


# ------------------------------------------------------------------------------ the [svm] section
_WARM: set = set()  # the (criteria, L, n_threads) whose kernels this process has run once (untimed)
WARM_POINTS = 12
"""Points of the untimed first run of :func:`svm_rows`'s criteria in each process (see :func:`warm_svm`)."""


def warm_svm(svm: SVMSpec, L=(1.0, 1.0), truth: bool = False, n_threads: int | None = 1) -> bool:
    """Run the criteria of ``svm`` once, untimed, on :data:`WARM_POINTS` points of a 2 × 2 grid, the
    first time this process meets them; returns whether it ran.

    The first call of a numba kernel in a process compiles it (or loads it from the cache): timed
    inside the first replicate, that one-time cost made the first replicate's GACV ten times dearer
    than the others and every criterion's cost relative to GACV an artefact of which ran first.
    """
    from ..tuning import criteria_surface, ran_gacv

    key = (tuple(sorted(svm.criteria)), tuple(map(float, L)), bool(truth), n_threads)
    if key in _WARM:
        return False
    rng = np.random.default_rng(0)
    X = rng.normal(size=(WARM_POINTS, 2))
    y = np.where(np.arange(WARM_POINTS) % 2 == 0, 1.0, -1.0)
    lam, sig = np.asarray(svm.lambdas), np.asarray(svm.sigmas)
    lam2, sig2 = np.array([lam.min(), lam.max()]), np.array([sig.min(), sig.max()])
    p = np.full(WARM_POINTS, 0.5) if truth else None
    crit = set(svm.criteria)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        criteria_surface(X, y, lam2, sig2, L=L, p_true=p, loo="loo" in crit, kfold=min(svm.k, 3) if "kfold" in crit
                         else 0, kfold_seed=0, xa_rho=svm.xa_rho, tol=svm.tol, n_threads=n_threads)
        if "rangacv" in crit:
            from ..kernels import rbf_from_squared_distances, squared_distances

            ran_gacv(rbf_from_squared_distances(squared_distances(X), float(sig2[0])), y, lam2, n_replicates=1,
                     sigma_z=svm.sigma_z, seed=0, tol=svm.tol)
    _WARM.add(key)
    return True


def svm_rows(td: TaskData, svm: SVMSpec, n_threads: int | None = 1) -> list[dict]:
    """Rows of the criteria that choose a (λ, σ) grid point, on one replicate (Wahba et al. 2001, §6).

    The surface (GACV, XA/BRXA, XA (Joachims' R²), GCKL, (BR)MISCLASS, exact LOO, k-fold CV) comes from
    :func:`svmviz.tuning.criteria_surface`, the randomized GACV from :func:`svmviz.tuning.ran_gacv`
    per σ (the same perturbations for every σ and λ). The seconds are timed warm: each process runs
    the criteria once, untimed, on a tiny problem first (:func:`warm_svm`).
    """
    from ..kernels import rbf_from_squared_distances, squared_distances
    from .._surface import grid_minima
    from ..tuning import criteria_surface, criterion_label, grid_decision_function, inefficiency, \
        ran_gacv

    ds = td.train
    crit = list(svm.criteria)
    truth = td.p is not None
    if not truth and ({"gckl", "misclass"} & set(crit)):
        raise SpecError(f"{ds.name}: GCKL and MISCLASS need the true p(x), which this data set does not know.")
    wanted = crit + [c for c in ("gckl", "misclass") if truth and c not in crit]
    lam, sig = np.asarray(svm.lambdas), np.asarray(svm.sigmas)
    warm_svm(svm, td.L, truth, n_threads)  # the seconds below are warm: no compilation inside them
    surf = criteria_surface(ds.X, ds.y, lam, sig, L=td.L, p_true=td.p, loo="loo" in crit,
                            kfold=svm.k if "kfold" in crit else 0, kfold_seed=td.seeds.cv, xa_rho=svm.xa_rho,
                            tol=svm.tol, n_threads=n_threads)
    secs = dict(surf.seconds)
    if "rangacv" in crit:
        t0 = time.perf_counter()
        D = squared_distances(ds.X)
        ran = np.vstack([ran_gacv(rbf_from_squared_distances(D, s), ds.y, lam, n_replicates=svm.rangacv_replicates,
                                  sigma_z=svm.sigma_z, seed=td.seeds.rangacv, tol=svm.tol).mean(axis=0)
                         for s in sig])
        values = {**surf.values, "rangacv": ran}
        best, ties = grid_minima(values)
        surf = surf._replace(values=values, best=best, ties=ties)
        secs["rangacv"] = time.perf_counter() - t0
    shared = secs["fit"] + secs["criteria"]
    cost = {c: shared for c in ("gacv", "xa", "xa_j", "gckl", "misclass")}
    cost.update(loo=shared + secs.get("loo", np.nan), kfold=secs.get("kfold", np.nan),
                rangacv=secs.get("rangacv", np.nan))
    rows, f_test = [], {}
    for c in wanted:
        i, j = surf.best[c]
        row = dict(family="svm", criterion=c,
                   label=f"{svm.k}-fold CV" if c == "kfold" else criterion_label(c, td.L),
                   lam=float(lam[j]), sigma=float(sig[i]), i_sigma=i, j_lambda=j, n_ties=len(surf.ties[c]),
                   criterion_value=float(surf.values[c][i, j]), machine_size=int(surf.n_sv[i, j]),
                   train_error=_error(surf.f_train[i, j], ds.y, td.L), status=int(surf.status[i, j]),
                   seconds=float(cost[c]))
        if truth:
            row["misclass_min"] = float(np.min(surf.values["misclass"]))
            try:
                ie = inefficiency(surf, c, "misclass")
                row.update(inefficiency=ie.value, inefficiency_low=ie.low, inefficiency_high=ie.high)
            except ValueError:  # MISCLASS 0 somewhere on the grid: the ratio is undefined
                pass
        if td.X_test is not None:
            if (i, j) not in f_test:
                f_test[(i, j)] = grid_decision_function(surf, i, j, td.X_test)
            row["test_error"] = _error(f_test[(i, j)], td.y_test, td.L)
        rows.append(row)
    if not truth and td.X_test is not None:
        grid_test = grid_test_errors(surf, td.X_test, td.y_test, td.L)
        best = float(grid_test.min())
        for row in rows:
            row["test_error_min"] = best
            row["test_inefficiency"] = held_out_inefficiency(row["test_error"], best)
    return rows


def grid_test_errors(surf, X_test, y_test, L=(1.0, 1.0)) -> np.ndarray:
    """The (L-weighted) test error of every grid point's solution: shape (n_σ, n_λ).

    Parameters
    ----------
    surf : svmviz.tuning.CriteriaSurface
        The fitted grid (its solutions are evaluated, not refitted).
    X_test : ndarray of shape (m, d)
    y_test : ndarray of shape (m,), ±1
    L : (L(−1), L(+1))

    Returns
    -------
    ndarray of shape (len(surf.sigmas), len(surf.lambdas))
    """
    from ..tuning import grid_decision_function

    out = np.empty((len(surf.sigmas), len(surf.lambdas)))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = _error(grid_decision_function(surf, i, j, X_test), y_test, L)
    return out


def held_out_inefficiency(test_error: float, best: float) -> float:
    """Test error of a criterion's pick over the grid's best test error: the inefficiency measured on
    held-out rows when p(x) is unknown (1 = the pick is as good as any grid point; a grid whose best
    point makes no test error gives 1 for a pick that makes none, NaN otherwise: the ratio is
    undefined)."""
    if best > 0:
        return float(test_error / best)
    return 1.0 if test_error == 0 else float("nan")


# ------------------------------------------------------------------------------ the [irwls] section
def _stage_parameters(clf) -> dict:
    """(coef, intercept) at the end of each IRWLS stage (LS, SVC, USVC) from the fit's history."""
    from ..usvc import STAGES

    h = clf.history_
    out = {}
    for code, stage in enumerate(STAGES):
        rows = np.flatnonzero(h.stage == code)
        if rows.size:
            out[stage] = (h.coef[rows[-1]], float(h.intercept[rows[-1]]))
    return out


def _features(clf, X):
    from ..kernels import gram

    if clf.prototypes_ is None:
        return X
    return gram(X, clf.prototypes_, kernel=clf.kernel_, sigma=clf.sigma)


def _irwls_machines(irw: IRWLSSpec) -> list[tuple]:
    """(row name, stage, s) of every machine the section asks for."""
    out = []
    s0 = irw.s[0]
    if "LS" in irw.methods:
        out.append(("LS", "LS", s0))
    if "SVC" in irw.methods:
        out.append(("SVC", "SVC", s0))
    if "USVC" in irw.methods:
        out += [(f"USVC(s={s:g})", "USVC", s) for s in irw.s]
    return out


def irwls_rows(X, y, X_test, y_test, irw: IRWLSSpec, *, n_prototypes: int | None = None, cv_seed: int = 0,
               L=(1.0, 1.0)) -> list[dict]:
    """Rows of the LS, SVC and USVC machines trained by IRWLS on one replicate (Navia-Vázquez et al. 2004).

    One :class:`svmviz.usvc.IRWLSClassifier` fit with the smooth step gives all three stages (the LS
    start, the SVC from it, the USVC from the SVC), read from its history. When several (C, σ) are
    given, each machine's is chosen by k-fold CV (the folds of :func:`svmviz.criteria.kfold_folds`,
    pooled errors, first minimum) and the machine refitted on the whole training sample.
    """
    from ..usvc import IRWLSClassifier

    machines = _irwls_machines(irw)
    need_usvc = "USVC" in irw.methods
    s_values = list(irw.s) if need_usvc else [irw.s[0]]
    cands = [(C, s) for C in irw.C for s in (irw.sigmas if irw.kernel == "rbf" else (np.nan,))]
    R = (n_prototypes or irw.n_prototypes) if irw.kernel == "rbf" else None
    if R is not None and R > X.shape[0]:
        raise SpecError(f"n_prototypes = {R} exceeds the {X.shape[0]} training points.")
    seconds = {s: 0.0 for s in s_values}

    def fit(Xf, yf, cand, s):
        C, sig = cand
        t0 = time.perf_counter()
        clf = IRWLSClassifier(C=C, loss="smooth_step" if need_usvc else "hinge", s=s, kernel=irw.kernel,
                              sigma=1.0 if np.isnan(sig) else sig, n_prototypes=R, prototypes=irw.prototypes,
                              max_iter=irw.max_iter, random_state=int(cv_seed % 2**31)).fit(Xf, yf)
        seconds[s] += time.perf_counter() - t0
        return clf

    chosen = {m[0]: 0 for m in machines}
    cv_error = {m[0]: [np.nan] * len(cands) for m in machines}
    if len(cands) > 1:
        folds = _criteria.kfold_folds(y, irw.k, cv_seed)
        held = {m[0]: np.zeros((len(cands), y.size)) for m in machines}
        for ci, cand in enumerate(cands):
            for s in s_values:
                for j in range(irw.k):
                    tr, te = folds != j, folds == j
                    clf = fit(X[tr], y[tr], cand, s)
                    par = _stage_parameters(clf)
                    Phi = _features(clf, X[te])
                    for name, stage, s_m in machines:
                        if s_m == s:
                            w, b = par[stage]
                            held[name][ci, te] = Phi @ w + b
        for name in held:
            errs = [_error(held[name][ci], y, L) for ci in range(len(cands))]
            cv_error[name] = errs
            chosen[name] = int(np.argmin(errs))
    rows, fits = [], {}
    for name, stage, s in machines:
        ci = chosen[name]
        if (ci, s) not in fits:
            fits[(ci, s)] = fit(X, y, cands[ci], s)
        clf = fits[(ci, s)]
        w, b = _stage_parameters(clf)[stage]
        C, sig = cands[ci]
        st = clf.status_stages_.get(stage, 0) if stage != "LS" else 0
        row = dict(family="irwls", criterion=name, label=name + ("" if irw.kernel == "linear" else f", R = {R}"),
                   C=float(C), sigma=float(sig), machine_size=int(clf.machine_size_),
                   criterion_value=float(cv_error[name][ci]), train_error=_error(_features(clf, X) @ w + b, y, L),
                   status=int(st != 0), seconds=seconds[s])
        if irw.kernel == "linear" and X.shape[1] == 1 and w[0] != 0:
            row["threshold"] = float(-b / w[0])
        if X_test is not None:
            row["test_error"] = _error(_features(clf, X_test) @ w + b, y_test, L)
        rows.append(row)
    return rows


# ------------------------------------------------------------------------------ the [ivm] section
def ivm_rows(td: TaskData, ivm: IVMSpec, tune_size: int) -> list[dict]:
    """Rows of the IVM and the SVM, both tuned along λ on an independent tuning sample (Zhu & Hastie 2002, §3.4).

    The SVM runs on the IVM's λ grid, λ_SVM = λ/(2n) (:func:`svmviz.ivm.svm_lambda_path`); its
    machine size is its number of support vectors, the IVM's its import points |S|. Data of three
    or more classes get the multi-class IVM (Zhu & Hastie 2002, §5, Fig. 4) and no SVM.
    """
    from ..ivm import ivm_lambda_path, paper_lambdas, svm_lambda_path

    ds = td.train
    if ds.test_sample is None or ds.name in SHIPPED:
        raise SpecError(f"{ds.name}: the [ivm] section needs simulated data (an independent tuning sample).")
    multi = ds.is_multiclass
    if multi and "SVM" in ivm.methods:
        raise SpecError(f"{ds.name} has {ds.n_classes} classes; the SVM is binary — use methods = [\"IVM\"].")
    tune = ds.test_sample(tune_size, td.seeds.tune)
    lams = paper_lambdas() if ivm.lambdas is None else np.asarray(ivm.lambdas)
    rows = []
    if "IVM" in ivm.methods:
        t0 = time.perf_counter()
        path = ivm_lambda_path(ds.X, ds.y, tune.X, tune.y, lams=lams, sigma=ivm.sigma)
        est, b = path.estimator, path.best_index
        row = dict(family="ivm", criterion="IVM", label="IVM (tuning set)", lam=path.best_lam, sigma=ivm.sigma,
                   machine_size=int(path.n_import[b]), tune_error=float(path.tune_error[b]),
                   criterion_value=float(path.tune_error[b]), train_error=_machine_error(est, ds.X, ds.y, multi),
                   status=int(path.status[b] != 0))
        if td.X_test is not None:
            row["test_error"] = _machine_error(est, td.X_test, td.y_test, multi)
        row["seconds"] = time.perf_counter() - t0
        rows.append(row)
    if "SVM" in ivm.methods:
        t0 = time.perf_counter()
        sp = svm_lambda_path(ds.X, ds.y, tune.X, tune.y, lams_ivm=lams, sigma=ivm.sigma)
        b = sp.best_index
        row = dict(family="ivm", criterion="SVM", label="SVM (tuning set)", lam=sp.best_lam, sigma=ivm.sigma,
                   machine_size=int(sp.n_support[b]), tune_error=float(sp.tune_error[b]),
                   criterion_value=float(sp.tune_error[b]),
                   train_error=_error(sp.estimator.decision_function(ds.X), ds.y), status=int(sp.estimator.status_))
        if td.X_test is not None:
            row["test_error"] = _error(sp.estimator.decision_function(td.X_test), td.y_test)
        row["seconds"] = time.perf_counter() - t0
        rows.append(row)
    return rows


# ------------------------------------------------------------------------------ one task
def run_task(spec: StudySpec, index: int, replicate: int, *, n_threads: int | None = 1, csv_arrays=None):
    """All rows of one task (data set ``index``, replicate ``replicate``) as a results table.

    Solver non-convergence is not an error: it is recorded in the ``status`` column.
    """
    td = make_task_data(spec, index, replicate, csv_arrays)
    ds_spec = spec.datasets[index]
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if spec.svm is not None:
            rows += svm_rows(td, spec.svm, n_threads)
        if spec.irwls is not None:
            rows += irwls_rows(td.train.X, td.train.y, td.X_test, td.y_test, spec.irwls,
                               n_prototypes=ds_spec.n_prototypes, cv_seed=td.seeds.cv, L=td.L)
        if spec.ivm is not None:
            rows += ivm_rows(td, spec.ivm, spec.ivm.tune_size)
    common = dict(study=spec.name, dataset=ds_spec.label, dataset_name=ds_spec.name, dataset_index=index,
                  replicate=replicate, seed=td.seeds.data, n=td.train.X.shape[0], d=td.train.X.shape[1],
                  n_test=0 if td.X_test is None else td.X_test.shape[0], L_minus=td.L[0], L_plus=td.L[1],
                  bayes_error=td.bayes_error)
    return rows_to_frame([{**common, **r} for r in rows])
