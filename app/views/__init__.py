"""View layer: PySide6/pyqtgraph user interface."""
