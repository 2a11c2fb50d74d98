"""Plans: a view's ordered steps, the function objects with their arguments, and the executor.

A :class:`Plan` is data: each :class:`Step` binds a name to an expression — a :class:`Call` of a
function object (a ``compute_*`` / ``plot_*`` function, an estimator, :func:`svmviz.tuning.criteria_surface`…)
whose arguments are literals, :class:`Ref` s to the plan's inputs and earlier steps, or nested
calls. The app's page evaluates the plan (:class:`Executor`); :func:`svmviz.codegen.plan_script`
writes the same plan as a script. Nothing here imports Streamlit.
"""
from __future__ import annotations

from typing import Callable, Iterable, NamedTuple

import numpy as np


class Ref(NamedTuple):
    """A reference to a plan input or an earlier step's result, with an attribute path.

    Attributes
    ----------
    name : str
        The input's or the step's bound name (``"ds"``, ``"surf"``).
    attrs : tuple of str, int or slice
        Attributes (str) or items (int, slice) read from it in turn: ``Ref("ds", ("X",))`` is ``ds.X``,
        ``Ref("costs", (2,))`` is ``costs[2]``, ``Ref("ds", ("feature_names", slice(None, 2)))`` is
        ``ds.feature_names[:2]``.
    """

    name: str
    attrs: tuple = ()

    @property
    def text(self) -> str:
        """The reference as Python source (``ds.X``, ``costs[2]``)."""
        return self.name + "".join(f".{a}" if isinstance(a, str) else f"[{_item_text(a)}]" for a in self.attrs)


def _item_text(item) -> str:
    if isinstance(item, slice):
        parts = ["" if v is None else str(int(v)) for v in (item.start, item.stop, item.step)]
        return ":".join(parts[:2] if item.step is None else parts)
    return str(int(item))


def ref(path: str, *items) -> Ref:
    """``Ref`` of a dotted path, then of items: ``ref("ds.X")`` is ``Ref("ds", ("X",))``.

    Parameters
    ----------
    path : str
        The bound name and its attributes, dotted.
    *items : int or slice
        Items read after the attributes.

    Returns
    -------
    Ref

    Raises
    ------
    ValueError
        ``path`` is not a dotted Python name.
    TypeError
        An item is neither a whole number nor a slice.

    Examples
    --------
    >>> ref("ds.feature_names").text
    'ds.feature_names'
    >>> ref("costs", 2).text
    'costs[2]'
    >>> ref("ds.feature_names", slice(None, 2)).text
    'ds.feature_names[:2]'
    """
    if not isinstance(path, str) or not path or not all(p.isidentifier() for p in path.split(".")):
        raise ValueError(f"ref: {path!r} is not a dotted Python name; give e.g. 'ds.X'.")
    if not all((isinstance(i, int) and not isinstance(i, bool)) or isinstance(i, slice) for i in items):
        raise TypeError(f"ref: items {items!r} must be whole numbers or slices.")
    head, *attrs = path.split(".")
    return Ref(head, tuple(attrs) + tuple(items))


class Call(NamedTuple):
    """A call of a function object with arguments (literals, :class:`Ref` s, nested :class:`Call` s,
    or lists / tuples / dicts of them).

    Attributes
    ----------
    func : callable or Ref
        The function itself (the script imports it by its public path), or a :class:`Ref` to a callable
        attribute (``ds.p_true``).
    args : tuple
    kwargs : tuple of (str, value)
        Keyword arguments, in the order the script writes them.
    """

    func: object
    args: tuple = ()
    kwargs: tuple = ()


def call(func, *args, **kwargs) -> Call:
    """``Call(func, args, kwargs)``: the call ``func(*args, **kwargs)`` as plan data.

    Parameters
    ----------
    func : callable or Ref
        The function object (or a reference to a callable value).
    *args, **kwargs
        Its arguments: literals, :class:`Ref` s, :class:`Call` s, or lists, tuples and dicts of them.

    Returns
    -------
    Call

    Raises
    ------
    TypeError
        ``func`` is neither callable nor a :class:`Ref`.
    """
    if not (callable(func) or isinstance(func, Ref)):
        raise TypeError(f"call: {func!r} is not callable; give the function itself or a Ref to one.")
    return Call(func, tuple(args), tuple(kwargs.items()))


