"""Docstrings and the documentation site: the shared numpydoc texts of svmviz._docs are filled into
every public docstring, every public docstring's numpydoc sections parse, the public functions document
their parameters, no docstring points to a file outside the package, and every public name has a page
in the API reference (docs/api/*.rst).

No numpydoc package here: the section rules checked are numpydoc's own (``docscrape``): a section is
a known name underlined by at least as many dashes, each at most once; a Parameters-like section
lists entries ``name : type`` (or ``name1, name2 : type``, ``*args``, ``**kwargs``) at its base
indentation, descriptions indented below.
"""
from __future__ import annotations

import importlib
import inspect
import pathlib
import pkgutil
import re

import pytest

import svmviz
from svmviz import _docs

SECTIONS = {"Parameters", "Returns", "Yields", "Receives", "Other Parameters", "Raises", "Warns", "Warnings",
            "See Also", "Notes", "References", "Examples", "Attributes", "Methods"}
ENTRY_SECTIONS = {"Parameters", "Other Parameters", "Attributes", "Receives"}
ENTRY = re.compile(r"^\*{0,2}[A-Za-z_]\w*(\s*,\s*\*{0,2}[A-Za-z_]\w*)*(\s*:.*)?$")
PLACEHOLDER = re.compile(r"^[ \t]*\{[A-Za-z_]\w*\}[ \t]*$", re.M)
ROOT = pathlib.Path(svmviz.__file__).parent


def _modules():
    """The library's modules: not ``svmviz.__main__`` (importing it starts the app) nor ``svmviz.ui``
    (the Streamlit layer, no public API; its ``_entry`` script starts the app too)."""
    names = ["svmviz"]
    for info in pkgutil.walk_packages(svmviz.__path__, "svmviz.", onerror=lambda name: None):
        if info.name.endswith(".__main__") or info.name == "svmviz.ui" or info.name.startswith("svmviz.ui."):
            continue
        names.append(info.name)
    # public modules first: a private part (``ivm._lambda_sequences``) is imported by its public module (``ivm``)
    return sorted(names, key=lambda n: any(part.startswith("_") for part in n.split(".")))


def _public_docstrings():
    """(qualified name, docstring) of every public function, class and method of the package."""
    seen, out = set(), []
    for modname in _modules():
        mod = importlib.import_module(modname)
        if mod.__doc__ and not any(part.startswith("_") for part in modname.split(".")):
            out.append((modname, mod.__doc__))  # (a private module's docstring is not public)
        for name, obj in vars(mod).items():
            if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if not (getattr(obj, "__module__", "") or "").startswith("svmviz") or id(obj) in seen:
                continue
            seen.add(id(obj))
            qual = f"{obj.__module__}.{obj.__qualname__}"
            if obj.__doc__:
                out.append((qual, obj.__doc__))
            if inspect.isclass(obj):
                for mname, meth in vars(obj).items():
                    fn = getattr(meth, "__func__", meth)
                    if mname.startswith("_") or not inspect.isfunction(fn) or not fn.__doc__:
                        continue
                    out.append((f"{qual}.{mname}", fn.__doc__))
    return out


DOCSTRINGS = _public_docstrings()


def _section_problems(doc: str) -> list[str]:
    lines = inspect.cleandoc(doc).splitlines()
    problems, seen, current, base = [], set(), None, None
    for i, line in enumerate(lines):
        stripped = line.strip()
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if stripped and set(stripped) == {"-"} and len(stripped) >= 3:
            prev = lines[i - 1].strip() if i else ""
            if prev not in SECTIONS:
                problems.append(f"underline below {prev!r}, not a numpydoc section")
            elif len(stripped) < len(prev):
                problems.append(f"section {prev!r}: underline shorter than the name")
            continue
        if stripped in SECTIONS and nxt and set(nxt) == {"-"}:
            if stripped in seen:
                problems.append(f"section {stripped!r} twice")
            seen.add(stripped)
            current, base = stripped, len(line) - len(line.lstrip())
            continue
        if current in ENTRY_SECTIONS and stripped and len(line) - len(line.lstrip()) == base:
            if not ENTRY.match(stripped):
                problems.append(f"{current}: {stripped!r} is not an entry 'name : type'")
    return problems


