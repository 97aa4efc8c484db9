"""A project listing families' measured models; the tests point neuron_data_dir at the data."""

extensions = ["neuron_docs"]
nitpicky = True
