"""The ν-path follower's loop is optimised by LLVM before its callees are linked into it
(svmviz._nu_path._decorators.optimise_alone, issue 13: the path page's first chart on a fresh install).

On an empty cache, in a process of its own: the follower's library is finalised in that order (its
large callees stay calls of their own compiled code, the small ones are inlined), no other kernel's
is, the codegen is left as numba made it, and the paths are bitwise those of the same loop compiled
numba's usual way; a second process loads the loop from the cache, compiling nothing.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FIRST = textwrap.dedent(r"""
    import json, re
    import numba
    import numpy as np
    from numba.core import codegen
    from svmviz import data, kernels
    from svmviz._nu_path import _decorators, follower, kkt

    def problem(n, seed, sigma):
        ds = data.banana(n, seed=seed)
        y = np.where(ds.y == np.unique(ds.y)[1], 1.0, -1.0)
        return np.ascontiguousarray(kernels.gram(ds.X, kernel="rbf", sigma=sigma)), y

    cases = [(120, 0, 1.0), (200, 1, 0.5), (300, 2, 2.0)]
    alone = [follower.nu_path_kernel(*problem(*c), 100000, 1e-9, 50, 1000) for c in cases]
    lib = next(iter(follower._follow.overloads.values())).library
    callee = next(iter(kkt.minv_add.overloads.values())).library
    loop = [f for f in lib._final_module.functions
            if not f.is_declaration and "8follower7_follow" in f.name and "cpython" not in f.name]
    called = sorted({m.group(1) for f in loop for b in f.blocks for i in b.instructions if i.opcode == "call"
                     for m in [re.search(r"@_ZN6svmviz8_nu_path\d+\w+?\d+(\w+?)B\d", str(i))] if m})

    plain = numba.njit(no_cfunc_wrapper=True)(follower._follow.py_func)  # numba's usual finalisation
    follower._follow = plain
    usual = [follower.nu_path_kernel(*problem(*c), 100000, 1e-9, 50, 1000) for c in cases]
    plain_lib = next(iter(plain.overloads.values())).library
    equal = [all(np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(x, z)) for x, z in zip(alone, usual)]
    print(json.dumps({
        "follow": type(lib).__name__, "callee": type(callee).__name__, "plain": type(plain_lib).__name__,
        "loop": len(loop), "called": called, "equal": equal, "breakpoints": [len(r[0]) for r in alone],
        "codegen_restored": "create_library" not in vars(plain.targetctx.codegen()),
        "names_left": sorted(_decorators._ALONE),
    }))
""")

SECOND = textwrap.dedent(r"""
    import json
    import numpy as np
    from numba.core import event
    from svmviz import data, kernels
    from svmviz._nu_path import follower

    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())
    ds = data.banana(200, seed=1)
    y = np.where(ds.y == np.unique(ds.y)[1], 1.0, -1.0)
    K = np.ascontiguousarray(kernels.gram(ds.X, kernel="rbf", sigma=0.5))
    out = follower.nu_path_kernel(K, y, 100000, 1e-9, 50, 1000)
    print(json.dumps({"compiled": compiled, "breakpoints": len(out[0]), "status": out[3]}))
""")


def _run(code: str, cache: Path) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_follower_is_optimised_before_its_callees_are_linked_in_and_loads_from_the_cache(tmp_path):
    first = _run(FIRST, tmp_path)
    assert first["follow"] == "_AloneLibrary"
    assert first["callee"] == "JITCodeLibrary" and first["plain"] == "JITCodeLibrary"  # no other kernel's
    # its large callees were not there when LLVM optimised it: they stay calls of their own compiled
    # code (numba's usual finalisation optimises them again inside the loop's module and inlines some);
    # the small ones (SMALL_CALLEE: tolerances, scales) were linked before and are inlined
    assert first["loop"] == 1
    assert {"minv_refresh", "exact_s", "asqp", "_record", "advance", "sync_working_set", "_pivots",
            "rebuild_working_set", "interval_thresholds"} <= set(first["called"]), first["called"]
    assert not {"kkt_tol", "gram_scale", "max_zero_steps"} & set(first["called"]), first["called"]
    assert all(first["equal"]), first  # bitwise the paths of numba's usual finalisation
    assert min(first["breakpoints"]) > 50
    assert first["codegen_restored"] and first["names_left"] == []

    second = _run(SECOND, tmp_path)
    assert "_follow" not in second["compiled"] and "minv_add" not in second["compiled"], second
    assert second["breakpoints"] == first["breakpoints"][1] and second["status"] == 0
