"""Script cells, their two file formats, literals, and the data-loading step shared by every page."""
from __future__ import annotations

import inspect
import json
import math
import re
from typing import NamedTuple

import numpy as np

#: the file the data editor's "Download the points (CSV)" button saves (:mod:`svmviz.ui.edit`)
EDITED_POINTS_CSV = "edited_points.csv"
#: the data-set name the data editor gives the edited points
EDITED = "edited"


class Cell(NamedTuple):
    """One step of a script: what it does (a markdown line) and its code.

    Attributes
    ----------
    markdown : str
        What the step does (the notebook's markdown cell, the script's ``# %%`` line).
    code : str
        The step's code.
    show : tuple of str
        The figures the step draws: the notebook shows them at the end of the cell, the script at its
        end (``if __name__ == "__main__"``).
    """

    markdown: str
    code: str
    show: tuple = ()


class Script(NamedTuple):
    """A page's view as a sequence of cells.

    Attributes
    ----------
    title : str
        The heading (the page and what it reproduces).
    cells : tuple of Cell
    files : tuple of str
        Files the script reads (an uploaded or edited data set), named as the page saves them.
    order : tuple of str
        The order the script's end shows the figures in (the page's open tab first); empty: the cells'
        order.
    """

    title: str
    cells: tuple
    files: tuple = ()
    order: tuple = ()

    @property
    def figures(self) -> tuple:
        """The names of the figures the script draws, in the page's order."""
        drawn = tuple(f for c in self.cells for f in c.show)
        if not self.order:
            return drawn
        return tuple(self.order) + tuple(f for f in drawn if f not in self.order)

    def python(self) -> str:
        """The script: cells separated by ``# %%`` lines (the percent format Jupyter, VS Code and
        jupytext read as cells), each cell's markdown as a comment; the figures shown at the end."""
        out = [f'"""{self.title}"""', ""]
        for cell in self.cells:
            out.append("# %% " + cell.markdown.replace("\n", "\n# "))
            out.append(cell.code.rstrip())
            out.append("")
        if self.figures:
            out.append('if __name__ == "__main__":')
            out += [f"    {name}.show()" for name in self.figures]
        return "\n".join(out).rstrip() + "\n"

    def notebook(self) -> dict:
        """The notebook (nbformat 4.5): a title cell, then a markdown and a code cell per step; a
        step's figures are shown at the end of its code cell."""
        cells = [_markdown_cell(0, "# " + self.title)]
        for cell in self.cells:
            cells.append(_markdown_cell(len(cells), cell.markdown))
            code = cell.code.rstrip() + "".join(f"\n{name}.show()" for name in cell.show)
            cells.append({"cell_type": "code", "execution_count": None, "id": f"cell-{len(cells)}",
                          "metadata": {}, "outputs": [], "source": _lines(code)})
        return {"cells": cells,
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                             "language_info": {"name": "python"}},
                "nbformat": 4, "nbformat_minor": 5}

    def notebook_json(self) -> str:
        """:meth:`notebook` as the text of an ``.ipynb`` file."""
        return json.dumps(self.notebook(), indent=1, ensure_ascii=False) + "\n"


def _lines(text: str) -> list:
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + [parts[-1]]


def _markdown_cell(i: int, text: str) -> dict:
    return {"cell_type": "markdown", "id": f"cell-{i}", "metadata": {}, "source": _lines(text)}