def test_the_package_has_public_docstrings_to_check():
    assert len(DOCSTRINGS) > 300
    names = {q for q, _ in DOCSTRINGS}
    assert {"svmviz.losses._losses.hinge", "svmviz.svm._classes.SVMClassifier.fit", "svmviz.criteria.gacv"} <= names


def test_no_public_docstring_keeps_a_placeholder():
    left = [q for q, doc in DOCSTRINGS if PLACEHOLDER.search(doc)]
    assert not left, f"unfilled {{name}} lines (decorate with svmviz._docs.fill_doc): {left}"


def test_numpydoc_sections_parse():
    bad = {q: p for q, doc in DOCSTRINGS if (p := _section_problems(doc))}
    assert not bad, bad


def test_filled_docstrings_read_fully():
    from svmviz import criteria, losses
    from svmviz.ivm import KernelLogisticRegression
    from svmviz.svm import SVMClassifier

    doc = losses.sigmoid.__doc__
    assert "tau : array_like of any shape" in doc and "a : float > 0, default 1.0" in doc
    assert "Bradley, Mangasarian & Street" in doc and "{" not in doc.replace("e^{aτ}", "")
    # the filled lines take the indentation of the placeholder, so the sections parse as written
    assert "\n        X : array-like of shape (n, d)\n            Training points" in KernelLogisticRegression.fit.__doc__
    assert "K_diag : float or array_like of shape (n,), default None" in criteria.gacv.__doc__
    assert SVMClassifier.predict.__doc__.lstrip().startswith("Class labels")
    assert "Parameters" in (inspect.getdoc(losses.hinge) or "")


def test_fill_fills_whole_lines_only_and_refuses_unknown_names():
    doc = 'Title v_{ε+,ε−} in {"rbf", "poly"}.\n\n    Parameters\n    ----------\n    {tau}\n'
    out = _docs.fill(doc)
    assert out.startswith('Title v_{ε+,ε−} in {"rbf", "poly"}.')  # braces inside a line stay
    assert "\n    tau : array_like of any shape\n        Margins" in out
    with pytest.raises(KeyError, match="no_such_text"):
        _docs.fill("x\n    {no_such_text}\n")
    assert _docs.fill(None) is None  # python -OO
    assert _docs.fill("{tau} inline") == "{tau} inline"


def test_every_shared_text_is_used():
    """Each text of _docs.DOCS is written once and used somewhere (in a docstring or another text)."""
    used = set()
    for path in ROOT.rglob("*.py"):
        used |= set(re.findall(r"^[ \t]*\{([A-Za-z_]\w*)\}[ \t]*$", path.read_text(encoding="utf-8"), re.M))
    assert set(_docs.DOCS) - used == set()


# ---------------------------------------------------------------------------------- every public module
def _public_modules() -> list[str]:
    """Every public module of the library, ``svmviz.figures.*`` included (``svmviz.ui``, the app, has no API)."""
    import svmviz.figures

    library = ["svm", "criteria", "tuning", "_surface", "losses", "path", "usvc", "ivm", "kernels", "anova", "data",
               "studies", "published"]
    return library + [f"figures.{info.name}" for info in pkgutil.iter_modules(svmviz.figures.__path__)
                      if not info.name.startswith("_")]


def test_numpydoc_parameters_and_returns_in_every_public_module():
    """tests/test_packaging.py's numpydoc rule (Parameters / Returns on functions, Parameters or Attributes
    covering every field of a class), applied to every public module."""
    from tests.test_packaging import _numpydoc_problems, _public_objects

    modules = _public_modules()
    assert {"svm", "path", "usvc", "ivm", "figures.tuning", "figures.usvc"} <= set(modules) and len(modules) > 20
    problems = [p for module in modules for _, name, obj in _public_objects((module,))
                for p in _numpydoc_problems(obj, f"{module}.{name}")]
    assert not problems, f"{len(problems)} docstrings without complete numpydoc sections:\n" + "\n".join(problems)


