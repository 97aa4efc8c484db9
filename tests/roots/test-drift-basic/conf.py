"""A page with literal figures the drift checker must report (data: neuron_data_dir via confoverrides)."""

extensions = ["neuron_docs"]
neuron_data_dir = "../../../data"
exclude_patterns = ["_build"]
