"""``svmviz study …``: run a study, show its summary, write its HTML report, list the ready-made specs.

Registered in the ``svmviz`` command by :func:`add_study_parser` (see :mod:`svmviz.cli`)::

    svmviz study run SPEC --out DIR [--scheduler ADDR] [--workers N] [--replicates R] [--wait] [--record-host]
    svmviz study show DIR [--markdown]
    svmviz study report DIR [--output FILE]
    svmviz study list
    svmviz study reproduce [--out DIR] [--scheduler ADDR] [--workers N] [--replicates R | --quick]

SPEC is a TOML file or the name of a ready-made study (``svmviz study list``).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

__all__ = ["add_study_parser", "cmd_run", "cmd_show", "cmd_report", "cmd_list", "cmd_reproduce"]

RUN_HELP = ("Run a study: one task per (data set, replicate) on a Dask cluster — an embedded one of --workers "
            "processes (default: one per core), or an existing one at --scheduler (or DASK_SCHEDULER_ADDRESS). "
            "Each finished task is saved in DIR at once; rerunning the same command resumes an interrupted run. "
            "One run writes DIR at a time (DIR/run.lock names it). SPEC may be DIR/spec.toml: that rebuilds DIR's "
            "tables from its task files.")


def _err(cmd: str, msg) -> int:
    print(f"svmviz study {cmd}: {msg}", file=sys.stderr)
    return 2


def cmd_run(args) -> int:
    """``svmviz study run``."""
    from .engine import run_study
    from .spec import SpecError

    t0 = time.perf_counter()
    last = {"t": 0.0}

    def progress(done, total, message):
        now = time.perf_counter()
        if done in (0, total) or now - last["t"] > 0.2 or "FAILED" in message:
            width = len(str(total))
            print(f"[{done:>{width}}/{total}] {message}", file=sys.stderr, flush=True)
            last["t"] = now

    try:
        res = run_study(args.spec, args.out, scheduler=args.scheduler, workers=args.workers, progress=progress,
                        replicates=args.replicates, allow_mixed_versions=args.allow_mixed_versions, wait=args.wait,
                        record_host=args.record_host)
    except KeyboardInterrupt:
        print(f"\ninterrupted; the finished tasks are saved in {args.out}. Run the same command again to "
              "compute only the rest.", file=sys.stderr)
        return 130
    except (SpecError, ValueError, OSError) as exc:
        return _err("run", exc)
    cancelled = f", {res.n_cancelled} cancelled" if res.n_cancelled else ""
    print(f"{res.n_done} of {res.n_tasks} tasks done ({res.n_computed} computed now, {res.n_failed} failed{cancelled}) "
          f"in {time.perf_counter() - t0:.1f} s; table: {os.path.join(args.out, 'results.parquet')}")
    if res.n_cancelled:
        print(f"  {res.n_cancelled} task(s) cancelled by the cluster's shutdown; run the same command again to compute "
              "them.", file=sys.stderr)
    if res.n_failed:
        for _, e in res.errors.iterrows():
            print(f"  FAILED {e['dataset']} replicate {int(e['replicate'])}: {e['error']}", file=sys.stderr)
        return 1
    return 0


def cmd_show(args) -> int:
    """``svmviz study show``: the summary table in the terminal."""
    from ..published import published_table
    from .folders import load_results
    from .results import format_schema, format_summary, stored_table, summary_table

    try:
        res = load_results(args.dir)
    except (ValueError, OSError) as exc:
        return _err("show", exc)
    spec = res.spec
    md = getattr(args, "markdown", False)
    head = (f"{spec.title or spec.name}: {res.n_done} of {res.n_tasks} tasks done, {res.n_failed} failed, "
            f"{len(res.table)} rows")
    print(f"**{head}**\n" if md else head)
    pub = published_table(spec.published)
    print(format_summary(summary_table(res.table, published=pub), markdown=md))
    notes = pub.drop_duplicates("source")
    if md and notes["note"].astype(bool).any():
        print()
    for _, r in notes.iterrows():
        if r["note"]:
            print(f"published ({r['source']}): {r['note']}" + ("  " if md else ""))
    for _, e in res.errors.iterrows():
        print(f"FAILED {e['dataset']} replicate {int(e['replicate'])}: {e['error']}")
    for note in res.notes:
        print(note, file=sys.stderr)
    if not md:
        stored = stored_table(res.table) if len(res.table) else res.table
        print(f"\nColumns of {os.path.join(args.dir, 'results.parquet')} (one row per data set, replicate and "
              "criterion or machine):")
        print(format_schema(stored.columns))
    return 0


def cmd_report(args) -> int:
    """``svmviz study report``: an HTML page of the figures and the summary."""
    from .report import write_report

    try:
        path = write_report(args.dir, args.output)
    except (ValueError, OSError) as exc:
        return _err("report", exc)
    print(path)
    return 0


def cmd_list(args) -> int:
    """``svmviz study list``: the ready-made specs."""
    from .spec import load_spec, ready_made_specs

    for name, path in ready_made_specs().items():
        spec = load_spec(path)
        print(f"{name:<26} {spec.title}  ({len(spec.datasets)} data set(s) × {spec.replicates} replicates)")
    return 0


REPRODUCE_HELP = ("Run every ready-made study of the papers' published numbers (Navia-Vázquez et al. 2004 "
                  "Tables 1–4, Wahba et al. 2001 §6, Zhu & Hastie 2002 Figs. 2 and 4) on one Dask cluster, each in "
                  "DIR/<study>, resumable, and write one table beside them: DIR/reproduction.md and DIR/reproduction.parquet "
                  "(published value, svmviz's mean ± sd or median [interval], R, verdict, note).")
#: R of every study with --quick
QUICK_REPLICATES = 2


def cmd_reproduce(args) -> int:
    """``svmviz study reproduce``: the reproduction report."""
    from .reproduction import MARKDOWN_FILE, TABLE_FILE, format_reproduction, run_reproduction
    from .spec import SpecError

    t0 = time.perf_counter()
    last = {"t": 0.0}

    def progress(study, done, total, message):
        now = time.perf_counter()
        if done == total or now - last["t"] > 1.0 or "FAILED" in message:
            print(f"{study} [{done}/{total}] {message}", file=sys.stderr, flush=True)
            last["t"] = now

    replicates = QUICK_REPLICATES if args.quick else args.replicates
    try:
        table = run_reproduction(args.out, scheduler=args.scheduler, workers=args.workers, replicates=replicates,
                                 progress=progress)
    except KeyboardInterrupt:
        print(f"\ninterrupted; the finished tasks are saved under {args.out}. Run the same command again to "
              "compute only the rest.", file=sys.stderr)
        return 130
    except (SpecError, ValueError, OSError) as exc:
        return _err("reproduce", exc)
    print(format_reproduction(table))
    wall = time.perf_counter() - t0
    n_in, n_out = int((table["verdict"] == "within").sum()), int((table["verdict"] == "outside").sum())
    print(f"\n{len(table)} rows ({n_in} within, {n_out} outside); {os.path.join(args.out, MARKDOWN_FILE)}, "
          f"{os.path.join(args.out, TABLE_FILE)}; wall time {wall:.1f} s")
    return 0


def _positive_or_zero(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer ≥ 0; got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected an integer ≥ 0; got {v}")
    return v


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer ≥ 1; got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected an integer ≥ 1; got {v}")
    return v


def _scheduler(text: str) -> str:
    from .engine import check_scheduler_address

    try:
        return check_scheduler_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _quiet_pipe(cmd):
    """Run a printing command so that a reader closing the pipe early (``| head``) ends it quietly."""

    def run(args) -> int:
        try:
            code = cmd(args)
            sys.stdout.flush()
            return code
        except BrokenPipeError:
            # the reader has gone: nothing more to say; point stdout at /dev/null so that the
            # interpreter's final flush does not report the same broken pipe again
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
            return 0

    run.__name__, run.__doc__ = cmd.__name__, cmd.__doc__
    return run


def add_study_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``study run|show|report|list`` to the ``svmviz`` command's subparsers (each sets ``func``)."""
    study = subparsers.add_parser("study", help="criteria studies: many data sets × replicates × criteria on Dask",
                                  description="Criteria studies at scale (run, show, report, list).")
    sub = study.add_subparsers(dest="study_command", metavar="ACTION", required=True)

    run = sub.add_parser("run", help="run (or resume) a study", description=RUN_HELP)
    run.add_argument("spec", metavar="SPEC", help="a TOML spec file or a ready-made study name (svmviz study list)")
    run.add_argument("--out", required=True, metavar="DIR", help="results folder (created; resumed if it holds this study)")
    run.add_argument("--scheduler", type=_scheduler, default=None, metavar="ADDR",
                     help="address of an existing Dask scheduler, e.g. tcp://10.0.0.5:8786")
    run.add_argument("--workers", type=_positive_or_zero, default=None, metavar="N",
                     help="worker processes of the embedded cluster (default: one per core; 0: in this process)")
    run.add_argument("--replicates", type=_positive, default=None, metavar="R", help="override the spec's replicates")
    run.add_argument("--wait", action="store_true",
                     help="if another run is writing DIR, wait for it to finish (refused otherwise, naming it)")
    run.add_argument("--record-host", action="store_true",
                     help="record this machine's host name in the results' provenance (left out by default)")
    run.add_argument("--allow-mixed-versions", action="store_true",
                     help="resume DIR even though its saved tasks were computed by other versions of svmviz, numba, "
                          "numpy or scikit-learn (refused otherwise)")
    run.set_defaults(func=cmd_run)

    show = sub.add_parser("show", help="print a results folder's summary table")
    show.add_argument("dir", metavar="DIR")
    show.add_argument("--markdown", action="store_true", help="print the summary as a Markdown table")
    show.set_defaults(func=_quiet_pipe(cmd_show))

    rep = sub.add_parser("report", help="write an HTML report of a results folder (DIR/report.html)")
    rep.add_argument("dir", metavar="DIR")
    rep.add_argument("--output", default=None, metavar="FILE", help="where to write it (default DIR/report.html)")
    rep.set_defaults(func=_quiet_pipe(cmd_report))

    repro = sub.add_parser("reproduce", help="run every published-number study and write one reproduction table",
                           description=REPRODUCE_HELP)
    repro.add_argument("--out", default=os.path.join("results", "reproduction"), metavar="DIR",
                       help="results folder (default results/reproduction; resumed if it holds the studies)")
    repro.add_argument("--scheduler", type=_scheduler, default=None, metavar="ADDR",
                       help="address of an existing Dask scheduler, e.g. tcp://10.0.0.5:8786")
    repro.add_argument("--workers", type=_positive, default=None, metavar="N",
                       help="worker processes of the embedded cluster (default: one per core)")
    size = repro.add_mutually_exclusive_group()
    size.add_argument("--replicates", type=_positive, default=None, metavar="R",
                      help="R of every study instead of the specs' own (100)")
    size.add_argument("--quick", action="store_true", help=f"R = {QUICK_REPLICATES} for every study (a smoke run)")
    repro.set_defaults(func=cmd_reproduce)

    lst = sub.add_parser("list", help="list the ready-made studies")
    lst.set_defaults(func=_quiet_pipe(cmd_list))
    return study
