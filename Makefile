# Build the documentation site and run its tests.
#   make html   - build the site strictly (creates .venv from requirements.txt when missing)
#   make test   - run the test suite
#   make pdf    - the PDF (LaTeX, latexmk; needs TeX Live and rsvg-convert: .ci/run lists the Debian packages)
#   make epub   - the ePub
# Usual Sphinx variables are honoured: SPHINXOPTS, SPHINXBUILD, SOURCEDIR, BUILDDIR.

# The supported Pythons are stated once, in pyproject.toml (requires-python = ">=3.13": Sphinx 9.2
# needs 3.13); the machine's default python3 may be older. PYTHON=... picks one by hand.
MIN_PYTHON  := $(shell sed -n 's/^requires-python = ">=\([0-9]*\.[0-9]*\)".*/\1/p' pyproject.toml)
comma       := ,
MIN_TUPLE   := ($(subst .,$(comma) ,$(MIN_PYTHON)))
PYTHON ?= $(shell for p in python$(MIN_PYTHON) /root/.pyenv/versions/$(MIN_PYTHON)*/bin/python$(MIN_PYTHON) python3.14 python3.13 python3; do \
	  if $$p -c 'import sys; sys.exit(sys.version_info < $(MIN_TUPLE))' >/dev/null 2>&1; then echo $$p; break; fi; done)
VENV        ?= .venv
VENV_STAMP  := $(VENV)/.requirements-installed
TEST_STAMP  := $(VENV)/.test-requirements-installed
MUTATION_STAMP := $(VENV)/.mutation-requirements-installed
SPHINXBUILD ?= $(VENV)/bin/sphinx-build
SPHINXOPTS  ?=
STRICTOPTS  ?= -W --keep-going -n
SOURCEDIR   ?= source
BUILDDIR    ?= build
PYTEST_ARGS ?= -n auto
# make test leaves out the end-to-end tests: the site in a real browser (pytest marker "browser"),
# every data file refused in turn (marker "sweep"), the whole site built again by the other
# builders or by make html (marker "builders") and the whole site built again from edited data
# (marker "site_edits"); make test-e2e runs them; CI runs both.
TEST_MARKERS ?= not browser and not sweep and not builders and not site_edits

.PHONY: help html pdf epub clean test test-e2e typecheck venv audit matrix-diff bench drift-score import-benchmarks fuzz
PY_EXT      = PYTHONPATH=_ext $(VENV)/bin/python
FORMAT      ?= markdown

help:
	@echo "make html    build the site into $(BUILDDIR)/html (strict: warnings are errors)"
	@echo "make test    run the test suite (all but the end-to-end tests; under 3 minutes)"
	@echo "make test-e2e  the end-to-end tests (the site in a browser, every data file refused, the other builders); CI runs both"
	@echo "make pdf     build the PDF into $(BUILDDIR)/latex (strict; 0 undefined references; needs latexmk and TeX Live)"
	@echo "make epub    build the ePub into $(BUILDDIR)/epub (strict)"
	@echo "make clean   remove $(BUILDDIR)"
	@echo "make audit FILE=...         check a hand-written page's figures against the data"
	@echo "make matrix-diff BASE=rev   Markdown summary of data changes since rev"
	@echo "make matrix-diff FROM=date TO=date   what changed between two revisions of the support matrices"
	@echo "make bench                   build-time benchmark at scale"
	@echo "make bench-history           the benchmark history: import, its share of the build, one new release"
	@echo "make import-benchmarks SRC=.. import published benchmark CSVs (a file or a folder) into data/,"
	@echo "                             or a folder of states <date>-<commit>/ into the benchmark history"
	@echo "make fuzz                    the data fuzzer with a longer budget than make test's"
	@echo "make mutation [MUTATE=..]    mutation testing of the core rules (cosmic-ray; tests/MUTATION.md)"
	@echo "make snapshots               write the renderers' doctree snapshots (tests/snapshots/) anew, to review with git diff"

venv: $(VENV_STAMP)

