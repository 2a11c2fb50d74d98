"""Compile the numba kernels before the first visitor needs them (issue 13, "Fast from the first click").

On a fresh install numba compiles every kernel on its first call: 10–60 s per page on two cores
(the ν-path's follower alone ≈ 25 s), paid by whoever opens the page first. From server start,
this module opens every page once, headless, in two background processes — the pages' own code
(``AppTest``) with their default views, so exactly the kernels and type signatures the app uses
are compiled and written to numba's on-disk cache, with no second list of calls to keep in step
with the pages. The server process then loads them from the cache (milliseconds).

Order: the pages' first charts first (Tuning criteria, the ν-path without LOO, the Loss page…),
the slower extras after (LOO along the path, the Tuning page's exact LOO). The ν-path follower's
callees (``path-kernels``) come second, before the path page's own task: the two workers start the
Tuning page and them, so that a visitor who opens the path page at once finds them compiling since
the warm-up began (the page's task is then the server's computation itself, beside them).

The visitor comes first (two cores, three processes):

- **While a visitor's page runs** (:func:`visit`, the frame wraps every page's script run), the
  workers busy with other pages' tasks are paused (SIGSTOP) and resumed when the script has run;
  an idle worker starts only tasks of the visited page (it compiles what the page needs next — LOO
  along the path while the server draws the path) — never another page's.
- **A computation of the server** (:func:`foreground` and :func:`wait_for`, called by the
  cached-compute helper's job) that a running task compiles for waits for that task's *same
  computation* — each worker reports every computation it has finished (the kernels are then in
  the on-disk cache) — not for the task's whole page: the first chart is drawn while the worker
  compiles the rest of the page. One whose task has not started yet takes the task off the queue
  and compiles itself, right away. (One compilation, not two on the same two cores.)

Kernel tasks (:attr:`Task.kernels`, :data:`PATH_KERNELS`): a page whose first chart waits for one
long compilation (the ν-path's follower) gets a second task that compiles that compilation's callees
into the on-disk cache with the argument types the page gives them, in the reverse of numba's typing
order, so that the two cores share it: numba loads a callee from the cache when the caller's typing
reaches it. While a visitor's page runs, a worker that has not started its process yet may start
the visited page's kernel task (nobody takes it over), and if a worker is paused for the visit (it
uses no CPU) a **spare** worker, a third process, runs it; otherwise the workers run kernel tasks
in queue order.

When every task has run, a stamp in the cache folder (numba, Python, the CPU and the package's
source) skips the warm-up at the next start. A task a visitor's computation took over runs again in
a worker after the others (from the cache, in seconds; it compiles what the visitor's page did not
reach), so that the stamp is written then too. The warm-up starts with the frame's first run (the first
visitor's home page; Streamlit runs no app code before a browser connects): its worker processes at
once, at low priority (:data:`WORKER_NICE`: background work gives way to the visitor's server and
browser), importing numba and the kernel modules; their tasks and the preloading of the page modules
:data:`START_DELAY` later, once that page is drawn — or the visited page's tasks at once, if a page is
opened before.

Run by the frame (:func:`svmviz.ui.frame.run_app`) once per server process; ``SVMVIZ_WARMUP=0``
turns it off. ``python -m svmviz.ui.warmup`` runs every task in this process (a one-off warm-up,
e.g. after ``pip install``) and prints what each took.
"""
from __future__ import annotations

import collections
import contextlib
import itertools
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
    module: str          # svmviz.ui.<module>.page() is run (a kernel task: the page it compiles for)
    query: dict          # URL parameters of the view
    names: tuple         # cached_compute names (prefixes) whose kernels this task compiles
    kernels: tuple = ()  # a kernel task: ((module, function, argument types), ...) compiled, no page run


