"""The ``svmviz`` console command: start the app from the installed package, run studies.

``svmviz`` or ``svmviz app`` starts the Streamlit app (``streamlit run`` on
:data:`svmviz.ui.frame.ENTRY_SCRIPT`, which lives inside the package, so no checkout is needed);
options that are not the command's own go to Streamlit unchanged
(``svmviz app --port 8600 --server.headless true``), after the app's own Streamlit settings
(:data:`STREAMLIT_CONFIG`: this machine only — ``--lan`` serves the network —, no usage statistics,
the viewer's toolbar). ``svmviz warmup`` compiles the numba functions ahead of time
(:mod:`svmviz._warmup`). ``svmviz study …`` runs the criteria studies
(registered by :mod:`svmviz.studies.cli` when that package is installed).

Examples
--------
>>> from svmviz.cli import build_parser, streamlit_command
>>> args, extra = build_parser().parse_known_args(["app", "--port", "8600", "--server.headless", "true"])
>>> cmd = streamlit_command(args, extra)
>>> cmd[1:4], cmd[4].endswith("_entry.py"), cmd[5:7], cmd[-2:]
(['-m', 'streamlit', 'run'], True, ['--server.port', '8600'], ['--server.headless', 'true'])
>>> cmd[cmd.index("--server.address") + 1], cmd[cmd.index("--browser.gatherUsageStats") + 1]
('127.0.0.1', 'false')
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
    "Start the Streamlit app (the default command) on this machine only (127.0.0.1). To serve a class on "
    "the network, add --lan: every machine that can reach this one can then use the app, with no "
    "authentication. Options other than --port and --lan are passed to 'streamlit run' unchanged, e.g. "
    "--server.headless true; 'streamlit run --help' lists them. The app's Streamlit settings (no usage "
    "statistics, the viewer's toolbar) come with the package; an option given here wins."
)
#: the app's Streamlit configuration, shipped in the package (a copy for `streamlit run app.py`: .streamlit/config.toml)
STREAMLIT_CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ui", "streamlit_config.toml")
LAN_ADDRESS = "0.0.0.0"  # every interface  # noqa: S104 — only with --lan, which says what it exposes

_OWN_FLAGS = ("-h", "--help", "--version")


def _add_app_parser(subparsers) -> None:
    app = subparsers.add_parser("app", help="start the interactive app (default)", description=APP_HELP)
    app.add_argument("--port", type=int, default=None, metavar="N",
                     help="port to serve on (Streamlit's --server.port; default 8501)")
    app.add_argument("--lan", action="store_true",
                     help="serve on every network interface (a class): anyone who can reach this machine can use "
                          "the app; there is no authentication")
    app.add_argument("--results-root", default=None, metavar="DIR",
                     help="the folder whose study results the Criteria studies page offers (default: ./results); "
                          "visitors choose among its results folders and see nothing else of this machine")
    app.set_defaults(func=run_app)


def app_config_options(path: str = STREAMLIT_CONFIG) -> dict:
    """The shipped Streamlit configuration as ``{"section.option": value}``."""
    import tomllib

    with open(path, "rb") as fh:
        d = tomllib.load(fh)
    return {f"{section}.{k}": v for section, opts in d.items() for k, v in opts.items()}


def _flag_value(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _given(extra: list[str], option: str) -> bool:
    flag = f"--{option}"
    return any(a == flag or a.startswith(flag + "=") for a in extra)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (those a class's browsers would use), loopback left out.

    Read without sending a packet: each network interface's address (Linux), the address of the
    interface the default route leaves by (a UDP socket's connect only looks the route up), and the
    host name's own addresses. Empty when the machine has no network address but loopback.
    """
    import ipaddress
    import socket

    found: list[str] = []
    try:
        import fcntl
        import struct

        for _, name in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                try:  # SIOCGIFADDR: the interface's IPv4 address (an interface without one raises)
                    found.append(socket.inet_ntoa(fcntl.ioctl(s.fileno(), 0x8915,
                                                              struct.pack("256s", name.encode()[:15]))[20:24]))
                except OSError:
                    pass
    except (ImportError, OSError, AttributeError):  # not Linux: the two ways below
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): a route look-up, nothing is sent
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    out: list[str] = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified) and address not in out:
            out.append(address)
    return out


