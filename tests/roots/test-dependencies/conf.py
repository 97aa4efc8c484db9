"""Pages for the dependency tests: a derived cost, a value that is missing at first, checked prose.

The tests set ``neuron_data_dir`` to a throw-away copy of ``data/`` through ``confoverrides``.
"""

extensions = ["neuron_docs"]
neuron_data_dir = "../../../data"
exclude_patterns = ["_build"]
