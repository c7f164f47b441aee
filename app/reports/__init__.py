"""Report layer: summaries and exports built from stored sessions."""
