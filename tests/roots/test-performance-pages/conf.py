"""The generated performance pages alone; the tests point neuron_data_dir at (a copy of) the data."""

extensions = ["neuron_docs"]
neuron_performance_pages = "performance"
