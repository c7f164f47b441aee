"""PyInstaller hook for pitdesk's own package ``app``.

Commands import their layers inside functions (so that ``pitdesk hand`` does not pay for Qt, and
the links' child process loads only app.devices); PyInstaller finds most of those imports, but not
one reached through a name (``importlib``) or added later. Every module of ``app`` is collected, so
a command that works from the repo works frozen.
"""

from PyInstaller.utils.hooks import collect_submodules

hiddenimports = collect_submodules("app")
