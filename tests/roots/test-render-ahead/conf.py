"""Pages written before and after the index of CSV downloads, each with a table whose renderer warns
(``tests/test_renderers.py``: content rendered ahead for the index is rendered once, warned once).

The tests set ``neuron_data_dir`` through ``confoverrides``.
"""

extensions = ["neuron_docs"]
