"""Two pages of the benchmark history (Inf1 and Inf2) and What's new's benchmark changes, for the
incremental-build tests of the history (``tests/test_incremental.py``).

The tests set ``neuron_data_dir`` to a throw-away copy of the data through ``confoverrides``.
"""

extensions = ["neuron_docs"]
neuron_data_dir = "../../../data"
exclude_patterns = ["_build"]
