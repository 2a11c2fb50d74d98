"""Canaries of svmviz._numba_compat, the numba internals svmviz uses: numba's ``config.CACHE_DIR``,
switched while a kernel is decorated (a kernel decorated there is cached in the folder given and
nowhere else, and numba's own setting is as before); a dispatcher's ``get_call_template`` (a call
from compiled code compiles the callee for plain types); the CPU target's ``no_cfunc_wrapper``
option (no C-callable wrapper, the same results); the inliner's per-block copies of an IR (one
memo per copy of the IR, the same results). If a numba upgrade moves one of them, its test fails, and
the module's flag (``SUPPORTED``, ``CALL_TYPES_SUPPORTED``, ``NO_CFUNC_WRAPPER_SUPPORTED``,
``ONE_COPY_INLINE_SUPPORTED``) falls back to numba's default behaviour."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KERNEL = '''
import numba.core.config as c
from svmviz._numba_compat import SUPPORTED, njit_cached_in

def add_one(x):
    return x + 1.0

before = c.CACHE_DIR
f = njit_cached_in(FOLDER, add_one)
assert f(1.0) == 2.0
print(SUPPORTED, c.CACHE_DIR == before)
'''


def test_kernel_cached_in_the_folder_given_and_setting_restored(tmp_path):
    module = tmp_path / "probe_kernel.py"  # numba caches only functions defined in files
    module.write_text(f"FOLDER = {str(tmp_path / 'folder')!r}\n" + KERNEL)
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SVMVIZ_CACHE_DIR")}
    env.update(PYTHONPATH=f"{ROOT}{os.pathsep}{tmp_path}", PYTHONDONTWRITEBYTECODE="1")
    for _ in range(2):  # the second process loads from the folder
        res = subprocess.run([sys.executable, "-c", "import probe_kernel"], env=env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        assert res.stdout.split() == ["True", "True"]
    written = [os.path.relpath(os.path.join(d, f), tmp_path) for d, _, fs in os.walk(tmp_path) for f in fs
               if f.endswith((".nbi", ".nbc"))]
    assert written and all(w.startswith("folder" + os.sep) for w in written), written


def test_fallback_is_numbas_own_cache(monkeypatch):
    """Without the setting, the kernel is numba's ``cache=True`` kernel as is (it still computes)."""
    from svmviz import _numba_compat

    monkeypatch.setattr(_numba_compat, "SUPPORTED", False)

    def add_two(x):
        return x + 2.0

    f = _numba_compat.njit_cached_in("/nonexistent/never-used", add_two)
    assert f(1.0) == 3.0


def _scaled(x, mode, flip):
    y = 2.0 * x if mode == 0 else 3.0 * x
    return -y if flip else y


def _caller_of(callee):
    """A compiled function that calls ``callee`` with the constants (0, True) and (1, False)."""
    import numba

    def both(x):
        return callee(x, 0, True) + callee(x, 1, False)

    return numba.njit(both)


def test_a_call_from_compiled_code_compiles_the_callee_for_plain_types():
    """A compiled caller that passes the constants 0 and 1 compiles its callee once, for the types a call
    from Python has (``int64``, ``bool``), not once per constant; the results are the callee's."""
    import numba

    from svmviz import _numba_compat

    assert _numba_compat.CALL_TYPES_SUPPORTED
    callee = _numba_compat.plain_call_types(numba.njit(_scaled))
    assert _caller_of(callee)(1.5) == -3.0 + 4.5
    assert [str(sig) for sig in callee.signatures] == ["(float64, int64, bool)"]
    assert callee(1.5, 1, True) == -4.5
    assert len(callee.signatures) == 1  # the call from Python takes the same compilation

    literal = numba.njit(_scaled)  # numba's own typing: one compilation per constant
    assert _caller_of(literal)(1.5) == -3.0 + 4.5
    assert len(literal.signatures) == 2


def test_svmviz_njit_types_calls_on_plain_types():
    """Every dispatcher svmviz's ``njit`` makes (cached or not) types calls from compiled code on plain types."""
    from svmviz import _jit

    for make in (_jit.njit, _jit.njit(cache=True), _jit.njit(nogil=True)):
        callee = make(_scaled)
        _caller_of(callee)(1.0)
        assert len(callee.signatures) == 1, make


def _twice(x):
    return 2.0 * x


