"""A real server gives back a closed tab's upload: once Streamlit's reconnect time
(``server.disconnectedSessionTTL``) is over, the session is shut down and its file leaves Streamlit's
uploaded-file manager (:func:`svmviz.ui.uploads.start_release_watch`) — without it the bytes stay for the
life of the server — and its session state is freed (with its copy of the file), though no other visitor
comes after it."""
from __future__ import annotations

import os
import time
import urllib.request

import pytest

from tests.browser.helpers import ARGS, CHROMIUM, start_server, stop_server

pytestmark = pytest.mark.browser
APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "session_release_app.py")


def _held(url: str) -> int:
    """The bytes Streamlit's uploaded-file manager holds, from the server's metrics (no session is opened:
    a new session's connection would itself make Streamlit drop the expired ones)."""
    text = urllib.request.urlopen(url + "/_stcore/metrics", timeout=10).read().decode()
    return sum(int(float(ln.rsplit(" ", 1)[1])) for ln in text.splitlines()
               if 'cache_type="UploadedFileManager"' in ln and not ln.startswith("#"))


def test_a_closed_sessions_upload_and_state_are_released_after_the_reconnect_time(tmp_path):
    from playwright.sync_api import sync_playwright

    freed = tmp_path / "state_freed"
    env = dict(os.environ, STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL="2", SVMVIZ_TEST_STATE_FREED=str(freed))
    proc, url, log = start_server("session_release.log", env=env, script=APP)
    try:
        (tmp_path / "a.csv").write_bytes(b"x,label\n" + b"1.0,a\n" * 200_000)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            visitor = browser.new_context()
            page = visitor.new_page()
            page.goto(url)
            page.locator("input[type=file]").first.set_input_files(str(tmp_path / "a.csv"))
            page.get_by_text("uploaded 1200008 bytes").wait_for(timeout=60_000)
            assert _held(url) >= 1_200_008
            visitor.close()  # the tab closes, and no other visitor comes
            held, t0 = None, time.time()
            while time.time() - t0 < 30:  # the reconnect time is 2 s; the watch looks every 0.5 s
                held = _held(url)
                if held == 0:
                    break
                time.sleep(0.5)
            browser.close()
        assert held == 0, f"{held} bytes of the closed session's upload still held after {time.time() - t0:.0f} s"
        while not freed.exists() and time.time() - t0 < 30:
            time.sleep(0.5)
        assert freed.exists(), f"the closed session's state still held after {time.time() - t0:.0f} s"
        log.flush()
        with open(log.name) as fh:
            assert "missing ScriptRunContext" not in fh.read()
    finally:
        stop_server(proc, log)

