"""What's new in the support matrices alone, for the incremental-build test of a new revision
(``tests/test_incremental.py``). The tests set ``neuron_data_dir`` through ``confoverrides``."""

extensions = ["neuron_docs"]
exclude_patterns = ["_build"]
