# pitdesk build entry points. The project is installed editable into .venv
# (resources/ is read from the repo root, see pyproject.toml).
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup run test test-slow test-print bench dist test-dist clean

# The casino tests' PostgreSQL server (tests/support/pg.py) and the report tests' pdftotext and
# pdftoppm are installed when missing, as root on Debian (installer/postgres.sh, installer/poppler.sh;
# elsewhere each says what to install).
setup: $(STAMP)
	@installer/postgres.sh
	@installer/poppler.sh

# Re-install only when pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

# The workstation window on the demo floor (app/simulate/demo.py); its log is kept in the
# user's data folder, so a second run continues it.
run: setup
	$(BIN)/pitdesk gui --demo

test test-slow test-print bench: export QT_QPA_PLATFORM = offscreen

# The suite in one process per core (pytest-xdist; TEST_WORKERS=0 runs it in this one process).
TEST_WORKERS ?= auto
test: setup
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n $(TEST_WORKERS)

# Only the tests marked slow (addopts would otherwise deselect them).
# Exit code 5 (no tests collected) is not a failure here.
test-slow: setup
	$(BIN)/python -m pytest -q -o addopts='' -m slow; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "no slow tests yet"; exit 0; fi; exit $$rc

# Printing to a real printer: a CUPS server with the cups-pdf virtual printer "pitdesk-pdf"
# (installed and started here, as root on Debian), the shift report printed with --print and the
# PDF it makes compared with --out's (tests/cli/test_print.py). pdftocairo turns the job into the
# PostScript cups-pdf takes: Ghostscript's and Poppler's default lose the text's letters.
test-print: setup
	installer/cups-pdf-printer.sh
	$(BIN)/python -m pytest -q -o addopts='' -m print

bench: setup
	$(BIN)/python bench/run_all.py

# The frozen one-folder build (installer/pitdesk.spec): dist/pitdesk/pitdesk runs with no Python
# and no virtual environment; copy the folder to install it (README, "Installing").
dist: setup
	$(BIN)/pyinstaller installer/pitdesk.spec --noconfirm --distpath dist --workpath build
	du -sh dist/pitdesk

# Build, then check the build in a clean environment (no .venv on PATH, nothing of ours in it):
# the self-test, then every command of the command line against the source tree's.
test-dist: dist
	env -i PATH=/usr/bin:/bin HOME=$(HOME) QT_QPA_PLATFORM=offscreen dist/pitdesk/pitdesk --self-test
	$(BIN)/python installer/compare_cli.py dist/pitdesk/pitdesk

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis .benchmarks
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
