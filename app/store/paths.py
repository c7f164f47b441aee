"""Where the workstation keeps its files: the audit database, the install key, the heads.

The key and the recorded heads live outside the database file, so a copy of the database
alone can neither forge a row nor hide a truncated tail. ``PITDESK_HOME`` moves everything
(tests and demos use it); otherwise the platform's user data directory is used.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path


def install_dir() -> Path | None:
    """The folder of the frozen build's executable (``dist/pitdesk/``, installer/), None when
    pitdesk runs from its source."""
    return Path(sys.executable).resolve().parent if getattr(sys, "frozen", False) else None


def portable_dir() -> Path | None:
    """A frozen build's ``data/`` folder beside the executable, if the technician made one: then
    the whole install (program, database, key, logs) is one folder (README, "Installing")."""
    d = install_dir()
    return d / "data" if d is not None and (d / "data").is_dir() else None


def data_dir() -> Path:
    """``PITDESK_HOME``; else a frozen build's ``data/`` beside its executable; else the user's
    data folder (``$XDG_DATA_HOME/pitdesk``, ``~/.local/share/pitdesk``)."""
    home = os.environ.get("PITDESK_HOME")
    if home:
        return Path(home)
    portable = portable_dir()
    if portable is not None:
        return portable
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "pitdesk"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "pitdesk"
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "pitdesk"


def config_dir() -> Path:
    """The user's configuration folder for pitdesk (``$XDG_CONFIG_HOME/pitdesk``)."""
    if sys.platform == "win32":
        return data_dir()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Preferences" / "pitdesk"
    return Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "pitdesk"


CONFIG_NAME = "workstation.toml"


def config_candidates() -> list[Path]:
    """Where ``pitdesk gui`` without ``--config`` looks for the configuration, in order:
    ``PITDESK_CONFIG``; else ``workstation.toml`` beside a frozen build's executable, then in
    the user's configuration folder (docs/workstation-config.md)."""
    given = os.environ.get("PITDESK_CONFIG")
    if given:
        return [Path(given)]
    d = install_dir()
    return ([d / CONFIG_NAME] if d is not None else []) + [config_dir() / CONFIG_NAME]


def default_db() -> Path:
    return data_dir() / "pitdesk.db"


def demo_db() -> Path:
    """The demo floor's log (``pitdesk gui --demo``, ``make run``): ``demo.db`` in the data folder,
    beside the install key that seals it (README, "Where things are kept")."""
    return data_dir() / "demo.db"


def key_file() -> Path:
    return Path(os.environ["PITDESK_KEY_FILE"]) if os.environ.get("PITDESK_KEY_FILE") else data_dir() / "install.key"


def head_file(db_id: str) -> Path:
    """The last head this install wrote for the database with ``db_id``."""
    return data_dir() / "heads" / f"{db_id}.json"


def read_key(path: Path) -> bytes:
    """A key file: 32 bytes or more as hex (``install.key``, or the copy an auditor is given)."""
    from .limited import KEY_BYTES, TooLarge, read_bytes
    try:
        text = read_bytes(path, KEY_BYTES, "a key file").decode("ascii").strip()
    except FileNotFoundError:
        raise KeyError(f"no key file at {path}") from None
    except TooLarge as e:
        raise KeyError(str(e)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise KeyError(f"{path}: the key cannot be read ({e})") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise KeyError(f"{path}: the install key is not hex") from None
    if len(key) < 32:
        raise KeyError(f"{path}: the install key is {len(key)} bytes, expected 32")
    return key


def install_key(create: bool = True) -> bytes:
    """The per-install HMAC key (32 random bytes, hex in a file readable by its owner only)."""
    path = key_file()
    if path.exists():
        return read_key(path)
    if not create:
        raise KeyError(f"no install key at {path}: the log cannot be checked without the key that sealed it")
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    # written whole under a private name first and then linked in place, so a crash can never
    # leave an empty or half-written key behind (which would refuse every later start), and a
    # second process creating the key at the same moment reads the winner's key
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(key.hex() + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            return install_key(create=False)
    finally:
        os.unlink(tmp)
    return key
