"""``svmviz study``'s messages: typos named, bounds stated, formats shown, a closed pipe ends quietly."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from svmviz.cli import main
from svmviz.studies import SpecError, run_study, spec_from_dict

BASE = {"name": "demo", "replicates": 2, "seed": 1, "test_size": 1000, "datasets": [{"name": "wahba2001", "n": 40}],
        "svm": {"criteria": ["gacv"], "n_lambda": 4, "n_sigma": 4}}


def _with(section, **changes):
    d = {k: (dict(v) if isinstance(v, dict) else v) for k, v in BASE.items()}
    d["datasets"] = [dict(BASE["datasets"][0])]
    target = d if section is None else (d["datasets"][0] if section == "datasets" else d[section])
    target.update(changes)
    return d


@pytest.mark.parametrize("section, typo, fix, where", [
    ("svm", "critera", "criteria", "[svm]"),
    ("svm", "n_lamda", "n_lambda", "[svm]"),
    ("datasets", "nn", "n", "datasets[0]"),
    (None, "replicate", "replicates", "the spec"),
])
def test_unknown_key_is_named_with_the_likely_one(section, typo, fix, where):
    d = _with(section, **{typo: 3})
    if section == "svm" and typo == "critera":
        d["svm"].pop("criteria")
        d["svm"][typo] = ["gacv"]
    with pytest.raises(SpecError) as info:
        spec_from_dict(d)
    assert f"unknown key {typo!r} in {where}; did you mean {fix!r}?" in str(info.value)


def test_unknown_key_in_costs_is_named():
    d = _with(None, setting="nonstandard", costs={"C_plsu": 1.0})
    with pytest.raises(SpecError, match=r"unknown key 'C_plsu' in \[costs\]; did you mean 'C_plus'\?"):
        spec_from_dict(d)


@pytest.mark.parametrize("value", ["-3", "0"])
def test_replicates_must_be_at_least_one(value, capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["study", "run", "wahba2001_standard", "--out", str(tmp_path / "out"), "--replicates", value])
    err = capsys.readouterr().err
    assert "expected an integer ≥ 1" in err and "≥ 0" not in err


@pytest.mark.parametrize("addr", ["foo:bar", "tcp://host", "http://h:1", "host:0", ":8786"])
def test_scheduler_address_format_is_stated(addr, capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["study", "run", "wahba2001_standard", "--out", str(tmp_path / "out"), "--scheduler", addr])
    err = capsys.readouterr().err
    assert "[PROTOCOL://]HOST:PORT" in err and "invalid literal" not in err
    with pytest.raises(ValueError, match="HOST:PORT"):
        run_study(spec_from_dict(BASE), None, scheduler=addr)


@pytest.mark.parametrize("addr", ["tcp://10.0.0.5:8786", "localhost:8786", "tls://h.example:443", "[::1]:8786"])
def test_valid_scheduler_addresses_pass(addr):
    from svmviz.studies.engine import check_scheduler_address

    assert check_scheduler_address(addr) == addr


def test_show_into_a_closed_pipe_ends_quietly(tmp_path):
    out = tmp_path / "res"
    run_study(spec_from_dict(BASE), out, workers=0)
    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, "-m", "svmviz.cli", "study", "show", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    proc.stdout.close()  # the reader has gone before anything is printed (as `| head` after its lines)
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=120)
    assert "BrokenPipeError" not in err and "Traceback" not in err, err
    assert code == 0
