"""One page with the vendor comparisons table (``tests/test_renderer_let_through.py``: a record the
validation let through is a located data problem, not a crash). ``neuron_data_dir`` is set by the tests."""

extensions = ["neuron_docs"]