# The site build's dependencies (what Read the Docs installs) ...
$(VENV_STAMP): requirements.txt
	@test -n "$(PYTHON)" || { echo "error: no Python >= $(MIN_PYTHON) found (pyproject.toml's requires-python; Sphinx 9.2 needs it): install python$(MIN_PYTHON) or give PYTHON=..." >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < $(MIN_TUPLE))' || { \
	  echo "error: $(PYTHON) is Python $$($(PYTHON) -c 'import platform; print(platform.python_version())' 2>/dev/null || echo '(not found)'); this site needs Python >= $(MIN_PYTHON) (pyproject.toml's requires-python; Sphinx 9.2 needs it)" >&2; exit 1; }
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -r requirements.txt
	@touch $@

# ... and the test suite's own tools on top; make mutation's on top of those.
$(TEST_STAMP): $(VENV_STAMP) requirements-test.txt
	$(VENV)/bin/python -m pip install --quiet -r requirements-test.txt
	@touch $@

$(MUTATION_STAMP): $(TEST_STAMP) requirements-mutation.txt
	$(VENV)/bin/python -m pip install --quiet -r requirements-mutation.txt
	@touch $@

# The extension's bytecode, written before a build or a test run (up to date: 0.1 s): an environment
# that forbids Python to write it (PYTHONDONTWRITEBYTECODE=1, as some CI images set) would otherwise
# compile the extension's 150 modules in every build and every test process (0.6 s of CPU each).
BYTECODE    = $(VENV)/bin/python -m compileall -q _ext >/dev/null

html: $(VENV_STAMP)
	@$(BYTECODE)
	@set -f; echo $(SPHINXBUILD) -b html -c . -d "$$ARG_BUILDDIR/doctrees" $$ARG_STRICTOPTS $$ARG_SPHINXOPTS "$$ARG_SOURCEDIR" "$$ARG_BUILDDIR/html"; \
	$(SPHINXBUILD) -b html -c . -d "$$ARG_BUILDDIR/doctrees" $$ARG_STRICTOPTS $$ARG_SPHINXOPTS "$$ARG_SOURCEDIR" "$$ARG_BUILDDIR/html"

# The PDF as Read the Docs builds it (.readthedocs.yaml): LaTeX from the pages, strictly, then latexmk;
# a reference pdflatex cannot resolve (or a label defined twice) fails it, as a warning fails make html.
PDFNAME     ?= neuronmodelsupportperformance
pdf: $(VENV_STAMP)
	@$(BYTECODE)
	$(SPHINXBUILD) -b latex -c . -d $(BUILDDIR)/doctrees-latex $(STRICTOPTS) $(SPHINXOPTS) $(SOURCEDIR) $(BUILDDIR)/latex
	cd $(BUILDDIR)/latex && max_print_line=10000 latexmk -pdf -interaction=nonstopmode -halt-on-error $(PDFNAME).tex >/dev/null \
	  || { tail -40 $(PDFNAME).log; exit 1; }
	@! grep -E "(Hyper r|R)eference .* undefined|multiply defined" $(BUILDDIR)/latex/$(PDFNAME).log \
	  || { echo "error: the PDF has links that point nowhere (above)" >&2; exit 1; }
	@# Pages and overfull boxes by size; fails on content below the footer or over 10 pt into the margin.
	@$(PY_EXT) -m neuron_docs.site.latex_log $(BUILDDIR)/latex/$(PDFNAME).log
	@echo "PDF: $(BUILDDIR)/latex/$(PDFNAME).pdf"