PATH_KERNELS = tuple(("svmviz._nu_path." + m, f, sig) for m, f, sig in (
    ("kkt", "interval_thresholds", "f8[::1], f8[::1], f8[::1], b1[::1], i8, f8, f8, f8, f8[::1]"),
    ("follower", "_fix_class_sums", "f8[:, ::1], f8[::1], f8, f8[::1], f8[::1], f8"),
    ("follower", "_snap_lambda", "f8[::1], f8[::1], f8"),
    ("events", "move", "f8[::1], f8[::1], f8[::1], f8[::1], f8, f8, f8[::1], f8[::1], f8[::1], i8[::1], i8[::1], i8, f8, f8, f8, f8, b1[::1], i8"),
    ("events", "step_to_event", "f8[::1], f8[::1], f8[::1], f8[::1], f8, f8, f8[::1], f8[::1], f8[::1], f8[::1], f8[::1], i8[::1], i8[::1], i8, f8, f8, f8, i8"),
    ("events", "advance", "f8[::1], f8[::1], f8[::1], f8[::1], f8[::1], f8, f8, f8[::1], f8[::1], f8[::1], f8[::1], f8[::1], i8[::1], i8[::1], i8, f8, f8, f8, f8, b1[::1], i8, i8, i8"),
    ("follower", "_count_dependent", "f8[::1], f8[::1], f8[::1], f8[::1], f8, f8, f8[::1], f8[::1], i8[::1], f8, f8, f8"),
    ("follower", "_direction_ok", "f8[::1], f8[::1], f8[::1], f8, f8, i8[::1], i8, f8"),
    ("asqp", "_price", "f8[::1], f8[::1], f8[::1], f8[::1], f8[::1], i8[::1], b1[::1], f8, f8, f8"),
    ("kkt", "add_column", "f8[:, ::1], f8[::1], f8, f8[::1], i8, f8"),
    ("events", "ratio_test", "f8[::1], f8[::1], f8[::1], i8[::1], i8, f8[::1], f8[::1], f8, f8, b1"),
    ("asqp", "_solve_working_set", "f8[::1], f8[::1], f8[:, ::1], f8[:, ::1], i8[::1], i8, f8[::1], f8[::1], f8[::1], f8[::1], f8[::1], f8[::1], i8"),
    ("asqp", "asqp", "f8[:, ::1], f8[::1], f8, f8[::1], f8[::1], f8[::1], f8[::1], f8[:, ::1], f8[:, ::1], i8[::1], i8[::1], i8, f8, i8, i8, f8[:, ::1], b1[::1]"),
    ("follower", "_start_direction", "f8[:, ::1], f8[::1], f8, f8[::1], f8[::1], i8[::1]"),
    ("kkt", "invert_in_place", "f8[:, ::1], i8, i8[::1]"),
    ("kkt", "minv_refresh", "f8[:, ::1], f8[::1], f8, f8[:, ::1], f8[:, ::1], i8[::1], i8"),
    ("kkt", "rebuild_working_set_pivoted", "f8[:, ::1], f8[::1], f8, f8[:, ::1], f8[:, ::1], i8[::1], i8[::1], i8, b1[::1], i8[::1], i8[::1], f8"),
    ("kkt", "minv_build", "f8[:, ::1], f8[::1], f8, f8[:, ::1], f8[:, ::1], i8[::1], i8[::1], i8, i8[::1], i8, f8"),
    ("kkt", "rebuild_working_set", "f8[:, ::1], f8[::1], f8, f8[:, ::1], f8[:, ::1], i8[::1], i8[::1], i8, b1[::1], i8[::1], i8[::1], f8"),
    ("kkt", "_swap_symmetric", "f8[:, ::1], i8, i8, i8"),
    ("kkt", "minv_remove", "f8[:, ::1], f8[:, ::1], i8[::1], i8[::1], i8, i8"),
    ("kkt", "minv_add", "f8[:, ::1], f8[::1], f8, f8[:, ::1], f8[:, ::1], i8[::1], i8[::1], i8, i8, f8"),
    ("kkt", "sync_working_set", "f8[:, ::1], f8[::1], f8, f8[:, ::1], f8[:, ::1], i8[::1], i8[::1], i8, b1[::1], i8[::1], i8[::1]"),
    ("kkt", "first_free", "f8[::1], f8[::1], f8"),
    ("follower", "_pivots", "f8[:, ::1], f8[::1], f8[::1], f8, f8[::1], f8[::1], f8[::1], b1[::1], b1[::1], i8[::1]"),
    ("kkt", "qp_bounds", "f8[::1], f8[::1], f8[::1], f8[::1], b1[::1], f8, f8[::1], f8[::1], f8[::1]"),
    ("kkt", "tie_tolerance", "f8[::1], f8, f8, f8"),
    ("kkt", "exact_s", "f8[:, ::1], f8[::1], f8, f8[::1], f8[::1]"),
    ("kkt", "kkt_violation", "f8[::1], f8[::1], f8[::1], f8[::1]"),
    ("follower", "_record", "f8[::1], f8[:, ::1], f8[:, ::1], i8, f8, f8[::1], f8[::1]"),
    ("kkt", "kkt_tol", "f8, f8, f8"),
    ("follower", "_jumped", "f8[::1], f8[::1], f8, f8"),
    ("kkt", "thresholds", "f8[::1], f8[::1], f8[::1], f8[::1]"),
    ("events", "max_zero_steps", "i8"),
    ("kkt", "gram_scale", "f8[:, ::1], f8"),
    ("kkt", "n_positive", "f8[::1]"),
))
"""The kernels the ν-path follower (``svmviz._nu_path.follower._follow``) calls, with the argument
types the path page's call gives them, in the REVERSE of the order in which numba types them while
it compiles the follower. The task ``path-kernels`` compiles them into the on-disk cache beside the
follower's own compilation (another worker, or the spare while a visitor waits, :class:`_Warmup`):
numba then loads each from the cache when the follower's typing reaches it instead of compiling it.
Fresh caches, n = 200, load 1-2: the follower's first compilation takes 14.0 s of CPU on an empty
cache, 4.65 s once these are all cached (they take 9.2 s by themselves). Run at the same time, the
two processes meet in the middle (each compiles what it reaches first): the follower's CPU
13.4-14.1 -> 12.1-12.3 s when both start together (load 7-8), 11.4 s (42 compilations instead of
63) when this task has a 3 s head start (load 5) — the warm-up's case: the page's computation
starts seconds after the task. Where they met, both compiled the kernel one had begun (two
processes started together on an empty cache: ``minv_add``, ``minv_remove``,
``rebuild_working_set_pivoted`` twice, 0.8-0.95 s of CPU); now a process that needs a kernel the
other is compiling waits for it and loads it (:mod:`svmviz._nu_path._compile_lock`), and this task
leaves a kernel the server is compiling for its end (:func:`compile_kernels`).
``tests/test_warmup6_kernels.py`` runs the follower on an empty cache and checks this list against
what numba compiled (names, types, order): it cannot go stale silently. Types: ``f8`` float64,
``i8`` int64, ``b1`` bool, ``[::1]`` C-contiguous arrays."""

