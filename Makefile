# Two commands do all set-up on a fresh machine:
#   make run    create the virtualenv, install, and start the application
#   make test   create the virtualenv, install, and run the whole test suite
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run demo test lint bench bench-gui eval screenshots clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip >/dev/null
	$(BIN)/pip install -e ".[llm,dev]"
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(BIN)/cvrag-desktop

demo: setup
	$(BIN)/cvrag demo

# Core and GUI suites run in two processes: Qt objects finalised beside the ONNX/Qdrant
# extensions at interpreter exit are not something a test result should depend on.
# (pyproject's addopts already says -q: a second -q would hide pytest's summary line.)
# Each process prints its peak RSS at the end (tests/conftest.py; budget 3 GB).
test: setup
	$(BIN)/python -m pytest -p no:cacheprovider --timeout 900 tests --ignore=tests/ui
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -p no:cacheprovider --timeout 900 tests/ui

bench-gui: setup
	QT_QPA_PLATFORM=offscreen $(BIN)/python benchmarks/gui_stall.py

lint: setup
	$(BIN)/ruff check cvrag_desktop tests benchmarks

eval: setup
	$(BIN)/cvrag eval --dataset ../shared/data/real-cvs

bench: setup
	$(BIN)/python benchmarks/ingest.py

screenshots: setup
	xvfb-run -a $(BIN)/python -m cvrag_desktop.ui.screenshots docs/screenshots

clean:
	rm -rf $(VENV) build *.egg-info
