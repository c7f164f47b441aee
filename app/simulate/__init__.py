"""Simulated pit shifts: the real engine and audit store driven at a table's pace in simulated
time, for tests, benchmarks, reports and demos (``pitdesk simulate shift``). No Qt here.

``from app.simulate import run_shift``; the module is loaded on first use, so the command
line's parser does not pay for the engine and the store.
"""

__all__ = ["ShiftError", "SimulationError", "parse_start", "run_shift"]


def __getattr__(name: str):
    if name in __all__:
        from . import shift
        return getattr(shift, name)
    raise AttributeError(f"module 'app.simulate' has no attribute {name!r}")
