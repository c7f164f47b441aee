"""The command line's tests (app/cli): ``pitdesk`` run as a process or through its ``main``, each
command's output, its exit 2 naming the fault, ``--self-test``, ``pitdesk gui`` starting and
failing to start, the shift report's command and printing it on a real printer (marked
``print``), and every example round of docs/rounds settled through ``pitdesk settle``.

The shift report's swing shift (``made``, ``shift``) and ``no_threads_left`` are in
tests/conftest.py, shared with the window's tests; the rest is each module's own. The helpers they
share are tests/support/shift_report.py and tests/support/gui_process.py."""
