"""Server memory around uploads: does a server give back what its visitors' uploads took once they leave?

A real server (``streamlit run app.py`` with the shipped configuration) and headless Debian chromium
(Playwright, one browser context per visitor):

1. one visitor opens the page with its default data, and one uploads a small file (``--warm-mb``, 1 MB)
   there, and leaves: the server has then loaded (and compiled) what an upload uses, once per process.
   Its resident size then is the level *before* the uploads (the level after the first visitor alone is
   printed too);
2. ``--sequential`` visitors (5) one after the other, each uploads its own CSV file of ``--mb`` MB
   (60 MiB: about 1.27 million rows of 5 features and a label), waits for the page to be drawn and leaves;
3. ``--concurrent`` visitors (4) do the same at once;
4. after the last one left, the server's RSS is read every 5 s for ``--wait`` seconds (180).

Streamlit keeps a closed tab's session ``server.disconnectedSessionTTL`` seconds (120) for a reconnect;
what the sessions held can be given back only after that. The check: RSS back within ``--margin`` MB
(150) of the level before, within ``--wait`` seconds of the last visitor leaving. Printed: RSS before,
after each phase, its peak, and every 5 s after the visitors left, with the machine's load.

    .venv/bin/python bench/bench_upload_memory.py [--mb 60] [--sequential 5] [--concurrent 4] [--page Loss_functions]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time

import numpy as np

from _common import machine
from bench_class import Sampler

from tests import serving  # the checkout is on sys.path (bench/_common.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
MB = 1024 ** 2


def write_csv(path: str, mb: float, seed: int) -> int:
    """A CSV file of about ``mb`` MB: 5 numeric features and a two-class label; its size in bytes."""
    import pandas as pd

    rows = int(mb * MB / 49.6)  # a row of five "%.6f" normals and a one-letter label: 49.6 bytes on average
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, 5))
    frame = pd.DataFrame(X, columns=[f"x{j}_{seed}" for j in range(5)])  # the names make each file distinct
    frame["label"] = np.where(X[:, 0] + 0.5 * rng.normal(size=rows) > 0, "a", "b")
    frame.to_csv(path, index=False, float_format="%.6f")
    return os.path.getsize(path)


def rss_mb(sampler: Sampler) -> float:
    return sampler.snapshot()[0] / MB


def visit(browser, url: str, page_title: str, csv_path: str | None, timeout_s: float = 600.0) -> float:
    """One visitor: open the app, go to the page, upload ``csv_path`` (if given), wait until the page is
    drawn, leave. The seconds it took."""
    t0 = time.perf_counter()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(url)
    page.get_by_role("heading", name="svmviz").first.wait_for(timeout=120_000)
    page.locator('[data-testid="stSidebarNav"] a', has_text=page_title).first.click()
    page.get_by_test_id("stPlotlyChart").first.wait_for(timeout=timeout_s * 1000)
    if csv_path is not None:
        _settled(page, timeout_s)
        for _ in range(5):  # the select box may be redrawn by a run that ends meanwhile: open it again
            page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
            option = page.get_by_role("option", name="Upload", exact=False).first
            try:
                option.wait_for(timeout=20_000)
                option.click()
                break
            except Exception:  # noqa: BLE001 — playwright's TimeoutError; the loop tries again
                page.keyboard.press("Escape")
        page.locator("input[type=file]").first.set_input_files(csv_path)
        page.get_by_text(f"Uploaded: {os.path.basename(csv_path)}").first.wait_for(timeout=timeout_s * 1000)
    _settled(page, timeout_s)
    if page.get_by_test_id("stException").count():
        raise SystemExit(f"the page failed: {page.get_by_test_id('stException').first.inner_text()[:400]}")
    context.close()  # the tab closes: the session's websocket too
    return time.perf_counter() - t0


def _settled(page, timeout_s: float, quiet_s: float = 2.0) -> None:
    t_end, since = time.time() + timeout_s, time.time()
    while time.time() < t_end:
        if page.get_by_test_id("stStatusWidget").count():
            since = time.time()
        elif time.time() - since >= quiet_s:
            return
        page.wait_for_timeout(200)
    raise SystemExit(f"the page did not settle within {timeout_s:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=60.0)
    ap.add_argument("--warm-mb", type=float, default=1.0, help="the file the warming visitor uploads (MB)")
    ap.add_argument("--sequential", type=int, default=5)
    ap.add_argument("--concurrent", type=int, default=4)
    ap.add_argument("--page", default="Loss functions", help="the sidebar title of the page the visitors use")
    ap.add_argument("--wait", type=float, default=180.0, help="seconds after the last visitor left")
    ap.add_argument("--margin", type=float, default=150.0, help="MB above the level before that still passes")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    tmp = tempfile.mkdtemp(prefix="svmviz_upload_memory_")
    n_files = args.sequential + args.concurrent
    sizes = [write_csv(os.path.join(tmp, f"upload_{i}.csv"), args.mb, i) for i in range(n_files)]
    files = [os.path.join(tmp, f"upload_{i}.csv") for i in range(n_files)]
    warm_file = os.path.join(tmp, "warm.csv")
    write_csv(warm_file, args.warm_mb, n_files)
    print(f"{n_files} files of {np.mean(sizes) / MB:.1f} MB; {machine()}", flush=True)

    port = serving.free_port()
    log = open(os.path.join(tmp, "server.log"), "w")
    env = dict(os.environ, NUMBA_CACHE_DIR=os.environ.get("NUMBA_CACHE_DIR", os.path.join(ROOT, ".numba_cache")))
    try:
        server, url = serving.start(serving.streamlit_run("app.py", port), port, log=log, cwd=ROOT, env=env,
                                    timeout=120.0, host="127.0.0.1")
    except serving.ServerDidNotStart as exc:
        raise SystemExit(str(exc)) from None
    out: dict = {"mb": args.mb, "sequential": args.sequential, "concurrent": args.concurrent, "page": args.page}
    try:
        sampler = Sampler(server.pid, every=0.5).start()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            visit(browser, url, args.page, None)
            time.sleep(5)
            out["rss_first_visit_mb"] = rss_mb(sampler)
            visit(browser, url, args.page, warm_file)
            time.sleep(5)
            out["rss_before_mb"] = before = rss_mb(sampler)
            print(f"after a visit: {out['rss_first_visit_mb']:.0f} MB; after a {args.warm_mb:g} MB upload:", end=" ")
            print(f"before the uploads: {before:.0f} MB ({machine()})", flush=True)
            for i in range(args.sequential):
                s = visit(browser, url, args.page, files[i])
                print(f"  sequential visitor {i + 1}: {s:.1f} s, server RSS {rss_mb(sampler):.0f} MB", flush=True)
            out["rss_after_sequential_mb"] = rss_mb(sampler)
            browser.close()
        # concurrent visitors: one browser each (Playwright's sync API is one thread per instance)
        errors: list = []

        def one(i: int) -> None:
            try:
                with sync_playwright() as q:
                    b = q.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                    visit(b, url, args.page, files[args.sequential + i])
                    b.close()
            except BaseException as exc:  # noqa: BLE001 — reported below
                errors.append(repr(exc))

        threads = [threading.Thread(target=one, args=(i,)) for i in range(args.concurrent)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise SystemExit(f"a concurrent visitor failed: {errors}")
        out["concurrent_seconds"] = time.perf_counter() - t0
        out["rss_after_concurrent_mb"] = rss_mb(sampler)
        out["rss_peak_mb"] = sampler.peak_rss / MB
        print(f"  {args.concurrent} concurrent visitors: {out['concurrent_seconds']:.1f} s, server RSS "
              f"{out['rss_after_concurrent_mb']:.0f} MB (peak {out['rss_peak_mb']:.0f} MB)", flush=True)
        left = time.perf_counter()
        trace = []
        back_at = None
        while time.perf_counter() - left <= args.wait:
            r = rss_mb(sampler)
            trace.append((round(time.perf_counter() - left), round(r)))
            if back_at is None and r <= before + args.margin:
                back_at = time.perf_counter() - left
            time.sleep(5)
        sampler.stop()
        out["rss_after_leaving_mb"] = trace
        out["back_within_margin_after_s"] = back_at
        out["rss_end_mb"] = trace[-1][1]
        out["load"] = machine()
        print(json.dumps(out))
        ok = back_at is not None and trace[-1][1] <= before + args.margin
        print(f"{'PASS' if ok else 'FAIL'}: RSS {before:.0f} MB before, {out['rss_peak_mb']:.0f} MB at the peak, "
              f"{trace[-1][1]} MB {args.wait:.0f} s after the visitors left "
              f"({'back within ' + format(args.margin, '.0f') + ' MB after ' + format(back_at, '.0f') + ' s' if back_at is not None else 'never back within the margin'}).")
        sys.exit(0 if ok else 1)
    finally:
        serving.stop(server, timeout=15)
        log.close()


if __name__ == "__main__":
    main()