class Step(NamedTuple):
    """One step of a plan: ``bind = expr``.

    Attributes
    ----------
    bind : str
        The name the result is bound to (a figure's is ``fig_<chart key>``).
    expr : Call, Ref or literal
        What is computed.
    doc : str or None
        What the step does, in one markdown line citing the paper and equation (the script's ``# %%``
        line, the notebook's markdown cell); None continues the previous step's cell.
    figure : str or None
        The key of the chart the result is (the page draws it under this key, the script binds
        ``fig_<figure>``); None for a value.
    tab : str or None
        The page tab the step belongs to (None: no tab).
    cache : str or None
        For a heavy step: the name its results are kept under in the app's cache, computed in a
        background job with progress and Cancel. None computes inline.
    progress : str or None
        For a cached step: the progress bar's text (None: "Computing…").
    reports : bool
        Whether the step's function takes ``progress=`` (``progress(done, total, message)``): the page
        passes its progress bar's, the script passes nothing.
    table : bool
        The result is a table the page shows (rows of NamedTuples, or a dict of columns): the script
        prints it.
    """

    bind: str
    expr: object
    doc: str | None = None
    figure: str | None = None
    tab: str | None = None
    cache: str | None = None
    progress: str | None = None
    reports: bool = False
    table: bool = False


class Plan(NamedTuple):
    """A view: its inputs and its ordered steps.

    Attributes
    ----------
    title : str
        The page and what it reproduces (the script's heading).
    inputs : tuple of str
        Names the page provides (``"ds"``: the data set of the sidebar).
    steps : tuple of Step
    """

    title: str
    inputs: tuple
    steps: tuple

    def step(self, name: str) -> Step:
        """The step that binds ``name``."""
        for s in self.steps:
            if s.bind == name:
                return s
        raise KeyError(f"the plan has no step binding {name!r}; it binds {[s.bind for s in self.steps]}.")

    def has(self, name: str) -> bool:
        """Whether a step or an input binds ``name``."""
        return name in self.inputs or any(s.bind == name for s in self.steps)

    def figures(self, open_tab: str | None = None) -> tuple:
        """The figure steps' names: the open tab's first, then the others in plan order."""
        figs = [s for s in self.steps if s.figure is not None]
        first = [s for s in figs if open_tab is not None and s.tab == open_tab]
        return tuple(s.bind for s in first + [s for s in figs if s not in first])


def plan(title: str, inputs: Iterable[str], steps: Iterable[Step]) -> Plan:
    """A :class:`Plan`, checked: every name bound once, every reference bound before it is read.

    Parameters
    ----------
    title : str
        The script's heading.
    inputs : iterable of str
        The names the page provides.
    steps : iterable of Step
        In the order they run.

    Returns
    -------
    Plan

    Raises
    ------
    TypeError
        An item of ``steps`` that is not a :class:`Step`.
    ValueError
        A first step without a doc, a name bound twice, a figure step whose name is not ``fig_<figure>``, or a reference to a name
        no input or earlier step binds.
    """
    inputs, steps = tuple(inputs), tuple(steps)
    if steps and steps[0].doc is None:
        raise ValueError(f"plan: the first step {steps[0].bind!r} opens the first cell; give it a doc.")
    known = set(inputs)
    for s in steps:
        if not isinstance(s, Step):
            raise TypeError(f"plan: {s!r} is not a Step.")
        for r in refs(s.expr):
            if r.name not in known:
                raise ValueError(f"plan: step {s.bind!r} reads {r.text!r} before anything binds {r.name!r}.")
        if s.bind in known:
            raise ValueError(f"plan: {s.bind!r} is bound twice.")
        if s.figure is not None and s.bind != f"fig_{s.figure}":
            raise ValueError(f"plan: the figure {s.figure!r} must be bound to 'fig_{s.figure}', not {s.bind!r}.")
        known.add(s.bind)
    return Plan(title, inputs, steps)


