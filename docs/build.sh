#!/usr/bin/env bash
# Build the documentation site into docs/_build/html: every gallery example is executed, and any
# warning (a broken example, a dangling reference, a docstring numpydoc cannot parse) fails the build.
#   bash docs/build.sh     (from a checkout with the docs extra installed: .venv/bin/pip install -e ".[docs]")
# PYTHON names the interpreter (default: the checkout's .venv, else python3).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PY="${PYTHON:-$HERE/../.venv/bin/python}"
case "$PY" in */*) PY="$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY")" ;; esac  # before the cd below
[ -x "$PY" ] || command -v "$PY" >/dev/null || PY=python3
cd "$HERE"
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$HERE/../.numba_cache}"
export PYTHONHASHSEED=0
rm -rf _build/html _build/doctrees auto_examples api/generated
# compile every numba function first, so that no example prints the compilation or counts it in its time
"$PY" -m svmviz warmup
exec "$PY" -m sphinx -b html -W --keep-going -j 1 -q . _build/html "$@"
