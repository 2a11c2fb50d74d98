"""Deprecated: one script generator per app page. Each page's script is its view's plan written out,
``plan_script(svmviz.views.<page>.view_plan(ds, …), data_source(ds))``.

Each function takes a page's settings, warns ``DeprecationWarning`` naming its replacement, maps its
arguments onto the page's ``view_plan`` and returns the script the replacement gives. The data set
is the one the script's data cell loads (a CSV file is read from the working folder, as the script
reads it). An argument the view derives from the data set (whether it knows p(x), its number of
features …) must agree with it; an argument the view has no counterpart for raises ``TypeError``
naming what to pass instead. They will be removed in the next release.
"""
from __future__ import annotations

import os
from typing import Sequence

from .. import _aliases
from .core import DataSource, Script, data_cell
from .plan import plan_script


def _warn(old: str, instead: str) -> None:
    _aliases.warn_deprecated(f"svmviz.codegen.{old}", instead, stacklevel=4)


def _dataset(old: str, data):
    """The data set the script's data cell loads: that cell's code, run here."""
    import svmviz

    if not isinstance(data, DataSource):
        raise TypeError(f"{old}: data must be a svmviz.codegen.DataSource (svmviz.codegen.data_source(ds)), got "
                        f"{type(data).__name__}.")
    if data.kind == "csv" and not os.path.isfile(data.name):
        raise FileNotFoundError(f"{old}: the script reads its data from {data.name!r} in the working folder, and "
                                "so does this function; run it beside that file, or call plan_script(view_plan(ds, "
                                "…), data) with the data set itself.")
    ns = {"svmviz": svmviz}
    exec(data_cell(data).code, ns)  # noqa: S102 — the data cell written by data_cell, as the script runs it
    return ns["ds"]


def _settings(old: str, what: str, value, cls):
    """``value`` as the view's settings class ``cls`` (a NamedTuple with the same fields is converted)."""
    if value is None or isinstance(value, cls):
        return value
    if getattr(value, "_fields", None) == cls._fields:
        return cls(*value)
    raise TypeError(f"{old}: {what} must be {cls.__module__}.{cls.__qualname__} (fields {', '.join(cls._fields)}), "
                    f"got {type(value).__name__}.")


def _agree(old: str, given: dict, derived: dict) -> None:
    """Each argument the view derives from the data set (``derived``) equals the one given."""
    for name, value in given.items():
        if value != derived[name]:
            raise ValueError(f"{old}: {name}={value!r}, but the data set gives {derived[name]!r}; the view derives "
                             f"{name} from the data: leave it out and call the replacement.")


def _fixed(old: str, name: str, value, page_value, instead: str) -> None:
    """An argument without a counterpart in the view: only the page's own value is accepted."""
    if value != page_value:
        raise TypeError(f"{old}: {name}={value!r} has no counterpart in the view, which uses {page_value!r}; "
                        f"{instead}.")


def tuning_script(data: DataSource, setting, grid, *, selected: tuple, keys: Sequence[str], truth: bool,
                  two_d: bool, map_axes: dict | None = None) -> Script:
    """The code of the Tuning criteria page. Deprecated: call
    ``plan_script(svmviz.views.tuning.view_plan(ds, setting, grid, selected=selected, map_axes=map_axes), data)``.

    Parameters
    ----------
    data : DataSource
        The page's data set (:func:`svmviz.codegen.data_source`).
    setting : svmviz.views.tuning.Setting
    grid : svmviz.views.tuning.Grid
    selected : (int, int)
        The selected grid point (index of σ, index of λ).
    keys : sequence of str
        The contour panels: :func:`svmviz.views.tuning.plotted_keys` of the data.
    truth, two_d : bool
        Whether the data know p(x) / have two features (as the data set says).
    map_axes : dict, optional
        The plane of the decision curves for data of more than two features.

    Returns
    -------
    Script
        ``plan_script(view_plan(…), data)``.
    """
    from svmviz.views import tuning

    old = "tuning_script"
    _warn(old, "call plan_script(svmviz.views.tuning.view_plan(ds, setting, grid, selected=…, map_axes=…), data)")
    setting = _settings(old, "setting", setting, tuning.Setting)
    grid = _settings(old, "grid", grid, tuning.Grid)
    ds = _dataset(old, data)
    has_truth = ds.p_true is not None
    _agree(old, {"truth": bool(truth), "two_d": bool(two_d), "keys": list(keys)},
           {"truth": has_truth, "two_d": ds.X.shape[1] == 2, "keys": tuning.plotted_keys(has_truth, grid.loo)})
    return plan_script(tuning.view_plan(ds, setting, grid, selected=tuple(selected), map_axes=map_axes), data)