IVM_KERNELS = (
    ("svmviz._klr", "_scores_onestep",
     "f8[:, ::1], i8[::1], i8[::1], f8[:, ::1], f8[:, ::1], f8[:, ::1], f8[:, ::1], f8[:, ::1], f8[:, ::1], "
     "f8[:, ::1], f8[::1], f8, b1, i8"),
    ("svmviz._klr", "_klr_full", "f8[:, ::1], f8[:, ::1], f8, b1, f8[:, ::1], f8, i8"),
)
"""The IVM page's first chart (the λ path, :func:`svmviz.ivm.ivm_lambda_path`) compiles
``_klr._newton_fit`` and then ``_klr._scores_onestep`` (~3 s of CPU each, idle): the task
``ivm-kernels`` compiles the second (and the KLR path's ``_klr_full``, a later chart) while the page
compiles the first. ``tests/test_warmup6_kernels.py`` checks that the page's calls load them."""


TASKS = (
    Task("tuning", "tuning", {}, ("surface", "curves")),
    Task("path-kernels", "path", {}, (), PATH_KERNELS),
    Task("path", "path", {"ploo": "0"}, ("nu_path",)),
    Task("losses", "losses", {}, ("loss_gacv",)),
    Task("usvc", "usvc", {}, ("usvc_",)),
    Task("ivm", "ivm", {}, ("ivm_",)),
    Task("ivm-kernels", "ivm", {}, (), IVM_KERNELS),
    Task("path-loo", "path", {}, ("nu_path_loo",)),
    Task("anova", "anova", {}, ("anova_",)),
    Task("tuning-loo", "tuning", {"loo": "1", "n": "60", "res": "6"}, ("surface",)),
    Task("studies", "studies", {}, ()),
    Task("path-linear", "path", {"ploo": "0", "pkernel": "linear"}, ()),
)
WORKERS = 2
WORKER_NICE = 10
"""Niceness added to the worker processes (Linux ``nice``): the warm-up is background work, and on a
fresh install the visitor's page — the server's own computation and the browser drawing its charts, on
the same two cores — comes first. An idle core is still the workers' (nice only orders the processes
that want the CPU at the same time); the server waits for a worker only while nothing else needs the
core (:meth:`_Warmup.wait_for`, the compile lock)."""
PRELOADED = ("numba",) + tuple(dict.fromkeys(m for m, _, _ in PATH_KERNELS + IVM_KERNELS))
"""What a worker process imports as it starts, before it is given a task (:meth:`_Warmup.spawn`): numba
and the modules of the kernel tasks (:data:`PATH_KERNELS`, :data:`IVM_KERNELS`), so that a kernel task
given at a visitor's click starts compiling at once. A page task imports its page (and Streamlit's
testing API) itself."""
START_DELAY = 1.0
"""Seconds between the frame's first run and the warm-up's first tasks, and the preloading of the page
modules: the first page a visitor waits for — the home page, usually — is drawn first instead of
competing with seconds of imports and compilation. The worker processes themselves start at once, at
low priority (:data:`WORKER_NICE`), and import :data:`PRELOADED` meanwhile. A page opened sooner
starts the tasks at once (the preloading keeps its delay: the page imports itself)."""
TASK_TIMEOUT = 900.0  # seconds for one page's first run in a worker (compilation on a busy machine)


# ------------------------------------------------------------------ one task (in a worker process)
def run_task(task: Task) -> tuple[float, int]:
    """Run the page of ``task`` headless (its default view with ``task.query``); returns (seconds,
    numba compilations). Raises RuntimeError if the page raised."""
    from numba.core import event

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
        if task.kernels:
            stale = compile_kernels(task.kernels)
            if stale:  # a list gone stale costs time, not the stamp: the page compiles them itself
                print(json.dumps({"stale kernels": stale}), flush=True)
            return time.perf_counter() - t0, count[0]
        # a page task only: streamlit's testing API (0.6-1.0 s of imports) is no kernel task's work —
        # the path page's kernel task runs beside the server's first path on two cores (cold-now),
        # where every CPU second it spends is taken from the follower's compilation
        from streamlit.testing.v1 import AppTest

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


