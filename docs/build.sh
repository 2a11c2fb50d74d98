#!/usr/bin/env bash
# Build the documentation site into docs/_build/html: every gallery example is executed, and any
# warning (a broken example, a dangling reference, a docstring numpydoc cannot parse) fails the build.
#   bash docs/build.sh            (from the checkout, with the `docs` extra installed: pip install -e ".[docs]")
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-../.venv/bin/python}
[ -x "$PY" ] || PY=python3
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$PWD/../.numba_cache}"
export PYTHONHASHSEED=0
rm -rf _build/html _build/doctrees auto_examples api/generated
exec "$PY" -m sphinx -b html -W --keep-going -j 1 -q . _build/html "$@"
