"""Store layer: persistence of sessions and results (SQLite via sqlite-utils)."""
