"""Two pages showing the published benchmark states: ``a`` their canonical place, ``b`` a copy
(``:no-index:``), for the tests of hosted objects (``tests/test_extension.py``).

The tests set ``neuron_data_dir`` through ``confoverrides``.
"""

extensions = ["neuron_docs"]
