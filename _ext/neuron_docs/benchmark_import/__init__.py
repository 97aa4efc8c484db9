"""The offline tools of the published benchmark tables: importing them into ``data/``, reading the
published layout, writing it back; never imported by a build (an import-linter contract says so).

``make import-benchmarks`` (``python -m neuron_docs.benchmark_import``) runs :mod:`.command`. The
modules, lowest first: :mod:`.read` reads one published CSV (pandas, the only user of it) and
locates every problem; :mod:`.tables` turns what it reads into records; :mod:`.export` writes the
tables' layouts and prices into ``data/`` and the records back as the published CSV;
:mod:`.history_rows` holds the benchmark history's files as rows and the identity of a
configuration; :mod:`.fold` makes the history a pure function of its published states;
:mod:`.states` reads a folder of states (or one snapshot) and folds it in. What a build reads of the
same files lives below, in :mod:`neuron_docs.data` (:mod:`neuron_docs.data.published`). No Sphinx here.
"""
