"""One warm interaction (the sidebar's Seed + 1) broken into its parts, in the real browser.

For each page and each repeat, times in seconds from the click:

* the websocket messages the server sent (time, bytes, kind: ``new_session``, ``delta:plotly_chart``,
  ``script_finished``…; small deltas are counted, not listed) — the server's script run as the
  browser sees it;
* the DOM changes grouped by where they happen (``chart<i>`` = inside the i-th Plotly chart, else the
  nearest ``data-testid``): first and last time, number of mutation records — what moves the
  "last DOM change" of ``bench_coldstart``'s settled rule;
* the renderer's long tasks (> 50 ms of its main thread) and the forced layouts
  (``getBoundingClientRect`` calls, their time, the busiest callers);
* CPU seconds per process kind (server; chromium renderer, GPU, browser) and the renderer main
  thread's split from the DevTools ``Performance`` domain (script, style, layout, other);
* with ``--profile``: the page's JavaScript CPU profile (DevTools ``Profiler``, 100 µs samples):
  self time per script file (Streamlit's ``index``, the ``PlotlyChart`` bundle…) and the busiest
  functions, self and total (file:line:column: the bundles are minified);
* with ``--trace``: the renderer main thread's self time per trace event (``devtools.timeline``
  categories: ``FunctionCall``, ``Paint``, ``UpdateLayoutTree``, ``MinorGC``…), what the
  ``Performance`` domain lumps into "other".

    python bench/bench_warm_breakdown.py --pages tuning losses usvc --repeat 3

Uses the kernel cache in ``SVMVIZ_CACHE_DIR`` (default ``.numba_cache``; fill it first with
``svmviz warmup``; the background warm-up is off). Slow machines and
loaded ones stretch every wall time: compare CPU seconds, bytes and counts, and A/B in the same
minutes.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
import time

import bench_coldstart as B

INIT = r"""
(() => {
  window.__ws = []; window.__lt = []; window.__gbcr = {};
  const WS = window.WebSocket;
  window.WebSocket = function (...a) {
    const s = new WS(...a);
    s.addEventListener('message', e => window.__ws.push([performance.now(), e.data.byteLength || e.data.size || 0]));
    return s;
  };
  window.WebSocket.prototype = WS.prototype; Object.assign(window.WebSocket, WS);
  const G = Element.prototype.getBoundingClientRect;
  Element.prototype.getBoundingClientRect = function () {
    const t = performance.now(), r = G.call(this), dt = performance.now() - t;
    const who = (new Error().stack || '').split('\n')[2] || '';
    const k = ((this.getAttribute && this.getAttribute('class')) || this.tagName || '?').split(' ')[0].slice(0, 24)
              + ' | ' + who.trim().replace(/https?:\/\/[^/]+\/static\/js\//, '').slice(0, 60);
    const a = window.__gbcr[k] = window.__gbcr[k] || [0, 0]; a[0]++; a[1] += dt; return r;
  };
  try {
    new PerformanceObserver(l => { for (const e of l.getEntries()) window.__lt.push([e.startTime, e.duration]); })
      .observe({type: 'longtask', buffered: true});
  } catch (e) {}
})();
"""

MUTATIONS = r"""() => {
  window.__mut = []; window.__gbcr = {}; window.__lt = [];
  if (window.__bdObserver) { window.__bdObserver.disconnect(); }
  const root = document.querySelector('[data-testid="stMain"]') || document.body;
  window.__bdObserver = new MutationObserver(recs => {
    const t = performance.now();
    const charts = Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"]'));
    for (const r of recs) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const c = el && el.closest('[data-testid="stPlotlyChart"]');
      const tid = el && el.closest('[data-testid]');
      window.__mut.push([t, c ? 'chart' + charts.indexOf(c) : (tid ? tid.getAttribute('data-testid') : '?')]);
    }
  });
  window.__bdObserver.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def _kind(payload: bytes) -> str:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    m = ForwardMsg()
    try:
        m.ParseFromString(payload)
    except Exception:  # noqa: BLE001 — not a ForwardMsg
        return "?"
    k = m.WhichOneof("type")
    if k == "delta":
        dk = m.delta.WhichOneof("type")
        return f"delta:{m.delta.new_element.WhichOneof('type')}" if dk == "new_element" else f"delta:{dk}"
    return str(k)


def _cpu_by_kind(server) -> collections.Counter:
    import psutil

    out = collections.Counter()
    try:
        t = server.cpu_times()
        out["server"] = t.user + t.system
    except psutil.Error:
        pass
    for c in B._browser_procs():
        try:
            cl = " ".join(c.cmdline())
            kind = next((k for k in ("renderer", "gpu-process", "utility") if f"--type={k}" in cl), "browser")
            t = c.cpu_times()
            out[f"chromium {kind}"] += t.user + t.system
        except psutil.Error:
            pass
    return out


TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink",
                    "disabled-by-default-v8.gc"]