def kernel_types(sig: str) -> tuple:
    """The numba argument types written ``"f8[:, ::1], i8, b1[::1]"`` in :data:`PATH_KERNELS`."""
    from numba import types

    names = {"f8": types.float64, "i8": types.int64, "b1": types.boolean}
    return eval(f"({sig},)", {"__builtins__": {}}, names)  # noqa: S307 — our own constants


def compile_kernels(kernels) -> list[str]:
    """Compile each ``(module, function, argument types)`` of a kernel task (:data:`PATH_KERNELS`)
    into numba's on-disk cache — or load it from there — without calling it (a ν-path ``helper``
    has no CPython wrapper: a call from Python would crash). Returns the entries that failed (a
    function renamed, a signature changed), skipped: the page's own compilation compiles them.

    A kernel that another process (the server's first path) is compiling at that moment
    (:func:`svmviz._nu_path._compile_lock.compiling_elsewhere`) is left for the end, when it is
    loaded from the cache: the two processes compile different kernels instead of the same one."""
    import importlib

    from svmviz._nu_path._compile_lock import compiling_elsewhere

    failed = []
    later = []
    for entry in kernels:
        try:
            if compiling_elsewhere(getattr(importlib.import_module(entry[0]), entry[1]), kernel_types(entry[2])):
                later.append(entry)
                continue
        except Exception:  # noqa: BLE001 — a bad entry: reported by _compile_kernel
            pass
        _compile_kernel(entry, failed)
    for entry in later:
        _compile_kernel(entry, failed)
    return failed


def _compile_kernel(entry, failed: list) -> None:
    """Compile (or load) one kernel of :func:`compile_kernels`; a failure is appended to ``failed``."""
    import importlib

    module, function, sig = entry
    try:
        dispatcher = getattr(importlib.import_module(module), function)
        dispatcher.compile(kernel_types(sig))
    except Exception as exc:  # noqa: BLE001 — reported, skipped
        failed.append(f"{module}.{function}: {type(exc).__name__}: {exc}"[:300])


_IN_WORKER: dict = {}  # in a worker process: {"label": the task running, "lock": for stdout}


def _worker_say(msg: dict) -> None:
    with _IN_WORKER["lock"]:
        print(json.dumps(msg), flush=True)


def _worker_loop() -> None:
    """``python -m svmviz.ui.warmup --worker``: run the tasks named on stdin, one per line, answer on
    stdout: a line ``{"label", "step": name}`` after each computation ``name`` the page has finished
    (:func:`foreground`, in the worker), then ``{"label", "ok", …}`` when the page has run."""
    import importlib

    by_label = {t.label: t for t in TASKS}
    _IN_WORKER["lock"] = threading.Lock()
    for module in PRELOADED:  # before the first task arrives (the process starts with the server)
        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001 — the task that needs it reports the error
            pass
    for line in sys.stdin:
        label = line.strip()
        if not label:
            continue
        _IN_WORKER["label"] = label
        try:
            seconds, compiled = run_task(by_label[label])
            _worker_say({"label": label, "ok": True, "seconds": seconds, "compiled": compiled})
        except Exception as exc:  # noqa: BLE001 — reported to the server, which goes on
            _worker_say({"label": label, "ok": False, "error": str(exc)[:500]})


# ------------------------------------------------------------------ the stamp
def _stamp_path() -> str | None:
    cache = os.environ.get("NUMBA_CACHE_DIR")
    if not cache:
        return None
    from importlib.metadata import version

    import svmviz

    h = hashlib.sha1()  # numba's version from its metadata: checking the stamp imports nothing (server start)
    h.update(f"{version('numba')} {sys.version} {platform.machine()} {platform.processor()}".encode())
    root = os.path.dirname(os.path.abspath(svmviz.__file__))
    for dirpath, _dirs, files in sorted(os.walk(root)):
        for f in sorted(files):
            if f.endswith(".py"):
                p = os.path.join(dirpath, f)
                st = os.stat(p)
                h.update(f"{os.path.relpath(p, root)} {st.st_size} {st.st_mtime_ns}".encode())
    return os.path.join(cache, f"svmviz-warm-{h.hexdigest()[:16]}")


def _worker_preexec() -> None:
    """In a worker, before it runs: lower its priority (:data:`WORKER_NICE`) and (Linux) be killed when
    the server process ends, however it ends — a worker compiling for minutes (or paused,
    :meth:`_Warmup.foreground`) must not outlive it."""
    try:
        os.nice(WORKER_NICE)
    except (AttributeError, OSError):  # no nice (Windows): the workers run at the server's priority
        pass
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (also if paused)
    except Exception:  # noqa: BLE001 — elsewhere the worker ends at its next task (stdin closed)
        pass


