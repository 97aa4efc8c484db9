"""Seven pages, two of which describe the same device: a duplicate whichever way they are read.

The tests set ``neuron_data_dir`` through ``confoverrides``.
"""

extensions = ["neuron_docs"]
