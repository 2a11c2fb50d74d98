"""``svmviz warmup`` (svmviz._warmup): every step once, a line each with its time and the total, a
stamp that makes the next run return at once; the background start; the one-line notice of a kernel
that must compile; a server's loading of its pages' modules and kernels between page runs
(svmviz.ui._preload); and after the warm-up, every page's default view compiles no svmviz kernel."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
import types
import weakref

import pytest

from svmviz import _jit, _warmup
from svmviz.ui import _preload

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def own_cache(monkeypatch, tmp_path):
    """svmviz's kernel cache base in ``tmp_path`` (the stamp lives there); steps that only count."""
    monkeypatch.setenv("SVMVIZ_CACHE_DIR", str(tmp_path))
    calls = []
    steps = tuple(_warmup.Step(name, f"the {name} kernels", (lambda n=name: calls.append(n)), 0.1)
                  for name in ("svm-grid", "nu-path"))
    monkeypatch.setattr(_warmup, "STEPS", steps)
    monkeypatch.setattr(_warmup, "SECOND_PROCESS", frozenset())  # every step in this process, where it counts
    monkeypatch.setattr(_jit, "_SAID", set())
    return calls


def test_run_does_every_step_once_then_says_the_cache_is_current(own_cache):
    out = io.StringIO()
    assert not _warmup.is_current()
    _warmup.run(out=out)
    assert own_cache == ["svm-grid", "nu-path"]
    lines = out.getvalue().splitlines()
    assert [ln.split()[1] for ln in lines if ln.lstrip().startswith("[")] == ["svm-grid", "nu-path"]
    assert all(" s " in ln for ln in lines if ln.lstrip().startswith("["))  # each step's seconds
    assert lines[-1].startswith("svmviz warmup: done in ") and lines[-1].endswith(" s")
    assert _warmup.is_current() and os.path.exists(_warmup.stamp_path())

    out = io.StringIO()
    _warmup.run(out=out)
    assert own_cache == ["svm-grid", "nu-path"]  # nothing run again
    assert "current" in out.getvalue()
    _warmup.run(force=True, out=io.StringIO())
    assert own_cache == ["svm-grid", "nu-path"] * 2


class _FakeSecond:
    """What :func:`svmviz._warmup._start_second` returns, for a child that runs ``code`` (``NAMES``: its steps)."""

    def __init__(self, code):
        self.code = code
        self.started = []

    def __call__(self, names):
        self.started.append(list(names))
        code = f"NAMES = {names!r}\n" + self.code
        return _warmup._popen([sys.executable, "-c", code], dict(os.environ))


def test_two_processes_run_the_first_step_then_split_the_others(own_cache, monkeypatch):
    """Two processes: the first step here, then the second process's steps (their lines relayed as they
    come) beside the others here; every step once, every line once, then the stamp."""
    monkeypatch.setattr(_warmup, "STEPS", tuple(_warmup.Step(name, f"the {name} kernels",
                                                             (lambda n=name: own_cache.append(n)), 0.1)
                                                for name in ("gram", "svm-grid", "nu-path", "usvc", "ivm")))
    monkeypatch.setattr(_warmup, "SECOND_PROCESS", frozenset({"nu-path", "ivm", "elsewhere"}))
    second = _FakeSecond("for name in NAMES:\n    print(f'  [-/5] {name:9s}    0.0 s  the {name} kernels', flush=True)\n")
    monkeypatch.setattr(_warmup, "_start_second", second)
    out = io.StringIO()
    _warmup.run(out=out, processes=2)
    assert own_cache == ["gram", "svm-grid", "usvc"] and second.started == [["nu-path", "ivm"]]
    lines = out.getvalue().splitlines()
    assert "in two processes" in lines[0]
    steps = sorted(ln.split()[1] for ln in lines if ln.lstrip().startswith("["))
    assert steps == ["gram", "ivm", "nu-path", "svm-grid", "usvc"]
    assert lines[1].split()[1] == "gram"  # before the second process starts
    assert _warmup.is_current()

    own_cache.clear()
    _warmup.run(out=io.StringIO(), processes=1, force=True)
    assert own_cache == ["gram", "svm-grid", "nu-path", "usvc", "ivm"] and len(second.started) == 1


