"""The app's shipped Streamlit configuration and ``svmviz app``'s bind address (local by default, ``--lan``)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import tomllib

import pytest

from svmviz import cli
from tests import serving

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROJECT_CONFIG = os.path.join(ROOT, ".streamlit", "config.toml")


def _cmd(argv):
    args, extra = cli.build_parser().parse_known_args(["app", *argv])
    return args, extra, cli.streamlit_command(args, extra)


def _value(cmd, option):
    flags = [i for i, a in enumerate(cmd) if a == f"--{option}"]
    assert len(flags) == 1, f"--{option} given {len(flags)} times: {cmd}"
    return cmd[flags[0] + 1]


def test_checkout_config_is_the_shipped_one():
    """`streamlit run app.py` (the checkout's .streamlit/config.toml) and `svmviz app` use one configuration."""
    with open(cli.STREAMLIT_CONFIG, "rb") as a, open(PROJECT_CONFIG, "rb") as b:
        assert a.read() == b.read()


def test_shipped_config_turns_off_statistics_deploy_button_and_network():
    import streamlit as st

    with open(cli.STREAMLIT_CONFIG, "rb") as fh:
        d = tomllib.load(fh)
    assert d["browser"]["gatherUsageStats"] is False
    assert d["client"]["toolbarMode"] == "viewer"
    assert d["server"]["address"] == "127.0.0.1"
    assert d["client"]["showErrorDetails"] == "none"
    assert d["server"]["maxUploadSize"] == 100
    for option in cli.app_config_options():
        st.get_option(option)  # a misspelt option name raises here


def test_streamlit_run_in_the_checkout_reads_it(tmp_path):
    """`streamlit config show` in the checkout, with an empty home folder, shows the shipped values."""
    env = dict(os.environ, HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "streamlit", "config", "show"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120).stdout
    assert "gatherUsageStats = false" in out
    assert 'toolbarMode = "viewer"' in out
    assert 'address = "127.0.0.1"' in out
    assert 'showErrorDetails = "none"' in out
    assert "maxUploadSize = 100" in out
    assert not (tmp_path / ".streamlit").exists()


def test_svmviz_app_binds_this_machine_only_by_default():
    _, _, cmd = _cmd(["--port", "8600"])
    assert _value(cmd, "server.address") == "127.0.0.1"
    assert _value(cmd, "browser.gatherUsageStats") == "false"
    assert _value(cmd, "client.toolbarMode") == "viewer"
    assert _value(cmd, "client.showErrorDetails") == "none"
    assert _value(cmd, "server.maxUploadSize") == "100"
    assert "--browser.serverAddress" not in cmd


def test_option_given_on_the_command_line_wins():
    _, _, cmd = _cmd(["--server.address", "10.1.2.3", "--browser.gatherUsageStats", "true"])
    assert _value(cmd, "server.address") == "10.1.2.3"
    assert _value(cmd, "browser.gatherUsageStats") == "true"


def test_lan_serves_every_interface_and_says_what_it_exposes(capsys):
    args, extra, cmd = _cmd(["--lan", "--port", "8765"])
    assert _value(cmd, "server.address") == "0.0.0.0"
    assert _value(cmd, "browser.serverAddress") == cli.lan_address()
    note = cli.lan_notice(args, extra)
    assert "0.0.0.0:8765" in note and "no authentication" in note
    for address in cli.lan_addresses():
        assert f"http://{address}:8765" in note


def _interface_addresses() -> set[str]:
    """The machine's IPv4 addresses but loopback, as ``ip`` lists them (iproute2, every Linux has it)."""
    out = subprocess.run(["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True, check=True).stdout
    return {ln.split()[3].split("/")[0] for ln in out.splitlines()} - {"127.0.0.1"}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the reference is iproute2's `ip addr`")
def test_lan_prints_the_machines_ip_addresses_not_its_host_name():
    """Every network interface's address is printed — a host name may not resolve on the students' machines."""
    want = _interface_addresses()
    assert want, "this machine has no network address but loopback"
    assert want <= set(cli.lan_addresses())
    assert all(ip.count(".") == 3 for ip in cli.lan_addresses())
    note = cli.lan_notice(*_cmd(["--lan"])[:2])
    for address in want:
        assert f"http://{address}:8501" in note
    assert f"http://{socket.gethostname()}:" not in note


def test_lan_without_a_network_says_so(monkeypatch):
    monkeypatch.setattr(cli, "lan_addresses", lambda: [])
    args, extra, cmd = _cmd(["--lan"])
    assert _value(cmd, "browser.serverAddress") == "localhost"
    assert "no network address besides loopback" in cli.lan_notice(args, extra)


def test_visitors_see_a_notice_and_the_log_keeps_the_traceback(tmp_path, caplog):
    """With the shipped ``client.showErrorDetails``, an exception in a page shows visitors neither its text
    nor its traceback; the server's log has both."""
    import logging
    import traceback

    from streamlit import config
    from streamlit.testing.v1 import AppTest

    script = tmp_path / "page.py"
    script.write_text('raise RuntimeError("/home/visitor/secret.csv: bad row")\n')
    before = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", cli.app_config_options()["client.showErrorDetails"])
    try:
        at = AppTest.from_file(str(script)).run()
    finally:
        config.set_option("client.showErrorDetails", before)
    shown = at.exception[0]
    assert "secret.csv" not in shown.message and not shown.stack_trace and "error" in shown.message
    logged = ["".join(traceback.format_exception(*r.exc_info)) for r in caplog.records
              if r.levelno >= logging.ERROR and r.exc_info]
    assert any("Traceback" in t and "RuntimeError: /home/visitor/secret.csv: bad row" in t for t in logged), logged


def test_lan_with_an_address_is_refused(capsys):
    assert cli.main(["app", "--lan", "--server.address", "10.0.0.1"]) == 2
    assert "either --lan or --server.address" in capsys.readouterr().err


def test_help_does_not_suggest_every_interface():
    assert "0.0.0.0" not in cli.APP_HELP
    assert "--lan" in cli.APP_HELP and "no authentication" in cli.APP_HELP


def test_started_app_listens_on_loopback_only_and_prints_one_url(tmp_path):
    psutil = pytest.importorskip("psutil")
    port = serving.free_port()
    env = dict(os.environ, HOME=str(tmp_path))
    log = tmp_path / "app.log"
    with open(log, "w") as fh:
        try:
            proc, _ = serving.start([sys.executable, "-m", "svmviz.cli", "app", "--port", str(port),
                                     "--server.headless", "true", "--server.fileWatcherType", "none"],
                                    port, log=fh, cwd=tmp_path, env=env, host="127.0.0.1")
        except serving.ServerDidNotStart as exc:
            pytest.fail(f"the app did not start: {exc}\n{log.read_text()}")
    try:
        listening = [c.laddr for c in psutil.Process(proc.pid).net_connections(kind="inet")
                     if c.status == psutil.CONN_LISTEN]
        assert listening and all(a.ip == "127.0.0.1" for a in listening), listening
        text = log.read_text()
        assert "Network URL" not in text and "External URL" not in text
        assert f"http://127.0.0.1:{port}" in text
        assert not (tmp_path / ".streamlit").exists()  # the user's own configuration folder is not written
    finally:
        serving.stop(proc, timeout=20)


def test_results_root_option_is_checked(tmp_path, capsys):
    assert cli.main(["app", "--results-root", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().err
