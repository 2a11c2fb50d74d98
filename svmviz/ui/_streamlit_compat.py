"""Every use of Streamlit's private internals by the app, in one place, each with its fallback.

Streamlit's public API has no equivalent for these (checked against 1.5x: ``st.navigation``,
``st.Page``, ``st.query_params``, ``st.session_state``, ``st.context``); each is needed by the view
in the URL (shared links, Back/Forward, :mod:`svmviz.ui.url_state`). The canary test of this module
fails on an upgrade that moves any of them; the fallbacks keep the app working (with what each says
it loses).

* :func:`leave_pages_directory_mode` — ``PagesManager.uses_pages_directory``. A fresh server whose
  first request is a deep link (``/Tuning_criteria?…``) finds ``pages/`` beside ``app.py`` and runs
  the page in Streamlit's legacy multipage mode (no ``st.navigation`` frame) until ``st.navigation``
  runs once; the project keeps ``pages/`` at the top level. Fallback: nothing is reset (a first deep
  link on a fresh server opens the bare page; opening the root URL once fixes it).
* :func:`run_token` — the script run context's ``cursors`` table, a new object at every (re)run:
  what tells one run from the next (the URL's view, the glossary's first mentions, the export
  choice). Fallback: a token that changes at every call (each call is its own run: links still
  open their view, a widget may then write the URL twice in a run).
* :func:`is_history_navigation` — the run context's flag of a Back/Forward rerun: the URL then sets
  the view. Fallback: False (Back/Forward change the URL but the widgets keep their values).
* :func:`page_id` — the run context's ``page_script_hash``, which page this run shows. Fallback: "".
* :func:`release_ended_sessions` — the runtime's event loop, its session manager, that manager's store
  of disconnected sessions (a ``TTLCache``: ``expire()``) and the uploaded-file manager's
  ``file_storage``. Streamlit keeps a closed tab's session ``server.disconnectedSessionTTL`` seconds for
  a reconnect; after that the session leaves the store only when the store is next written (another tab
  closing), and is shut down (its uploaded files removed) only when garbage-collected. On a server
  nobody visits afterwards its files stay. This shuts such sessions down on time, empties their session
  state (``AppSession.session_state``: the runtime's message loop keeps the last session it flushed
  referenced while the server is idle) and drops the files of sessions that no longer exist. Fallback:
  nothing is released early (Streamlit's own pace).
* :data:`DRAW_ONCE_SCRIPT` — not Streamlit's code but its frontend's behaviour: a chart element, new
  for every changed figure (its id hashes the figure's JSON), is drawn (``Plotly.react`` on an empty
  element) and then handed to ``Plotly.react`` again by the element's own effect that applies the chart
  theme after mounting: a deep copy of the same figure, which Plotly draws in full a second time (the
  copy's template and typed arrays are new objects, so Plotly's diff flags a recalculation). The script
  skips a ``Plotly.react`` that hands a plot the figure it holds (the same config, and the same figure
  objects or a copy that serialises the same, as Plotly left it or as it was handed to Plotly: the
  copy can be taken before Plotly has finished writing into the figure, as a contour's draw runs on). If the frontend changes (no ``window.Plotly``, another call),
  nothing is skipped: every chart is drawn as Plotly is asked to, once or twice. Its canary is the
  browser test ``tests/browser/test_chart_drawn_once.py`` (one draw per chart per changing rerun).
* :data:`HISTORY_SCRIPT` — not Streamlit's code but its frontend's behaviour: it pushes a browser
  history entry for every change of the query string and two for a page switch; the script keeps one
  entry per user action. If the frontend changes, the patch only turns pushes into replacements after
  the first one of an action (Back then skips intermediate views, never breaks).
"""
from __future__ import annotations

import itertools

_COUNTER = itertools.count()


def _ctx():
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx
    except ImportError:  # a Streamlit that moved it: the fallbacks
        return None
    try:
        return get_script_run_ctx(suppress_warning=True)
    except TypeError:  # no suppress_warning argument
        return get_script_run_ctx()