# ------------------------------------------------------------------ the coordinator (server process)
class _Warmup:
    def __init__(self, tasks=TASKS, workers: int = WORKERS, command: list | None = None, spare: bool = True):
        self.command = command or [sys.executable, "-m", "svmviz.ui.warmup", "--worker"]  # a worker process
        self.lock = threading.Lock()
        self.cv = threading.Condition(self.lock)  # notified on every change of state, steps, visits
        self.queue = collections.deque(tasks)
        self.state = {t.label: "queued" for t in tasks}
        self.done = {t.label: threading.Event() for t in tasks}
        self.steps: dict[str, set] = {t.label: set() for t in tasks}  # computations each task finished
        self.tasks = {t.label: t for t in tasks}
        self.report: dict[str, dict] = {}
        self.workers = workers
        self.spare = spare  # a worker more, for the visited page's kernel tasks while a worker is paused
        self.started = time.monotonic()
        self.procs: list[subprocess.Popen] = []
        self.go = threading.Event()  # set by start(): tasks may be given (the processes may exist before)
        self.feeding = False         # the feed threads have started (spawn() or start())
        self.busy: set[int] = set()  # workers running a task (from _next's return to the task's end)
        self.n_feeding = 0           # worker threads started (not the spare)
        self.all_ran_in_workers = True  # False once a task failed: no stamp
        # tasks a server computation took over (it compiled their kernels itself), run again in a
        # worker once the queue is empty — quickly, from the cache — so that every task has run and
        # the stamp is written; a page the visitor did not finish is compiled then too
        self.later: collections.deque = collections.deque()
        self.rerun: set[str] = set()
        self.current: dict[int, tuple] = {}  # worker → (label, process) of the task it runs
        self.fg: dict[int, set] = {}          # foreground token → labels of the tasks it may wait for
        self.paused: set[int] = set()         # pids stopped with SIGSTOP
        self.log: list[tuple] = []            # (seconds, what, label or name): the timeline (bench, tests)

    def _note(self, what: str, label: str) -> None:
        entry = (round(time.monotonic() - self.started, 3), what, label)
        self.log.append(entry)
        path = os.environ.get("SVMVIZ_WARMUP_LOG")  # bench/bench_coldstart.py: the timeline per server
        if path:
            try:
                with open(path, "a") as f:
                    f.write(f"{time.time():.3f} {entry[0]:8.3f} {what} {label}\n")
            except OSError:
                pass

    def spawn(self) -> None:
        """Start the worker processes now, without tasks: at low priority (:data:`WORKER_NICE`) they
        import :data:`PRELOADED` while the home page is drawn and read, and a task given later
        (:meth:`start`, or a visitor's page) starts without that delay. The spare starts with its
        first task."""
        with self.lock:
            if self.feeding:
                return
            self.feeding = True
            self.n_feeding = self.workers
        for i in range(self.workers):
            threading.Thread(target=self._feed, args=(i, True), name=f"svmviz-warmup-{i}", daemon=True).start()

    def start(self) -> None:
        """Let the workers take tasks (starting their processes first if :meth:`spawn` did not)."""
        with self.lock:
            fed, self.feeding = self.feeding, True
            if not fed:
                self.n_feeding = self.workers
        for i in range(self.workers + bool(self.spare)):  # worker number ``self.workers``: the spare
            if fed and i < self.workers:
                continue
            threading.Thread(target=self._feed, args=(i,), name=f"svmviz-warmup-{i}", daemon=True).start()
        with self.cv:
            self.go.set()
            self.cv.notify_all()

    # -- which task next ------------------------------------------------------------------------
    def _startable(self, warm: bool = True) -> Task | None:
        """With the lock held: the next queued task a free worker may start — while a visitor's page
        runs only one of that page's (its computations to come), and only by a worker that has run a
        task before (``warm``: a new one spends seconds importing the page; the page compiles sooner
        itself) — except a kernel task, which nobody takes over — else the first queued."""
        keep = self._kept() if self.fg else None
        for t in self.queue:
            if self.state[t.label] == "queued" and (keep is None or (t.label in keep and (warm or t.kernels))):
                return t
        return None

    def _kept(self) -> set:
        """With the lock held: the tasks the open foreground contexts may wait for (a task run again
        only to complete the stamp is waited for by nobody: its kernels are compiled)."""
        return set().union(*self.fg.values()) - self.rerun

    def _spare_task(self) -> Task | None:
        """With the lock held: the task the spare worker may start now — a kernel task of the page a
        visitor waits for (:attr:`Task.kernels`), while fewer than :attr:`workers` workers run
        unpaused (a worker paused for the visit, or not started yet: the core it leaves idle) and no
        worker waits for a task (an idle worker takes the kernel task itself: its process is up, the
        spare's is not — a third process for nothing; a worker still starting its process counts)."""
        running = sum(1 for st in self.state.values() if st == "running")  # a worker's process may be starting
        active = running - sum(1 for _, proc in self.current.values() if proc.pid in self.paused)
        free = self.n_feeding - len(self.busy - {self.workers})
        if not self.fg or active >= self.workers or free > 0:
            return None
        keep = self._kept()
        for t in self.queue:
            if t.kernels and self.state[t.label] == "queued" and t.label in keep:
                return t
        return None

    def _next(self, warm: bool = True, spare: bool = False, who: int = -1) -> Task | None:
        """Block until a task may start (``warm``: this worker has run a task; ``spare``: the spare
        worker, :meth:`_spare_task`) — not before :meth:`start` —; None when none is left. Worker
        ``who`` is :attr:`busy` from a task's start to its end (:meth:`_feed`)."""
        with self.cv:
            t = self._next_locked(warm, spare)
            if t is not None:
                self.busy.add(who)
            return t

    def _next_locked(self, warm: bool, spare: bool) -> Task | None:
        """:meth:`_next`'s loop, with the lock held."""
        while True:
            if not self.go.is_set():
                self.cv.wait(1.0)
                continue
            while self.queue and self.state[self.queue[0].label] != "queued":
                self.queue.popleft()
            if spare:
                if not any(t.kernels and self.state[t.label] == "queued" for t in self.queue):
                    return None
                t = self._spare_task()
                if t is None:
                    self.cv.wait(1.0)
                    continue
                self.queue.remove(t)
                self.state[t.label] = "running"
                self._note("start (spare)", t.label)
                return t
            if not self.queue and self.later and not any(s == "running" for s in self.state.values()):
                # every other task has run: the ones taken over run again (their kernels cached)
                while self.later:
                    t = self.later.popleft()
                    self.rerun.add(t.label)
                    self.state[t.label] = "queued"
                    self.queue.append(t)
                    self._note("again", t.label)
            if not self.queue:
                if self.later:  # wait for the running tasks, then run the taken-over ones
                    self.cv.wait(1.0)
                    continue
                return None
            t = self._startable(warm)
            if t is not None:
                self.queue.remove(t)
                self.state[t.label] = "running"
                self._note("start", t.label)
                return t
            self.cv.wait(1.0)

    def _spawn(self) -> subprocess.Popen:
        proc = subprocess.Popen(
            self.command, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
            env={**os.environ, "SVMVIZ_WARMUP": "0"}, preexec_fn=_worker_preexec)
        with self.lock:
            self.procs.append(proc)
        return proc

    def _feed(self, i: int, spawn_now: bool = False) -> None:
        proc = self._spawn() if spawn_now else None
        ran = False  # this worker has run a task (its process has imported a page's code, or compiled)
        try:
            while True:
                task = self._next(warm=ran, spare=i >= self.workers, who=i)
                if task is None:
                    break
                if proc is None:
                    proc = self._spawn()
                ran = True
                with self.cv:
                    self.current[i] = (task.label, proc)
                    self._pause_others()  # a visitor's page may have come meanwhile
                rep = line = None
                try:
                    proc.stdin.write(task.label + "\n")
                    proc.stdin.flush()
                except OSError:  # the process ended (killed, crashed) before taking the task: as below
                    line = ""
                    rep = {"label": task.label, "ok": False, "error": "the warm-up process ended"}
                while rep is None:  # skip anything else a page may have printed
                    line = proc.stdout.readline()
                    if not line:
                        rep = {"label": task.label, "ok": False, "error": "the warm-up process ended"}
                        break
                    try:
                        got = json.loads(line)
                    except ValueError:
                        continue
                    if not isinstance(got, dict) or got.get("label") != task.label:
                        continue
                    if "step" in got:
                        with self.cv:
                            self.steps[task.label].add(str(got["step"]))
                            self._note("step " + str(got["step"]), task.label)
                            self.cv.notify_all()
                    else:
                        rep = got
                rep["at"] = time.monotonic() - self.started
                with self.cv:
                    self.current.pop(i, None)
                    self.busy.discard(i)
                    self.report[task.label] = rep
                    self.state[task.label] = "done" if rep.get("ok") else "failed"
                    self._note("done" if rep.get("ok") else "failed", task.label)
                    if not rep.get("ok"):
                        self.all_ran_in_workers = False
                    self.cv.notify_all()
                self.done[task.label].set()
                if not line:
                    break
        finally:
            with self.cv:
                self.busy.discard(i)
                if i < self.workers:
                    self.n_feeding -= 1  # no longer takes tasks: the spare may
                self.cv.notify_all()
            if proc is not None:
                try:
                    proc.stdin.close()
                    proc.wait(timeout=5)
                except Exception:  # noqa: BLE001
                    proc.kill()
            self._maybe_stamp()

    def _maybe_stamp(self) -> None:
        """Write the stamp once every task has run to its end in a worker (a task a server
        computation took over has run again after the others, :meth:`_next`)."""
        with self.lock:
            ok = self.all_ran_in_workers and all(s == "done" for s in self.state.values()) and not self.later
        if ok:
            path = _stamp_path()
            if path:
                try:
                    with open(path, "w") as f:
                        json.dump(self.report, f, indent=1)
                except OSError:
                    pass

    # -- the server's computations --------------------------------------------------------------
    def _tasks_of(self, name: str) -> list[Task]:
        return [t for t in self.tasks.values() if any(name.startswith(p) for p in t.names)]

    def wait_for(self, name: str, timeout: float, report: Callable[[str], None] | None = None) -> float:
        """Before a computation ``name`` runs in this process: wait while a running warm-up task
        compiles for it — until that task has finished the same computation (its kernels are in the
        on-disk cache) or has ended; take the tasks not started off the queue (this process compiles
        what it needs now). Returns the seconds waited."""
        t0 = time.monotonic()
        deadline = t0 + timeout
        mine = self._tasks_of(name)
        with self.cv:
            self._take_over(name)
            said = False
            while True:
                running = [t for t in mine if self.state[t.label] == "running" and name not in self.steps[t.label]
                           and t.label not in self.rerun]
                left = deadline - time.monotonic()
                if not running or left <= 0:
                    break
                if report is not None and not said:
                    said = True
                    report("compiling the numerical kernels in the background (first start after an install only)")
                self.cv.wait(min(left, 1.0))
            if said:
                self._note(f"waited {time.monotonic() - t0:.2f} s", name)
        return time.monotonic() - t0

    def _take_over(self, name: str) -> None:
        """With the lock held: the queued tasks compiling for ``name`` leave the queue (this process
        compiles it now) and wait in :attr:`later` to run again once the queue is empty."""
        for t in self._tasks_of(name):
            if self.state[t.label] == "queued" and t.label not in self.rerun:
                self.state[t.label] = "skipped"  # until it runs again
                self.later.append(t)
                self._note("taken over by " + name, t.label)
                self.done[t.label].set()

    def _enter(self, keep: set, take_over: str | None = None) -> int:
        with self.cv:
            if take_over is not None:
                self._take_over(take_over)
            token = next(_TOKENS)
            self.fg[token] = set(keep)
            self._note("foreground", ",".join(sorted(keep)) or "-")
            self._pause_others()
            self.cv.notify_all()
            return token

    def _leave(self, token: int) -> None:
        import signal

        with self.cv:
            self.fg.pop(token, None)
            self._note("foreground ends", str(len(self.fg)))
            if not self.fg:
                for pid in list(self.paused):
                    try:
                        os.kill(pid, signal.SIGCONT)
                    except OSError:
                        pass
                    self._note("resume", str(pid))
                self.paused.clear()
            else:
                self._pause_others()
            self.cv.notify_all()

    def _context(self, keep: set, take_over: str | None = None):
        @contextlib.contextmanager
        def cm():
            token = self._enter(keep, take_over)
            try:
                yield
            finally:
                self._leave(token)

        return cm()

    def foreground(self, name: str):
        """Context of a server computation ``name`` (run for a visitor): the workers compiling for
        other pages are paused (SIGSTOP) and start no task of another page until it ends, so that the
        visitor's page gets the CPU — its own running warm-up task, if any, goes on."""
        return self._context({t.label for t in self._tasks_of(name)}, take_over=name)

    def visit(self, module: str):
        """Context of a visitor's run of the page ``svmviz.ui.<module>``: as :meth:`foreground`, for
        every task of that page (a page's script also compiles outside its cached computations, and
        draws while the workers would compete for the two cores)."""
        return self._context({t.label for t in self.tasks.values() if t.module == module})

    @property
    def fg_idle(self) -> threading.Event:
        """Set while no foreground context is open (tests)."""
        e = threading.Event()
        if not self.fg:
            e.set()
        return e

    def _pause_others(self) -> None:
        """With the lock held: pause the workers running a task no open context may wait for; let
        those that are waited for run. Nothing is paused when no context is open."""
        import signal

        if not self.fg:
            return
        keep = self._kept()
        for label, proc in self.current.values():
            if proc.poll() is not None:
                continue
            try:
                if label in keep and proc.pid in self.paused:
                    os.kill(proc.pid, signal.SIGCONT)
                    self.paused.discard(proc.pid)
                    self._note("resume", label)
                elif label not in keep and proc.pid not in self.paused:
                    os.kill(proc.pid, signal.SIGSTOP)
                    self.paused.add(proc.pid)
                    self._note("pause", label)
            except OSError:
                pass

    def stop(self) -> None:
        """End the worker processes and drop what is queued (server shutdown)."""
        with self.cv:
            for label, st in self.state.items():
                if st == "queued":
                    self.state[label] = "skipped"
                    self.done[label].set()
            self.queue.clear()
            self.later.clear()
            procs = list(self.procs)
            self.go.set()  # the feed threads waiting for start() end
            self.cv.notify_all()
        for proc in procs:
            if proc.poll() is None:
                proc.kill()

    def status(self) -> dict:
        with self.lock:
            return {"state": dict(self.state), "report": dict(self.report), "log": list(self.log)}


