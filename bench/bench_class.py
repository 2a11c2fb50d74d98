"""A class on one server: N sessions open the same shared link at once, then each makes one interaction.

The sessions are Streamlit's own websocket clients (what the browser's frontend speaks: ``BackMsg``
rerun requests, ``ForwardMsg`` deltas), lighter than N browsers, so the figures are the server's:

* time to the first chart of every session (from its connection) and until its page settled (the
  script run finished), p50 / p95 / max;
* the same for the one interaction each session then makes: a Back/Forward step to a second view
  of the link (another seed), which every session asks for at about the same moment;
* the server's peak resident memory (its process and children: the warm-up's worker processes)
  and the CPU seconds it used, sampled every 0.2 s;
* that the shared views were computed once: the server (this script with ``--serve``) records every
  computation the app's cache stores (``svmviz.ui._jobs._Store.put``); each key must appear once.

    python bench/bench_class.py                              # 30 sessions on the Tuning page
    python bench/bench_class.py --sessions 8 --page Kernels_and_variable_selection --query "" --interaction seed=1

The numba cache is the checkout's ``.numba_cache`` (warm after the test suite or one visit), so the
figures are those of a warm cache; the machine's load average is printed beside them.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from _common import machine

from tests import serving  # the checkout is on sys.path (bench/_common.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ------------------------------------------------------------------------------------ the server
def serve(port: int, log_path: str) -> None:
    """Run ``streamlit run app.py`` in this process, recording each stored computation's key to ``log_path``."""
    import threading

    sys.path.insert(0, ROOT)
    from svmviz.ui import _jobs

    lock = threading.Lock()
    put = _jobs._Store.put

    def recording_put(self, key, name, entry, max_entries):
        with lock, open(log_path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"t": time.time(), "key": key, "name": name}) + "\n")
        return put(self, key, name, entry, max_entries)

    _jobs._Store.put = recording_put
    from streamlit.web import cli as stcli

    sys.argv = ["streamlit", "run", os.path.join(ROOT, "app.py"), "--server.port", str(port), "--server.headless",
                "true", "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"]
    sys.exit(stcli.main())


class Sampler:
    """Peak RSS and CPU seconds of a process and its children, sampled in a thread."""

    def __init__(self, pid: int, every: float = 0.2):
        import threading

        import psutil

        self.proc = psutil.Process(pid)
        self.every = every
        self.peak_rss = 0
        self.cpu: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _tree(self):
        import psutil

        try:
            return [self.proc] + self.proc.children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def snapshot(self) -> tuple[int, float]:
        import psutil

        rss = 0
        for p in self._tree():
            try:
                rss += p.memory_info().rss
                t = p.cpu_times()
                self.cpu[p.pid] = t.user + t.system
            except psutil.NoSuchProcess:
                pass
        return rss, sum(self.cpu.values())

    def _run(self):
        while not self._stop.is_set():
            rss, _ = self.snapshot()
            self.peak_rss = max(self.peak_rss, rss)
            time.sleep(self.every)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        self._thread.join()


# ------------------------------------------------------------------------------------ the sessions
def _rerun(page: str, query: str, *, history: bool):
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    msg.rerun_script.query_string = query
    msg.rerun_script.page_name = page
    msg.rerun_script.is_history_navigation = history
    return msg.SerializeToString()