def spawned_without_server() -> bool:
    """Whether this is a :mod:`multiprocessing` child with no Streamlit runtime (public API only).

    A criteria study's Dask workers are ``spawn`` children, which import their parent's ``__main__``
    again as ``__mp_main__`` before anything else (Python's "safe importing of main module"); under a
    Streamlit server that module is the script being run (the entry script or a page). Its Streamlit
    calls would each log "missing ScriptRunContext" there, so the app's scripts do nothing in such a
    process. While that import runs, :func:`multiprocessing.parent_process` is still None and the
    module ``sys.modules["__mp_main__"]`` is the one being imported, named ``__mp_main__`` (in a parent
    it is :mod:`multiprocessing`'s alias of the ``__main__`` the program started with)."""
    import multiprocessing
    import sys

    from streamlit import runtime

    importing_main = getattr(sys.modules.get("__mp_main__"), "__name__", None) == "__mp_main__"
    child = importing_main or multiprocessing.parent_process() is not None
    return child and not runtime.exists()


def leave_pages_directory_mode() -> bool:
    """Clear Streamlit's legacy ``pages/``-directory mode if it is on; True when it was (rerun then)."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:
        return False
    if getattr(PagesManager, "uses_pages_directory", None):
        PagesManager.uses_pages_directory = False
        return True
    return False


def run_token():
    """An object that is the same for every call within one script run and new at the next run."""
    token = getattr(_ctx(), "cursors", None)
    return token if token is not None else ("call", next(_COUNTER))


def is_history_navigation() -> bool:
    """Whether this run is the browser's Back/Forward step (its URL then sets the view)."""
    return bool(getattr(_ctx(), "is_history_navigation", False))


def page_id() -> str:
    """An identifier of the page this run shows ("" when unknown)."""
    return str(getattr(_ctx(), "page_script_hash", "") or "")


def release_ended_sessions():
    """Ask the server's event loop (where Streamlit touches its session store) to shut down the sessions
    whose reconnect time ran out and to drop the uploaded files of sessions that no longer exist.

    Returns a :class:`concurrent.futures.Future` of how many sessions it released, or None when there
    is no running server or its internals moved (nothing is released then)."""
    import concurrent.futures

    try:
        from streamlit import runtime

        if not runtime.exists():
            return None
        rt = runtime.get_instance()
        loop = rt._get_async_objs().eventloop
        mgr = rt._session_mgr
        cache = mgr._session_storage._cache
        expire = cache.expire
        files = rt.uploaded_file_mgr
        stored_files = files.file_storage
    except (ImportError, AttributeError, RuntimeError):
        return None
    done: concurrent.futures.Future = concurrent.futures.Future()

    def release() -> None:
        try:
            ended = [info.session for _, info in expire()]  # disconnected longer than disconnectedSessionTTL
            for session in ended:
                session.shutdown()  # removes its uploaded files and media, stops its script thread
                # and its state: the runtime's message loop keeps a reference to the last session it
                # flushed (a local of Runtime._loop_coroutine) until another session sends messages, so
                # the session object itself may outlive this by the server's idle time
                state = getattr(session, "session_state", None)
                if callable(getattr(state, "clear", None)):  # else the session lives on its own pace
                    state.clear()
            live = {info.session.id for info in mgr.list_sessions()}
            orphans = [s for s in list(stored_files) if s not in live]
            for session_id in orphans:
                files.remove_session_files(session_id)
            done.set_result(len(ended) + len(orphans))
        except Exception as exc:  # noqa: BLE001 — handed to the caller, never lost on the event loop
            done.set_exception(exc)

    try:
        loop.call_soon_threadsafe(release)
    except RuntimeError:  # the server's loop has closed
        return None
    return done


HISTORY_SCRIPT = """<span id="svmviz-history"></span>
<style>div[data-testid="stElementContainer"]:has(#svmviz-history) { display: none; }</style>
<script>
(function () {
  // svmviz: one browser-history entry per user action. Streamlit pushes an entry for every change
  // of the query string and two for a page switch; keep the first push after a click or key press
  // and turn later pushes (the rest of the same rerun) into replacements.
  var w = window;
  if (w.__svmvizHistory) { return; }
  w.__svmvizHistory = true;
  var h = w.history, push = h.pushState.bind(h), replace = h.replaceState.bind(h), armed = false;
  function arm(e) { if (e.isTrusted) { armed = true; } }
  w.addEventListener("pointerdown", arm, true);
  w.addEventListener("keydown", arm, true);
  w.addEventListener("popstate", function () { armed = false; }, true);
  h.pushState = function (state, title, url) {
    if (armed) { armed = false; return push(state, title, url); }
    return replace(state, title, url);
  };
})();
</script>"""
"""Installed by the frame on every run (hidden): one browser-history entry per user action."""


