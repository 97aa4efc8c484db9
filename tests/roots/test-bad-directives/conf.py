"""A project whose pages misuse the extension's directives and roles."""

# The tests set ``neuron_data_dir`` (the data directory) through confoverrides.
extensions = ["neuron_docs"]
nitpicky = True
