"""The ``svmviz`` console command: start the app from the installed package, run studies.

``svmviz`` or ``svmviz app`` starts the Streamlit app (``streamlit run`` on
:data:`svmviz.ui.frame.ENTRY_SCRIPT`, which lives inside the package, so no checkout is needed);
options that are not the command's own go to Streamlit unchanged
(``svmviz app --port 8600 --server.headless true``). ``svmviz warmup`` compiles the numba kernels
ahead of time (:mod:`svmviz._warmup`). ``svmviz study …`` runs the criteria studies
(registered by :mod:`svmviz.studies.cli` when that package is installed).

Examples
--------
>>> from svmviz.cli import build_parser, streamlit_command
>>> args, extra = build_parser().parse_known_args(["app", "--port", "8600", "--server.headless", "true"])
>>> cmd = streamlit_command(args, extra)
>>> cmd[1:4], cmd[4].endswith("_entry.py"), cmd[5:]
(['-m', 'streamlit', 'run'], True, ['--server.port', '8600', '--server.headless', 'true'])
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

DESCRIPTION = (
    "svmviz: SVM-family classifiers and their tuning criteria (GACV, ξα, the ν-SVM path, the "
    "unbiased SVC, the import vector machine), re-created from five papers. With no command, or "
    "with 'app', it starts the interactive Streamlit app from the installed package and prints the "
    "address to open (http://localhost:8501 by default)."
)

APP_HELP = (
    "Start the Streamlit app (the default command). Options other than --port are passed to "
    "'streamlit run' unchanged, e.g. --server.headless true or --server.address 0.0.0.0; "
    "'streamlit run --help' lists them."
)

_OWN_FLAGS = ("-h", "--help", "--version")


def _add_app_parser(subparsers) -> None:
    app = subparsers.add_parser("app", help="start the interactive app (default)", description=APP_HELP)
    app.add_argument("--port", type=int, default=None, metavar="N",
                     help="port to serve on (Streamlit's --server.port; default 8501)")
    app.set_defaults(func=run_app)


def _add_warmup_parser(subparsers) -> None:
    warmup = subparsers.add_parser(
        "warmup", help="compile the numba kernels once, ahead of time (before a class)",
        description=("Compile every numba kernel the app and the estimators use into the on-disk cache, one "
                     "step after the other (about 1-2 minutes on two cores, once per installation; seconds "
                     "when the cache is current). 'svmviz app' starts it in the background when needed."))
    warmup.add_argument("--force", action="store_true", help="run every step even when the cache is current")
    warmup.set_defaults(func=run_warmup)


def run_warmup(args: argparse.Namespace) -> int:
    """``svmviz warmup``: :func:`svmviz._warmup.run`."""
    from svmviz import _warmup

    _warmup.run(force=args.force)
    return 0


def _add_study_parser(subparsers) -> bool:
    """Register ``study`` if the studies package is installed; False when it is not there."""
    try:
        from svmviz.studies import cli as studies_cli
    except ModuleNotFoundError as exc:
        if exc.name in ("svmviz.studies", "svmviz.studies.cli"):
            return False
        raise
    studies_cli.add_study_parser(subparsers)
    return True


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser: ``app`` (default), ``warmup`` and, when available, ``study``."""
    from svmviz import __version__

    parser = argparse.ArgumentParser(prog="svmviz", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"svmviz {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_app_parser(subparsers)
    _add_warmup_parser(subparsers)
    _add_study_parser(subparsers)
    return parser


def streamlit_command(args: argparse.Namespace, extra: list[str]) -> list[str]:
    """The ``python -m streamlit run <entry script> …`` command line for ``svmviz app``."""
    from svmviz.ui.frame import ENTRY_SCRIPT

    cmd = [sys.executable, "-m", "streamlit", "run", ENTRY_SCRIPT]
    if getattr(args, "port", None) is not None:
        cmd += ["--server.port", str(args.port)]
    return cmd + list(extra)


def run_app(args: argparse.Namespace, extra: list[str]) -> int:
    """Replace this process by Streamlit serving the app (a child process where exec is unavailable)."""
    if args.port is not None and not 1 <= args.port <= 65535:
        print(f"svmviz app: --port must be between 1 and 65535; got {args.port}.", file=sys.stderr)
        return 2
    cmd = streamlit_command(args, extra)
    from svmviz import _warmup

    _warmup.start_background()  # with the server, when the kernel cache is not current
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(cmd[0], cmd)  # signals (Ctrl-C, kill) reach Streamlit directly
    return subprocess.call(cmd)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``svmviz`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in _OWN_FLAGS):
        argv.insert(0, "app")  # `svmviz` and `svmviz --port 8600` start the app
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command != "app" and extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    if args.command == "app":
        return func(args, extra)
    result = func(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
