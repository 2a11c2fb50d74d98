"""Canary of svmviz.ui._streamlit_compat: the Streamlit internals the app uses are still there and
still mean what the app relies on. An upgrade that moves one fails here, not in a lecture; the
module's fallbacks keep the app running meanwhile. The browser tests (tests/browser/) check deep links and Back/Forward end to end.
A process spawned by :mod:`multiprocessing` (a Dask worker of a criteria study run from the app) imports the
entry script again as ``__mp_main__`` and does nothing there (``spawned_without_server``).
"""
from __future__ import annotations

import inspect
import multiprocessing
import os
import subprocess
import sys

import pytest
import streamlit
from streamlit.commands import navigation
from streamlit.runtime import pages_manager
from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest

from svmviz.ui import _streamlit_compat as compat
from svmviz.ui.frame import ENTRY_SCRIPT
from tests.apptest_utils import ROOT

VERSION = f"Streamlit {streamlit.__version__}"


def test_legacy_pages_directory_flag_still_decides_and_navigation_still_clears_it():
    assert hasattr(pages_manager.PagesManager, "uses_pages_directory"), (
        f"{VERSION} removed PagesManager.uses_pages_directory: review leave_pages_directory_mode.")
    src_pm = inspect.getsource(pages_manager.PagesManager.__init__)
    assert 'uses_pages_directory = Path(' in src_pm and '"pages"' in src_pm, (
        "PagesManager no longer derives legacy mode from a pages/ folder: leave_pages_directory_mode may be "
        "obsolete; check a deep link on a fresh server (tests/browser/).")
    assert "uses_pages_directory" in inspect.getsource(script_runner.ScriptRunner), (
        "ScriptRunner no longer consults uses_pages_directory: review leave_pages_directory_mode.")
    assert "uses_pages_directory = False" in inspect.getsource(navigation), (
        "st.navigation no longer clears the legacy flag: review leave_pages_directory_mode.")


def test_leave_pages_directory_mode_clears_the_flag(monkeypatch):
    monkeypatch.setattr(pages_manager.PagesManager, "uses_pages_directory", True, raising=False)
    assert compat.leave_pages_directory_mode() is True
    assert not pages_manager.PagesManager.uses_pages_directory
    assert compat.leave_pages_directory_mode() is False


SCRIPT = """
import streamlit as st
from svmviz.ui import _streamlit_compat as compat
a, b = compat.run_token(), compat.run_token()
runs = st.session_state.setdefault("tokens", [])
runs.append(a)
st.text(" ".join(map(str, [a is b, compat.is_history_navigation(), compat.page_id() != "", len(runs),
                             len(runs) < 2 or runs[-1] is not runs[-2]])))
"""


def test_run_context_gives_a_token_per_run_the_history_flag_and_the_page():
    """Within a run the token is one object; the next run has a new one; not a Back step; a page id."""
    from streamlit.runtime.scriptrunner import ScriptRunContext

    fields = set(getattr(ScriptRunContext, "__dataclass_fields__", {})) | set(dir(ScriptRunContext))
    wanted = {"cursors", "is_history_navigation", "page_script_hash"}
    assert wanted <= fields, f"{VERSION}: ScriptRunContext lacks {wanted - fields}"
    at = AppTest.from_string(SCRIPT).run(timeout=30)
    at.run(timeout=30)
    assert not at.exception
    same, history, page, n, new = at.text[-1].value.split()
    assert (same, history, page, n, new) == ("True", "False", "True", "2", "True")


def test_fallbacks_without_a_run_context():
    """Outside a script run (and so with a Streamlit that moved the context): a fresh token per call,
    no Back step, no page."""
    assert compat.run_token() != compat.run_token()
    assert compat.is_history_navigation() is False
    assert compat.page_id() == ""


def test_session_release_internals_are_still_there():
    """What :func:`release_ended_sessions` reaches for: the runtime's event loop and session manager, the
    store of disconnected sessions (a TTL cache whose ``expire()`` hands back the expired sessions), the
    uploaded-file manager's per-session files, an ended session's state and its ``clear()``."""
    from streamlit.runtime import app_session, memory_session_storage, memory_uploaded_file_manager, runtime
    from streamlit.runtime import websocket_session_manager
    from streamlit.runtime.state import SessionState

    assert callable(getattr(runtime.Runtime, "_get_async_objs", None)), VERSION
    assert "_session_mgr" in inspect.getsource(runtime.Runtime.__init__), VERSION
    manager = websocket_session_manager.WebsocketSessionManager
    assert "_session_storage" in inspect.getsource(manager.__init__) and callable(manager.list_sessions), VERSION
    storage = memory_session_storage.MemorySessionStorage(ttl_seconds=0)
    assert callable(storage._cache.expire), VERSION
    files = memory_uploaded_file_manager.MemoryUploadedFileManager("/upload")
    assert isinstance(files.file_storage, dict) and callable(files.remove_session_files), VERSION
    assert isinstance(app_session.AppSession.session_state, property), VERSION
    assert callable(SessionState.clear), VERSION


def test_release_ended_sessions_without_a_server_releases_nothing():
    assert compat.release_ended_sessions() is None


# ------------------------------------------------------------------------------------------------------------
# A process started by :mod:`multiprocessing` with the ``spawn`` method (a Dask worker of a criteria study run
# from the app) first imports its parent's ``__main__`` again, as ``__mp_main__``: under a Streamlit server that
# is the script being run — the app's entry script, or the Criteria studies page that starts the workers.
# Imported there, they do nothing, so the worker logs no "missing ScriptRunContext" and no "bare mode" warnings.
# a parent whose ``__main__`` is ``script``, as Streamlit's script runner installs it, starts a spawn child
SPAWNING_PARENT = """
import multiprocessing, sys, types
main = types.ModuleType("__main__")
main.__file__ = sys.argv[1]
sys.modules["__main__"] = main
child = multiprocessing.get_context("spawn").Process(target=print, args=("the child ran",))
child.start()
child.join()
sys.exit(child.exitcode)
"""


@pytest.mark.parametrize("script", [os.path.join(ROOT, "app.py"), ENTRY_SCRIPT,
                                    os.path.join(ROOT, "pages", "7_Criteria_studies.py")],
                         ids=["app.py", "entry", "criteria_studies_page"])
def test_a_spawned_child_of_a_streamlit_script_calls_no_streamlit(script):
    done = subprocess.run([sys.executable, "-c", SPAWNING_PARENT, script], cwd=ROOT, capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "the child ran" in done.stdout
    assert "missing ScriptRunContext" not in done.stderr, done.stderr[:2000]
    assert "streamlit run" not in done.stderr, done.stderr[:2000]


def test_the_test_process_itself_is_not_taken_for_a_spawned_child():
    from svmviz.ui._streamlit_compat import spawned_without_server

    assert multiprocessing.parent_process() is None
    assert not spawned_without_server()
