"""A Streamlit server for the tests and the bench scripts: a free port, the ``streamlit run`` command
line, the start with its wait for ``/_stcore/health``, and the stop.

A tool outside the package (``svmviz`` imports nothing of it). The tests import it as
``tests.serving``; a bench script (``python bench/<script>.py`` from the checkout) imports it the same
way once ``bench/_common.py`` has put the checkout on ``sys.path``. Failures raise
:class:`ServerDidNotStart` with the log's path, which a test turns into ``pytest.fail`` and a bench
script into its exit message.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEALTH = "/_stcore/health"
"""Streamlit's health endpoint: ``ok`` once the server serves pages."""


class ServerDidNotStart(RuntimeError):
    """The server exited, or did not answer :data:`HEALTH` in time."""


def free_port() -> int:
    """A TCP port of the loopback interface that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def streamlit_run(script: str, port: int, *options: str) -> list[str]:
    """``python -m streamlit run <script>`` headless on ``port``, without usage statistics or a file
    watcher, then ``options`` (``"--server.disconnectedSessionTTL", "1"``…)."""
    return [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true", "--server.port", str(port),
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none", *options]


def wait_healthy(url: str, proc: subprocess.Popen | None = None, *, timeout: float = 60.0, log_path=None,
                 poll: float = 0.2) -> float:
    """Wait until ``url`` + :data:`HEALTH` answers ``ok``; returns the seconds waited.

    Raises :class:`ServerDidNotStart` when ``proc`` (the server's process, if given) exits first, or
    after ``timeout`` seconds; the message names ``log_path``, where the server's output is."""
    where = f"; see {log_path}" if log_path else ""
    t0 = time.perf_counter()
    while True:
        try:
            if urllib.request.urlopen(url + HEALTH, timeout=1).read() == b"ok":
                return time.perf_counter() - t0
        except OSError:
            pass
        if proc is not None and proc.poll() is not None:
            raise ServerDidNotStart(f"the server exited with {proc.returncode}{where}")
        if time.perf_counter() - t0 > timeout:
            raise ServerDidNotStart(f"the server did not answer {HEALTH} within {timeout:.0f} s{where}")
        time.sleep(poll)


def start(cmd: list[str], port: int, *, log, cwd=ROOT, env: dict | None = None, timeout: float = 60.0,
          host: str = "localhost") -> tuple[subprocess.Popen, str]:
    """Run ``cmd`` (a server on ``port``: :func:`streamlit_run`, ``svmviz app --port …``) with its output
    to the open file ``log``; (process, URL) once it is healthy (:func:`wait_healthy`). A server that
    does not start is killed and :class:`ServerDidNotStart` raised."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://{host}:{port}"
    try:
        wait_healthy(url, proc, timeout=timeout, log_path=getattr(log, "name", None))
    except ServerDidNotStart:
        stop(proc)
        raise
    return proc, url


def stop(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    """Terminate the server (Streamlit's clean shutdown), or kill it after ``timeout`` seconds."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
