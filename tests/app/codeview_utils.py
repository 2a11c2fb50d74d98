"""Helpers of the code-view tests: open a page, run its generated script in a fresh interpreter (its
notebook holds the same statements), compare the numbers behind the charts, change every widget."""
from __future__ import annotations

import ast
import atexit
import json
import os
import select
import subprocess
import sys

import numpy as np

from ..apptest_utils import ROOT, assert_clean, decode

#: An interpreter that has imported the scripts' third-party libraries and nothing of svmviz; for each
#: request (a JSON line: folder, script, output file, figure names) it forks a child that runs the script
#: as __main__ in that folder, writes every named figure as plotly JSON, and answers the child's exit
#: status. Each script starts from this state: svmviz, its numba functions and its data are the
#: script's own, as in an interpreter started for it.
WORKER = r"""
import json, os, runpy, sys, traceback
import numpy, pandas, scipy, sklearn.svm, numba
import plotly.graph_objects as go
import plotly.io as pio
go.Figure.show = lambda self, *a, **k: None  # no browser
for line in sys.stdin:
    cwd, path, out, names = json.loads(line)
    pid = os.fork()
    if pid == 0:
        log = os.open(os.path.join(cwd, "script.log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(log, 1)
        os.dup2(log, 2)
        code = 1
        try:
            os.chdir(cwd)
            ns = runpy.run_path(path, run_name="__main__")
            json.dump({n: json.loads(pio.to_json(ns[n])) for n in names}, open(out, "w"))
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(json.dumps(os.waitstatus_to_exitcode(status)), flush=True)
"""


class _Worker:
    """The :data:`WORKER` process, started on first use and ended when the tests end."""

    proc = None

    @classmethod
    def run(cls, cwd, path, out, names) -> int:
        if cls.proc is None or cls.proc.poll() is not None:
            env = dict(os.environ)
            env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
            env.setdefault("NUMBA_CACHE_DIR", os.path.join(ROOT, ".numba_cache"))
            cls.proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        env=env, text=True)
            atexit.register(cls.proc.stdin.close)
        cls.proc.stdin.write(json.dumps([str(cwd), str(path), str(out), list(names)]) + "\n")
        cls.proc.stdin.flush()
        ready, _, _ = select.select([cls.proc.stdout], [], [], 600)
        assert ready, "the script ran more than 10 minutes"
        answer = cls.proc.stdout.readline()
        assert answer, "the script worker ended"
        return json.loads(answer)


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


def run_generated(tmp_path, text: str, figures, files: dict) -> dict:
    """Run the script ``text`` as a fresh interpreter runs it (:data:`WORKER`), in ``tmp_path`` beside
    ``files`` ({name: bytes}); returns {figure name: figure JSON}."""
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    src = tmp_path / "view.py"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "figures.json"
    code = _Worker.run(tmp_path, src, out, figures)
    assert code == 0, (tmp_path / "script.log").read_text()[-3000:]
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
    """The page's generated script, run in a fresh interpreter, draws every chart the page draws with
    the same numbers; its notebook runs the same statements. Returns the script."""
    text = code_of(at)
    assert downloads.files[f"svmviz_{page}.py"].decode().rstrip() == text.rstrip()  # st.code drops the last newline
    notebook = downloads.files[f"svmviz_{page}.ipynb"].decode()
    charts = page_charts(at)
    names = [f"fig_{k}" for k in charts if f"fig_{k} = " in text]
    assert names, f"the script draws none of the page's charts {list(charts)}"
    assert set(charts) - {n[4:] for n in names} <= EXEMPT, \
        f"charts without code: {set(charts) - {n[4:] for n in names}}"
    assert_notebook_runs_the_script(notebook, text)
    got = run_generated(tmp_path, text, names, data_files or {})
    for n in names:
        assert_same_numbers(charts[n[4:]], got[n], what=f"{page} {n}")
    return text


def _shown(node) -> str | None:
    """``x`` for the statement ``x.show()``, else None."""
    if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and not node.value.args
            and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "show"
            and isinstance(node.value.func.value, ast.Name)):
        return node.value.func.value.id
    return None


def assert_notebook_runs_the_script(notebook: str, script: str) -> None:
    """The notebook's code cells, run in order in one namespace, execute the script's statements in the
    script's order, and show the figures the script shows: the notebook computes what the script computes
    (which :func:`check_reproduces` runs)."""
    body = ast.parse(script).body
    assert isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), "the script opens with its title"
    main = body[-1]
    assert isinstance(main, ast.If) and ast.unparse(main.test) == "__name__ == '__main__'", "the script ends showing"
    script_shows = [_shown(n) for n in main.body]
    assert None not in script_shows, ast.unparse(main)
    cells = [c for c in json.loads(notebook)["cells"] if c["cell_type"] == "code"]
    statements = [n for c in cells for n in ast.parse("".join(c["source"])).body]
    notebook_shows = [_shown(n) for n in statements if _shown(n) is not None]
    assert [ast.dump(n) for n in statements if _shown(n) is None] == [ast.dump(n) for n in body[1:-1]], \
        "the notebook's code is not the script's"
    assert sorted(notebook_shows) == sorted(script_shows), (notebook_shows, script_shows)


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