def _main_thread_self_times(trace: bytes, top: int = 14) -> tuple[float, list[tuple[str, float]]]:
    """Self time (s) per event name on the busiest renderer main thread (``CrRendererMain``) of a
    Chrome trace: each complete event's duration minus its children's (events nested by time)."""
    import json

    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    spans: dict[tuple, list] = collections.defaultdict(list)
    opened: dict[tuple, list] = collections.defaultdict(list)
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if key not in mains:
            continue
        if e.get("ph") == "X" and "dur" in e:
            spans[key].append((e["ts"], e["ts"] + e["dur"], e["name"]))
        elif e.get("ph") == "B":
            opened[key].append((e["ts"], e["name"]))
        elif e.get("ph") == "E" and opened[key]:
            t0, name = opened[key].pop()
            spans[key].append((t0, e["ts"], name))
    if not spans:
        return 0.0, []
    key = max(spans, key=lambda k: sum(b - a for a, b, n in spans[k] if n == "RunTask"))
    own: collections.Counter = collections.Counter()
    stack: list[list] = []  # [end, name, child time]
    for a, b, name in sorted(spans[key], key=lambda s: (s[0], -s[1])):
        while stack and stack[-1][0] <= a:
            end, nm, child, start = stack.pop()
            own[nm] += (end - start) - child
        if stack:
            stack[-1][2] += b - a if b <= stack[-1][0] else stack[-1][0] - a
        stack.append([b, name, 0.0, a])
    while stack:
        end, nm, child, start = stack.pop()
        own[nm] += (end - start) - child
    total = sum(b - a for a, b, n in spans[key] if n == "RunTask") / 1e6
    return total, [(n, t / 1e6) for n, t in own.most_common(top)]


