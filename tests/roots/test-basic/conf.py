"""A minimal project using the extension; tests point neuron_data_dir at the data they need."""

# The tests set ``neuron_data_dir`` (the data directory) through confoverrides.
extensions = ["neuron_docs", "myst_parser"]
nitpicky = True