DRAW_ONCE_SCRIPT = """<script>
(function () {
  // svmviz: each chart drawn once per change of its figure. Skip a Plotly.react that hands a plot the
  // figure it holds: its own figure objects, or a copy that serialises the same at the size drawn (the
  // chart element's post-mount copy, taken after Plotly wrote the autoranged axes into the figure it
  // drew, with the element's width added).
  var w = window;
  if (w.__svmvizDrawOnce) { return; }
  w.__svmvizDrawOnce = true;
  // Plotly keeps its own entries in the figure it drew ("_inputArray" beside a base64 array…): keys
  // starting with "_" are Plotly's, never the figure's (Plotly's own diff skips them too)
  function mine(k, v) { return k.charAt(0) === "_" ? undefined : v; }
  function text(x) {
    try { return JSON.stringify(x, mine); } catch (e) { return null; }
  }
  // the layout without its size, and the size drawn: a plot first drawn at its element's width (none in
  // its layout) and then handed that width explicitly is the same picture
  function bare(layout) {
    var copy = {}, k;
    for (k in layout) { if (k !== "width" && k !== "height") { copy[k] = layout[k]; } }
    return copy;
  }
  function size(gd, layout, k) { return layout[k] == null ? gd._fullLayout[k] : layout[k]; }
  // the figure as it was handed to Plotly for the plot's last draw, before Plotly wrote into it
  function given(fig) { return text([fig.data, bare(fig.layout || {})]); }
  function same(gd, fig) {
    var layout = fig.layout || {}, drawnLayout = gd.layout || {};
    if (size(gd, layout, "width") !== size(gd, drawnLayout, "width") ||
        size(gd, layout, "height") !== size(gd, drawnLayout, "height")) { return false; }
    var handed = given(fig);
    if (handed === null) { return false; }
    // the chart element copies the figure it drew after mounting: after Plotly has written the
    // autoranged axes into it, or, when the copy comes first (a contour's draw runs on), before
    return handed === text([gd.data, bare(drawnLayout)]) || handed === gd.__svmvizGiven;
  }
  function install(P) {
    if (!P || typeof P.react !== "function" || P.__svmvizDrawOnce) { return; }
    var react = P.react;
    P.react = function (gd, fig) {
      if (arguments.length !== 2 || !gd || !fig || typeof fig !== "object" || Array.isArray(fig)) {
        return react.apply(this, arguments);
      }
      var config = text(fig.config || null);
      if (gd._fullLayout && config !== null && config === gd.__svmvizConfig && !(fig.frames && fig.frames.length)) {
        if (fig.data === gd.data && fig.layout === gd.layout) { return Promise.resolve(gd); }
        if (same(gd, fig)) {
          // the figure Plotly.react would keep, as it does: the chart element hands it back next, and a
          // figure it did not keep (the element's width added) would come back again and again
          gd.data = fig.data;
          gd.layout = fig.layout;
          return Promise.resolve(gd);
        }
      }
      gd.__svmvizConfig = config;
      gd.__svmvizGiven = given(fig);
      var out = react.apply(this, arguments);
      Promise.resolve(out).catch(function () { gd.__svmvizConfig = null; });
      return out;
    };
    P.__svmvizDrawOnce = true;
  }
  if (w.Plotly) { install(w.Plotly); return; }
  // the chart code loads with the first chart and sets window.Plotly: install then
  var d = Object.getOwnPropertyDescriptor(w, "Plotly");
  if (d && !d.configurable) { return; }
  var kept;
  Object.defineProperty(w, "Plotly", {
    configurable: true,
    get: function () { return d && d.get ? d.get.call(w) : kept; },
    set: function (v) {
      if (d && d.set) { d.set.call(w, v); } else { kept = v; }
      install(d && d.get ? d.get.call(w) : kept);
    }
  });
})();
</script>"""
"""Installed by the frame on every run, beside :data:`HISTORY_SCRIPT`: each chart drawn once per change
of its figure."""
