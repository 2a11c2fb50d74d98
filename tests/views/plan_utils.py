"""Helpers of the plan tests: read a rendered script back and compare it with its plan, compare two
figures."""
from __future__ import annotations

import ast

import plotly.io as pio

from svmviz.views import Call, Ref


def script_assignments(text: str) -> tuple[dict, list]:
    """The namespace the script's import lines make, and its ``name = value`` statements in order."""
    tree = ast.parse(text)
    ns: dict = {}
    assigns = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            exec(compile(ast.Module([node], []), "<imports>", "exec"), ns)  # noqa: S102 — the imports only
        elif isinstance(node, ast.Assign):
            (target,) = node.targets
            assigns.append((target.id, node.value))
    return ns, assigns


def assert_matches(node, expr, ns, where: str) -> None:
    """The source ``node`` is the plan expression ``expr``: the same function objects, references,
    literals (every digit) and containers."""
    if isinstance(expr, Call):
        assert isinstance(node, ast.Call), (where, ast.unparse(node))
        if isinstance(expr.func, Ref):
            assert ast.unparse(node.func) == expr.func.text, where
        else:
            assert eval(compile(ast.Expression(node.func), "<f>", "eval"), ns) is expr.func, \
                (where, ast.unparse(node.func))  # noqa: S307
        assert len(node.args) == len(expr.args), (where, ast.unparse(node))
        for a, e in zip(node.args, expr.args):
            assert_matches(a, e, ns, where)
        assert [k.arg for k in node.keywords] == [k for k, _ in expr.kwargs], (where, ast.unparse(node))
        for k, (_, e) in zip(node.keywords, expr.kwargs):
            assert_matches(k.value, e, ns, f"{where}.{k.arg}")
    elif isinstance(expr, Ref):
        assert ast.unparse(node) == expr.text, where
    elif isinstance(expr, list):
        assert isinstance(node, ast.List) and len(node.elts) == len(expr), where
        for a, e in zip(node.elts, expr):
            assert_matches(a, e, ns, where)
    elif isinstance(expr, tuple):
        assert isinstance(node, ast.Tuple) and len(node.elts) == len(expr), where
        for a, e in zip(node.elts, expr):
            assert_matches(a, e, ns, where)
    elif isinstance(expr, dict):
        assert isinstance(node, ast.Dict) and len(node.keys) == len(expr), where
        assert [ast.literal_eval(k) for k in node.keys] == list(expr), where
        for a, e in zip(node.values, expr.values()):
            assert_matches(a, e, ns, where)
    else:
        value = ast.literal_eval(node)
        assert type(value) is type(expr) and value == expr, (where, value, expr)


def assert_script_is_plan(the_plan, script) -> None:
    ns, assigns = script_assignments(script.python())
    assigns = [(n, v) for n, v in assigns if n != "ds"]  # the data cell (tests/codegen)
    assert [n for n, _ in assigns] == [s.bind for s in the_plan.steps]
    for (name, node), step in zip(assigns, the_plan.steps):
        assert_matches(node, step.expr, ns, name)
    assert script.figures == the_plan.figures()


def same_figures(a, b) -> bool:
    """Whether two Plotly figures serialise alike (every number, every text)."""
    return pio.to_json(a) == pio.to_json(b)
