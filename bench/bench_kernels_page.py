"""Benchmark: warm interactions of the Kernels & variable selection page, server side.

The page at its defaults (anova_structure, n = 200, d = 6, three kernels, 11 λ values, exact LOO on)
is opened in AppTest and run until warm; then, repeated, three interactions a teacher makes:

* ``rerun`` — the same view again (every result cached: the page's own drawing);
* ``measure`` — the importance measure switched (no fit recomputed: a figure built again);
* ``lambdas`` — the number of λ values switched between 11 and 8 (every kernel fitted again along λ, exact
  leave-one-out again; both grids are computed once before timing, so this is a cache hit after the
  first repeat unless ``--cold-fits`` clears the app's cache before each one).

Each is timed as wall seconds and CPU seconds of this process (the script thread, the compute jobs and
numba's threads all count), with the load average beside it, and the JSON the page's four figures send
(kB, every chart's spec).

``--browser`` times what a person waits for instead: the app served (``streamlit run app.py`` of each
checkout), the page opened in Debian's chromium (Playwright, 1024 × 768), and from the click on a
control to the last change of the page's charts (the server's run, the websocket, Plotly drawing the
four charts), for ``measure`` (the importance-measure radio) and ``lambdas`` (the λ-count slider moved
one step: the ``seed`` before it, the previous repeat's or the warm-up's, drew new data, so every kernel
is fitted again along λ and exact leave-one-out computed again). CPU seconds of the server and of chromium's
processes during each interaction are beside it, and the number of charts Plotly drew (``Plotly.react``
calls that reach Plotly) (``bench/bench_warm_breakdown.py`` splits the
browser's share further).

``--browser`` adds ``seed`` (the sidebar's Seed + 1: new data, every computation of the default view
redone, every chart drawn anew) to those two interactions.

``--charts`` splits the browser's share by chart: the page's four figures are taken from AppTest at
seeds 0 and 1 (the JSON the server sends), and each is drawn in chromium (Playwright, the Plotly.js
of the ``plotly`` package, 564 px wide: the main column at 1024 × 768) the way a Seed + 1 draws it:
``Plotly.newPlot`` into a fresh element (Streamlit mounts a new chart element for a changed figure).
Milliseconds per draw (the median; the figures of the two seeds alternate) and the SVG nodes each
chart leaves in the page, beside the figure's JSON size.

``--against DIR`` runs the same sequence with another checkout's ``svmviz`` (e.g. a ``git worktree`` of an
older commit) in a second process, interleaved repeat by repeat with this one, so both see the same load:

    python bench/bench_kernels_page.py --repeat 5 --cold-fits
    git worktree add /tmp/old <rev> && python bench/bench_kernels_page.py --against /tmp/old --cold-fits
    python bench/bench_kernels_page.py --browser --against /tmp/old --repeat 5
    python bench/bench_kernels_page.py --charts --against /tmp/old --repeat 9

Run with one thread per library for a steady ratio: ``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1``.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PAGE = "pages/6_Kernels_and_variable_selection.py"
ACTIONS = ("rerun", "measure", "lambdas")


def _session(root: str):
    """The page, opened and warm, in an AppTest of the checkout at ``root``."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(os.path.join(root, PAGE), default_timeout=900).run()
    if at.exception:
        raise SystemExit(f"the page failed: {at.exception[0].value}")
    for m in (8, 11):  # both λ grids computed once (numba's kernels loaded, the fits cached)
        at.select_slider(key="anova_nlam").set_value(m).run()
    return at


def _act(at, action: str, cold_fits: bool) -> None:
    from svmviz.figures import anova as fig_anova
    from svmviz.ui import compute

    if action == "rerun":
        at.run()
    elif action == "measure":
        now = at.radio(key="anova_measure").value
        at.radio(key="anova_measure").set_value(next(m for m in fig_anova.MEASURES if m != now)).run()
    else:
        if cold_fits:
            compute.clear()
        now = at.select_slider(key="anova_nlam").value
        at.select_slider(key="anova_nlam").set_value(8 if now != 8 else 11).run()


