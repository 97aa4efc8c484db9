"""A page with a generated table under a heading and the index of CSV downloads
(``tests/test_csv_index_incremental.py``: the index follows a heading changed in an incremental build).

The tests set ``neuron_data_dir`` through ``confoverrides``.
"""

extensions = ["neuron_docs"]
