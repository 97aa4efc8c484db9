"""Three pages for the incremental-build tests: one reads families.yaml (a support matrix), one reads
only the benchmark files (a benchmark table), one reads no data.

The tests set ``neuron_data_dir`` to a throw-away copy of ``data/`` through ``confoverrides``.
"""

extensions = ["neuron_docs"]
neuron_data_dir = "../../../data"
exclude_patterns = ["_build"]
