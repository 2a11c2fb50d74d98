"""Plans (svmviz.views): their checks, the executor, and the script svmviz.codegen.plan_script writes
of them — the script's calls are the plan's steps, and the names it imports are the plan's functions."""
from __future__ import annotations

import numpy as np
import pytest

import svmviz
from svmviz import codegen
from svmviz.codegen import public_import
from svmviz.views import Executor, Step, call, plan, ref

from .plan_utils import assert_script_is_plan


def test_a_small_plan_is_rendered_call_for_call_and_executed():
    p = plan("demo", ["x"], [Step("grid", call(np.logspace, -2.0, 1.0, 4), "A grid."),
                             Step("m", call(np.mean, ref("grid")), None),
                             Step("pair", (ref("m"), ref("x", 1)), "A pair.")])
    script = codegen.plan_script(plan("demo", [], p.steps[:2]), None)
    assert_script_is_plan(plan("demo", [], p.steps[:2]), script)
    assert "import numpy as np" in script.python()
    out = Executor({"x": [5, 7]}).run(p)
    assert out["pair"] == (pytest.approx(np.mean(np.logspace(-2, 1, 4))), 7)


def test_a_plan_refuses_reading_before_binding_binding_twice_and_a_first_step_without_doc():
    with pytest.raises(ValueError, match="before anything binds 'b'"):
        plan("t", [], [Step("a", call(np.mean, ref("b")), "a")])
    with pytest.raises(ValueError, match="bound twice"):
        plan("t", [], [Step("a", 1, "a"), Step("a", 2)])
    with pytest.raises(ValueError, match="give it a doc"):
        plan("t", [], [Step("a", 1)])
    with pytest.raises(ValueError, match="fig_curves"):
        plan("t", [], [Step("curves", 1, "a", figure="curves")])
    with pytest.raises(TypeError, match="not callable"):
        call(3, 1)
    with pytest.raises(ValueError, match="dotted"):
        ref("ds X")


def test_the_executor_evaluates_only_what_a_value_needs_and_each_step_once():
    seen = []

    def f(v):
        seen.append(v)
        return v + 1

    p = plan("t", [], [Step("a", call(f, 1), "a"), Step("b", call(f, ref("a"))), Step("c", call(f, 100))])
    ex = Executor({})
    assert ex.value(p, "b") == 3 and seen == [1, 2]
    p2 = plan("t", [], p.steps + (Step("d", call(f, ref("b"))),))
    assert ex.value(p2, "d") == 4 and seen == [1, 2, 3]  # a and b are not evaluated again
    p3 = plan("t", [], (Step("a", call(f, 10), "a"),) + p.steps[1:])
    assert ex.value(p3, "b") == 12 and seen == [1, 2, 3, 10, 11]  # a changed step, and what reads it, are


def test_references_read_attributes_items_and_slices():
    p = plan("t", ["x"], [Step("head", ref("x", slice(None, 2)), "The first two."),
                          Step("last", call(float, ref("x", 2)))])
    assert Executor({"x": [1.0, 2.0, 3.0]}).run(p) == {"head": [1.0, 2.0], "last": 3.0}
    code = codegen.plan_script(plan("t", [], [Step("x", [1.0, 2.0, 3.0], "x")] + list(p.steps)), None).python()
    assert "head = x[:2]\nlast = float(x[2])" in code


def test_cached_steps_go_through_the_runner_keyed_by_content_and_provenance():
    asked = []

    def runner(step, compute, key):
        asked.append((step.bind, key))
        return compute(lambda *a: None)

    def with_progress(v, *, progress):
        progress(1, 1, "")
        return set(v.tolist())  # a result that is not plain data

    steps = [Step("x2", call(np.multiply, ref("ds.X"), 2.0), "x"),
             Step("r", call(with_progress, ref("x2")), cache="r", progress="working", reports=True),
             Step("s", call(len, ref("r")), cache="s"),
             Step("t", call(len, ref("ds")), cache="t")]

    class Data:
        X = np.arange(3.0)

        def __len__(self):
            return 3

    p = plan("t", ["ds"], steps)
    assert Executor({"ds": Data()}, runner=runner, tokens={"ds": "tok"}).run(p) == \
        {"x2": pytest.approx([0, 2, 4]), "r": {0.0, 2.0, 4.0}, "s": 3, "t": 3}
    keys = dict(asked)
    np.testing.assert_array_equal(keys["r"][1][2][0], [0.0, 2.0, 4.0])  # a plain argument: by its content
    assert keys["s"][1][2][0][0] == "ref"  # a result object: by the key of what made it
    assert keys["t"][1][2][0] == ("ref", ("input", "ds", "tok"), ())
    with pytest.raises(ValueError, match="token for the input 'ds'"):
        Executor({"ds": Data()}, runner=runner).value(p, "t")


def test_the_script_shows_the_open_tabs_figures_first():
    p = plan("t", [], [Step("fig_a", 1, "a", figure="a", tab="one"), Step("fig_b", 2, "b", figure="b", tab="two")])
    assert p.figures() == ("fig_a", "fig_b") and p.figures("two") == ("fig_b", "fig_a")
    assert codegen.plan_script(p, None, open_tab="two").python().rstrip().endswith("fig_b.show()\n    fig_a.show()")


def test_public_import_names_the_object_itself_above_private_modules():
    from svmviz.figures.tuning import compute_contour

    assert public_import(svmviz.criteria_surface) == ("svmviz", "criteria_surface")
    assert public_import(compute_contour) == ("svmviz.figures.tuning", "compute_contour")
    assert public_import(svmviz.data.wahba_costs) == ("svmviz.data", "wahba_costs")
    assert public_import(range) == ("builtins", "range")

    def local():
        pass

    with pytest.raises(ValueError, match="module-level"):
        public_import(local)


def test_a_numpy_ufunc_is_imported_from_numpy_and_keyed_by_its_name():
    """numpy's ufuncs (np.exp) are plan functions too; numpy < 2 gives them neither ``__module__`` nor
    ``__qualname__``, so their import and cache key come from the ufunc's own name."""
    from svmviz.views import qualified_name

    for f in (np.exp, np.log1p, np.add):
        assert public_import(f) == ("numpy", f.__name__)
        assert qualified_name(f) == f"numpy.{f.__name__}"
    p = plan("t", [], [Step("x", call(np.linspace, 0.0, 1.0, 3), "Three points."),
                       Step("e", call(np.exp, ref("x")), "Their exponential.")])
    assert "e = np.exp(x)" in codegen.plan_script(p, None).python()


def test_a_step_is_evaluated_again_when_a_step_it_reads_differs_between_plans():
    """Two plans in one executor: the same downstream step over a changed upstream step is not the
    first plan's value (a page draws a chart before and after a slow step it then adds)."""
    first = plan("t", ["x"], [Step("m", call(np.mean, ref("x")), "The mean."), Step("s", call(np.sqrt, ref("m")))])
    second = plan("t", ["x"], [Step("m", call(np.max, ref("x")), "The largest."), Step("s", call(np.sqrt, ref("m")))])
    ex = Executor({"x": np.array([1.0, 10.0, 16.0])})
    assert float(ex.value(first, "s")) == 3.0
    assert float(ex.value(second, "s")) == 4.0
    assert float(ex.value(first, "s")) == 3.0
    assert ex.key(first, "s") != ex.key(second, "s")