def lan_address() -> str:
    """The address ``svmviz app --lan`` shows first: the first of :func:`lan_addresses`, else ``localhost``."""
    addresses = lan_addresses()
    return addresses[0] if addresses else "localhost"


def _add_warmup_parser(subparsers) -> None:
    warmup = subparsers.add_parser(
        "warmup", help="compile the numba functions once, ahead of time (before a class)",
        description=("Compile every numba function the app and the estimators use into the on-disk cache, step "
                     "by step, in two processes on a machine with two cores or more (about 1.5 minutes of "
                     "CPU, once per installation; seconds when the cache is current). 'svmviz app' starts "
                     "it in the background, in one process, when needed."))
    warmup.add_argument("--force", action="store_true", help="run every step even when the cache is current")
    warmup.add_argument("--processes", type=int, choices=(1, 2), default=None,
                        help="compile in 1 process, or in 2 at once: about half the wait on two idle cores, a little "
                             "more CPU time (default: 2 on a machine with two cores or more, else 1)")
    warmup.set_defaults(func=run_warmup)


def run_warmup(args: argparse.Namespace) -> int:
    """``svmviz warmup``: :func:`svmviz._warmup.run`."""
    from svmviz import _warmup

    _warmup.run(force=args.force, processes=args.processes)
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
    options = app_config_options()
    if getattr(args, "lan", False):
        options["server.address"] = LAN_ADDRESS
        # the URL Streamlit prints; set by hand, it also spares the look-up of the external IP address
        options.setdefault("browser.serverAddress", lan_address())
    for option, value in options.items():
        if not _given(extra, option):
            cmd += [f"--{option}", _flag_value(value)]
    return cmd + list(extra)


def lan_notice(args: argparse.Namespace, extra: list[str]) -> str:
    """What ``svmviz app --lan`` exposes and the addresses to share, printed before the server starts."""
    port = args.port if getattr(args, "port", None) is not None else 8501
    addresses = lan_addresses()
    where = (" or ".join(f"http://{a}:{port}" for a in addresses) if addresses else
             f"port {port} of this machine (it has no network address besides loopback: connect it to a network)")
    return (f"svmviz app --lan: serving on every network interface of this machine ({LAN_ADDRESS}:{port}).\n"
            f"  Anyone who can reach {where} can use the app: there is no authentication.\n"
            "  Visitors run computations and upload files on this machine; study runs are kept in this user's data "
            "folder.\n  Stop it with Ctrl-C. Without --lan the app serves this machine only (127.0.0.1).")


def run_app(args: argparse.Namespace, extra: list[str]) -> int:
    """Replace this process by Streamlit serving the app (a child process where exec is unavailable)."""
    if args.port is not None and not 1 <= args.port <= 65535:
        print(f"svmviz app: --port must be between 1 and 65535; got {args.port}.", file=sys.stderr)
        return 2
    if args.lan and _given(extra, "server.address"):
        print("svmviz app: give either --lan or --server.address, not both.", file=sys.stderr)
        return 2
    if args.results_root is not None:
        if not os.path.isdir(args.results_root):
            print(f"svmviz app: --results-root {args.results_root!r} is not a folder.", file=sys.stderr)
            return 2
        os.environ["SVMVIZ_RESULTS_ROOT"] = os.path.abspath(args.results_root)  # read by the app's process
    cmd = streamlit_command(args, extra)
    if args.lan:
        print(lan_notice(args, extra), flush=True)

    from svmviz import _warmup

    _warmup.start_background()  # with the server, when the cache of compiled functions is not current
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