def _serve(root: str, cold_fits: bool) -> None:
    """Child mode: one warm session; for each action name read from stdin, time it and print JSON."""
    sys.path.insert(0, root)
    at = _session(root)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        action = line.strip()
        w, c = time.perf_counter(), time.process_time()
        _act(at, action, cold_fits)
        kb = sum(len(c.proto.spec) for c in at.get("plotly_chart")) / 1024.0
        print(json.dumps({"action": action, "wall": time.perf_counter() - w, "cpu": time.process_time() - c,
                          "load": os.getloadavg()[0], "ok": not at.exception, "kb": kb}), flush=True)


def _child(root: str, cold_fits: bool) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": root, "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR",
                                                                                os.path.join(root, ".numba_cache"))}
    args = [sys.executable, os.path.abspath(__file__), "--serve", root] + (["--cold-fits"] if cold_fits else [])
    proc = subprocess.Popen(args, cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    _read(proc)  # ready
    return proc


def _read(proc) -> dict:
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("a benchmark process ended early")
        if line.startswith("{"):
            return json.loads(line)


BROWSER_ACTIONS = ("measure", "lambdas", "seed")
#: installed before the page's scripts, so under any other hook of ``window.Plotly``: the ``Plotly.react``
#: calls that reach Plotly (each one a draw of a chart) are counted in ``window.__svDraws``
COUNT_DRAWS = """() => {
  let held;
  const count = (P) => {
    if (!P || P.__svDrawsCounted) { return P; }
    const react = P.react;
    P.react = function () { window.__svDraws = (window.__svDraws || 0) + 1; return react.apply(this, arguments); };
    P.__svDrawsCounted = true;
    return P;
  };
  Object.defineProperty(window, 'Plotly', {configurable: true, get() { return held; }, set(v) { held = count(v); }});
}"""


class _Served:
    """One checkout's app served, its Kernels page open and warm in a chromium page."""

    def __init__(self, root: str, browser, log):
        sys.path.insert(0, HERE)
        import bench_coldstart as B
        from tests import serving

        self.B, self.root = B, root
        port = serving.free_port()
        env = {**os.environ, "PYTHONPATH": root, "SVMVIZ_WARMUP": "0"}
        self.proc, url = serving.start(serving.streamlit_run("app.py", port), port, log=log, cwd=root, env=env)
        self.page = browser.new_page(viewport={"width": 1024, "height": 768})
        self.page.add_init_script(f"({COUNT_DRAWS})()")
        self.page.goto(url + "/")
        self.page.get_by_role("heading", name="svmviz").wait_for(timeout=120_000)
        self.page.locator('[data-testid="stSidebarNav"] a', has_text="Kernels").first.click()
        self.page.get_by_role("heading", name="Kernels & variable selection").first.wait_for(timeout=120_000)
        self.page.evaluate(B.OBSERVE)
        B._settled(self.page, self.page.evaluate("() => performance.now()"), limit=900.0)
        self.lam_step = "ArrowLeft"
        for _ in range(2):  # both λ grids computed and both measures drawn once before timing (exact
            for act in BROWSER_ACTIONS:  # LOO has run once: a new seed's is awaited, not drawn in two steps)
                self.act(act)

    def act(self, action: str) -> dict:
        import psutil

        B, page = self.B, self.page
        server, browsers = [psutil.Process(self.proc.pid)], B._browser_procs()
        c_server, c_browser = B._cpu(server), B._cpu(browsers)
        page.evaluate(B.OBSERVE)
        page.evaluate("() => { window.__svDraws = 0; }")
        if action == "measure":
            radio = page.get_by_test_id("stRadio").filter(has_text="Importance measure").first
            target = radio.locator("label").filter(has_not=page.locator("input:checked")).last
            t0 = page.evaluate("() => performance.now()")
            target.click()
        elif action == "seed":
            step = page.get_by_test_id("stSidebar").get_by_test_id("stNumberInputStepUp").first
            t0 = page.evaluate("() => performance.now()")
            step.click()
        else:
            slider = page.get_by_test_id("stSidebar").get_by_role("slider", name="λ values").first
            slider.focus()
            t0 = page.evaluate("() => performance.now()")
            page.keyboard.press(self.lam_step)
            self.lam_step = "ArrowRight" if self.lam_step == "ArrowLeft" else "ArrowLeft"
        page.wait_for_timeout(200)
        settled = B._settled(page, t0, quiet=1.0)
        charts = (page.evaluate("() => window.__svChart") - t0) / 1000.0
        return {"action": action, "wall": settled, "charts": charts, "draws": page.evaluate("() => window.__svDraws"),
                "cpu_server": B._cpu(server) - c_server,
                "cpu_browser": B._cpu(browsers) - c_browser, "load": os.getloadavg()[0]}

    def close(self) -> None:
        self.page.close()
        self.B._stop(self.proc)


def browser_main(roots: dict, repeat: int) -> None:
    """Warm interactions in chromium, the checkouts interleaved action by action."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, ROOT)
    from tests.browser.helpers import ARGS, CHROMIUM

    rows = {(k, act): [] for k in roots for act in BROWSER_ACTIONS}
    os.makedirs(os.path.join(HERE, "out"), exist_ok=True)  # the servers' logs
    logs = {k: open(os.path.join(HERE, "out", f"kernels_page_server_{k}.log"), "w") for k in roots}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        served = {}
        try:
            served = {k: _Served(r, browser, logs[k]) for k, r in roots.items()}
            for i in range(repeat):
                for act in BROWSER_ACTIONS:
                    order = list(served.items())
                    for k, sv in order if i % 2 == 0 else order[::-1]:  # each checkout first in turn
                        rows[(k, act)].append(sv.act(act))
        finally:
            for sv in served.values():
                sv.close()
            browser.close()
            for log in logs.values():
                log.close()
    print(f"Kernels & variable selection in chromium at 1024 × 768, warm interactions ({repeat} repeats, median): "
          "click to the last change of the page / of its charts")
    for act in BROWSER_ACTIONS:
        for k in roots:
            rs = rows[(k, act)]
            med = lambda key: sorted(r[key] for r in rs)[len(rs) // 2]  # noqa: E731
            print(f"  {act:8s} {k:8s} page {med('wall'):6.3f} s  charts {med('charts'):6.3f} s  "
                  f"CPU server {med('cpu_server'):6.3f} s  browser {med('cpu_browser'):6.3f} s  "
                  f"Plotly draws {med('draws')}  "
                  f"(load {min(r['load'] for r in rs):.1f}–{max(r['load'] for r in rs):.1f})")


def _figure_specs(root: str) -> None:
    """Child mode: the page's figures (AppTest of the checkout at ``root``) at seeds 0 and 1, printed as
    one JSON line ``{"seeds": [[[title, spec], …], […]]}``."""
    from streamlit.testing.v1 import AppTest

    sys.path.insert(0, root)
    at = AppTest.from_file(os.path.join(root, PAGE), default_timeout=900).run()
    out = []
    for seed in (0, 1):
        if seed:
            next(w for w in at.number_input if w.label == "Seed").set_value(seed).run()
        if at.exception:
            raise SystemExit(f"the page failed: {at.exception[0].value}")
        out.append([(json.loads(c.proto.spec)["layout"]["title"]["text"], c.proto.spec) for c in at.get("plotly_chart")])
    print(json.dumps({"seeds": out}), flush=True)


#: one chart drawn as a Seed + 1 draws it: a fresh element, Plotly.newPlot; milliseconds and SVG nodes
_DRAW = """async ([spec, width]) => {
  const box = document.getElementById('box');
  if (box.firstChild) { Plotly.purge(box.firstChild); box.innerHTML = ''; }
  const el = document.createElement('div'); el.style.width = width + 'px'; box.appendChild(el);
  const layout = Object.assign({}, spec.layout, {width: width});
  const t = performance.now();
  await Plotly.newPlot(el, spec.data, layout, {displaylogo: false});
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));  // painted
  return [performance.now() - t, el.querySelectorAll('*').length];
}"""


def charts_main(roots: dict, repeat: int, width: int = 564) -> None:
    """Each figure of the page drawn alone in chromium, the checkouts interleaved draw by draw."""
    import statistics

    import plotly
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, ROOT)
    from tests.browser.helpers import ARGS, CHROMIUM

    specs = {}
    for k, r in roots.items():
        env = {**os.environ, "PYTHONPATH": r, "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR",
                                                                                 os.path.join(r, ".numba_cache"))}
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--figure-specs", r], cwd=r, env=env,
                             capture_output=True, text=True, check=True).stdout
        specs[k] = json.loads(next(line for line in out.splitlines() if line.startswith("{")))["seeds"]
    titles = [t for t, _ in specs["this"][0]]
    plotly_js = os.path.join(os.path.dirname(plotly.__file__), "package_data", "plotly.min.js")
    rows = {(k, i): [] for k in roots for i in range(len(titles))}
    nodes = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            page.set_content("<html><body><div id='box'></div></body></html>")
            page.add_script_tag(path=plotly_js)
            for k in roots:  # Plotly's code warm: every trace type drawn once
                for _, spec in specs[k][0]:
                    page.evaluate(_DRAW, [json.loads(spec), width])
            for rep in range(repeat):
                seed = rep % 2  # the two seeds' figures in turn
                for i in range(len(titles)):
                    order = list(roots)
                    for k in order if rep % 2 == 0 else order[::-1]:
                        title, spec = specs[k][seed][i]
                        ms, n = page.evaluate(_DRAW, [json.loads(spec), width])
                        rows[(k, i)].append(ms)
                        nodes[(k, i)] = (n, len(spec) / 1024.0)
        finally:
            browser.close()
    print(f"Kernels & variable selection: each chart drawn alone in chromium, {width} px wide, Plotly.newPlot "
          f"({repeat} draws, median ms; load {os.getloadavg()[0]:.1f})")
    for i, title in enumerate(titles):
        name = title.split(" — ")[0].split(" for each")[0].split(", most")[0][:40]
        for k in roots:
            n, kb = nodes[(k, i)]
            print(f"  {name:40s} {k:8s} {statistics.median(rows[(k, i)]):7.1f} ms  {n:5d} nodes  {kb:6.1f} kB")
    for k in roots:
        print(f"  {'all four':40s} {k:8s} {sum(statistics.median(rows[(k, i)]) for i in range(len(titles))):7.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cold-fits", action="store_true", help="clear the app's cache before each λ switch")
    ap.add_argument("--against", metavar="DIR", help="another checkout, timed interleaved with this one")
    ap.add_argument("--browser", action="store_true", help="time the interactions in chromium (see above)")
    ap.add_argument("--charts", action="store_true", help="time each chart's drawing in chromium (see above)")
    ap.add_argument("--serve", metavar="ROOT", help=argparse.SUPPRESS)
    ap.add_argument("--figure-specs", metavar="ROOT", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve:
        _serve(a.serve, a.cold_fits)
        return
    if a.figure_specs:
        _figure_specs(a.figure_specs)
        return
    roots = {"this": ROOT} | ({"against": os.path.abspath(a.against)} if a.against else {})
    if a.browser:
        browser_main(roots, a.repeat)
        return
    if a.charts:
        charts_main(roots, a.repeat)
        return
    procs = {k: _child(r, a.cold_fits) for k, r in roots.items()}
    rows = {(k, act): [] for k in roots for act in ACTIONS}
    try:
        for _ in range(a.repeat):
            for act in ACTIONS:
                for k, p in procs.items():  # interleaved: each checkout's run of an action in turn
                    p.stdin.write(act + "\n")
                    p.stdin.flush()
                    r = _read(p)
                    if not r["ok"]:
                        raise SystemExit(f"{k}: the page raised during {act}")
                    rows[(k, act)].append(r)
    finally:
        for p in procs.values():
            p.stdin.close()
            p.wait()
    print(f"Kernels & variable selection, warm interactions ({a.repeat} repeats, median; "
          f"{'fits recomputed at each λ switch' if a.cold_fits else 'λ switch between cached grids'})")
    for act in ACTIONS:
        for k in roots:
            rs = rows[(k, act)]
            med = lambda key: sorted(r[key] for r in rs)[len(rs) // 2]  # noqa: E731
            print(f"  {act:8s} {k:8s} wall {med('wall'):6.3f} s  CPU {med('cpu'):6.3f} s  "
                  f"figures {med('kb'):6.1f} kB  (load {min(r['load'] for r in rs):.1f}–{max(r['load'] for r in rs):.1f})")


if __name__ == "__main__":
    main()
