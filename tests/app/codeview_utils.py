"""Helpers of the code-view tests: open a page, run its generated script and notebook in a fresh
interpreter, compare the numbers behind the charts, change every widget."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from ..apptest_utils import ROOT, assert_clean, decode

#: run in a fresh interpreter: the script (run as __main__) or the notebook (its code cells in order in
#: one namespace); then every figure the script names is written as plotly JSON
DRIVER = r"""
import json, runpy, sys
import plotly.graph_objects as go
import plotly.io as pio
go.Figure.show = lambda self, *a, **k: None  # no browser
mode, path, out = sys.argv[1:4]
names = sys.argv[4:]
if mode == "py":
    ns = runpy.run_path(path, run_name="__main__")
else:
    ns = {"__name__": "__main__"}
    for i, cell in enumerate(json.load(open(path, encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path}:cell{i}", "exec"), ns)
json.dump({n: json.loads(pio.to_json(ns[n])) for n in names}, open(out, "w"))
"""


class Downloads:
    """Records what ``st.download_button`` is given (file name → bytes), for the code panel's files."""

    def __init__(self, monkeypatch):
        import streamlit as st

        self.files: dict[str, bytes] = {}
        real = st.download_button

        def record(label, data, file_name=None, *args, **kwargs):
            if file_name:
                content = data() if callable(data) else data  # a CSV is written when clicked
                self.files[file_name] = content.encode() if isinstance(content, str) else content
            return real(label, data, file_name, *args, **kwargs)

        monkeypatch.setattr(st, "download_button", record)


def open_page(page_file: str, query: dict, *, shared: dict | None = None, timeout: float = 240):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(os.path.join(ROOT, "pages", page_file), default_timeout=timeout)
    if shared is not None:
        at.session_state["_svmviz_shared"] = dict(shared)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    return at


def page_charts(at) -> dict:
    """{chart key: figure JSON} of the page's plotly charts."""
    return {el.proto.id.rsplit("-", 1)[-1]: json.loads(el.proto.spec) for el in at.get("plotly_chart")}


def code_of(at) -> str:
    codes = [c.value for c in at.code if c.language == "python"]
    assert len(codes) == 1, f"expected one code view, got {len(codes)}"
    return codes[0]


def run_generated(tmp_path, mode: str, text: str, figures, files: dict) -> dict:
    """Run the script (``mode`` "py") or notebook ("ipynb") ``text`` in a fresh interpreter in
    ``tmp_path`` beside ``files`` ({name: bytes}); returns {figure name: figure JSON}."""
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    src = tmp_path / f"view.{mode}"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / f"figures_{mode}.json"
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("NUMBA_CACHE_DIR", os.path.join(ROOT, ".numba_cache"))
    proc = subprocess.run([sys.executable, "-c", DRIVER, mode, str(src), str(out), *figures], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(out.read_text())


NUMERIC_FIELDS = ("x", "y", "z")


def chart_numbers(fig: dict) -> list:
    """The arrays a figure is drawn from: each trace's x, y, z (numbers as float arrays, text as
    object arrays), in trace order."""
    out = []
    for tr in fig.get("data", []):
        row = {}
        for f in NUMERIC_FIELDS:
            if f in tr and tr[f] is not None:
                a = decode(tr[f])
                try:
                    a = np.asarray(a, dtype=np.float64)
                except (TypeError, ValueError):
                    a = np.asarray(a, dtype=object)
                row[f] = a
        out.append((tr.get("type", "scatter"), tr.get("name"), row))
    return out


def assert_same_numbers(page_fig: dict, script_fig: dict, *, what: str, rtol: float = 1e-7, atol: float = 1e-9):
    a, b = chart_numbers(page_fig), chart_numbers(script_fig)
    assert [t[:2] for t in a] == [t[:2] for t in b], f"{what}: traces differ: {[t[:2] for t in a]} vs {[t[:2] for t in b]}"
    for (kind, name, ra), (_, _, rb) in zip(a, b):
        assert ra.keys() == rb.keys(), (what, name)
        for f in ra:
            x, y = ra[f], rb[f]
            assert x.shape == y.shape, (what, name, f, x.shape, y.shape)
            if x.dtype == object:
                assert x.tolist() == y.tolist(), (what, name, f)
            else:
                np.testing.assert_allclose(x, y, rtol=rtol, atol=atol, equal_nan=True, err_msg=f"{what}: {name}.{f}")


def check_reproduces(at, downloads: Downloads, tmp_path, page: str, data_files: dict | None = None) -> str:
    """The page's generated script and notebook, run in fresh interpreters, draw every chart the
    page draws with the same numbers. Returns the script."""
    text = code_of(at)
    assert downloads.files[f"svmviz_{page}.py"].decode().rstrip() == text.rstrip()  # st.code drops the last newline
    notebook = downloads.files[f"svmviz_{page}.ipynb"].decode()
    charts = page_charts(at)
    names = [f"fig_{k}" for k in charts if f"fig_{k} = " in text]
    assert names, f"the script draws none of the page's charts {list(charts)}"
    assert set(charts) - {n[4:] for n in names} <= EXEMPT, \
        f"charts without code: {set(charts) - {n[4:] for n in names}}"
    for mode, src in (("py", text), ("ipynb", notebook)):
        got = run_generated(tmp_path, mode, src, names, data_files or {})
        for n in names:
            assert_same_numbers(charts[n[4:]], got[n], what=f"{page} {mode} {n}")
    return text


def check_reproduces_here(at, tmp_path, monkeypatch, data_files: dict | None = None) -> str:
    """The page's script, run in this process in ``tmp_path`` beside ``data_files``, draws every chart
    the page draws with the same numbers (the script's file formats and a fresh interpreter are
    :func:`check_reproduces`' part, once per page). Returns the script."""
    import plotly.io as pio

    text = code_of(at)
    charts = page_charts(at)
    assert set(charts) - {k for k in charts if f"fig_{k} = " in text} <= EXEMPT, \
        f"charts without code: {[k for k in charts if f'fig_{k} = ' not in text]}"
    for name, content in (data_files or {}).items():
        (tmp_path / name).write_bytes(content)
    monkeypatch.chdir(tmp_path)
    ns: dict = {"__name__": "script"}
    exec(compile(text, "view.py", "exec"), ns)  # noqa: S102 — the code under test
    for k in charts:
        if k not in EXEMPT:
            assert_same_numbers(charts[k], json.loads(pio.to_json(ns[f"fig_{k}"])), what=f"fig_{k}")
    return text


#: charts that are part of the tools around the view, not of it: the data editor's own chart (its
#: points are the script's data file)
EXEMPT = {"tuning_edit_chart", "path_edit_chart", "loss_edit_chart"}


# ---------------------------------------------------------------- every widget, one at a time
def _other_value(w):
    """Another valid value of the widget ``w`` (None when it has no other)."""
    kind = type(w).__name__
    v = w.value
    if kind == "Checkbox":
        return not v
    if kind == "Multiselect":
        return list(v[:-1]) if len(v) > 1 else None
    if kind in ("Slider", "NumberInput"):
        lo, hi, step = w.min, w.max, w.step or 1
        if isinstance(v, (tuple, list)):
            a, b = v
            return (a, b - step) if b - step > a else (a, min(hi, b + step))
        nv = v + step if v + step <= hi else v - step
        return type(v)(nv) if not isinstance(v, float) else float(nv)
    if kind == "SelectSlider":
        opts = list(w.options)
        cur = w.format_func(v) if callable(getattr(w, "format_func", None)) else str(v)
        return "index", (opts.index(cur) + 1) % len(opts) if cur in opts else 0
    if kind in ("Selectbox", "Radio"):
        opts = list(w.options)
        if len(opts) < 2:
            return None
        i = w.index if w.index is not None else 0
        for k in range(1, len(opts)):
            j = (i + k) % len(opts)
            if not opts[j].startswith(("Upload", "edited")):
                return "index", j
    return None


def _candidates(text: str):
    yield text
    for cast in (int, float):
        try:
            yield cast(text)
        except ValueError:
            pass


def _set(w, change) -> bool:
    """Give ``w`` the value ``change`` (``("index", j)``: the option shown j-th). False when no raw
    value shows as that option (a format_func the test cannot invert)."""
    if not (isinstance(change, tuple) and len(change) == 2 and change[0] == "index"):
        w.set_value(change)
        return True
    j = change[1]
    want = w.options[j]
    for cand in _candidates(want):
        try:
            shown = w.format_func(cand)
        except Exception:  # noqa: BLE001 — a candidate of the wrong type
            continue
        if str(shown) == want:
            w.set_value(cand)
            return True
    if type(w).__name__ in ("Radio", "Selectbox"):  # a format_func the test cannot invert: send the index
        w.__class__ = type("RadioAtIndex", (type(w),), {"index": property(lambda self: j)})
        return True
    return False


#: checkboxes last: one may disable others (e.g. leave-one-out's own settings)
WIDGETS = ("slider", "select_slider", "number_input", "selectbox", "radio", "multiselect", "checkbox")


def widgets(at) -> dict:
    out = {}
    for kind in WIDGETS:
        for w in getattr(at, kind):
            if w.key and not w.key.startswith("_"):
                out[w.key] = w
    return out


def numbers_of(at) -> dict:
    return {k: chart_numbers(f) for k, f in page_charts(at).items()}


def _same(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    for k in a:
        if [t[:2] for t in a[k]] != [t[:2] for t in b[k]]:
            return False
        for (_, _, ra), (_, _, rb) in zip(a[k], b[k]):
            if ra.keys() != rb.keys():
                return False
            for f in ra:
                x, y = ra[f], rb[f]
                if x.shape != y.shape:
                    return False
                if x.dtype == object or y.dtype == object:
                    if x.tolist() != y.tolist():
                        return False
                elif not np.allclose(x, y, rtol=1e-12, atol=0, equal_nan=True):
                    return False
    return True


def walk_every_widget(at, *, skip=()) -> tuple[list, list]:
    """Change every widget of the page once (one at a time, each from the state the previous change
    left); after each change: if a chart's numbers changed, the generated code changed too.
    Returns (the keys changed, the keys that could not be driven)."""
    done, undriven = [], []
    numbers, code = numbers_of(at), code_of(at)
    while True:
        left = [(k, w) for k, w in widgets(at).items() if k not in done and k not in undriven and k not in skip]
        todo = [(k, w) for k, w in left if not w.disabled]
        if not todo:
            return done, undriven + [k for k, _ in left]
        key, w = todo[0]
        change = _other_value(w)
        if change is None or not _set(w, change):
            undriven.append(key)
            continue
        at.run()
        assert_clean(at)
        done.append(key)
        new_numbers, new_code = numbers_of(at), code_of(at)
        if not _same(numbers, new_numbers):
            assert new_code != code, f"changing {key!r} changed the charts but not the generated code"
        numbers, code = new_numbers, new_code
