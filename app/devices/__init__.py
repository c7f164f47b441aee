"""Device layer: serial/network I/O with table hardware (card shufflers, readers)."""
