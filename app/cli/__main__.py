"""``python -m app.cli``: the same command as ``pitdesk``."""

from .main import main

raise SystemExit(main())