def _nodes(expr):
    """The plan expressions in ``expr``, outer first: itself, then a call's function and arguments, a
    container's items."""
    yield expr
    if isinstance(expr, Call):
        parts = (expr.func,) + tuple(expr.args) + tuple(v for _, v in expr.kwargs)
    elif isinstance(expr, Ref):
        parts = ()
    elif isinstance(expr, (list, tuple)):
        parts = tuple(expr)
    elif isinstance(expr, dict):
        parts = tuple(expr.values())
    else:
        parts = ()
    for part in parts:
        yield from _nodes(part)


def refs(expr) -> list:
    """Every :class:`Ref` in ``expr`` (in a call's function, arguments, and nested containers).

    Parameters
    ----------
    expr : Call, Ref, literal, or list / tuple / dict of them

    Returns
    -------
    list of Ref
    """
    return [n for n in _nodes(expr) if isinstance(n, Ref)]


def calls(expr) -> list:
    """Every :class:`Call` in ``expr``, outer calls first.

    Parameters
    ----------
    expr : Call, Ref, literal, or list / tuple / dict of them

    Returns
    -------
    list of Call
    """
    return [n for n in _nodes(expr) if isinstance(n, Call)]


def qualified_name(func) -> str:
    """``module.qualname`` of a function object (what a cache key says of it).

    Parameters
    ----------
    func : callable

    Returns
    -------
    str
    """
    if isinstance(func, np.ufunc):  # numpy < 2 gives its ufuncs neither __module__ nor __qualname__
        return f"numpy.{func.__name__}"
    return f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', repr(func))}"


def _is_plain(v) -> bool:
    """Whether ``v`` is data a content hash reads: arrays, numbers, strings, None, containers of them."""
    if v is None or isinstance(v, (bool, int, float, str, bytes, np.ndarray, np.generic)):
        return True
    if isinstance(v, (list, tuple)) and not hasattr(v, "_fields"):
        return all(_is_plain(x) for x in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) and _is_plain(x) for k, x in v.items())
    return False


Runner = Callable[[Step, Callable, tuple], object]
"""``runner(step, compute, key_parts)``: runs a cached step; ``compute(progress)`` makes its value,
``key_parts`` is everything the value depends on (plain data)."""


