"""Packaging: the public API, an import that writes nothing, the wheel, the command.

The wheel is built once per session from a copy of the package (``build_wheel``; the browser test
of the installed command reuses it).
"""
from __future__ import annotations

import ast
import atexit
import functools
import importlib
import inspect
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile

import pytest

import svmviz
from svmviz import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "svmviz")
# CONVENTIONS.md: the runtime dependencies
RUNTIME = {"streamlit", "plotly", "numpy", "scipy", "scikit-learn", "numba", "llvmlite", "pandas", "pyarrow", "dask",
           "platformdirs", "threadpoolctl"}
# import name -> distribution name, where they differ
DIST_OF = {"sklearn": "scikit-learn", "distributed": "dask"}
LIBRARY_MODULES = ("svm", "criteria", "tuning", "losses", "path", "usvc", "ivm", "kernels", "data")


def _pyproject() -> dict:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        return tomllib.load(fh)


def _dist_name(requirement: str) -> str:
    name = requirement.strip()
    for ch in "<>=!~[; ":
        name = name.split(ch)[0]
    return name.strip().lower()


def _package_files(root: str = PKG) -> set[str]:
    out = set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if not f.endswith((".pyc", ".pyo", ".nbi", ".nbc")):
                out.add(os.path.relpath(os.path.join(folder, f), os.path.dirname(root)).replace(os.sep, "/"))
    return out


# ------------------------------------------------------------------------------------------
# the public API
# ------------------------------------------------------------------------------------------
def _public_objects(modules):
    """(module name, name, object) of every public function and class defined in ``svmviz.<module>``
    (the names a facade lists in ``_INTERNAL`` serve svmviz's other modules and are not public)."""
    for mod_name in modules:
        mod = importlib.import_module(f"svmviz.{mod_name}")
        internal = set(getattr(mod, "_INTERNAL", ()))  # a facade's offer to svmviz's other modules only
        for name, obj in vars(mod).items():
            if name.startswith("_") or name in internal or not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            defined_in = getattr(obj, "__module__", None) or ""  # the module, or a private module of its package
            if defined_in == mod.__name__ or defined_in.startswith(mod.__name__ + "._"):
                yield mod_name, name, obj


def test_every_public_name_of_the_library_is_exported():
    missing = []
    for mod_name, name, _ in _public_objects(LIBRARY_MODULES):
        if f"{mod_name}.{name}" not in svmviz._NOT_EXPORTED and svmviz._EXPORTS.get(name) != mod_name:
            missing.append(f'"{name}": "{mod_name}",')
    assert not missing, ("public names missing from svmviz/__init__.py's _EXPORTS (add these lines):\n"
                         + "\n".join(missing))


def test_all_resolves_to_the_defining_modules():
    assert svmviz.__all__ == sorted(svmviz._EXPORTS)
    for name in svmviz.__all__:
        obj = getattr(svmviz, name)
        mod = importlib.import_module(f"svmviz.{svmviz._EXPORTS[name]}")
        assert obj is getattr(mod, name)
    for estimator in ("SVMClassifier", "NuSVMPath", "IRWLSClassifier", "KernelLogisticRegression", "IVMClassifier"):
        assert estimator in svmviz.__all__
    for reason_key in svmviz._NOT_EXPORTED:
        mod_name, name = reason_key.split(".")
        assert hasattr(importlib.import_module(f"svmviz.{mod_name}"), name)
    namespace: dict = {}
    exec("from svmviz import *", namespace)
    assert set(svmviz.__all__) <= set(namespace)
    assert {"tuning", "figures", "SVMClassifier"} <= set(dir(svmviz))
    assert svmviz.tuning is importlib.import_module("svmviz.tuning")
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        svmviz.nonexistent  # noqa: B018


