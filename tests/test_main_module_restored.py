"""Each test ends with the ``__main__`` module it started with (``tests/conftest.py``): AppTest installs
its script's module there and leaves it, and the ``spawn`` workers of a Dask cluster that a later test
starts import their parent's ``__main__`` again from its file."""
from __future__ import annotations

import sys

AT_COLLECTION = sys.modules["__main__"]


def test_an_apptest_run_installs_its_script_as_main(tmp_path):
    from streamlit.testing.v1 import AppTest

    script = tmp_path / "page.py"
    script.write_text('import streamlit as st\n\nst.write("hello")\n')
    at = AppTest.from_file(str(script)).run()
    assert not at.exception
    assert sys.modules["__main__"].__file__ == str(script)


def test_the_next_test_starts_with_the_main_module_of_the_test_session():
    assert sys.modules["__main__"] is AT_COLLECTION
