"""``numba.njit`` for svmviz's compiled functions: an on-disk cache that follows every source, and a
one-line notice when one must compile.

The cache. numba keys a cached function on its own file only, yet it compiles into each function the
functions it calls (``ivm._klr`` and ``usvc._irwls`` call ``_linalg``, ``svm._smo`` calls
``kernels._gram``…): after an edit of a callee, or an upgrade of svmviz over an old cache, a caller's
cached copy would keep the old callee. :func:`njit` with ``cache=True`` therefore caches svmviz's
compiled functions in the folder :func:`cache_folder`, ``<base>/svmviz-kernels-<digest>``, the digest
of every numba module of svmviz (:func:`source_digest`): any edit compiles afresh, unchanged sources
load from the cache. The folder is chosen once per process and applies to svmviz's functions only:
numba's own setting (``NUMBA_CACHE_DIR``) is read, never changed (how: :mod:`svmviz._numba_compat`).

The base folder (:func:`cache_base`): ``SVMVIZ_CACHE_DIR`` if set, else ``NUMBA_CACHE_DIR`` if set,
else the first writable of ``$XDG_CACHE_HOME/svmviz-numba``, ``~/.cache/svmviz-numba`` and
``$TMPDIR/svmviz-numba-<uid>``. Folders of older sources are not removed (other checkouts may
share the base): ``rm -rf <base>/svmviz-kernels-*`` frees the space.

The notice. ``svmviz warmup`` (:mod:`svmviz._warmup`) compiles everything ahead of time and leaves
a stamp in the cache folder (:func:`stamp_path`). Until then, a function that must compile says so
once per group (:data:`COMPILE_GROUPS`), in plain words (:func:`compile_notice`): on the page's
progress line (:class:`notices_to`), or as one warning line of the ``svmviz`` logger in a notebook.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import functools
import hashlib
import logging
import os
import threading
from importlib.metadata import version
from typing import Callable

import numba

from ._numba_compat import njit_cached_in, plain_call_types, with_one_copy_inline, without_cfunc_wrapper

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
CACHE_PREFIX = "svmviz-kernels-"
_log = logging.getLogger("svmviz")
_SKIP_DIRS = frozenset({"__pycache__", "ui", "figures", "studies"})  # nothing compiled there
_NOT_COMPILED = frozenset({"_jit.py", "_numba_compat.py", "_warmup.py", "cli.py"})  # about numba, nothing compiled


@functools.lru_cache(maxsize=None)
def compiled_sources() -> tuple[str, ...]:
    """The sources of svmviz's compiled functions, as absolute paths: every ``.py`` file that mentions
    numba or njit, and every module of a folder below the top that has one (its constants, e.g.
    ``path/_solver/config.py``, are compiled in)."""
    out = []
    for root, dirs, files in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        texts = {}
        for name in sorted(files):
            if name.endswith(".py"):
                with open(os.path.join(root, name), "rb") as f:
                    texts[name] = f.read()
        compiled = {name for name, text in texts.items()
                    if (b"numba" in text or b"njit" in text) and name not in _NOT_COMPILED}
        out += [os.path.join(root, name) for name in texts if name in compiled or (root != _PACKAGE and compiled)]
    return tuple(out)


@functools.lru_cache(maxsize=None)
def source_digest() -> str:
    """A digest of the contents of :func:`compiled_sources` (and their paths inside the package)."""
    h = hashlib.sha256()
    for path in compiled_sources():
        with open(path, "rb") as f:
            h.update(os.path.relpath(path, _PACKAGE).encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()[:16]


def numba_source_key() -> str:
    """A digest of what numba keys a cached function on besides its code: the folder of its source file
    and the file's modification time and size (numba's documentation, *Notes on caching*; a cache entry
    saved for another path or another time is not loaded, it is compiled again).

    Two copies of the same sources — a second checkout or environment sharing the cache base, or a
    reinstall that gives the files new times — share :func:`cache_folder` (keyed on contents), yet
    each must compile once: the stamp (:func:`stamp_path`) is therefore keyed on this too.
    """
    h = hashlib.sha256()
    for path in compiled_sources():
        st = os.stat(path)
        h.update(f"{path}\0{st.st_mtime!r}\0{st.st_size}\0".encode())
    return h.hexdigest()[:12]


def _nearest_existing(path: str) -> str:
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def creatable(path: str) -> bool:
    """Whether ``path`` is a writable folder or could be created as one (decided by ``os.access``)."""
    if os.path.isdir(path):
        return os.access(path, os.W_OK | os.X_OK)
    if os.path.exists(path):  # a file in the way
        return False
    anc = _nearest_existing(path)
    return os.path.isdir(anc) and os.access(anc, os.W_OK | os.X_OK)


def _candidates() -> list[str]:
    out = []
    for var in ("SVMVIZ_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(var):
            return [os.environ[var]]
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        out.append(os.path.join(xdg, "svmviz-numba"))
    home = os.path.expanduser("~")
    if home and home != "~":
        out.append(os.path.join(home, ".cache", "svmviz-numba"))
    tmp = os.environ.get("TMPDIR") or os.environ.get("TEMP") or os.environ.get("TMP") or "/tmp"
    out.append(os.path.join(tmp, f"svmviz-numba-{getattr(os, 'getuid', lambda: 'user')()}"))
    return out


def cache_base() -> str | None:
    """The folder holding svmviz's caches of compiled functions (see the module); None when none can be written."""
    for path in _candidates():
        if creatable(path):
            return path
    return None