async def _until_finished(ws, t0: float, out: dict, prefix: str, port: int) -> None:
    """Read ForwardMsgs until the script run ends; note the first chart and the end (seconds from t0)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    while True:
        raw = await ws.recv()
        msg = ForwardMsg()
        msg.ParseFromString(raw)
        kind = msg.WhichOneof("type")
        if kind == "ref_hash":  # a message the server cached: the frontend fetches it over HTTP
            url = f"http://127.0.0.1:{port}/_stcore/message?hash={msg.ref_hash}"
            body = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=60).read())
            msg = ForwardMsg()
            msg.ParseFromString(body)
            kind = msg.WhichOneof("type")
        if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            el = msg.delta.new_element.WhichOneof("type")
            if el == "plotly_chart" and f"{prefix}_chart" not in out:
                out[f"{prefix}_chart"] = time.perf_counter() - t0
            if el == "exception":
                out.setdefault("exceptions", []).append(msg.delta.new_element.exception.message)
        elif kind == "script_finished":
            # a rerun of the same view (a widget settling) follows a FINISHED_EARLY_FOR_RERUN
            if msg.script_finished != 2:  # ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN
                out[f"{prefix}_settled"] = time.perf_counter() - t0
                return


async def one_session(i: int, port: int, page: str, query: str, interaction: str, start, go_on,
                      results: list) -> None:
    import websockets

    out = {"session": i}
    results.append(out)
    await start.wait()
    t0 = time.perf_counter()
    try:
        async with websockets.connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"],
                                      max_size=None, open_timeout=120, ping_interval=None) as ws:
            await ws.send(_rerun(page, query, history=False))
            await _until_finished(ws, t0, out, "open", port)
            await go_on.wait()
            t1 = time.perf_counter()
            await ws.send(_rerun(page, interaction, history=True))
            await _until_finished(ws, t1, out, "interaction", port)
    except Exception as exc:  # noqa: BLE001 — reported per session
        out["error"] = f"{type(exc).__name__}: {exc}"


async def run_class(n: int, port: int, page: str, query: str, interaction: str, settle_all: float) -> list:
    start, go_on = asyncio.Event(), asyncio.Event()
    results: list = []
    tasks = [asyncio.create_task(one_session(i, port, page, query, interaction, start, go_on, results))
             for i in range(n)]
    start.set()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < settle_all:  # every session settled (or failed) before the interaction
        if all("open_settled" in r or "error" in r for r in results) and len(results) == n:
            break
        await asyncio.sleep(0.1)
    go_on.set()
    await asyncio.gather(*tasks)
    return results


def _pct(values, q):
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--page", default="Tuning_criteria", help="the page's URL path")
    ap.add_argument("--query", default="data=wahba2001&n=200&seed=0", help="the shared link's query string")
    ap.add_argument("--interaction", default="data=wahba2001&n=200&seed=1",
                    help="the view every session then steps to (Back/Forward)")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--serve", nargs=2, metavar=("PORT", "LOG"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve:
        serve(int(a.serve[0]), a.serve[1])
        return
    if a.sessions < 1:
        raise SystemExit("--sessions must be ≥ 1")
    port = serving.free_port()
    work = tempfile.mkdtemp(prefix="svmviz-class-")
    log_path = os.path.join(work, "computations.jsonl")
    env = dict(os.environ)
    env.setdefault("NUMBA_CACHE_DIR", os.path.join(ROOT, ".numba_cache"))
    env["SVMVIZ_DATA_DIR"] = os.path.join(work, "data")
    server_log = open(os.path.join(work, "server.log"), "w")
    print(f"before: {machine()}")
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--serve", str(port), log_path], cwd=ROOT,
                            env=env, stdout=server_log, stderr=subprocess.STDOUT)
    try:
        try:
            up = serving.wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=120.0, log_path=server_log.name)
        except serving.ServerDidNotStart as exc:
            raise SystemExit(str(exc)) from None
        time.sleep(5.0)  # the server's own start-up work (warm-up processes) before the class arrives
        sampler = Sampler(proc.pid)
        rss0, cpu0 = sampler.snapshot()
        sampler.start()
        t0 = time.perf_counter()
        results = asyncio.run(run_class(a.sessions, port, a.page, a.query, a.interaction, a.timeout))
        wall = time.perf_counter() - t0
        sampler.stop()
        rss1, cpu1 = sampler.snapshot()
    finally:
        serving.stop(proc, timeout=30)
        server_log.close()
    keys = []
    if os.path.exists(log_path):
        with open(log_path, encoding="utf-8") as fh:
            keys = [json.loads(line)["key"] for line in fh if line.strip()]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    errors = [r for r in results if "error" in r or r.get("exceptions")]
    print(f"after:  {machine()}")
    print(f"server healthy after {up:.1f} s; {a.sessions} sessions on /{a.page}?{a.query}, then each to ?{a.interaction}")
    for phase in ("open", "interaction"):
        chart = [r[f"{phase}_chart"] for r in results if f"{phase}_chart" in r]
        settled = [r[f"{phase}_settled"] for r in results if f"{phase}_settled" in r]
        print(f"{phase:<12} first chart: {len(chart)}/{a.sessions} sessions, p50 {_pct(chart, .5):.2f} s, "
              f"p95 {_pct(chart, .95):.2f} s, max {max(chart, default=float('nan')):.2f} s; settled: "
              f"{len(settled)}/{a.sessions}, p50 {_pct(settled, .5):.2f} s, p95 {_pct(settled, .95):.2f} s, "
              f"max {max(settled, default=float('nan')):.2f} s")
    print(f"server (with its child processes): RSS {rss0 / 2**20:.0f} MB before, peak {sampler.peak_rss / 2**20:.0f} "
          f"MB, {rss1 / 2**20:.0f} MB after; CPU {cpu1 - cpu0:.1f} s over {wall:.1f} s of wall time "
          f"({(cpu1 - cpu0) / wall:.2f} cores on average)")
    print(f"computations stored: {len(keys)} ({len(set(keys))} distinct); computed more than once: "
          f"{len(twice)}" + (f" — {twice[:3]}" if twice else ""))
    if errors:
        print(f"{len(errors)} session(s) with an error: {errors[:3]}")
    print(f"server log and computations: {work}")
    ok = not twice and not errors and all("interaction_settled" in r for r in results)
    print("every session settled, each view computed once" if ok else "NOT every session settled once each")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
