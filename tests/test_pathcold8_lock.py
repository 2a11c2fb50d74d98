"""The ν-path kernels' cross-process compilation lock (svmviz._nu_path._compile_lock, issue 13).

Two processes on one empty cache (the warm-up's ``path-kernels`` task and the server's first path)
compiled the same callee twice when one's typing reached it while the other was compiling it. With
the lock a process that misses a kernel another running process is compiling waits and loads it
from the cache. Each scenario runs in a subprocess of its own with an empty NUMBA_CACHE_DIR and a toy
kernel in a module file (numba caches only functions defined in files); ~10 s in all.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TOY = textwrap.dedent('''
    from numba import njit
    from svmviz._nu_path._compile_lock import coordinate

    @njit(cache=True)
    def plain(x):
        return x * 2.0 + 1.0

    kernel = coordinate(njit(cache=True)(plain.py_func))
''')

# the scenario's script: toy.kernel's lock held by a helper process in the given state, then a call
SCENARIO = textwrap.dedent('''
    import os, signal, subprocess, sys, threading, time
    sys.path.insert(0, sys.argv[1])
    import numba
    from numba.core import event
    from svmviz._nu_path import _compile_lock as cl
    import toy
    mode = sys.argv[2]
    sig = (numba.float64,)
    lock = cl._lock_path(toy.kernel._cache._inner, sig)
    compiled = []
    class L(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__name__)
        def on_end(self, ev):
            pass
    event.register("numba:compile", L())
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    pid = holder.pid
    if mode == "ended":
        holder.kill(); holder.wait()
    if mode == "stopped":
        os.kill(pid, signal.SIGSTOP)
        time.sleep(0.2)
    with open(lock, "w") as f:
        f.write(f"{pid}\\n")
    if mode == "old":  # a running process's pid in a lock older than any compilation: a leftover
        os.utime(lock, (time.time() - 2 * cl.MAX_WAIT_SECONDS,) * 2)
    if mode == "running":  # the holder "compiles": another process saves the kernel, then releases
        def finish():
            time.sleep(1.0)
            subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import toy; "
                            "toy.plain(1.0)", sys.argv[1]], check=True)
            # the same function's cache entry: plain and kernel share the source (index keyed by name)
            os.unlink(lock)
        threading.Thread(target=finish, daemon=True).start()
    t0 = time.monotonic()
    value = toy.kernel(3.0)
    waited = time.monotonic() - t0
    holder.kill()
    leftover = [f for f in os.listdir(os.path.dirname(lock)) if f.endswith(cl.SUFFIX)]
    print(repr(dict(value=value, waited=waited, compiled=compiled, leftover=leftover,
                    lock_exists=os.path.exists(lock))))
''')


def _run(tmp_path, mode):
    (tmp_path / "toy.py").write_text(TOY)
    (tmp_path / "scenario.py").write_text(SCENARIO)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, str(tmp_path / "scenario.py"), str(tmp_path), mode], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return eval(out.stdout.strip().splitlines()[-1])  # noqa: S307 — our own script's repr


def test_a_kernel_another_running_process_compiles_is_waited_for_and_loaded(tmp_path):
    r = _run(tmp_path, "running")
    assert r["value"] == 7.0
    assert r["waited"] >= 1.0            # it waited for the other process ...
    assert "plain" not in r["compiled"]   # ... and loaded its kernel instead of compiling it
    assert r["leftover"] == []


@pytest.mark.parametrize("mode", ["stopped", "ended", "old"])
def test_a_stopped_or_ended_holder_is_not_waited_for(tmp_path, mode):
    """Not waited for: a paused holder (SIGSTOP), one that has ended, a lock older than any
    compilation (the pid it names may be another process's by now)."""
    r = _run(tmp_path, mode)
    assert r["value"] == 7.0
    assert r["waited"] < 0.9 * 120  # not the long wait
    assert "plain" in r["compiled"]    # compiled here
    if mode in ("ended", "old"):  # the stale lock was replaced by this process's own, released after saving
        assert r["leftover"] == []
    else:                # the paused holder keeps its lock (it releases it when it resumes and saves)
        assert r["lock_exists"]


def test_the_lock_is_held_while_compiling_and_released_after_saving_or_failing(tmp_path):
    """In-process: the lock file exists during the compilation (seen from a callee's typing) and not
    after; a compilation that fails (a typing error) releases it too."""
    (tmp_path / "toy2.py").write_text(textwrap.dedent('''
        import os
        from numba import njit
        from svmviz._nu_path._compile_lock import coordinate

        @njit(cache=True)
        def f(x):
            return x + 1.0

        kernel = coordinate(f)
    '''))
    script = textwrap.dedent('''
        import os, sys
        sys.path.insert(0, sys.argv[1])
        import numba
        from numba.core import event
        from svmviz._nu_path import _compile_lock as cl
        import toy2
        lock = cl._lock_path(toy2.kernel._cache._inner, (numba.float64,))
        seen = []
        class L(event.Listener):
            def on_start(self, ev):
                seen.append(os.path.exists(lock))
            def on_end(self, ev):
                pass
        event.register("numba:compile", L())
        assert toy2.kernel(1.0) == 2.0
        after = os.path.exists(lock)
        bad = cl._lock_path(toy2.kernel._cache._inner, (numba.types.unicode_type,))
        try:
            toy2.kernel("a")
            failed = False
        except Exception:
            failed = True
        print(repr(dict(during=seen[0], after=after, failed=failed, bad_after=os.path.exists(bad),
                        held=len(toy2.kernel._cache._held))))
    ''')
    (tmp_path / "s2.py").write_text(script)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, str(tmp_path / "s2.py"), str(tmp_path)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    r = eval(out.stdout.strip().splitlines()[-1])  # noqa: S307
    assert r == dict(during=True, after=False, failed=True, bad_after=False, held=0)


def test_the_kernel_task_leaves_a_kernel_compiled_elsewhere_for_the_end(monkeypatch):
    from svmviz._nu_path import _compile_lock
    from svmviz.ui import warmup

    busy = {"exact_s"}
    monkeypatch.setattr(_compile_lock, "compiling_elsewhere", lambda d, sig: d.py_func.__name__ in busy)
    order = []
    monkeypatch.setattr(warmup, "_compile_kernel", lambda entry, failed: order.append(entry[1]))
    kernels = [k for k in warmup.PATH_KERNELS if k[1] in ("exact_s", "kkt_violation", "thresholds")]
    assert warmup.compile_kernels(kernels) == []
    assert order == [k[1] for k in kernels if k[1] != "exact_s"] + ["exact_s"]


def test_the_path_kernels_take_the_lock():
    from svmviz._nu_path import _compile_lock, asqp, follower, kkt

    for d in (follower._follow, kkt.exact_s, asqp.asqp, follower._record):
        assert isinstance(d._cache, _compile_lock._CoordinatedCache)
