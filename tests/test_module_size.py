"""No module under app/ is over 800 lines (docs/architecture.md): a module that grows past it has
grown a second job and becomes two (/work/shared/STYLE.md, "One job per module")."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
LIMIT = 800


def too_long(root: Path, limit: int = LIMIT) -> list[str]:
    """Every module under ``root`` over ``limit`` lines, with its count."""
    out = []
    for path in sorted(root.rglob("*.py")):
        with path.open(encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if n > limit:
            out.append(f"{path.relative_to(root.parent)}: {n} lines")
    return out


def test_no_module_under_app_is_over_800_lines():
    modules = list((REPO_ROOT / "app").rglob("*.py"))
    assert len(modules) > 100, "the modules under app/ were not found"
    assert too_long(REPO_ROOT / "app") == []


def test_the_check_counts_lines(tmp_path):
    pkg = tmp_path / "app"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "short.py").write_text("x = 1\n" * LIMIT, encoding="utf-8")
    (pkg / "sub" / "long.py").write_text("x = 1\n" * (LIMIT + 1), encoding="utf-8")
    assert too_long(pkg) == [f"app/sub/long.py: {LIMIT + 1} lines"]
