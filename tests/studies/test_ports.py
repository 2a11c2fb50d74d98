"""The embedded Dask cluster listens on the loopback interface only, and never on the dashboard's port 8787."""
from __future__ import annotations

import logging
import os

import pytest

from svmviz.studies import engine

psutil = pytest.importorskip("psutil")


def _listening(pids) -> list:
    out = []
    for pid in pids:
        try:
            conns = psutil.Process(pid).net_connections(kind="tcp")
        except psutil.NoSuchProcess:
            continue
        out += [c.laddr for c in conns if c.status == psutil.CONN_LISTEN]
    return out


def _family() -> list[int]:
    me = psutil.Process(os.getpid())
    return [me.pid] + [c.pid for c in me.children(recursive=True)]


class _Messages(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.text = ""

    def emit(self, record):
        self.text += record.getMessage() + "\n"


def test_embedded_cluster_opens_no_dashboard_port_and_only_loopback():
    before = set(_listening(_family()))
    messages = _Messages()
    logging.getLogger("distributed").addHandler(messages)
    first = engine._local_cluster(1)
    second = engine._local_cluster(1)  # a second study at the same time
    try:
        new = [a for a in _listening(_family()) if a not in before]
        assert new, "the clusters listen nowhere?"
        assert all(a.port != 8787 for a in new), new
        assert all(a.ip == "127.0.0.1" for a in new), new
        assert "8787" not in messages.text and "already in use" not in messages.text
    finally:
        logging.getLogger("distributed").removeHandler(messages)
        first.close()
        second.close()