def test_a_failing_second_process_fails_the_warmup_and_leaves_no_stamp(own_cache, monkeypatch):
    monkeypatch.setattr(_warmup, "SECOND_PROCESS", frozenset({"nu-path"}))
    second = _FakeSecond("import sys\nsys.stderr.write('no compiler here\\n' * 20000)\nsys.exit(3)\n")
    monkeypatch.setattr(_warmup, "_start_second", second)
    with pytest.raises(RuntimeError, match="second process failed \\(exit 3\\)"):
        _warmup.run(out=io.StringIO(), processes=2)
    assert own_cache == ["svm-grid"] and not _warmup.is_current()


def test_default_processes_follow_the_cores_this_process_may_run_on(monkeypatch):
    monkeypatch.setattr(_warmup.os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert _warmup.default_processes() == 1  # one core: a second process would only add its CPU time
    monkeypatch.setattr(_warmup.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert _warmup.default_processes() == 2

    def no_affinity(pid):
        raise OSError("not supported")

    monkeypatch.setattr(_warmup.os, "sched_getaffinity", no_affinity, raising=False)
    monkeypatch.setattr(_warmup.os, "cpu_count", lambda: None)
    assert _warmup.default_processes() == 1
    monkeypatch.setattr(_warmup.os, "cpu_count", lambda: 8)
    assert _warmup.default_processes() == 2


@pytest.mark.parametrize("processes", [0, 3, True, 1.5])
def test_processes_other_than_one_or_two_refused(own_cache, processes):
    with pytest.raises(ValueError, match="processes must be 1 or 2"):
        _warmup.run(out=io.StringIO(), processes=processes)
    assert own_cache == []


def test_the_second_process_entry_runs_the_steps_named_and_refuses_others(own_cache, capsys):
    assert _warmup.main(["--steps", "nu-path"]) == 0
    assert own_cache == ["nu-path"] and not _warmup.is_current()  # the stamp is the first process's
    assert capsys.readouterr().out.split()[:2] == ["[2/2]", "nu-path"]
    with pytest.raises(SystemExit, match="no step named gacv"):
        _warmup.main(["--steps", "nu-path,gacv"])


def test_stamp_is_keyed_on_the_kernel_sources_and_numba(own_cache):
    from importlib.metadata import version

    from svmviz._jit import source_digest

    path = _warmup.stamp_path()
    assert source_digest() in path and version("numba") in os.path.basename(path)


def _dispatcher(module, ready=False, inline="never"):
    """What numba's compile event hands the listener: a dispatcher with its Python function, signatures and
    options (numba's ``inline`` option: ``"always"`` for a function inlined into its callers)."""
    return types.SimpleNamespace(py_func=types.SimpleNamespace(__module__=module), signatures=["(f8,)"] if ready else [],
                                 targetoptions={"inline": inline})


def _compiles(dispatcher):
    """numba compiling ``dispatcher``: the start event, its overload added, the end event."""
    _jit.on_compile_start(dispatcher)
    dispatcher.signatures.append("(f8,)")
    _jit.on_compile_end(dispatcher)


def test_notice_once_per_group_and_never_when_current(own_cache, monkeypatch):
    said = []
    fake = _dispatcher("svmviz.path._solver.follower")
    other = _dispatcher("someone_else.kernels")
    monkeypatch.setitem(_jit._GROUP_FUNCTIONS, "nu-path", [fake])
    with _warmup.notices_to(said.append):
        _compiles(fake)
        _compiles(_dispatcher("svmviz.path._solver.follower"))  # the group has said its notice
        _compiles(other)
    assert said[0].startswith("Compiling the ν-path solver once for this installation")
    assert "svmviz warmup" in said[0] and said[1:] == [""]  # one notice, ended with its compilation
    _warmup.run(out=io.StringIO())
    _jit._SAID.clear()
    assert _jit.compile_notice("svmviz.svm._smo") is None  # current: nothing to say


def test_progress_line_counts_the_groups_functions_ready_from_the_compile_events(own_cache, monkeypatch):
    """The line says how many of the group's functions are ready at every start and end of a compile
    (nested compiles of callees included), says nothing it cannot know (no time left), and ends with
    ``""`` when the outermost compile ends; a cached function counts as ready."""
    top, callee, cached, unused = (_dispatcher("svmviz.path._solver.follower"), _dispatcher("svmviz.path._solver.kkt"),
                                   _dispatcher("svmviz.path._solver.events", ready=True),
                                   _dispatcher("svmviz.path._solver.loo"))
    monkeypatch.setitem(_jit._GROUP_FUNCTIONS, "nu-path", [top, callee, cached, unused])
    said = []
    with _warmup.notices_to(said.append):
        _jit.on_compile_start(top)
        _compiles(callee)  # compiled inside the top function's compilation
        top.signatures.append("(f8,)")
        _jit.on_compile_end(top)
    assert said == [
        "Compiling the ν-path solver once for this installation: 1 of its 4 functions ready "
        "(`svmviz warmup` does this ahead of time)",
        "Compiling the ν-path solver once for this installation: 1 of its 4 functions ready "
        "(`svmviz warmup` does this ahead of time)",
        "Compiling the ν-path solver once for this installation: 2 of its 4 functions ready "
        "(`svmviz warmup` does this ahead of time)",
        "",
    ]
    assert not any("left" in text for text in said)


def test_progress_line_leaves_out_the_functions_inlined_into_their_callers(own_cache, monkeypatch):
    """A function numba inlines into its callers (``inline='always'``) never compiles on its own from
    compiled code: the count leaves it out, unless a call from Python has compiled it."""
    top, inlined, called_from_python = (_dispatcher("svmviz.svm._rows"), _dispatcher("svmviz.svm._rows", inline="always"),
                                        _dispatcher("svmviz.svm._rows", ready=True, inline="always"))
    monkeypatch.setitem(_jit._GROUP_FUNCTIONS, "svm-grid", [top, inlined, called_from_python])
    assert _jit.compile_progress("svm-grid").endswith(": 1 of its 2 functions ready (`svmviz warmup` does this ahead of time)")
    top.signatures.append("(f8,)")
    assert ": 2 of its 2 functions ready" in _jit.compile_progress("svm-grid")


def test_the_listener_counts_every_compilation(own_cache):
    before = _jit.compilations()
    _compiles(_dispatcher("someone_else.kernels"))
    _compiles(_dispatcher("svmviz.kernels._gram"))
    assert _jit.compilations() == before + 2


def test_a_notebook_call_that_compiles_logs_one_line(tmp_path):
    """A fresh cache: the first kernel call of a process (no page) logs the notice once on stderr."""
    code = ("import numpy as np, svmviz.kernels as k\n"
            "k.gram(np.eye(3), sigma=1.0); k.gram(np.eye(3), kernel='linear'); k.gram(np.eye(4), sigma=2.0)\n")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",)}
    env.update(SVMVIZ_CACHE_DIR=str(tmp_path), PYTHONPATH=ROOT)
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    notices = [ln for ln in res.stderr.splitlines() if "once for this installation" in ln]
    assert len(notices) == 1, res.stderr
    assert "`svmviz warmup` does this ahead of time" in notices[0]


def test_background_start_once_and_only_when_needed(own_cache, monkeypatch):
    started = []

    class FakePopen:
        def __init__(self, cmd, **kwargs):
            started.append((cmd, kwargs))
            self.running = True

        def poll(self):
            return None if self.running else 0

    monkeypatch.setattr(_warmup.subprocess, "Popen", FakePopen)
    monkeypatch.setitem(_warmup._BACKGROUND, "proc", None)
    monkeypatch.setenv("SVMVIZ_WARMUP", "0")
    assert _warmup.start_background() is None and not started
    monkeypatch.delenv("SVMVIZ_WARMUP")
    proc = _warmup.start_background()
    assert proc is not None and len(started) == 1
    cmd, kwargs = started[0]
    assert cmd[0] == sys.executable and "os.nice(10)" in cmd[2] and "run(processes=1)" in cmd[2]  # whatever the cores
    assert kwargs["start_new_session"]
    assert _warmup.start_background() is None and len(started) == 1  # one process while it runs
    assert os.environ["SVMVIZ_WARMUP"] == "started"  # inherited by the server `svmviz app` execs
    monkeypatch.setitem(_warmup._BACKGROUND, "proc", None)  # that server: a new interpreter
    assert _warmup.start_background() is None and len(started) == 1
    monkeypatch.delenv("SVMVIZ_WARMUP")
    proc.running = False
    _warmup.run(out=io.StringIO())  # the cache is current now
    assert _warmup.start_background() is None and len(started) == 1


@pytest.mark.parametrize("cores, default", [({0}, "one process"), ({0, 1}, "two processes"),
                                            ({0, 1, 2, 3}, "two processes")])
def test_cli_warmup_command(own_cache, capsys, monkeypatch, cores, default):
    from svmviz.cli import main

    monkeypatch.setattr(_warmup.os, "sched_getaffinity", lambda pid: cores, raising=False)
    assert main(["warmup"]) == 0
    assert own_cache == ["svm-grid", "nu-path"]
    assert f"in {default}" in capsys.readouterr().out  # the default: two on two cores or more
    assert main(["warmup"]) == 0
    assert "current" in capsys.readouterr().out
    assert main(["warmup", "--force", "--processes", "2"]) == 0
    assert "in two processes" in capsys.readouterr().out and own_cache == ["svm-grid", "nu-path"] * 2
    assert main(["warmup", "--force", "--processes", "1"]) == 0
    assert "in one process" in capsys.readouterr().out and own_cache == ["svm-grid", "nu-path"] * 3
    for bad in (["warmup", "--nonsense"], ["warmup", "--processes", "3"]):
        with pytest.raises(SystemExit):
            main(bad)


@pytest.fixture
def server(monkeypatch):
    """A Streamlit server's process as the loading thread sees it: fresh state, units that record."""
    monkeypatch.setattr(_preload, "_browser_session", lambda: True)
    monkeypatch.setattr(_preload, "_SERVER", {"thread": None, "lock": threading.Lock(), "unit": threading.Lock(),
                                             "runs": weakref.WeakSet()})
    froze = []
    monkeypatch.setattr(_preload.gc, "freeze", lambda: froze.append(time.monotonic()))
    return froze


def test_server_loads_after_the_run_in_progress_and_a_new_run_waits_for_the_unit(server, monkeypatch):
    events = []
    unit_started = threading.Event()

    def unit(name, seconds=0.0):
        def run():
            events.append((f"{name} start", time.monotonic()))
            unit_started.set()
            time.sleep(seconds)
            events.append((f"{name} end", time.monotonic()))
        return name, run

    monkeypatch.setattr(_preload, "_server_units", lambda: [unit("imports"), unit("kernels", 0.5)])
    loaders = []

    def first_run():  # the home page's run: the loading begins once it has ended
        loaders.append(_preload.load_in_server())
        time.sleep(0.3)
        events.append(("first run end", time.monotonic()))

    t = threading.Thread(target=first_run)
    t.start()
    t.join()
    assert unit_started.wait(10)
    while not any(e == "kernels start" for e, _ in events):
        time.sleep(0.01)

    def second_run():  # a page opened while a unit runs: it waits for that unit, not for the rest
        loaders.append(_preload.load_in_server())
        events.append(("second run go", time.monotonic()))

    t2 = threading.Thread(target=second_run)
    t2.start()
    t2.join(10)
    loader = loaders[0]
    loader.join(10)
    assert not loader.is_alive() and loaders[1] is loader  # one loading thread per process
    at = dict(events)
    assert at["first run end"] < at["imports start"] < at["kernels start"]
    assert at["kernels end"] <= at["second run go"]
    assert len(server) == 1 and server[0] >= at["kernels end"]  # frozen once, after everything loaded


def test_server_units_import_the_pages_then_load_the_kernels_only_when_the_cache_is_current(own_cache, monkeypatch):
    monkeypatch.setattr(_preload, "_page_modules", lambda: ["json", "csv"])
    assert [name for name, _ in _preload._server_units()] == ["json", "csv"]  # compiling is the background's
    _warmup.run(out=io.StringIO())
    units = _preload._server_units()
    assert [name for name, _ in units] == ["json", "csv", "svm-grid", "nu-path"]
    units[-1][1]()
    assert own_cache[-1] == "nu-path"
    from svmviz.ui.frame import PAGES

    monkeypatch.undo()
    # the app hands its page modules over when it starts the warm-up (svmviz.ui.frame.run_app)
    monkeypatch.setenv("SVMVIZ_WARMUP", "0")
    monkeypatch.setitem(_preload._SERVER, "pages", ())
    pages = [f"svmviz.ui.{spec.module}" for spec in PAGES]
    assert _preload.start(page_modules=tuple(pages)) is None
    assert _preload._page_modules() == pages


def test_no_loading_thread_outside_a_browser_session(monkeypatch):
    """A plain interpreter and AppTest (no request headers) load nothing ahead; a browser's session does."""
    from streamlit.testing.v1 import AppTest

    monkeypatch.setattr(_preload, "_SERVER", {"thread": None, "lock": threading.Lock(), "unit": threading.Lock(),
                                             "runs": weakref.WeakSet()})
    assert _preload.load_in_server() is None and _preload._SERVER["thread"] is None
    at = AppTest.from_string("import streamlit as st\nfrom svmviz.ui import _preload\n"
                             "st.text(repr((_preload._browser_session(), _preload.load_in_server())))").run(timeout=30)
    assert not at.exception and at.text[0].value == "(False, None)"


# ------------------------------------------------------------------------------------------------------------
# ``svmviz warmup`` compiles every kernel the app's pages use: after it, on the same fresh cache, every page's
# default view (and the path page's linear kernel) compiles no svmviz kernel.

PAGES = r"""
import collections, json
from numba.core import event
from streamlit.testing.v1 import AppTest

compiled = collections.Counter()

class Count(event.Listener):
    def on_start(self, ev):
        fn = getattr(ev.data.get("dispatcher"), "py_func", None)
        if fn is not None and fn.__module__.startswith("svmviz."):
            compiled[f"{fn.__module__}.{fn.__qualname__}"] += 1

    def on_end(self, ev):
        pass

event.register("numba:compile", Count())
out = {}
for module, query in [("tuning", {}), ("path", {}), ("path", {"pkernel": "linear"}), ("losses", {}),
                      ("usvc", {}), ("ivm", {}), ("anova", {})]:
    compiled.clear()
    at = AppTest.from_string(f"from svmviz.ui import {module}\n{module}.page()\n", default_timeout=900)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    out[f"{module}{query}"] = {"compiled": dict(compiled), "exceptions": [str(e.value) for e in at.exception]}
print(json.dumps(out))
"""


def test_pages_compile_nothing_after_the_warmup(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(SVMVIZ_CACHE_DIR=str(tmp_path), PYTHONPATH=ROOT, SVMVIZ_WARMUP="0")
    warm = subprocess.run([sys.executable, "-m", "svmviz.cli", "warmup"], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=1800)
    assert warm.returncode == 0, warm.stderr[-3000:]
    assert "done in" in warm.stdout
    steps = sorted(ln.split()[1] for ln in warm.stdout.splitlines() if ln.lstrip().startswith("["))
    assert steps == sorted(step.name for step in _warmup.STEPS), warm.stdout  # every step once, in either process
    res = subprocess.run([sys.executable, "-c", PAGES], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=1800)
    assert res.returncode == 0, res.stderr[-3000:]
    pages = json.loads(res.stdout.strip().splitlines()[-1])
    assert all(not p["exceptions"] for p in pages.values()), pages
    assert {name: p["compiled"] for name, p in pages.items() if p["compiled"]} == {}


def test_the_svm_step_fits_rows_that_shorten_and_lengthen_again(monkeypatch):
    """The SVM step's small-cache fit on kernel rows restrides its cache both ways (shorter rows once
    shrinking leaves few points active, full rows to unshrink), so the restride is compiled by the
    warm-up, not by a user's first large fit."""
    from svmviz.svm import _rows

    strides = []
    restride = _rows._restride

    def recorded(data_old, data_new, islot_old, islot_new, ipos):
        strides.append((data_old.shape[1], data_new.shape[1]))
        restride(data_old, data_new, islot_old, islot_new, ipos)

    monkeypatch.setattr(_rows, "_restride", recorded)
    _warmup._svm_grid()
    assert any(new < old for old, new in strides) and any(new > old for old, new in strides), strides
