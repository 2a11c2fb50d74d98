"""Uploaded files in the server's memory: bounded in bytes with the compute cache, expiring, freed with their sessions."""
from __future__ import annotations

import gc
import sys

import numpy as np
import pytest

from svmviz.ui import compute, uploads
from tests import serving


def _csv(seed: int, rows: int = 400) -> bytes:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, 5))
    y = np.where(X[:, 0] > 0, "a", "b")
    lines = ["x1,x2,x3,x4,x5,label"] + [",".join(f"{v:.6f}" for v in r) + f",{c}" for r, c in zip(X, y)]
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def store():
    s = compute._store()
    s.clear()
    saved = s.max_bytes
    yield s
    s.max_bytes = saved
    s.clear()
    with uploads._uploads_lock:
        uploads._upload_users.clear()
        uploads._upload_seen.clear()


def _upload_keys(store):
    return [k for k in store.data if k.startswith("upload:")]


def test_uploads_count_against_the_compute_cache_byte_budget(store):
    state = {}
    one = uploads.parsed_csv(_csv(0), None, True, state=state)
    size = store.bytes
    assert size >= one.X.nbytes + one.y.nbytes > 0
    store.max_bytes = int(2.5 * size)
    for seed in (1, 2, 3, 4):
        uploads.parsed_csv(_csv(seed), None, True, state=state)
        assert store.bytes <= store.max_bytes
    assert len(_upload_keys(store)) == 2  # the two most recent
    again = uploads.parsed_csv(_csv(4), None, True, state=state)
    assert len(_upload_keys(store)) == 2 and again.X.shape == (400, 5)


def test_same_file_is_parsed_once_for_every_session(store):
    a, b = {}, {}
    assert uploads.parsed_csv(_csv(7), None, True, state=a) is uploads.parsed_csv(_csv(7), None, True, state=b)
    assert len(_upload_keys(store)) == 1


def test_sessions_end_frees_their_uploads(store):
    a, b = {}, {}
    uploads.parsed_csv(_csv(1), None, True, state=a)
    uploads.parsed_csv(_csv(2), None, True, state=a)
    uploads.parsed_csv(_csv(2), None, True, state=b)
    assert len(_upload_keys(store)) == 2
    del a  # the session ends: Streamlit drops its state
    gc.collect()
    assert len(_upload_keys(store)) == 1  # the file the other session still uses stays
    del b
    gc.collect()
    assert _upload_keys(store) == [] and store.bytes == 0
    assert not uploads._upload_users and not uploads._upload_seen


def test_unused_upload_expires(store, monkeypatch):
    t = [1000.0]
    monkeypatch.setattr(uploads, "_clock", lambda: t[0])
    state = {}
    uploads.parsed_csv(_csv(1), None, True, state=state)
    t[0] += uploads.UPLOAD_TTL_SECONDS - 1
    uploads.parsed_csv(_csv(2), None, True, state=state)
    assert len(_upload_keys(store)) == 2
    t[0] += 2  # the first file unused for longer than the time to live; the second not
    uploads.parsed_csv(_csv(2), None, True, state=state)
    assert len(_upload_keys(store)) == 1
    ds = uploads.parsed_csv(_csv(1), None, True, state=state)  # back: parsed again from the session's bytes
    assert ds.X.shape == (400, 5)


def test_bad_upload_caches_nothing(store):
    with pytest.raises(ValueError):
        uploads.parsed_csv(b"a,b\nx,y\n", None, True, state={})
    assert _upload_keys(store) == []


def test_a_real_session_that_ends_frees_its_upload(tmp_path):
    """Through Streamlit's own session handling: once a closed session has expired
    (server.disconnectedSessionTTL) and is dropped, its parsed upload leaves the cache."""
    import asyncio
    import json
    import os
    import time

    import websockets
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    port = serving.free_port()
    out = tmp_path / "runs.jsonl"
    app = os.path.join(os.path.dirname(os.path.abspath(__file__)), "upload_session_app.py")
    env = dict(os.environ, UPLOAD_APP_OUT=str(out), HOME=str(tmp_path))
    log = open(tmp_path / "server.log", "w")
    try:
        server, _ = serving.start(serving.streamlit_run(app, port, "--server.disconnectedSessionTTL", "1"), port,
                                  log=log, cwd=tmp_path, env=env, host="127.0.0.1")
    except serving.ServerDidNotStart as exc:
        log.close()
        pytest.fail(f"the app did not start: {exc}\n{(tmp_path / 'server.log').read_text()}")

    async def session(query):
        async with websockets.connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"],
                                      max_size=None) as ws:
            msg = BackMsg()
            msg.rerun_script.query_string = query
            await ws.send(msg.SerializeToString())
            while True:
                fm = ForwardMsg()
                fm.ParseFromString(await asyncio.wait_for(ws.recv(), 120))
                if fm.WhichOneof("type") == "script_finished":
                    return

    try:
        asyncio.run(session("mode=upload"))  # a visitor uploads, then closes the tab
        time.sleep(2.5)  # longer than the time Streamlit keeps a closed session for a reconnection
        asyncio.run(session("mode=check"))  # the next visitor's visit drops the expired session
        asyncio.run(session("mode=check"))
        runs = [json.loads(line) for line in out.read_text().splitlines()]
        assert runs[0]["mode"] == "upload" and len(runs[0]["store"]) == 1 and list(runs[0]["sessions"].values()) == [1]
        assert runs[-1]["store"] == [] and runs[-1]["sessions"] == {}
    finally:
        serving.stop(server, timeout=20)
        log.close()


def test_without_a_server_there_is_nothing_to_release():
    assert uploads.release_once() == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="malloc_trim is glibc's")
def test_trim_heap_calls_glibc():
    assert uploads.trim_heap() is True
