"""``pitdesk gui`` when it cannot start: a missing platform plugin, an unreadable configuration, none
found, a database locked by another process. Each is named on stderr and in the log file
(<data folder>/logs/pitdesk.log), shown in a dialog where one can be shown, exit 2: never a silent
exit. And where the configuration and the data folder are found (app/store/paths.py)."""

from __future__ import annotations

import functools
import io
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from app.cli import faults, gui_command as gui
from app.cli.main import main as pitdesk
from app.store import paths
from app.store.log import AuditLog
from app.views import startup
from app.qt import QMessageBox
from app.workstation import config
from app.workstation.workstation import Workstation
from tests.support.gui_process import env, gui as run_gui

FLOOR = '[[tables]]\nid = "T1"\nprofile = "casino"\n'


def log_text(tmp_path: Path) -> str:
    return (tmp_path / "home" / "logs" / "pitdesk.log").read_text()


def test_a_missing_platform_plugin_is_named_and_logged_before_qt_would_abort(tmp_path):
    e = env(tmp_path)
    e["QT_QPA_PLATFORM"] = "nosuchscreen"
    r = subprocess.run([str(Path(sys.executable).with_name("pitdesk")), "gui", "--demo"], env=e,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert "the Qt platform plugin 'nosuchscreen' is missing" in r.stderr and "offscreen" in r.stderr
    assert "Aborted" not in r.stderr and "could not find the Qt platform plugin" not in r.stderr   # not Qt's qFatal
    logged = log_text(tmp_path)
    assert "start-up fault (Qt platform plugin)" in logged and "'nosuchscreen' is missing" in logged
    assert "gui --demo" in logged
    assert not (tmp_path / "data" / "pitdesk" / "demo.db").exists()      # nothing was opened


def test_a_plugin_whose_system_library_is_missing_is_named_by_the_loader(tmp_path):
    plugins = tmp_path / "plugins"
    (plugins / "platforms").mkdir(parents=True)
    # a plugin file the loader refuses, as the xcb plugin without libxcb-cursor0 is refused
    (plugins / "platforms" / "libqbroken.so").write_bytes(b"\x7fELF not really")
    why = startup.load_problem("broken", plugins)
    assert why.startswith("the Qt platform plugin 'broken' cannot be loaded: ") and "libqbroken.so" in why
    assert startup.load_problem("offscreen") is None
    assert startup.platform_names({"QT_QPA_PLATFORM": "wayland;xcb:nomitshm"}) == ["wayland", "xcb"]
    assert startup.platform_names({}) == ["xcb"]
    assert startup.display_problem("xcb", {}) == "no X display to open the window on (DISPLAY is not set)"


@pytest.mark.parametrize("make, words", [
    (lambda p: p.mkdir(), "cannot read the configuration"),
    (lambda p: p.write_bytes(b'[[tables]]\nid = "T\xff1"\n'), "not UTF-8 text"),
])
def test_an_unreadable_configuration_is_named_and_logged(tmp_path, make, words):
    cfg = tmp_path / "pit.toml"
    make(cfg)
    r = run_gui(tmp_path, "--config", str(cfg), "--db", str(tmp_path / "pit.db"))
    assert r.returncode == 2
    assert str(cfg) in r.stderr and words in r.stderr and "Traceback" not in r.stderr
    assert f"written to {tmp_path / 'home' / 'logs' / 'pitdesk.log'}" in r.stderr
    assert words in log_text(tmp_path) and "start-up fault (configuration)" in log_text(tmp_path)
    assert not (tmp_path / "pit.db").exists()


def test_without_a_configuration_it_names_every_place_it_looked(tmp_path):
    r = run_gui(tmp_path)
    assert r.returncode == 2
    assert f"no configuration file: looked for {tmp_path / 'config' / 'pitdesk' / 'workstation.toml'}" in r.stderr
    assert "--demo" in r.stderr and "no configuration file" in log_text(tmp_path)


def test_the_configuration_in_the_users_folder_is_found_and_opened(tmp_path):
    cfg = tmp_path / "config" / "pitdesk" / "workstation.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text(FLOOR)
    r = run_gui(tmp_path, "--db", str(tmp_path / "pit.db"), "--quit-after", "0")
    assert r.returncode == 0, r.stderr
    with AuditLog(tmp_path / "pit.db", record_head=False, key=bytes(32)) as lg:   # rows only: no seal checked
        assert lg.query("SELECT table_id FROM tables") == [{"table_id": "T1"}]


def test_a_database_locked_by_another_process_is_named_and_logged(tmp_path, monkeypatch, qapp):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    cfg, db = tmp_path / "floor.toml", tmp_path / "pit.db"
    cfg.write_text(FLOOR)
    with Workstation(config.load(cfg), db):
        pass
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys\n"
                               f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
                               "c.execute('PRAGMA locking_mode=EXCLUSIVE'); c.execute('BEGIN EXCLUSIVE')\n"
                               "print('locked', flush=True); sys.stdin.read()\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        # the workstation waits 30 s for another writer; the test, half a second
        monkeypatch.setattr("app.workstation.workstation.AuditLog", functools.partial(AuditLog, busy_timeout=0.5))
        err = io.StringIO()
        with redirect_stderr(err):
            code = pitdesk(["gui", "--config", str(cfg), "--db", str(db)])
    finally:
        holder.stdin.close()
        holder.wait(10)
    assert code == 2
    said = err.getvalue()
    assert f"cannot open the audit database {db}: another process" in said and "has it locked" in said
    assert "the workstation did not start (audit database)" in said
    assert "has it locked" in (tmp_path / "home" / "logs" / "pitdesk.log").read_text()


def test_on_a_screen_the_fault_is_shown_in_a_dialog_naming_it(tmp_path, monkeypatch, qapp):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(startup, "headless", lambda env=None: False)
    monkeypatch.setattr(startup, "platform_problem", lambda env=None: None)
    shown = []

    def exec_(box):
        shown.append((box.windowTitle(), box.text(), box.informativeText(), box.icon()))
        return 0
    monkeypatch.setattr(QMessageBox, "exec", exec_)     # the box is made and filled; a person would close it
    with redirect_stderr(io.StringIO()):
        code = gui.startup_fault("audit database", "the disk holding /data/pit.db is full")
    assert code == 2
    ((title, text, detail, icon),) = shown
    assert title == "pitdesk did not start" and "audit database" in text and "/data/pit.db is full" in text
    assert str(tmp_path / "home" / "logs" / "pitdesk.log") in detail
    assert icon.name == "Critical"


def test_the_log_keeps_the_traceback_and_is_cut_when_it_grows(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    try:
        raise RuntimeError("boom")
    except RuntimeError as e:
        path = faults.record("opening the workstation", "RuntimeError: boom", e)
    text = path.read_text()
    assert path == tmp_path / "home" / "logs" / "pitdesk.log"
    assert "Traceback (most recent call last)" in text and "RuntimeError: boom" in text
    path.write_text("".join(f"old fault {n:06d}\n" for n in range(faults.KEEP_BYTES // 17 + 10)))
    faults.record("configuration", "the newest fault")
    lines = path.read_text().splitlines()
    assert path.stat().st_size < faults.KEEP_BYTES
    # the older half went, whole lines at a time; the newest fault is last
    assert all(len(x) == 16 for x in lines[:-3]) and lines[0].startswith("old fault ")
    assert lines[-4] == f"old fault {faults.KEEP_BYTES // 17 + 9:06d}" and "the newest fault" in lines[-3]


def test_a_frozen_build_finds_its_data_and_configuration_beside_its_executable(tmp_path, monkeypatch):
    install = tmp_path / "opt" / "pitdesk"
    install.mkdir(parents=True)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(install / "pitdesk"))
    monkeypatch.delenv("PITDESK_HOME", raising=False)
    monkeypatch.delenv("PITDESK_CONFIG", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    # no data/ beside it: the user's folders
    assert paths.data_dir() == tmp_path / "data" / "pitdesk"
    assert paths.config_candidates() == [install / "workstation.toml", tmp_path / "config" / "pitdesk" / "workstation.toml"]
    # a portable install: data/ beside the executable holds the database, the key and the log
    (install / "data").mkdir()
    assert paths.data_dir() == install / "data" and paths.default_db() == install / "data" / "pitdesk.db"
    assert faults.log_file() == install / "data" / "logs" / "pitdesk.log"
    monkeypatch.setenv("PITDESK_CONFIG", str(tmp_path / "elsewhere.toml"))
    assert paths.config_candidates() == [tmp_path / "elsewhere.toml"]
