"""The app's study runs in a per-user, owner-only, version-keyed, pruned folder; the results root's listing."""
from __future__ import annotations

import os
import time

import pytest

import svmviz
from svmviz.studies import storage


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SVMVIZ_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _mode(p) -> int:
    return os.stat(p).st_mode & 0o777


def test_data_folder_defaults_to_the_users_data_dir(monkeypatch):
    import platformdirs

    monkeypatch.delenv("SVMVIZ_DATA_DIR", raising=False)
    assert storage.data_home() == platformdirs.user_data_dir("svmviz", appauthor=False)
    assert not storage.data_home().startswith("/tmp")


def test_root_is_keyed_by_version_and_owner_only(home):
    root = storage.app_data_root()
    assert root == str(home / "studies" / svmviz.__version__)
    for p in (home, home / "studies", root):
        assert _mode(p) == 0o700, p


def test_existing_folder_open_to_others_is_narrowed(home):
    (home / "studies").mkdir(parents=True)
    os.chmod(home / "studies", 0o777)
    storage.app_data_root()
    assert _mode(home / "studies") == 0o700


def test_folder_owned_by_someone_else_is_refused(home, monkeypatch):
    (home / "studies" / svmviz.__version__).mkdir(parents=True)
    target = str(home / "studies")
    real_lstat = os.lstat

    def lstat(path, *a, **k):
        st = real_lstat(path, *a, **k)
        if os.fspath(path) == target:
            return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, os.getuid() + 1) + tuple(st)[5:])
        return st

    monkeypatch.setattr(storage.os, "lstat", lstat)
    with pytest.raises(PermissionError, match=r"belongs to another user \(uid \d+; you are uid \d+\)"):
        storage.app_data_root()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown to another user needs root")
def test_folder_chowned_to_another_user_is_refused(home):
    (home / "studies").mkdir(parents=True)
    os.chown(home / "studies", 54321, 54321)
    with pytest.raises(PermissionError, match="uid 54321"):
        storage.app_data_root()


def test_symlinked_folder_is_refused(home, tmp_path):
    home.mkdir()
    (tmp_path / "planted").mkdir()
    os.symlink(tmp_path / "planted", home / "studies")
    with pytest.raises(PermissionError, match="not a plain folder"):
        storage.app_data_root()


def _run(path, age_days, size):
    path.mkdir(parents=True)
    (path / "spec.toml").write_bytes(b"x" * size)
    t = time.time() - age_days * 86400
    for p in (path / "spec.toml", path):
        os.utime(p, (t, t))
    return path


def test_prune_removes_expired_runs_of_every_version(home):
    root = home / "studies"
    old = _run(root / "0.0.1" / "a-1", 40, 10)
    fresh = _run(root / svmviz.__version__ / "b-2", 1, 10)
    kept = _run(root / svmviz.__version__ / "c-3", 90, 10)
    removed = storage.prune(keep=(str(kept),))
    assert removed == [str(old)]
    assert not (root / "0.0.1").exists() and fresh.exists() and kept.exists()


def test_prune_keeps_the_runs_under_the_size_cap_oldest_first(home):
    root = home / "studies" / svmviz.__version__
    a = _run(root / "a", 3, 600)
    b = _run(root / "b", 2, 600)
    c = _run(root / "c", 1, 600)
    assert storage.prune(max_bytes=1300) == [str(a)]
    assert b.exists() and c.exists()
    with pytest.raises(ValueError, match="max_age_days"):
        storage.prune(max_age_days=0)


def test_results_root_lists_only_its_results_folders(tmp_path, monkeypatch):
    root = tmp_path / "root"
    for rel in ("a", "deep/b", "deep/er/c"):
        (root / rel).mkdir(parents=True)
        (root / rel / "spec.toml").write_text("name = 'x'\n")
    (root / "plain").mkdir()
    (root / "a" / "tasks").mkdir()
    (root / "a" / "tasks" / "spec.toml").write_text("")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "spec.toml").write_text("")
    os.symlink(tmp_path / "outside", root / "link")
    os.symlink("/etc", root / "etc")
    monkeypatch.setenv("SVMVIZ_RESULTS_ROOT", str(root))
    assert storage.results_root() == str(root)
    assert storage.list_result_folders() == ["a", "deep/b", "deep/er/c"]
    assert storage.result_folder("deep/b") == str(root / "deep" / "b")
    for name in ("../outside", "link", "/etc", "etc", "plain", ""):
        with pytest.raises(ValueError, match="not one of the results folders"):
            storage.result_folder(name)
    assert storage.list_result_folders(str(tmp_path / "missing")) == []


def test_location_shown_with_the_home_folder_as_tilde(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert storage.describe_location(str(tmp_path / ".local" / "share" / "svmviz")) == "~/.local/share/svmviz"
    assert storage.describe_location("/srv/x") == "/srv/x"