# ---------------------------------------------------------------------------------- no pointers outside
OUTSIDE = re.compile(r"SPEC\s*§|SPEC\.md|SPEC:|shared/|\.\./shared")


def _all_docstrings():
    """(file:line, text) of every module, class and function docstring under svmviz/, private ones too."""
    import ast

    out = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    out.append((f"{path.relative_to(ROOT.parent)}:{getattr(node, 'lineno', 1)}", doc))
    return out


def test_no_docstring_points_to_a_file_outside_the_package():
    docs = _all_docstrings()
    assert len(docs) > 500
    bad = [where for where, doc in docs if OUTSIDE.search(doc)]
    assert not bad, f"docstrings pointing to the project's spec or shared folder (cite the paper instead): {bad}"
    assert OUTSIDE.search("as read in SPEC §2.3") and OUTSIDE.search("see ../shared/SPEC.md")
    assert not OUTSIDE.search("svmviz study run SPEC --out DIR")  # the CLI's placeholder is no pointer


# ---------------------------------------------------------------------------------- the API reference
DOCS_API = ROOT.parent / "docs" / "api"


def _api_page_entries() -> set[str]:
    """``module.name`` of every autosummary entry of docs/api/*.rst (under its ``currentmodule``)."""
    entries = set()
    for page in sorted(DOCS_API.glob("*.rst")):
        module, in_summary = None, False
        for line in page.read_text(encoding="utf-8").splitlines():
            m = re.match(r"\.\. (?:current)?module:: (\S+)", line)
            if m:
                module = m.group(1)
            if line.startswith(".. autosummary::"):
                in_summary = True
                continue
            if in_summary:
                if line.strip() and not line.startswith("   "):
                    in_summary = False
                elif line.startswith("   ") and line.strip() and not line.strip().startswith(":"):
                    entries.add(f"{module}.{line.strip()}")
    return entries


def _public_names() -> set[str]:
    """Every name a user imports: ``svmviz.__all__`` (under the module that exports it),
    ``svmviz.data.__all__``, and each public function and class of the ``svmviz.figures`` modules."""
    import svmviz.data
    import svmviz.figures

    names = {f"svmviz.{svmviz._EXPORTS[n]}.{n}" for n in svmviz.__all__}
    names |= {f"svmviz.data.{n}" for n in svmviz.data.__all__}
    for info in pkgutil.iter_modules(svmviz.figures.__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"svmviz.figures.{info.name}")
        names |= {f"{mod.__name__}.{n}" for n, obj in vars(mod).items()
                  if not n.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
                  and obj.__module__ == mod.__name__}
    return names


def test_every_public_name_has_an_api_page():
    entries = _api_page_entries()
    public = _public_names()
    assert len(public) > 250 and "svmviz.svm.SVMClassifier" in public and "svmviz.figures.tuning.plot_contour" in public
    assert not public - entries, f"add to docs/api/*.rst: {sorted(public - entries)}"
    assert not entries - public - _published_names(), f"not public (remove from docs/api): {sorted(entries - public)}"


def _published_names() -> set[str]:
    from svmviz import published

    return {f"svmviz.published.{n}" for n in published.__all__}


def test_gallery_reads_the_papers_numbers_from_svmviz_published():
    """An example that prints a paper's number takes it from svmviz.published, never typed in."""
    examples = sorted((ROOT.parent / "docs" / "examples").glob("plot_*.py"))
    assert len(examples) >= 11
    with_numbers = [p for p in examples if "paper" in p.read_text(encoding="utf-8").split('"""', 2)[2]]
    assert len(with_numbers) >= 7
    for path in with_numbers:
        assert "from svmviz.published import" in path.read_text(encoding="utf-8"), path.name


