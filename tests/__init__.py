"""pitdesk's tests: a folder per layer (engine, store, devices, workstation, views, cli, simulate),
each with the fixtures its tests share in its conftest.py; tests/conftest.py holds those of more
than one layer; plain helpers are in tests/support. A package, so that ``tests.support`` imports
the same whether pytest is run as ``python -m pytest`` or as ``pytest``, from any folder."""

import pytest

# the helpers' asserts say what they compared, as a test module's do: registered before any is imported
pytest.register_assert_rewrite("tests.support")
