# Two commands do all set-up on a fresh machine:
#   make run    create the virtualenv, install, and start the application
#   make test   create the virtualenv, install, and run the whole test suite
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run demo test lint bench bench-gui eval folds train screenshots clean package wheelhouse dist bundle-test \
	zoo zoo-tools gate names

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

# leave-one-source-out over every labelled real folder: the rules and the per-fold trained line roles
DATA ?= ../shared/data
folds: setup
	$(BIN)/cvrag eval --folds source --model both --dataset $(DATA)/real-cvs --dataset $(DATA)/real-cvs-extra \
		--dataset $(DATA)/real-cvs-inbox

# the shipped section-kind model from the layout zoo's open families (make zoo first; deterministic, minutes)
# and, for study only (not shipped), the name line-role model from the factory and the labelled real folders
train: setup
	nice -n 10 $(BIN)/python -m cvrag_desktop.evaluation.section_training --zoo $(ZOO_OUT) \
		--out resources/models/section_kinds.crfsuite
	$(BIN)/python -m cvrag_desktop.evaluation.fold_training --data $(DATA) --out build/models/line_roles.crfsuite

# the name gazetteers of resources/names/ from Faker's person providers (deterministic, seconds; committed)
names: setup
	$(BIN)/python -m cvrag_desktop.factory.name_gazetteer --out resources/names

bench: setup
	$(BIN)/python benchmarks/ingest.py

screenshots: setup
	xvfb-run -a $(BIN)/python -m cvrag_desktop.ui.screenshots docs/screenshots

# ---- the layout zoo (issue 36, docs/zoo.md): build time only, never part of `make test` ----------
# make zoo-tools  Chromium, LibreOffice Writer, node/npm, TeX Live's CV classes (XeLaTeX) and fonts from Debian (when missing)
# make zoo        every family's documents + truth + line roles under build/zoo/ (cached), manifest.json
ZOO_SEED ?= 36
ZOO_PER_FAMILY ?= 56
ZOO_FAMILIES ?= all
ZOO_OUT ?= build/zoo
ZOO_APT := chromium libreoffice-writer-nogui nodejs npm fonts-dejavu-core fonts-liberation2 \
	fonts-crosextra-carlito fonts-crosextra-caladea \
	texlive-latex-extra texlive-latex-recommended texlive-fonts-recommended texlive-plain-generic \
	texlive-xetex fonts-texgyre
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

zoo-tools:
	@if command -v chromium >/dev/null && command -v soffice >/dev/null && command -v npm >/dev/null \
		&& command -v xelatex >/dev/null && kpsewhich soul.sty >/dev/null \
		&& fc-list | grep -q Carlito && fc-list | grep -q "TeX Gyre Heros"; then echo "zoo tools present"; else \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y \
		--no-install-recommends $(ZOO_APT); fi

zoo: setup zoo-tools
	nice -n 19 $(BIN)/python -m cvrag_desktop.evaluation.zoo.build --out $(ZOO_OUT) --seed $(ZOO_SEED) \
		--per-family $(ZOO_PER_FAMILY) --families $(ZOO_FAMILIES)

# ---- the regression gate (issue 36, docs/zoo.md "Regression gate"): before/after against BASE ------------
# make gate BASE=main   the real folders and the open zoo on BASE (a temporary worktree) and on this tree;
#                       exit 1 when a real folder's field or the zoo's open overall drops (GATE_FLAGS adds
#                       e.g. --include-held-out, --tolerance 0.002)
BASE ?= main
GATE_ZOO ?= $(ZOO_OUT)
GATE_FLAGS ?=
gate: setup
	nice -n 19 $(BIN)/python -m cvrag_desktop.evaluation.gate --base $(BASE) --data $(DATA) --zoo $(GATE_ZOO) $(GATE_FLAGS)

# ---- delivery to an air-gapped laptop (docs/packaging.md) --------------------------------
# make package     dist/cvrag-desktop/: PyInstaller one-folder app (models, resources, sample CVs)
# make wheelhouse  dist/wheelhouse/: every wheel for this platform, requirements.lock, install.sh/.ps1
# make dist        versioned archives of both + SHA256SUMS + THIRD-PARTY-LICENSES.txt
# make bundle-test the slow acceptance tests: offline wheelhouse install, frozen app --self-test
PKG_STAMP := $(VENV)/.packaging
SAMPLES := build/samples

$(PKG_STAMP): $(STAMP)
	$(BIN)/pip install "pyinstaller>=6.10"
	touch $(PKG_STAMP)

package: $(PKG_STAMP)
	rm -rf $(SAMPLES) build/sample-home dist/cvrag-desktop
	CVRAG_HOME=build/sample-home $(BIN)/cvrag generate --count 4 --seed 11 --no-llm --out $(SAMPLES)
	nice -n 10 $(BIN)/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/cvrag-desktop.spec
	@du -sh dist/cvrag-desktop

wheelhouse: setup
	$(BIN)/python packaging/wheelhouse.py --out dist/wheelhouse

dist: package wheelhouse
	$(BIN)/python packaging/archive.py

bundle-test: setup
	CVRAG_BUNDLE_TESTS=1 $(BIN)/python -m pytest -p no:cacheprovider -s --timeout 1800 -m slow tests/e2e/test_bundle.py

clean:
	rm -rf $(VENV) build dist *.egg-info