def literal(value) -> str:
    """``value`` as Python source that evaluates to an equal value (floats with every digit).

    Parameters
    ----------
    value : number, str, None, bool, tuple, list, dict or ndarray
        Numbers, strings, None, booleans, and tuples, lists and dicts of them; numpy scalars and
        arrays become Python numbers and lists.

    Returns
    -------
    str
        The source text (strings in double quotes where they allow it).

    Raises
    ------
    TypeError
        For a value that has no literal (a function, a data set, …).
    ValueError
        For a float that is not finite.
    """
    if value is None or isinstance(value, (bool, np.bool_)):
        return repr(None if value is None else bool(value))
    if isinstance(value, (int, np.integer)):
        return repr(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if not math.isfinite(v):
            raise ValueError(f"literal: {v} has no Python literal; give a finite number.")
        return repr(v)
    if isinstance(value, str):
        # double quotes, as the rest of the generated code (repr's single quotes otherwise)
        return f'"{value}"' if value.isprintable() and '"' not in value and "\\" not in value else repr(value)
    if isinstance(value, np.ndarray):
        return literal(value.tolist())
    if isinstance(value, tuple):
        items = [literal(v) for v in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"literal: a {type(value).__name__} cannot be written as a literal; pass numbers, strings, "
                    "tuples, lists or dicts.")


def call(func: str, *args, **kwargs) -> str:
    """Source of the call ``func(args…, key=value…)`` with literal arguments.

    Parameters
    ----------
    func : str
        The function's name as the script spells it.
    *args, **kwargs
        The arguments: values written by :func:`literal`, a :class:`Code` written as it is.

    Returns
    -------
    str
        One line, or one argument a line when the call is longer than 110 characters.
    """
    parts = [a.text if isinstance(a, Code) else literal(a) for a in args]
    parts += [f"{k}={v.text if isinstance(v, Code) else literal(v)}" for k, v in kwargs.items()]
    one = f"{func}({', '.join(parts)})"
    if len(one) <= 110:
        return one
    return f"{func}(\n" + "".join(f"    {p},\n" for p in parts) + ")"


class Code(NamedTuple):
    """Source text used as it is inside :func:`call` (a variable, an expression).

    Attributes
    ----------
    text : str
        The source text.
    """

    text: str


class DataSource(NamedTuple):
    """Where a page's data set comes from.

    Attributes
    ----------
    kind : {"generated", "csv"}
    name : str
        The generator's name (``svmviz.data.GENERATORS``) or the CSV file's name.
    n, seed : int or None
        The generator's size and seed; for a CSV file, the subsample's size and seed (None: every row).
    params : tuple of (str, value)
        The generator's parameters that differ from its defaults.
    label_column, standardize, missing, feature_columns
        :func:`svmviz.data.dataset_from_csv`'s arguments for a CSV file (``feature_columns`` None: every
        numeric column but the label).
    classes, one_vs_rest
        The class choice (:func:`svmviz.data.select_classes`): two of the classes (−1, +1), or the one
        class against the rest; None for all classes.
    """

    kind: str
    name: str
    n: int | None = None
    seed: int | None = None
    params: tuple = ()
    label_column: str | int | None = None
    standardize: bool = False
    missing: str = "drop"
    feature_columns: tuple | None = None
    classes: tuple | None = None
    one_vs_rest: object = None

    @property
    def files(self) -> tuple:
        return (self.name,) if self.kind == "csv" else ()


def data_source(ds, *, file_name: str | None = None, label_column=None, standardize: bool = False,
                missing: str = "drop") -> DataSource:
    """The :class:`DataSource` of a page's data set ``ds``.

    Parameters
    ----------
    ds : svmviz.data.Dataset
        What the page computes with.
    file_name : str, optional
        The name of the uploaded CSV file ``ds`` was read from (with the next three arguments, those
        the page passed to :func:`svmviz.data.dataset_from_csv`). Points edited with the mouse are
        read from ``EDITED_POINTS_CSV``, the file the editor's download button saves.
    label_column, standardize, missing
        As given to :func:`svmviz.data.dataset_from_csv` for ``file_name``.

    Returns
    -------
    DataSource
        A generated data set keeps the generator's parameters that differ from their defaults; a
        subsample of a file (:func:`svmviz.data.subsample_dataset`) keeps its size and seed.

    Raises
    ------
    ValueError
        ``ds`` is neither edited, nor read from ``file_name``, nor made by a known generator.
    """
    from svmviz import data as _data

    params = ds.params if isinstance(ds.params, dict) else {}
    if ds.name == EDITED and "edited_from" in params:
        return DataSource("csv", EDITED_POINTS_CSV, label_column="label")
    chosen = params.get("classes")
    choice = {"classes": None if chosen is None else tuple(_plain(c) for c in chosen),
              "one_vs_rest": _plain(params.get("one_vs_rest"))}
    if file_name is not None:
        sub = "subsample_of" in params
        features = params.get("feature_columns")
        return DataSource("csv", str(file_name), int(params["n"]) if sub else None,
                          int(params["seed"]) if sub else None, (), label_column, bool(standardize), str(missing),
                          None if features is None else tuple(features), **choice)
    if ds.name not in _data.GENERATORS:
        raise ValueError(f"data_source: {ds.name!r} is not a generator of svmviz.data.GENERATORS; pass the CSV "
                         "file's name (file_name=) for data read from a file.")
    signature = inspect.signature(_data.GENERATORS[ds.name]).parameters
    n, seed = params.get("n"), int(params.get("seed", 0))
    default = _data.make_dataset(ds.name, n=n, seed=seed).params
    extra = tuple((k, _plain(params[k])) for k in signature
                  if k not in ("n", "seed") and k in params and not _equal(params[k], default.get(k)))
    return DataSource("generated", ds.name, None if n is None else int(n), seed, extra, **choice)


def _plain(v):
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, (np.floating, np.integer, np.bool_)):
        return v.item()
    return v