def _profile_summary(profile: dict, top: int = 12) -> list[str]:
    """Self time per script file and the busiest functions (self, total) of a DevTools CPU profile."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", ())}
    own: collections.Counter = collections.Counter()
    for sid, dt in zip(profile["samples"], profile["timeDeltas"]):
        own[sid] += dt / 1e6

    def where(n):
        cf = n["callFrame"]
        f = cf["url"].rsplit("/", 1)[-1].split(".")[0] or "(native)"
        return f, f"{cf['functionName'] or '(anon)'}@{f}:{cf['lineNumber'] + 1}:{cf['columnNumber'] + 1}"

    by_file: collections.Counter = collections.Counter()
    by_fn: collections.Counter = collections.Counter()
    total_fn: collections.Counter = collections.Counter()
    for sid, t in own.items():
        f, fn = where(nodes[sid])
        by_file[f] += t
        by_fn[fn] += t
        seen, k = set(), sid
        while k is not None:  # inclusive time, each function once per sample's stack
            name = where(nodes[k])[1]
            if name not in seen:
                seen.add(name)
                total_fn[name] += t
            k = parent.get(k)
    busy = sum(t for f, t in by_file.items() if f not in ("(idle)", "(program)"))
    lines = [f"profile: {sum(own.values()):.3f} s sampled, {busy:.3f} s not idle; self by file: "
             + ", ".join(f"{f} {t:.3f}" for f, t in by_file.most_common(8))]
    lines.append("  self: " + "; ".join(f"{fn} {t:.3f}" for fn, t in by_fn.most_common(top)))
    lines.append("  total: " + "; ".join(f"{fn} {t:.3f}" for fn, t in total_fn.most_common(top + 12)
                                         if not fn.startswith("(")))
    return lines


def breakdown(browser, url: str, url_path: str, repeat: int, server_pid: int, trace: bool = False,
              profile: bool = False, seed: int | None = None,
              every_message: bool = False) -> list[dict]:
    """Print the parts of ``repeat`` warm interactions; return each one's figures (settled s, CPU s
    per process kind, messages, bytes, message count per kind) for A/B drivers. ``seed``: open the
    page at this seed (a link's ``?seed=``), so that a second visit to the same server computes anew
    instead of finding every result in the server's cache. ``every_message``: list every message,
    the small ones too (what the server sends between the last chart and the end of its run)."""
    import psutil

    server = psutil.Process(server_pid)
    frames: list[bytes] = []
    results: list[dict] = []
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.add_init_script(INIT)
        page.on("websocket", lambda ws: ws.on("framereceived",
                                              lambda p: frames.append(p if isinstance(p, bytes) else b"")))
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(f"{url}/{url_path}" + ("" if seed is None else f"?seed={int(seed)}"))
        page.locator('[data-testid="stPlotlyChart"]').first.wait_for(timeout=600_000)
        page.evaluate(B.OBSERVE)
        B._settled(page, 0.0, quiet=2.0)
        step = page.get_by_test_id("stSidebar").get_by_test_id("stNumberInputStepUp").first
        step.click()  # one interaction first: every later one is a warm one
        page.wait_for_timeout(200)
        page.evaluate(B.OBSERVE)
        B._settled(page, 0.0, quiet=1.5)
        for r in range(repeat):
            page.wait_for_timeout(500)
            n_frames, n_ws = len(frames), page.evaluate("() => window.__ws.length")
            cpu0 = _cpu_by_kind(server)
            m0 = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            page.evaluate(MUTATIONS)
            page.evaluate(B.OBSERVE)
            label = ""
            if trace:
                browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
            if profile:
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 100})
                cdp.send("Profiler.start")
            t1 = page.evaluate("() => performance.now()")
            step.click()
            page.wait_for_timeout(200)
            settled = B._settled(page, t1, quiet=1.0)
            traced = browser.stop_tracing() if trace else None
            profiled = cdp.send("Profiler.stop")["profile"] if profile else None
            cpu = _cpu_by_kind(server)
            cpu.subtract(cpu0)
            m1 = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            ws = page.evaluate("() => window.__ws")[n_ws:]
            payloads = frames[n_frames:]
            print(f"--- {url_path}, repeat {r + 1}: settled {settled:.3f} s (load {os.getloadavg()[0]:.1f}){label}")
            small, kinds = collections.Counter(), collections.Counter()
            for i, (t, nbytes) in enumerate(ws):
                kind = _kind(payloads[i]) if i < len(payloads) else "?"
                kinds[kind] += 1
                if every_message or nbytes >= 2000 or kind in ("new_session", "script_finished"):
                    print(f"   message {(t - t1) / 1000:7.3f} s {nbytes:9d} B  {kind}")
                else:
                    small[kind] += 1
            print(f"   messages: {len(ws)}, {sum(n for _, n in ws)} B; small ones: {dict(small.most_common())}")
            groups: dict[str, list] = {}
            for t, where in page.evaluate("() => window.__mut"):
                g = groups.setdefault(where, [t, t, 0])
                g[1], g[2] = t, g[2] + 1
            for where, (a, b, n) in sorted(groups.items(), key=lambda kv: kv[1][1]):
                if n >= 5 or where.startswith("chart"):
                    print(f"   DOM {where:24s} {(a - t1) / 1000:7.3f} .. {(b - t1) / 1000:7.3f} s  {n:6d} records")
            lt = [(round((s - t1) / 1000, 3), round(d)) for s, d in page.evaluate("() => window.__lt") if s >= t1]
            print(f"   long tasks (start s, ms): {lt}")
            gb = page.evaluate("() => Object.entries(window.__gbcr)")
            print(f"   forced layouts: {sum(n for _, (n, _t) in gb)} getBoundingClientRect calls, "
                  f"{sum(t for _, (_n, t) in gb):.0f} ms; busiest: "
                  + "; ".join(f"{n}x {t:.0f} ms {k}" for k, (n, t) in sorted(gb, key=lambda kv: -kv[1][1])[:3]))
            main = {k: round(m1.get(k, 0) - m0.get(k, 0), 3) for k in
                    ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskOtherDuration")}
            print(f"   CPU s: {({k: round(v, 3) for k, v in cpu.items() if v > 0.0005})}; renderer main thread "
                  f"(wall s): {main}")
            results.append({"settled": settled, "cpu": dict(cpu), "messages": len(ws),
                            "bytes": sum(n for _, n in ws), "kinds": dict(kinds), "main": main})
            if profiled:
                for line in _profile_summary(profiled):
                    print("   " + line)
            if traced:
                total, own = _main_thread_self_times(traced)
                print(f"   trace, main thread's tasks {total:.3f} s; self time: "
                      + ", ".join(f"{n} {t:.3f}" for n, t in own))
    finally:
        page.close()
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", nargs="*", default=["tuning", "losses", "usvc"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true",
                    help="also profile each interaction's JavaScript: self time per file and function")
    ap.add_argument("--seed", type=int, default=None,
                    help="open each page at this seed (default: the page's own); the interactions step it up")
    ap.add_argument("--trace", action="store_true",
                    help="also trace each interaction: the main thread's self time per trace event")
    ap.add_argument("--every-message", action="store_true",
                    help="list every websocket message (time, bytes, kind), not only the large ones")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from svmviz.ui.frame import PAGES

    print(B.machine(), "—", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    cache = os.environ.get("SVMVIZ_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR") or os.path.join(B.ROOT, ".numba_cache")
    logdir = tempfile.mkdtemp(prefix="svmviz-breakdown-")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=B.CHROMIUM, args=B.ARGS)
        for spec in [p for p in PAGES if p.module in args.pages]:
            with open(os.path.join(logdir, f"{spec.module}.log"), "w") as log:
                proc, url = B._server(cache, warmup=False, log=log)
                try:
                    breakdown(browser, url, spec.url_path, args.repeat, proc.pid, trace=args.trace,
                              profile=args.profile, seed=args.seed,
                              every_message=args.every_message)
                finally:
                    B._stop(proc)
        browser.close()
    print(f"server logs: {logdir}")


if __name__ == "__main__":
    sys.exit(main())
