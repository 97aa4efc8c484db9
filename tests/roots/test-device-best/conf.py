"""A project with the best configurations of devices, without performance pages or an advisor; the
tests point neuron_data_dir at the data."""

extensions = ["neuron_docs"]
nitpicky = True
