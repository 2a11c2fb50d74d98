"""Where the app keeps its study runs: a per-user data folder, owner-only, keyed by version, pruned.

The app's "Criteria studies" page saves each small run (one results folder per spec) under
:func:`app_data_root`: ``<user data dir>/studies/<svmviz version>/`` (``platformdirs.user_data_dir``,
e.g. ``~/.local/share/svmviz/studies/0.1.0/`` on Linux; ``SVMVIZ_DATA_DIR`` replaces the user data
dir). So

* the runs of one user never show up in another user's server, nor those of another version in
  this one (a fresh server of another checkout of the same version resumes the same runs, which
  the task records of :mod:`svmviz.studies.provenance` check);
* every folder on the way is created owner-only (0700) and refused when it is owned by someone
  else, or is a symbolic link: on a shared host another user could otherwise create it first and
  plant rows;
* folders of runs not touched for :data:`MAX_AGE_DAYS` go, and the oldest go until the runs take at
  most :data:`MAX_BYTES` (:func:`prune`), whatever the version.
"""
from __future__ import annotations

import os
import shutil
import stat
import time

__all__ = ["MAX_AGE_DAYS", "MAX_BYTES", "RESULTS_ROOT_ENV", "data_home", "app_data_root", "secure_dir", "prune",
           "describe_location", "results_root", "list_result_folders", "result_folder", "is_inside"]

#: runs not touched for this many days are removed
MAX_AGE_DAYS = 30
#: the app's runs (every version) are kept under this many bytes, the least recently touched removed first
MAX_BYTES = 1024**3
ENV_VAR = "SVMVIZ_DATA_DIR"
#: the folder whose study results the app's visitors may open (``svmviz app --results-root DIR`` sets it)
RESULTS_ROOT_ENV = "SVMVIZ_RESULTS_ROOT"
#: how deep under the results root results folders are looked for
MAX_DEPTH = 3


def data_home() -> str:
    """This user's data folder for svmviz: ``$SVMVIZ_DATA_DIR`` or ``platformdirs.user_data_dir("svmviz")``."""
    path = os.environ.get(ENV_VAR)
    if path:
        return os.path.abspath(os.path.expanduser(path))
    import platformdirs

    return platformdirs.user_data_dir("svmviz", appauthor=False)


def _studies_home() -> str:
    return os.path.join(data_home(), "studies")


def secure_dir(path: str) -> str:
    """Create ``path`` (and its missing parents) owner-only, or check an existing one is this user's.

    Parameters
    ----------
    path : str

    Returns
    -------
    str
        ``path``, absolute.

    Raises
    ------
    PermissionError
        ``path`` is a symbolic link, not a folder, or owned by another user; or its permissions let
        others write in it and cannot be narrowed.
    """
    path = os.path.abspath(path)
    uid = os.getuid() if hasattr(os, "getuid") else None
    missing = []
    p = path
    while not os.path.lexists(p):
        missing.append(p)
        parent = os.path.dirname(p)
        if parent == p:
            break
        p = parent
    for m in reversed(missing):
        try:
            os.mkdir(m, 0o700)
        except FileExistsError:
            pass  # another process made it meanwhile: checked below
    if uid is None:  # no owners to check (Windows): the user's profile folder is private already
        os.makedirs(path, exist_ok=True)
        return path
    for m in [path, *missing]:
        st = os.lstat(m)
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
            raise PermissionError(f"{m} is not a plain folder (a link or a file); the app keeps study runs only in a "
                                  f"folder of its own. Remove it, or set {ENV_VAR} to another folder.")
        if st.st_uid != uid:
            raise PermissionError(f"{m} belongs to another user (uid {st.st_uid}; you are uid {uid}): its results "
                                  f"could have been planted there. Remove it, or set {ENV_VAR} to a folder of yours.")
        if st.st_mode & 0o077:
            os.chmod(m, 0o700)
    return path


def app_data_root() -> str:
    """The folder of this version's app study runs (created owner-only; see the module docstring)."""
    from svmviz import __version__

    home = secure_dir(_studies_home())
    return secure_dir(os.path.join(home, _version_key(__version__)))


def _version_key(version: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in str(version)) or "unknown"


def _size(path: str) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(root, f)).st_size
            except OSError:
                pass
    return total


def _touched(path: str) -> float:
    """The last time a run's folder changed (its spec, its task files)."""
    stamps = [os.lstat(path).st_mtime]
    for sub in ("spec.toml", "tasks", "results.parquet"):
        p = os.path.join(path, sub)
        if os.path.lexists(p):
            stamps.append(os.lstat(p).st_mtime)
    return max(stamps)