def _equal(a, b) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a, dtype=object), np.asarray(b, dtype=object)))
    except (TypeError, ValueError):
        return a == b


def data_cell(src: DataSource, *, var: str = "ds") -> Cell:
    """The cell that makes (or reads) the data set.

    Parameters
    ----------
    src : DataSource
        Where the data come from.
    var : str
        The variable the data set is assigned to.

    Returns
    -------
    Cell
        :func:`svmviz.data.make_dataset` for a generator; :func:`svmviz.data.dataset_from_csv` (then
        :func:`svmviz.data.subsample_dataset` for a subsample) for a file.

    Raises
    ------
    ValueError
        An unknown ``src.kind``.
    """
    choice = {k: v for k, v in (("classes", src.classes), ("one_vs_rest", src.one_vs_rest)) if v is not None}
    if src.kind == "generated":
        code = f"{var} = " + call("svmviz.make_dataset", src.name, n=src.n, seed=src.seed, **dict(src.params))
        what = f"The data: {md_escape(src.name)}, n = {src.n}, seed {src.seed}."
        if choice:
            code += f"\n{var} = " + call("svmviz.data.select_classes", Code(var), **choice)
            what += " " + _choice_text(src)
    elif src.kind == "csv":
        kwargs = {"label_column": src.label_column}
        if src.standardize:
            kwargs["standardize"] = True
        if src.missing != "drop":
            kwargs["missing"] = src.missing
        if src.feature_columns is not None:
            kwargs["feature_columns"] = list(src.feature_columns)
        kwargs.update(choice)
        code = f"{var} = " + call("svmviz.data.dataset_from_csv", src.name, **kwargs)
        if src.name == EDITED_POINTS_CSV:
            what = (f"The data: the edited points, the file {md_escape(src.name)} that the editor's "
                    "“Download the points (CSV)” button saves (put it beside this script).")
        else:
            what = (f"The data: the file {md_escape(src.name)} (the file uploaded to the app; put it beside this "
                    "script).")
        if src.feature_columns is not None:
            what += f" Feature columns: {', '.join(md_escape(c) for c in src.feature_columns)}."
        if choice:
            what += " " + _choice_text(src)
        if src.n is not None:
            code += f"\n{var} = " + call("svmviz.data.subsample_dataset", Code(var), src.n, seed=src.seed)
            what += f" The page computes with a stratified random subsample of {src.n} rows (seed {src.seed})."
    else:
        raise ValueError(f"data_cell: unknown kind {src.kind!r}; use 'generated' or 'csv'.")
    return Cell(what, code)


def _choice_text(src: DataSource) -> str:
    if src.classes is not None:
        a, b = (md_escape(_class_text(c)) for c in src.classes)
        return f"Two of its classes: {a} (−1) and {b} (+1)."
    return f"One class against the rest: {md_escape(_class_text(src.one_vs_rest))} (+1) against the others (−1)."


def _class_text(c) -> str:
    from svmviz.data.dataset import class_display_names

    return class_display_names((c,))[0]


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>&])")
_MD_ENTITY = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def md_escape(text) -> str:
    """``text`` as literal markdown: every markdown character backslash-escaped, ``< > &`` as entities, line
    breaks as spaces — a file, column or class name shows as it is and never becomes markup or HTML.

    Parameters
    ----------
    text : object
        Written with ``str``.

    Returns
    -------
    str
        One line of markdown that renders as ``text``.

    Examples
    --------
    >>> md_escape("<img src=x onerror=alert(1)>.csv")
    '&lt;img src=x onerror=alert\\\\(1\\\\)&gt;\\\\.csv'
    >>> md_escape("weight_kg *raw*")
    'weight\\\\_kg \\\\*raw\\\\*'
    """
    flat = " ".join(str(text).splitlines())
    return _MD_SPECIAL.sub(lambda m: _MD_ENTITY.get(m.group(1), "\\" + m.group(1)), flat)
