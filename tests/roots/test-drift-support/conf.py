"""A Markdown page with a support claim that contradicts the data and a duplicated figure."""

extensions = ["neuron_docs", "myst_parser"]
neuron_data_dir = "../../../data"
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