def losses_script(data: DataSource | None, loss_view, curve_view, *, hinge_keys: Sequence[str] = (),
                  misclass_keys: Sequence[str] = (), truth: bool = False) -> Script:
    """The code of the Loss functions & randomized GACV page. Deprecated: call
    ``plan_script(svmviz.views.losses.view_plan(loss_view, ds, curve_view), data)``.

    Parameters
    ----------
    data : DataSource or None
        The page's data set (None: the losses only).
    loss_view : svmviz.views.losses.LossView or None
    curve_view : svmviz.views.losses.CurveView or None
    hinge_keys, misclass_keys : sequence of str
        The panels' criteria: :func:`svmviz.views.losses.curve_keys` of the data (empty without data).
    truth : bool
        Whether the data know p(x) (as the data set says).

    Returns
    -------
    Script
        ``plan_script(view_plan(…), data)``.
    """
    from svmviz.views import losses

    old = "losses_script"
    _warn(old, "call plan_script(svmviz.views.losses.view_plan(loss_view, ds, curve_view), data)")
    loss_view = _settings(old, "loss_view", loss_view, losses.LossView)
    curve_view = _settings(old, "curve_view", curve_view, losses.CurveView)
    ds = None if data is None else _dataset(old, data)
    if ds is None:
        derived = {"truth": False, "hinge_keys": [], "misclass_keys": []}
    else:
        has_truth = ds.p_true is not None
        hinge, mis = losses.curve_keys(has_truth, curve_view)
        derived = {"truth": has_truth, "hinge_keys": list(hinge), "misclass_keys": list(mis)}
    given = {"hinge_keys": list(hinge_keys), "misclass_keys": list(misclass_keys)}
    if ds is not None:
        given["truth"] = bool(truth)
    _agree(old, given, derived)
    return plan_script(losses.view_plan(loss_view, ds, curve_view if ds is not None else None), data)


def path_script(data: DataSource, settings, *, lam: float, test_seed: int | None, two_d: bool,
                max_lines: int = 400, map_axes: dict | None = None) -> Script:
    """The code of the Regularization path page. Deprecated: call
    ``plan_script(svmviz.views.path.view_plan(ds, settings, lam, map_axes=map_axes), data)``.

    Parameters
    ----------
    data : DataSource
        The page's data set.
    settings : svmviz.views.path.Settings
    lam : float
        The λ cursor (λ = m ν).
    test_seed : int or None
        The test sample's seed: :func:`svmviz.views.path.sample_seed` of the data.
    two_d : bool
        Whether the data have two features (as the data set says).
    max_lines : int
        Coefficient paths drawn at most: the view's ``MAX_LINES`` only.
    map_axes : dict, optional
        The boundary map's plane for data of more than two features.

    Returns
    -------
    Script
        ``plan_script(view_plan(…), data)``.
    """
    from svmviz.views import path

    old = "path_script"
    _warn(old, "call plan_script(svmviz.views.path.view_plan(ds, settings, lam, map_axes=…), data)")
    settings = _settings(old, "settings", settings, path.Settings)
    _fixed(old, "max_lines", max_lines, path.MAX_LINES, "leave it out")
    ds = _dataset(old, data)
    _agree(old, {"test_seed": test_seed, "two_d": bool(two_d)},
           {"test_seed": path.sample_seed(ds), "two_d": ds.X.shape[1] == 2})
    return plan_script(path.view_plan(ds, settings, float(lam), map_axes=map_axes), data)


