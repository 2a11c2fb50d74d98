"""Fixtures of the real-browser tests: one headless chromium per test module, and one app server
shared by every test that needs the app as it starts (``app_url``). A server costs its start and its
first imports and compilations of each page; tests that need a server of their own (a fresh server's
first visitor, another environment, a server killed on purpose) start one with
``helpers.start_server``."""
from __future__ import annotations

import os
import time

import pytest

from tests.browser.helpers import ARGS, CHROMIUM, start_server, stop_server


def _require_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian chromium is not installed: run `apt-get install -y chromium` (bash .ci/run does).")


@pytest.fixture(scope="module")
def browser():
    """One headless Debian chromium for a test module (module scope: a test may also start Playwright
    itself, which the sync API allows only while no other instance runs)."""
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def app_url():
    """``streamlit run app.py`` once for the whole session; its URL."""
    _require_chromium()
    t0 = time.time()
    proc, url, log = start_server("streamlit.log")
    print(f"\nserver healthy after {time.time() - t0:.1f} s")
    try:
        yield url
    finally:
        stop_server(proc, log)
