"""Layering checks for app.engine, independent of import-linter.

The engine must stay pure: no Qt, no files, no sockets, no clock, no global
randomness (pass a ``random.Random`` instance in instead of importing random),
and no imports from the outer layers.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
ENGINE_DIR = REPO_ROOT / "app" / "engine"

FORBIDDEN = frozenset(
    {
        "PySide6",
        "shiboken6",
        "pyqtgraph",
        "serial",
        "sqlite3",
        "sqlite_utils",
        "socket",
        "time",
        "os",
        "pathlib",
        "io",
        "threading",
        "subprocess",
        "random",
        "app.store",
        "app.devices",
        "app.views",
        "app.reports",
        "app.cli",
    }
)


def _is_forbidden(module: str) -> str | None:
    """Return the forbidden entry that ``module`` equals or lies under."""
    for banned in FORBIDDEN:
        if module == banned or module.startswith(banned + "."):
            return banned
    return None


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """Resolve a (possibly relative) ``from`` import to an absolute module name."""
    if node.level == 0:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
    return ".".join(base + ([node.module] if node.module else []))


def find_forbidden_imports(source: str, filename: str = "<string>", package: str = "app.engine") -> list[str]:
    """Return one message per forbidden import in ``source``.

    ``package`` is the package the source lives in, used to resolve relative
    imports (``from .. import store`` inside app.engine -> app.store).
    """
    problems: list[str] = []
    tree = ast.parse(source, filename=filename)
    for node in ast.walk(tree):
        candidates: list[str] = []
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            candidates = [base] + [f"{base}.{alias.name}" if base else alias.name for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Name, ast.Attribute))
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
            in {"__import__", "import_module"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            candidates = [node.args[0].value]
        for name in candidates:
            banned = _is_forbidden(name)
            if banned:
                problems.append(f"{filename}:{node.lineno}: imports {name} (forbidden: {banned})")
                break
    return problems


def _package_of(path: Path) -> str:
    rel = path.relative_to(REPO_ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    else:
        parts.pop()  # a module's package is its folder
    return ".".join(parts)


def test_engine_has_no_forbidden_imports():
    files = sorted(ENGINE_DIR.rglob("*.py"))
    assert files, f"no Python files found under {ENGINE_DIR}"
    problems: list[str] = []
    for path in files:
        problems += find_forbidden_imports(
            path.read_text(encoding="utf-8"),
            filename=str(path.relative_to(REPO_ROOT)),
            package=_package_of(path),
        )
    assert not problems, "app.engine imports forbidden modules:\n" + "\n".join(problems)


def test_checker_catches_violations():
    assert find_forbidden_imports("import PySide6\n")
    assert find_forbidden_imports("from PySide6.QtCore import QObject\n")
    assert find_forbidden_imports("import os.path\n")
    assert find_forbidden_imports("from app.store import db\n")
    assert find_forbidden_imports("from app import views\n")
    assert find_forbidden_imports("from .. import devices\n", package="app.engine")
    assert find_forbidden_imports("from ...store import x\n", package="app.engine.sub")
    assert find_forbidden_imports("def f():\n    import random\n")
    assert find_forbidden_imports("import importlib\nimportlib.import_module('socket')\n")
    # Allowed: stdlib that is pure, and the engine's own modules.
    assert not find_forbidden_imports("import itertools\nfrom dataclasses import dataclass\n")
    assert not find_forbidden_imports("from . import cards\nfrom app.engine import hands\n")
    assert not find_forbidden_imports("import timeit_free_name\nimport randomness\n")


def test_lint_imports_passes():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    assert lint_imports.exists(), f"{lint_imports} not found; run `make setup`"
    result = subprocess.run(
        [str(lint_imports)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
