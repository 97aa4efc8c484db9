"""Two pages showing What's new's benchmark releases: ``a`` their canonical place, ``b`` a copy
(``:no-index:``), for the tests of hosted objects (``tests/test_extension.py``).

The tests set ``neuron_data_dir`` through ``confoverrides``.
"""

extensions = ["neuron_docs"]
