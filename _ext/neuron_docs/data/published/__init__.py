"""The benchmark tables the Neuron documentation publishes, as a build reads them (layer 7).

Their column names and spellings (:mod:`.columns`), the benchmark history as the pages show it
(:mod:`.history_view`) and the one rule that judges a series (:mod:`.judgement`). Importing and
exporting the tables is :mod:`neuron_docs.benchmark_import`, which a build never imports.
"""
