"""Time to the first chart of every page, cold (a fresh install's empty numba cache) and warm, in a
real browser (Debian chromium, Playwright) against ``streamlit run app.py``.

Scenarios, per page (each cold one with its own empty kernel cache, ``SVMVIZ_CACHE_DIR``, and a
fresh server):

* ``cold-none``    no background warm-up (``SVMVIZ_WARMUP=0``): the page is opened right after the
                   home page — what a first visitor waits on a fresh install without ``svmviz warmup``;
* ``cold-now``     background warm-up on (one process, ``svmviz warmup``), the page opened right
                   after the home page;
* ``cold-read``    background warm-up on, the home page read for ``--read`` seconds first;
* ``warm``         the cache filled by ``svmviz warmup`` (its total is printed), a fresh server:
                   first chart, then a warm interaction (the sidebar's Seed + 1: new data, every
                   computation of the default view redone);
* ``warm-read``    as ``warm``, the home page read for ``--read`` seconds first (the server loads the
                   pages' modules and compiled functions meanwhile), no interaction.

The server logs are kept in a folder named at the end, with the times of the browser's click and
first chart (``<page>-<scenario>.timeline``). Runs unattended; the last lines are a Markdown table.

"First chart" = the first Plotly chart of the page drawn after navigating to it from the home page
(once the home page's run is over and its own chart drawn; that chart does not count); "settled" = the
page's script finished (nothing changes for 1.5 s). Times in seconds from the click / navigation.

A warm interaction (Seed + 1, ``--repeat`` times, median and range shown) is reported three ways:
"settled" (the last change of the page's DOM, once nothing changed for 1.0 s and Streamlit's status
widget is gone: the page is no longer faded, what a person waits for), "charts" (the last change
inside a Plotly chart: every chart redrawn) and the CPU seconds it cost the server process and the
browser (all chromium processes) — CPU time survives a loaded machine better than wall time.

    python bench/bench_coldstart.py                      # every page, every scenario (~30 min)
    python bench/bench_coldstart.py --pages path ivm --scenarios cold-now warm
    python bench/bench_coldstart.py --compiles           # what ``svmviz warmup`` compiles (~1.5 min of CPU)
    python bench/bench_coldstart.py --compiles 20 --steps gram ivm   # what two of its steps compile

``--compiles``: the warm-up's steps in one process on an empty cache, with numba's compile events
(``numba.core.event``): every function compiled, with its CPU seconds exclusive of the functions
compiled inside its compilation, its number of compilations and the step that compiled it first; each
step's CPU seconds; and every function compiled for more than one signature.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from _common import machine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests import serving  # noqa: E402 (the checkout is on sys.path now)
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]

# the DOM's last change: Streamlit draws elements as the script reaches them
OBSERVE = """() => {
  window.__svLast = performance.now(); window.__svChart = NaN;
  if (window.__svObserver) { window.__svObserver.disconnect(); }
  const root = document.querySelector('[data-testid="stMain"]') || document.body;
  window.__svObserver = new MutationObserver((records) => {
    const t = performance.now();
    window.__svLast = t;
    for (const r of records) {  // the last change inside a Plotly chart: the charts are drawn
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (el && el.closest('.js-plotly-plot')) { window.__svChart = t; break; }
    }
  });
  window.__svObserver.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


# Streamlit's "running" status widget shown, the DOM's last change, now — one plain DOM query every
# 100 ms (Playwright's locators run its query engine over the whole page: ~0.1 s of the renderer's
# main thread per interaction, competing with the page being measured)
PROBE = """() => [document.querySelector('[data-testid="stStatusWidget"]') !== null, window.__svLast,
                  performance.now()]"""


# the home page's own chart is marked before the click: the page's first chart is an unmarked one
MARK_HOME_CHARTS = """() => document.querySelectorAll('[data-testid="stPlotlyChart"]').forEach(
  (el) => { el.dataset.svHome = '1'; })"""
NEW_CHART = """'[data-testid="stPlotlyChart"]:not([data-sv-home])'"""


def _server(cache: str, warmup: bool, log):
    port = serving.free_port()
    env = {**os.environ, "SVMVIZ_CACHE_DIR": cache, "SVMVIZ_WARMUP": "1" if warmup else "0"}
    return serving.start(serving.streamlit_run("app.py", port), port, log=log, cwd=ROOT, env=env)


def _stop(proc):
    import psutil

    try:  # the background warm-up it started (a session of its own) ends with the run
        children = psutil.Process(proc.pid).children(recursive=True)
    except psutil.Error:
        children = []
    for child in children:
        try:
            child.kill()
        except psutil.Error:
            pass
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _settled(page, t0: float, quiet: float = 1.5, limit: float = 600.0) -> float:
    """Seconds from ``t0`` (performance.now() ms) to the last DOM change, once nothing changed for ``quiet``."""
    t_end = time.time() + limit
    while time.time() < t_end:
        running, last, now = page.evaluate(PROBE)
        if not running and now - last > quiet * 1000:
            return (last - t0) / 1000.0
        page.wait_for_timeout(100)
    raise RuntimeError("the page did not settle")


def _first_chart(page, t0: float, limit: float = 900.0, quiet: float = 10.0) -> float:
    """Seconds from ``t0`` to the first Plotly chart; NaN for a page whose view has none (it settled
    without one: no change for ``quiet`` seconds once the script ended). ``quiet`` is long because the
    browser's main thread may be busy for seconds on a loaded machine between a chart's message and its
    drawing (fetching and running Streamlit's Plotly bundle, then the first draw): no DOM change and no
    status widget then, with the chart still to come."""
    t_end = time.time() + limit
    page.wait_for_timeout(300)
    while time.time() < t_end:
        if page.evaluate("() => document.querySelector(" + NEW_CHART + ") !== null"):
            return (page.evaluate("() => performance.now()") - t0) / 1000.0
        running, last, now = page.evaluate(PROBE)
        if not running and now - last > quiet * 1000:
            return float("nan")
        page.wait_for_timeout(50)
    raise RuntimeError("no chart")


def _cpu(procs) -> float:
    """User + system CPU seconds of ``procs`` (psutil processes; those gone count 0)."""
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except Exception:  # noqa: BLE001 — a chromium helper process ended
            pass
    return total


def _browser_procs() -> list:
    """This process's chromium processes (the browser Playwright started, its renderers, GPU, …)."""
    import psutil

    return [c for c in psutil.Process().children(recursive=True) if "chrom" in c.name().lower()]


def _spread(values) -> str:
    v = sorted(values)
    return f"{v[len(v) // 2]:.2f} [{v[0]:.2f}–{v[-1]:.2f}]"


def _mark(timeline: str | None, what: str) -> None:
    """A line of the browser's side in the run's timeline file (epoch seconds)."""
    if timeline:
        with open(timeline, "a") as f:
            f.write(f"{time.time():.3f}          {what} (browser)\n")


def visit(browser, url: str, url_path: str, read: float, interact: bool, repeat: int = 1,
          server_pid: int | None = None, timeline: str | None = None) -> dict:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        t_home = time.time()
        page.goto(url + "/")
        page.get_by_role("heading", name="svmviz").wait_for(timeout=120_000)
        page.wait_for_timeout(300)  # the home page's run over: its chart drawn, as a reader sees it
        page.get_by_test_id("stStatusWidget").wait_for(state="detached", timeout=120_000)
        t_home = time.time() - t_home
        if read:
            page.wait_for_timeout(read * 1000)
        link = page.locator('[data-testid="stSidebarNav"] a[href$="/' + url_path + '"]').first
        page.evaluate(OBSERVE)
        page.evaluate(MARK_HOME_CHARTS)
        t0 = page.evaluate("() => performance.now()")
        _mark(timeline, "home page drawn, click")
        link.click()
        first = _first_chart(page, t0)
        _mark(timeline, "first chart")
        out = {"first_chart": first, "settled": _settled(page, t0), "home": t_home}
        if interact:
            step_up = page.get_by_test_id("stSidebar").get_by_test_id("stNumberInputStepUp").first
            import psutil

            server = [psutil.Process(server_pid)] if server_pid else []
            times, charts, cpu_server, cpu_browser = [], [], [], []
            for _ in range(repeat if step_up.count() else 0):  # the median of ``repeat`` Seed + 1
                page.wait_for_timeout(300)
                browsers = _browser_procs()
                c_server, c_browser = _cpu(server), _cpu(browsers)
                page.evaluate(OBSERVE)
                t1 = page.evaluate("() => performance.now()")
                step_up.click()
                page.wait_for_timeout(200)
                times.append(_settled(page, t1, quiet=1.0))
                charts.append((page.evaluate("() => window.__svChart") - t1) / 1000.0)
                cpu_server.append(_cpu(server) - c_server)
                cpu_browser.append(_cpu(browsers) - c_browser)
            if times:
                out["interaction"] = sorted(times)[len(times) // 2]
                out["interactions"] = times
                out["charts"] = charts
                out["cpu_server"] = cpu_server
                out["cpu_browser"] = cpu_browser
        return out
    finally:
        page.close()


def run(pages, scenarios, read: float, warm_cache: str | None = None, repeat: int = 1,
        cold_repeat: int = 1) -> list[dict]:
    from playwright.sync_api import sync_playwright

    from svmviz.ui.frame import PAGES

    specs = [p for p in PAGES if not pages or p.module in pages]
    rows = []
    logdir = tempfile.mkdtemp(prefix="svmviz-coldstart-")
    own_cache = warm_cache is None
    warm_cache = warm_cache or tempfile.mkdtemp(prefix="svmviz-warm-cache-")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        if any(sc.startswith("warm") for sc in scenarios):  # fill the warm cache once (or check it is current): svmviz warmup
            t0 = time.time()
            out = subprocess.run([sys.executable, "-m", "svmviz.cli", "warmup"], cwd=ROOT, check=True, text=True,
                                 env={**os.environ, "SVMVIZ_CACHE_DIR": warm_cache}, capture_output=True).stdout
            print(out.rstrip(), f"\n(svmviz warmup: {time.time() - t0:.1f} s wall, load {os.getloadavg()[0]:.1f})",
                  flush=True)
        for spec in specs:
            for sc, k in [(sc, k) for sc in scenarios for k in range(1 if sc.startswith("warm") else cold_repeat)]:
                warm = sc.startswith("warm")
                cache = warm_cache if warm else tempfile.mkdtemp(prefix="svmviz-cold-cache-")
                run_name = f"{spec.module}-{sc}" + (f"-{k + 1}" if cold_repeat > 1 and not warm else "")
                timeline = os.path.join(logdir, f"{run_name}.timeline")
                with open(os.path.join(logdir, f"{run_name}.log"), "w") as log:
                    t_start = time.time()
                    proc, url = _server(cache, warmup=sc != "cold-none" and not warm, log=log)
                    try:
                        res = visit(browser, url, spec.url_path, read if sc in ("cold-read", "warm-read") else 0.0,
                                    interact=sc == "warm", repeat=repeat, server_pid=proc.pid, timeline=timeline)
                    finally:
                        _stop(proc)
                res.update(page=spec.module, scenario=sc, load=os.getloadavg()[0],
                           since_server_start=time.time() - t_start)
                rows.append(res)
                print(f"{spec.module:8s} {sc:10s} first chart {res['first_chart']:6.1f} s  settled "
                      f"{res['settled']:6.1f} s" + (f"  interaction {res['interaction']:5.2f} s "
                                                   f"{[round(t, 2) for t in res['interactions']]}"
                                                   if "interaction" in res else "")
                      + f"  (home page {res['home']:.1f} s, load {res['load']:.1f})", flush=True)
                if "interaction" in res:
                    print(f"{'':20s}Seed + 1, median [range] of {len(res['interactions'])}: settled "
                          f"{_spread(res['interactions'])} s, charts drawn {_spread(res['charts'])} s, CPU server "
                          f"{_spread(res['cpu_server'])} s + browser {_spread(res['cpu_browser'])} s", flush=True)
                if not warm:
                    shutil.rmtree(cache, ignore_errors=True)
        browser.close()
    if own_cache:
        shutil.rmtree(warm_cache, ignore_errors=True)
    print(f"server logs: {logdir}")
    return rows


def compile_list(top: int, only=()) -> None:
    """Print what the warm-up compiles on an empty cache (``--compiles``, see the module); ``only``: the
    names of the steps to run (``--steps``; empty: every step)."""
    import collections
    import warnings

    cache = tempfile.mkdtemp(prefix="svmviz-compiles-")
    os.environ["SVMVIZ_CACHE_DIR"] = cache
    from numba.core import event

    stack, cpu, count, first = [], collections.defaultdict(float), collections.Counter(), {}
    step = [""]

    def name(dispatcher):
        fn = getattr(dispatcher, "py_func", None)
        return f"{fn.__module__}.{fn.__qualname__}" if fn is not None else repr(dispatcher)

    class Compiles(event.Listener):
        def on_start(self, ev):
            stack.append([name(ev.data.get("dispatcher")), time.process_time(), 0.0])

        def on_end(self, ev):
            fn, t0, inner = stack.pop()
            seconds = time.process_time() - t0
            cpu[fn] += seconds - inner
            count[fn] += 1
            first.setdefault(fn, step[0])
            if stack:
                stack[-1][2] += seconds

    event.register("numba:compile", Compiles())
    from svmviz import _jit, _warmup

    try:
        steps = []
        unknown = set(only) - {s.name for s in _warmup.STEPS}
        if unknown:
            raise SystemExit(f"--steps: no step named {', '.join(sorted(unknown))} "
                             f"(the steps: {', '.join(s.name for s in _warmup.STEPS)})")
        for s in _warmup.STEPS:
            if only and s.name not in only:
                continue
            step[0] = s.name
            t = time.process_time()
            with _jit.notices_to(lambda _text: None), warnings.catch_warnings():  # as svmviz warmup runs them
                warnings.simplefilter("ignore")
                s.run()
            steps.append((s.name, time.process_time() - t))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(machine(), "—", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    print("CPU s per step: " + ", ".join(f"{n} {t:.1f}" for n, t in steps) + f"; total {sum(t for _, t in steps):.1f}")
    print(f"compiled functions: {len(cpu)}, compilations: {sum(count.values())}; the {top} costliest "
          "(CPU s exclusive, compilations, first step):")
    for fn, seconds in sorted(cpu.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {seconds:6.2f}  x{count[fn]:<3d} {first[fn]:9s} {fn}")
    several = [(name(d), d.signatures) for ds in _jit._GROUP_FUNCTIONS.values() for d in ds if len(d.signatures) > 1]
    print("svmviz functions compiled for more than one signature:" + ("" if several else " none"))
    for fn, sigs in several:
        print(f"  {fn}: " + "; ".join(str(sig) for sig in sigs))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", nargs="*", default=[], help="page modules (tuning, losses, path, usvc, ivm, …)")
    ap.add_argument("--scenarios", nargs="*", default=["cold-none", "cold-now", "cold-read", "warm"])
    ap.add_argument("--read", type=float, default=30.0, help="seconds on the home page in cold-read and warm-read")
    ap.add_argument("--warm-cache", default=None,
                    help="use this kernel cache folder (SVMVIZ_CACHE_DIR) for the warm rows instead of a new one; "
                         "svmviz warmup fills it if it is not current (warm rows never run the background warm-up)")
    ap.add_argument("--repeat", type=int, default=1, help="Seed + 1 interactions per warm row (the median is shown)")
    ap.add_argument("--cold-repeat", type=int, default=1,
                    help="runs of each cold scenario, each on a fresh server and an empty cache (the table shows "
                         "the median [range] of the first chart, and of the page settled: single cold runs vary "
                         "by a second or two)")
    ap.add_argument("--compiles", type=int, nargs="?", const=40, default=None, metavar="TOP",
                    help="print what svmviz warmup compiles on an empty cache (the TOP costliest functions, "
                         "default 40) and stop")
    ap.add_argument("--steps", nargs="*", default=[], metavar="STEP",
                    help="with --compiles: run only these steps of the warm-up (gram, svm-grid, …), in its order; "
                         "the Gram-matrix step is the first of every other step's callees")
    args = ap.parse_args()
    if args.compiles is not None:
        compile_list(args.compiles, args.steps)
        return
    print(machine(), "—", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    rows = run(args.pages, args.scenarios, args.read, args.warm_cache, args.repeat, args.cold_repeat)
    print("\n| page | " + " | ".join(args.scenarios) + " | warm interaction: settled | charts drawn | CPU server + "
          "browser | load |")
    print("|---" * (len(args.scenarios) + 5) + "|")
    for page in dict.fromkeys(r["page"] for r in rows):
        cells = []
        inter, drawn, cpu = "", "—", "—"
        for sc in args.scenarios:
            runs = [r for r in rows if r["page"] == page and r["scenario"] == sc]
            r = runs[0] if runs else None
            if len(runs) > 1:
                cells.append(f"{_spread([x['first_chart'] for x in runs])} ({_spread([x['settled'] for x in runs])})")
            else:
                cells.append("—" if r is None else f"{r['first_chart']:.1f} ({r['settled']:.1f})")
            if r is not None and "interaction" in r:
                inter = _spread(r["interactions"])
                drawn = _spread(r["charts"])
                cpu = f"{_spread(r['cpu_server'])} + {_spread(r['cpu_browser'])}"
        loads = [r["load"] for r in rows if r["page"] == page]
        print(f"| {page} | " + " | ".join(cells) + f" | {inter or '—'} | {drawn} | {cpu} | "
              f"{min(loads):.1f}–{max(loads):.1f} |")
    print("\nfirst chart (page settled), seconds from the click in the navigation; warm interaction (Seed + 1): "
          "median [min–max] seconds to settled / to the last chart change, CPU seconds of the server process and "
          "of the browser per interaction")


if __name__ == "__main__":
    main()