def test_a_function_without_the_c_wrapper_computes_the_same_and_has_no_c_wrapper():
    """numba's ``no_cfunc_wrapper`` option, as :func:`svmviz._numba_compat.without_cfunc_wrapper` passes it:
    the compiled function computes the same, from Python and from compiled code, and its library holds
    no C-callable wrapper, while numba's default compilation holds one. If a numba upgrade drops or
    renames the option, this fails (and :data:`NO_CFUNC_WRAPPER_SUPPORTED` falls back to the default)."""
    import numba

    from svmviz import _numba_compat

    assert _numba_compat.NO_CFUNC_WRAPPER_SUPPORTED
    options = _numba_compat.without_cfunc_wrapper({"nogil": True})
    assert options == {"nogil": True, "no_cfunc_wrapper": True}
    lean, default = numba.njit(**options)(_twice), numba.njit(nogil=True)(_twice)
    assert lean(1.5) == default(1.5) == 3.0
    assert numba.njit(lambda x: lean(x) + 1.0)(1.5) == 4.0

    def has_c_wrapper(dispatcher):
        cres = dispatcher.overloads[dispatcher.signatures[0]]
        return cres.fndesc.llvm_cfunc_wrapper_name in cres.library.get_llvm_str()

    assert has_c_wrapper(default) and not has_c_wrapper(lean)


def test_without_the_option_the_options_pass_unchanged(monkeypatch):
    from svmviz import _numba_compat

    monkeypatch.setattr(_numba_compat, "NO_CFUNC_WRAPPER_SUPPORTED", False)
    options = {"cache": True}
    assert _numba_compat.without_cfunc_wrapper(options) == {"cache": True}
    assert _numba_compat.without_cfunc_wrapper({"no_cfunc_wrapper": False}) == {"no_cfunc_wrapper": False}


def test_svmviz_njit_leaves_out_the_c_wrapper():
    """Every dispatcher svmviz's ``njit`` makes (bare, cached, with options, with a signature) has numba's
    ``no_cfunc_wrapper`` option, and so has every compiled function of svmviz's modules."""
    import importlib

    from svmviz import _jit

    made = [_jit.njit(_twice), _jit.njit(cache=True)(_twice), _jit.njit(nogil=True)(_twice),
            _jit.njit("float64(float64)")(_twice)]
    assert all(d.targetoptions.get("no_cfunc_wrapper") is True for d in made)
    assert [d(2.0) for d in made] == [4.0] * 4
    for module in ("svmviz.svm._smo", "svmviz.svm._rows", "svmviz.usvc._irwls", "svmviz.ivm._klr"):
        importlib.import_module(module)
    svmviz_functions = [d for ds in _jit._GROUP_FUNCTIONS.values() for d in ds]
    assert svmviz_functions and all(d.targetoptions.get("no_cfunc_wrapper") is True for d in svmviz_functions)


def _empty_u16(n):
    return np.empty(n, dtype=np.uint16).shape[0]


def _empty_u16_plus_one(n):
    return np.empty(n, dtype=np.uint16).shape[0] + 1


def _empty_i16(n):
    return np.empty(n, dtype=np.int16).shape[0]


def _empty_i16_plus_one(n):
    return np.empty(n, dtype=np.int16).shape[0] + 1


def _numpy_empty_compilations(*calls):
    """How many times numba compiles its implementation of ``np.empty`` while ``calls`` run."""
    from numba.core import event

    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            fn = getattr(ev.data.get("dispatcher"), "py_func", None)
            compiled.append(getattr(fn, "__qualname__", ""))

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", Listener()):
        for call in calls:
            call()
    return sum(name.startswith("ol_np_empty") for name in compiled)


def test_svmviz_njit_functions_share_one_compilation_of_numbas_numpy():
    """svmviz's ``njit`` gives every function the same options (``nogil=True`` unless given), so numba's
    implementation of ``np.empty`` (for a dtype no other test uses) compiles once for two functions
    decorated differently; numba keys its implementations of numpy on the options of the function that
    calls them, and compiles it twice for the same two decorations by ``numba.njit``."""
    import numba

    from svmviz import _jit

    first, second = _jit.njit(_empty_u16), _jit.njit(nogil=True)(_empty_u16_plus_one)
    assert first.targetoptions["nogil"] is True and second.targetoptions["nogil"] is True
    assert _numpy_empty_compilations(lambda: first(3), lambda: second(4)) == 1
    assert first(3) == 3 and second(4) == 5
    plain, gil = numba.njit(_empty_i16), numba.njit(nogil=True)(_empty_i16_plus_one)
    assert _numpy_empty_compilations(lambda: plain(3), lambda: gil(4)) == 2


def _branchy(x, n):
    """A helper of many blocks (each branch and loop one or more), for the inliner to copy."""
    t = 0.0
    for i in range(n):
        if x > i:
            t += x
        elif x < -i:
            t -= x
        else:
            t += 1.0
        if t > 100.0:
            t *= 0.5
    return t