# ------------------------------------------------------------------------------------------
# importing writes nothing and sets nothing; svmviz's kernel cache goes to a folder it can write
# ------------------------------------------------------------------------------------------
def _clean_env(home: str, tmp: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("SVMVIZ_CACHE_DIR", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(HOME=home, TMPDIR=tmp, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=ROOT)
    return env


def _tree(path: str) -> list[str]:
    return sorted(os.path.relpath(os.path.join(d, f), path) for d, _, fs in os.walk(path) for f in fs) + sorted(
        os.path.relpath(os.path.join(d, s), path) for d, ss, _ in os.walk(path) for s in ss)


def test_import_svmviz_writes_no_files_and_stays_cheap(tmp_path):
    home, tmp, cwd = (tmp_path / "home", tmp_path / "tmp", tmp_path / "cwd")
    for p in (home, tmp, cwd):
        p.mkdir()
    before = _package_files()
    code = ("import os, sys, svmviz; print(os.environ.get('NUMBA_CACHE_DIR')); "
            "print(sorted(m for m in ('numpy', 'numba', 'streamlit', 'pandas', 'sklearn') if m in sys.modules)); "
            "print(len(svmviz.__all__))")
    res = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=_clean_env(str(home), str(tmp)),
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    cache_dir, heavy, n = res.stdout.split("\n")[:3]
    assert cache_dir == "None"  # numba's setting is the user's: import svmviz leaves it alone
    assert heavy == "[]" and int(n) >= 100
    for p in (home, tmp, cwd):
        assert _tree(str(p)) == [], f"import svmviz wrote into {p}: {_tree(str(p))}"
    assert _package_files() == before


def test_numba_cache_when_home_is_unusable(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = _clean_env("/dev/null/nohome", str(tmp))  # no home folder can be made under a file
    res = subprocess.run([sys.executable, "-c", "from svmviz._jit import cache_base; print(cache_base())"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == str(tmp / f"svmviz-numba-{os.getuid()}")
    assert _tree(str(tmp)) == []


def test_cache_true_kernels_work_from_a_read_only_package(tmp_path):
    """An installed package folder is not writable: the kernels cache into the chosen folder instead."""
    site = tmp_path / "site"
    shutil.copytree(PKG, site / "svmviz", ignore=shutil.ignore_patterns("__pycache__"))
    for d, _, fs in os.walk(site):
        for f in fs:
            os.chmod(os.path.join(d, f), 0o444)
        os.chmod(d, 0o555)
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    env = _clean_env(str(home), str(tmp))
    env["PYTHONPATH"] = str(site)
    code = ("import numpy as np, svmviz.kernels as k; assert k.__file__.startswith(%r); "
            "G = k.gram(np.eye(3), sigma=1.0); print(round(float(G[0, 1]), 6))" % str(site))
    try:
        for _ in range(2):  # the second process loads what the first one cached
            res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                                 text=True, timeout=300)
            assert res.returncode == 0, res.stderr
            assert res.stdout.strip() == "0.367879"  # exp(-2 / 2)
        cached = _tree(str(home / ".cache" / "svmviz-numba"))
        assert any(f.endswith(".nbi") for f in cached) and any(f.endswith(".nbc") for f in cached)
        assert not any("__pycache__" in f for f in _tree(str(site)))
    finally:
        for d, _, _ in os.walk(site):
            os.chmod(d, 0o755)


# ------------------------------------------------------------------------------------------
# dependencies: declared once, and every import is declared
# ------------------------------------------------------------------------------------------
def test_dependencies_have_one_source():
    project = _pyproject()["project"]
    assert {_dist_name(r) for r in project["dependencies"]} == RUNTIME
    assert {_dist_name(r) for r in project["optional-dependencies"]["test"]} == {"pytest", "pytest-xdist", "hypothesis",
                                                                                 "playwright", "nbformat"}
    assert project["scripts"]["svmviz"] == "svmviz.cli:main"

    def requirement_lines(name):
        with open(os.path.join(ROOT, name)) as fh:
            return [ln.strip() for ln in fh if ln.strip() and not ln.lstrip().startswith("#")]

    assert requirement_lines("requirements.txt") == ["-e ."]
    assert requirement_lines("requirements-test.txt") == ["-e .[test]"]


def test_every_runtime_dependency_stops_before_its_next_major_release():
    """A floor and a ceiling for each, the ceiling at most the next major release after the installed
    version, which the bounds allow (.ci/run's newest-allowed step installs the highest they allow)."""
    from importlib.metadata import version

    from packaging.requirements import Requirement
    from packaging.version import Version

    for line in _pyproject()["project"]["dependencies"]:
        req = Requirement(line)
        floors = [s for s in req.specifier if s.operator == ">="]
        ceilings = [s for s in req.specifier if s.operator == "<"]
        assert len(floors) == 1 and len(ceilings) == 1, f"{line}: needs one >= floor and one < ceiling"
        installed = Version(version(req.name))
        assert req.specifier.contains(installed), f"{line}: the installed {req.name} {installed} is outside it"
        assert Version(ceilings[0].version) <= Version(str(installed.major + 1)), \
            f"{line}: the ceiling lies beyond {req.name}'s next major release {installed.major + 1}"


def test_every_third_party_import_is_a_declared_dependency():
    stdlib = set(sys.stdlib_module_names)
    declared = RUNTIME
    undeclared = {}
    for rel in _package_files():
        if not rel.endswith(".py"):
            continue
        with open(os.path.join(ROOT, rel), encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top in stdlib or top == "svmviz":
                    continue
                if DIST_OF.get(top, top) not in declared:
                    undeclared.setdefault(top, []).append(rel)
    assert not undeclared, f"imported but not in pyproject's dependencies: {undeclared}"


# ------------------------------------------------------------------------------------------
# the wheel
# ------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def build_wheel() -> str:
    """Build the wheel once per session from a copy of the project files (the tree stays clean)."""
    work = tempfile.mkdtemp(prefix="svmviz-wheel-")
    atexit.register(shutil.rmtree, work, True)
    src = os.path.join(work, "src")
    os.makedirs(src)
    for f in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(os.path.join(ROOT, f), src)
    shutil.copytree(PKG, os.path.join(src, "svmviz"), ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = os.path.join(work, "dist")
    res = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, src],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    (wheel,) = [f for f in os.listdir(out) if f.endswith(".whl")]
    return os.path.join(out, wheel)


def test_wheel_holds_the_whole_package_and_the_command():
    source_files = _package_files()
    with zipfile.ZipFile(build_wheel()) as zf:
        names = set(zf.namelist())
        meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = zf.read(meta).decode()
        entry_points = zf.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    in_wheel = {n for n in names if n.startswith("svmviz/")}
    assert "svmviz/ui/_entry.py" in in_wheel and "svmviz/ui/frame.py" in in_wheel
    assert source_files - in_wheel == set(), "files of the package missing from the wheel"
    assert not any(n.endswith((".pyc", ".nbi", ".nbc")) or "__pycache__" in n for n in names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "svmviz = svmviz.cli:main" in entry_points
    requires = {_dist_name(ln.split(":", 1)[1]) for ln in metadata.splitlines() if ln.startswith("Requires-Dist:")
                and "extra ==" not in ln}
    assert requires == RUNTIME
    assert "License-Expression: MIT" in metadata


# ------------------------------------------------------------------------------------------
# the command line
# ------------------------------------------------------------------------------------------
def test_help_says_what_it_does(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--help"])
    assert exit_.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "usage: svmviz" in out and "starts the interactive Streamlit app" in out and "app" in out
    with pytest.raises(SystemExit):
        cli.main(["app", "--help"])
    assert "--port N" in capsys.readouterr().out


@pytest.mark.parametrize("argv, tail", [
    ([], []),
    (["app"], []),
    (["--port", "8600"], ["--server.port", "8600"]),
    (["app", "--port", "8600", "--server.headless", "true"], ["--server.port", "8600", "--server.headless", "true"]),
    (["app", "--theme.base", "dark"], ["--theme.base", "dark"]),
])
def test_app_runs_streamlit_on_the_packaged_entry_script(monkeypatch, argv, tail):
    from svmviz.ui.frame import ENTRY_SCRIPT

    calls = []

    def fake_exec(path, args):
        calls.append(list(args))
        raise SystemExit(0)

    monkeypatch.setattr(cli.os, "execv", fake_exec)
    monkeypatch.setattr(cli.subprocess, "call", lambda cmd: calls.append(cmd) or 0)
    try:
        cli.main(argv)
    except SystemExit:
        pass
    (cmd,) = calls
    rest = cmd[5:]
    for option, value in cli.app_config_options().items():  # the shipped configuration, before the user's options
        i = rest.index(f"--{option}")
        assert rest[i + 1] == cli._flag_value(value)
        del rest[i:i + 2]
    assert cmd[:5] == [sys.executable, "-m", "streamlit", "run", ENTRY_SCRIPT] and rest == tail
    assert os.path.isfile(ENTRY_SCRIPT) and os.path.dirname(ENTRY_SCRIPT) == os.path.join(PKG, "ui")


def test_bad_port_and_unknown_command(capsys):
    assert cli.main(["app", "--port", "70000"]) == 2
    assert "--port must be between 1 and 65535" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        cli.main(["nonsense"])
    assert exit_.value.code == 2


def test_parser_works_without_the_studies_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "svmviz.studies", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "svmviz.studies.cli", raising=False)
    parser = cli.build_parser()
    args, extra = parser.parse_known_args(["app", "--port", "8601"])
    assert args.command == "app" and args.port == 8601 and extra == []
    assert "study" not in parser.format_help()


def test_study_command_follows_the_registration_contract(monkeypatch, capsys):
    """CONVENTIONS: ``svmviz.studies.cli.add_study_parser(subparsers)`` adds ``study`` and sets ``func``."""
    import types

    ran = []

    def add_study_parser(subparsers):
        study = subparsers.add_parser("study", help="criteria studies")
        sub = study.add_subparsers(dest="study_command", required=True)
        run = sub.add_parser("run")
        run.add_argument("--seed", type=int, default=0)
        run.set_defaults(func=lambda args: ran.append(args.seed) or 0)

    fake = types.ModuleType("svmviz.studies.cli")
    fake.add_study_parser = add_study_parser
    monkeypatch.setitem(sys.modules, "svmviz.studies", types.ModuleType("svmviz.studies"))
    monkeypatch.setitem(sys.modules, "svmviz.studies.cli", fake)
    assert "study" in cli.build_parser().format_help()
    assert cli.main(["study", "run", "--seed", "7"]) == 0 and ran == [7]
    with pytest.raises(SystemExit) as exit_:  # options of the app are not passed through to a study
        cli.main(["study", "run", "--server.headless", "true"])
    assert exit_.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------
# numpydoc: Parameters / Returns (or Attributes) on every public function and class
# ------------------------------------------------------------------------------------------
_SECTION_NAMES = ("Parameters", "Returns", "Yields", "Attributes", "Raises", "Notes", "Examples", "See Also",
                  "References", "Warns", "Other Parameters", "Methods")


def _sections(doc: str) -> dict[str, list[str]]:
    lines = inspect.cleandoc(doc or "").splitlines()
    out, current = {}, None
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() in _SECTION_NAMES and set(nxt.strip()) == {"-"}:
            current = line.strip()
            out[current] = []
        elif current is not None and not set(line.strip()) == {"-"}:
            out[current].append(line)
    return out


def _documented_names(entries: list[str]) -> set[str]:
    names = set()
    for line in entries:
        if line and not line[0].isspace():
            for part in line.split(" : ")[0].split(","):
                names.add(part.strip().lstrip("*"))
    return names


def _numpydoc_problems(obj, qualname: str) -> list[str]:
    problems = []
    if inspect.isclass(obj):
        sec = _sections(obj.__doc__)
        if hasattr(obj, "_fields"):  # NamedTuple: its fields are its attributes
            wanted, where = set(obj._fields), ("Attributes", "Parameters")
        else:
            init = inspect.signature(obj.__init__)
            wanted = {p for p in init.parameters if p != "self" and not p.startswith("_") and init.parameters[p].kind
                      not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)}
            if hasattr(obj, "fit"):  # an estimator: its parameters, and what fit sets
                where = ("Parameters",)
                if "Attributes" not in sec:
                    problems.append(f"{qualname}: no Attributes section")
            else:  # a result container
                where = ("Parameters", "Attributes")
        documented = set().union(*(_documented_names(sec.get(w, [])) for w in where))
        missing = wanted - documented
        if missing:
            problems.append(f"{qualname}: {'/'.join(where)} lacks {sorted(missing)}")
        return problems
    sec = _sections(obj.__doc__)
    sig = inspect.signature(obj)
    wanted = {p.name for p in sig.parameters.values() if p.name not in ("self", "cls")}
    if wanted:
        missing = wanted - _documented_names(sec.get("Parameters", []))
        if missing:
            problems.append(f"{qualname}: Parameters lacks {sorted(missing)}")
    if sig.return_annotation not in (None, "None") and not ({"Returns", "Yields"} & set(sec)):
        problems.append(f"{qualname}: no Returns section")
    return problems


# the modules whose docstrings this check covers; the other library modules are being
# brought to the same standard by their owners — add them here when they are
NUMPYDOC_MODULES = ("criteria", "tuning", "losses", "data")


def test_public_functions_and_classes_have_numpydoc_parameters_and_returns():
    problems = []
    for mod_name, name, obj in _public_objects(NUMPYDOC_MODULES):
        problems += _numpydoc_problems(obj, f"{mod_name}.{name}")
    assert not problems, f"{len(problems)} docstrings without numpydoc sections:\n" + "\n".join(problems)
