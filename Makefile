# Build the documentation site and run its tests.
#   make html   - build the site strictly (creates .venv from requirements.txt when missing)
#   make test   - run the test suite
# Usual Sphinx variables are honoured: SPHINXOPTS, SPHINXBUILD, SOURCEDIR, BUILDDIR.

# Sphinx 9.2 needs Python >= 3.12; the machine's default python3 may be older.
PYTHON ?= $(shell for p in python3.13 /root/.pyenv/versions/3.13*/bin/python3.13 python3.14 python3.12 python3; do \
	  if $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then echo $$p; break; fi; done)
VENV        ?= .venv
VENV_STAMP  := $(VENV)/.requirements-installed
SPHINXBUILD ?= $(VENV)/bin/sphinx-build
SPHINXOPTS  ?=
STRICTOPTS  ?= -W --keep-going -n
SOURCEDIR   ?= source
BUILDDIR    ?= build
PYTEST_ARGS ?=

.PHONY: help html clean test venv audit matrix-diff bench

help:
	@echo "make html    build the site into $(BUILDDIR)/html (strict: warnings are errors)"
	@echo "make test    run the test suite"
	@echo "make clean   remove $(BUILDDIR)"

venv: $(VENV_STAMP)

$(VENV_STAMP): requirements.txt
	@test -n "$(PYTHON)" || { echo "error: no Python >= 3.12 found (install python3.13)"; exit 1; }
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -r requirements.txt
	@touch $@

html: $(VENV_STAMP)
	$(SPHINXBUILD) -b html -c . $(STRICTOPTS) $(SPHINXOPTS) $(SOURCEDIR) $(BUILDDIR)/html

test: $(VENV_STAMP)
	$(VENV)/bin/python -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(BUILDDIR)
