"""Every directive and role of the extension once (``support-matrices`` twice: a revision, and one that
does not exist), for the doctree snapshots of the renderers (``tests/test_renderer_snapshots.py``).

Its data is its own (``data/``), so that a legitimate change to the real data never moves a
snapshot: a trimmed copy of ``tests/fixtures/frozen-data`` with the benchmark history of one
published table (``inf1-throughput-data-cnn``, and the Inf1 prices), the support matrices'
revisions 2022-10-10 and 2022-11-16, and one known issue set aside on purpose (a misspelt key: the
"Data problem" box of ``broken-notice``). Change it only with the snapshots (README.md, "The tests' toolkit").
"""

extensions = ["neuron_docs"]
nitpicky = True
neuron_data_dir = "data"
exclude_patterns = ["_build", "data"]