_WARMUP: _Warmup | None = None
_TOKENS = itertools.count()
_START_LOCK = threading.Lock()


_STARTED = False


# The preloading and a visitor's page never import at the same time: two threads importing
# scikit-learn for the first time can fail inside scikit-learn ("cannot import name … from partially
# initialized module", seen in tests/test_jit_cache.py's threaded imports). A page opened while the
# preloading runs waits for it to end (it imports what the page needs anyway); once a page has been
# opened, a preloading that has not started yet is skipped.
_PRELOAD = {"lock": threading.Lock(), "visited": False, "running": False, "done": threading.Event()}
PRELOAD_WAIT = 60.0  # seconds a page waits at most for a running preloading (imports: ~2 s idle)


def _import_page(module: str) -> None:
    import importlib

    importlib.import_module(f"svmviz.ui.{module}")


def _preload() -> None:
    """Import every page's module (scikit-learn, scipy, plotly, the numba kernel modules: ~2 s) while
    the home page is read, so that the first page opened does not wait for it."""
    time.sleep(START_DELAY)
    with _PRELOAD["lock"]:
        if _PRELOAD["visited"]:
            _PRELOAD["done"].set()
            return
        _PRELOAD["running"] = True
    try:
        for t in dict.fromkeys(t.module for t in TASKS):
            try:
                _import_page(t)
            except Exception:  # noqa: BLE001 — the page itself will report it
                pass
    finally:
        with _PRELOAD["lock"]:
            _PRELOAD["running"] = False
        _PRELOAD["done"].set()


