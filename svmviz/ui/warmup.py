"""Compile the numba kernels before the first visitor needs them (issue 13, "Fast from the first click").

On a fresh install numba compiles every kernel on its first call: 10–60 s per page on two cores
(the ν-path's follower alone ≈ 25 s), paid by whoever opens the page first. From server start,
this module opens every page once, headless, in two background processes — the pages' own code
(``AppTest``) with their default views, so exactly the kernels and type signatures the app uses
are compiled and written to numba's on-disk cache, with no second list of calls to keep in step
with the pages. The server process then loads them from the cache (milliseconds).

Order: the pages' first charts first (Tuning criteria, the ν-path without LOO, the Loss page…),
the slower extras after (LOO along the path, the Tuning page's exact LOO). A computation of the
server that a running warm-up task is compiling for waits for it (one compilation, not two on the
same two cores); one whose task has not started yet takes the task off the queue and compiles
itself, right away (:func:`wait_for`). When every task has run, a stamp in the cache folder
(numba, Python, the CPU and the package's source) skips the warm-up at the next start.

Run by the frame (:func:`svmviz.ui.frame.run_app`) once per server process; ``SVMVIZ_WARMUP=0``
turns it off. ``python -m svmviz.ui.warmup`` runs every task in this process (a one-off warm-up,
e.g. after ``pip install``) and prints what each took.
"""
from __future__ import annotations

import collections
import hashlib
import json
import os
import platform
import subprocess
import sys
import threading
import time
from typing import Callable, NamedTuple


class Task(NamedTuple):
    label: str
    module: str          # svmviz.ui.<module>.page() is run
    query: dict          # URL parameters of the view
    names: tuple         # cached_compute names (prefixes) whose kernels this task compiles


TASKS = (
    Task("tuning", "tuning", {}, ("surface", "curves")),
    Task("path", "path", {"ploo": "0"}, ("nu_path",)),
    Task("losses", "losses", {}, ("loss_gacv",)),
    Task("usvc", "usvc", {}, ("usvc_",)),
    Task("ivm", "ivm", {}, ("ivm_",)),
    Task("path-loo", "path", {}, ("nu_path_loo",)),
    Task("anova", "anova", {}, ("anova_",)),
    Task("tuning-loo", "tuning", {"loo": "1", "n": "60", "res": "6"}, ("surface",)),
    Task("studies", "studies", {}, ()),
    Task("path-linear", "path", {"ploo": "0", "pkernel": "linear"}, ()),
)
WORKERS = 2
TASK_TIMEOUT = 900.0  # seconds for one page's first run in a worker (compilation on a busy machine)


# ------------------------------------------------------------------ one task (in a worker process)
def run_task(task: Task) -> tuple[float, int]:
    """Run the page of ``task`` headless (its default view with ``task.query``); returns (seconds,
    numba compilations). Raises RuntimeError if the page raised."""
    from numba.core import event
    from streamlit.testing.v1 import AppTest

    count = [0]

    class _Count(event.Listener):
        def on_start(self, ev):
            count[0] += 1

        def on_end(self, ev):
            pass

    listener = _Count()
    event.register("numba:compile", listener)
    t0 = time.perf_counter()
    try:
        at = AppTest.from_string(f"from svmviz.ui import {task.module}\n{task.module}.page()\n",
                                 default_timeout=TASK_TIMEOUT)
        for k, v in task.query.items():
            at.query_params[k] = v
        at.run()
        if at.exception:
            raise RuntimeError(f"{task.label}: {at.exception[0].value}")
    finally:
        event.unregister("numba:compile", listener)
    return time.perf_counter() - t0, count[0]


def _worker_loop() -> None:
    """``python -m svmviz.ui.warmup --worker``: run the tasks named on stdin, one per line, answer on stdout."""
    by_label = {t.label: t for t in TASKS}
    for line in sys.stdin:
        label = line.strip()
        if not label:
            continue
        try:
            seconds, compiled = run_task(by_label[label])
            print(json.dumps({"label": label, "ok": True, "seconds": seconds, "compiled": compiled}), flush=True)
        except Exception as exc:  # noqa: BLE001 — reported to the server, which goes on
            print(json.dumps({"label": label, "ok": False, "error": str(exc)[:500]}), flush=True)


# ------------------------------------------------------------------ the stamp
def _stamp_path() -> str | None:
    cache = os.environ.get("NUMBA_CACHE_DIR")
    if not cache:
        return None
    import numba

    import svmviz

    h = hashlib.sha1()
    h.update(f"{numba.__version__} {sys.version} {platform.machine()} {platform.processor()}".encode())
    root = os.path.dirname(os.path.abspath(svmviz.__file__))
    for dirpath, _dirs, files in sorted(os.walk(root)):
        for f in sorted(files):
            if f.endswith(".py"):
                p = os.path.join(dirpath, f)
                st = os.stat(p)
                h.update(f"{os.path.relpath(p, root)} {st.st_size} {st.st_mtime_ns}".encode())
    return os.path.join(cache, f"svmviz-warm-{h.hexdigest()[:16]}")


