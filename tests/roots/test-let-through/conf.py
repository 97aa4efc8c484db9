"""One page (its ``index.rst`` written by the test) with the renderers of records a reference
validation could let through: the comparison table, a training experiment's price-performance
claims, the seed benchmark and accuracy tables (a run's environment's instance), the instance table
(an instance's device) (``tests/test_renderer_let_through.py``). ``neuron_data_dir`` is set by the test."""

extensions = ["neuron_docs"]