def usvc_script(data: DataSource | None, one_d=None, *, steps: int | None = None, table1=None, kernel=None,
                test_seed: int | None = None, seed: int = 0, two_d: bool = False,
                map_axes: dict | None = None) -> Script:
    """The code of the Unbiased SVC page. Deprecated: call ``plan_script(svmviz.views.usvc.view_plan(ds,
    one_d, steps=steps, table1=table1, kernel=KernelSettings(…), map_axes=map_axes), data)``.

    Parameters
    ----------
    data : DataSource or None
        The sidebar's data set.
    one_d : svmviz.views.usvc.Settings1D or None
    steps : int, optional
        The IRWLS iterates shown on the error surfaces.
    table1 : svmviz.views.usvc.Table1Settings or None
    kernel : (float, float, int, float, str) or None
        The kernel section's (σ, C, R prototypes, s, prototype method):
        :class:`svmviz.views.usvc.KernelSettings` with ``seed`` and ``test`` (``test_seed`` not None).
    test_seed : int or None
        With ``kernel``: ``seed`` when the test sample is 2,000 new points, None for 30 % held out.
    seed : int
        The kernel section's seed.
    two_d : bool
        Whether the data have two features (as the data set says).
    map_axes : dict, optional
        The kernel section's maps' plane for data of more than two features.

    Returns
    -------
    Script
        ``plan_script(view_plan(…), data)``.
    """
    from svmviz.views import usvc

    old = "usvc_script"
    _warn(old, "call plan_script(svmviz.views.usvc.view_plan(ds, one_d, steps=…, table1=…, kernel=KernelSettings(…), "
               "map_axes=…), data)")
    one_d = _settings(old, "one_d", one_d, usvc.Settings1D)
    table1 = _settings(old, "table1", table1, usvc.Table1Settings)
    ds = None if data is None else _dataset(old, data)
    ks = None
    if kernel is not None:
        if ds is None:
            raise TypeError(f"{old}: the kernel section computes on the sidebar's data set; pass data.")
        if test_seed is not None and int(test_seed) != int(seed):
            raise TypeError(f"{old}: test_seed={test_seed!r} differs from seed={seed!r}; the view draws the test "
                            "sample with the section's seed: pass KernelSettings(…, seed, test=True).")
        sigma, C, R, s, method = kernel
        ks = usvc.KernelSettings(float(sigma), float(C), int(R), float(s), method, int(seed), test_seed is not None)
        _agree(old, {"two_d": bool(two_d)}, {"two_d": ds.X.shape[1] == 2})
    reads_ds = ks is not None or (one_d is not None and one_d.source == "sidebar")
    return plan_script(usvc.view_plan(ds, one_d, steps=steps, table1=table1, kernel=ks, map_axes=map_axes),
                       data if reads_ds else None)


def ivm_script(data: DataSource, settings, *, lam_index: int, seed: int, fresh: bool, multiclass: bool,
               two_d: bool, truth: bool, klr: bool, maps: bool = True, lam_path: bool = True,
               classes3: bool = True, source: str = "path", ln_lambda3: float = -1.0,
               map_axes: dict | None = None) -> Script:
    """The code of the Import vector machine page. Deprecated: call ``plan_script(svmviz.views.ivm.view_plan(ds,
    settings, seed=seed, lam_index=lam_index, source=source, ln_lambda3=ln_lambda3, map_axes=map_axes), data)``.

    Parameters
    ----------
    data : DataSource
        The page's data set.
    settings : svmviz.views.ivm.Settings
    lam_index : int
        The λ of the maps (index into the path's grid).
    seed : int
        The seed of the tuning / test samples (or of the split).
    fresh, multiclass, two_d, truth, klr : bool
        As the data set says: new tuning and test samples from its law, more than two classes, two
        features, a known p(x), the full KLR path (at most ``KLR_MAX_N`` training points).
    maps, lam_path, classes3 : bool
        The tabs drawn: every tab's figures only (the view's script draws them all).
    source : {"path", "scratch"}
        The maps' IVM.
    ln_lambda3 : float
        ln λ of the 3-class example beside two-class data.
    map_axes : dict, optional
        The maps' plane for data of more than two features.

    Returns
    -------
    Script
        ``plan_script(view_plan(…), data)``.
    """
    from svmviz.views import ivm

    old = "ivm_script"
    _warn(old, "call plan_script(svmviz.views.ivm.view_plan(ds, settings, seed=…, lam_index=…, source=…, "
               "ln_lambda3=…, map_axes=…), data)")
    settings = _settings(old, "settings", settings, ivm.Settings)
    for name, value in (("maps", maps), ("lam_path", lam_path), ("classes3", classes3)):
        _fixed(old, name, bool(value), True, "the view's script draws every tab's figures; to show one tab's "
                                             "first, pass open_tab= to plan_script")
    ds = _dataset(old, data)
    _agree(old, {"fresh": bool(fresh), "multiclass": bool(multiclass), "two_d": bool(two_d), "truth": bool(truth),
                 "klr": bool(klr)},
           {"fresh": ds.test_sample is not None, "multiclass": bool(ds.is_multiclass), "two_d": ds.X.shape[1] == 2,
            "truth": ds.p_true is not None, "klr": ivm.n_train(ds, seed) <= ivm.KLR_MAX_N})
    return plan_script(ivm.view_plan(ds, settings, seed=int(seed), lam_index=int(lam_index), source=source,
                                     ln_lambda3=float(ln_lambda3), map_axes=map_axes), data)