def _die_with_parent() -> None:
    """In a worker, before it runs (Linux): be killed when the server process ends, however it ends —
    a worker compiling for minutes (or paused, :meth:`_Warmup.foreground`) must not outlive it."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (also if paused)
    except Exception:  # noqa: BLE001 — elsewhere the worker ends at its next task (stdin closed)
        pass


# ------------------------------------------------------------------ the coordinator (server process)
class _Warmup:
    def __init__(self, tasks=TASKS, workers: int = WORKERS):
        self.lock = threading.Lock()
        self.queue = collections.deque(tasks)
        self.state = {t.label: "queued" for t in tasks}
        self.done = {t.label: threading.Event() for t in tasks}
        self.tasks = {t.label: t for t in tasks}
        self.report: dict[str, dict] = {}
        self.workers = workers
        self.started = time.monotonic()
        self.procs: list[subprocess.Popen] = []
        self.all_ran_in_workers = True
        self.current: dict[int, tuple] = {}  # worker → (label, process) of the task it runs
        self.fg_count = 0                     # server computations running now (see foreground)
        self.fg_keep: set[str] = set()        # tasks they wait for: their workers keep running
        self.fg_idle = threading.Event()
        self.fg_idle.set()
        self.paused: set[int] = set()         # pids stopped with SIGSTOP

    def start(self) -> None:
        for i in range(self.workers):
            threading.Thread(target=self._feed, args=(i,), name=f"svmviz-warmup-{i}", daemon=True).start()

    def _next(self) -> Task | None:
        with self.lock:
            while self.queue:
                t = self.queue.popleft()
                if self.state[t.label] == "queued":
                    self.state[t.label] = "running"
                    return t
            return None

    def _feed(self, i: int) -> None:
        proc = None
        try:
            while True:
                self.fg_idle.wait()  # no new task while the server computes for a visitor
                task = self._next()
                if task is None:
                    break
                if proc is None:
                    proc = subprocess.Popen(
                        [sys.executable, "-m", "svmviz.ui.warmup", "--worker"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
                        env={**os.environ, "SVMVIZ_WARMUP": "0"}, preexec_fn=_die_with_parent)
                    with self.lock:
                        self.procs.append(proc)
                with self.lock:
                    self.current[i] = (task.label, proc)
                proc.stdin.write(task.label + "\n")
                proc.stdin.flush()
                rep = None
                while rep is None:  # skip anything else a page may have printed
                    line = proc.stdout.readline()
                    if not line:
                        rep = {"label": task.label, "ok": False, "error": "the warm-up process ended"}
                        break
                    try:
                        got = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(got, dict) and got.get("label") == task.label:
                        rep = got
                rep["at"] = time.monotonic() - self.started
                with self.lock:
                    self.current.pop(i, None)
                    self.report[task.label] = rep
                    self.state[task.label] = "done" if rep.get("ok") else "failed"
                    if not rep.get("ok"):
                        self.all_ran_in_workers = False
                self.done[task.label].set()
                if not line:
                    break
        finally:
            if proc is not None:
                try:
                    proc.stdin.close()
                    proc.wait(timeout=5)
                except Exception:  # noqa: BLE001
                    proc.kill()
            self._maybe_stamp()

    def _maybe_stamp(self) -> None:
        with self.lock:
            finished = all(s in ("done", "failed", "skipped") for s in self.state.values())
            ok = finished and self.all_ran_in_workers and all(s == "done" for s in self.state.values())
        if ok:
            path = _stamp_path()
            if path:
                try:
                    with open(path, "w") as f:
                        json.dump(self.report, f, indent=1)
                except OSError:
                    pass

    def wait_for(self, name: str, timeout: float, report: Callable[[str], None] | None = None) -> float:
        """Before a computation ``name`` runs in this process: wait for the warm-up tasks compiling
        for it that are running; take those not started off the queue (this process compiles what it
        needs now). Returns the seconds waited."""
        t0 = time.monotonic()
        mine = [t for t in self.tasks.values() if any(name.startswith(p) for p in t.names)]
        running = []
        with self.lock:
            for t in mine:
                if self.state[t.label] == "queued":
                    self.state[t.label] = "skipped"
                    self.all_ran_in_workers = False
                    self.done[t.label].set()
                elif self.state[t.label] == "running":
                    running.append(t)
        for t in running:
            if report is not None:
                report("compiling the numerical kernels in the background (first start after an install only)")
            self.done[t.label].wait(max(0.0, timeout - (time.monotonic() - t0)))
        return time.monotonic() - t0

    def foreground(self, name: str):
        """Context of a server computation ``name`` (run for a visitor): the workers compiling for
        other pages are paused (SIGSTOP) and start no new task until it ends, so that the visitor's
        page gets the CPU — its own running warm-up task, if any, goes on."""
        import contextlib
        import signal

        @contextlib.contextmanager
        def cm():
            mine = {t.label for t in self.tasks.values() if any(name.startswith(p) for p in t.names)}
            with self.lock:
                self.fg_count += 1
                self.fg_keep |= mine
                self.fg_idle.clear()
                self._pause_others(signal)
            try:
                yield
            finally:
                with self.lock:
                    self.fg_count -= 1
                    if self.fg_count <= 0:
                        self.fg_count = 0
                        self.fg_keep.clear()
                        for pid in list(self.paused):
                            try:
                                os.kill(pid, signal.SIGCONT)
                            except OSError:
                                pass
                        self.paused.clear()
                        self.fg_idle.set()

        return cm()

    def _pause_others(self, signal) -> None:
        """Pause the workers running a task nobody waits for; let those that are waited for run."""
        for label, proc in self.current.values():
            if proc.poll() is not None:
                continue
            try:
                if label in self.fg_keep and proc.pid in self.paused:
                    os.kill(proc.pid, signal.SIGCONT)
                    self.paused.discard(proc.pid)
                elif label not in self.fg_keep and proc.pid not in self.paused:
                    os.kill(proc.pid, signal.SIGSTOP)
                    self.paused.add(proc.pid)
            except OSError:
                pass

    def stop(self) -> None:
        """End the worker processes and drop what is queued (server shutdown)."""
        with self.lock:
            for label, st in self.state.items():
                if st == "queued":
                    self.state[label] = "skipped"
                    self.done[label].set()
            self.queue.clear()
            procs = list(self.procs)
        for proc in procs:
            if proc.poll() is None:
                proc.kill()

    def status(self) -> dict:
        with self.lock:
            return {"state": dict(self.state), "report": dict(self.report)}


_WARMUP: _Warmup | None = None
_START_LOCK = threading.Lock()


_STARTED = False


def _preload() -> None:
    """Import every page's module (scikit-learn, scipy, plotly, the numba kernel modules: ~2 s) while
    the home page is read, so that the first page opened does not wait for it."""
    import importlib

    for t in dict.fromkeys(t.module for t in TASKS):
        try:
            importlib.import_module(f"svmviz.ui.{t}")
        except Exception:  # noqa: BLE001 — the page itself will report it
            pass


def start() -> _Warmup | None:
    """Start, once per process, the preloading of the page modules and — unless ``SVMVIZ_WARMUP=0``
    or the cache already holds this version's kernels — the background warm-up. Returns the
    warm-up's coordinator, or None."""
    global _WARMUP, _STARTED
    with _START_LOCK:
        if _STARTED:
            return _WARMUP
        _STARTED = True
        threading.Thread(target=_preload, name="svmviz-preload", daemon=True).start()
        if os.environ.get("SVMVIZ_WARMUP", "1") == "0":
            return None
        path = _stamp_path()
        if path and os.path.exists(path):
            return None
        _WARMUP = _Warmup()
        _WARMUP.start()
        w = _WARMUP
        threading.Thread(target=lambda: (threading.main_thread().join(), w.stop()), name="svmviz-warmup-stop",
                         daemon=True).start()
        return _WARMUP


def wait_for(name: str, timeout: float = 600.0, report: Callable[[str], None] | None = None) -> float:
    """See :meth:`_Warmup.wait_for`; 0 when no warm-up runs in this process."""
    w = _WARMUP
    return 0.0 if w is None else w.wait_for(name, timeout, report)


def foreground(name: str):
    """See :meth:`_Warmup.foreground`; does nothing when no warm-up runs in this process."""
    import contextlib

    w = _WARMUP
    return contextlib.nullcontext() if w is None else w.foreground(name)


def status() -> dict | None:
    w = _WARMUP
    return None if w is None else w.status()


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--worker"]:
        _worker_loop()
        return 0
    total = 0.0
    for task in TASKS:
        seconds, compiled = run_task(task)
        total += seconds
        print(f"{task.label:12s} {seconds:6.1f} s  {compiled:4d} numba compilations", flush=True)
    print(f"{'all':12s} {total:6.1f} s")
    path = _stamp_path()
    if path:
        with open(path, "w") as f:
            f.write("warmed by python -m svmviz.ui.warmup\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