def _preload_gate() -> None:
    """Called as a visitor's page starts: wait for a running preloading, forbid one not yet started."""
    with _PRELOAD["lock"]:
        _PRELOAD["visited"] = True
        running = _PRELOAD["running"]
    if running:
        _PRELOAD["done"].wait(PRELOAD_WAIT)


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
        # the coordinator exists at once (a page opened meanwhile is a visit of it); its work begins
        # START_DELAY later, or never when the cache holds this version's kernels
        _WARMUP = w = _Warmup()
        threading.Thread(target=_begin, args=(w,), name="svmviz-warmup-begin", daemon=True).start()
        threading.Thread(target=lambda: (threading.main_thread().join(), w.stop()), name="svmviz-warmup-stop",
                         daemon=True).start()
        return _WARMUP


_PAGE_OPENED = threading.Event()  # a visitor opened a page (not the home page): the warm-up begins now


def _begin(w: _Warmup) -> None:
    # the stamp at once (it imports nothing), the worker processes at once (low priority: they import
    # while the home page is drawn), their tasks START_DELAY after the first run or at once when a page
    # is opened before (bench cold-now clicks ~0.6 s in: the page's kernel task starts compiling then)
    path = _stamp_path()
    if path and os.path.exists(path):
        w.stop()  # nothing to compile: every task skipped, nobody waits
        return
    w.spawn()
    _PAGE_OPENED.wait(START_DELAY)
    w.start()


