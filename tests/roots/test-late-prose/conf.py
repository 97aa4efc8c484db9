"""Pages whose data is printed when they are written: figures, a fit and a status in prose, the
errata, the training experiment, a family's measured models and What's new.

The tests set ``neuron_data_dir`` to a throw-away copy of ``data/`` through ``confoverrides``.
"""

extensions = ["neuron_docs"]
neuron_data_dir = "../../../data"
exclude_patterns = ["_build"]