def _as_text(blocks):
    return {label: [str(stmt) for stmt in block.body] for label, block in blocks.items()}


def test_one_copy_of_an_ir_shares_one_scope_and_a_second_copy_shares_nothing():
    """:class:`svmviz._numba_compat._BlockCopier` copies the blocks of one IR, one ``deepcopy`` each as
    numba's inliner calls it, with one memo: the copies hold the same statements as the originals, one
    scope (not the original's); a second copy of the same IR shares no block, scope or variable with
    the first."""
    import copy

    from numba.core.compiler import run_frontend

    from svmviz._numba_compat import _BlockCopier

    func_ir = run_frontend(_branchy)
    assert len(func_ir.blocks) > 5
    copier = _BlockCopier()
    first = {label: copier.deepcopy(block) for label, block in func_ir.blocks.items()}
    second = {label: copier.deepcopy(block) for label, block in func_ir.blocks.items()}
    plain = {label: copy.deepcopy(block) for label, block in func_ir.blocks.items()}  # numba's own copies
    assert _as_text(first) == _as_text(second) == _as_text(plain) == _as_text(func_ir.blocks)
    scopes = {id(block.scope) for block in first.values()}
    assert len(scopes) == 1 and id(func_ir.blocks[min(func_ir.blocks)].scope) not in scopes
    assert not scopes & {id(block.scope) for block in second.values()}
    variables = [{id(v) for block in blocks.values() for stmt in block.body for v in stmt.list_vars()} for blocks in (first, second)]
    assert variables[0] and not variables[0] & variables[1]
    assert copier.deepcopy is not copy.deepcopy and copier.copy is copy.copy  # the rest is the module itself


def test_the_one_copy_pipeline_inlines_with_its_copier_and_computes_the_same():
    """A function that inlines a helper of many blocks (``inline='always'``), compiled with svmviz's
    pipeline (:class:`svmviz._numba_compat.OneCopyInlineCompiler`): numba's inliner copies the helper's
    blocks through the copier (if a numba upgrade copies them otherwise, this fails), the results are
    those of numba's own pipeline and of Python, and numba's module has its ``copy`` back afterwards."""
    import copy

    import numba
    from numba.core import inline_closurecall

    from svmviz import _numba_compat

    assert _numba_compat.ONE_COPY_INLINE_SUPPORTED
    copied = []
    real = _numba_compat._BlockCopier.deepcopy

    def counting(self, x, memo=None):
        copied.append(type(x).__name__)
        return real(self, x, memo)

    _numba_compat._BlockCopier.deepcopy = counting
    try:
        helper = numba.njit(inline="always")(_branchy)

        def caller(x, n):
            return helper(x, n) + 2.0 * helper(-x, n)

        ours = numba.njit(pipeline_class=_numba_compat.OneCopyInlineCompiler)(caller)
        theirs = numba.njit(caller)
        for x, n in ((0.5, 7), (-3.0, 40), (250.0, 3)):
            assert ours(x, n) == theirs(x, n) == _branchy(x, n) + 2.0 * _branchy(-x, n)
    finally:
        _numba_compat._BlockCopier.deepcopy = real
    assert copied.count("Block") > 10
    assert inline_closurecall.copy is copy


def test_without_the_internals_no_pipeline_is_given(monkeypatch):
    from svmviz import _numba_compat

    assert _numba_compat.with_one_copy_inline({"nogil": True}) == {
        "nogil": True, "pipeline_class": _numba_compat.OneCopyInlineCompiler}
    monkeypatch.setattr(_numba_compat, "ONE_COPY_INLINE_SUPPORTED", False)
    assert _numba_compat.with_one_copy_inline({"cache": True}) == {"cache": True}


def test_svmviz_njit_compiles_with_the_one_copy_pipeline():
    """Every dispatcher svmviz's ``njit`` makes, and every compiled function of svmviz's modules, compiles
    with :class:`svmviz._numba_compat.OneCopyInlineCompiler`."""
    import importlib

    from svmviz import _jit, _numba_compat

    made = [_jit.njit(_twice), _jit.njit(cache=True)(_twice), _jit.njit("float64(float64)")(_twice)]
    assert [d(2.0) for d in made] == [4.0] * 3
    for module in ("svmviz.svm._smo", "svmviz.usvc._irwls", "svmviz.path._solver.follower"):
        importlib.import_module(module)
    dispatchers = made + [d for ds in _jit._GROUP_FUNCTIONS.values() for d in ds]
    assert all(d._compiler.pipeline_class is _numba_compat.OneCopyInlineCompiler for d in dispatchers)
