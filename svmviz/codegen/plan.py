"""A view's :class:`~svmviz.views.Plan` written as a :class:`~svmviz.codegen.core.Script`.

Each step becomes a line ``bind = func(args…)``; a step with a ``doc`` opens a cell. The imports are
derived from the function objects the plan holds (their public module: the first module up from
``__module__`` without a private part that offers the same object), so the script calls exactly the
functions the page calls.
"""
from __future__ import annotations

import importlib

import numpy as np

from svmviz.views import Call, Plan, Ref

from .core import Cell, Code, DataSource, Script, call, data_cell, literal

#: modules the script imports under their customary alias
ALIASES = {"numpy": "np", "pandas": "pd"}


def public_import(func) -> tuple:
    """``(module, name)``: where a script imports ``func`` from.

    Parameters
    ----------
    func : function or class
        A module-level function or class of svmviz, numpy or the builtins.

    Returns
    -------
    (str, str)
        The module and the name: ``getattr(import_module(module), name) is func``.

    Notes
    -----
    The module is the shortest subpackage (two dotted parts or more) on the way down ``func.__module__``
    whose attribute ``func.__qualname__`` is ``func`` itself, above any private part (``_grid``), else the
    top package; builtins have the module ``"builtins"``.

    Raises
    ------
    ValueError
        ``func`` is a method, or no public module offers it.

    Examples
    --------
    >>> import numpy as np
    >>> from svmviz.figures.tuning import compute_contour
    >>> public_import(compute_contour)
    ('svmviz.figures.tuning', 'compute_contour')
    >>> public_import(np.logspace)
    ('numpy', 'logspace')
    >>> public_import(np.exp)
    ('numpy', 'exp')
    """
    module, name = getattr(func, "__module__", None), getattr(func, "__qualname__", None)
    if isinstance(func, np.ufunc):  # numpy < 2 gives its ufuncs neither __module__ nor __qualname__
        module, name = "numpy", func.__name__
    if not module or not name or "." in name:
        raise ValueError(f"public_import: {func!r} is not a module-level function or class; a plan calls those.")
    parts = module.split(".")
    if parts[0] in ALIASES and getattr(importlib.import_module(parts[0]), name, None) is func:
        return parts[0], name
    cut = next((i for i, p in enumerate(parts) if p.startswith("_") and p != "builtins"), len(parts))
    for k in list(range(min(2, cut), cut + 1)) + [1]:
        candidate = ".".join(parts[:k])
        if k and getattr(importlib.import_module(candidate), name, None) is func:
            return candidate, name
    raise ValueError(f"public_import: no public module of {module!r} offers {name!r}; export it from the "
                     "subpackage's facade.")


class _Names:
    """The script's name of each function, and the imports that bring them."""

    def __init__(self, plan: Plan):
        self.local: dict = {}      # id(func) -> name in the script
        self.imports: dict = {}    # module -> {name: local}
        self.funcs: dict = {}      # local name -> func
        for step in plan.steps:
            for c in _calls(step.expr):
                if not isinstance(c.func, Ref):
                    self.add(c.func)
            if step.table:
                self.add(_data_frame())

    def add(self, func) -> None:
        if id(func) in self.local:
            return
        module, name = public_import(func)
        if module == "builtins":
            local = name
        elif module in ALIASES:
            local = f"{ALIASES[module]}.{name}"
        else:
            local = name
            if local in self.funcs and self.funcs[local] is not func:
                local = f"{module.rsplit('.', 1)[-1]}_{name}"
            self.imports.setdefault(module, {})[name] = local
        self.local[id(func)] = local
        self.funcs[local] = func

    def code(self) -> str:
        lines = [f"import {m} as {a}" for m, a in ALIASES.items() if any(n.startswith(a + ".") for n in self.funcs)]
        lines += ["", "import svmviz"]
        for module in sorted(self.imports):
            names = [n if n == loc else f"{n} as {loc}" for n, loc in self.imports[module].items()]
            one = f"from {module} import {', '.join(names)}"
            lines.append(one if len(one) <= 110 else
                         f"from {module} import (\n" + "".join(f"    {n},\n" for n in names) + ")")
        return "\n".join(lines).lstrip("\n")


def _data_frame():
    """``pandas.DataFrame``, what the script prints a table with (pandas loaded for a plan with a table only)."""
    import pandas as pd

    return pd.DataFrame


def _calls(expr) -> list:
    from svmviz.views import calls

    return calls(expr)


def _expression(expr, names: _Names) -> str:
    """Python source of a plan expression (calls, references, literals and containers of them)."""
    if isinstance(expr, Ref):
        return expr.text
    if isinstance(expr, Call):
        func = expr.func.text if isinstance(expr.func, Ref) else names.local[id(expr.func)]
        return call(func, *(Code(_expression(a, names)) for a in expr.args),
                    **{k: Code(_expression(v, names)) for k, v in expr.kwargs})
    if isinstance(expr, list):
        return "[" + ", ".join(_expression(v, names) for v in expr) + "]"
    if isinstance(expr, tuple) and not hasattr(expr, "_fields"):
        items = [_expression(v, names) for v in expr]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(expr, dict):
        return "{" + ", ".join(f"{literal(k)}: {_expression(v, names)}" for k, v in expr.items()) + "}"
    return literal(expr)


def plan_script(plan: Plan, data: DataSource | None, *, open_tab: str | None = None) -> Script:
    """The script of a view: imports, the data, then one line per step of ``plan``.

    Parameters
    ----------
    plan : svmviz.views.Plan
        The view's plan; its only input is the data set ``ds``, if any.
    data : DataSource or None
        Where ``ds`` comes from (:func:`svmviz.codegen.data_source`); None for a plan without data.
    open_tab : str, optional
        The page's open tab: its figures are shown first.

    Returns
    -------
    Script
        A cell per step with a ``doc`` (the steps without one join it); every figure of the plan drawn,
        every table printed.

    Raises
    ------
    ValueError
        An input other than ``ds``, or ``ds`` without ``data``.
    """
    extra = set(plan.inputs) - {"ds"}
    if extra or ("ds" in plan.inputs) != (data is not None):
        raise ValueError(f"plan_script: the plan's inputs {list(plan.inputs)} need a DataSource for 'ds' (and no "
                         "other input); give data= for a plan that reads ds, None otherwise.")
    names = _Names(plan)
    cells = [Cell("Imports.", names.code())]
    if data is not None:
        cells.append(data_cell(data))
    doc, lines, show = None, [], []
    for step in plan.steps:
        if step.doc is not None and lines:
            cells.append(Cell(doc, "\n".join(lines), tuple(show)))
            lines, show = [], []
        if step.doc is not None:
            doc = step.doc
        lines.append(f"{step.bind} = {_expression(step.expr, names)}")
        if step.table:
            lines.append(f"print({names.local[id(_data_frame())]}({step.bind}).to_string(index=False))")
        if step.figure is not None:
            show.append(step.bind)
    if lines:
        cells.append(Cell(doc or "", "\n".join(lines), tuple(show)))
    return Script(plan.title, tuple(cells), () if data is None else data.files, plan.figures(open_tab))