def prune(keep: tuple = (), *, max_age_days: float = MAX_AGE_DAYS, max_bytes: int = MAX_BYTES,
          now: float | None = None) -> list[str]:
    """Remove the app's runs (every version) older than ``max_age_days``, then the oldest beyond ``max_bytes``.

    Parameters
    ----------
    keep : tuple of str
        Run folders never removed (the one about to be used).
    max_age_days : float
    max_bytes : int
    now : float, optional
        The time to measure ages from (``time.time()``).

    Returns
    -------
    list of str
        The folders removed.
    """
    if max_age_days <= 0 or max_bytes < 0:
        raise ValueError(f"max_age_days must be positive and max_bytes ≥ 0; got {max_age_days}, {max_bytes}.")
    home = _studies_home()
    if not os.path.isdir(home):
        return []
    secure_dir(home)
    now = time.time() if now is None else float(now)
    keep = {os.path.abspath(k) for k in keep}
    runs = []
    for version in sorted(os.listdir(home)):
        vdir = os.path.join(home, version)
        if os.path.islink(vdir) or not os.path.isdir(vdir):
            continue
        for name in sorted(os.listdir(vdir)):
            run = os.path.join(vdir, name)
            if os.path.islink(run) or not os.path.isdir(run):
                continue
            runs.append((_touched(run), run))
    removed = []
    alive = []
    for touched, run in sorted(runs):
        if run not in keep and now - touched > max_age_days * 86400:
            shutil.rmtree(run, ignore_errors=True)
            removed.append(run)
        else:
            alive.append((touched, run, _size(run)))
    total = sum(s for _, _, s in alive)
    for touched, run, size in alive:  # oldest first
        if total <= max_bytes:
            break
        if run in keep:
            continue
        shutil.rmtree(run, ignore_errors=True)
        removed.append(run)
        total -= size
    from svmviz import __version__

    for version in os.listdir(home):  # other versions' folders left empty
        vdir = os.path.join(home, version)
        if version != _version_key(__version__) and os.path.isdir(vdir) and not os.path.islink(vdir) and not os.listdir(vdir):
            try:
                os.rmdir(vdir)
            except OSError:
                pass
    return removed


def describe_location(path: str) -> str:
    """``path`` for a page: the home folder written ``~`` (the user's name is not shown)."""
    home = os.path.expanduser("~")
    path = os.path.abspath(path)
    if home and home != "~" and (path == home or path.startswith(home.rstrip(os.sep) + os.sep)):
        return "~" + path[len(home.rstrip(os.sep)):]
    return path


# ------------------------------------------------------------------------------------ the results root
def results_root() -> str:
    """The folder whose study results the app offers: ``$SVMVIZ_RESULTS_ROOT``, else ``results`` in the
    server's working folder (where ``svmviz study run SPEC --out results/NAME`` writes)."""
    return os.path.abspath(os.path.expanduser(os.environ.get(RESULTS_ROOT_ENV) or "results"))


def is_inside(path: str, root: str) -> bool:
    """True if ``path`` (its real path, links resolved) is ``root`` or lies under it."""
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def list_result_folders(root: str | None = None, *, max_depth: int = MAX_DEPTH) -> list[str]:
    """The study results folders under ``root`` (those holding a ``spec.toml``), as paths relative to it.

    Parameters
    ----------
    root : str, optional
        Default :func:`results_root`.
    max_depth : int
        Levels of folders below ``root`` looked into.

    Returns
    -------
    list of str
        Sorted relative paths ("." for ``root`` itself); symbolic links leading outside ``root`` are
        not followed, hidden folders are skipped.
    """
    root = results_root() if root is None else os.path.abspath(root)
    if not os.path.isdir(root):
        return []
    out = []
    base_depth = root.rstrip(os.sep).count(os.sep)
    for here, dirs, files in os.walk(root, followlinks=False):
        depth = here.rstrip(os.sep).count(os.sep) - base_depth
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and is_inside(os.path.join(here, d), root))
        if depth >= max_depth:
            dirs[:] = []
        if "spec.toml" in files and is_inside(here, root):
            out.append(os.path.relpath(here, root))
            dirs[:] = [d for d in dirs if d != "tasks"]
    return sorted(out)


def result_folder(name: str, root: str | None = None) -> str:
    """The absolute path of the listed results folder ``name`` (a ValueError for anything not listed)."""
    root = results_root() if root is None else os.path.abspath(root)
    if name not in list_result_folders(root):
        raise ValueError(f"{name!r} is not one of the results folders offered here.")
    return os.path.normpath(os.path.join(root, name))
