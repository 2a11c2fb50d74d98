"""The Unbiased SVC view (svmviz.views.usvc): its plan, the script written of it, and what the plan
computes, in this process."""
from __future__ import annotations

import numpy as np
import pytest

import svmviz
from svmviz import codegen
from svmviz.figures.usvc import compute_trajectory
from svmviz.usvc import IRWLSClassifier
from svmviz.views.usvc import KernelSettings, Settings1D, Table1Settings, surface_window, view_plan

from .plan_utils import assert_script_is_plan

ONE_D = Settings1D("B", 100, 2, 3.0, 4.0, 1e-3, 0.3)
TABLE1 = Table1Settings("A", 2, 50, 50, 10.0, 1)
KERNEL = KernelSettings(0.75, 10.0, 5, 3.0, "fscl", 2, True)


def _data(name, n=40):
    return svmviz.make_dataset(name, n=n, seed=2)


CASES = [("esl_mixture", ONE_D, 3, TABLE1, KERNEL, None),
         ("twonorm", ONE_D._replace(source="sidebar", along="components"), None, None, KERNEL,
          {"kind": "features", "axes": (1, 6)}),
         ("twonorm", ONE_D._replace(source="sidebar", along=3), 2, None, KERNEL._replace(test=False), None),
         (None, ONE_D, None, TABLE1, None, None)]


def _script(ds, p):
    return codegen.plan_script(p, None if ds is None else codegen.data_source(ds))


@pytest.mark.parametrize("name, one_d, steps, table1, kernel, axes", CASES)
def test_the_script_calls_are_the_plans_steps(name, one_d, steps, table1, kernel, axes):
    ds = None if name is None else _data(name)
    p = view_plan(ds, one_d, steps=steps, table1=table1, kernel=kernel, map_axes=axes)
    assert_script_is_plan(p, _script(ds, p))
    figures = set(p.figures())
    assert ("fig_usvc_dens" in figures) == (one_d.source != "sidebar")
    assert ("fig_usvc_kernel" in figures) == (name == "esl_mixture" or axes is not None)
    assert ("fig_usvc_t1_fig" in figures) == (table1 is not None)
    assert p.inputs == (() if name is None else ("ds",))


def test_the_surface_window_holds_the_points_and_every_iterate():
    ds = svmviz.make_dataset("usvc_A", n=100, seed=0)
    traj = compute_trajectory(IRWLSClassifier(C=10.0, loss="smooth_step").fit(ds.X, ds.y))
    (lo, hi), w_max = surface_window(ds.X, traj)
    inside = np.concatenate([ds.X[:, 0], traj.th[np.isfinite(traj.th)]])
    assert lo < inside.min() and hi > inside.max()
    assert w_max >= 1.6 * np.nanmax(traj.w) and w_max >= 20.0 / np.ptp(ds.X[:, 0])
    with pytest.raises(ValueError, match="shape"):
        surface_window(np.c_[ds.X, ds.X], traj)


def test_a_section_on_the_sidebar_data_without_data_is_refused():
    with pytest.raises(ValueError, match="needs a data set"):
        view_plan(None, kernel=KERNEL)
    with pytest.raises(ValueError, match="needs a data set"):
        view_plan(None, ONE_D._replace(source="sidebar"))
    with pytest.raises(ValueError, match="source"):
        view_plan(None, ONE_D._replace(source="C"))