def wait_for(name: str, timeout: float = 600.0, report: Callable[[str], None] | None = None) -> float:
    """See :meth:`_Warmup.wait_for`; 0 when no warm-up runs in this process."""
    w = _WARMUP
    return 0.0 if w is None else w.wait_for(name, timeout, report)


def foreground(name: str):
    """See :meth:`_Warmup.foreground`; does nothing when no warm-up runs in this process. In a
    warm-up worker: reports the computation ``name`` finished when the context ends (the server's
    same computation then stops waiting, :meth:`_Warmup.wait_for`)."""
    w = _WARMUP
    if w is not None:
        return w.foreground(name)
    if "label" in _IN_WORKER:
        return _step(name)
    return contextlib.nullcontext()


@contextlib.contextmanager
def _step(name: str):
    try:
        yield
    finally:
        _worker_say({"label": _IN_WORKER["label"], "step": name})


def trace(what: str, label: str) -> None:
    """A line in the timeline file ``SVMVIZ_WARMUP_LOG`` (bench/bench_coldstart.py), with or without
    the warm-up: the visits and computations of the server, or of a worker's page run (``(worker
    <task>)``), beside the warm-up's tasks."""
    path = os.environ.get("SVMVIZ_WARMUP_LOG")
    if path:
        who = f"worker {_IN_WORKER['label']}" if "label" in _IN_WORKER else "server"
        try:
            with open(path, "a") as f:
                f.write(f"{time.time():.3f}          {what} {label} ({who})\n")
        except OSError:
            pass


def visit(module: str | None):
    """See :meth:`_Warmup.visit`: around a visitor's run of the page ``svmviz.ui.<module>`` (None: the
    home page, which pauses nothing). Without a warm-up in this process: only the preloading gate.

    The visit is open while the page waits for a running preloading (:func:`_preload_gate`): under
    load that wait took 9 s (bench cold-now, load 8.8), and a worker started meanwhile on another
    page's task ran unpaused beside the server's imports and the page's kernel task."""
    w = _WARMUP
    if module is None:
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def cm():
        _PAGE_OPENED.set()
        trace("page run", module)
        with contextlib.nullcontext() if w is None else w.visit(module):
            _preload_gate()
            trace("preloading ended", module)
            yield

    return cm()


def status() -> dict | None:
    w = _WARMUP
    return None if w is None else w.status()


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--worker"]:
        # run as ``python -m``, this file is ``__main__``: the pages' jobs report through the module
        # they import (its ``_IN_WORKER``), so the loop must run there
        from svmviz.ui import warmup as module

        module._worker_loop()
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