# ---------------------------------------------------------------------------------------------
# the gallery: each example's thumbnail is its own first figure; compilation precedes the build
def _sg_plotly():
    import importlib.util

    path = pathlib.Path(__file__).resolve().parent.parent / "docs" / "sg_plotly.py"
    spec = importlib.util.spec_from_file_location("sg_plotly_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gallery_thumbnails_are_each_examples_first_figure(tmp_path):
    import hashlib

    import numpy as np
    import plotly.graph_objects as go
    import plotly.io as pio

    sg = _sg_plotly()
    g = np.linspace(-1, 1, 30)
    figures = [go.Figure(go.Contour(x=g, y=g, z=np.add.outer(g ** 2, g))),
               go.Figure(go.Scatter(x=g, y=np.sin(3 * g), mode="lines")),
               go.Figure(go.Scatter(x=g, y=g ** 3, mode="markers"))]
    digests = []
    for k, fig in enumerate(figures):
        sg.reset_renderer({}, f"example{k}.py")
        pio.show(fig, renderer=sg.RENDERER)
        pio.show(go.Figure(go.Scatter(x=[0, 1], y=[1, 0])), renderer=sg.RENDERER)  # a second figure: not the thumbnail
        paths = iter([tmp_path / f"ex{k}_001.png", tmp_path / f"ex{k}_002.png"])
        rst = sg.scraper(None, {"image_path_iterator": paths}, {})
        assert rst.count(".. raw:: html") == 2
        assert sg.scraper(None, {"image_path_iterator": paths}, {}) == ""  # later blocks: no figure, no thumbnail
        digests.append(hashlib.md5((tmp_path / f"ex{k}_001.png").read_bytes()).hexdigest())
        assert not (tmp_path / f"ex{k}_002.png").exists()
    assert len(set(digests)) == len(figures)


def test_gallery_thumbnail_skips_a_table_and_takes_no_image_path_it_does_not_write(tmp_path):
    import plotly.graph_objects as go
    import plotly.io as pio

    sg = _sg_plotly()
    sg.reset_renderer({}, "tables.py")
    pio.show(go.Figure(go.Table(cells={"values": [[1, 2], [3, 4]]})), renderer=sg.RENDERER)
    paths = iter([tmp_path / "t_001.png", tmp_path / "t_002.png"])
    sg.scraper(None, {"image_path_iterator": paths}, {})
    assert next(paths) == tmp_path / "t_001.png"  # a table alone: no thumbnail, no path taken
    paths = iter([tmp_path / "t_001.png"])
    pio.show(go.Figure(go.Table(cells={"values": [[1]]})), renderer=sg.RENDERER)
    pio.show(go.Figure(go.Scatter(x=[0, 1, 2], y=[2, 0, 1])), renderer=sg.RENDERER)
    sg.scraper(None, {"image_path_iterator": paths}, {})
    assert (tmp_path / "t_001.png").exists()  # the first drawable figure after the table


def test_gallery_thumbnails_draw_bars_and_boxes_on_category_axes():
    import numpy as np
    import plotly.graph_objects as go

    sg = _sg_plotly()
    bars = go.Figure([go.Bar(x=["LS", "SVC", "USVC"], y=[3.0, 1.0, 2.0]), go.Bar(x=["LS", "SVC", "USVC"], y=[2.0, 2.0, 1.0])])
    boxes = go.Figure([go.Box(y=[1.0, 1.2, 3.0], name="GACV"), go.Box(y=[1.0, 1.1, 1.4], name="XA")])
    images = [sg.thumbnail_image(f.to_dict()) for f in (bars, boxes)]
    assert all(img is not None for img in images)
    pixels = [np.asarray(img) for img in images]
    assert all((p != 255).any() for p in pixels) and not np.array_equal(*pixels)


def test_docs_build_compiles_before_running_the_examples():
    script = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "build.sh").read_text().splitlines()
    warm = next(i for i, line in enumerate(script) if line.strip().endswith("-m svmviz warmup"))
    sphinx = next(i for i, line in enumerate(script) if "-m sphinx" in line)
    assert warm < sphinx
