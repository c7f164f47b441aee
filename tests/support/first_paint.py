"""``pitdesk gui --demo`` in a process of its own, watched (tests/cli/test_gui_demo_start.py):

    python -m tests.support.first_paint DEMO_DB [gui options]

runs ``app.cli.main(["gui", "--demo", ...])`` (its log ``DEMO_DB``, where the demo keeps it) as the ``pitdesk`` script does, with an
application event filter that notes, at the first paint of a floor tile showing its table's
readout, what the audit log holds (its last row, its sign-ins, read from the file on a
connection of its own); then it waits (looking every 100 ms) until the demo's dealer and floor
supervisor have signed in after that paint, and closes the window as `--quit-after` does. It
prints one line, ``FIRST_PAINT {json}``, as it exits. Nothing is timed.
"""

from __future__ import annotations

import json
import sqlite3
import sys

MARK = "FIRST_PAINT "
PEOPLE = ("demo-dealer", "demo-floor")


def _log(db: str) -> tuple[int, list[tuple[int, str, str]]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        last = conn.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0]
        rows = conn.execute("SELECT seq, name, event FROM sign_ins WHERE event = 'sign_in' ORDER BY seq").fetchall()
        return last, [tuple(r) for r in rows]
    finally:
        conn.close()


def main(argv: list[str]) -> int:
    from app.cli import gui_command
    from app.cli.main import main as pitdesk

    db, argv = argv[0], argv[1:]
    seen: dict = {}
    window_original = gui_command._window

    def watched(app, ws, args, size, *rest):
        from app.qt import QApplication, QEvent, QObject, QTimer
        from app.views.main_window import MainWindow

        def signed_in_since_paint() -> bool:
            _, rows = _log(db)
            after = {name for seq, name, _ in rows if seq > seen["paint"]["last_seq"]}
            return all(p in after for p in PEOPLE)

        class Painted(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.Paint and obj.objectName() == "tile" \
                        and getattr(obj, "tile", None) is not None:
                    last, rows = _log(db)
                    seen["paint"] = {"last_seq": last, "sign_ins": rows}
                    QApplication.instance().removeEventFilter(self)
                    poll.start(100)
                return False

        def look():
            if signed_in_since_paint():
                poll.stop()
                for w in QApplication.topLevelWidgets():
                    if isinstance(w, MainWindow):
                        w.close()          # as --quit-after closes it

        poll = QTimer()
        poll.timeout.connect(look)
        seen["filter"] = Painted()
        QApplication.instance().installEventFilter(seen["filter"])
        try:
            return window_original(app, ws, args, size, *rest)
        finally:
            poll.stop()

    gui_command._window = watched
    code = pitdesk(["gui", "--demo", *argv])
    print(MARK + json.dumps({"code": code, "paint": seen.get("paint")}), flush=True)
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