class Executor:
    """Evaluates plans for a page: each step once per executor, only the steps a result needs.

    Parameters
    ----------
    inputs : dict
        The plan inputs' values (``{"ds": ds}``).
    runner : callable, optional
        ``runner(step, compute, key_parts)`` for the steps that name a ``cache``: the app passes
        ``svmviz.ui.compute.plan_executor`` (the app's cache, a background job, progress and Cancel).
        Default: every step computed in this thread, without progress reports.
    tokens : dict, optional
        For each input that is not plain data (a data set), plain data that identify it in cache
        keys (its arrays and name). A cached step that depends on such an input without a token
        is refused.
    known : dict, optional
        Values of steps the page already holds (a study's results, loaded from the page's own folder
        where the script loads them from the folder the command writes): returned as they are, their
        steps not evaluated.

    Examples
    --------
    >>> import numpy as np
    >>> p = plan("t", ["x"], [Step("m", call(np.mean, ref("x")), "The mean.")])
    >>> float(Executor({"x": np.arange(4.0)}).value(p, "m"))
    1.5
    """

    def __init__(self, inputs: dict, runner: Runner | None = None, tokens: dict | None = None,
                 known: dict | None = None):
        self.inputs = dict(inputs)
        self.known = dict(known or {})
        self.runner = runner
        self.tokens = dict(tokens or {})
        self._values: dict = {}  # identity of a step (with the steps it reads) -> value
        self._keys: dict = {}

    def value(self, plan: Plan, name: str):
        """The value ``plan`` binds to ``name`` (an input's value, or the step's result with the results
        it depends on). A cached step the runner did not compute (the user has not started or has
        stopped it) is None."""
        if name in plan.inputs:
            if name not in self.inputs:
                raise KeyError(f"the plan's input {name!r} was not given to the executor.")
            return self.inputs[name]
        step = plan.step(name)
        if name in self.known:
            return self.known[name]
        memo = self._identity(plan, name)
        if memo in self._values:
            return self._values[memo]
        if step.cache is not None and self.runner is not None:
            result = self.runner(step, lambda progress: self._evaluate(plan, step, progress), self.key(plan, name))
        else:
            result = self._evaluate(plan, step, None)
        self._values[memo] = result
        return result

    def run(self, plan: Plan, names: Iterable[str] | None = None) -> dict:
        """``{name: value}`` of ``names`` (default: every step of ``plan``)."""
        names = [s.bind for s in plan.steps] if names is None else list(names)
        return {n: self.value(plan, n) for n in names}

    def key(self, plan: Plan, name: str) -> tuple:
        """Plain data identifying ``name``'s value: its function, its plain arguments by content and
        its other arguments by the keys of what made them (the app's cache key)."""
        if name in plan.inputs:
            v = self.inputs[name]
            if _is_plain(v):
                return ("input", v)
            if name not in self.tokens:
                raise ValueError(f"the executor needs a token for the input {name!r} (not plain data) to key a "
                                 "cached step that reads it.")
            return ("input", name, self.tokens[name])
        step = plan.step(name)
        memo = self._identity(plan, name)
        if memo not in self._keys:
            self._keys[memo] = (name, self._key_of(plan, step.expr))
        return self._keys[memo]

    def _identity(self, plan: Plan, name: str):
        """What makes ``name``'s value in ``plan``: its step and, in turn, the steps it reads (an equal
        step reading a changed result is another value)."""
        if name in plan.inputs:
            return name
        step = plan.step(name)
        return (name, _frozen(step), tuple(self._identity(plan, r.name) for r in refs(step.expr)))

    def _key_of(self, plan: Plan, expr):
        if isinstance(expr, Ref):
            base = self.value(plan, expr.name)
            v = _resolve(base, expr.attrs)
            if _is_plain(v):
                return v
            return ("ref", self.key(plan, expr.name), expr.attrs)
        if isinstance(expr, Call):
            func = self._key_of(plan, expr.func) if isinstance(expr.func, Ref) else qualified_name(expr.func)
            return ("call", func, tuple(self._key_of(plan, a) for a in expr.args),
                    tuple((k, self._key_of(plan, v)) for k, v in expr.kwargs))
        if isinstance(expr, (list, tuple)) and not hasattr(expr, "_fields"):
            return tuple(self._key_of(plan, v) for v in expr)
        if isinstance(expr, dict):
            return {str(k): self._key_of(plan, v) for k, v in expr.items()}
        return expr

    def _evaluate(self, plan: Plan, step: Step, progress):
        expr = step.expr
        if step.reports and isinstance(expr, Call):
            return self._eval(plan, expr, progress=progress)
        return self._eval(plan, expr)

    def _eval(self, plan: Plan, expr, **extra):
        if isinstance(expr, Ref):
            return _resolve(self.value(plan, expr.name), expr.attrs)
        if isinstance(expr, Call):
            func = self._eval(plan, expr.func) if isinstance(expr.func, Ref) else expr.func
            args = [self._eval(plan, a) for a in expr.args]
            kwargs = {k: self._eval(plan, v) for k, v in expr.kwargs}
            return func(*args, **kwargs, **extra)
        if isinstance(expr, list):
            return [self._eval(plan, v) for v in expr]
        if isinstance(expr, tuple) and not hasattr(expr, "_fields"):
            return tuple(self._eval(plan, v) for v in expr)
        if isinstance(expr, dict):
            return {k: self._eval(plan, v) for k, v in expr.items()}
        return expr


def _resolve(value, attrs):
    for a in attrs:
        value = getattr(value, a) if isinstance(a, str) else value[a]
    return value


def _frozen(v):
    """A hashable stand-in of plan data (lists and dicts as tuples, arrays by content, functions by
    identity, other unhashable values by their repr)."""
    if isinstance(v, (list, tuple)):
        return (type(v).__name__,) + tuple(_frozen(x) for x in v)
    if isinstance(v, dict):
        return ("dict",) + tuple((k, _frozen(x)) for k, x in v.items())
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.shape, v.tobytes())
    try:
        hash(v)
    except TypeError:
        return ("repr", type(v).__qualname__, repr(v))
    return v