@functools.lru_cache(maxsize=None)
def cache_folder() -> str | None:
    """The folder svmviz's compiled functions are cached in, chosen once per process (None: numba's
    own default locations)."""
    base = cache_base()
    return os.path.join(base, CACHE_PREFIX + source_digest()) if base else None


def njit(*args, **kwargs):
    """``numba.njit`` (same arguments); ``cache=True`` caches under :func:`cache_folder`. A call from
    compiled code compiles the function for the arguments' plain types, as a call from Python does,
    not once more per constant the caller passes (:func:`svmviz._numba_compat.plain_call_types`).
    Every function made here is counted in its group (:data:`COMPILE_GROUPS`) for the compile
    progress line. No function gets numba's C-callable wrapper, which nothing of svmviz calls
    (:func:`svmviz._numba_compat.without_cfunc_wrapper`). A function inlined into its caller
    (``inline='always'``) has its scope copied once per copy of its IR, not once per block
    (:func:`svmviz._numba_compat.with_one_copy_inline`).

    Every function releases the GIL (``nogil=True`` unless given): a call from Python lets other
    threads run (a Streamlit server's sessions, the σ threads of a criteria surface), and every
    function compiles with the same options. numba compiles its implementations of numpy
    (``np.empty``, ``np.dot``, sorting…) once per argument types *and* options of the calling
    function: with one set of options, one copy of each serves every svmviz function of a process."""
    kwargs = with_one_copy_inline(without_cfunc_wrapper({"nogil": True, **kwargs}))
    if args or not kwargs.get("cache"):  # nothing cached in svmviz's folder
        made = numba.njit(*args, **kwargs)  # a dispatcher (@njit, njit(fn, …)) or a decorator (njit(signature, …))
        return _registered(made) if hasattr(made, "py_func") else (lambda fn: _registered(made(fn)))
    options = {k: v for k, v in kwargs.items() if k != "cache"}

    def decorate(fn):
        folder = cache_folder()
        if folder is None:
            return _registered(numba.njit(cache=True, **options)(fn))
        return _registered(njit_cached_in(folder, fn, **options))

    return decorate


# ------------------------------------------------------------------------------------------ the stamp
def stamp_path() -> str | None:
    """The file that marks svmviz's cache as compiled for these sources, at this place, and this numba
    (None: no cache folder). It lies in the cache folder, named after the digest of the compiled sources
    (:func:`cache_folder`), and its name holds numba's version and :func:`numba_source_key`: an edit,
    an upgrade or a reinstall of svmviz, a copy of it elsewhere, or emptying the cache makes it absent."""
    base = cache_base()
    if base is None:
        return None
    return os.path.join(base, CACHE_PREFIX + source_digest(),
                        f"warmed-numba-{version('numba')}-{numba_source_key()}")


def is_current() -> bool:
    """Whether ``svmviz warmup`` has compiled every function into the cache of this source and numba."""
    path = stamp_path()
    return path is not None and os.path.exists(path)


# ------------------------------------------------------------------------------------------ notices
COMPILE_GROUPS = {
    "gram": ("the Gram-matrix functions", 0.03),
    "svm-grid": ("the SVM solver and the tuning criteria", 0.2),
    "losses": ("the loss-function and GACV functions", 0.2),
    "nu-path": ("the ν-path solver", 0.5),
    "usvc": ("the IRWLS / unbiased-SVC solver", 0.4),
    "ivm": ("the kernel-logistic-regression and IVM solver", 0.15),
    "anova": ("the SS-ANOVA kernels", 0.05),
}
"""Groups of compiled functions, as ``svmviz warmup`` compiles them (its steps, :data:`svmviz._warmup.STEPS`):
name -> (what, in the words of :func:`compile_notice`; CPU minutes on an empty cache)."""

_MODULE_GROUPS = (("svmviz.path", "nu-path"), ("svmviz.ivm", "ivm"), ("svmviz.usvc", "usvc"),
                  ("svmviz.kernels._ssanova", "anova"))  # every other module: "svm-grid"
_SAID: set = set()
_LISTENING: list = []  # one listener per process
_SAID_LOCK = threading.Lock()
_SINK = threading.local()  # .say: where this thread's notice goes (a page's progress line); unset: the log
_GROUP_FUNCTIONS: dict = {}  # group -> the compiled functions :func:`njit` made for it, in import order
_COMPILATIONS = [0]  # numba compilations this process has started, any thread, any package


def group_of(module: str) -> str:
    """The group (:data:`COMPILE_GROUPS`) of a compiled function of ``module`` (``svmviz.path._solver.kkt``…)."""
    return next((g for prefix, g in _MODULE_GROUPS if module.startswith(prefix)), "svm-grid")


