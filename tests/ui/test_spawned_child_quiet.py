"""A process started by :mod:`multiprocessing` with the ``spawn`` method (a Dask worker of a criteria
study run from the app) first imports its parent's ``__main__`` again, as ``__mp_main__``: under a
Streamlit server that is the script being run — the app's entry script, or the Criteria studies page
that starts the workers. Imported there, they do nothing, so the worker logs no "missing
ScriptRunContext" and no "bare mode" warnings."""
from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys

import pytest

from svmviz.ui.frame import ENTRY_SCRIPT
from tests.apptest_utils import ROOT

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
