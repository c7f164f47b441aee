"""Before the window opens: can Qt's platform plugin load here, and a start-up fault shown to a person.

Qt ends the process from C++ (``qFatal``, no Python exception, nothing a ``try`` catches) when its
platform plugin is missing, when the plugin's system libraries are (the xcb plugin needs
libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1 and others, README "Installing"), or when there is
no display. So ``platform_problem`` looks first: the plugin file, then loading it as Qt would
(``dlopen``, which names the first missing library), then the display it will ask for. A problem
found is a start-up fault like any other (app/cli/gui_command.py): logged, said on stderr, and shown in a
dialog wherever one can be shown.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

from app.qt import QLibraryInfo

# platforms that draw nowhere a person looks: a fault there is said on stderr and in the log only
HEADLESS = ("offscreen", "minimal")


def plugins_dir() -> Path:
    """Qt's plugins folder: the wheel's PySide6/Qt/plugins, or the frozen build's _internal copy."""
    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))


def platform_names(env: dict | None = None) -> list[str]:
    """The platforms Qt will try, in order: ``QT_QPA_PLATFORM`` ("wayland;xcb", "xcb:option=1"),
    else Qt's own choice on Linux (wayland first in a Wayland session, then xcb)."""
    env = os.environ if env is None else env
    given = env.get("QT_QPA_PLATFORM", "").strip()
    if given:
        return [p.split(":", 1)[0].strip() for p in given.split(";") if p.strip()]
    if env.get("XDG_SESSION_TYPE") == "wayland" or env.get("WAYLAND_DISPLAY"):
        return ["wayland", "xcb"]
    return ["xcb"]


def plugin_file(name: str, plugins: Path | None = None) -> Path:
    return (plugins or plugins_dir()) / "platforms" / f"libq{name}.so"


def load_problem(name: str, plugins: Path | None = None) -> str | None:
    """Why the platform plugin ``name`` cannot be loaded here, or None: missing, or a system
    library it needs is missing (the loader's own words name it)."""
    path = plugin_file(name, plugins)
    if not path.exists():
        have = sorted(p.name[4:-3] for p in path.parent.glob("libq*.so")) if path.parent.is_dir() else []
        return (f"the Qt platform plugin {name!r} is missing: no {path} (plugins here: "
                f"{', '.join(have) or 'none'})")
    try:
        ctypes.CDLL(str(path))
    except OSError as e:
        return (f"the Qt platform plugin {name!r} cannot be loaded: {e} (install the system libraries it needs, "
                "README 'Installing')")
    return None


def display_problem(name: str, env: dict | None = None) -> str | None:
    env = os.environ if env is None else env
    if name == "xcb" and not env.get("DISPLAY"):
        return "no X display to open the window on (DISPLAY is not set)"
    if name == "wayland" and not env.get("WAYLAND_DISPLAY"):
        runtime = env.get("XDG_RUNTIME_DIR")
        if not runtime or not (Path(runtime) / "wayland-0").exists():
            return "no Wayland display to open the window on (WAYLAND_DISPLAY is not set)"
    return None


def platform_problem(env: dict | None = None) -> str | None:
    """None if Qt can start on one of the platforms it will try; else what stops each."""
    problems = []
    for name in platform_names(env):
        why = load_problem(name) or display_problem(name, env)
        if why is None:
            return None
        problems.append(why)
    return "; ".join(problems) or "no Qt platform plugin was named (QT_QPA_PLATFORM is empty)"


def headless(env: dict | None = None) -> bool:
    names = platform_names(env)
    return bool(names) and names[0] in HEADLESS


def show_fault(title: str, text: str, detail: str = "", *, qt_usable: bool = True) -> bool:
    """A dialog naming a start-up fault, where a person will see it; whether one was shown.

    Qt's own QMessageBox when its platform can start; otherwise (the fault is the platform) a
    desktop's own dialog program if there is one (zenity, kdialog, xmessage), as the log and stderr
    alone would leave a technician starting from the menu with nothing on the screen."""
    if headless():
        return False
    if qt_usable and platform_problem() is None:
        from app.qt import QApplication, QMessageBox
        app = QApplication.instance() or QApplication(["pitdesk"])
        box = QMessageBox(QMessageBox.Icon.Critical, title, text)
        if detail:
            box.setInformativeText(detail)
        box.exec()
        del app
        return True
    words = f"{text}\n\n{detail}".strip()
    for argv in (["zenity", "--error", "--title", title, "--text", words],
                 ["kdialog", "--title", title, "--error", words],
                 ["xmessage", "-center", f"{title}\n\n{words}"]):
        if shutil.which(argv[0]) and (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            try:
                subprocess.run(argv, check=False, timeout=3600)
                return True
            except (OSError, subprocess.SubprocessError):
                continue
    return False