def _module_of(dispatcher) -> str:
    return getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""


def _registered(dispatcher):
    plain_call_types(dispatcher)
    if _module_of(dispatcher).startswith("svmviz."):
        with _SAID_LOCK:
            _GROUP_FUNCTIONS.setdefault(group_of(_module_of(dispatcher)), []).append(dispatcher)
    return dispatcher


def compilations() -> int:
    """How many numba compilations this process has started (any thread, any package's function)."""
    with _SAID_LOCK:
        return _COMPILATIONS[0]


def compile_notice(module: str) -> str | None:
    """The sentence shown when a compiled function of ``module`` (``svmviz.path._solver.follower``…)
    starts compiling: once per group (:data:`COMPILE_GROUPS`) and process, and only while the cache is not current
    (:func:`is_current`); None otherwise."""
    name = group_of(module)
    with _SAID_LOCK:
        if name in _SAID or is_current():
            return None
        _SAID.add(name)
    what, minutes = COMPILE_GROUPS[name]
    span = ("some seconds" if minutes < 0.3 else "about half a minute" if minutes < 0.75
            else "about a minute")
    return (f"Compiling {what} once for this installation ({span} on 2 cores); "
            "`svmviz warmup` does this ahead of time.")


def compile_progress(group: str) -> str:
    """The progress line while ``group`` compiles: its functions ready (compiled, or loaded from the
    cache) out of the functions :func:`njit` made for it, e.g. "Compiling the ν-path solver once for this
    installation: 3 of its 7 functions ready (`svmviz warmup` does this ahead of time)". A function numba
    inlines into its callers (``inline='always'``) is compiled only inside them: it counts only if it has
    been compiled on its own too (a call from Python)."""
    with _SAID_LOCK:
        functions = [d for d in _GROUP_FUNCTIONS.get(group, ())
                     if getattr(d, "signatures", None) or getattr(d, "targetoptions", {}).get("inline") != "always"]
    ready = sum(1 for d in functions if getattr(d, "signatures", None))
    plural = "" if len(functions) == 1 else "s"
    return (f"Compiling {COMPILE_GROUPS[group][0]} once for this installation: {ready} of its {len(functions)} "
            f"function{plural} ready (`svmviz warmup` does this ahead of time)")


class notices_to:
    """``with notices_to(say):`` — compilation notices of this thread go to ``say(text)`` (a page's
    progress line) instead of the log: the progress of the group that compiles (:func:`compile_progress`)
    at every function's start and end, then ``say("")`` when the compilation is over."""

    def __init__(self, say: Callable[[str], None]):
        self.say = say

    def __enter__(self):
        self.saved = (getattr(_SINK, "say", None), getattr(_SINK, "group", None), getattr(_SINK, "depth", 0))
        _SINK.say, _SINK.group, _SINK.depth = self.say, None, 0
        return self

    def __exit__(self, *exc):
        _SINK.say, _SINK.group, _SINK.depth = self.saved
        return False


def on_compile_start(dispatcher) -> None:
    """numba starts compiling ``dispatcher`` in this thread (the one listener's ``on_start``): count it;
    for svmviz's functions, the group's first compile in the process says :func:`compile_notice` (to the
    log, or as :func:`compile_progress` to this thread's ``say``), and every compile inside it updates it."""
    with _SAID_LOCK:
        _COMPILATIONS[0] += 1
    module = _module_of(dispatcher)
    if not module.startswith("svmviz."):
        return
    _SINK.depth = getattr(_SINK, "depth", 0) + 1
    say = getattr(_SINK, "say", None)
    group = getattr(_SINK, "group", None)
    if group is None:
        msg = compile_notice(module)
        if not msg:
            return
        if say is None:
            _log.warning(msg)  # a notebook or a script: one line on stderr
            return
        _SINK.group = group = group_of(module)
    if say is not None:
        say(compile_progress(group))


def on_compile_end(dispatcher) -> None:
    """numba has compiled ``dispatcher`` in this thread (the one listener's ``on_end``): the progress line
    counts it; when the outermost compile ends, ``say("")`` ends the notice."""
    if not _module_of(dispatcher).startswith("svmviz."):
        return
    _SINK.depth = max(0, getattr(_SINK, "depth", 0) - 1)
    say, group = getattr(_SINK, "say", None), getattr(_SINK, "group", None)
    if say is None or group is None:
        return
    if _SINK.depth == 0:
        _SINK.group = None
        say("")
    else:
        say(compile_progress(group))


def install_notices() -> bool:
    """Register the process's one listener to numba's compilation events (its event API,
    ``numba.core.event``): :func:`on_compile_start` and :func:`on_compile_end`. Returns whether it is installed."""
    if _LISTENING:
        return True
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover — a numba without its event API: no notices
        return False

    class _Listener(event.Listener):
        def on_start(self, ev):
            on_compile_start((ev.data or {}).get("dispatcher"))

        def on_end(self, ev):
            on_compile_end((ev.data or {}).get("dispatcher"))

    event.register("numba:compile", _Listener())
    _LISTENING.append(True)
    return True


install_notices()  # a function that must compile says so once (compile_notice)
