"""``pitdesk gui`` as a real process (tests/cli/test_gui_cli.py, test_gui_startup.py): its
environment, with the data, configuration and install folders in the test's own folder, and a run
of it with its output captured."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PITDESK = str(Path(sys.executable).with_name("pitdesk"))


def env(tmp_path: Path) -> dict:
    e = dict(os.environ)
    e.update(QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"),
             XDG_CONFIG_HOME=str(tmp_path / "config"), PITDESK_HOME=str(tmp_path / "home"))
    e.pop("PITDESK_KEY_FILE", None)
    return e


def gui(tmp_path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([PITDESK, "gui", *args], env=env(tmp_path), capture_output=True, text=True,
                          timeout=timeout)