def anova_script(data: DataSource, settings, *, kernel_labels: dict, test_seed: int | None, n_test: int,
                 truth: bool, decomposition: dict | None = None, theta: dict | None = None) -> Script:
    """The code of the Kernels & variable selection page. Deprecated: call
    ``plan_script(svmviz.views.anova.view_plan(ds, settings, test_seed=test_seed, decomposition=Decomposition(…),
    theta=ThetaGrid(…), interaction=…), data)``.

    Parameters
    ----------
    data : DataSource
        The page's data set.
    settings : svmviz.views.anova.Settings
    kernel_labels : dict
        Label of each kernel choice: the view's ``SHORT`` only.
    test_seed : int or None
        Seed of the test sample.
    n_test : int
        Size of the test sample: the view's ``N_TEST`` only.
    truth : bool
        Whether the data know p(x) (as the data set says).
    decomposition : dict, optional
        ``q``, ``machine``, ``lam`` (a λ index; a criterion's name has no counterpart: pass the index
        of the λ it chose), ``measure``, ``pairs``, ``true_effects`` with ``interaction``:
        :class:`svmviz.views.anova.Decomposition` and ``view_plan``'s ``interaction``.
    theta : dict, optional
        ``coordinate``, ``criterion`` (:class:`svmviz.views.anova.ThetaGrid`), ``scales``: the view's
        ``THETA_SCALES`` only.

    Returns
    -------
    Script
        ``plan_script(view_plan(…), data)``.
    """
    from svmviz.views import anova

    old = "anova_script"
    _warn(old, "call plan_script(svmviz.views.anova.view_plan(ds, settings, test_seed=…, decomposition=Decomposition("
               "…), theta=ThetaGrid(…), interaction=…), data)")
    settings = _settings(old, "settings", settings, anova.Settings)
    _fixed(old, "n_test", n_test, anova.N_TEST, "leave it out")
    labels = {k: anova.SHORT[k] for k in settings.kernels if k in anova.SHORT}
    _fixed(old, "kernel_labels", dict(kernel_labels), labels, "leave it out (the view names each kernel by SHORT)")
    dc, interaction = None, None
    if decomposition is not None:
        d = dict(decomposition)
        j = d["lam"]
        if isinstance(j, str) or not float(j).is_integer():
            raise TypeError(f"{old}: decomposition['lam']={j!r}: the view takes the λ's index on the grid; pass the "
                            "index of the λ the criterion chose as Decomposition(q, machine, j, lambdas[j], …).")
        j = int(j)
        dc = anova.Decomposition(int(d["q"]), d["machine"], j, float(settings.lambdas[j]), d["measure"],
                                 tuple(d.get("pairs", ())))
        if d.get("true_effects"):
            interaction = float(d["interaction"])
    th = None
    if theta is not None:
        t = dict(theta)
        if "scales" in t:
            _fixed(old, "theta['scales']", tuple(t["scales"]), tuple(anova.THETA_SCALES), "leave it out")
        th = anova.ThetaGrid(int(t["coordinate"]), t["criterion"])
    ds = _dataset(old, data)
    _agree(old, {"truth": bool(truth)}, {"truth": ds.p_true is not None})
    return plan_script(anova.view_plan(ds, settings, test_seed=test_seed, decomposition=dc, theta=th,
                                       interaction=interaction), data)


def studies_script(spec_name: str, n_figures: int) -> Script:
    """The code of the Criteria studies page. Deprecated: call
    ``plan_script(svmviz.views.studies.view_plan(spec_name, n_figures), None)``.

    Parameters
    ----------
    spec_name : str
        The study's name (its spec file is ``<spec_name>.toml``).
    n_figures : int
        The charts the page draws.

    Returns
    -------
    Script
        ``plan_script(view_plan(spec_name, n_figures), None)``.
    """
    from svmviz.views import studies

    _warn("studies_script", "call plan_script(svmviz.views.studies.view_plan(spec_name, n_figures), None)")
    return plan_script(studies.view_plan(spec_name, n_figures), None)


def study_command(name: str) -> str:
    """Deprecated: call :func:`svmviz.views.studies.study_command`, which this returns.

    Parameters
    ----------
    name : str
        As :func:`svmviz.views.studies.study_command` takes it.

    Returns
    -------
    str
    """
    from svmviz.views import studies

    _warn("study_command", "call svmviz.views.studies.study_command")
    return studies.study_command(name)
