"""Pages whose generated content is rendered when they are written, from data that objects are
registered from when they are read: the advisor, family guidelines, known issues, roadmap items,
device specifications, frameworks, sources, environments and model status, the data downloads.

The tests set ``neuron_data_dir`` to a throw-away copy of ``data/`` through ``confoverrides``.
"""

extensions = ["neuron_docs"]
neuron_data_dir = "../../../data"
exclude_patterns = ["_build"]
