"""Helpers the tests import: functions, classes and constants, never a test and never a fixture
(fixtures are in the conftest.py of the folder whose tests use them, where pytest finds them).
Their asserts are rewritten as a test module's are (registered in tests/__init__.py)."""