# The ePub, then W3C's epubcheck on it when installed (Debian epubcheck: Java, so CI leaves it out).
EPUBCHECK   ?= $(shell command -v epubcheck)
epub: $(VENV_STAMP)
	@$(BYTECODE)
	$(SPHINXBUILD) -b epub -c . -d $(BUILDDIR)/doctrees-epub $(STRICTOPTS) $(SPHINXOPTS) $(SOURCEDIR) $(BUILDDIR)/epub
	$(if $(EPUBCHECK),java -jar $(EPUBCHECK) --failonwarnings $(BUILDDIR)/epub/*.epub,@echo "(epubcheck not installed: not validated)")

# mypy (one core, no cache in a fresh clone) runs beside pytest, not before it: its report is
# printed after pytest's, and either failing fails the target.
test: $(TEST_STAMP)
	@$(BYTECODE)
	$(VENV)/bin/ruff check --quiet _ext tests bench conf.py
	@echo "$(VENV)/bin/python -m mypy  (beside pytest; its report follows pytest's)"
	@report=$$(mktemp); $(VENV)/bin/python -m mypy >"$$report" 2>&1 & mypy=$$!; \
	set -f; echo "$(VENV)/bin/python -m pytest $$ARG_PYTEST_ARGS -m '$$ARG_TEST_MARKERS'"; \
	$(VENV)/bin/python -m pytest $$ARG_PYTEST_ARGS -m "$$ARG_TEST_MARKERS"; tests=$$?; \
	wait $$mypy; typed=$$?; echo "mypy:"; cat "$$report"; rm -f "$$report"; \
	if [ $$typed -ne 0 ]; then exit $$typed; fi; exit $$tests

# make test-e2e  -- the end-to-end tests make test leaves out: the site in Chromium (every page at
# 1440x900 and 390x844: errors, tables, links, axe-core; the advisor, tables and features as a
# reader uses them), every data file refused in turn (the rest of the site still builds), and every
# other builder (dirhtml, singlehtml, ePub, LaTeX, linkcheck) and make html's bytes
test-e2e: $(TEST_STAMP)
	@$(BYTECODE)
	@set -f; $(VENV)/bin/python -m pytest $$ARG_PYTEST_ARGS -m "browser or sweep or builders or site_edits"

# make typecheck  -- the type checker alone (make test runs it first)
typecheck: $(TEST_STAMP)
	$(VENV)/bin/python -m mypy

clean:
	rm -rf $(BUILDDIR)

# make audit FILE="a.rst b.md" [AUDIT_ARGS="--strict --format json --bare --data DIR"]
#   -- figures in hand-written pages checked against the data by the build's drift engine
audit: $(VENV_STAMP)
	@test -n "$$ARG_FILE" || { echo "usage: make audit FILE=path"; exit 2; }
	@set -f; $(PY_EXT) -m neuron_docs.drift.audit $$ARG_AUDIT_ARGS $$ARG_FILE

# make matrix-diff BASE=<git revision> [FORMAT=json]  -- what the data change does to the site
# make matrix-diff FROM=<date> [TO=<date>] [FORMAT=json]  -- what changed between two matrix revisions
# Its standard output is the report only (FORMAT=json: JSON only): the recipe is not echoed, and the
# venv's set-up (when requirements.txt changed) prints to standard error. The revisions and dates reach
# the shell as environment values ("$$ARG_BASE", below), never pasted into its command line.
matrix-diff:
	@$(MAKE) --no-print-directory -s venv >&2
	@test -n "$$ARG_BASE$$ARG_FROM$$ARG_TO" || { echo "usage: make matrix-diff BASE=<git revision> | FROM=<date> [TO=<date>] [FORMAT=json]" >&2; exit 2; }
	@$(PY_EXT) -m neuron_docs.preview.matrix_diff $(if $(value BASE),--base "$$ARG_BASE") $(if $(value FROM),--from "$$ARG_FROM") $(if $(value TO),--to "$$ARG_TO") --format "$$ARG_FORMAT"

# make bench  -- build-time benchmark at scale (see bench/README.md)
bench: $(VENV_STAMP)
	@$(BYTECODE)
	@set -f; $(PY_EXT) bench/run.py $$ARG_BENCH_ARGS

# make drift-score  -- the drift checker's precision and recall on its corpus (tests/drift_corpus)
drift-score: $(VENV_STAMP)
	$(PY_EXT) tests/drift_corpus/score.py
# make import-benchmarks SRC=<published CSV or folder> [IMPORT_ARGS="--as-of YYYY-MM-DD --region us-east-1 --term 1-year"]
#   or SRC=<folder of published states named <date>-<commit>/>: folded into data/benchmarks/history/ in date order
#   -- the Neuron documentation's published benchmark tables into data/ (every problem with file, line, column)
import-benchmarks: $(VENV_STAMP)
	@test -n "$$ARG_SRC" || { echo "usage: make import-benchmarks SRC=<published CSV or folder>"; exit 2; }
	@set -f; $(PY_EXT) -m neuron_docs.benchmark_import $$ARG_IMPORT_ARGS "$$ARG_SRC"
# make fuzz [FUZZ_EXAMPLES=2000]  -- the data fuzzer and the data's load properties (tests/test_fuzz_data.py,
#   tests/test_data_properties.py) run longer than in make test
FUZZ_EXAMPLES ?= 2000
fuzz: $(TEST_STAMP)
	NEURON_FUZZ_EXAMPLES="$$ARG_FUZZ_EXAMPLES" $(VENV)/bin/python -m pytest -q tests/test_fuzz_data.py tests/test_data_properties.py
# make hostile-cases  -- the catalogue of hostile and careless data and the outcome each must have
.PHONY: hostile-cases
hostile-cases: $(VENV_STAMP)
	$(PY_EXT) tests/hostile_cases.py
# make bench-drift [BENCH_ARGS="--sizes 1000,5000 --runs 5"]  -- what the drift engine costs a build at scale
.PHONY: bench-drift
bench-drift: $(VENV_STAMP)
	@set -f; $(PY_EXT) bench/drift_engine.py $$ARG_BENCH_ARGS
# make bench-history [BENCH_ARGS="--parts import,build,release --runs 3"]  -- the benchmark history's import,
#   its share of the strict build, and one new release's rebuild, on the real data (see bench/README.md)
.PHONY: bench-history
bench-history: $(VENV_STAMP)
	@$(BYTECODE)
	@set -f; $(PY_EXT) bench/history.py $$ARG_BENCH_ARGS

# make snapshots  -- the renderers' doctree snapshots (tests/snapshots/, tests/test_renderer_snapshots.py) written
#   anew after a change to what a renderer makes that is meant; review them with `git diff tests/snapshots`
.PHONY: snapshots
snapshots: $(TEST_STAMP)
	NEURON_UPDATE_SNAPSHOTS=1 $(VENV)/bin/python -m pytest -q tests/test_renderer_snapshots.py

# make mutation [MUTATE="matrix/revisions verdicts"] [MUTATE="--again matrix/revisions"]  -- mutation testing
#   (cosmic-ray) of the core rules, one module at a time with its fastest tests (tests/mutation/run.py),
#   at the lowest CPU priority, on a copy of the tree; scores in build/mutation/scores.txt, the score and
#   every survivor in tests/MUTATION.md. Not part of make test (tens of minutes per module).
.PHONY: mutation
mutation: $(MUTATION_STAMP)
	@set -f; nice -n 19 $(VENV)/bin/python tests/mutation/run.py $$ARG_MUTATE

# Values given on the command line (BASE='...', SRC=..., FILE=...) are data, not shell text, nor make
# text: each becomes a simple variable holding its text verbatim ($(value ...): make expands nothing
# in it, not even a $(shell ...)), and those the tools read are exported to the recipe's environment
# as ARG_<name>: the recipe writes "$$ARG_<name>", which the shell expands as a plain value (a `$(...)`
# or a backtick inside it is text, never run). Lists (FILE, *_ARGS, SPHINXOPTS) are split into words
# by the shell with globbing off (set -f), and nothing else. tests/test_make_variables.py
ARG_VARS := BASE FROM TO FORMAT SRC FILE AUDIT_ARGS IMPORT_ARGS BENCH_ARGS FUZZ_EXAMPLES SPHINXOPTS STRICTOPTS \
            PYTEST_ARGS TEST_MARKERS BUILDDIR SOURCEDIR PDFNAME MUTATE
$(foreach v,$(sort $(ARG_VARS) $(foreach w,$(.VARIABLES),$(if $(filter command line environment override,$(origin $(w))),$(if $(filter ARG_VARS MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL SHELL PATH HOME,$(w)),,$(if $(findstring $$,$(value $(w))),$(w)))))),$(eval override $(v) := $$(value $(v))))
$(foreach v,$(ARG_VARS),$(eval export ARG_$(v) := $$(value $(v))))
